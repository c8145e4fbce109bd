"""The values distance questions are answered in: the mover, tied paths, exact roots, rankings.

Rules: manual p15-16 (movement), p22 (nearest and closest).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from machina_nb.rules.board.maptext import Point
from machina_nb.rules.board.step_tables import topological
from machina_nb.rules.errors import RulesError

__all__ = ["Mover", "Paths", "SquareRoot", "Distance", "Ranking"]


@dataclass(frozen=True)
class Mover:
    """Who is moving, as far as movement rules care (manual p25, p34, p35).

    ``unit``: the mover's own unit id (its space does not block it);
    ``mindless``: a mindless monster never steps into a pit (manual p35) and
    plans its path per ``path.units`` (switches path.units and mindless.blocked); ``ethereal``: moves through
    units (manual p25); ``move_through``: a move-through effect passes
    obstacles and impassable spaces, pit to pit costs 0 and it may not end on a
    pit (manual p34; per ``pit.voluntary_entry``, switch pit.voluntary_entry);
    ``obstacles_only`` with it: the effect passes obstacles (units, action spaces,
    barrels, destroyed spaces) but not barrier spaces such as rubble (the Aeromantle,
    manual p30).

    Rules: manual p25 (ethereal), p34 (move, move-through), p35 (pits); switch pit.voluntary_entry.
    """

    unit: str | None = None
    mindless: bool = False
    ethereal: bool = False
    move_through: bool = False
    obstacles_only: bool = False


@dataclass(frozen=True)
class Paths:
    """Every tied shortest path from ``start`` to ``goal``, held as a DAG (manual p16: the shortest path).

    ``cost`` is None when the goal cannot be reached. Iterate for the paths
    (tuples of spaces from start to goal, in sorted order); :meth:`count`
    counts them without listing.

    Rules: manual p15-16 (shortest path; ties are the explorers' choice); switches path.units and mindless.blocked.
    """

    start: Point
    goal: Point
    cost: int | None
    predecessors: tuple[tuple[Point, tuple[Point, ...]], ...]

    def __iter__(self) -> Iterator[tuple[Point, ...]]:
        if self.cost is None:
            return
        successors: dict[Point, list[Point]] = {}
        for node, preds in self.predecessors:
            for p in preds:
                successors.setdefault(p, []).append(node)
        for nodes in successors.values():
            nodes.sort()
        stack: list[tuple[Point, ...]] = [(self.start,)]
        while stack:
            path = stack.pop()
            if path[-1] == self.goal:
                yield path
                continue
            stack.extend(path + (n,) for n in reversed(successors.get(path[-1], ())))

    def count(self) -> int:
        """How many tied shortest paths there are (counted on the DAG, not listed).

        Rules: manual p15-16 (shortest path; ties are the explorers' choice); switches path.units and mindless.blocked.
        """
        if self.cost is None:
            return 0
        preds = dict(self.predecessors)
        ways: dict[Point, int] = {}
        for node in topological(preds):
            ways[node] = sum(ways[p] for p in preds[node]) if preds[node] else 1
        return ways[self.goal]


_Test = Callable[[int | Fraction, int | Fraction], bool]
"""A comparison of two exact squares."""


@dataclass(frozen=True, eq=False)
class SquareRoot:
    """The exact square root of a whole number: a straight distance on the grid, kept exact.

    Compared and ordered exactly (by squares) with other roots, whole numbers and
    fractions; printed as sympy prints it (``3*sqrt(2)``, ``2``), without sympy.

    >>> SquareRoot(18), SquareRoot(9) == 3, SquareRoot(5) < 3, SquareRoot(8) > SquareRoot(7)
    (3*sqrt(2), True, True, True)

    Rules: manual p22 (nearest: counted directly); switch nearest.metric.
    """

    square: int

    def __post_init__(self) -> None:
        if not isinstance(self.square, int) or isinstance(self.square, bool) or self.square < 0:
            raise RulesError("square", f"expected a whole number >= 0, got {self.square!r}")

    def parts(self) -> tuple[int, int]:
        """``(k, m)`` with ``sqrt(square) == k * sqrt(m)`` and ``m`` free of square factors."""
        k, m, f = 1, self.square, 2
        while f * f <= m:
            while m % (f * f) == 0:
                k, m = k * f, m // (f * f)
            f += 1
        return k, m

    def _square_of(self, other: object) -> Fraction | None:
        if isinstance(other, SquareRoot):
            return Fraction(other.square)
        if isinstance(other, (int, Fraction)) and not isinstance(other, bool) and other >= 0:
            return Fraction(other) ** 2
        return None

    def _compare(self, other: object, test: _Test) -> bool | None:
        """``test`` on the two squares; None when ``other`` is no number."""
        square = self._square_of(other)
        if square is None:
            if isinstance(other, (int, Fraction)) and not isinstance(other, bool):
                return test(1, 0)  # a root is never below a negative number
            return None
        return test(Fraction(self.square), square)

    def __eq__(self, other: object) -> bool:
        verdict = self._compare(other, lambda a, b: a == b)
        if verdict is None:
            return NotImplemented
        return verdict

    def __lt__(self, other: object) -> bool:
        verdict = self._compare(other, lambda a, b: a < b)
        if verdict is None:
            return NotImplemented
        return verdict

    def __le__(self, other: object) -> bool:
        verdict = self._compare(other, lambda a, b: a <= b)
        if verdict is None:
            return NotImplemented
        return verdict

    def __gt__(self, other: object) -> bool:
        verdict = self._compare(other, lambda a, b: a > b)
        if verdict is None:
            return NotImplemented
        return verdict

    def __ge__(self, other: object) -> bool:
        verdict = self._compare(other, lambda a, b: a >= b)
        if verdict is None:
            return NotImplemented
        return verdict

    def __hash__(self) -> int:
        root = math.isqrt(self.square)
        return hash(root) if root * root == self.square else hash(("sqrt", self.square))

    def __float__(self) -> float:
        return math.sqrt(self.square)

    def __str__(self) -> str:
        k, m = self.parts()
        if m <= 1:
            return str(k * m)
        return f"sqrt({m})" if k == 1 else f"{k}*sqrt({m})"

    __repr__ = __str__


Distance = int | SquareRoot
"""A distance in a ranking: a count of spaces or steps, or an exact straight distance."""


@dataclass(frozen=True)
class Ranking:
    """Candidates ranked by a distance: the best ``distance`` and EVERY tied ``candidates`` (manual p16).

    ``distances`` lists each reachable candidate with its distance (unreachable
    ones are left out); ``reading`` names the switches used. Ties are the
    explorers' choice, never broken here.

    Rules: manual p16 (ties: the explorers decide), p22 (nearest, closest); rulings D7, D8, D9.
    """

    measure: str
    distance: Distance | None
    candidates: tuple[Point, ...]
    distances: tuple[tuple[Point, Distance], ...]
    reading: str
    rule: str


# --- what a step may do ------------------------------------------------------------------------
