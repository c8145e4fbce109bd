"""Moving and doors: :class:`Move` (with :func:`through_moves`) and :class:`Door`, each
kind's check, legal instances and resolution side by side.

Rules: manual p34 (move, move through effects), p35 (pits), p36 (doors), p12, p15 (costs).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from machina_nb.rules.board.distance import Mover, reach
from machina_nb.rules.board.graph import pair
from machina_nb.rules.board.maptext import BorderKind, Point, SpaceKind
from machina_nb.rules.board.terrain import move_steps
from machina_nb.rules.cite import Cite
from machina_nb.rules.engine.actions.core import Action, ActionCost, _fail, _if_legal, _pay_check
from machina_nb.rules.engine.cardplay import moves_through
from machina_nb.rules.engine.effects import destroy_unit, set_door
from machina_nb.rules.engine.resolution import Resolution
from machina_nb.rules.engine.state import GameState, Side, Unit
from machina_nb.rules.rulings import Rules

__all__ = ["Move", "Door", "through_moves", "DOOR_COSTS"]

DOOR_COSTS: dict[str, dict[str, ActionCost]] = {
    "explorer": {"open": ActionCost(2), "close": ActionCost(2), "destroy": ActionCost(4)},
    "scheming": {"open": ActionCost(3), "close": ActionCost(3), "destroy": ActionCost(4)},
}
"""Door costs by actor (an explorer, or a scheming monster), then by what is done to the
door (manual p12, p15, p36)."""


def _mode(state: GameState, unit: Unit) -> str:
    """Whose door costs a unit pays: an explorer's, or a scheming monster's (manual p15)."""
    return "explorer" if unit.side == Side.EXPLORER else "scheming"


@dataclass(frozen=True)
class Move(Action):
    """One step to an adjacent, passable, unoccupied space for 1 stamina (manual p34); a unit
    that moves through obstacles (the Aeromantle) may also move past them to a free passable
    space, 1 stamina a space (:func:`through_moves`, manual p30, p34)."""

    to: Point = (0, 0)

    def check_arguments(self) -> None:
        super().check_arguments()
        pair(self.to, "to")

    def _verify(self, state: GameState, rules: Rules, u: Unit) -> None:
        if u.immobile:
            _fail("actor", f"{u.id} is immobile", "manual p17")
        if u.stamina < 1:
            _fail("actor", f"{u.id} has no stamina left", "manual p34 (1 per step)")
        if not _step_ok(state, rules, cast(Point, u.position), cast(Point, tuple(self.to))) \
                and tuple(self.to) not in through_moves(state, rules, u):
            _fail("to", f"{self.to} is not an adjacent, passable, unoccupied space",
                  "manual p22, p34 (move)")

    def _perform(self, r: Resolution, u: Unit) -> None:
        to = cast(Point, tuple(self.to))
        if _step_ok(r.state, r.rules, cast(Point, u.position), to):
            _move(r, u, to)
        else:
            _move(r, u, to, through_moves(r.state, r.rules, u)[to])

    @classmethod
    def options(cls, state: GameState, rules: Rules, u: Unit) -> list[Action]:
        if u.immobile or u.stamina < 1:
            return []
        moves: list[Action] = [Move(u.id, q) for q in move_steps(state.static_board(),
                                                                 cast(Point, u.position), rules)
                               if state.unit_at(q) is None]
        return moves + [Move(u.id, q) for q in through_moves(state, rules, u)]


def _step_ok(state: GameState, rules: Rules, a: Point, b: Point) -> bool:
    return b in move_steps(state.static_board(), a, rules) and state.unit_at(b) is None


def _move(r: Resolution, u: Unit, to: Point, cost: int = 0, **fields: Any) -> None:
    """``u`` steps to ``to`` (1 stamina, or ``cost`` through obstacles); other ``fields`` of
    the state change in the same copy.

    Rules: manual p34 (move, move through effects), p35 (pits).
    """
    moved = r.state.unit(u.id).evolve(position=to, stamina=u.stamina - (cost or 1))
    r.state = r.state.with_unit(moved, **fields)
    if cost:
        r.emit("move", "moves_through", Cite.parse("manual p34 (move through effects), p30 "
                                                   "(Aeromantle)"),
               who=(u.id,), where=(cast(Point, u.position), to), amounts=(cost,))
    else:
        r.emit("move", "moves", Cite("manual", ("p34",), "move"), who=(u.id,),
               where=(cast(Point, u.position), to), amounts=(1,))
    if r.state.is_kind(to, SpaceKind.PIT):
        destroy_unit(r, u.id, None, f"{u.id} enters a pit", )
        r.emit("pit", "pit_entered", "manual p35; switch pit.voluntary_entry")
        if r.state.monster_turn and r.state.monster_turn.monster == u.id:
            r.set(monster_turn=None)


def through_moves(state: GameState, rules: Rules, u: Unit) -> dict[Point, int]:
    """Where a unit that moves through obstacles (a ``move_through`` effect: the Aeromantle)
    may move past obstacles, and the stamina it pays: the free passable spaces it reaches
    for less than a plain move costs, or only that way (manual p30, p34: move through
    effects; it ends on no obstacle and no unit).

    Rules: manual p30 (Aeromantle), p34 (move, move through effects), p35 (pits).
    """
    if u.position is None or not moves_through(state, u.id, rules):
        return {}
    board = state.unit_board()
    plain = reach(board, u.position, u.stamina, rules, Mover(unit=u.id))
    through = reach(board, u.position, u.stamina, rules,
                    Mover(unit=u.id, move_through=True, obstacles_only=True))
    return {q: c for q, c in through.items() if q != u.position and c >= 1
            and plain.get(q, c + 1) > c}


@dataclass(frozen=True)
class Door(Action):
    """Open, close or destroy the door between ``a`` (the actor's space) and ``b`` (manual p36)."""

    a: Point = (0, 0)
    b: Point = (0, 0)
    op: str = "open"

    def check_arguments(self) -> None:
        super().check_arguments()
        pair(self.a, "a")
        pair(self.b, "b")

    def _verify(self, state: GameState, rules: Rules, u: Unit) -> None:
        a, b = cast(Point, tuple(self.a)), cast(Point, tuple(self.b))
        if a != u.position or abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1 or \
                b not in state.static_board():
            _fail("a", "a door must lie on a border of the actor's space", "manual p22")
        kind = state.border(a, b)
        doors = (BorderKind.DOOR_OPEN, BorderKind.DOOR_CLOSED)
        wanted = {"open": (BorderKind.DOOR_CLOSED,), "close": (BorderKind.DOOR_OPEN,),
                  "destroy": (BorderKind.DOOR_CLOSED,) if u.side == Side.EXPLORER else doors}
        if self.op not in wanted:
            _fail("op", f"expected open, close or destroy, got {self.op!r}", "manual p36")
        if kind not in wanted[self.op]:
            _fail("op", f"cannot {self.op} a border that is {kind.name}", "manual p36 (doors)")
        _pay_check(state, rules, u, DOOR_COSTS[_mode(state, u)][self.op], (), None,
                   "manual p12, p15, p36")

    def _perform(self, r: Resolution, u: Unit) -> None:
        _door(r, u, cast(Point, tuple(self.a)), cast(Point, tuple(self.b)), self.op)

    @classmethod
    def options(cls, state: GameState, rules: Rules, u: Unit) -> list[Action]:
        board, out = state.static_board(), []
        at = cast(Point, u.position)
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            q = (at[0] + dx, at[1] + dy)
            if q in board:
                for op in ("open", "close", "destroy"):
                    out += _if_legal(state, rules, Door(u.id, at, q, op))
        return out


def _door(r: Resolution, u: Unit, a: Point, b: Point, op: str) -> None:
    """``u`` opens, closes or destroys the door between ``a`` and ``b``, paying its stamina.

    Rules: manual p12, p15, p36 (doors and their costs).
    """
    cost = DOOR_COSTS[_mode(r.state, u)][op]
    new = {"open": BorderKind.DOOR_OPEN, "close": BorderKind.DOOR_CLOSED,
           "destroy": BorderKind.DOOR_DESTROYED}[op]
    set_door(r, a, b, new)
    r.state = r.state.update_unit(u.id, stamina=u.stamina - cost.stamina)
    r.emit("door", f"door_{op}", Cite("manual", ("p36",), "doors"), who=(u.id,),
           where=(a, b), amounts=(cost.stamina,))
