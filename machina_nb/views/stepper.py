"""The round stepper: watch a round unfold action by action, phase by phase, with undo and redo.

:class:`RoundStepper` holds a :class:`~machina_nb.rules.engine.game.History` and shows
its current state: the board with the units and the acting monster's planned
path, the round and phase, the ratings, threat and level, the monster queue,
the next monster's plan with its reasons, and the event log with citations.
Every rule answer comes from :mod:`machina_nb.rules` (``legal_actions``,
``History.apply``, ``mindless_step``); this module only picks which legal
action a button means and formats the answers:

* **next action** applies the action chosen in the action list;
* **next phase** / **next round** apply actions until the phase / round
  changes. In the explorer phase each explorer passes (starts and ends their
  turn, in seating order); in the other phases the phase's only roll or
  monster action is taken. Where the players must choose (several explorers may
  roll, a monster's tie), stepping stops and the action list asks — a tie is
  never broken silently (manual p16).

Dice are scripted (type the next results, ``7 3``) or seeded (a seed box). A
roll with nothing scripted stops the step and lists the die's outcomes.

Rules: manual p10 (round), p12-16 (phases, monster turn).
"""

from __future__ import annotations

import html
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import cast

import ipywidgets as widgets
from jupyter_bokeh.widgets import BokehModel

from machina_nb.rules.board.maptext import Layout, Point
from machina_nb.rules.cards.events import load_all_chapters, load_all_events
from machina_nb.rules.cards.items import equipped_items, load_all_items
from machina_nb.rules.cards.units import content_cards
from machina_nb.rules.engine.actions import (
    Action,
    EndTurn,
    MonsterAct,
    RollHorror,
    RollSpawn,
    StartTurn,
    legal_actions,
)
from machina_nb.rules.engine.chance import ChanceNode, Dice, ScriptedDice, SeededDice
from machina_nb.rules.engine.effects.spawning import spawn_spaces
from machina_nb.rules.engine.game import History, new_game
from machina_nb.rules.engine.holdings import inventory_of
from machina_nb.rules.engine.monsters import MonsterPlan, mindless_step
from machina_nb.rules.engine.phases import PHASES_BY_NAME, current_monster
from machina_nb.rules.engine.phrases import Reason
from machina_nb.rules.engine.plans import PlannedAbility, PlannedDoor, PlannedMove
from machina_nb.rules.engine.state import GameState, Unit
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules
from machina_nb.views import setup_notebook
from machina_nb.views.board import (
    ROLE_COLOURS,
    Highlights,
    highlight_data,
    legend_html,
    plain_text,
    redraw_board,
    render_board,
    space_name,
    space_pixels,
)
from machina_nb.views.fit import board_holder, fit_holder
from machina_nb.views.reference import RuleLinks, manual_links
from machina_nb.views.round_words import (
    ability_name,
    action_text,
    choice_words,
    cites_once,
    event_words,
    events_html,
    plain_cite,
    plain_event,
    target_words,
    unit_name,
)

__all__ = ["PLAN_COLOURS", "RoundStepper", "unit_labels", "plan_overlay", "plan_html",
           "events_html", "demo_game", "ability_name", "action_text", "unit_name", "plain_event",
           "event_words",
           "plan_action_words", "cites_once", "plain_cite"]

#: Colours of the planned-path overlay: the board's overlay roles (Okabe–Ito), explained in
#: the legend beside the board.
PLAN_COLOURS = {role: ROLE_COLOURS[role] for role in ("monster", "planned from", "planned path",
                                                       "goal", "its target", "end")}

_MAX_STEPS = 400  # a safety net for next phase / next round: far more than a round needs
_SCRIPT = re.compile(r"[\d\s,]*")


def unit_labels(state: GameState, labels: Mapping[str, str] | None = None) -> dict[str, str]:
    """A short label per unit id: ``labels`` where given, else explorers A, B... monsters M, N...

    Units spawned later get the next free letter when they first appear.
    """
    out = dict(labels or {})
    used = set(out.values())
    for unit in state.units:
        if unit.id in out:
            continue
        start = "A" if unit.side == "explorer" else "M"
        pool = [chr(c) for c in range(ord(start), ord("Z") + 1)] + \
            [chr(c) for c in range(ord("A"), ord(start))]
        letter = next((c for c in pool if c not in used), unit.id[:2])
        out[unit.id] = letter
        used.add(letter)
    return out


def plan_overlay(state: GameState, plan: MonsterPlan | None,
                 acted: bool = False) -> dict[str, dict[str, list]]:
    """The board overlay sources' data for a monster plan made on ``state``: the monster, its
    end points, planned path, goal and target, and the path as a line from space centre to
    centre. With ``acted``, the plan's action has been taken: the monster's space is marked
    as where it stood when it chose it."""
    spaces: list[tuple[Point, str]] = []
    points: list[Point] = []
    if plan is not None:
        monster = state.unit(plan.monster)
        # an outline drawn under another on the same space would be listed yet unseen
        spaces += [(q, "end") for q, _, _ in plan.ends if q != plan.goal and q not in plan.path]
        spaces += [(q, "planned path") for q in plan.path if q != plan.goal]
        if plan.goal is not None:
            spaces.append((plan.goal, "goal"))
        if plan.target is not None and state.has_unit(plan.target):
            spaces.append((cast(Point, state.unit(plan.target).position), "its target"))
        at = cast(Point, monster.position)
        spaces.append((at, "planned from" if acted else "monster"))
        points = [at, *plan.path]
    centre = [(p[0] + 0.5, p[1] + 0.5) for p in points]
    data = highlight_data(Highlights(tuple(spaces), tuple(
        ((a, b), "planned path") for a, b in zip(centre, centre[1:]))))
    return {"overlay": data["overlay"], "overlay_lines": data["overlay_lines"]}



def _esc(value) -> str:
    return html.escape(str(value))


_THIRD_PERSON = {"play": "plays", "destroy": "destroys", "step": "steps", "end": "ends"}


def plan_action_words(plan: MonsterPlan, state: GameState | None = None,
                      rules: Rules | None = None, done: bool = False) -> str:
    """What a monster plan does next, in words: ``step to C4``, ``play Rend on C4``, ``end its
    turn``; with ``done``, as a sentence with the monster's name (``Sarall steps to C4``).
    With the ``state`` the plan was made on, the ability is named (manual p20)."""
    action = plan.action
    if isinstance(action, PlannedAbility):
        name = (ability_name(state, rules or Rules(), plan.monster, action.index)
                if state is not None else f"ability {action.index}")
        target = action.target
        on = state.unit_board().occupant(target) if state is not None and target is not None \
            and not isinstance(target[0], tuple) else None
        words = f"play {name}" + (f" on {unit_name(cast(GameState, state), on)} "
                                  f"({space_name(target)})" if on
                                  else target_words(target) if target is not None else "")
    elif isinstance(action, PlannedDoor):
        words = (f"destroy the closed door between {space_name(action.a)} and "
                 f"{space_name(action.b)}")
    elif isinstance(action, PlannedMove):
        words = f"step to {space_name(action.to)}"
    else:
        words = "end its turn"
    if not done:
        return words
    verb, _, rest = words.partition(" ")
    who = unit_name(state, plan.monster) if state is not None else plan.monster
    return f"{who} {_THIRD_PERSON[verb]} {rest}"


def plan_html(plan: MonsterPlan, labels: Mapping[str, str], state: GameState | None = None,
              rules: Rules | None = None, reasons: bool = True) -> str:
    """A monster plan in words: target, distances to each explorer, end points and path
    considered, the action and (unless ``reasons`` is false) every reason (manual p15-17);
    with the ``state`` it was made on, units are named and the ability it plays is named."""
    def who(uid):
        name = unit_name(state, uid) if state is not None else uid
        return f"{_esc(name)} ({_esc(labels.get(uid, '?'))})"

    def plain(text) -> str:
        if state is not None and isinstance(text, Reason):
            return _esc(event_words(state, text))
        return _esc(plain_event(state, str(text)) if state is not None else plain_text(str(text)))

    doing = plan_action_words(plan, state, rules)
    rows = "".join(f"<tr><td>{who(e)}</td><td>{'cannot be reached' if d is None else d}</td></tr>"
                   for e, d in plan.distances)
    ends = ", ".join(f"{space_name(q)} (distance {s}, {c} stamina)" for q, s, c in plan.ends)
    parts = [f"<b>{who(plan.monster)}</b> — next: <b>{_esc(doing)}</b>",
             f"target: {who(plan.target) if plan.target else 'no target'}",
             "<table class='plan-distances'><tr><th>explorer</th><th>closest distance</th></tr>"
             f"{rows}</table>",
             f"spaces it could end on: {_esc(ends or 'none')}",
             f"path: {_esc(' → '.join(map(space_name, plan.path)) or 'it stays')}"
             + (f" toward {space_name(plan.goal)}" if plan.goal else "")]
    if plan.options:
        parts.append(f"<b>the players choose</b> the {_esc(plan.choice_of)}: "
                     + ", ".join(plain(o) if state is None or not isinstance(o, str)
                                 else _esc(choice_words(state, o)) for o in plan.options))
    listed = "".join(f"<li>{plain(r)}</li>" for r in plan.reasons) if reasons else ""
    return ("<div class='monster-plan'>" + "<br>".join(parts)
            + (f"<ol>{listed}</ol>" if listed else "") + "</div>")


def _items(state: GameState, unit_id: str) -> str:
    """An explorer's items in a few words: equipped ones, then the ones held (manual p31)."""
    inv = inventory_of(state, unit_id)
    parts = [", ".join(c.name for c in equipped_items(inv))]
    if inv.unequipped:
        parts.append("held: " + ", ".join(c.name for c in inv.unequipped))
    return "; ".join(p for p in parts if p)


def demo_game(layout: Layout, rules: Rules | None = None, seed: int = 0) -> GameState:
    """A game on ``layout`` whose letters A, B are explorers (Phillip, Lorrai) and M, N monsters
    already in play (a Mi-Go, a Sarall), with the level-1 content monsters as the deck and
    the content's chapters, horror and explorer events and items as the other decks.

    Rules: manual p8 (setup), p15 (the queue in play order).
    """
    cards = content_cards()
    where = dict(layout.units)
    explorers = [(cards["phillip"], where["A"]), (cards["lorrai"], where["B"])]
    events, chapters = load_all_events().values(), load_all_chapters()
    state = new_game(layout, explorers, (chapters["the_descent"], chapters["the_way_out"],
                                         chapters["regroup"]),
                     monsters=[cards["sarall"], cards["mi_go"], cards["witch"]], rules=rules,
                     seed=seed, horror_events=[e for e in events if e.kind == "horror"],
                     explorer_events=[e for e in events if e.kind == "explorer"],
                     items=tuple(load_all_items().values()))
    monsters = tuple(Unit.from_card(cards[cid], f"{cid}-{n}", where[letter])
                     for n, (letter, cid) in enumerate((("M", "mi_go"), ("N", "sarall")), 1))
    return replace(state, units=state.units + monsters, queue=tuple(m.id for m in monsters),
                   next_id=len(monsters) + 1)


def _same_tile_rollers(state: GameState, actions: Sequence[Action]) -> bool:
    """Whether the actions are spawn rolls by explorers on one tile with one spawn space: then
    who rolls first changes nothing (the rolls are alike and spawn on the same space), so it
    is no choice.

    Rules: manual p13 (each explorer's spawn roll spawns on their own tile); switch
    spawn10.roll_order (the order is the players' to choose where it matters).
    """
    if not all(isinstance(a, RollSpawn) for a in actions):
        return False
    tiles = {state.tile_of(cast(Point, state.unit(a.actor).position)) for a in actions}
    return len(tiles) == 1 and len(spawn_spaces(state, tiles.pop())) == 1


def _button(text: str, css: str, tooltip: str) -> widgets.Button:
    button = widgets.Button(description=text, tooltip=tooltip)
    button.add_class(css)
    return button


class RoundStepper(widgets.VBox):
    """Step a game: buttons, dice, the board with the planned path, labels and the event log.

    ``game`` is a :class:`GameState` (a history starts there) or a
    :class:`History`. Widgets a test drives carry CSS classes: buttons
    ``step-action``, ``step-phase``, ``step-round``, ``step-undo``,
    ``step-redo``; ``phase-label``, ``event-log``, ``step-choice`` (the action
    list), ``step-dice-mode``, ``step-script``, ``step-seed``, ``step-message``.
    Assigning ``rules`` restarts the history from its initial state under them.

    Rules: manual p10 (round), p12-16 (phases, monster turn).
    """

    def __init__(self, game: GameState | History, rules: Rules | None = None,
                 labels: Mapping[str, str] | None = None, seed: int = 0):
        setup_notebook()
        self.history = game if isinstance(game, History) else History.start(game, rules)
        if rules is not None and isinstance(game, History):
            self.history = History.start(game.initial, rules)
        self.labels = unit_labels(self.history.state, labels)
        self._random = random.Random(seed)

        board = self.history.state.unit_board()
        # room beside the board for the legend and the round's panel in a 1280 px window
        self.figure, self.sources = render_board(board, px_per_space=space_pixels(board, 520))
        self.phase_label = widgets.HTML()
        self.phase_label.add_class("phase-label")
        self.ratings = widgets.HTML()
        self.ratings.add_class("step-ratings")
        self.queue = widgets.HTML()
        self.queue.add_class("step-queue")
        self.units = widgets.HTML()
        self.plan = widgets.HTML()
        self.plan.add_class("step-plan")
        self.event_log = widgets.HTML(layout=widgets.Layout(max_height="320px", overflow="auto"))
        self.event_log.add_class("event-log")
        self.rule_links = RuleLinks()
        self.message = widgets.HTML()
        self.message.add_class("step-message")

        self.choice = widgets.Dropdown(description="Action", options=[],
                                       layout=widgets.Layout(width="560px"))
        self.choice.add_class("step-choice")
        self._offered: tuple = ()
        self.choice.observe(self._draw_plan, "value")
        self.options = widgets.VBox()
        self.options.add_class("step-options")
        self.legend = widgets.HTML(layout=widgets.Layout(min_width="200px", flex="0 0 auto"))
        self.legend.add_class("step-legend")
        self.next_action_button = _button("next action", "step-action", "apply the chosen action")
        self.next_phase_button = _button("next phase", "step-phase", "step until the phase changes")
        self.next_round_button = _button("next round", "step-round", "step until the round changes")
        self.undo_button = _button("undo", "step-undo", "one action back")
        self.redo_button = _button("redo", "step-redo", "one action forward again")
        self.next_action_button.on_click(lambda _: self.next_action())
        self.next_phase_button.on_click(lambda _: self.next_phase())
        self.next_round_button.on_click(lambda _: self.next_round())
        self.undo_button.on_click(lambda _: self.undo())
        self.redo_button.on_click(lambda _: self.redo())

        self.dice_mode = widgets.ToggleButtons(options=["seeded", "scripted"], value="seeded",
                                               description="Dice",
                                               tooltips=["dice drawn from the seed",
                                                         "type the next results yourself"])
        self.dice_mode.add_class("step-dice-mode")
        self.script = widgets.Text(description="next rolls", placeholder="e.g. 7 3 (d10 = 0-9)")
        self.script.add_class("step-script")
        self.seed = widgets.IntText(value=seed, description="seed")
        self.seed.add_class("step-seed")
        self.seed.observe(lambda change: setattr(self, "_random", random.Random(change["new"])),
                          "value")

        self.refresh()
        # After the first data: changes made before the plot is shown never reach the browser.
        self.plot = BokehModel(self.figure)
        self.plot.add_class("board-plot")
        self.holder = board_holder(self.plot, self.figure)
        super().__init__(self._parts())


    def _parts(self) -> list[widgets.Widget]:
        """The tab from the top: the buttons and dice (wrapping), what to choose, then the board
        with whose turn, the units and the newest events beside it (under it on a narrow
        window), and what the colours mean folded below, so the log is not pushed out of view."""
        wrap = {"display": "flex", "flex_flow": "row wrap", "grid_gap": "4px 12px"}
        buttons = widgets.Box([self.next_action_button, self.next_phase_button,
                               self.next_round_button, self.undo_button, self.redo_button],
                              layout=widgets.Layout(**wrap))
        dice = widgets.Box([self.dice_mode, self.script, self.seed], layout=widgets.Layout(**wrap))
        side = widgets.VBox([self.phase_label, self.ratings, self.queue, self.units, self.plan,
                             widgets.HTML("<b>Event log</b> (newest last)"), self.event_log,
                             self.rule_links],
                            layout=widgets.Layout(flex="1 1 360px", min_width="300px",
                                                  max_width="560px"))
        colours = widgets.Accordion([self.legend], titles=("What the colours mean",),
                                    selected_index=None)
        return [buttons, dice, self.message, self.options, self.choice,
                widgets.Box([self.holder, side], layout=widgets.Layout(**wrap)), colours]

    # --- rules -------------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rulings the history is played under."""
        return self.history.rules

    @rules.setter
    def rules(self, rules: Rules) -> None:
        if rules == self.history.rules:
            return
        self.history = History.start(self.history.initial, rules)
        self.message.value = "New rulings: the game restarts from its first state."
        self.refresh()

    @property
    def state(self) -> GameState:
        """The state shown."""
        return self.history.state

    # --- stepping ------------------------------------------------------------------------------

    def actions(self) -> tuple[Action, ...]:
        """The legal actions now (from the engine)."""
        return legal_actions(self.state, self.rules)

    def default_action(self) -> Action | None:
        """The action the stepping buttons take now, or None when the players must choose.

        Explorer phase: the active explorer ends their turn, or the next explorer
        in seating order starts theirs (everyone passes). Other phases: the phase's
        roll or monster action when there is exactly one.
        """
        actions = self.actions()
        s = self.state
        if s.phase == "explorer":
            ends = [a for a in actions if isinstance(a, EndTurn) and a.actor == s.active]
            starts = [a for a in actions if isinstance(a, StartTurn)]
            return (ends or starts or [None])[0]
        turn = [a for a in actions if isinstance(a, (RollSpawn, RollHorror, MonsterAct))]
        return turn[0] if len(turn) == 1 or _same_tile_rollers(s, turn) else None

    def _dice(self):
        if self.dice_mode.value == "seeded":
            return SeededDice(self._random)
        text = self.script.value
        if not _SCRIPT.fullmatch(text):
            raise RulesError("next rolls", f"\"{text}\": type whole numbers separated by spaces, "
                             "e.g. '7 3'")
        return ScriptedDice([int(v) for v in re.findall(r"\d+", text)])

    def apply(self, action: Action) -> bool:
        """Apply ``action`` with the dice chosen; on a missing roll or an illegal action show
        why and change nothing. Returns whether it was applied (a choice the players must
        make next is then what :meth:`refresh` offers)."""
        try:
            source = self._dice()
            self.history = self.history.apply(action, source)
        except ChanceNode as node:
            outcomes = ", ".join(f"{v} ({p})" for v, p in node.outcomes)
            self._say(f"A roll is needed: the {_esc(node.die)} for {_esc(plain_text(node.reason))}. "
                      f"Type it in <b>next rolls</b> or switch the dice to seeded. "
                      f"Outcomes: {_esc(outcomes)}.")
            return False
        except RulesError as error:
            self._say(f"Refused: {_esc(error)}")
            return False
        self._keep_script(source)
        return True

    def _keep_script(self, source: Dice) -> None:
        if isinstance(source, ScriptedDice):
            self.script.value = " ".join(str(v) for v in source.script)

    def next_action(self) -> bool:
        """Apply the action chosen in the action list."""
        index = self.choice.value
        if index is None:
            self._say("The players choose first: click one of the options below.")
            return False
        action = self._offered[index]
        self.message.value = ""
        if self.apply(action):
            self.refresh()
            return True
        self._after_refusal()
        return False

    def _after_refusal(self) -> None:
        """Redraw after an action was not applied, keeping the note (and a choice it asks)."""
        note = self.message.value
        if self._asked:
            self._draw()
        else:
            self.refresh()
        self.message.value = note

    def _step_until(self, changed, what: str) -> int:
        self.message.value = ""
        start = self.state
        done = 0
        for _ in range(_MAX_STEPS):
            if changed(start, self.state) or self.state.over:
                break
            action = self.default_action()
            if action is None:
                self.refresh()
                self._say(f"Stopped before the {what} changed: the players choose. "
                          "Click one of the options below.")
                return done
            if not self.apply(action):
                self._after_refusal()
                return done
            done += 1
        self.refresh()
        return done

    def next_phase(self) -> int:
        """Apply actions until the phase changes (or a choice or a roll is needed); how many."""
        return self._step_until(lambda a, b: (a.round, a.phase) != (b.round, b.phase), "phase")

    def next_round(self) -> int:
        """Apply actions until the round changes (or a choice or a roll is needed); how many."""
        return self._step_until(lambda a, b: a.round != b.round, "round")

    def undo(self) -> None:
        """One action back: exactly the state before it."""
        if self.history.position:
            self.history = self.history.undo()
            self.message.value = ""
        self.refresh()

    def redo(self) -> None:
        """One action forward again."""
        if self.history.position < len(self.history.steps):
            self.history = self.history.redo()
            self.message.value = ""
        self.refresh()

    # --- showing -------------------------------------------------------------------------------

    def _say(self, text: str) -> None:
        self.message.value = f"<div class='step-note'>{text}</div>"

    def _offer(self, actions, note: str = "") -> None:
        self._asked = bool(note)
        self._offered = tuple(actions)
        default = None if note else self.default_action()
        self.choice.options = [(action_text(self.state, self.rules, a), i)
                               for i, a in enumerate(self._offered)]
        self.choice.value = self._offered.index(default) if default in self._offered else None
        self._option_buttons(bool(note) or self.choice.value is None)
        if note:
            self._say(note)

    def _option_buttons(self, must_choose: bool) -> None:
        """When the players must choose, every option as a button with its sentence: one click
        applies it."""
        if not must_choose:
            self.options.children = ()
            return
        buttons = []
        for label, index in self.choice.options:
            button = widgets.Button(description=label, tooltip=label,
                                    layout=widgets.Layout(width="auto", max_width="900px"))
            button.add_class("step-option")
            button.on_click(lambda _, i=index: self.choose(i))
            buttons.append(button)
        self.options.children = (widgets.HTML("<b>The players choose:</b>"), *buttons)

    def choose(self, index: int) -> bool:
        """Apply option ``index`` of those offered (one click on its button)."""
        self.choice.value = index
        return self.next_action()

    def current_plan(self) -> MonsterPlan | None:
        """The acting mindless monster's plan for its next action (with the chosen tie answers)."""
        s = self.state
        m = current_monster(s)
        if m is None or s.scheming:
            return None
        index = self.choice.value
        chosen = self._offered[index] if index is not None else None
        choices = chosen.choices if isinstance(chosen, MonsterAct) else ()
        return mindless_step(s, self.rules, m, choices)

    def _draw_plan(self, _change=None) -> None:
        """Show the acting monster's plan under the chosen action, its path on the board."""
        plan = self.current_plan()
        for name, data in plan_overlay(self.state, plan).items():
            self.sources[name].data = data
        self.plan.value = plan_html(plan, self.labels, self.state, self.rules) if plan else ""
        self.legend.value = legend_html(self.sources, {
            letter: unit_name(self.state, uid) for uid, letter in self.labels.items()
            if self.state.has_unit(uid)})

    def refresh(self) -> None:
        """Offer the legal actions now and redraw everything from the current state."""
        actions = self.actions()
        self._offer(actions)
        need = self.state.decision
        if need is not None:
            self._say(f"The players choose {_esc(plain_text(need.what))} ({_esc(need.rule)}): "
                      "click one option below.")
        elif self.state.phase != "explorer" and actions and self.choice.value is None:
            self._say("The players choose: click one of the options below (manual p16: "
                      "the explorers resolve ties).")
        self._draw()

    def _draw(self) -> None:
        """Redraw the board, labels and log (only source data and widget values change)."""
        s = self.state
        self.labels = unit_labels(s, self.labels)
        redraw_board(self.figure, self.sources, s.unit_board())
        if hasattr(self, "holder"):     # an explored tile widens the board
            fit_holder(self.holder, self.figure)
        on_map = [u for u in s.units if u.position is not None]
        self.sources["units"].data = {"x": [cast(Point, u.position)[0] + 0.5 for u in on_map],
                                      "y": [cast(Point, u.position)[1] + 0.5 for u in on_map],
                                      "letter": [self.labels[u.id] for u in on_map]}
        self._draw_plan()

        phase = PHASES_BY_NAME[s.phase]
        acting = s.active or current_monster(s)
        self.phase_label.value = (
            f"<b>Round {s.round}</b> · <b>{s.phase} phase</b> ({manual_links(phase.rule)})"
            + (f" · acting: {_esc(unit_name(s, acting))}" if acting else "")
            + (f" · <b>game over</b>: {_esc(plain_event(s, s.over))}" if s.over else ""))
        self.ratings.value = (
            f"spawn rating {s.spawn_rating if s.spawn_rating is not None else '—'} · "
            f"horror rating {s.horror_rating if s.horror_rating is not None else '—'} · "
            f"threat {s.threat}/{s.threat_positions} · level {s.level} · "
            f"chapter {_esc(s.chapter.name)}")
        queue = [f"{_esc(unit_name(s, m))} ({self.labels[m]})"
                 + (" ✓" if m in s.done and s.phase == "monster" else "") for m in s.queue]
        self.queue.value = "monster queue: " + (" → ".join(queue) or "empty")
        rows = "".join(
            f"<tr><td>{self.labels[u.id]}</td><td>{_esc(unit_name(s, u.id))}</td><td>{u.side}</td>"
            f"<td>{u.health}/{u.max_health}</td><td>{u.stamina}/{u.max_stamina}</td>"
            f"<td>{u.essence}</td><td>{space_name(u.position) if u.position else 'left the map'}"
            f"</td><td>{_esc(_items(s, u.id))}</td></tr>"
            for u in s.units)
        self.units.value = ("<table class='step-units'><tr><th></th><th>unit</th><th>side</th>"
                            "<th>health</th><th>stamina</th><th>essence</th><th>space</th>"
                            f"<th>items</th></tr>{rows}</table>")
        self.event_log.value = events_html(self.history)
        last = self.history.steps[:self.history.position][-1:]
        self.rule_links.show("; ".join(cites_once([e.rule for step in last for e in step.events])))
        self.undo_button.disabled = not self.history.position
        self.redo_button.disabled = self.history.position == len(self.history.steps)
