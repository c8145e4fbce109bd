"""The examples browser without a browser: pick an example, step it to its stated outcome.

Rules: manual p16-17 (mindless Examples A-F; a monster's turn one action at a time), p19,
p22, p24, p25; 3.5 FAQ.
"""

import html
import re

import pytest

from machina_nb.rules.cards.examples import load_example
from machina_nb.rules.engine.worked import VERBS
from machina_nb.views.examples import (
    _STEP_WORDS,
    ExamplesBrowser,
    example_files,
    example_text,
    step_example,
)


@pytest.fixture(scope="module")
def browser():
    return ExamplesBrowser()


def test_every_example_file_is_offered(browser):
    assert [key for _, key in browser.pick.options] == [p.stem for p in example_files()]


def units_at(browser) -> dict[str, tuple[float, float]]:
    data = browser.sources["units"].data
    return dict(zip(data["letter"], zip(data["x"], data["y"])))


def test_manual_p16_example_a_reads_then_steps_to_its_stated_outcome(browser):
    browser.pick.value = "p16_example_a_sarall"
    text = browser.text.value
    assert "manual p16" in text and "What the source says happens" in text
    assert browser.position == 0 and browser.outcome.value == ""
    start = units_at(browser)
    browser.next_button.click()
    assert "Step 1 of 2" in browser.step_view.value and "✓ as stated" in browser.step_view.value
    assert browser.next_button.description == "next action"   # the Sarall's turn comes next
    browser.next_button.click()
    step = browser.step_view.value
    assert "Step 2 of 2" in step and "action 1 of 3" in step
    assert "Sarall steps to B4" in step and "Its plan for this action" in step
    assert "targets Phillip, closest at 3" in step            # the plan's reason, in words
    # the plan of this action is drawn from where the monster stood when it made it
    overlay = browser.sources["overlay"].data
    monster_at = overlay["x"][overlay["role"].index("planned from")], \
        overlay["y"][overlay["role"].index("planned from")]
    assert monster_at == start["S"]
    assert units_at(browser)["S"] == (1.5, 3.5)                # one space: A5 -> B4
    assert browser.outcome.value == "" and not browser.next_button.disabled
    browser.next_button.click()
    browser.next_button.click()
    step = browser.step_view.value
    assert "all 3 actions" in step and "✓ as stated" in step and "the engine gives" in step
    assert step.count("manual p15-17") == 1                    # each rule cited once
    assert browser.next_button.disabled and browser.turn_button.disabled
    assert "Stated outcome" in browser.outcome.value and "✓" in browser.outcome.value
    assert browser.verdict()


def monster_turn_examples():
    return [p.stem for p in example_files()
            if any(s.do == "monster_turn" for s in load_example(p).steps)]


@pytest.mark.parametrize("key", monster_turn_examples())
def test_manual_p16_one_press_in_a_monster_turn_moves_it_at_most_one_space(browser, key):
    browser.pick.value = key
    presses = 0
    while not browser.next_button.disabled:
        before = units_at(browser)
        in_turn = browser.next_button.description == "next action"
        browser.next_button.click()
        presses += 1
        if not in_turn:
            continue
        monster = browser.labels[browser.turn_actions()[0].plan.monster]
        after = units_at(browser)
        if monster in before and monster in after:
            (x0, y0), (x1, y1) = before[monster], after[monster]
            assert max(abs(x1 - x0), abs(y1 - y0)) <= 1, (key, presses)
    assert browser.verdict(), browser.outcome.value


@pytest.mark.parametrize("key", monster_turn_examples())
def test_manual_p16_a_monster_turn_played_whole_reaches_the_stated_outcome(browser, key):
    browser.pick.value = key
    while not browser.next_button.disabled:
        if not browser.turn_button.disabled:
            browser.turn_button.click()
            shown = browser.steps[browser.position - 1]
            assert shown.result.actions and not browser.in_turn()
            assert units_at(browser) == {browser.labels[u.id]: (u.position[0] + .5,
                                                                u.position[1] + .5)
                                         for u in shown.state.units if u.position}
            assert browser.sources["overlay"].data["role"][-1] == "turn end"
        else:
            browser.next_button.click()
    assert browser.verdict() and "✓" in browser.outcome.value


def test_manual_p16_play_the_whole_turn_finishes_a_turn_stepped_part_way(browser):
    browser.pick.value = "p16_example_b_mi_go_tie"
    for _ in range(3):                      # set, distances, the Mi-Go's first action
        browser.next_button.click()
    assert browser.in_turn() and browser.acted == 1
    browser.turn_button.click()
    step = browser.step_view.value
    assert not browser.in_turn() and "all 4 actions" in step
    # the log groups the events under the action that caused them, in order
    actions = step.split("<li class='turn-action'>")[1:]
    assert [a.split("</b>")[0] for a in actions] == [
        "<b>Mi-Go steps to A4", "<b>Mi-Go steps to B3", "<b>Mi-Go plays probe on Phillip (C2)",
        "<b>Mi-Go ends its turn"]
    assert "Phillip loses 1 health" in actions[2] and "Phillip loses" not in actions[1]
    for rule in ("manual p15-17", "manual p24 (attack)", "manual p34 (move)"):
        assert step.count(rule) == 1, rule
    assert "round 2 begins" not in step     # the round moving on is not part of the turn


def test_every_step_verb_has_a_heading_in_words():
    assert set(_STEP_WORDS) == set(VERBS)


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
    assert browser.board_box.children == (browser.plot,)


def test_manual_p16_example_a_is_shown_first():
    assert ExamplesBrowser().pick.value == "p16_example_a_sarall"


def test_manual_p16_example_a_in_words_action_by_action_with_its_reasons():
    text = example_text(load_example(next(p for p in example_files()
                                          if p.stem == "p16_example_a_sarall")))
    lines = text.splitlines()
    assert lines[0] == "manual p16: Mindless Example A: Sarall closes in and cannot afford its ability"
    assert [line.strip() for line in lines if line.startswith("  ") and line[2].isdigit()] == [
        "1. Sarall steps to B4", "2. Sarall steps to C4", "3. Sarall ends its turn"]
    assert "- targets Phillip, closest at 3 (manual p15)" in text
    assert "rend (from its card): costs 3 stamina, only 2 left (manual p16)" in text
    assert lines[-1] == "As the source states: yes"
    assert "None" not in text and "(1, 3)" not in text


REPR = re.compile(r"\b[A-Z]\w*\(\w+=|\{\s*'|\bNone\b|\*\*")


@pytest.mark.parametrize("key", [p.stem for p in example_files()])
def test_every_example_steps_in_plain_words(browser, key):
    """No dataclass repr, dict literal, None or ** in any step or outcome a teacher reads."""
    browser.pick.value = key
    seen = [browser.text.value]
    while not browser.next_button.disabled:
        browser.next_button.click()
        seen.append(browser.step_view.value + browser.outcome.value + browser.legend.value)
    for text in seen:
        found = REPR.search(html.unescape(re.sub(r"<[^>]+>", " ", text)))
        assert not found, (key, text[max(0, found.start() - 80):found.end() + 80])
