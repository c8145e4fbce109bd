"""One notation for an action, both written and read: :func:`write_action` says an engine
action as a step of the play notation (:mod:`~machina_nb.rules.analysis.notation`) and
:func:`read_action` reads such a step back into the same action.

Units are named by letters (``letters`` maps a unit id to its letter); a target a unit
stands on is written as that unit's letter, any other space as ``(x, y)``, the form the
golden playthroughs and the answers keep. A space read may also be the board's label
(``B1``), and it reads as the same action:

>>> from machina_nb.rules.analysis.situation import load_situation
>>> from machina_nb.rules.content import content_root
>>> from machina_nb.rules.engine.actions import legal_actions
>>> s = load_situation(content_root() / "situations" / "recharge_die.toml")
>>> rules = s.rules()
>>> state = s.state_at(rules)
>>> letters = {u.id: u.letter for u in s.units}
>>> action = legal_actions(state, rules)[0]
>>> text = write_action(action, state, rules, letters)
>>> text
'K activates (1, 0)'
>>> read_action(text, state, rules, letters) == action
True
>>> read_action("K activates B1", state, rules, letters) == action
True

Rules: manual p12 (explorer actions), p15 (the monster queue), p19 (contributed essence),
p20 (the sources of a unit's abilities), p32 (use inventory, trade), p34-37 (the map actions).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from machina_nb.rules.analysis.notation import NotationError, PlayStep, parse_step
from machina_nb.rules.board.maptext import Point, SpaceKind
from machina_nb.rules.engine.actions import (
    Action,
    Activate,
    ChapterSpace,
    Door,
    EndTurn,
    Exit,
    Explore,
    MonsterAct,
    Move,
    PlayAbility,
    RollHorror,
    RollSpawn,
    SealSpawn,
    StartTurn,
    Trade,
    UseInventory,
    explorer_abilities,
)
from machina_nb.rules.engine.monsters import monster_abilities
from machina_nb.rules.engine.state import GameState
from machina_nb.rules.rulings import Rules

__all__ = ["StepRefused", "action_of", "read_action", "write_action", "abilities_of",
           "SINGLE_VERBS"]

UnitId = Callable[[str], str]
"""A unit's id from its letter (it refuses a letter that is not in play)."""


class StepRefused(ValueError):
    """A step that reads but names what is not there now (an ability the unit lacks)."""


def abilities_of(state: GameState, rules: Rules, uid: str) -> tuple[Any, ...]:
    """The abilities a unit may play now, in the engine's order.

    Rules: manual p20 (card, items, events, chapter), p15-16 (a monster's, in order).
    """
    u = state.unit(uid)
    if u.side == "explorer":
        return tuple(explorer_abilities(state, u))
    return tuple(a for _, a in monster_abilities(state, u, rules))


def _ability(state: GameState, rules: Rules, uid: str, name: str, letter: str) -> int:
    for i, a in enumerate(abilities_of(state, rules, uid)):
        if a.name == name:
            return i
    raise StepRefused(f"{letter} has no ability {name} now (manual p20: card, items, events, "
                      "chapter)")


def _space(state: GameState, unit_id: UnitId, ref: str | Point) -> Point:
    if isinstance(ref, str):
        return cast(Point, state.unit(unit_id(ref)).position)
    return ref


def _given(step: PlayStep, unit_id: UnitId) -> tuple[tuple[str, int], ...]:
    return tuple((unit_id(letter), n) for letter, n in step.contributions)


def _activation(state: GameState, rules: Rules, uid: str, step: PlayStep,
                unit_id: UnitId) -> Action:
    """The action on an adjacent space: a chapter space, a spawn space (seal) or the others.

    Rules: manual p36 (chapter space, seal spawn space), p37 (action spaces), p19 (others
    contribute essence).
    """
    space, given = step.spaces[0], _given(step, unit_id)
    kind = state.space_kind(space) if space in state.static_board() else None
    if kind is SpaceKind.CHAPTER:
        return ChapterSpace(uid, space, contributions=given)
    if kind is SpaceKind.SPAWN:
        return SealSpawn(uid, space, contributions=given)
    option = {"essence": "essence", "a roll": "roll"}.get(step.name, "")
    return Activate(uid, space, option, given, essence=step.essence)


def _play(state: GameState, rules: Rules, uid: str, step: PlayStep, unit_id: UnitId) -> Action:
    targets = tuple(_space(state, unit_id, x) for x in step.targets)
    target: Any = None if not targets else targets[0] if len(targets) == 1 else targets
    index = _ability(state, rules, uid, step.name, cast(str, step.actor))
    return PlayAbility(uid, index, target, step.essence, _given(step, unit_id),
                       destroy=step.destroy)


_DOOR_OPS = {"opens": "open", "closes": "close", "destroys": "destroy"}

SINGLE_VERBS: dict[str, Callable[[GameState, Rules, str, PlayStep, UnitId], Action]] = {
    "start": lambda s, r, uid, step, ids: StartTurn(uid),
    "end": lambda s, r, uid, step, ids: EndTurn(uid),
    "door": lambda s, r, uid, step, ids: Door(uid, cast(Point, s.unit(uid).position),
                                              step.spaces[0], _DOOR_OPS[step.name]),
    "activate": _activation,
    "play": _play,
    "explore": lambda s, r, uid, step, ids: Explore(uid, step.name or None, step.way),
    "exit": lambda s, r, uid, step, ids: Exit(uid),
    "inventory": lambda s, r, uid, step, ids: UseInventory(
        uid, owner=ids(cast(str, step.targets[0])) if step.targets else uid, steps=step.steps,
        gifts=tuple((item, ids(letter)) for item, letter in step.gifts)),
    "spawn_roll": lambda s, r, uid, step, ids: RollSpawn(uid),
    "trade": lambda s, r, uid, step, ids: Trade(uid, partner=ids(cast(str, step.targets[0])),
                                                give=step.give, take=step.take),
    "act": lambda s, r, uid, step, ids: MonsterAct(uid),
}
"""The verbs whose step is exactly one action, and how each becomes that action."""


def action_of(step: PlayStep, state: GameState, rules: Rules, unit_id: UnitId) -> Action:
    """The one action a step of :data:`SINGLE_VERBS` (or the horror roll, or a move of one
    space) names now."""
    if step.verb == "horror_roll":
        return RollHorror()
    if step.verb == "move" and len(step.spaces) == 1:       # a path of one space is one step
        return Move(unit_id(cast(str, step.actor)), step.spaces[0])
    if step.verb not in SINGLE_VERBS:
        raise StepRefused(f"{step.text!r} is several actions, not one")
    return SINGLE_VERBS[step.verb](state, rules, unit_id(cast(str, step.actor)), step, unit_id)


def read_action(text: str, state: GameState, rules: Rules, letters: Mapping[str, str]
                ) -> Action:
    """The action a step of the notation names, its units by ``letters`` (id to letter);
    :class:`~machina_nb.rules.analysis.notation.NotationError`, or :class:`StepRefused` for a
    letter not in play, a space off the board or an ability the unit lacks."""
    ids = {letter: uid for uid, letter in letters.items()}

    def unit_id(letter: str) -> str:
        if letter not in ids or not state.has_unit(ids[letter]):
            raise StepRefused(f"{letter} is not in play")
        return ids[letter]
    step = parse_step(text)
    board = state.static_board()
    for point, said, _ in step.named_spaces():
        if point not in board:
            raise StepRefused(f"{text!r} names {said}, which is off the board")
    return action_of(step, state, rules, unit_id)


def write_action(action: Action, state: GameState, rules: Rules, letters: Mapping[str, str]
                 ) -> str:
    """``action`` as one step of the notation; an action the notation has no line for (an
    answer to a decision, answers given ahead) raises NotationError."""
    if action.choices:
        raise NotationError("an action with its choices answered ahead has no line: give the "
                            "choices beside the steps")
    if isinstance(action, RollHorror):
        return "the horror roll"
    who = letters.get(action.actor)
    if who is None:
        raise NotationError(f"{type(action).__name__} has no line in the notation")
    writer = _WRITERS.get(type(action))
    if writer is None:
        raise NotationError(f"{type(action).__name__} has no line in the notation")
    return f"{who} {writer(action, state, rules, letters)}"


def _point(p: Point) -> str:
    return f"({p[0]}, {p[1]})"


def _ref(state: GameState, letters: Mapping[str, str], p: Point) -> str:
    """A target: the letter of the unit standing there, else the space."""
    on = state.unit_board().occupant(p)
    return letters.get(on, _point(p)) if on else _point(p)


def _gives(action: Any, letters: Mapping[str, str], essence: int = 0) -> str:
    parts = " and ".join(f"{letters[uid]} contributing {n}" for uid, n in action.contributions)
    spent = f" with {essence} essence" if essence else ""
    return spent + (f" {'and' if spent else 'with'} {parts}" if parts else "")


def _write_door(a: Any, state: GameState, rules: Rules, letters: Mapping[str, str]) -> str:
    if a.a != state.unit(a.actor).position:
        raise NotationError("a door is written from the space its explorer stands on")
    verb = {v: k for k, v in _DOOR_OPS.items()}[a.op]
    return f"{verb} the door to {_point(a.b)}"


def _write_activate(a: Any, state: GameState, rules: Rules, letters: Mapping[str, str]) -> str:
    option = {"essence": " for essence", "roll": " for a roll"}.get(getattr(a, "option", ""), "")
    return (f"activates {_point(a.space)}{option}"
            + _gives(a, letters, getattr(a, "essence", 0)))


def _write_inventory(a: Any, state: GameState, rules: Rules, letters: Mapping[str, str]) -> str:
    """*Use inventory*: whose, then each step in order (consecutive main items together), then
    the gifts (manual p32)."""
    owner = a.owner or a.actor
    words = ["uses inventory"] + ([f"on {letters[owner]}"] if owner != a.actor else [])
    mains: list[str] = []
    for step in a.steps:
        if step[0] == "main":
            mains.append(step[1])
            continue
        if mains:
            words.append("equipping " + " and ".join(mains))
            mains = []
        words.append(f"{'upgrading' if step[0] == 'upgrade' else 'augmenting'} {step[2]} "
                     f"with {step[1]}")
    if mains:
        words.append("equipping " + " and ".join(mains))
    if a.gifts:
        words.append("giving " + " and ".join(f"{item} to {letters[to]}"
                                              for item, to in a.gifts))
    return " ".join(words)


def _write_play(a: Any, state: GameState, rules: Rules, letters: Mapping[str, str]) -> str:
    abilities = abilities_of(state, rules, a.actor)
    name = abilities[a.index].name
    if any(b.name == name for b in abilities[:a.index]):
        raise NotationError(f"two abilities are named {name}: the notation names the first")
    target = a.target
    on = "" if target is None else " on " + (
        _ref(state, letters, target) if not isinstance(target[0], tuple)
        else " and ".join(_ref(state, letters, t) for t in target))
    destroy = f" destroying {_point(a.destroy)}" if a.destroy else ""
    return f"plays {name}{on}{_gives(a, letters, a.essence)}{destroy}"


_SIDES = {"N": "north", "E": "east", "S": "south", "W": "west"}

_Writer = Callable[[Any, GameState, Rules, Mapping[str, str]], str]
_WRITERS: dict[type, _Writer] = {
    StartTurn: lambda a, s, r, ls: "starts",
    EndTurn: lambda a, s, r, ls: "ends",
    Move: lambda a, s, r, ls: f"moves to {_point(a.to)}",
    Door: _write_door,
    Activate: _write_activate,
    ChapterSpace: _write_activate,
    SealSpawn: _write_activate,
    PlayAbility: _write_play,
    Explore: lambda a, s, r, ls: "explores" + (f" {_SIDES[a.side]}" if a.side else "")
    + (f" way {a.option}" if a.option is not None else ""),
    Exit: lambda a, s, r, ls: "exits",
    RollSpawn: lambda a, s, r, ls: "rolls for spawn",
    UseInventory: _write_inventory,
    Trade: lambda a, s, r, ls: f"trades with {ls[a.partner]}"
    + (f" giving {' and '.join(a.give)}" if a.give else "")
    + (f" taking {' and '.join(a.take)}" if a.take else ""),
    MonsterAct: lambda a, s, r, ls: "acts",
}
