"""The engine's questions to the map, answered by :mod:`sight` and :mod:`distance`, cached.

The engine asks the same map many questions during a phase. These adapters
read the board helpers' answers once per terrain (the map with a state's tokens
and doors, :meth:`GameState.static_board`), per reading of the switches they
depend on and per space asked about, and hand back read-only tables: the adjacent spaces, the legal
steps of a mindless mover, the steps along the *closest* view.

>>> from machina_nb.rules.board.maptext import parse_map
>>> from machina_nb.rules.rulings import Rules
>>> board = Board.from_layout(parse_map("+-+-+-+\\n|. . .|\\n+ +-+ +\\n|. r .|\\n+-+-+-+\\n"))
>>> closest_distances(board, (0, 1), Rules())[(2, 1)]     # diagonally past the rubble
2
>>> nearest_spaces(board, (0, 0), [(2, 1), (1, 0)], Rules())
((1, 0),)

Rules: manual p22 (adjacent, nearest, closest), p34 (move), p35-36 (map elements) (the board helpers implement them).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from functools import lru_cache
from typing import TypeVar, cast

from machina_nb.rules.board import distance, sight
from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.maptext import Point
from machina_nb.rules.rulings import Rules

_T = TypeVar("_T")
_V = TypeVar("_V")

__all__ = ["adjacent", "neighbours", "move_table", "move_steps", "closest_table",
           "closest_distances", "nearest_spaces", "chebyshev"]

_READINGS = ("los.vertex", "los.space_squeeze", "move.diagonal", "move.squeeze",
             "closest.pits", "closest.immobile_units", "adjacency.across_tiles")


def chebyshev(a: Point, b: Point) -> int:
    """The king-move count between two spaces (the default metric; switches nearest.metric, range.metric)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


class _Lazy(Mapping[Point, _V]):
    """A read-only table over a board's spaces whose entries are made on first use, so one
    question about one space costs one entry, not the whole board."""

    def __init__(self, board: Board, make: Callable[[Point], _V]) -> None:
        self._board, self._make = board, make
        self._made: dict[Point, _V] = {}

    def __getitem__(self, point: Point) -> _V:
        hit = self._made.get(point, self)
        if hit is self:
            if point not in self._board:
                raise KeyError(point)
            hit = self._made[point] = self._make(point)
        return cast(_V, hit)

    def __iter__(self) -> Iterator[Point]:
        return iter(self._board)

    def __len__(self) -> int:
        return len(self._board)


@lru_cache(maxsize=64)
def _readings(rules: Rules) -> tuple[str, ...]:
    """The readings of the switches the tables depend on (a Rules value is immutable)."""
    return tuple(rules[r] for r in _READINGS)


def _cached(board: Board, rules: Rules, name: str, extra: object, build: Callable[[], _T]) -> _T:
    """A table of the board's terrain per reading (and occupancy, when units stand on it)."""
    key = (name, _readings(rules), extra)
    if board.occupancy:
        return board.terrain.recent(key + (board.occupancy,), build)
    return board.terrain.table(key, lambda terrain: build())


def adjacent(board: Board, a: Point, b: Point, rules: Rules) -> bool:
    """Whether ``b`` is adjacent to ``a``: a neighbour in line of sight (manual p22).

    Rules: manual p22 (adjacent); rulings D1, D2, D21.
    """
    return b in neighbours(board, a, rules)


def neighbours(board: Board, point: Point, rules: Rules) -> tuple[Point, ...]:
    """The spaces adjacent to ``point``, sorted (manual p22), from a cached table."""
    table = _cached(board, rules, "adjacent", None,
                    lambda: _Lazy(board, lambda p: sight.adjacent_spaces(board, p, rules)))
    return table[point]


def move_table(board: Board, rules: Rules, mindless: bool = False
               ) -> Mapping[Point, tuple[Point, ...]]:
    """Legal steps from every space on a board without units; ``mindless`` movers shun pits.

    Callers treat the units' spaces as occupied. Rules: manual p34 (move), p35
    (mindless monsters never enter pits); switches move.diagonal and move.squeeze.
    """
    mover = distance.Mover(mindless=mindless)
    return _cached(board, rules, "move", mindless,
                   lambda: _Lazy(board, distance.step_lists(board, rules, mover)))


def move_steps(board: Board, point: Point, rules: Rules, mindless: bool = False
               ) -> tuple[Point, ...]:
    """Legal steps from ``point`` (see :func:`move_table`) (manual p34)."""
    return move_table(board, rules, mindless)[point]


def closest_table(board: Board, rules: Rules) -> Mapping[Point, tuple[Point, ...]]:
    """Steps along the *closest* view (closed doors open, units ignored) from every space
    (manual p16, p22)."""
    return distance.closest_steps(board, rules)


def closest_distances(board: Board, source: Point, rules: Rules,
                      immobile: Collection[str] = ()) -> Mapping[Point, int]:
    """Closest distance from ``source`` to every space it reaches (manual p22: closest),
    searched only as far as asked (:class:`~machina_nb.rules.board.distance.GrowingDistances`).

    ``board`` carries the immobile units named in ``immobile`` (they block per
    ``closest.immobile_units``, switch closest.immobile_units/D9); other units are ignored.
    Rules: manual p22 (closest), p16; switches closest.pits and closest.immobile_units.
    """
    immobile = frozenset(immobile)

    def _build() -> Mapping[Point, int]:
        return distance.closest_distances_from(board, source, rules, immobile)
    return _cached(board, rules, "distances", (source, immobile), _build)


def nearest_spaces(board: Board, origin: Point, candidates: Iterable[Point],
                   rules: Rules) -> tuple[Point, ...]:
    """Every candidate at the smallest straight count from ``origin`` (manual p22: nearest).

    Ties go to the explorers. Rules: manual p22 (nearest), p13 (spawn space); switch nearest.metric.
    """
    candidates = tuple(candidates)
    if not candidates:
        return ()
    return distance.nearest(board, origin, candidates, rules).candidates
