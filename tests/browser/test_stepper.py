"""The round stepper in a real browser: the app's Round tab, "next phase" advances the phase
label and the log (manual p10: the round's phases)."""

import pytest
from explorer_page import open_tab
from waits import LOAD, WAIT, changed_pixels, painted, text_changes, until

pytestmark = pytest.mark.browser


def test_manual_p10_next_phase_advances_the_phase_label_and_the_log(explorer, artifacts):
    page = explorer.page
    open_tab(page, "Round")
    label = page.locator(".phase-label")
    log = page.locator(".event-log")
    until(page, lambda: label.inner_text().strip(), "the phase shown")
    assert "explorer phase" in label.inner_text()
    assert "No actions yet" in log.inner_text()
    page.screenshot(path=str(artifacts / "stepper-before.png"), full_page=True)
    page.locator("button.step-phase").click()
    page.locator(".phase-label", has_text="spawn phase").wait_for(timeout=WAIT)
    page.locator(".event-log", has_text="Round 1 · spawn phase").wait_for(timeout=WAIT)
    painted(page)
    page.screenshot(path=str(artifacts / "stepper-after.png"), full_page=True)
    assert "Round 1" in label.inner_text()
    assert "manual p12" in log.inner_text()
    assert "End of the explorer phase" in log.inner_text()
    # both explorers share tile 1 and its spawn space: who rolls first is no choice
    assert page.locator("button.step-option").count() == 0


def test_manual_p16_the_monster_plan_and_path_are_drawn_and_one_action_moves_it(
        page, voila, artifacts):
    page.goto(f"{voila}/voila/render/05_mindless_monster.ipynb", timeout=LOAD)
    plan = page.locator(".step-plan", has_text="Mi-Go (M)")
    plan.wait_for(timeout=LOAD)
    canvas = page.locator(".board-plot canvas").first
    canvas.wait_for(state="visible", timeout=WAIT)
    painted(page)
    plan.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "stepper-plan.png"), full_page=True)
    before = canvas.screenshot(path=str(artifacts / "stepper-plan-board.png"))
    page.locator("button.step-action").first.click()
    page.locator(".event-log", has_text="moves").first.wait_for(timeout=WAIT)
    assert changed_pixels(page, canvas, before, str(artifacts / "stepper-plan-after.png")) \
        != before


def test_manual_p16_the_examples_tab_steps_an_example_to_its_stated_outcome(
        explorer, artifacts):
    page = explorer.page
    open_tab(page, "Examples")
    nxt = page.locator("button.example-next")
    text = page.locator(".example-step")
    outcome = page.locator(".example-outcome", has_text="Stated outcome")
    while not outcome.count() and nxt.is_enabled():
        before = text.inner_text()
        nxt.click()
        text_changes(page, text, before)
    outcome.wait_for(timeout=WAIT)
    page.screenshot(path=str(artifacts / "examples-outcome.png"), full_page=True)
    assert "✓" in page.locator(".example-outcome").inner_text()


def test_manual_p33_notebook_07_steps_a_chest_through_the_players_choices(
        page, voila, artifacts):
    """Notebook 07 in Voila: Kim activates the chest; each choice of *gain item* is offered
    in the action list, and the log ends citing manual p33."""
    page.goto(f"{voila}/voila/render/07_items_and_abilities.ipynb", timeout=LOAD)
    choice = page.locator(".step-choice select")
    choice.wait_for(timeout=LOAD)
    page.locator(".board-plot canvas").first.wait_for(state="visible", timeout=WAIT)
    page.wait_for_function("() => [...document.querySelectorAll('.step-choice option')]"
                           ".some(o => o.textContent.includes('activates'))",
                           timeout=WAIT)
    activate = next(o for o in choice.locator("option").all_inner_texts()
                    if "activates" in o)  # ipywidgets shows spaces as no-break spaces
    choice.select_option(label=activate)
    page.locator("button.step-action").click()
    page.locator(".step-message", has_text="players choose").wait_for(timeout=WAIT)
    page.screenshot(path=str(artifacts / "notebook-07-choice.png"), full_page=True)
    log, message = page.locator(".event-log"), page.locator(".step-message")
    for _ in range(8):
        if "players choose" not in message.inner_text():
            break
        options = choice.locator("option")
        before = (log.inner_text(), message.inner_text(), options.all_inner_texts())
        choice.select_option(index=0)
        page.locator("button.step-action").click()

        def resolved(options=options, before=before):
            # the view clears the message before it writes the next one: wait for the next
            now = (log.inner_text(), message.inner_text(), options.all_inner_texts())
            return now[0] != before[0] or (now[1].strip() and now[1:] != before[1:])
        until(page, resolved, "the choice to resolve")
    page.locator(".event-log", has_text="manual p33").wait_for(timeout=WAIT)
    page.screenshot(path=str(artifacts / "notebook-07-after.png"), full_page=True)
