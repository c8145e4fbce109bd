"""Step tables: the sorted open steps of a view, kept per terrain, and distance maps that grow.

Which step is open is judged by the movement and *closest* rules in
:mod:`machina_nb.rules.board.distance`; these tables only store the lists
(each made on first use), lay the units' own lists over a terrain's, and
search them breadth first as far as a question needs.
"""

from __future__ import annotations

import types
from collections.abc import Iterator, Mapping
from typing import TypeVar, overload

import networkx as nx

from machina_nb.rules.board.barriers import BorderTest, SpaceTest
from machina_nb.rules.board.graph import Terrain
from machina_nb.rules.board.maptext import Point

__all__ = ["STEP_READINGS", "Steps", "Overlay", "StepLists", "ViewSteps", "GrowingDistances", "topological"]

STEP_READINGS = ("move.diagonal", "move.squeeze", "los.vertex", "los.space_squeeze",
                  "closest.immobile_units", "closest.pits")


class Steps:
    """The sorted open steps from each space of a view, each list made on first use.

    Every space gets its list, even one the view leaves out: a search may start
    there (an immobile monster measuring its own closest explorer). Lists of a
    terrain changed from another are kept except near the change (``Terrain.touched``).
    """

    __slots__ = ("_adj", "_node_ok", "_edge_ok", "_lists", "_kept")

    def __init__(self, graph: nx.Graph, node_ok: SpaceTest, edge_ok: BorderTest,
                 lists: dict[Point, tuple[Point, ...]] | None = None):
        self._adj, self._node_ok, self._edge_ok = graph._adj, node_ok, edge_ok
        self._lists: dict[Point, tuple[Point, ...]] = {} if lists is None else lists
        self._kept: dict[Point, bool] = {}   # node_ok per space, asked by up to 8 neighbours

    def get(self, n: Point, default: tuple[Point, ...] = ()) -> tuple[Point, ...]:
        hit = self._lists.get(n)
        if hit is None:
            near = self._adj.get(n)
            if near is None:
                return default
            edge_ok, in_view = self._edge_ok, self.in_view
            hit = self._lists[n] = tuple(sorted(v for v in near if in_view(v) and edge_ok(n, v)))
        return hit

    def in_view(self, n: Point) -> bool:
        """Whether the view keeps space ``n`` (its list is made either way)."""
        kept = self._kept.get(n)
        if kept is None:
            kept = self._kept[n] = self._node_ok(n)
        return kept

    def patched(self, node_ok: SpaceTest, edge_ok: BorderTest, terrain: Terrain) -> Steps:
        touched = terrain.touched()
        return Steps(terrain.graph, node_ok, edge_ok,
                      {n: s for n, s in self._lists.items() if n not in touched})


class Overlay:
    """Step lists with the units' own lists laid over a terrain's :class:`Steps`."""

    __slots__ = ("_base", "_lists")

    def __init__(self, base: Steps, lists: dict[Point, tuple[Point, ...]]):
        self._base, self._lists = base, lists

    def get(self, n: Point, default: tuple[Point, ...] = ()) -> tuple[Point, ...]:
        hit = self._lists.get(n)
        return hit if hit is not None else self._base.get(n, default)


class ViewSteps(Mapping[Point, tuple[Point, ...]]):
    """A view's step lists as a read-only table over the board's spaces: the sorted steps from a
    space the view keeps, ``()`` from one it leaves out (what ``sorted(view[p])`` gives)."""

    __slots__ = ("_nodes", "_steps")

    def __init__(self, terrain: Terrain, steps: Steps):
        self._nodes, self._steps = terrain.graph._node, steps

    def __getitem__(self, point: Point) -> tuple[Point, ...]:
        if point not in self._nodes:
            raise KeyError(point)
        return self._steps.get(point) if self._steps.in_view(point) else ()

    def __iter__(self) -> Iterator[Point]:
        return iter(self._nodes)

    def __len__(self) -> int:
        return len(self._nodes)


_T = TypeVar("_T")


class GrowingDistances(Mapping[Point, int]):
    """Steps from one start along a view's step lists, found breadth first only as far as
    they are asked for: asking for a space searches until it is found or nothing is left, so a
    question about a near space on a big board costs a small search. Iterating (in the order
    of the spaces) or ``len`` finish the search. A read-only mapping; what it holds grows.
    """

    __slots__ = ("_index", "_dist", "_frontier", "_depth", "_sorted")

    def __init__(self, index: StepLists, start: Point):
        self._index, self._depth = index, 0
        self._dist: dict[Point, int] = {start: 0}
        self._frontier: list[Point] = [start]
        self._sorted: dict[Point, int] | None = None

    def _grow(self) -> bool:
        """Search one layer further; False when nothing was left to search."""
        if not self._frontier:
            return False
        layer: list[Point] = []
        depth, dist, index = self._depth + 1, self._dist, self._index
        for u in self._frontier:
            for v in index.get(u, ()):
                if v not in dist:
                    dist[v] = depth
                    layer.append(v)
        self._frontier, self._depth = layer, depth
        return True

    @overload
    def get(self, point: Point) -> int | None: ...
    @overload
    def get(self, point: Point, default: int | _T) -> int | _T: ...

    def get(self, point: Point, default: object = None) -> object:
        dist = self._dist
        while point not in dist and self._grow():
            pass
        return dist.get(point, default)

    def within(self, depth: int) -> Mapping[Point, int]:
        """Every space at most ``depth`` steps away (perhaps some farther ones too)."""
        while self._depth < depth and self._grow():
            pass
        return types.MappingProxyType(self._dist)

    def __getitem__(self, point: Point) -> int:
        found = self.get(point)
        if found is None:
            raise KeyError(point)
        return found

    def __contains__(self, point: object) -> bool:
        dist = self._dist
        while point not in dist and self._grow():
            pass
        return point in dist

    def _complete(self) -> dict[Point, int]:
        if self._sorted is None:
            while self._grow():
                pass
            self._sorted = {p: self._dist[p] for p in sorted(self._dist)}
        return self._sorted

    def __iter__(self) -> Iterator[Point]:
        return iter(self._complete())

    def __len__(self) -> int:
        return len(self._complete())


StepLists = Steps | Overlay
"""Sorted open steps by space: a terrain's own, or with the units' lists laid over them."""


def topological(preds: Mapping[Point, tuple[Point, ...]]) -> list[Point]:
    """Nodes of a predecessor DAG ordered so that every node comes after its predecessors."""
    order: list[Point] = []
    seen: set[Point] = set()
    for root in preds:
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(preds[root]))]
        while stack:
            node, pending = stack[-1]
            for p in pending:
                if p not in seen:
                    seen.add(p)
                    stack.append((p, iter(preds[p])))
                    break
            else:
                stack.pop()
                order.append(node)
    return order
