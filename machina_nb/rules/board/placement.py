"""Placement effects: push, pull, teleport, switch positions, spawn and move destinations.

Each function reads the board and returns frozen results; a board never changes:
:func:`apply_displacement` returns the board with the chosen one applied.
Where the players choose (tied spaces, a slide with two open sides), every
candidate is returned in sorted order, never one picked by iteration order.

>>> from machina_nb.rules.board.graph import Board
>>> from machina_nb.rules.board.maptext import parse_map
>>> from machina_nb.rules.rulings import Rules
>>> board = Board.from_layout(parse_map("+-+-+-+-+-+\\n|A . B . o|\\n+-+-+-+-+-+\\n",
...                                     legend={"A": SpaceKind.FLOOR, "B": SpaceKind.FLOOR}))
>>> (done,) = push(board, (2, 0), (0, 0), 3, Rules(), by="A")
>>> done.path, done.stopped, done.destroyed, done.kill_by
(((2, 0), (3, 0), (4, 0)), 'pit', True, 'A')

Rules: manual p25 (push and pull, teleport, switch positions), p22 (occupied destinations), p13 (spawn monster), p35 (pits, barrels), p37 (trap levers); rulings D15, D16, D17, D18, D34.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import cast

from machina_nb.rules.board.distance import Mover, closest, movement_view, nearest
from machina_nb.rules.board.graph import BARRIER_BORDERS, BARRIER_SPACES, PASSABLE_SPACES, Board
from machina_nb.rules.board.maptext import Point, SpaceKind
from machina_nb.rules.board.sight import require_rules
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

__all__ = [
    "Trigger", "Displacement", "Placement", "push", "pull", "apply_displacement",
    "teleport_within", "teleport_to", "switch_positions", "spawn_placement",
    "nearest_unoccupied", "move_destination",
]

_CITE_PUSH = "manual p25 (push and pull)"


@dataclass(frozen=True)
class Trigger:
    """Something a pushed or pulled unit set off (manual p25): a pit, a trap lever or a barrel.

    ``activator`` is the activating unit of a trap lever per ``traps.push_activator``
    (None: no activating unit, every tile's traps); ``optional`` is True when the
    players may decline it (``traps.push_activation = optional``, 3.5).

    Rules: manual p25 (push and pull), p35 (pit, exploding barrel), p37 (trap lever); switches traps.push_activation and traps.push_activator.
    """

    what: str
    space: Point
    activator: str | None = None
    optional: bool = False
    rule: str = ""


@dataclass(frozen=True)
class Displacement:
    """Where a pushed, pulled, teleported or switched unit goes and why it stopped (manual p25).

    ``path`` runs from the start to the end space (a unit that set off a lever or
    barrel stays before it; a pit is the last space). ``stopped`` says why it
    ended: ``distance``, ``blocked`` (``blocker`` is the space it could not
    enter), ``pit``, ``trap_lever``, ``barrel``, ``activator`` (a pull reached the
    activating space), ``immobile``, ``off_axis`` (``push.off_axis = strict_none``)
    or ``no_direction`` (the unit stands on the reference point).

    Rules: manual p25 (push and pull, teleport, switch positions); rulings D15, D16, D17.
    """

    unit: str
    effect: str
    path: tuple[Point, ...]
    stopped: str
    blocker: Point | None = None
    destroyed: bool = False
    kill_by: str | None = None
    triggers: tuple[Trigger, ...] = ()
    reading: str = ""
    rules: tuple[str, ...] = (_CITE_PUSH,)

    @property
    def end(self) -> Point:
        """The space the unit ends on.

        Rules: manual p25 (push and pull, teleport, switch positions).
        """
        return self.path[-1]

    def explain(self) -> str:
        """One line for people: the path, why it stopped, what it set off, readings and rules."""
        text = f"{self.effect} {self.unit}: " + " -> ".join(map(str, self.path))
        text += f"; stopped: {self.stopped}"
        if self.blocker is not None:
            text += f" at {self.blocker}"
        if self.destroyed:
            text += f"; destroyed (a kill by {self.kill_by})" if self.kill_by else "; destroyed"
        for t in self.triggers:
            text += f"; {t.what.replace('_', ' ')} at {t.space}"
            if t.what == "trap_lever":
                text += f" (activator {t.activator}{', optional' if t.optional else ''})"
        if self.reading:
            text += f" [{self.reading}]"
        return text + f" ({'; '.join(self.rules)})"


@dataclass(frozen=True)
class Placement:
    """The spaces a unit may be placed on (the players choose among ``candidates``; manual p13, p22, p25).

    ``targets`` are the intended destinations (e.g. the tied nearest spawn spaces);
    ``fallback`` is True when some candidates replace a taken or impassable target;
    ``lethal`` lists candidates that are pits (the unit is destroyed there).

    Rules: manual p13 (spawn monster), p22 (occupied destination), p25 (teleport), p35 (pit); ruling D18.
    """

    candidates: tuple[Point, ...]
    targets: tuple[Point, ...]
    fallback: bool
    lethal: tuple[Point, ...]
    reading: str
    rules: tuple[str, ...]


# --- push and pull --------------------------------------------------------------------------


def push(board: Board, target: Point, source: Point, distance: int, rules: Rules, *,
         by: str | None = None, immobile: Collection[str] = (),
         up_to: bool = False) -> tuple[Displacement, ...]:
    """Push the unit on ``target`` ``distance`` spaces away from ``source`` (manual p25).

    ``source`` is the activating space, or the activating unit's own space; ``by``
    the activating unit (credited with a pit kill, and the lever's activator
    under ``traps.push_activator = pusher``). The direction is re-checked before
    every step: straight when orthogonal, diagonal when exactly diagonal, else per
    ``push.off_axis`` (D15). Each step's corners per ``push.corners`` (D16);
    a blocked step per ``push.blocked`` (D17). A pit destroys the unit; a trap
    lever activates; a barrel counts as hit (the unit stays before both).
    Immobile units (named in ``immobile``) do not move. Usually one result; two
    when a slide has two open sides (the players choose). ``up_to`` (an effect
    reading "up to X") adds every shorter stop, ``stopped="chosen"`` (switch push.blocked).

    Rules: manual p25 (push and pull), p35 (pit, exploding barrel), p37 (trap lever); rulings D15, D16, D17, D34.
    """
    return _displace(board, target, source, distance, rules, by, immobile, up_to, pull=False)


def pull(board: Board, target: Point, source: Point, distance: int, rules: Rules, *,
         by: str | None = None, immobile: Collection[str] = (),
         up_to: bool = False) -> tuple[Displacement, ...]:
    """Pull the unit on ``target`` ``distance`` spaces toward ``source``; never into ``source`` (manual p25).

    Otherwise as :func:`push`. Rules: manual p25 (push and pull); rulings D15, D16, D17.
    """
    return _displace(board, target, source, distance, rules, by, immobile, up_to, pull=True)


def _require_distance(distance: object) -> int:
    if isinstance(distance, bool) or not isinstance(distance, int) or distance < 0:
        raise RulesError("distance", f"expected a whole number >= 0, got {distance!r}")
    return distance


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


def _direction(at: Point, source: Point, rules: Rules, pull: bool) -> Point | None:
    """One step's direction away from (or toward) ``source``, per ``push.off_axis`` (D15)."""
    dx, dy = at[0] - source[0], at[1] - source[1]
    if dx == dy == 0:
        return None
    if dx != 0 and dy != 0 and abs(dx) != abs(dy):
        reading = rules["push.off_axis"]
        if reading == "strict_none":
            return (0, 0)
        if reading == "dominant_axis":
            dx, dy = (dx, 0) if abs(dx) > abs(dy) else (0, dy)
    sx, sy = _sign(dx), _sign(dy)
    return (-sx, -sy) if pull else (sx, sy)


def _crossable(board: Board, a: Point, b: Point, rules: Rules, unit: str) -> bool:
    """May a pushed unit pass from ``a`` to neighbour ``b``, whatever is on ``b``? (``push.corners``, D16)"""
    if b not in board:
        return False
    if a[0] == b[0] or a[1] == b[1]:
        return board.border(a, b) not in BARRIER_BORDERS
    reading = rules["push.corners"]
    if reading == "destination_only":
        return True
    if reading == "as_move":  # the step a moving unit could take (D4, D5), ignoring b's contents
        step: bool = movement_view(board, rules, Mover(unit=unit, move_through=True)).has_edge(a, b)
        return step
    vx, vy = max(a[0], b[0]), max(a[1], b[1])  # block_on_any_corner
    rays = (((vx - 1, vy - 1), (vx, vy - 1)), ((vx - 1, vy), (vx, vy)),
            ((vx - 1, vy - 1), (vx - 1, vy)), ((vx, vy - 1), (vx, vy)))
    if any(board.border(p, q) in BARRIER_BORDERS for p, q in rays):  # off the map: its ring
        return False
    return all(s in board and board.space(s) in PASSABLE_SPACES and board.unit_at(s) is None
               for s in ((b[0], a[1]), (a[0], b[1])))


def _displace(board: Board, target: Point, source: Point, distance: int, rules: Rules,
              by: str | None, immobile: Collection[str], up_to: bool,
              pull: bool) -> tuple[Displacement, ...]:
    rules = require_rules(rules)
    target, source = board.require(target, "target"), board.require(source, "source")
    distance = _require_distance(distance)
    unit = board.unit_at(target)
    if unit is None:
        raise RulesError("target", f"no unit stands on {target}")
    effect = "pull" if pull else "push"
    reading = ", ".join(f"{s}={rules[s]}" for s in ("push.off_axis", "push.corners", "push.blocked"))
    if unit in frozenset(immobile):
        return (Displacement(unit, effect, (target,), "immobile", reading=reading,
                             rules=(_CITE_PUSH, "manual p16 (immobile)")),)
    lever_by = {"pusher": by, "pushed_unit": unit, "none": None}[rules["traps.push_activator"]]
    optional = rules["traps.push_activation"] == "optional"

    def _outcome(path: list[Point], stopped: str, blocker: Point | None = None,
                 trigger: Trigger | None = None) -> Displacement:
        destroyed = stopped == "pit"
        triggers = (trigger,) if trigger else ()
        cites = (_CITE_PUSH,) + tuple(t.rule for t in triggers)
        return Displacement(unit, effect, tuple(path), stopped, blocker, destroyed,
                            by if destroyed else None, triggers, reading, cites)

    def _enter(path: list[Point], nxt: Point, left: int) -> list[Displacement] | None:
        """Step onto ``nxt`` if it takes the unit; the outcomes, or None if it is blocked."""
        kind = board.space(nxt)
        if kind is SpaceKind.LEVER:
            return [_outcome(path, "trap_lever", trigger=Trigger(
                "trap_lever", nxt, lever_by, optional, "manual p37 (trap lever); switches traps.push_activation and traps.push_activator"))]
        if kind is SpaceKind.BARREL:
            return [_outcome(path, "barrel", trigger=Trigger(
                "barrel", nxt, by, False, "manual p35 (exploding barrel)"))]
        if kind not in PASSABLE_SPACES or board.unit_at(nxt) is not None:
            return None
        if kind is SpaceKind.PIT:
            return [_outcome(path + [nxt], "pit", trigger=Trigger(
                "pit", nxt, None, False, "manual p35 (pit)"))]
        return _walk(path + [nxt], left - 1)

    def _walk(path: list[Point], left: int) -> list[Displacement]:
        if left == 0:
            return [_outcome(path, "distance")]
        if up_to:
            return [_outcome(path, "chosen")] + _go(path, left)
        return _go(path, left)

    def _go(path: list[Point], left: int) -> list[Displacement]:
        at = path[-1]
        step = _direction(at, source, rules, pull)
        if step is None:
            return [_outcome(path, "no_direction")]
        if step == (0, 0):
            return [_outcome(path, "off_axis")]
        nxt = (at[0] + step[0], at[1] + step[1])
        if pull and nxt == source:
            return [_outcome(path, "activator", nxt)]
        if _crossable(board, at, nxt, rules, unit):
            result = _enter(path, nxt, left)
            if result is not None:
                return result
        if rules["push.blocked"] == "slide" and step[0] and step[1]:
            slides: list[Displacement] = []
            for side in ((at[0] + step[0], at[1]), (at[0], at[1] + step[1])):
                if side in board and not (pull and side == source) and _crossable(
                        board, at, side, rules, unit):
                    slides.extend(_enter(path, side, left) or [])
            if slides:
                return slides
        return [_outcome(path, "blocked", nxt)]

    results = _walk([target], distance)
    final = {(d.path, d.triggers) for d in results if d.stopped != "chosen"}
    results = [d for d in results if d.stopped != "chosen" or (d.path, ()) not in final]
    return tuple(sorted(results, key=lambda d: d.path))


def apply_displacement(board: Board, *displacements: Displacement) -> Board:
    """The board with the units moved, all at once (a switch moves two); a pit removes the unit.

    Returns a new board; ``board`` itself never changes. Triggered levers and
    barrels are the engine's to resolve (attacks, destroyed tokens).
    Rules: manual p25 (push, pull, teleport, switch positions), p35 (pit).
    """
    for d in displacements:
        if board.unit_at(d.path[0]) != d.unit:
            raise RulesError("displacement", f"{d.unit} is not on {d.path[0]}")
    ends = [d.end for d in displacements if not d.destroyed]
    starts = {d.path[0] for d in displacements}
    for end in ends:
        if (board.unit_at(board.require(end, "displacement")) is not None and end not in starts
                or ends.count(end) > 1):
            raise RulesError("displacement", f"{end} is taken")
    return board.with_units([(d.path[0], None) for d in displacements]
                            + [(d.end, d.unit) for d in displacements if not d.destroyed])


# --- teleport, switch, spawn, move -----------------------------------------------------------


def _fallback_reading(rules: Rules, passable: bool | None) -> str:
    names: tuple[str, ...] = ("fallback.pits", "fallback.walls", "fallback.tile")
    if passable is None:
        names = ("fallback.passable",) + names
    return ", ".join(f"{n}={rules[n]}" for n in names)


def _room(board: Board, origin: Point) -> frozenset[Point]:
    """The spaces reached from ``origin`` without crossing a wall, closed door or tile boundary."""
    seen, todo = {origin}, [origin]
    while todo:
        p = todo.pop()
        for q, data in board.terrain.graph[p].items():
            if q not in seen and not data["diagonal"] and data["border"] not in BARRIER_BORDERS:
                seen.add(q)
                todo.append(q)
    return frozenset(seen)


def nearest_unoccupied(board: Board, origin: Point, rules: Rules, *,
                       passable: bool | None = None) -> tuple[Point, ...]:
    """The nearest free spaces to a taken destination, every tie (manual p22, p13, p25; ruling D18).

    Counted directly (``nearest.metric``). ``passable=True`` for teleport
    (manual p25); None reads ``fallback.passable`` (spawn: ``required`` by
    default; ``not_required`` still leaves out rubble). ``fallback.pits``,
    ``fallback.walls`` (``same_side``: no wall, closed door or tile boundary
    between) and ``fallback.tile`` (``same_tile``) narrow the field further.

    Rules: manual p22 (occupied destination: nearest), p13 (spawn), p25 (teleport); ruling D18.
    """
    origin, rules = board.require(origin, "origin"), require_rules(rules)
    need_passable = (rules["fallback.passable"] == "required") if passable is None else passable
    pits = rules["fallback.pits"] == "allowed"
    room = _room(board, origin) if rules["fallback.walls"] == "same_side" else None
    tile = board.tile_of(origin) if rules["fallback.tile"] == "same_tile" else None
    nodes, occupant = board.terrain.graph.nodes, board.occupant
    goals = [p for p, data in nodes(data=True)
             if p != origin and occupant(p) is None
             and (data["kind"] in PASSABLE_SPACES if need_passable
                  else data["kind"] not in BARRIER_SPACES)
             and (pits or data["kind"] is not SpaceKind.PIT)
             and (room is None or p in room) and (tile is None or data["tile"] == tile)]
    return nearest(board, origin, goals, rules).candidates


def _placement(board: Board, targets: tuple[Point, ...], rules: Rules, passable: bool | None,
               reading: str, cites: tuple[str, ...]) -> Placement:
    candidates: set[Point] = set()
    fallback = False
    for t in targets:
        free = board.unit_at(t) is None and board.space(t) in PASSABLE_SPACES
        if free:
            candidates.add(t)
        else:
            fallback = True
            candidates.update(nearest_unoccupied(board, t, rules, passable=passable))
    if fallback:
        reading = ", ".join(filter(None, (reading, _fallback_reading(rules, passable))))
        cites += ("manual p22 (occupied destination)", "ruling D18")
    ordered = tuple(sorted(candidates))
    lethal = tuple(p for p in ordered if board.space(p) is SpaceKind.PIT)
    return Placement(ordered, targets, fallback, lethal, reading, cites)


def teleport_within(board: Board, space: Point, distance: int, rules: Rules) -> Placement:
    """Every passable, unoccupied space within ``distance`` of ``space``, ignoring barriers (manual p25).

    Counted directly (``nearest.metric``); pits are listed in ``lethal``.
    Rules: manual p25 (teleport within X); switch nearest.metric.
    """
    space, distance = board.require(space, "space"), _require_distance(distance)
    goals = [p for p, data in board.terrain.graph.nodes(data=True)
             if p != space and board.occupant(p) is None and data["kind"] in PASSABLE_SPACES]
    ranking = nearest(board, space, goals, rules)
    inside = tuple(p for p, d in ranking.distances if cast(int, d) <= distance)
    lethal = tuple(p for p in inside if board.space(p) is SpaceKind.PIT)
    return Placement(inside, inside, False, lethal, ranking.reading,
                     ("manual p25 (teleport)", "manual p22 (nearest)"))


def teleport_to(board: Board, space: Point, kind: SpaceKind, rules: Rules) -> Placement:
    """Teleport to the nearest space of ``kind`` on the unit's tile, or the nearest free space to it.

    ``teleport.destroyed_kind``: ``excluded`` (manual: only spaces not destroyed)
    or ``allowed`` (aid: a destroyed space still counts by its printed kind).
    Tied targets are all returned. An occupied or impassable target (an event
    space always is) falls back to the nearest passable, unoccupied space.

    Rules: manual p25 (teleport to a type of space), p22 (nearest); aid §Teleport; rulings C-21, D18.
    """
    space, rules = board.require(space, "space"), require_rules(rules)
    if not isinstance(kind, SpaceKind):
        raise RulesError("kind", f"expected a SpaceKind, got {kind!r}")
    tile = board.tile_of(space)
    allowed = rules["teleport.destroyed_kind"] == "allowed"
    nodes = board.terrain.graph.nodes
    spaces = [p for p, data in nodes(data=True) if p != space and data["tile"] == tile
              and (data["kind"] is kind or (allowed and data["printed"] is kind))]
    targets = nearest(board, space, spaces, rules).candidates
    return _placement(board, targets, rules, True, f"teleport.destroyed_kind={rules['teleport.destroyed_kind']}",
                      ("manual p25 (teleport)", "switch teleport.destroyed_kind"))


def spawn_placement(board: Board, explorer: Point, rules: Rules) -> Placement:
    """Where a spawned monster goes: the nearest non-destroyed spawn space on the explorer's tile.

    Tied spawn spaces are all returned; a taken one falls back to the nearest
    unoccupied space from it per the ``fallback.*`` switches (D18). No spawn space
    left on the tile gives no candidates.

    Rules: manual p13 (spawn monster: nearest spawn space, then the nearest unoccupied space), p22; ruling D18.
    """
    explorer = board.require(explorer, "explorer")
    tile = board.tile_of(explorer)
    spawns = [p for p, data in board.terrain.graph.nodes(data=True)
              if data["tile"] == tile and data["kind"] is SpaceKind.SPAWN]
    targets = nearest(board, explorer, spawns, rules).candidates
    return _placement(board, targets, rules, None, "",
                      ("manual p13 (spawn monster)", "manual p22 (nearest)"))


def move_destination(board: Board, destination: Point, rules: Rules,
                     immobile: Collection[str] = ()) -> Placement:
    """A "move to" destination, or if it is taken the closest unoccupied spaces to it (manual p22).

    Rules: manual p22 (occupied destination: move uses closest).
    """
    destination = board.require(destination, "destination")
    nodes, occupant = board.terrain.graph.nodes, board.occupant
    if occupant(destination) is None and nodes[destination]["kind"] in PASSABLE_SPACES:
        return Placement((destination,), (destination,), False, (), "", ("manual p22 (move)",))
    goals = [p for p, data in nodes(data=True)
             if p != destination and occupant(p) is None and data["kind"] in PASSABLE_SPACES]
    ranking = closest(board, destination, goals, rules, immobile)
    lethal = tuple(p for p in ranking.candidates if nodes[p]["kind"] is SpaceKind.PIT)
    return Placement(ranking.candidates, (destination,), True, lethal, ranking.reading,
                     ("manual p22 (occupied destination: closest)",))


def switch_positions(board: Board, a: Point, b: Point) -> tuple[Displacement, Displacement]:
    """The activating unit on ``a`` and the target on ``b`` trade places (manual p25).

    Apply the pair together: ``apply_displacement(board, *switch_positions(board, a, b))``.
    Rules: manual p25 (switch positions).
    """
    a, b = board.require(a, "a"), board.require(b, "b")
    ua, ub = board.unit_at(a), board.unit_at(b)
    if ua is None:
        raise RulesError("a", f"no unit stands on {a}")
    if ub is None:
        raise RulesError("b", f"no unit stands on {b}")
    cite = ("manual p25 (switch positions)",)
    return (Displacement(ua, "switch", (a, b), "distance", rules=cite),
            Displacement(ub, "switch", (b, a), "distance", rules=cite))
