"""Play: a short scripted sequence from a situation's state, and the facts of the state after it.

Where a ruling is about decks, timers, markers or scoring rather than the board, the
question is what happens when the table plays on: a ``play`` question lists steps in the
plain notation of :mod:`machina_nb.rules.analysis.notation`, the scripted ``dice`` (in
order, for the whole sequence; a list is a shuffle's order) and the players' ``choices``
(each decision the game waits on takes the first remaining choice among its options), and
the ``report``: the facts of the resulting state to answer with (:data:`FACTS`). Every
step goes through the engine's public API (``actions.apply``; a decision is answered with
``Choose``), so the rules in force decide everything, and the sequence stops where a step
is refused, a die is not scripted or a choice is not given.

The answer's value is ``{"played": ..., fact: value, ...}``: how far the steps went, and
each fact as plain values (units by letter, spaces as ``(x, y)``, cards by name), equal
under two readings exactly when the resulting states agree on it. ``why`` tells each step
with the events it caused and the rule each cites.

>>> from machina_nb.rules.content import content_root
>>> from machina_nb.rules.analysis.situation import load_situation
>>> s = load_situation(content_root() / "situations" / "recharge_die.toml")
>>> q = s.questions[0]
>>> play(s, q, s.rules(), s.state_at(s.rules()))[0]["stamina"]
{'K': 6}

Rules: manual p10-16 (the round), p12 (explorer actions), p16 (the players resolve ties), p32
(trade), p34-37 (the map actions).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, cast

from machina_nb.rules.analysis.notation import PlayStep, parse_step
from machina_nb.rules.analysis.questions import MAX_PLAY_STEPS, REPORTS, Question
from machina_nb.rules.analysis.situation import Situation
from machina_nb.rules.analysis.step_text import SINGLE_VERBS, StepRefused, action_of
from machina_nb.rules.board import placement
from machina_nb.rules.board.labels import corner_name, point_name
from machina_nb.rules.board.maptext import Point
from machina_nb.rules.cards.items import equipped_items
from machina_nb.rules.engine.actions import (
    Action,
    Choose,
    EndTurn,
    MonsterAct,
    Move,
    RollHorror,
    StartTurn,
    apply,
)
from machina_nb.rules.engine.chance import ChanceNode, ScriptedDice
from machina_nb.rules.engine.holdings import inventory_of
from machina_nb.rules.engine.phases import current_monster
from machina_nb.rules.engine.phrases import dice_words, say
from machina_nb.rules.engine.state import GameState
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

__all__ = ["play", "FACTS", "MAX_PLAY_STEPS", "MAX_PLAY_ACTIONS", "point_words", "option_words",
           "event_words"]

MAX_PLAY_ACTIONS = 200
"""The most engine actions (choices included) one ``play`` question may take: a step such as
"the monsters take their turns" takes several, and a runaway sequence stops here."""


def point_words(p: Point) -> str:
    """A space as the answers write it: ``(x, y)``."""
    return f"({p[0]}, {p[1]})"


def option_words(situation: Situation, option: Any) -> str:
    """A decision's option in words: a unit by its letter, a space as ``(x, y)``, where a push
    ends, or the option's own word."""
    if isinstance(option, placement.Displacement):
        return f"ends on {point_words(option.end)}"
    if isinstance(option, str):
        return situation.letter_of(option) or option
    if _is_point(option):
        return point_words(option)
    if isinstance(option, tuple):
        return " and ".join(option_words(situation, o) for o in option)
    return str(option)


def _is_point(value: Any) -> bool:
    return isinstance(value, tuple) and len(value) == 2 and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value)


def event_words(event: Any) -> str:
    """An event as the board labels things (spaces ``B3``, the faces rolled in words); the
    units are still their ids, for the answer's reader to name."""
    return say(event, space=point_name, point=corner_name, dice=dice_words)


class _Stop(Exception):
    """The sequence cannot go on: ``what`` (in the value) and ``why`` (the explanation)."""

    def __init__(self, what: str, why: str = ""):
        super().__init__(what)
        self.what, self.why = what, why


class _Table:
    """The sequence being played: the state, the dice, the choices left, the story so far."""

    def __init__(self, situation: Situation, rules: Rules, state: GameState, q: Question):
        self.situation, self.rules, self.state = situation, rules, state
        self.dice = ScriptedDice(tuple(tuple(d) if isinstance(d, (list, tuple)) else d
                                       for d in q.get("dice", ())))
        self.choices = [_choice(situation, c) for c in q.get("choices", ())]
        self.actions = 0
        self.told: list[str] = []

    def apply(self, action: Action) -> None:
        """Apply one action, then answer the decisions it leaves from the choices given (manual
        p16: the explorers resolve what the rules leave open)."""
        self._apply(action)
        while self.state.decision is not None:
            d = self.state.decision
            pick = next((c for c in self.choices
                         if any(self.fits(c, o) for o in d.options)), None)
            if pick is None:
                shown = ", ".join(option_words(self.situation, o) for o in d.options)
                raise _Stop(f"waits for the players' choice of {d.what}: {shown}",
                            f"the players choose {d.what} ({d.rule}); add one of {shown} to "
                            "the choices")
            self.choices.remove(pick)
            self._apply(Choose(option=next(o for o in d.options if self.fits(pick, o))))

    def _apply(self, action: Action) -> None:
        self.actions += 1
        if self.actions > MAX_PLAY_ACTIONS:
            raise _Stop(f"stops after {MAX_PLAY_ACTIONS} actions",
                        f"a play question takes at most {MAX_PLAY_ACTIONS} actions")
        try:
            self.state, events = apply(self.state, action, self.rules, self.dice)
        except ChanceNode as node:
            raise _Stop(f"waits for a {node.die} roll ({node.reason})",
                        "add the result to the dice") from None
        except RulesError as exc:   # the rule's words, not the engine's argument name
            raise _Stop("refused", str(exc).removeprefix(f"{exc.argument}: ")) from None
        self.told += [f"{event_words(e)} [{e.rule}]" for e in events if e.kind != "reason"]

    def fits(self, choice: Any, option: Any) -> bool:
        """Does the players' ``choice`` answer ``option``? A unit also answers for its space
        (manual p16)."""
        if isinstance(option, placement.Displacement):
            option = option.end
        if isinstance(choice, str) and _is_point(option) and self.state.has_unit(choice):
            same: bool = self.state.unit(choice).position == option
            return same
        equal: bool = choice == option
        return equal

    def unit_id(self, letter: str) -> str:
        uid = self.situation.unit_id(letter)
        if not self.state.has_unit(uid):
            raise _Stop("refused", f"{letter} is not in play")
        return uid


def _choice(situation: Situation, value: Any) -> Any:
    """A choice as written in the file: a letter is its unit, ``[x, y]`` a space, lists nest."""
    if isinstance(value, (list, tuple)):
        return tuple(_choice(situation, v) for v in value)
    if isinstance(value, str) and len(value) == 1 and value.isupper():
        return situation.unit_id(value)
    return value


# --- the steps as actions -------------------------------------------------------------------

def _single(t: _Table, step: PlayStep) -> Action:
    """The one action a single step names now (:mod:`~machina_nb.rules.analysis.step_text`)."""
    try:
        return action_of(step, t.state, t.rules, t.unit_id)
    except StepRefused as exc:
        raise _Stop("refused", str(exc)) from None


def _perform(t: _Table, step: PlayStep) -> None:
    """Play one step: one action, or several (a path, a pass, a monster's whole turn).

    Rules: manual p12 (explorer turns), p15 (the monster queue), p34 (one move per space).
    """
    if step.verb == "horror_roll":
        t.apply(RollHorror())
        return
    if step.verb == "monsters":
        while _mindless_now(t) is not None:
            t.apply(MonsterAct(cast(str, current_monster(t.state))))
        return
    uid = t.unit_id(cast(str, step.actor))
    if step.verb in SINGLE_VERBS:
        t.apply(_single(t, step))
    elif step.verb == "pass":
        t.apply(StartTurn(uid))
        t.apply(EndTurn(uid))
    elif step.verb == "move":
        for space in step.spaces:
            t.apply(Move(uid, space))
    elif step.verb == "turn":
        if current_monster(t.state) != uid:
            raise _Stop("refused", f"it is not {step.actor}'s turn (manual p15: the queue)")
        while _mindless_now(t) == uid:
            t.apply(MonsterAct(uid))


def _mindless_now(t: _Table) -> str | None:
    """The monster whose mindless turn goes on, or None: none is taking its turn, the game is
    over, or the players move it (scheming once an explorer has fallen, or controlled); then
    the step ends there and says so, and the players' own steps move it on.

    Rules: manual p15 (mindless and scheming monsters), p25 (control monster), p3 (the end).
    """
    m = current_monster(t.state)
    if m is None or t.state.over:
        return None
    if t.state.player_driven(m):
        t.told.append(f"{_who(t, m)} is moved by the players from here (manual p15: scheming "
                      "monsters; p25: control monster)")
        return None
    return m


# --- the facts of the state after -------------------------------------------------------------

def _who(t: _Table, uid: str) -> str:
    return t.situation.letter_of(uid) or uid


def _per_unit(field: str, explorers_only: bool = False) -> Callable[[_Table], dict[str, Any]]:
    def fact(t: _Table) -> dict[str, Any]:
        return {_who(t, u.id): getattr(u, field) for u in t.state.units
                if u.position is not None and (u.side == "explorer" or not explorers_only)}
    return fact


def _positions(t: _Table) -> dict[str, Any]:
    out = {}
    for uid in _every_unit(t):
        if uid in t.state.dead:
            out[_who(t, uid)] = "destroyed"
        elif uid in t.state.exited:
            out[_who(t, uid)] = "exited"
        elif t.state.has_unit(uid) and t.state.unit(uid).position is not None:
            out[_who(t, uid)] = point_words(cast(Point, t.state.unit(uid).position))
        else:
            out[_who(t, uid)] = "out of play"
    return out


def _every_unit(t: _Table) -> tuple[str, ...]:
    first = tuple(u.id for u in t.situation.units)
    return first + tuple(u.id for u in t.state.units if u.id not in first)


def _names(cards: Iterable[Any]) -> list[str]:
    return [c.name for c in cards]


def _items(t: _Table) -> dict[str, Any]:
    out = {}
    for e in t.state.explorers:
        inv = inventory_of(t.state, e.id)
        out[_who(t, e.id)] = {"equipped": _names(equipped_items(inv)),
                              "unequipped": _names(inv.unequipped)}
    return out


def _markers(t: _Table) -> list[str]:
    return [f"{e.op.replace('_', ' ')} {e.amount:+d} on {_who(t, e.target)}, " +
            ("a horror marker" if e.holder == "horror" else f"{_who(t, e.holder)}'s marker")
            for e in t.state.lasting]


_OUTCOME_WORDS = {None: "going on", "won": "won", "lost": "lost"}
"""The game's outcome in words (manual p3, p28: victory, defeat, the last explorer's death)."""


def _rating(value: int | None) -> str:
    return "none" if value is None else str(value)


FACTS: dict[str, Callable[[_Table], Any]] = {
    "positions": _positions,
    "health": _per_unit("health"),
    "stamina": _per_unit("stamina"),
    "essence": _per_unit("essence", explorers_only=True),
    "armor": _per_unit("armor"),
    "will": _per_unit("will"),
    "queue": lambda t: [_who(t, m) for m in t.state.queue],
    "threat": lambda t: t.state.threat,
    "level": lambda t: t.state.level,
    "round": lambda t: t.state.round,
    "phase": lambda t: "over" if t.state.over else t.state.phase,
    "outcome": lambda t: _OUTCOME_WORDS[t.state.over],
    "spawn_rating": lambda t: _rating(t.state.spawn_rating),
    "horror_rating": lambda t: _rating(t.state.horror_rating),
    "chapter": lambda t: t.state.chapter.name,
    "exit_token": lambda t: point_words(t.state.exit_token) if t.state.exit_token else "none",
    "monster_deck": lambda t: _names(t.state.monsters.cards),
    "monsters_destroyed": lambda t: _names(t.state.monsters.destroyed),
    "horror_deck": lambda t: _names(t.state.horror_events.cards),
    "horror_destroyed": lambda t: _names(t.state.horror_events.destroyed),
    "explorer_deck": lambda t: _names(t.state.explorer_events.cards),
    "explorer_destroyed": lambda t: _names(t.state.explorer_events.destroyed),
    "item_decks": lambda t: {k: _names(getattr(t.state.items, k)) for k in
                             ("weapon", "apparel", "artifact", "consumable", "destroyed")},
    "items": _items,
    "bound": lambda t: {_who(t, u): [c.name for w, c in t.state.bound if w == u]
                        for u in dict.fromkeys(w for w, _ in t.state.bound)},
    "destroyed": lambda t: sorted(point_words(p) for p in set(t.state.destroyed)),
    "lit": lambda t: [point_words(p) for p in t.state.lit],
    "markers": _markers,
    "tiles": lambda t: [f"{x.key} at {point_words(x.origin)}" for x in t.state.map.area.tiles]
    if t.state.map.area is not None else [],
}
"""What a ``play`` question may report about the state after its steps (content/README.md)."""

if tuple(FACTS) != REPORTS:
    raise RulesError("FACTS", "every fact a play question may report needs an answer here")


def play(situation: Situation, q: Question, rules: Rules, state: GameState
         ) -> tuple[Any, ...]:
    """The facts ``q`` reports after its steps, the story of each step, and the spaces named.

    Rules: manual p16 (the players choose).
    """
    t = _Table(situation, rules, state, q)
    steps = tuple(parse_step(text) for text in q.get("steps", ()))[:MAX_PLAY_STEPS]
    played = f"all {len(steps)} step" + ("s" if len(steps) != 1 else "")
    why = []
    for n, step in enumerate(steps, 1):
        t.told = []
        try:
            _perform(t, step)
        except _Stop as stop:
            played = f"step {n} ({step.text}) {stop.what}"
            why.append(f"{n}. {step.text}: " + "; ".join(t.told + [stop.why or stop.what]))
            break
        why.append(f"{n}. {step.text}: " + ("; ".join(t.told) or "nothing happens"))
    value = {"played": played}
    value.update((fact, FACTS[fact](t)) for fact in q.get("report", ()))
    return value, why, _marks(situation, state, t.state, steps)


def _marks(situation: Situation, before: GameState, after: GameState, steps: Iterable[Any]
           ) -> tuple[Any, ...]:
    """The acting units where they started, the spaces the steps name, where units ended."""
    marks = []
    for step in steps:
        if step.actor and before.has_unit(situation.unit_id(step.actor)):
            start = before.unit(situation.unit_id(step.actor)).position
            if start is not None and (start, "asked") not in marks:
                marks.append((start, "asked"))
        marks += [(p, "target") for p in step.spaces + step.targets if _is_point(p)]
    for u in after.units:
        was = before.unit(u.id).position if before.has_unit(u.id) else None
        if u.position is not None and u.position != was:
            marks.append((u.position, "end"))
    return tuple(marks)
