"""The mindless monster turn, one action at a time, with its reasons.

:func:`mindless_step` is a pure function of the state: it returns a
:class:`MonsterPlan` — the closest-distance to every explorer, the target and
why, the end points and path considered, and the one action the monster takes
next (play an ability, destroy a closed door, step, or end its turn). The
engine (:mod:`machina_nb.rules.engine.actions`) carries the action out and asks again,
so the monster re-evaluates after every action (manual p15). Ties the text
leaves to the players come back as ``options``: the plan then needs a choice,
never a silent tie-break (manual p16: resolving ambiguity).

Rules: manual p15-17 (monster phase, mindless behaviour, Examples A-F), p22
(closest), p35 (pits); rulings C-6, C-14, C-24, C-27, D8, D9, D10, D11, D12, D13, D14, D40, D44, D46.
"""

from __future__ import annotations

import heapq
from collections import deque
from functools import lru_cache
from dataclasses import dataclass
from typing import Any, Collection, Iterable, Mapping, cast

from machina_nb.rules.cards.abilities import Ability
from machina_nb.rules.engine.cardplay import enabled_to_target_ethereal
from machina_nb.rules.board.distance import GrowingDistances, Mover, walking_distances
from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.maptext import BorderKind, Point, SpaceKind
from machina_nb.rules.rulings import Rules
from machina_nb.rules.engine.phrases import SOURCE_WORDS, At, Piece, Reason, Who, Word
from machina_nb.rules.engine.plans import (MonsterPlan, Planned, PlannedAbility, PlannedDoor,
                                           PlannedEnd, PlannedMove)
from machina_nb.rules.engine.state import GameState, MonsterTurn, Unit
from machina_nb.rules.engine.targets import ability_targets, unpaid_cost
from machina_nb.rules.board.terrain import closest_distances, closest_table, move_steps, move_table

__all__ = ["MonsterPlan", "Planned", "PlannedMove", "PlannedAbility", "PlannedDoor", "PlannedEnd",
           "mindless_step", "effect_move", "targetable_explorers", "aims_at_explorers",
           "explorer_distances", "monster_abilities", "DOOR_DESTROY_COST"]

DOOR_DESTROY_COST = 4
"""Stamina a monster pays to destroy a closed door (manual p16, p36)."""


def _at(unit: Unit) -> Point:
    """Where a unit on the map stands."""
    return cast(Point, unit.position)


_Dist = Mapping[Point, int]
_Established = tuple[Point | None, tuple[Point, ...], tuple[tuple[Point, int, int], ...], Any]


def _why(m: Unit, *pieces: Piece) -> Reason:
    return Reason.of(m.id, *pieces)


def _listed(items: Iterable[Any]) -> list[Piece]:
    """Unit ids (or other pieces) separated by commas."""
    out: list[Piece] = []
    for i, item in enumerate(items):
        out += [", " if i else "", Who(item) if type(item) is str else item]
    return out


def _pieces(target: Any) -> tuple[Piece, ...]:
    """An ability's target in a reason: a space, or two spaces (manual p23)."""
    if isinstance(target, tuple) and len(target) == 2 and all(isinstance(c, tuple) for c in target):
        return ("(", At(target[0]), ", ", At(target[1]), ")")
    return (At(target),) if isinstance(target, tuple) else (str(target),)


def monster_abilities(state: GameState, monster: Unit,
                      rules: Rules) -> tuple[tuple[str, Ability], ...]:
    """The monster's abilities in the order it tries them: current horror event first (manual p16).

    Returns ``(source, ability)`` pairs; ``source`` is ``bound``, ``horror`` or ``card``.
    ``monster.ability_sources = bound_event_and_card`` puts the horror events bound
    to this monster (``state.bound`` entries held by it) first (aid; switches monster.ability_sources and horror_bind.monster);
    ``event_and_card`` (manual p15, p20) ignores them.
    Rules: manual p15-16 (monster abilities), p20 (sources); aid; switches monster.ability_sources and horror_bind.monster.
    """
    current = state.horror_events.destroyed[0] if state.horror_events.destroyed else None
    out = []
    if rules["monster.ability_sources"] == "bound_event_and_card":
        out += [("bound", a) for who, card in state.bound if who == monster.id
                for a in card.abilities]
    if current is not None:
        out += [("horror", a) for a in current.abilities]
    out += [("card", a) for a in monster.abilities]
    return tuple(out)


def targetable_explorers(state: GameState, monster: Unit, rules: Rules) -> tuple[Unit, ...]:
    """Explorers the monster can target: ethereal ones only where a lit chapter space allows.

    A lit chapter space lets units on its tile target ethereal units; which tile
    counts is ``targetable.for_monsters`` (switch targetable.for_monsters). A monster disregards
    explorers it cannot target (manual p25). A lasting or passive ``target_ethereal``
    effect on the monster enables it anywhere (manual p22-23). Which targeting counts is
    ``targetable.which_targeting``: being allowed to target ethereal units (``any_targeting``),
    or also having an ability whose icon may aim at an explorer (``its_abilities``).
    Rules: manual p25 (ethereal), p36 (lit chapter space), p22-23; switches
    targetable.for_monsters and targetable.which_targeting.
    """
    lit_tiles = {state.tile_of(p) for p in state.lit if p not in state.destroyed}
    out = []
    for e in state.explorers_on_map:
        if e.ethereal and not enabled_to_target_ethereal(state, monster.id, rules):
            where = _at(monster) if rules["targetable.for_monsters"] == "monster_tile" \
                else _at(e)
            if state.tile_of(where) not in lit_tiles:
                continue
        if e.ethereal and rules.reads("targetable.which_targeting", "its_abilities") \
                and not aims_at_explorers(state, monster, rules):
            continue
        out.append(e)
    return tuple(out)


def aims_at_explorers(state: GameState, monster: Unit, rules: Rules) -> bool:
    """Whether one of the monster's active abilities has a targeting icon that may aim at an
    explorer (a melee or ranged icon on explorers or units), wherever its range reaches now.

    Rules: manual p20-23 (targeting icons), p16 (monster abilities target explorers unless
    stated otherwise); switch targetable.which_targeting.
    """
    return any(a.kind == "active" and a.targeting.kind != "none"
               and a.targeting.target in ("explorer", "unit")
               for _, a in monster_abilities(state, monster, rules))


def explorer_distances(state: GameState, rules: Rules, explorer: Unit) -> Mapping[Point, int]:
    """Closest distance from every space to ``explorer`` (manual p22; switches closest.immobile_units and closest.pits)."""
    return _distance_maps(state, rules, (explorer,))[explorer.id]


def _distance_maps(state: GameState, rules: Rules, explorers: Iterable[Unit]) -> dict[str, _Dist]:
    """Each explorer's closest-distance map, by id, on the board *closest* is measured on."""
    immobile = frozenset(u.id for u in state.units if u.immobile and u.position is not None)
    board = state.closest_board()
    return {e.id: closest_distances(board, _at(e), rules, immobile) for e in explorers}


def _incapacitated(state: GameState, unit_id: str) -> bool:
    return any(e.op == "incapacitate" and e.target == unit_id for e in state.lasting)


def _picked(choices: Iterable[Any], options: Collection[Any]) -> Any:
    """The first of the players' choices that answers this tie, if any."""
    return next((c for c in choices if c in options), None)


def mindless_step(state: GameState, rules: Rules, monster_id: str,
                  choices: tuple[Any, ...] = ()) -> MonsterPlan:
    """The next action of a mindless monster's turn, with its reasons (manual p15-17).

    ``choices`` answer ties (a target explorer, an end point, an ability's
    target), each used where it fits. Order each time (manual p16): re-evaluate
    the target (the closest targetable explorer); abilities (current horror
    event, then card order) on a legal target; destroy a closed door on the
    monster's border that blocks its path (4 stamina); one step along the
    established path;
    otherwise end the turn. Immobile monsters only play abilities (Example E).
    Rules: manual p15-17.
    """
    key = (state, rules, monster_id, tuple(choices))
    for asked, plan in _RECENT:     # the same state object asked again (listing, then acting)
        if asked[0] is state and asked[1:] == key[1:]:
            return plan
    try:
        hashed = hash((_fingerprint(state),) + key[1:])
    except TypeError:               # a choice that cannot be hashed: plan without the cache
        return _plan(*key)
    plan = _cached_plan(_PlanKey(key, hashed))
    _RECENT.appendleft((key, plan))
    return plan


_RECENT: deque[tuple[tuple[Any, ...], MonsterPlan]] = deque(maxlen=4)
"""The last plans asked for, found by the state object itself: no hash of the state needed."""


def _fingerprint(state: GameState) -> tuple[Any, ...]:
    """What changes from one state of a phase to the next: equal states give equal
    fingerprints, so its hash can stand for the whole state's, which is not cheap."""
    return (state.round, state.phase, state.done, state.monster_turn, state.borders,
            state.destroyed, tuple((u.id, u.position, u.health, u.stamina) for u in state.units))


class _PlanKey:
    """A plan's arguments with a hash computed once (from the state's fingerprint); equal
    only when the arguments themselves are equal."""

    __slots__ = ("args", "hash")

    def __init__(self, args: tuple[Any, ...], hashed: int) -> None:
        self.args, self.hash = args, hashed

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _PlanKey) and self.args == other.args


@lru_cache(maxsize=128)
def _cached_plan(key: _PlanKey) -> MonsterPlan:
    return _plan(*key.args)


def _plan(state: GameState, rules: Rules, monster_id: str, choices: tuple[Any, ...]) -> MonsterPlan:
    m = state.unit(monster_id)
    reasons: list[Reason] = []
    explorers, dist_maps = _observe(state, rules, m, reasons)
    plan: dict[str, Any] = dict(monster=m.id, distances=tuple(
        (e.id, dist_maps[e.id].get(_at(m))) for e in explorers))

    # Re-evaluate the target (manual p15-16), then abilities first: horror event, then the
    # card, in order (manual p16); a tie for the target waits until no ability is playable.
    rubble = _guarded_rubble(state, rules, m)
    target, options = (None, ()) if m.immobile or rubble else \
        _choose_target(state, rules, m, dist_maps, reasons, choices)
    towards: tuple[_Dist, Point | None, Piece] | None = (rubble, None, "the rubble") if rubble else None if target is None else \
        (dist_maps[target], state.unit(target).position, Who(target))
    kept = None
    if towards is not None and rules.reads("replan.when", "on_target_change"):
        kept = _kept_path(state, rules, m, target, towards, reasons, choices)
        plan.update(goal=kept[0], path=kept[1], ends=kept[2], established=not kept[3])
        if kept[3]:
            return MonsterPlan(**plan, target=target, reasons=tuple(reasons), options=kept[3],
                               choice_of=_END_CHOICE)
    aims = (target,) if target is not None else tuple(options)
    ability = _try_abilities(state, rules, m, explorers, reasons, choices, aims)
    if isinstance(ability, MonsterPlan):
        return MonsterPlan(**{**ability.__dict__, **plan, "target": target,
                              "reasons": tuple(reasons)})
    if ability is not None:
        return MonsterPlan(**plan, target=target, action=ability, reasons=tuple(reasons))
    if m.immobile:
        reasons.append(_why(m, "immobile: no target, no path; no playable ability, so its "
                            "turn ends (manual p17, Example E)"))
        return MonsterPlan(**plan, reasons=tuple(reasons))
    if options:
        return MonsterPlan(**plan, reasons=tuple(reasons), options=options,
                           choice_of="target (manual p16: ties go to lowest health, then the "
                                     "explorers choose)")
    if rubble:
        reasons.append(_why(m, "rubble on its tile: it heads for the rubble instead of the "
                            "closest explorer and stays once adjacent (manual p17, Example F)"))
    elif target is None:
        reasons.append(_why(m, "no reachable targetable explorer: its turn ends (manual p16)"))
        return MonsterPlan(**plan, reasons=tuple(reasons))
    else:
        plan["target"] = target
    dist, tpos, label = cast(tuple[_Dist, Point | None, Piece], towards)

    # Path: best reachable end point on the stamina budget (manual p16).
    if kept is None:
        goal, path, ends, options = _establish_path(state, rules, m, tpos, label, dist,
                                                    reasons, choices)
        plan.update(goal=goal, path=path, ends=ends, established=not options)
        if options:
            return MonsterPlan(**plan, reasons=tuple(reasons), options=options,
                               choice_of=_END_CHOICE)
    if not plan["path"]:
        door = _door_to_target(state, rules, m, tpos, label, reasons)
        if door is not None:
            return MonsterPlan(**plan, action=PlannedDoor(*door), reasons=tuple(reasons))
        return MonsterPlan(**plan, reasons=tuple(reasons))

    return _step_along(state, rules, m, plan, reasons, (tpos, label, dist), choices)


_END_CHOICE = "end point (manual p16: equally good paths, the explorers choose)"


def _kept_path(state: GameState, rules: Rules, m: Unit, target: str | None,
               towards: tuple[_Dist, Point | None, Piece], reasons: list[Reason],
               choices: tuple[Any, ...]) -> _Established:
    """The path the monster established earlier this turn toward the same target, while it
    still starts where the monster stands; otherwise a path established now. Under
    ``replan.when = on_target_change`` a monster re-establishes its path only when its target
    changes (the move step of manual p16); ``every_action`` re-plans after every action.
    Returns ``(goal, steps, ends, options)`` as :func:`_establish_path` does.

    Rules: manual p16 (establish path; the move step: a closer explorer becomes the target
    and gets a new path); switch replan.when.
    """
    dist, tpos, label = towards
    turn = state.monster_turn if state.monster_turn and state.monster_turn.monster == m.id \
        else None
    if turn is not None and turn.path:
        if turn.target == target and turn.path[0] == m.position:
            steps = turn.path[1:]
            left: tuple[Piece, ...] = (len(steps), f" step{'s' if len(steps) > 1 else ''} left") \
                if steps else ("it stands at its end",)
            reasons.append(_why(m, "keeps the path it established toward ", label, " (", *left,
                                "): it re-establishes a path only when its target changes "
                                "(manual p16; switch replan.when)"))
            return turn.goal, steps, (), ()
        why = "its target changed" if turn.target != target else \
            "it no longer stands where its path begins"
        reasons.append(_why(m, f"{why}: it establishes a new path (manual p16; switch "
                            "replan.when)"))
    return _establish_path(state, rules, m, tpos, label, dist, reasons, choices)


def _observe(state: GameState, rules: Rules, m: Unit,
             reasons: list[Reason]) -> tuple[tuple[Unit, ...], dict[str, _Dist]]:
    """The explorers the monster may target and each one's closest-distance map (p22, p25)."""
    explorers = targetable_explorers(state, m, rules)
    targetable = {e.id for e in explorers}
    ignored = [e.id for e in state.explorers_on_map if e.id not in targetable]
    if ignored:
        why = "none of its abilities aims at an explorer (switch targetable.which_targeting)" \
            if rules.reads("targetable.which_targeting", "its_abilities") \
            and not aims_at_explorers(state, m, rules) else "cannot target an ethereal explorer"
        reasons.append(_why(m, "ignores ", *_listed(ignored), f": {why} (manual p25)"))
    dist_maps = _distance_maps(state, rules, explorers)
    if explorers:
        pieces: list[Piece] = ["closest distances (manual p22): "]
        for i, e in enumerate(explorers):
            d = dist_maps[e.id].get(_at(m))
            pieces += [", " if i else "", Who(e.id), " ", "unreachable" if d is None else d]
        reasons.append(_why(m, *pieces))
    return explorers, dist_maps


def _step_along(state: GameState, rules: Rules, m: Unit, plan: dict[str, Any],
                reasons: list[Reason], towards: tuple[Point | None, Piece, _Dist],
                choices: tuple[Any, ...]) -> MonsterPlan:
    """One step along the established path, destroying a closed door on the way (4 stamina);
    when blocked, ``mindless.blocked`` says whether it re-plans first (manual p16; switches path.units and mindless.blocked).

    Rules: manual p16 (move, closed doors, blocked); switch mindless.blocked.
    """
    board, goal, path = state.static_board(), plan["goal"], plan["path"]
    tpos, label, dist = towards
    step = path[0]
    blocked = None
    if step not in move_steps(board, _at(m), rules, mindless=True):
        door = _blocking_door(state, _at(m), step)
        if door is not None and m.stamina >= DOOR_DESTROY_COST:
            reasons.append(_why(m, "a closed door on its border blocks the path: destroy it "
                                "for ", DOOR_DESTROY_COST, " stamina (manual p16)"))
            return MonsterPlan(**plan, action=PlannedDoor(*door), reasons=tuple(reasons))
        blocked = ("a closed door blocks the path and only ", m.stamina, " stamina is left "
                   "(needs ", DOOR_DESTROY_COST, ")") if door is not None else \
            (At(step), " can no longer be entered")
    elif m.stamina < 1:
        reasons.append(_why(m, "out of stamina: its turn ends (manual p16)"))
        return MonsterPlan(**plan, reasons=tuple(reasons))
    elif state.unit_at(step) is not None:
        blocked = (At(step), " is occupied")
    if blocked is None:
        reasons.append(_why(m, "steps to ", At(step), " (1 stamina) toward ", At(goal),
                            " (manual p16)"))
        return MonsterPlan(**plan, action=PlannedMove(step), reasons=tuple(reasons))
    if rules["mindless.blocked"] == "replan_first":
        reasons.append(_why(m, *blocked, ": it re-plans round doors and units first "
                            "(switches path.units and mindless.blocked, replan_first)"))
        goal, path, ends, options = _establish_path(state, rules, m, tpos, label, dist, reasons,
                                                    choices, doors="avoid", units="obstacles")
        plan.update(goal=goal, path=path, ends=ends)
        if options:
            return MonsterPlan(**plan, reasons=tuple(reasons), options=options,
                               choice_of=_END_CHOICE)
        if path and m.stamina >= 1 and path[0] in move_steps(board, _at(m), rules,
                                                             mindless=True):
            reasons.append(_why(m, "steps to ", At(path[0]), " (1 stamina) toward ",
                                At(plan["goal"]), " (manual p16)"))
            return MonsterPlan(**plan, action=PlannedMove(path[0]), reasons=tuple(reasons))
    reasons.append(_why(m, *blocked, ": blocked, its turn ends (manual p16; switches path.units "
                        "and mindless.blocked)"))
    return MonsterPlan(**plan, reasons=tuple(reasons))




def _aimed(state: GameState, rules: Rules, ability: Ability, targets: tuple[Any, ...],
           aims: tuple[str, ...], reasons: list[Reason], label: Piece, m: Unit) -> tuple[Any, ...]:
    """The legal targets of an ability aimed at explorers that the mindless monster may play
    it on: every one, and the explorers choose among several (``players_choose``), or only its
    current target (``current_target``; while its target is tied, the tied explorers; with no
    target at all, as an immobile monster has, every legal one).

    Rules: manual p16 (a mindless monster plays an ability it can play, on explorers unless
    stated otherwise; the explorers resolve its ambiguities; Example B plays it on the
    monster's target); switch mindless.ability_target.
    """
    if rules["mindless.ability_target"] == "players_choose" or not aims or not targets:
        return targets
    spaces = {state.unit(a).position for a in aims if state.has_unit(a)}
    kept = tuple(t for t in targets if t in spaces)
    if len(kept) < len(targets):
        reasons.append(_why(m, label, ": aims only at its current target (switch "
                            "mindless.ability_target)"))
    return kept


def _try_abilities(state: GameState, rules: Rules, m: Unit, explorers: tuple[Unit, ...],
                   reasons: list[Reason], choices: tuple[Any, ...],
                   aims: tuple[str, ...] = ()) -> PlannedAbility | MonsterPlan | None:
    turn = state.monster_turn
    played = turn.played if turn else ()
    for index, (source, ability) in enumerate(monster_abilities(state, m, rules)):
        if ability.kind != "active":
            continue        # passive and triggered abilities are never played (manual p20)
        label = Word(f"{ability.name.replace('_', ' ')} ({SOURCE_WORDS[source]})")
        if source == "card" and ability is m.abilities[0] and _incapacitated(state, m.id):
            reasons.append(_why(m, label, ": incapacitated, cannot play its first ability "
                                "(manual p17)"))
            continue
        if ability.once_per_turn and ability.name in played:
            reasons.append(_why(m, label, ": already played this turn (card text)"))
            continue
        unpaid = unpaid_cost(state, rules, m, index, ability)
        if unpaid is not None:
            reasons.append(_why(m, label, f": {unpaid[0]} ({unpaid[1]})"))
            continue
        if ability.cost.stamina > m.stamina:
            reasons.append(_why(m, label, ": costs ", ability.cost.stamina, " stamina, only ",
                                m.stamina, " left (manual p16)"))
            continue
        targets = ability_targets(state, rules, m, ability)
        if ability.targeting.target == "explorer" and ability.targeting.kind != "none":
            allowed = {e.position for e in explorers}
            targets = _aimed(state, rules, ability,
                             tuple(t for t in cast(tuple[Point, ...], targets) if t in allowed),
                             aims, reasons, label, m)
        if targets == ():
            reasons.append(_why(m, label, ": no legal target (manual p16)"))
            continue
        if targets is None or len(targets) == 1:
            target = None if targets is None else targets[0]
            on = (" on ", *_pieces(target)) if target else ()
            reasons.append(_why(m, "plays ", label, *on, " (manual p16: abilities first)"))
            return PlannedAbility(index, target)
        choice = _picked(choices, targets)
        if choice is not None:
            reasons.append(_why(m, "plays ", label, " on ", *_pieces(choice),
                                ", the explorers' choice (manual p16)"))
            return PlannedAbility(index, choice)
        reasons.append(_why(m, label, ": several legal targets, the explorers choose "
                            "(manual p16)"))
        return MonsterPlan(monster=m.id, options=tuple(targets),
                           choice_of=f"target of {ability.name} (manual p16)")
    return None


def _choose_target(state: GameState, rules: Rules, m: Unit, dist_maps: Mapping[str, _Dist],
                   reasons: list[Reason], choices: tuple[Any, ...]
                   ) -> tuple[str | None, tuple[str, ...]]:
    here = {i: d.get(_at(m)) for i, d in dist_maps.items()}
    reachable = {i: d for i, d in here.items() if d is not None}
    if not reachable:
        return None, ()
    best = min(reachable.values())
    closest = sorted(i for i, d in reachable.items() if d == best)
    turn = state.monster_turn if state.monster_turn and state.monster_turn.monster == m.id \
        else None
    current = turn.target if turn else None
    if current in reachable:
        keep = rules["mindless.reevaluate"] == "after_moves_only" and \
            bool(cast(MonsterTurn, turn).played) and cast(MonsterTurn, turn).played[-1] != "move"
        if reachable[current] == best and (len(closest) == 1 or keep
                                           or rules["retarget.on_tie"] == "keep_current"):
            reasons.append(_why(m, "keeps its target ", Who(current), ": no other explorer is "
                                "closer (manual p15; switch retarget.on_tie)"))
            return current, ()
        if keep:
            reasons.append(_why(m, "keeps its target ", Who(current), ": re-evaluates after "
                                "moves only (switch mindless.reevaluate)"))
            return current, ()
    if len(closest) > 1:
        low = min(state.unit(i).health for i in closest)
        lowest = [i for i in closest if state.unit(i).health == low]
        reasons.append(_why(m, "tie at distance ", best, ": ", *_listed(closest),
                            "; lowest health ", low, ": ", *_listed(lowest), " (manual p16)"))
        closest = lowest
        if len(closest) > 1:
            choice = _picked(choices, closest)
            if choice is not None:
                reasons.append(_why(m, "the explorers choose ", Who(choice), " (manual p16)"))
                return choice, ()
            return None, tuple(closest)
    reasons.append(_why(m, "targets ", Who(closest[0]), ", closest at ", best, " (manual p15)"))
    return closest[0], ()


def _guarded_rubble(state: GameState, rules: Rules, m: Unit) -> dict[Point, int]:
    """Closest distance to the nearest rubble on the monster's tile, for the Envoy of Dagon's
    override (manual p17, Example F); empty for other monsters or a tile without rubble."""
    if m.behaviour != "guard_the_rubble":
        return {}
    tile = state.tile_of(_at(m))
    rubble = [p for p in state.map.spaces(SpaceKind.RUBBLE) if state.tile_of(p) == tile]
    immobile = tuple(u.id for u in state.units if u.immobile and u.position is not None)
    best: dict[Point, int] = {}
    for p in rubble:
        for q, d in closest_distances(state.closest_board(), p, rules, immobile).items():
            if q != p and d < best.get(q, d + 1):
                best[q] = d
    return best


def _pits(terrain: Any) -> frozenset[Point]:
    """The pits of a map, which a mindless monster never enters (manual p16, p35)."""
    return frozenset(p for p, kind in terrain.graph.nodes(data="kind") if kind is SpaceKind.PIT)


def _reachable(board: Board, rules: Rules, start: Point, blocked: Collection[Point], doors: str,
               door_cost: int, budget: int) -> tuple[dict[Point, int], dict[Point, Point]]:
    """The least cost of moving from ``start`` to each space within ``budget``, and the step
    it came from. Closed doors count as open at ``door_cost`` (never
    crossed when ``doors`` is ``avoid``); pits and ``blocked`` spaces are never entered.
    Kept per question on the terrain (the answer is shared: read it, never change it).

    Rules: manual p16 (establish a path), p35 (pits), p36 (doors); switch path.door_cost.
    """
    frozen = frozenset(blocked)
    return board.terrain.recent(
        ("monster reach", rules, start, frozen, doors, door_cost, budget),
        lambda: _search_reachable(board, rules, start, frozen, doors, door_cost, budget))


def _search_reachable(board: Board, rules: Rules, start: Point, blocked: frozenset[Point],
                      doors: str, door_cost: int, budget: int) -> tuple[dict[Point, int], dict[Point, Point]]:
    """:func:`_reachable` without its cache (the search itself): breadth first when every
    step costs 1, else cheapest first."""
    search = _breadth_first if door_cost == 1 else _cheapest_first
    return search(board, rules, start, blocked, doors, door_cost, budget)


def _breadth_first(board: Board, rules: Rules, start: Point, blocked: frozenset[Point],
                   doors: str, door_cost: int, budget: int) -> tuple[dict[Point, int], dict[Point, Point]]:
    """:func:`_cheapest_first` when every step costs 1 (a closed door too): layer by layer,
    each layer in the order of its spaces, so each space keeps the parent the cheapest-first
    search gives it (the first space popped that reaches it). Legal steps are looked up only
    when closed doors are avoided (switch path.door_cost)."""
    pits = board.terrain.table(("pits",), _pits)
    near_table = closest_table(board, rules)
    walk_table = move_table(board, rules, True) if doors == "avoid" else None
    cost = {start: 0}
    parent: dict[Point, Point] = {}
    frontier, c = [start], 0
    while frontier and c < budget:
        c += 1
        layer: list[Point] = []
        for p in frontier:
            walk = walk_table[p] if walk_table is not None else None
            for q in near_table[p]:
                if q in cost or q in pits or q in blocked or (walk is not None and q not in walk):
                    continue
                cost[q] = c
                parent[q] = p
                layer.append(q)
        frontier = sorted(layer)
    return cost, parent


def _cheapest_first(board: Board, rules: Rules, start: Point, blocked: frozenset[Point],
                    doors: str, door_cost: int, budget: int) -> tuple[dict[Point, int], dict[Point, Point]]:
    """Dijkstra over the steps along *closest* (closed doors at ``door_cost``)."""
    pits = board.terrain.table(("pits",), _pits)
    walk_table, near_table = move_table(board, rules, True), closest_table(board, rules)
    cost = {start: 0}
    parent: dict[Point, Point] = {}
    heap = [(0, start)]
    while heap:
        c, p = heapq.heappop(heap)
        if c > cost[p]:
            continue
        walk = walk_table[p]
        for q in near_table[p]:
            if q in pits or q in blocked:
                continue
            if q not in walk and doors == "avoid":
                continue
            nc = c + (1 if q in walk else door_cost)
            if nc > budget or nc >= cost.get(q, nc + 1):
                continue
            cost[q] = nc
            parent[q] = p
            heapq.heappush(heap, (nc, q))
    return cost, parent


def _establish_path(state: GameState, rules: Rules, m: Unit, tpos: Point | None, label: Piece,
                    dist: _Dist, reasons: list[Reason], choices: tuple[Any, ...],
                    budget: int | None = None, doors: str = "plan",
                    units: str | None = None) -> _Established:
    """The best reachable end point and a shortest path to it (manual p16).

    "Best" and "closer than the start" use ``closer.metric`` (switch closer.metric): the
    closest distance, or under ``true_path_length`` the walking distance.
    ``doors``: ``plan`` treats closed doors as open at the cost ``path.door_cost``
    gives; ``open`` as open at no extra cost; ``avoid`` never crosses them.
    ``units`` overrides ``path.units`` (the D14 re-plan routes round units).
    """
    board = state.static_board()
    if budget is None:
        budget = m.stamina if rules["replan.budget"] == "remaining_stamina" else m.max_stamina
    start_score = dist.get(_at(m))
    if start_score is None:
        reasons.append(_why(m, label, " cannot be reached: it does not move (manual p16)"))
        return None, (), (), ()
    occupied = {u.position for u in state.units if u.position is not None and u.id != m.id}
    ignore_units = (units or rules["path.units"]) == "ignored"
    door_cost = DOOR_DESTROY_COST + 1 if rules["path.door_cost"] == "budgeted" \
        and doors == "plan" else 1
    if rules["mindless.movement"] == "greedy_step":
        budget = min(budget, 1)

    blocked = set() if ignore_units else occupied
    cost, parent = _reachable(board, rules, _at(m), blocked, doors, door_cost, budget)

    def _orthogonal(q: Point) -> bool:
        return tpos is not None and abs(q[0] - tpos[0]) + abs(q[1] - tpos[1]) == 1

    walking = rules["closer.metric"] == "true_path_length" and tpos is not None
    if walking:
        scored, start_score = _walking_scores(
            state, rules, m, cast(Point, tpos), [(dist[q], cost[q], q) for q in cost if q in dist])
        best_score = min((s for s, _, _ in scored), default=None)
        tied = [t for t in scored if t[0] == best_score]
    else:   # an end point farther than the start never counts: search no farther
        near = dist.within(start_score) if isinstance(dist, GrowingDistances) else dist
        best_score, tied = _least(cost, near)
    if best_score is None or (start_score is not None and best_score >= start_score):
        reasons.append(_why(m, *_no_closer_end(budget, label, start_score, walking)))
        return None, (), (), ()
    if rules["facing.orthogonal"] == "prefer_if_reachable" and any(_orthogonal(q) for *_, q in tied):
        tied = [t for t in tied if _orthogonal(t[2])]
    shortest = min(c for _, c, _ in tied)
    tied = [t for t in tied if t[1] == shortest]
    if any(_orthogonal(q) for *_, q in tied):
        tied = [t for t in tied if _orthogonal(t[2])]
    ends = tuple(sorted((q, s, c) for s, c, q in tied))
    goals = sorted(q for *_, q in tied)
    goal = state.monster_turn.goal if state.monster_turn else None
    if goal not in goals:
        goal = None
    if goal is None and len(goals) == 1:
        goal = goals[0]
    if goal is None:
        goal = _picked(choices, goals)
    if goal is None:
        reasons.append(_why(m, len(goals), " equally good end points at distance ", best_score,
                            " in ", shortest, " steps: [", *_listed(map(At, goals)),
                            "]; the explorers choose (manual p16)"))
        return None, (), ends, tuple(goals)
    back = [goal]
    while back[-1] != m.position:
        back.append(parent[back[-1]])
    path = tuple(reversed(back[:-1]))
    was = ("was ", start_score) if start_score is not None else \
        ("where it stands it cannot walk next to ", label)
    reasons.append(_why(m, "establishes a path of ", len(path),
                        f" step{'s' if len(path) != 1 else ''} to ", At(goal), ", "
                        + ("walking distance" if walking else "distance") + " ", best_score,
                        " from ", label, " (", *was, ") (manual p16"
                        + ("; switch closer.metric, true_path_length)" if walking else ")")))
    return goal, path, ends, ()


def _no_closer_end(budget: int, label: Piece, start_score: int | None,
                   walking: bool) -> tuple[Piece, ...]:
    """Why a mindless monster does not move: no end point within its budget is closer, said
    in words even where it cannot walk next to its target at all (manual p16; switch
    closer.metric)."""
    if not walking:
        return ("no reachable end point within ", budget, " stamina is closer than ",
                cast(int, start_score), ": it does not move (manual p16)")
    now = ("now ", start_score) if start_score is not None else \
        ("it cannot walk next to ", label, " from where it stands or from any of them")
    return ("no reachable end point within ", budget, " stamina is closer to ", label,
            " by walking distance (", *now, "): it does not move (manual p16; switch "
            "closer.metric, true_path_length)")


def _least(cost: _Dist, dist: _Dist) -> tuple[int | None, list[tuple[int, int, Point]]]:
    """The least closest distance among the spaces reached, and every ``(distance, cost,
    space)`` at it, in the order they were reached (manual p16: the best end points)."""
    best: int | None = None
    tied: list[tuple[int, int, Point]] = []
    get = dist.get
    for q, c in cost.items():
        d = get(q)
        if d is None or (best is not None and d > best):
            continue
        if best is None or d < best:
            best, tied = d, [(d, c, q)]
        else:
            tied.append((d, c, q))
    return best, tied


def _walking_scores(state: GameState, rules: Rules, m: Unit, tpos: Point,
                    scored: Iterable[tuple[int, int, Point]]
                    ) -> tuple[list[tuple[int, int, Point]], int | None]:
    """The reachable end points at the least walking distance to the target, if that is less
    than the start's (``closer.metric = true_path_length``), scored by it, in the order of
    ``scored``, and the start's own walking distance (None: it cannot walk next to the target).
    One search backwards from the target answers every end point
    (:func:`machina_nb.rules.board.distance.walking_distances`) (switch closer.metric)."""
    walks = walking_distances(state.unit_board(), tpos, rules, Mover(unit=m.id, mindless=True),
                              until=_at(m))
    start = walks.get(_at(m))
    found = [(walks[q], c, q) for _, c, q in sorted(scored) if q in walks
             and (start is None or walks[q] < start)]
    best = min((w for w, _, _ in found), default=None)
    return [t for t in found if t[0] == best], start


def effect_move(state: GameState, rules: Rules, monster_id: str, amount: int,
                choices: tuple[Any, ...] = ()) -> MonsterPlan:
    """Where "move up to N" takes a mindless monster: toward its closest explorer (manual p23).

    The move costs no stamina; the p16 rule "no move unless closer" holds. Closed
    doors per ``move_effect.mindless_doors`` (switch move_effect.mindless_doors): ``avoid_doors`` plans the
    best point reachable without crossing one; the other readings plan as if
    they were open and stop at the first one (no stamina to destroy it).
    Rules: manual p23 (targeted move on a mindless monster), p16; switch move_effect.mindless_doors.
    """
    m = state.unit(monster_id)
    reasons: list[Reason] = []
    explorers = targetable_explorers(state, m, rules)
    dist_maps = _distance_maps(state, rules, explorers)
    target, options = _choose_target(state, rules, m, dist_maps, reasons, choices)
    plan: dict[str, Any] = dict(monster=m.id, distances=tuple(
        (e.id, dist_maps[e.id].get(_at(m))) for e in explorers))
    if options or target is None:
        return MonsterPlan(**plan, reasons=tuple(reasons), options=options,
                           choice_of="target (manual p16)" if options else "")
    reading = rules["move_effect.mindless_doors"]
    goal, path, ends, options = _establish_path(
        state, rules, m, state.unit(target).position, Who(target), dist_maps[target], reasons,
        choices, budget=amount, doors="avoid" if reading == "avoid_doors" else "open")
    if options:
        return MonsterPlan(**plan, target=target, ends=ends, reasons=tuple(reasons),
                           options=options, choice_of="end point (manual p16)")
    board = state.static_board()
    walked: list[Point] = []
    here = _at(m)
    for step in path:
        if step not in move_steps(board, here, rules, mindless=True):
            reasons.append(_why(m, "a closed door stops the move at ", At(here),
                                f" (switch move_effect.mindless_doors: {reading})"))
            break
        if state.unit_at(step) is not None:
            reasons.append(_why(m, At(step), " is occupied: the move stops at ", At(here),
                                " (manual p25)"))
            break
        walked.append(step)
        here = step
    return MonsterPlan(**plan, target=target, goal=goal, path=tuple(walked), ends=ends,
                       reasons=tuple(reasons))


def _door_to_target(state: GameState, rules: Rules, m: Unit, tpos: Point | None, label: Piece,
                    reasons: list[Reason]) -> tuple[Point, Point] | None:
    """A closed door between the monster and its closest explorer, when it does not move.

    Closest ignores closed doors (manual p22), so an explorer right behind one counts as
    adjacent and the monster stops (``mindless.door_adjacent = stop``, the literal p16
    reading); ``break_door`` reads "face the explorer or closed door" (p16) as facing the
    door and destroys it (4 stamina). Adds the reason either way.
    Rules: manual p16 (move, closed doors), p22 (closest); switch mindless.door_adjacent.
    """
    if tpos is None or max(abs(tpos[0] - _at(m)[0]), abs(tpos[1] - _at(m)[1])) != 1:
        return None
    door = _blocking_door(state, _at(m), tpos)
    if door is None:
        return None
    if rules["mindless.door_adjacent"] == "break_door" and m.stamina >= DOOR_DESTROY_COST:
        reasons.append(_why(m, label, " stands right behind a closed door: it faces the door "
                            "and destroys it for ", DOOR_DESTROY_COST, " stamina (manual p16; "
                            "switch mindless.door_adjacent = break_door)"))
        return door
    why: tuple[Piece, ...] = () if rules["mindless.door_adjacent"] == "stop" else \
        (" and it has only ", m.stamina, " stamina, ", DOOR_DESTROY_COST,
         " needed to destroy the door")
    reasons.append(_why(m, label, " stands right behind a closed door: closest ignores doors "
                        "(manual p22), so it counts as adjacent and the monster stops", *why,
                        " (manual p16; switch mindless.door_adjacent = "
                        f"{rules['mindless.door_adjacent']})"))
    return None


def _blocking_door(state: GameState, a: Point, b: Point) -> tuple[Point, Point] | None:
    """The closed door on a border of ``a``'s space that stops the step to ``b`` (manual p16)."""
    board = state.static_board()
    candidates = [(a, (b[0], a[1])), (a, (a[0], b[1]))] if a[0] != b[0] and a[1] != b[1] \
        else [(a, b)]
    for x, y in candidates:
        if x != y and y in board and board.border(x, y) is BorderKind.DOOR_CLOSED:
            return (x, y)
    return None
