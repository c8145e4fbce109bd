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
it closes, as pairs of spaces.

>>> from machina_nb.rules.content import content_root
>>> results = run_example(load_example(content_root() / "examples" / "p16_example_a_sarall.toml"))
>>> all(r.ok for r in results)
True

Rules: manual p16-17 (Examples A-F), p19 (contributing explorers), p22 (doors and
adjacency), p24 (attack), p25
(push and pull), p31-33 (inventory, gain item), p37 (recharge station); 3.5 FAQ.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from machina_nb.rules.cards.abilities import Effect
from machina_nb.rules.engine.actions import (Activate, Door, MonsterAct, PlayAbility, UseInventory, apply, contributors, explorer_abilities)
from machina_nb.rules.cards.units import content_cards, unit_card
from machina_nb.rules.engine.chance import ScriptedDice
from machina_nb.rules.engine.resolution import resolve
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.odds.processes import adjusted_spawn_rating
from machina_nb.rules.engine.phases import spawn_roll
from machina_nb.rules.engine.state import Deck
from machina_nb.rules.cards.events import Chapter
from machina_nb.rules.errors import RulesError
from machina_nb.rules.cards.examples import Example, Step, load_example
from machina_nb.rules.engine.inventory import arrange, trade_partners
from machina_nb.rules.engine.holdings import inventory_of, set_inventory
from machina_nb.rules.cards.items import load_all_items
from machina_nb.rules.cards.items import ITEM_TYPES, Inventory, equipped_items
from machina_nb.rules.board.maptext import BorderKind, SpaceKind
from machina_nb.rules.engine.monsters import MonsterPlan, explorer_distances, mindless_step
from machina_nb.rules.board.sight import adjacent, adjacent_spaces
from machina_nb.rules.engine.state import GameState, MapSpec, MonsterTurn, Unit

__all__ = ["StepResult", "TurnAction", "monster_turn_actions", "example_state", "run_example", "load_example", "VERBS"]

VERBS = ("set", "monster_turn", "distances", "contributors", "play_ability", "spawn_rating",
         "push", "pull", "inventory", "item_decks", "activate", "use_inventory", "trade_partners",
         "adjacent", "close_door", "spawn_roll")


@dataclass(frozen=True)
class StepResult:
    """One step's outcome: whether the engine did what the example states, and what it did.

    Rules: the manual's worked examples .
    """

    step: Step
    ok: bool
    got: Any
    expected: Any
    events: tuple = ()
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
    events: tuple = ()
    then: tuple = ()


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
        units.append(replace(placed, origin=card) if placed.side == "monster" else placed)
    explorers = [u for u in units if u.side == "explorer"]
    monsters = [u for u in units if u.side == "monster"]
    state = GameState(MapSpec(example.board), units=tuple(explorers + monsters),
                      queue=tuple(m.id for m in monsters), starting_explorers=len(explorers),
                      spawn_rating=None, horror_rating=None)
    return state, ids


def run_example(example: Example) -> tuple[StepResult, ...]:
    """Run every step of ``example`` and compare with its ``expect`` ."""
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


def _get(step: Step, key: str, default=None):
    return step.record.get(key, default)


def _table(value) -> dict:
    return dict(value.items) if hasattr(value, "items") and not isinstance(value, dict) \
        else dict(value or {})


def _set(state, rules, ids, step):
    changes = {k: v for k, v in step.record.items if k not in ("do", "actor", "note")}
    unit = state.unit(ids[step.actor])
    if "stamina" in changes:
        changes.setdefault("max_stamina", max(unit.max_stamina, changes["stamina"]))
    state = state.with_unit(replace(unit, **changes))
    return state, StepResult(step, True, changes, changes)


def monster_turn_actions(state: GameState, rules, ids: dict[str, str],
                         step: Step) -> tuple[TurnAction, ...]:
    """The ``monster_turn`` step's monster (``step.actor``, a letter of ``ids``) playing its
    turn with the step's scripted ``dice``, one :class:`TurnAction` per plan step, until its
    turn ends or the players would have to choose (a choice the example does not make).

    Rules: manual p15-17 (one action at a time, re-evaluated after each).
    """
    mid = ids[step.actor]
    others = tuple(m for m in state.queue if m != mid)
    state = replace(state, phase="monster", done=others, monster_turn=MonsterTurn(mid))
    dice = ScriptedDice(_get(step, "dice", ()))
    out: list[TurnAction] = []
    while state.phase == "monster" and state.has_unit(mid) and mid not in state.done:
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


def _monster_turn(state, rules, ids, step):
    mid = ids[step.actor]
    letters = {v: k for k, v in ids.items()}
    actions = monster_turn_actions(state, rules, ids, step)
    targets = []
    for act in actions:
        if act.plan.action[0] == "ability" and act.plan.action[2] is not None:
            hit = act.before.unit_at(act.plan.action[2])
            targets.append(letters.get(hit.id) if hit else list(act.plan.action[2]))
    if actions:
        state = actions[-1].after
    events = [e for act in actions for e in act.events + act.then]
    m = state.unit(mid) if state.has_unit(mid) else None
    got = {"end": list(m.position) if m else None,
           "moves": sum(e.kind == "move" for e in events),
           "stamina_left": m.stamina if m else None,
           "abilities": sum(e.kind == "ability" for e in events),
           "ability_target": targets[0] if targets else None,
           "health": {letter: state.unit(uid).health for letter, uid in ids.items()
                      if state.has_unit(uid)}}
    state, result = _compare(state, step, got, tuple(events))
    return state, replace(result, actions=actions)


def _answered(state, action, rules, dice=None):
    """``apply``, where the example itself answers every choice the players make: one it does
    not answer is an error naming the choice (manual p16)."""
    after, events = apply(state, action, rules, dice)
    if after.decision is not None:
        need = after.decision
        raise RulesError("choices", f"the example does not say {need.what}; the players choose "
                         f"from {len(need.options)} options ({need.rule})")
    return after, events


def _compare(state, step, got, events=()):
    expected = _table(_get(step, "expect"))
    seen = {k: got.get(k) for k in expected}
    wanted = {k: _plain(v) for k, v in expected.items()}
    if "health" in wanted:      # only the units the example names
        wanted["health"] = _table(wanted["health"])
        seen["health"] = {k: (got.get("health") or {}).get(k) for k in wanted["health"]}
    return state, StepResult(step, seen == wanted, seen, wanted, events)


def _plain(value):
    """Tuples (as the example loader keeps lists) back to lists, at every depth."""
    return [_plain(v) for v in value] if isinstance(value, (tuple, list)) else value


def _distances(state, rules, ids, step):
    m = state.unit(ids[step.actor])
    letters = {v: k for k, v in ids.items()}
    got = {letters[e.id]: explorer_distances(state, rules, e).get(m.position)
           for e in state.explorers_on_map}
    return _compare(state, step, got)


def _contributors(state, rules, ids, step):
    letters = {v: k for k, v in ids.items()}
    target = step.target if isinstance(step.target, tuple) else \
        state.unit(ids[step.target]).position
    got = sorted(letters[c] for c in contributors(state, rules, ids[step.actor], target))
    wanted = sorted(_get(step, "expect", ()))
    return state, StepResult(step, got == wanted, got, wanted)


def _play_ability(state, rules, ids, step):
    actor = state.unit(ids[step.actor])
    name = _get(step, "ability")
    names = [a.name for a in explorer_abilities(state, actor)]
    if name not in names:
        raise RulesError("ability", f"{actor.id} has no ability {name!r}; it has {names}")
    target = step.target if isinstance(step.target, tuple) else \
        state.unit(ids[step.target]).position
    target_id = state.unit_at(target).id if state.unit_at(target) else None
    before = state.borders
    state = replace(state, phase="explorer", active=actor.id, turns=(actor.id,))
    state, events = _answered(state, PlayAbility(actor.id, names.index(name), target,
                                             essence=_get(step, "essence_budget", 0)),
                          rules, ScriptedDice(_get(step, "dice", ())))
    got = {"hit": any(e.kind == "hit" for e in events),
           "destroyed": target_id is not None and not state.has_unit(target_id),
           "target_health": state.unit(target_id).health if target_id and
           state.has_unit(target_id) else 0,
           "essence": state.unit(actor.id).essence,
           "closed": [[list(a), list(b)] for (a, b), kind in state.borders
                      if kind is BorderKind.DOOR_CLOSED and ((a, b), kind) not in before]}
    return _compare(state, step, got, events)


def _spawn_rating(state, rules, ids, step):
    default = _get(step, "default")
    got = [adjusted_spawn_rating(default, n) for n in (1, 2, 3, 4)]
    wanted = list(_get(step, "expect"))
    return state, StepResult(step, got == wanted, got, wanted)


def _spawn_roll(state, rules, ids, step):
    """The spawn slider: the actor rolls each d10 face against ``current`` (the chapter's
    default ``default``); the chance of a spawn and the rating after a failure and a success
    (manual p13; the slider picture).

    Rules: manual p13 (spawn phase: roll, spawn, reset or lower the rating).
    """
    actor, default, current = ids[step.actor], _get(step, "default"), _get(step, "current")
    chapter = Chapter("slider", "The slider's chapter", default, None)
    base = replace(state, phase="spawn", chapter=chapter, spawn_rating=current,
                   monsters=Deck((content_cards()[_get(step, "monster", "sarall")],)))
    after = {}
    for face in range(10):
        r = new_resolution(base, rules, ScriptedDice([face]))
        spawn_roll(r, r.state.unit(actor))
        after[face] = (bool(r.state.monsters_in_play), r.state.spawn_rating)
    spawned = [f for f, (hit, _) in after.items() if hit]
    got = {"chance": f"{len(spawned)}/10",
           "after_failure": next((v for hit, v in after.values() if not hit), None),
           "after_success": next((v for hit, v in after.values() if hit), None)}
    return _compare(base, step, got, ())


def _displace(state, rules, ids, step):
    user = state.unit(ids[step.actor])
    target = state.unit(ids[step.target])
    r = new_resolution(state, rules, ScriptedDice(_get(step, "dice", ())))
    resolve(r, (Effect(step.do, amount=_get(step, "distance")),), user, target.position,
            f"{step.do} example")
    state = r.state
    got = {"end": list(state.unit(target.id).position) if state.has_unit(target.id) else None,
           "destroyed": not state.has_unit(target.id)}
    return _compare(state, step, got, tuple(r.events))


def _items_got(state, ids, owner):
    inv = inventory_of(state, owner)
    u = state.unit(owner)
    return {"equipped": [c.id for c in equipped_items(inv)],
            "unequipped": sorted(c.id for c in inv.unequipped),
            "mains": [t.item.id for t in inv.equipped], "stamina": u.stamina,
            "essence": u.essence, "armor": u.armor, "will": u.will}


def _inventory(state, rules, ids, step):
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


def _item_decks(state, rules, ids, step):
    items = load_all_items()
    decks = {k: tuple(items[i] for i in _get(step, k, ())) for k in ITEM_TYPES}
    state = replace(state, items=replace(state.items, **decks))
    return state, StepResult(step, True, decks, decks)


def _activate(state, rules, ids, step):
    actor = ids[step.actor]
    state = replace(state, phase="explorer", active=actor, turns=(actor,))
    state, events = _answered(state, Activate(actor, step.target,
                                          choices=tuple(_get(step, "choices", ()))),
                          rules, ScriptedDice(_get(step, "dice", ())))
    return _compare(state, step, _items_got(state, ids, actor), events)


def _use_inventory(state, rules, ids, step):
    actor = ids[step.actor]
    owner = ids[step.target] if step.target else actor
    state = replace(state, phase="explorer", active=actor, turns=(actor,))
    steps = tuple(tuple(s) for s in _get(step, "steps", ()))
    state, events = _answered(state, UseInventory(actor, owner=owner, steps=steps), rules)
    return _compare(state, step, _items_got(state, ids, owner), events)


def _trade_partners(state, rules, ids, step):
    letters = {v: k for k, v in ids.items()}
    got = sorted(letters[p] for p in trade_partners(state, rules, ids[step.actor], step.target))
    wanted = sorted(_get(step, "expect", ()))
    return state, StepResult(step, got == wanted, got, wanted)


def _with_closed_doors(state, step):
    closed = tuple(((tuple(a), tuple(b)), BorderKind.DOOR_CLOSED)
                   for a, b in _get(step, "closed_doors", ()))
    return replace(state, borders=state.borders + closed)


def _adjacent(state, rules, ids, step):
    board = _with_closed_doors(state, step).unit_board()
    here = state.unit(ids[step.actor]).position
    if step.target is not None:
        there = step.target if isinstance(step.target, tuple) else \
            state.unit(ids[step.target]).position
        got, wanted = adjacent(board, here, there, rules), _get(step, "expect")
        return state, StepResult(step, got == wanted, got, wanted)
    letters = {v: k for k, v in ids.items()}
    got = [letters.get(board.unit_at(q)) or list(q) for q in adjacent_spaces(board, here, rules)
           if board.unit_at(q) or board.space(q) is not SpaceKind.FLOOR]
    got, wanted = sorted(got, key=str), sorted(_plain(_get(step, "expect", ())), key=str)
    return state, StepResult(step, got == wanted, got, wanted)


def _close_door(state, rules, ids, step):
    actor = ids[step.actor]
    a, b = (tuple(p) for p in _get(step, "border"))
    turn = replace(state, phase="explorer", active=actor, turns=(actor,))
    try:
        _, events = apply(turn, Door(actor, a, b, "close"), rules)
        got = "allowed"
    except RulesError as refusal:
        got, events = "refused", (refusal,)
    wanted = _get(step, "expect")
    return state, StepResult(step, got == wanted, got, wanted, tuple(
        e for e in events if hasattr(e, "rule")))


_STEPS = {"set": _set, "monster_turn": _monster_turn, "distances": _distances,
          "contributors": _contributors, "play_ability": _play_ability,
          "spawn_rating": _spawn_rating, "push": _displace, "pull": _displace,
          "inventory": _inventory, "item_decks": _item_decks, "activate": _activate,
          "use_inventory": _use_inventory, "trade_partners": _trade_partners,
          "adjacent": _adjacent, "close_door": _close_door, "spawn_roll": _spawn_roll}
