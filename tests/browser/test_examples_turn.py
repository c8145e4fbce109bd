"""The Examples tab in Chromium: a monster's turn stepped one action at a time (one press moves
it at most one space) and played whole to the example's stated outcome (manual p16-17).
Screenshots in test-artifacts/examples-turn-*.png."""

import re

import pytest
from test_app import open_app
from test_teaching import _COLOURS_DRAWN, assert_plain
from waits import LOAD, WAIT, painted, text_changes, until

from machina_nb.rules.cards.examples import load_example
from machina_nb.rules.content import content_root
from machina_nb.views.examples import example_files, step_example

pytestmark = pytest.mark.browser

_UNITS = """(selector) => {
  for (const view of window.Bokeh.index.roots) {
    if (!view || !view.el || !view.el.closest(selector) || !view.model.renderers) continue;
    if (view.el.getBoundingClientRect().width === 0) continue;
    for (const r of view.model.renderers) {
      const data = r.data_source && r.data_source.data;
      if (data && data.letter && data.x && !data.kind)
        return Object.fromEntries(Array.from(data.letter).map((l, i) => [l, [data.x[i], data.y[i]]]));
    }
  }
  return null;
}"""


def units_drawn(page) -> dict:
    """Each unit letter's space centre as the browser's board draws it now."""
    return page.evaluate(_UNITS, ".example-board") or {}


def open_examples(page, voila, key: str):
    open_app(page, voila)
    page.get_by_role("tab", name="Examples", exact=True).click()
    page.locator(".example-text").wait_for(state="visible", timeout=LOAD)
    page.locator(".example-board canvas").first.wait_for(state="visible", timeout=LOAD)
    if key != "p16_example_a_sarall":
        index = [p.stem for p in example_files()].index(key)
        page.locator(".examples-pick select").select_option(index=index)
        page.locator(".example-text", has_text=load_example(
            content_root() / "examples" / f"{key}.toml").title).wait_for(timeout=WAIT)
    until(page, lambda: units_drawn(page), "the example's units to be drawn")


def expected_units(key: str) -> list[dict]:
    """Where the engine puts each unit after each press (the test's own run of the example)."""
    example = load_example(content_root() / "examples" / f"{key}.toml")
    first, ids, steps = step_example(example)
    letters = {uid: letter for letter, uid in ids.items()}

    def at(state):
        return {letters[u.id]: [u.position[0] + 0.5, u.position[1] + 0.5]
                for u in state.units if u.position is not None}
    out = []
    for shown in steps:
        actions = shown.result.actions if shown.result else ()
        out += [at(a.after) for a in actions] if actions else [at(shown.state)]
    return out


def shoot(page, artifacts, name: str) -> None:
    """The whole Examples view, however tall: the window is made tall enough first (the app
    scrolls inside the page, so a full-page shot would cut it)."""
    view = page.locator(".examples-browser")
    box = view.bounding_box()
    page.set_viewport_size({"width": 1280, "height": int(max(900, box["y"] + box["height"] + 40))})
    painted(page)
    view.screenshot(path=str(artifacts / name))


def press(page, button: str, expected: dict | None = None) -> str:
    """Click ``button`` in the Examples tab; wait for the step text to change and, when given,
    for the board to draw the units where the engine put them. The new step text."""
    text = page.locator(".example-step")
    before = text.inner_text()
    page.locator(f"button.{button}").click()
    now = text_changes(page, text, before)
    if expected is not None:
        until(page, lambda: units_drawn(page) == expected, f"the units at {expected}")
    painted(page)
    return now


def test_manual_p16_one_press_in_a_monster_turn_moves_it_at_most_one_space(
        page, voila, artifacts):
    key = "p16_example_a_sarall"
    open_examples(page, voila, key)
    shoot(page, artifacts, "examples-turn-start.png")
    expected = expected_units(key)
    drawn = units_drawn(page)
    for n, where in enumerate(expected, 1):
        step = press(page, "example-next", where)
        moved = max(max(abs(a - b) for a, b in zip(where[u], drawn[u])) for u in where)
        assert moved <= 1, f"press {n} moved a unit {moved} spaces"
        drawn = where
        if re.search(r"action \d+ of \d+", step):
            assert "Why:" in step and "this press" in step
            shoot(page, artifacts, f"examples-turn-press-{n}.png")
            assert_plain(page.locator(".example-step").inner_text(), f"press {n}")
    page.locator(".example-outcome", has_text="Stated outcome").wait_for(timeout=WAIT)
    assert "✓" in page.locator(".example-outcome").inner_text()
    assert page.locator("button.example-next").is_disabled()
    assert drawn["S"] == [2.5, 3.5]                            # C4, as the manual states


def test_manual_p16_17_a_monster_turn_played_whole_reaches_the_stated_outcome(
        page, voila, artifacts):
    key = "p16_example_b_mi_go_tie"
    open_examples(page, voila, key)
    press(page, "example-next")                                # set the Mi-Go's stamina
    press(page, "example-next")                                # the distances
    assert page.locator("button.example-turn").is_enabled()
    step = press(page, "example-turn", expected_units(key)[-1])
    assert "all 4 actions" in step and "✓ as stated" in step
    assert units_drawn(page)["M"] == [1.5, 2.5]                # B3, next to Phillip
    page.locator(".example-outcome", has_text="Stated outcome").wait_for(timeout=WAIT)
    outcome = page.locator(".example-outcome").inner_text()
    assert "✓ every step did what the source states" in outcome
    actions = page.locator(".turn-action").all_inner_texts()
    assert [a.splitlines()[0].strip() for a in actions] == [
        "Mi-Go steps to A4", "Mi-Go steps to B3", "Mi-Go plays probe on Phillip (C2)",
        "Mi-Go ends its turn"]
    shoot(page, artifacts, "examples-turn-whole.png")
    page.locator(".example-board").screenshot(path=str(artifacts / "examples-turn-board.png"))
    assert_plain(page.locator(".example-step").inner_text() + outcome, "the whole turn")
    drawn = set(page.evaluate(_COLOURS_DRAWN, ".example-board"))
    legend = set(page.locator(".example-legend .legend-swatch").evaluate_all(
        "els => els.map(e => e.dataset.colour)"))
    assert drawn and drawn <= legend, drawn - legend


def test_a_notebook_ends_with_a_quiz_answered_by_the_rules(page, voila, artifacts):
    """Notebook 02 in Voila closes with its quiz: a question answered with a button is marked
    right with the rule, and the folded answer key agrees (manual p34)."""
    page.set_viewport_size({"width": 1280, "height": 1400})
    page.goto(f"{voila}/voila/render/02_moving_nearest_closest.ipynb", timeout=LOAD)
    prompt = page.locator(".quiz-prompt", has_text="Kim (A) has 3 stamina")
    prompt.wait_for(timeout=LOAD)
    page.locator(".quiz-board-plot canvas").first.wait_for(state="visible", timeout=LOAD)
    page.locator("button.quiz-option", has_text="yes").click()
    page.locator(".quiz-feedback", has_text="Right.").wait_for(timeout=WAIT)
    page.locator(".quiz-score", has_text="Score: 1 of 1 answered").wait_for(timeout=WAIT)
    feedback = page.locator(".quiz-feedback").inner_text()
    assert "Rule: manual p34" in feedback and "asked under manual 1.0" in feedback
    key = page.locator(".quiz-key details").first
    assert not key.evaluate("d => d.open")                  # folded until the reader opens it
    key.locator("summary").click()
    assert "The answer: yes" in key.inner_text()
    painted(page)
    page.locator(".quiz-prompt").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "notebook-02-quiz.png"))
    page.locator(".quiz-key").screenshot(path=str(artifacts / "notebook-02-quiz-key.png"))
    assert_plain(feedback + page.locator(".quiz-key").inner_text(), "notebook 02's quiz")
