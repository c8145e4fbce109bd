"""Running the manual's worked examples (``content/examples``) through the engine.

An example file (:mod:`machina_nb.rules.cards.examples`) gives a board, its units,
the rules and steps. This module gives the engine's step verbs and checks each
step's ``expect`` against what the engine does:

* ``set`` — change a unit (``actor``) before play: ``stamina``, ``health``, ``will``...;
* ``monster_turn`` — run the ``actor`` monster's whole mindless turn with the
  scripted ``dice``; expect ``end`` ([x, y]), ``moves``, ``stamina_left``,
  ``abilities`` (how many played), ``ability_target`` (a unit letter),
  ``health`` (a table letter = health afterwards). The result also keeps the turn action
  by action (:class:`TurnAction`: the plan with its reasons, the state before and after,
  the events), so a view can step it one action, at most one space, at a time;
* ``distances`` — the closest distance from ``actor`` to each explorer
  (expect a table letter = distance);
* ``contributors`` — who may contribute essence when ``actor`` targets
  ``target`` (expect a list of letters);
* ``play_ability`` — ``actor`` plays ``ability`` on ``target`` with ``dice``;
  expect ``hit``, ``target_health``, ``destroyed``, ``essence``;
* ``spawn_rating`` — the 3.5 adjusted rating of ``default`` for 1-4 explorers;
* ``push`` / ``pull`` — ``actor`` pushes or pulls ``target`` ``distance`` spaces;
  expect ``end`` or ``destroyed``;
* ``inventory`` — give ``actor`` the items of ``steps`` (equipped, as in
  *use inventory*) and ``unequipped`` (item ids); expect ``valid`` (false with
  ``error``, a phrase of the refusal), ``armor``, ``will``;
* ``item_decks`` — set the item decks: ``weapon``, ``apparel``, ``artifact``,
  ``consumable`` (lists of item ids, top first);
* ``activate`` — ``actor`` activates the action space ``target`` ([x, y]) with the
  players' ``choices`` and ``dice``; expect ``equipped`` / ``unequipped`` (item ids, in
  tree order / sorted), ``mains``, ``stamina``, ``essence``, ``armor``, ``will``;
* ``use_inventory`` — ``actor`` uses the inventory of ``target`` (default itself) with
  ``steps``; expect as for ``activate``;
* ``trade_partners`` — who may trade when ``actor`` activates the recharge station
  ``target`` (expect a list of letters);
* ``adjacent`` — with the doors in ``closed_doors`` closed: what ``actor`` is adjacent
  to (expect the letters of units and the [x, y] of other non-floor spaces), or whether it
  is adjacent to ``target`` (expect true or false);
* ``close_door`` — ``actor`` closes the door on ``border`` (a pair of spaces); expect
  ``allowed`` or ``refused``.

``play_ability`` may also target a space ([x, y]) and expect ``closed``: the doors
it closes, as pairs of spaces; it takes a ``phase`` (outside the actor's turn), a ``second``
target, the players' ``choices`` and the space a ``destroy`` cost destroys, and expects
``allowed`` (false: refused). The verbs ``spawn_roll``, ``horror_roll``, ``in_play``, ``kill``,
``new_round``, ``invoke``, ``chapter_space``, ``look``, ``area``, ``explore`` and ``place``
are described in content/README.md; most expect the report of :func:`_report` (health, armor,
will, attack-roll modifiers, positions per letter; counts, chapter, threat, tokens; the
actor's essence, stamina, markers and items).

>>> from machina_nb.rules.content import content_root
>>> results = run_example(load_example(content_root() / "examples" / "p16_example_a_sarall.toml"))
>>> all(r.ok for r in results)
True

Rules: manual p13-14 (sliders), p16-17 (Examples A-F), p19 (contributing explorers), p21-23
(card reading, map-tile scope, advanced abilities, two targets), p22 (doors and adjacency),
p24 (attack), p25 (push and pull), p26-29 (counted conditions, conditionals, lasting stacks,
markers, chapters), p31-33 (inventory, gain item), p34 (exploring, scrolling), p37 (recharge
station); 3.5 FAQ.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping, cast

from machina_nb.rules.cards.abilities import Effect
from machina_nb.rules.engine.actions import (Action, Activate, ChapterSpace, Door, Explore, MonsterAct,
                                             PlayAbility, UseInventory, apply, contributors,
                                             explorer_abilities)
from machina_nb.rules.board.playarea import PlayArea
from machina_nb.rules.board.tiles import load_tiles
from machina_nb.rules.cards.events import load_all_chapters, load_all_events
from machina_nb.rules.engine.cardplay import attribute, can_target_ethereal
from machina_nb.rules.engine.effects import (destroy_unit, invoke_explorer_event,
                                             invoke_horror_event, roll_modifier)
from machina_nb.rules.engine.phases import horror_roll, start_new_round
from machina_nb.rules.cards.units import content_cards, unit_card
from machina_nb.rules.engine.chance import Dice, ScriptedDice
from machina_nb.rules.engine.resolution import Event, Resolution, resolve
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.odds.processes import adjusted_spawn_rating
from machina_nb.rules.engine.phases import spawn_roll
from machina_nb.rules.engine.state import Deck, PhaseName, Side
from machina_nb.rules.cards.events import Chapter, EventCard
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules
from machina_nb.rules.cards.examples import Example, ExampleStep, load_example
from machina_nb.rules.engine.inventory import arrange, trade_partners
from machina_nb.rules.engine.holdings import inventory_of, set_inventory
from machina_nb.rules.cards.items import load_all_items
from machina_nb.rules.cards.items import ITEM_TYPES, Inventory, equipped_items
from machina_nb.rules.board.maptext import BorderKind, Point, SpaceKind
from machina_nb.rules.engine.monsters import MonsterPlan, explorer_distances, mindless_step
from machina_nb.rules.engine.plans import PlannedAbility
from machina_nb.rules.board.sight import adjacent, adjacent_spaces
from machina_nb.rules.engine.state import GameState, MapSpec, MonsterTurn, Unit

__all__ = ["StepResult", "TurnAction", "monster_turn_actions", "example_state", "run_example", "load_example", "VERBS"]

_Letters = Mapping[Any, str]
"""Each legend letter's unit id, looked up with a step's ``actor`` and ``target`` as read."""

VERBS = ("set", "monster_turn", "distances", "contributors", "play_ability", "spawn_rating",
         "push", "pull", "inventory", "item_decks", "activate", "use_inventory", "trade_partners",
         "adjacent", "close_door", "spawn_roll", "horror_roll", "in_play", "kill", "new_round",
         "invoke", "chapter_space", "look", "area", "explore", "place")


@dataclass(frozen=True)
class StepResult:
    """One step's outcome: whether the engine did what the example states, and what it did."""

    step: ExampleStep
    ok: bool
    got: Any
    expected: Any
    events: tuple[Any, ...] = ()
    actions: tuple["TurnAction", ...] = ()


@dataclass(frozen=True)
class TurnAction:
    """One action of a mindless monster's turn: the ``plan`` that chose it (with its reasons),
    the states ``before`` and ``after`` it, its ``events``, and in ``then`` the events of the
    phases that follow once the turn ends (the round moving on), kept apart.

    Each action is one step of the plan: one ability, one door or one space moved (manual p16:
    the monster thinks again after each).
    Rules: manual p15-17 (the mindless monster's turn).
    """

    plan: MonsterPlan
    before: GameState
    after: GameState
    events: tuple[Event, ...] = ()
    then: tuple[Event, ...] = ()


def example_state(example: Example) -> tuple[GameState, dict[str, str]]:
    """The example's board and units as a state, and each letter's unit id (manual p8).

    A unit drawn twice (two letters, one card) gets ids ``<card>_<letter>``.
    """
    where = dict(example.board.units)
    counts: dict[str, int] = {}
    for _, unit in example.units:
        counts[unit.id] = counts.get(unit.id, 0) + 1
    units, ids = [], {}
    for letter, unit in example.units:
        uid = unit.id if counts[unit.id] == 1 else f"{unit.id}_{letter.lower()}"
        ids[letter] = uid
        card = unit_card(unit)
        placed = Unit.from_card(card, uid, where[letter])
        units.append(replace(placed, origin=card) if placed.side == Side.MONSTER else placed)
    explorers = [u for u in units if u.side == Side.EXPLORER]
    monsters = [u for u in units if u.side == Side.MONSTER]
    state = GameState(MapSpec(example.board), units=tuple(explorers + monsters),
                      queue=tuple(m.id for m in monsters), starting_explorers=len(explorers),
                      spawn_rating=None, horror_rating=None)
    return state, ids


def run_example(example: Example) -> tuple[StepResult, ...]:
    """Run every step of ``example`` and compare with its ``expect``."""
    state, ids = example_state(example)
    rules = example.rules()
    results = []
    for step in example.steps:
        if step.do not in VERBS:
            raise RulesError("do", f"example {example.id}: unknown step verb {step.do!r}; "
                             f"expected one of {', '.join(VERBS)}")
        state, result = _STEPS[step.do](state, rules, ids, step)
        results.append(result)
    return tuple(results)


def _get(step: ExampleStep, key: str, default: Any = None) -> Any:
    return step.record.get(key, default)


def _table(value: Any) -> dict[str, Any]:
    return dict(value.items) if hasattr(value, "items") and not isinstance(value, dict) \
        else dict(value or {})


def _set(state: GameState, rules: Rules, ids: _Letters,
         step: ExampleStep) -> tuple[GameState, StepResult]:
    changes = {k: v for k, v in step.record.items if k not in ("do", "actor", "note")}
    unit = state.unit(ids[step.actor])
    if "stamina" in changes:
        changes.setdefault("max_stamina", max(unit.max_stamina, changes["stamina"]))
    state = state.with_unit(replace(unit, **changes))
    return state, StepResult(step, True, changes, changes)


def monster_turn_actions(state: GameState, rules: Rules, ids: _Letters,
                         step: ExampleStep) -> tuple[TurnAction, ...]:
    """The ``monster_turn`` step's monster (``step.actor``, a letter of ``ids``) playing its
    turn with the step's scripted ``dice``, one :class:`TurnAction` per plan step, until its
    turn ends or the players would have to choose (a choice the example does not make).

    Rules: manual p15-17 (one action at a time, re-evaluated after each).
    """
    mid = ids[step.actor]
    others = tuple(m for m in state.queue if m != mid)
    state = replace(state, phase=PhaseName.MONSTER, done=others, monster_turn=MonsterTurn(mid))
    dice = ScriptedDice(_get(step, "dice", ()))
    out: list[TurnAction] = []
    while state.phase == PhaseName.MONSTER and state.has_unit(mid) and mid not in state.done:
        plan = mindless_step(state, rules, mid)
        if plan.options:
            break       # a choice the example does not make
        after, events = _answered(state, MonsterAct(mid), rules, dice)
        ends = [i for i, e in enumerate(events) if e.kind == "monster_turn"]
        cut = ends[-1] + 1 if ends else len(events)
        out.append(TurnAction(plan, state, after, tuple(events[:cut]), tuple(events[cut:])))
        state = after
        if state.monster_turn is None or state.monster_turn.monster != mid:
            break
    return tuple(out)


def _monster_turn(state: GameState, rules: Rules, ids: _Letters,
                  step: ExampleStep) -> tuple[GameState, StepResult]:
    mid = ids[step.actor]
    letters = {v: k for k, v in ids.items()}
    actions = monster_turn_actions(state, rules, ids, step)
    targets = []
    for act in actions:
        planned = act.plan.action
        if isinstance(planned, PlannedAbility) and planned.target is not None:
            hit = act.before.unit_at(planned.target)
            targets.append(letters.get(hit.id) if hit else list(planned.target))
    if actions:
        state = actions[-1].after
    events = [e for act in actions for e in act.events + act.then]
    m = state.unit(mid) if state.has_unit(mid) else None
    got = {"end": list(cast(Point, m.position)) if m else None,
           "moves": sum(e.kind == "move" for e in events),
           "stamina_left": m.stamina if m else None,
           "abilities": sum(e.kind == "ability" for e in events),
           "ability_target": targets[0] if targets else None,
           "health": {letter: state.unit(uid).health for letter, uid in ids.items()
                      if state.has_unit(uid)}}
    state, result = _compare(state, step, got, tuple(events))
    return state, replace(result, actions=actions)


def _answered(state: GameState, action: Action, rules: Rules,
              dice: Dice | None = None) -> tuple[GameState, tuple[Event, ...]]:
    """``apply``, where the example itself answers every choice the players make: one it does
    not answer is an error naming the choice (manual p16)."""
    after, events = apply(state, action, rules, dice)
    if after.decision is not None:
        need = after.decision
        raise RulesError("choices", f"the example does not say {need.what}; the players choose "
                         f"from {len(need.options)} options ({need.rule})")
    return after, events


def _compare(state: GameState, step: ExampleStep, got: dict[str, Any],
             events: tuple[Any, ...] = ()) -> tuple[GameState, StepResult]:
    expected = _table(_get(step, "expect"))
    seen = {k: got.get(k) for k in expected}
    wanted = {k: _plain(v) for k, v in expected.items()}
    for key in (*REPORT_TABLES, "counts"):
        if key in wanted and not isinstance(wanted[key], (int, str, list)):
            # a table: only the units (or counts) the example names
            wanted[key] = {k: _plain(v) for k, v in _table(wanted[key]).items()}
            seen[key] = {k: (got.get(key) or {}).get(k) for k in wanted[key]}
    return state, StepResult(step, seen == wanted, seen, wanted, events)


def _plain(value: Any) -> Any:
    """Tuples (as the example loader keeps lists) back to lists, at every depth."""
    return [_plain(v) for v in value] if isinstance(value, (tuple, list)) else value


def _distances(state: GameState, rules: Rules, ids: _Letters,
               step: ExampleStep) -> tuple[GameState, StepResult]:
    m = state.unit(ids[step.actor])
    letters = {v: k for k, v in ids.items()}
    got = {letters[e.id]: explorer_distances(state, rules, e).get(cast(Point, m.position))
           for e in state.explorers_on_map}
    return _compare(state, step, got)


def _contributors(state: GameState, rules: Rules, ids: _Letters,
                  step: ExampleStep) -> tuple[GameState, StepResult]:
    letters = {v: k for k, v in ids.items()}
    target = step.target if isinstance(step.target, tuple) else \
        state.unit(ids[step.target]).position
    got = sorted(letters[c] for c in contributors(state, rules, ids[step.actor], target))
    wanted = sorted(_get(step, "expect", ()))
    return state, StepResult(step, got == wanted, got, wanted)


def _play_ability(state: GameState, rules: Rules, ids: _Letters,
                  step: ExampleStep) -> tuple[GameState, StepResult]:
    """``actor`` plays ``ability`` on ``target`` (and ``second``) with ``dice`` and the players'
    ``choices``, on its turn or in another ``phase`` (outside its turn, manual p12, p20);
    a refused play reports ``allowed`` false (manual p20-24, p26).

    Rules: manual p20-24 (abilities, targeting, attacks), p26 (costs), p12 (outside the turn).
    """
    actor = state.unit(ids[step.actor])
    name = _get(step, "ability")
    names = [a.name for a in explorer_abilities(state, actor)]
    if name not in names:
        raise RulesError("ability", f"{actor.id} has no ability {name!r}; it has {names}")
    target, second = _where(state, ids, step.target), _where(state, ids, _get(step, "second"))
    target_id = cast(Unit, state.unit_at(target)).id if target and state.unit_at(target) \
        else None
    before = state.borders
    state = _phase(state, actor.id, _get(step, "phase", "explorer"))
    destroy = tuple(_get(step, "destroy")) if _get(step, "destroy") else None
    action = PlayAbility(actor.id, names.index(name), target if second is None else
                         (cast(Point, target), second), essence=_get(step, "essence_budget", 0),
                         choices=_choices(step), destroy=destroy)
    try:
        state, events = _answered(state, action, rules, ScriptedDice(_get(step, "dice", ())))
    except RulesError as refusal:
        if "allowed" not in _table(_get(step, "expect")):
            raise
        return _compare(state, step, {"allowed": False}, ())
    got = {"allowed": True, "hit": any(e.kind == "hit" for e in events),
           "destroyed": target_id is not None and not state.has_unit(target_id),
           "target_health": state.unit(target_id).health if target_id and
           state.has_unit(target_id) else 0,
           "closed": [[list(a), list(b)] for (a, b), kind in state.borders
                      if kind is BorderKind.DOOR_CLOSED and ((a, b), kind) not in before],
           **_report(state, rules, ids, actor.id)}
    return _compare(state, step, got, events)


def _where(state: GameState, ids: _Letters, place: Any) -> Point | None:
    """A step's space: ``[x, y]`` as given, or where the unit of a legend letter stands."""
    if place is None:
        return None
    return tuple(place) if not isinstance(place, str) else state.unit(ids[place]).position


def _choices(step: ExampleStep) -> tuple[Any, ...]:
    """The players' answers a step gives: spaces as ``(x, y)``, anything else as written."""
    return tuple(tuple(c) if isinstance(c, (list, tuple)) else c
                 for c in _get(step, "choices", ()))


def _phase(state: GameState, actor: str, phase: str) -> GameState:
    """The state in ``phase``: the actor's own turn in the Explorer phase, or another phase
    in which an explorer plays an ability that costs no stamina (manual p12, p20)."""
    if phase == PhaseName.EXPLORER:
        return replace(state, phase=PhaseName.EXPLORER, active=actor, turns=(actor,))
    return replace(state, phase=phase, active=None, done=())


REPORT_TABLES = ("health", "armor", "will", "rolls", "position", "ethereal_targeting")
"""What a step reports per legend letter (a table of the letters it names)."""


def _report(state: GameState, rules: Rules, ids: _Letters,
            actor: str | None = None) -> dict[str, Any]:
    """What an example may check after a step: each unit's health, armor and will as they
    stand, attack-roll modifier, position and whether it may target ethereal units; the count
    tokens, chapter, threat, lit spaces and destroyed tokens; the units left; the actor's
    essence, stamina, markers on cards and equipped items (manual p18-19, p26-28, p35)."""
    units = {letter: state.unit(uid) for letter, uid in ids.items() if state.has_unit(uid)}
    got = {"health": {k: u.health for k, u in units.items()},
           "armor": {k: attribute(state, u.id, "armor", rules) for k, u in units.items()},
           "will": {k: attribute(state, u.id, "will", rules) for k, u in units.items()},
           "rolls": {k: roll_modifier(state, u.id, rules) for k, u in units.items()},
           "position": {k: list(u.position) if u.position else None for k, u in units.items()},
           "ethereal_targeting": {k: can_target_ethereal(state, u, rules)
                                  for k, u in units.items()},
           "counts": dict(state.counts), "chapter": state.chapter.id, "threat": state.threat,
           "lit": sorted(list(p) for p in state.lit),
           "tokens": sorted(list(p) for p in set(state.destroyed)),
           "units": sorted(units), "over": state.over}
    if actor is not None and state.has_unit(actor):
        u = state.unit(actor)
        got.update(essence=u.essence, stamina=u.stamina, markers=state.markers_used(actor),
                   equipped=[c.id for c in equipped_items(inventory_of(state, actor))])
    return got


def _spawn_rating(state: GameState, rules: Rules, ids: _Letters,
                  step: ExampleStep) -> tuple[GameState, StepResult]:
    default = _get(step, "default")
    got = [adjusted_spawn_rating(default, n) for n in (1, 2, 3, 4)]
    wanted = list(_get(step, "expect"))
    return state, StepResult(step, got == wanted, got, wanted)


def _spawn_roll(state: GameState, rules: Rules, ids: _Letters,
                step: ExampleStep) -> tuple[GameState, StepResult]:
    """The spawn slider: the actor rolls each d10 face against ``current`` (the chapter's
    default ``default``); the chance of a spawn and the rating after a failure and a success
    (manual p13; the slider picture).

    Rules: manual p13 (spawn phase: roll, spawn, reset or lower the rating).
    """
    actor, default, current = ids[step.actor], _get(step, "default"), _get(step, "current")
    chapter = Chapter("slider", "The slider's chapter", default, None)
    base = replace(state, phase=PhaseName.SPAWN, chapter=chapter, spawn_rating=current,
                   monsters=Deck((content_cards()[_get(step, "monster", "sarall")],)))
    return _slider(base, rules, step, lambda r: spawn_roll(r, r.state.unit(actor)),
                   lambda s: (bool(s.monsters_in_play), s.spawn_rating))


def _slider(base: GameState, rules: Rules, step: ExampleStep,
            roll: Callable[[Resolution], object],
            outcome: Callable[[GameState], tuple[bool, Any]]) -> tuple[GameState, StepResult]:
    """Each d10 face rolled from ``base``: the chance that ``outcome`` happens, and the rating
    after a failure and after a success (manual p13, p14: the sliders)."""
    after = {}
    for face in range(10):
        r = new_resolution(base, rules, ScriptedDice([face]))
        roll(r)
        after[face] = outcome(r.state)
    happened = [f for f, (hit, _) in after.items() if hit]
    got = {"chance": f"{len(happened)}/10",
           "after_failure": next((v for hit, v in after.values() if not hit), None),
           "after_success": next((v for hit, v in after.values() if hit), None)}
    return _compare(base, step, got, ())


def _displace(state: GameState, rules: Rules, ids: _Letters,
              step: ExampleStep) -> tuple[GameState, StepResult]:
    user = state.unit(ids[step.actor])
    target = state.unit(ids[step.target])
    r = new_resolution(state, rules, ScriptedDice(_get(step, "dice", ())))
    resolve(r, (Effect(step.do, amount=_get(step, "distance")),), user, target.position,
            f"{step.do} example")
    state = r.state
    got = {"end": list(cast(Point, state.unit(target.id).position))
           if state.has_unit(target.id) else None,
           "destroyed": not state.has_unit(target.id)}
    return _compare(state, step, got, tuple(r.events))


def _items_got(state: GameState, ids: _Letters, owner: str) -> dict[str, Any]:
    inv = inventory_of(state, owner)
    u = state.unit(owner)
    return {"equipped": [c.id for c in equipped_items(inv)],
            "unequipped": sorted(c.id for c in inv.unequipped),
            "mains": [t.item.id for t in inv.equipped], "stamina": u.stamina,
            "essence": u.essence, "armor": u.armor, "will": u.will}


def _inventory(state: GameState, rules: Rules, ids: _Letters,
               step: ExampleStep) -> tuple[GameState, StepResult]:
    items = load_all_items()
    owner = ids[step.actor]
    steps = tuple(tuple(s) for s in _get(step, "steps", ()))
    held = Inventory(owner, (), tuple(items[i] for s in steps for i in s[1:2]) +
                     tuple(items[i] for i in _get(step, "unequipped", ())))
    try:
        inv, _ = arrange(held, steps)
        state = set_inventory(state, inv, rules)
    except RulesError as exc:
        phrase = _table(_get(step, "expect")).get("error", "")
        got = {"valid": False, "error": phrase if phrase and phrase in str(exc) else str(exc)}
        return _compare(state, step, got)
    got = {"valid": True, **_items_got(state, ids, owner)}
    return _compare(state, step, got)


def _item_decks(state: GameState, rules: Rules, ids: _Letters,
                step: ExampleStep) -> tuple[GameState, StepResult]:
    items = load_all_items()
    decks = {k: tuple(items[i] for i in _get(step, k, ())) for k in ITEM_TYPES}
    state = replace(state, items=replace(state.items, **decks))
    return state, StepResult(step, True, decks, decks)


def _activate(state: GameState, rules: Rules, ids: _Letters,
              step: ExampleStep) -> tuple[GameState, StepResult]:
    actor = ids[step.actor]
    state = replace(state, phase=PhaseName.EXPLORER, active=actor, turns=(actor,))
    state, events = _answered(state, Activate(actor, cast(Point, step.target),
                                          choices=tuple(_get(step, "choices", ()))),
                          rules, ScriptedDice(_get(step, "dice", ())))
    return _compare(state, step, _items_got(state, ids, actor), events)


def _use_inventory(state: GameState, rules: Rules, ids: _Letters,
                   step: ExampleStep) -> tuple[GameState, StepResult]:
    actor = ids[step.actor]
    owner = ids[step.target] if step.target else actor
    state = replace(state, phase=PhaseName.EXPLORER, active=actor, turns=(actor,))
    steps = tuple(tuple(s) for s in _get(step, "steps", ()))
    state, events = _answered(state, UseInventory(actor, owner=owner, steps=steps), rules)
    return _compare(state, step, _items_got(state, ids, owner), events)


def _trade_partners(state: GameState, rules: Rules, ids: _Letters,
                    step: ExampleStep) -> tuple[GameState, StepResult]:
    letters = {v: k for k, v in ids.items()}
    got = sorted(letters[p] for p in trade_partners(state, rules, ids[step.actor],
                                                  cast(Point, step.target)))
    wanted = sorted(_get(step, "expect", ()))
    return state, StepResult(step, got == wanted, got, wanted)


def _with_closed_doors(state: GameState, step: ExampleStep) -> GameState:
    closed = tuple(((tuple(a), tuple(b)), BorderKind.DOOR_CLOSED)
                   for a, b in _get(step, "closed_doors", ()))
    return replace(state, borders=state.borders + closed)


def _adjacent(state: GameState, rules: Rules, ids: _Letters,
              step: ExampleStep) -> tuple[GameState, StepResult]:
    board = _with_closed_doors(state, step).unit_board()
    here = cast(Point, state.unit(ids[step.actor]).position)
    got: Any
    if step.target is not None:
        there = step.target if isinstance(step.target, tuple) else \
            state.unit(ids[step.target]).position
        got, wanted = adjacent(board, here, cast(Point, there), rules), _get(step, "expect")
        return state, StepResult(step, got == wanted, got, wanted)
    letters = {v: k for k, v in ids.items()}
    got = [letters.get(cast(str, board.unit_at(q))) or list(q) for q in adjacent_spaces(board, here, rules)
           if board.unit_at(q) or board.space(q) is not SpaceKind.FLOOR]
    got, wanted = sorted(got, key=str), sorted(_plain(_get(step, "expect", ())), key=str)
    return state, StepResult(step, got == wanted, got, wanted)


def _close_door(state: GameState, rules: Rules, ids: _Letters,
                step: ExampleStep) -> tuple[GameState, StepResult]:
    actor = ids[step.actor]
    a, b = (tuple(p) for p in _get(step, "border"))
    turn = replace(state, phase=PhaseName.EXPLORER, active=actor, turns=(actor,))
    events: tuple[Event | RulesError, ...]
    try:
        _, events = apply(turn, Door(actor, a, b, "close"), rules)
        got = "allowed"
    except RulesError as refusal:
        got, events = "refused", (refusal,)
    wanted = _get(step, "expect")
    return state, StepResult(step, got == wanted, got, wanted, tuple(
        e for e in events if hasattr(e, "rule")))


def _horror_roll(state: GameState, rules: Rules, ids: _Letters,
                 step: ExampleStep) -> tuple[GameState, StepResult]:
    """The horror slider: each d10 face against ``current`` (the chapter's default
    ``default``): the chance to invoke a horror event, and the rating after a failure and a
    success (manual p14; the slider picture).

    Rules: manual p14 (horror phase: roll, invoke and reset, or lower the rating).
    """
    default, current = _get(step, "default"), _get(step, "current")
    chapter = Chapter("slider", "The slider's chapter", None, default)
    base = replace(state, phase=PhaseName.HORROR, chapter=chapter, horror_rating=current,
                   horror_events=Deck((EventCard("quiet", "A quiet event", "horror"),)))
    return _slider(base, rules, step, horror_roll,
                   lambda s: (bool(s.horror_events.destroyed), s.horror_rating))


def _in_play(state: GameState, rules: Rules, ids: _Letters,
             step: ExampleStep) -> tuple[GameState, StepResult]:
    """Cards from ``content/`` put in play before the example runs: the current ``chapter``
    and the ``next_chapters`` under it, the current ``horror_event`` and ``explorer_event``, a
    ``bound_event`` held by the actor, and the monster ``threat`` (manual p14, p21, p26, p28).

    Rules: manual p21 (cards in play), p26 (binding events), p28 (chapters), p14 (threat).
    """
    chapters, events = load_all_chapters(), load_all_events()
    changes: dict[str, Any] = {}
    if _get(step, "chapter"):
        changes["chapter"] = chapters[_get(step, "chapter")]
    if _get(step, "next_chapters") is not None:
        changes["chapters"] = Deck(tuple(chapters[c] for c in _get(step, "next_chapters")))
    for key, field in (("horror_event", "horror_events"), ("explorer_event", "explorer_events")):
        if _get(step, key):
            changes[field] = Deck(getattr(state, field).cards, (events[_get(step, key)],))
    if _get(step, "bound_event"):
        changes["bound"] = state.bound + ((ids[step.actor], events[_get(step, "bound_event")]),)
    if _get(step, "threat") is not None:
        changes["threat"] = _get(step, "threat")
    state = replace(state, **changes)
    return state, StepResult(step, True, sorted(changes), sorted(changes))


def _kill(state: GameState, rules: Rules, ids: _Letters,
          step: ExampleStep) -> tuple[GameState, StepResult]:
    """``actor`` destroys ``target`` on its turn (a kill: manual p19, p25), or banishes it
    (``banish``: no kill, manual p19); then the example checks what followed.

    Rules: manual p19 (monster death, banish), p25 (kill), p26 (counted conditions).
    """
    actor, victim = ids[step.actor], ids[step.target]
    state = _phase(state, actor, "explorer")
    r = new_resolution(state, rules, ScriptedDice(_get(step, "dice", ())), _choices(step))
    destroy_unit(r, victim, None if _get(step, "banish") else actor, "the example",
                 banish=bool(_get(step, "banish")))
    return _compare(r.state, step, _report(r.state, rules, ids, actor), tuple(r.events))


def _new_round(state: GameState, rules: Rules, ids: _Letters,
               step: ExampleStep) -> tuple[GameState, StepResult]:
    """A new round begins: the Explorer phase with its triggers, the markers back, stamina
    restored (manual p12, p27).

    Rules: manual p12 (explorer phase), p27 (markers return; triggers at its start).
    """
    r = new_resolution(state, rules, ScriptedDice(_get(step, "dice", ())), _choices(step))
    start_new_round(r, "the example")
    actor = ids[step.actor] if step.actor else None
    return _compare(r.state, step, _report(r.state, rules, ids, actor), tuple(r.events))


def _invoke(state: GameState, rules: Rules, ids: _Letters,
            step: ExampleStep) -> tuple[GameState, StepResult]:
    """The ``event`` from ``content/events`` is drawn and invoked: a horror event (manual p14)
    or, by ``actor``, an explorer event (manual p37), with ``dice`` and ``choices``.

    Rules: manual p14 (invoke horror event), p37 (invoke explorer event), p21-22 (scope).
    """
    card = load_all_events()[_get(step, "event")]
    field = "horror_events" if card.kind == "horror" else "explorer_events"
    deck = getattr(state, field)
    state = replace(state, **cast("dict[str, Any]",
                                  {field: Deck((card,) + deck.cards, deck.destroyed)}))
    r = new_resolution(state, rules, ScriptedDice(_get(step, "dice", ())), _choices(step))
    actor = ids[step.actor] if step.actor else None
    if card.kind == "horror":
        invoke_horror_event(r, "the example")
    else:
        invoke_explorer_event(r, r.state.unit(cast(str, actor)), "the example")
    return _compare(r.state, step, _report(r.state, rules, ids, actor), tuple(r.events))


def _chapter_space(state: GameState, rules: Rules, ids: _Letters,
                   step: ExampleStep) -> tuple[GameState, StepResult]:
    """``actor`` activates the chapter space ``target`` on its turn (manual p29, p36).

    Rules: manual p36 (chapter space), p29 (default chapter: progress), p28 (enters play).
    """
    actor = ids[step.actor]
    state = _phase(state, actor, "explorer")
    state, events = _answered(state, ChapterSpace(actor, cast(Point, step.target), choices=_choices(step)),
                              rules, ScriptedDice(_get(step, "dice", ())))
    return _compare(state, step, _report(state, rules, ids, actor), events)


def _look(state: GameState, rules: Rules, ids: _Letters,
          step: ExampleStep) -> tuple[GameState, StepResult]:
    """What stands now, nothing done: each unit's attributes as modified, who may target
    ethereal units, the counts and tokens (manual p19, p21-22, p25).

    Rules: manual p19 (attributes), p21-22 (cards in play, map-tile scope), p25 (ethereal).
    """
    actor = ids[step.actor] if step.actor else None
    return _compare(state, step, _report(state, rules, ids, actor), ())


def _area(state: GameState, rules: Rules, ids: _Letters,
          step: ExampleStep) -> tuple[GameState, StepResult]:
    """The map becomes a playing area of the shipped map tiles: ``start`` the starting tile
    side, ``deck`` the tile sides to draw, top first; each legend letter of ``places`` stands
    on that space of the area (manual p8, p34).

    Rules: manual p8 (the map-tile deck, the starting tile), p34 (the playing area).
    """
    sides = [side for tile in load_tiles().values() for side in tile.sides]
    deck = tuple(_get(step, "deck", ())) + (_get(step, "start"),)
    area = PlayArea.start(sides, deck)
    places = {ids[k]: tuple(v) for k, v in _table(_get(step, "places")).items()}
    units = tuple(replace(u, position=places.get(u.id, u.position)) for u in state.units
                  if u.id in places)
    state = replace(state, map=MapSpec(area=area), units=units,
                    queue=tuple(m for m in state.queue if m in places))
    state.static_board().with_units((cast(Point, u.position), u.id) for u in units)   # passable, free
    return state, StepResult(step, True, sorted(places), sorted(places))


def _place(state: GameState, rules: Rules, ids: _Letters,
           step: ExampleStep) -> tuple[GameState, StepResult]:
    """The ``actor`` figure is put on the space ``at`` before play goes on (setting up).

    Rules: manual p8 (figures placed on the map), p25 (one unit a space).
    """
    uid, at = ids[step.actor], tuple(_get(step, "at"))
    board = state.unit_board()
    if state.unit(uid).position is not None:
        board = board.without_unit(cast(Point, state.unit(uid).position))
    board.with_unit(at, uid)        # a unit stands only on a free, passable space (p25, p35)
    return state.update_unit(uid, position=at), StepResult(step, True, list(at), list(at))


def _explore(state: GameState, rules: Rules, ids: _Letters,
             step: ExampleStep) -> tuple[GameState, StepResult]:
    """``actor``, standing on the unexplored edge space ``at``, explores on its turn (2
    stamina): the top map tile joins there, or the area scrolls first (manual p34).

    Rules: manual p34 (explore map tile, scroll map tile), p19 (banish).
    """
    actor = ids[step.actor]
    state = _phase(state.update_unit(actor, position=tuple(_get(step, "at"))), actor,
                   "explorer")
    state, events = _answered(state, Explore(actor, choices=_choices(step)), rules)
    got = {"slots": sorted(list(t.slot) for t in cast(PlayArea, state.map.area).tiles),
           **_report(state, rules, ids, actor)}
    return _compare(state, step, got, events)


_STEPS = {"set": _set, "monster_turn": _monster_turn, "distances": _distances,
          "contributors": _contributors, "play_ability": _play_ability,
          "spawn_rating": _spawn_rating, "push": _displace, "pull": _displace,
          "inventory": _inventory, "item_decks": _item_decks, "activate": _activate,
          "use_inventory": _use_inventory, "trade_partners": _trade_partners,
          "adjacent": _adjacent, "close_door": _close_door, "spawn_roll": _spawn_roll,
          "horror_roll": _horror_roll, "in_play": _in_play, "kill": _kill,
          "new_round": _new_round, "invoke": _invoke, "chapter_space": _chapter_space,
          "look": _look, "area": _area, "explore": _explore, "place": _place}
