"""The examples browser without a browser: pick an example, step it to its stated outcome.

Rules: manual p16-17 (mindless Examples A-F), p19, p22, p24, p25; 3.5 FAQ; spec §B.
"""

import pytest

from machina_nb.views.examples import ExamplesBrowser, example_files, step_example
from machina_nb.rules.cards.examples import load_example


@pytest.fixture(scope="module")
def browser():
    return ExamplesBrowser()


def test_every_example_file_is_offered(browser):
    assert [key for _, key in browser.pick.options] == [p.stem for p in example_files()]


def test_manual_p16_example_a_reads_then_steps_to_its_stated_outcome(browser):
    browser.pick.value = "p16_example_a_sarall"
    text = browser.text.value
    assert "manual p16" in text and "What the source says happens" in text
    assert browser.position == 0 and browser.outcome.value == ""
    start = dict(zip(browser.sources["units"].data["letter"],
                     zip(browser.sources["units"].data["x"], browser.sources["units"].data["y"])))
    browser.next_button.click()
    assert "Step 1 of 2" in browser.step_view.value and "✓ as stated" in browser.step_view.value
    browser.next_button.click()
    step = browser.step_view.value
    assert "Step 2 of 2" in step and "The plan at the start of its turn" in step
    assert "Rules: manual p15-17" in step and "the engine gives" in step  # cited once; a table
    # the planned path is drawn from where the monster started
    overlay = browser.sources["overlay"].data
    monster_at = overlay["x"][overlay["role"].index("monster")], \
        overlay["y"][overlay["role"].index("monster")]
    assert monster_at == start["S"]
    assert browser.next_button.disabled
    assert "Stated outcome" in browser.outcome.value and "✓" in browser.outcome.value
    assert browser.verdict()


@pytest.mark.parametrize("key", [p.stem for p in example_files()
                                 if p.stem.startswith(("p16", "p17"))])
def test_manual_p16_17_examples_a_to_f_step_to_their_stated_outcomes(browser, key):
    browser.pick.value = key
    while not browser.next_button.disabled:
        browser.next_button.click()
    assert browser.position == len(browser.example.steps)
    assert browser.verdict(), browser.outcome.value


def test_restart_returns_to_the_first_board(browser):
    browser.pick.value = "p16_example_b_mi_go_tie"
    first = dict(browser.sources["units"].data)
    for _ in range(3):
        browser.next_button.click()
    assert dict(browser.sources["units"].data) != first
    browser.restart_button.click()
    assert dict(browser.sources["units"].data) == first and browser.position == 0
    assert not browser.next_button.disabled


def test_a_step_the_engine_cannot_run_is_shown_not_hidden(tmp_path):
    source = next(p for p in example_files() if p.stem == "p16_example_a_sarall")
    # the loader refuses unknown verbs and keys; a value the engine refuses is found by running
    text = source.read_text(encoding="utf-8").replace(
        'do = "distances"\nactor = "S"\nexpect = { P = 3, L = 4 }',
        'do = "set"\nactor = "S"\nhealth = 9')
    path = tmp_path / "unrunnable_step.toml"
    path.write_text(text, encoding="utf-8")
    _, _, steps = step_example(load_example(path))
    assert len(steps) == 1 and "exceeds its maximum" in steps[0].error
    view = ExamplesBrowser((path,))
    view.next_button.click()
    assert view.next_button.disabled
    assert "not run" in view.step_view.value and "✗" in view.outcome.value
    assert not view.verdict()


def test_each_example_is_drawn_on_its_own_board(browser):
    browser.pick.value = "faq35_spawn_numbers"
    small = len(browser.sources["spaces"].data["x"])
    browser.pick.value = "p16_example_b_mi_go_tie"
    board = browser.example.board
    assert len(browser.sources["spaces"].data["x"]) == board.width * board.height != small
    assert browser.board_box.children == (browser.plot, browser.legend)


def test_manual_p16_example_a_is_shown_first():
    assert ExamplesBrowser().pick.value == "p16_example_a_sarall"
