"""The engine's questions to the map: adjacency, legal steps, closest distances, nearest.

The engine asks these on a :class:`~machina_nb.rules.board.Board` built by
:meth:`GameState.static_board` (tokens and doors applied, no units) plus the
units' positions. Neighbour tables are cached per board, so a monster phase
asks the same map many questions cheaply.

>>> from machina_nb.rules.maptext import parse_map
>>> board = Board.from_layout(parse_map("+-+-+-+\\n|. . .|\\n+ +-+ +\\n|. r .|\\n+-+-+-+\\n"))
>>> from machina_nb.rules.rulings import Rules
>>> closest_distances(board, (0, 1), Rules(), blocked=frozenset())[(2, 1)]
4
>>> nearest((0, 0), [(2, 1), (1, 0)])
((1, 0),)

Rules: manual p22 (adjacent, nearest, closest), p34 (move), p35-36 (map elements);
spec §A2, §A6-A8.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from typing import Iterable

from machina_nb.rules.board import (BARRIER_BORDERS, BARRIER_SPACES, NEIGHBOUR_STEPS,
                                    PASSABLE_SPACES, Board)
from machina_nb.rules.maptext import BorderKind, Point, SpaceKind
from machina_nb.rules.rulings import Rules

__all__ = ["adjacent", "neighbours", "closest_distances", "nearest", "chebyshev", "passable"]


def chebyshev(a: Point, b: Point) -> int:
    """The king-move count between two spaces (spec §0.1; default nearest metric, D7)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def passable(kind: SpaceKind) -> bool:
    """Whether a unit may enter a space of this kind (manual p35; spec §A1.1)."""
    return kind in PASSABLE_SPACES


def _blocks(board: Board, a: Point, b: Point, doors_open: bool) -> bool:
    kind = board.border(a, b)
    if doors_open and kind is BorderKind.DOOR_CLOSED:
        return False
    return kind in BARRIER_BORDERS


def adjacent(board: Board, a: Point, b: Point, doors_open: bool = False) -> bool:
    """Whether ``b`` is one of ``a``'s 8 neighbours and in line of sight (manual p22).

    A diagonal neighbour is out of sight when the barrier borders at the shared
    corner cut both ways around it, or both side spaces are barriers
    (``los.vertex = separating``, ``los.space_squeeze = blocked``, spec D1-D2).
    ``doors_open`` treats closed doors as open (manual p16: closest and paths).
    Rules: manual p22 (adjacent, line of sight).
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    if max(abs(dx), abs(dy)) != 1 or b not in board:
        return False
    if dx == 0 or dy == 0:
        return not _blocks(board, a, b, doors_open)
    c1, c2 = (b[0], a[1]), (a[0], b[1])
    if c1 in board and c2 in board and board.space(c1) in BARRIER_SPACES \
            and board.space(c2) in BARRIER_SPACES:
        return False
    side1 = _blocks(board, a, c1, doors_open) or _blocks(board, c1, b, doors_open)
    side2 = _blocks(board, a, c2, doors_open) or _blocks(board, c2, b, doors_open)
    return not (side1 and side2)


@lru_cache(maxsize=64)
def _table(board: Board, version: int, doors_open: bool) -> dict[Point, tuple[Point, ...]]:
    table = {}
    for p in board:
        table[p] = tuple(q for q in ((p[0] + dx, p[1] + dy) for dx, dy in NEIGHBOUR_STEPS)
                         if q in board and adjacent(board, p, q, doors_open))
    return table


def neighbours(board: Board, point: Point, doors_open: bool = False) -> tuple[Point, ...]:
    """The adjacent spaces of ``point`` (manual p22), from a table cached per board version."""
    return _table(board, board.version, doors_open)[point]


def closest_distances(board: Board, source: Point, rules: Rules,
                      blocked: frozenset[Point]) -> dict[Point, int]:
    """Steps along a movement path from ``source`` to every space it reaches (manual p22: closest).

    Closed doors count as open and units are ignored except those in ``blocked``
    (immobile units under ``closest.immobile_units``, spec C-6/D9). Impassable
    spaces are avoided; pits count as passable under ``closest.pits =
    count_through`` (spec D8). The source itself may be any space.
    Rules: manual p22 (closest), p16 (closed doors and non-immobile units ignored).
    """
    return dict(_closest(board, board.version, source, rules["closest.pits"], blocked))


@lru_cache(maxsize=4096)
def _closest(board: Board, version: int, source: Point, pits: str, blocked: frozenset):
    table = _table(board, version, True)
    dist = {source: 0}
    frontier = deque([source])
    while frontier:
        p = frontier.popleft()
        for q in table[p]:
            if q in dist or q in blocked:
                continue
            kind = board.space(q)
            if kind not in PASSABLE_SPACES or (pits == "avoid" and kind is SpaceKind.PIT):
                continue
            dist[q] = dist[p] + 1
            frontier.append(q)
    return tuple(dist.items())


def nearest(origin: Point, candidates: Iterable[Point]) -> tuple[Point, ...]:
    """The candidates at the smallest straight count from ``origin``, all ties, sorted.

    A direct count ignoring barriers, obstacles, pits and units (manual p22:
    nearest; ``nearest.metric = chebyshev``, spec D7). Ties go to the explorers.
    Rules: manual p22 (nearest), p13 (spawn space).
    """
    candidates = sorted(set(candidates))
    if not candidates:
        return ()
    best = min(chebyshev(origin, c) for c in candidates)
    return tuple(c for c in candidates if chebyshev(origin, c) == best)
