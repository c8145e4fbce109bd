"""The examples browser: pick a worked example, read what the manual says, then step it.

Each example in ``content/examples`` (:mod:`machina_nb.rules.cards.examples`) has a
board, units, rules, steps and the outcome the source states, in our words,
with its page. :class:`ExamplesBrowser` shows that text first, then runs the
steps one at a time through the engine (:mod:`machina_nb.rules.engine.worked`): the
board after each step, the step's events with their citations, and what the
example expects against what the engine did. A monster's turn is stepped one action
at a time (one press moves the monster at most one space), each with the plan that chose
it and its reasons drawn on the board, or played whole; the log groups the events under
the action that caused them and cites each rule once. The last step ends with the stated
outcome beside the engine's verdict.

Rules: manual p16-17 (Examples A-F), p19, p22, p24, p25; 3.5 FAQ.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import cast

import ipywidgets as widgets
from jupyter_bokeh.widgets import BokehModel

from machina_nb.rules.board.maptext import Point
from machina_nb.rules.cards.examples import Example, load_example
from machina_nb.rules.content import content_root
from machina_nb.rules.engine.monsters import MonsterPlan, mindless_step
from machina_nb.rules.engine.state import GameState, MonsterTurn
from machina_nb.rules.engine.worked import _STEPS, StepResult, TurnAction, example_state
from machina_nb.rules.errors import RulesError
from machina_nb.views import setup_notebook
from machina_nb.views.board import (
    Highlights,
    as_board,
    highlight_data,
    legend_html,
    plain_text,
    redraw_board,
    render_board,
    space_name,
    space_pixels,
)
from machina_nb.views.fit import fit_holder
from machina_nb.views.reference import RuleLinks, manual_links
from machina_nb.views.stepper import (
    cites_once,
    event_words,
    plan_action_words,
    plan_html,
    plan_overlay,
    unit_name,
)
from machina_nb.views.words import rules_words

__all__ = ["ShownStep", "example_files", "step_example", "ExamplesBrowser", "DEFAULT",
           "route_overlay", "turn_log_html", "example_text"]

DEFAULT = "p16_example_a_sarall"
"""The example shown first: mindless Example A (manual p16)."""


def example_files() -> tuple[Path, ...]:
    """Every worked example file in ``content/examples``, sorted by name (page first)."""
    return tuple(sorted((content_root() / "examples").glob("*.toml")))


@dataclass(frozen=True)
class ShownStep:
    """One step of an example as run: its result, the state after it, the plan a monster made
    at the start of its turn (or None), or the engine's refusal in ``error``."""

    result: StepResult | None
    state: GameState
    plan: MonsterPlan | None = None
    error: str = ""


def step_example(example: Example) -> tuple[GameState, dict[str, str], tuple[ShownStep, ...]]:
    """The example's first state, its letters' unit ids and every step run by the engine.

    A step the engine refuses ends the run with its error (the loader already refuses an
    unknown verb).
    """
    first, ids = example_state(example)
    rules = example.rules()
    state, out = first, []
    for step in example.steps:
        plan = None
        if step.do == "monster_turn":
            mid = ids[cast(str, step.actor)]
            turn = replace(state, phase="monster", monster_turn=MonsterTurn(mid),
                           done=tuple(m for m in state.queue if m != mid))
            plan = mindless_step(turn, rules, mid)
        runner = _STEPS.get(step.do)
        if runner is None:
            out.append(ShownStep(None, state, None, f"the engine has no step \"{step.do}\" yet"))
            break
        try:
            state, result = runner(state, rules, ids, step)
        except RulesError as error:
            out.append(ShownStep(None, state, plan, str(error)))
            break
        out.append(ShownStep(result, state, plan))
    return first, ids, tuple(out)


def _esc(value) -> str:
    return html.escape(str(value))


_KEY_WORDS = {"moves": "moves made", "end": "ends on", "stamina_left": "stamina left",
              "abilities": "abilities played", "ability_target": "ability aimed at",
              "max_stamina": "most stamina", "closed": "closed doors", "valid": "allowed"}


def value_words(value, names: Mapping[str, str] | None = None) -> str:
    """An expected or actual value in plain words: a space as ``C4``, a unit letter by name,
    yes/no for a truth value, lists joined with commas.

    >>> value_words([2, 3]), value_words(True), value_words(["H", "K"], {"H": "Hannah"})
    ('C4', 'yes', 'Hannah, K')

    A card (anything with a ``name``) is its name.
    """
    names = names or {}
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "nothing"
    if isinstance(value, (list, tuple)):
        if len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return space_name(tuple(value))
        return ", ".join(value_words(v, names) for v in value) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{_key_words(k, names)}: {value_words(v, names)}"
                         for k, v in value.items())
    if isinstance(value, str):
        return names.get(value, value.replace("_", " "))
    if isinstance(getattr(value, "name", None), str):      # a card: its printed name
        return value.name
    return str(value)


def _key_words(key: str, names: Mapping[str, str]) -> str:
    return names.get(key, _KEY_WORDS.get(key, key.replace("_", " ")))


def outcome_table(expected, got, names: Mapping[str, str] | None = None) -> str:
    """Expected against the engine's answer as an HTML table, one row per quantity, ✓ or ✗."""
    names = names or {}
    if isinstance(expected, dict) and isinstance(got, dict):
        rows = [(_key_words(k, names), expected.get(k), got.get(k))
                for k in dict.fromkeys([*expected, *got])]
    else:
        rows = [("result", expected, got)]
    body = "".join(
        f"<tr><td>{_esc(what)}</td><td>{_esc(value_words(e, names))}</td>"
        f"<td>{_esc(value_words(g, names))}</td><td>{'✓' if e == g else '✗'}</td></tr>"
        for what, e, g in rows)
    return ("<table class='example-table' style='border-spacing:14px 2px'><tr><th>what</th>"
            "<th>the source says</th>"
            f"<th>the engine gives</th><th></th></tr>{body}</table>")


def _centre(p) -> tuple[float, float]:
    return (p[0] + 0.5, p[1] + 0.5)


def route_overlay(actions: tuple[TurnAction, ...]) -> dict[str, dict[str, list]]:
    """The overlay of a monster's turn played whole: where it began, each space it moved to,
    the route in order and where the turn ended (manual p16)."""
    monster = actions[0].plan.monster
    spots = [cast(Point, actions[0].before.unit(monster).position)]
    spots += [cast(Point, a.after.unit(monster).position) for a in actions
              if a.after.has_unit(monster)]
    route = [p for i, p in enumerate(spots) if i == 0 or p != spots[i - 1]]
    spaces = [(route[0], "turn start")] if len(route) > 1 else []
    spaces += [(p, "step") for p in route[1:-1]] + [(route[-1], "turn end")]
    lines = tuple(((_centre(a), _centre(b)), "route") for a, b in zip(route, route[1:]))
    data = highlight_data(Highlights(tuple(spaces), lines))
    return {"overlay": data["overlay"], "overlay_lines": data["overlay_lines"]}


def _action_html(act: TurnAction, rules, cited: set[str], newest: bool = False) -> str:
    """One action of a turn: its sentence, why (the plan's reasons), what happened, and the
    rules not cited earlier in the turn; the ``newest`` is marked as this press's."""
    why = "".join(f"<li>{manual_links(event_words(act.before, r))}</li>"
                  for r in act.plan.reasons)
    happened = "".join(f"<li>{manual_links(event_words(act.before, e))}</li>"
                       for e in act.events if e.kind != "reason")
    cites = [c for c in cites_once(e.rule for e in act.events) if c not in cited]
    cited.update(cites)
    sentence = _esc(plan_action_words(act.plan, act.before, rules, True))
    return (f"<li class='turn-action'><b>{sentence}</b>"
            + (" <i>(this press)</i>" if newest else "")
            + f"<div class='turn-why'>Why:<ul>{why}</ul></div>"
            + (f"<div class='turn-events'>What happened:<ul>{happened}</ul></div>"
               if happened else "")
            + (f"<span class='cite'>Rules: {manual_links('; '.join(cites))}</span>" if cites
               else "")
            + "</li>")


def turn_log_html(actions: tuple[TurnAction, ...], rules, part_way: bool = False) -> str:
    """A monster's turn so far as a numbered log: each action with its reasons and the events
    it caused beneath it; each rule is cited once, under the first action that used it.
    ``part_way`` marks the last action as the one just shown."""
    cited: set[str] = set()
    items = "".join(_action_html(act, rules, cited, part_way and i == len(actions))
                    for i, act in enumerate(actions, 1))
    return f"<ol class='turn-log'>{items}</ol>"


#: Each step verb of :mod:`machina_nb.rules.engine.worked` as a heading ({who}: the actor).
_STEP_WORDS = {
    "set": "set up {who}", "monster_turn": "{who}'s turn",
    "distances": "the closest distance from {who} to each explorer",
    "contributors": "who may add essence when {who} attacks",
    "play_ability": "{who} plays an ability", "spawn_rating": "the adjusted spawn rating",
    "push": "{who} pushes", "pull": "{who} pulls", "inventory": "{who}'s inventory",
    "item_decks": "the item decks", "activate": "{who} activates a space",
    "use_inventory": "{who} uses an inventory", "trade_partners": "who may trade with {who}",
    "adjacent": "what {who} is adjacent to", "close_door": "{who} closes a door",
    "spawn_roll": "{who}'s spawn roll", "horror_roll": "the horror roll",
    "in_play": "the cards in play", "kill": "{who} is destroyed", "new_round": "a new round",
    "invoke": "an event is invoked", "chapter_space": "{who} activates a chapter space",
    "look": "how the table stands", "area": "the map tiles", "explore": "{who} explores",
    "place": "{who} is placed"}


def example_text(example: Example) -> str:
    """A worked example run by the engine, as plain text: each step with whether it did what
    the source states, a monster's turn action by action with its reasons, and the verdict.

    Rules: manual p15-17 (a mindless turn, one action at a time).
    """
    first, ids, steps = step_example(example)
    rules = example.rules()
    names = {letter: unit_name(first, uid) for letter, uid in ids.items() if first.has_unit(uid)}
    lines = [f"{example.page}: {example.title}"]
    for n, (step, shown) in enumerate(zip(example.steps, steps), 1):
        head = f"Step {n}, {_step_heading(step, names)}"
        if shown.error:
            lines.append(f"{head}: not run ({plain_text(shown.error)})")
            continue
        r = cast(StepResult, shown.result)
        got = value_words(r.got, names) if r.got not in ({}, [], None) else ""
        lines.append(f"{head}: {'as stated' if r.ok else 'DIFFERS'}" + (f" ({got})" if got else ""))
        for k, act in enumerate(r.actions, 1):
            lines.append(f"  {k}. {plan_action_words(act.plan, act.before, rules, True)}")
            lines += [f"       - {event_words(act.before, why)}" for why in act.plan.reasons]
    ok = len(steps) == len(example.steps) and all(s.result is not None and s.result.ok
                                                  for s in steps)
    return "\n".join(lines + [f"As the source states: {'yes' if ok else 'no'}"])


def _step_heading(step, names: Mapping[str, str]) -> str:
    who = names.get(step.actor, step.actor) if step.actor else ""
    return _STEP_WORDS.get(step.do, step.do.replace("_", " ") + " {who}").format(who=who)


def _button(text: str, css: str, tooltip: str = "") -> widgets.Button:
    button = widgets.Button(description=text, tooltip=tooltip or text)
    button.add_class(css)
    return button


class ExamplesBrowser(widgets.VBox):
    """Choose a worked example, read it, step it; see the stated outcome against the engine's.

    A monster's turn is stepped one action at a time with **next** (each action moves the
    monster at most one space) or played whole with **play the whole turn**.

    CSS classes for tests: ``examples-browser`` (the whole view), ``examples-pick``, ``example-text``,
    ``example-next``, ``example-turn``, ``example-restart``, ``example-step``,
    ``example-outcome``, ``turn-log`` (a turn's actions, each ``turn-action``),
    ``example-board`` (the board; its legend is ``example-legend``) and ``board-plot``. ``position`` is how many steps have been begun; ``acted`` how many
    actions of a monster's turn in that step have been shown.

    Rules: manual p16-17, p19, p22, p24, p25; 3.5 FAQ.
    """

    def __init__(self, files: tuple[Path, ...] | None = None):
        setup_notebook()
        self.examples = {p.stem: load_example(p) for p in (files or example_files())}
        self.pick = widgets.Dropdown(
            options=[(f"{e.page} — {e.title}", k) for k, e in self.examples.items()],
            description="Example", layout=widgets.Layout(width="640px"))
        self.pick.add_class("examples-pick")
        self.text = widgets.HTML()
        self.text.add_class("example-text")
        self.next_button = _button("next step", "example-next")
        self.turn_button = _button("play the whole turn", "example-turn",
                                   "play every remaining action of the monster's turn")
        self.restart_button = _button("restart", "example-restart")
        self.step_view = widgets.HTML()
        self.rule_links = RuleLinks()
        self.step_view.add_class("example-step")
        self.outcome = widgets.HTML()
        self.outcome.add_class("example-outcome")
        self.board_box = widgets.Box(layout=widgets.Layout(min_width="0", flex="0 1 auto",
                                                           overflow="hidden"))
        self.board_box.add_class("example-board")
        self.board_box.add_class("board-holder")
        self.legend = widgets.HTML(layout=widgets.Layout(width="230px", flex="0 0 auto"))
        self.legend.add_class("example-legend")
        self.next_button.on_click(lambda _: self.next_step())
        self.turn_button.on_click(lambda _: self.play_turn())
        self.restart_button.on_click(lambda _: self.restart())
        self.pick.observe(lambda _: self.choose(self.pick.value), "value")
        self.choose(self.pick.value if DEFAULT not in self.examples else DEFAULT)
        super().__init__([self.pick, self.text,
                          widgets.HBox([self.next_button, self.turn_button,
                                        self.restart_button]),
                          self._beside()])
        self.add_class("examples-browser")

    def choose(self, key: str) -> None:
        """Show example ``key`` (a file stem): its text, its first board, no step run yet."""
        example = self.examples[key]
        if self.pick.value != key:
            self.pick.value = key       # observe calls back here
            return
        self.example = example
        self.rules = example.rules()
        self.first, ids, self.steps = step_example(example)
        self.labels = {uid: letter for letter, uid in ids.items()}
        # A new map (its own size and walls): a new figure, shown once its first data is in.
        self.figure, self.sources = render_board(example.board, px_per_space=max(
            40, space_pixels(as_board(example.board), 440)))
        self.names = {letter: unit_name(self.first, uid) for letter, uid in ids.items()
                      if self.first.has_unit(uid)}
        steps = "".join(f"<li>{_esc(self._step_words(s))}"
                        + (f" → {_esc(value_words(s.target, self.names))}"
                           if s.target is not None else "")
                        + (f" — {manual_links(plain_text(s.record.get('note')))}"
                           if s.record.get("note") else "")
                        + "</li>" for s in example.steps)
        self.text.value = (
            f"<h3>{_esc(example.title)}</h3><p><b>{manual_links(example.page)}</b> · rules: "
            f"{_esc(rules_words(example.preset, self.rules))}</p>"
            f"<p><b>What the source says happens</b> (our words): {_esc(example.outcome)}</p>"
            f"<p>Steps:</p><ol>{steps}</ol>")
        self.restart()
        self.plot = BokehModel(self.figure, layout=widgets.Layout(width="100%"))
        self.plot.add_class("board-plot")
        self.board_box.children = (self.plot,)
        fit_holder(self.board_box, self.figure)

    def _beside(self) -> widgets.Box:
        """The board, then the step's answer and the legend: side by side on a wide window,
        the answer directly under the board on a narrow one."""
        answer = widgets.VBox([self.step_view, self.rule_links, self.outcome],
                              layout=widgets.Layout(flex="1 1 300px", min_width="260px",
                                                    max_width="520px"))
        return widgets.Box([self.board_box, answer, self.legend],
                           layout=widgets.Layout(display="flex", flex_flow="row wrap",
                                                 align_items="flex-start", grid_gap="8px 18px"))

    def _step_words(self, step) -> str:
        return _step_heading(step, self.names)

    def restart(self) -> None:
        """Back to the example's first state."""
        self.position = self.acted = 0
        self._show(self.first)
        self.step_view.value = "<i>Press <b>next step</b> to run the first step.</i>"
        self.rule_links.show(self.example.page)
        self.outcome.value = ""
        self._set_buttons()

    # --- stepping --------------------------------------------------------------------------

    def turn_actions(self, n: int | None = None) -> tuple[TurnAction, ...]:
        """The actions of the monster's turn in step ``n`` (1-based; default the step shown),
        or none when step ``n`` is no monster's turn."""
        n = self.position if n is None else n
        result = self.steps[n - 1].result if 1 <= n <= len(self.steps) else None
        return result.actions if result is not None else ()

    def in_turn(self) -> bool:
        """Whether a monster's turn is part way through: its next action comes next."""
        return 0 < self.acted < len(self.turn_actions())

    def next_step(self) -> ShownStep | None:
        """One press: the next action of the monster's turn under way or beginning (it moves at
        most one space), or else the next step; after the last, the stated outcome."""
        if not self.in_turn():
            if self.position >= len(self.steps):
                return None
            self.position += 1
            self.acted = 0
        if self.turn_actions():
            self.acted += 1
        return self._show_position()

    def play_turn(self) -> ShownStep | None:
        """The rest of the monster's turn at once: the turn under way, or the next step's."""
        if not self.in_turn():
            if not self.turn_actions(self.position + 1):
                return None
            self.position += 1
        self.acted = len(self.turn_actions())
        return self._show_position()

    def _set_buttons(self) -> None:
        turn_next = self.in_turn() or bool(self.turn_actions(self.position + 1))
        self.next_button.disabled = self.position >= len(self.steps) and not self.in_turn()
        self.next_button.description = "next action" if turn_next else "next step"
        self.next_button.tooltip = ("the monster's next action: at most one space" if turn_next
                                    else "run the next step of the example")
        self.turn_button.disabled = not turn_next

    def _show_position(self) -> ShownStep:
        n = self.position
        shown = self.steps[n - 1]
        before = self.steps[n - 2].state if n > 1 else self.first
        actions = self.turn_actions()
        if not actions:
            self._show(shown.state, plan_overlay(before, shown.plan))
        elif self.in_turn():
            act = actions[self.acted - 1]
            self._show(act.after, plan_overlay(act.before, act.plan, acted=True))
        else:
            self._show(shown.state, route_overlay(actions))
        # buttons and outcome first, the step's text last: whoever waits for the text to change
        # then sees every other part of the answer already in place
        self._set_buttons()
        if n == len(self.steps) and not self.in_turn():
            self.outcome.value = self._outcome_html()
        self.rule_links.show(self._step_cites(shown))
        self.step_view.value = self._step_html(n, shown)
        return shown

    # --- showing ---------------------------------------------------------------------------

    def _show(self, state: GameState, overlay: Mapping[str, dict] | None = None) -> None:
        redraw_board(self.figure, self.sources, state.unit_board())
        on_map = [u for u in state.units if u.position is not None]
        self.sources["units"].data = {"x": [cast(Point, u.position)[0] + 0.5 for u in on_map],
                                      "y": [cast(Point, u.position)[1] + 0.5 for u in on_map],
                                      "letter": [self.labels.get(u.id, "?") for u in on_map]}
        for name, data in (overlay or plan_overlay(state, None)).items():
            self.sources[name].data = data
        self.legend.value = legend_html(self.sources, {
            letter: unit_name(state, uid) for uid, letter in self.labels.items()
            if state.has_unit(uid)})

    def _step_html(self, n: int, shown: ShownStep) -> str:
        step = self.example.steps[n - 1]
        head = f"<b>Step {n} of {len(self.example.steps)}</b>: {_esc(self._step_words(step))}"
        if shown.error:
            return f"{head}<br><b>not run</b>: {_esc(plain_text(shown.error))}"
        r = cast(StepResult, shown.result)
        table = (f" — <b>{'✓ as stated' if r.ok else '✗ differs'}</b>"
                 f"{outcome_table(r.expected, r.got, self.names)}")
        if r.actions:
            return self._turn_html(head, r.actions, table)
        before = self.steps[n - 2].state if n > 1 else self.first
        events = "".join(f"<li>{manual_links(event_words(before, e))}</li>" for e in r.events)
        cites = "; ".join(cites_once(e.rule for e in r.events))
        plan = ("<p>Its plan:</p>" + plan_html(shown.plan, self.labels, before, self.rules)
                if shown.plan else "")
        return (f"{head}{table}{plan}"
                + (f"<p>What happened:</p><ol class='event-items'>{events}</ol>"
                   f"<span class='cite'>Rules: {manual_links(cites)}</span>" if events else ""))

    def _step_cites(self, shown: ShownStep) -> str:
        """The example's page and the rules its step ``shown`` cites."""
        r = None if shown.error else shown.result
        events = [] if r is None else [*r.events, *(e for a in r.actions for e in a.events)]
        return "; ".join([self.example.page, *cites_once(e.rule for e in events)])

    def _turn_html(self, head: str, actions: tuple[TurnAction, ...], table: str) -> str:
        """A monster's turn so far: which action, the log grouped by action; part way, the
        current action's plan (drawn on the board); when whole, the stated outcome's table."""
        k = self.acted
        if k < len(actions):
            act = actions[k - 1]
            return (f"{head} — action {k} of {len(actions)} "
                    "<i>(press <b>next action</b> for the next one, at most one space)</i>"
                    f"{turn_log_html(actions[:k], self.rules, part_way=True)}"
                    "<p>Its plan for this action, drawn on the board:</p>"
                    + plan_html(act.plan, self.labels, act.before, self.rules, reasons=False))
        return (f"{head}, all {len(actions)} actions{table}"
                "<p>The turn, action by action (the route is drawn on the board):</p>"
                f"{turn_log_html(actions, self.rules)}")

    def verdict(self) -> bool:
        """Whether every step ran and did what the example states."""
        return len(self.steps) == len(self.example.steps) and \
            all(s.result is not None and s.result.ok for s in self.steps)

    def _outcome_html(self) -> str:
        ok = self.verdict()
        engine = ("every step did what the source states" if ok else
                  "; ".join(f"step {i}: " + (plain_text(s.error) or
                                             "the source says "
                                             f"{value_words(cast(StepResult, s.result).expected)}, "
                                             "the engine gives "
                                             f"{value_words(cast(StepResult, s.result).got)}")
                            for i, s in enumerate(self.steps, 1)
                            if s.error or not cast(StepResult, s.result).ok))
        return (f"<p><b>Stated outcome</b> ({_esc(self.example.page)}): "
                f"{_esc(self.example.outcome)}</p>"
                f"<p><b>Engine</b>: {'✓' if ok else '✗'} {_esc(engine)}</p>")
