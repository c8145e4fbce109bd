"""Precomputed sight tables: one bit per border, space and vertex of the board's box.

Every element of the bounding box gets a bit at index X + Y*S of its absolute doubled
position (S = 2W + 1); vertices crossed NE<->SW use a second plane (+ P). The segment's
events for an offset are translation invariant, so one mask per offset, shifted against a
board-wide "blocked" mask, decides a pair with one AND. The blocked masks are tables of the
terrain (``Terrain.table``, keyed by the readings): every board of a map shares them, a
changed terrain patches only the elements its changes touch, and units only add the
ranged obstacles of their own spaces (kept per set of blocking spaces). Which element is
blocked is judged in :mod:`machina_nb.rules.board.barriers`; this module only stores it.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import cast

from machina_nb.rules.board.barriers import (
    barrier_borders_of,
    barrier_spaces_of,
    judge_elements,
    terrain_obstacles,
    trace,
)
from machina_nb.rules.board.graph import Terrain
from machina_nb.rules.board.maptext import Point
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

__all__ = ["READINGS", "geometry", "mask_table", "ranged_mask", "BlockedBoxes"]

READINGS = ("los.vertex", "los.space_squeeze", "ranged.obstacle_vertex")
"""The switches a sight table depends on: its key holds their readings."""



@dataclass(frozen=True)
class _Frame:
    x0: int
    y0: int
    width: int
    height: int

    @property
    def _stride(self) -> int:
        return 2 * self.width + 1

    @property
    def _plane(self) -> int:
        return self._stride * (2 * self.height + 1)

    @property
    def _anchor(self) -> int:  # K: shifts every relative index to be >= 0
        return 2 * self.width + 2 * self.height * self._stride


_OFFSETS: dict[tuple[int, int], list[int | None]] = {}


def _offsets(width: int, height: int) -> list[int | None]:
    """The offset masks of one board size, by (dx + W-1) + (dy + H-1)(2W-1); each made on first use."""
    hit = _OFFSETS.get((width, height))
    if hit is None:
        hit = _OFFSETS[(width, height)] = [None] * ((2 * width - 1) * (2 * height - 1))
    return hit


_EAGER_OFFSETS = 10_000
"""Boards up to about 50x50 make every offset mask at once; bigger ones each on first use."""


def _offset_mask(frame: _Frame, k: int) -> int:
    """Make (once) the mask of the events met from a centre to the centre at offset number ``k``."""
    W, H = frame.width, frame.height
    cols = 2 * W - 1
    dx, dy = k % cols - (W - 1), k // cols - (H - 1)
    S, P, K = frame._stride, frame._plane, frame._anchor
    plane = P if dx * dy < 0 else 0
    mask = _bits(K + X + Y * S + (plane if kind == "vertex" else 0) for kind, X, Y in trace(dx, dy))
    _offsets(W, H)[k] = mask
    return mask


def _bits(positions: Iterable[int]) -> int:
    """The number with exactly these bits set, built in one pass."""
    positions = list(positions)
    if not positions:
        return 0
    raw = bytearray(max(positions) // 8 + 1)
    for k in positions:
        raw[k >> 3] |= 1 << (k & 7)
    return int.from_bytes(raw, "little")


class _Geometry:
    """Where each space of one outline sits in the masks; shared by terrains with the same spaces."""

    def __init__(self, points: Iterable[Point]):
        self.spaces = spaces = tuple(sorted(points))
        if not spaces:
            raise RulesError("board", "the board has no spaces")
        xs, ys = [p[0] for p in spaces], [p[1] for p in spaces]
        self.frame = frame = _Frame(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
        S, cols = frame._stride, 2 * frame.width - 1
        self.index = {p: (p[0] - frame.x0) + (p[1] - frame.y0) * cols for p in spaces}
        self.slots = [self.index[p] for p in spaces]
        self.order = {p: i for i, p in enumerate(spaces)}
        self.centre = {p: frame._anchor - (2 * (p[0] - frame.x0) + 1 + (2 * (p[1] - frame.y0) + 1) * S)
                       for p in spaces}
        self.middle = (frame.width - 1) + (frame.height - 1) * cols
        self.masks = masks = _offsets(frame.width, frame.height)
        self.complete = len(masks) <= _EAGER_OFFSETS
        if self.complete:
            for k, mask in enumerate(masks):
                if mask is None:
                    _offset_mask(frame, k)

    def position(self, gx: int, gy: int, plane: int = 0) -> int:
        """The bit of the element at absolute doubled (gx, gy); plane 1 for NE<->SW vertices."""
        f = self.frame
        return gx - 2 * f.x0 + (gy - 2 * f.y0) * f._stride + (f._plane if plane else 0)

    def elements(self) -> Iterator[tuple[int, int, int]]:
        """Every space, border and vertex (both planes) of the frame as ``(gx, gy, plane)``."""
        f = self.frame
        for gy in range(2 * f.y0, 2 * (f.y0 + f.height) + 1):
            for gx in range(2 * f.x0, 2 * (f.x0 + f.width) + 1):
                yield gx, gy, 0
                if gx % 2 == 0 and gy % 2 == 0:
                    yield gx, gy, 1

    def clear(self, mask: int, a: Point, first: int = 0, last: int | None = None) -> list[Point]:
        """The spaces ``spaces[first:last]`` whose line from ``a`` meets no bit of ``mask``."""
        return self.clear_shifted(mask << self.centre[a], a, first, last)

    def clear_shifted(self, blocked: int, a: Point, first: int = 0,
                      last: int | None = None) -> list[Point]:
        """:meth:`clear` with the mask already shifted to ``a`` (``mask << centre[a]``)."""
        masks, base = self.masks, self.middle - self.index[a]
        pairs = zip(self.spaces[first:last], self.slots[first:last])
        if self.complete:   # every offset mask is made: none is None
            made = cast(list[int], masks)
            return [t for t, slot in pairs if not made[base + slot] & blocked]
        frame = self.frame
        return [t for t, slot in pairs
                if not (masks[base + slot] or _offset_mask(frame, base + slot)) & blocked]


def _touched_elements(terrain: Terrain) -> list[tuple[int, int, int]]:
    """The elements whose verdict a terrain's changes may alter: the changed space or border
    and the lattice vertices at its corners or ends (both planes)."""
    out: list[tuple[int, int, int]] = []
    for what, where in terrain.changes:
        if what == "border":
            (ax, ay), (bx, by) = where
            gx, gy = ax + bx + 1, ay + by + 1
            ends: tuple[Point, ...] = ((gx, gy - 1), (gx, gy + 1)) if gx % 2 == 0 else ((gx - 1, gy), (gx + 1, gy))
        else:
            gx, gy = 2 * where[0] + 1, 2 * where[1] + 1
            ends = ((gx - 1, gy - 1), (gx + 1, gy - 1), (gx - 1, gy + 1), (gx + 1, gy + 1))
        out.append((gx, gy, 0))
        out.extend((vx, vy, plane) for vx, vy in ends for plane in (0, 1))
    return out


def geometry(terrain: Terrain) -> _Geometry:
    return terrain.table(("geometry",), lambda t: _Geometry(t.graph), lambda old, t: old)


def mask_table(terrain: Terrain, rules: Rules, ranged: bool) -> int:
    """The blocked mask of sight (``ranged`` False) or of plain ranged with the terrain's own
    obstacles: a table of the terrain, patched after a change."""
    names = READINGS[:3] if ranged else READINGS[:2]
    key = ("ranged" if ranged else "sight",) + tuple(rules[n] for n in names)

    def _judge(t: Terrain) -> Callable[[int, int, int], bool]:
        return judge_elements(rules, barrier_borders_of(t), barrier_spaces_of(t),
                        terrain_obstacles(t) if ranged else None)

    def _build(t: Terrain) -> int:
        geo, judge = geometry(t), _judge(t)
        if not ranged:
            return _bits(geo.position(*e) for e in geo.elements() if judge(*e))
        obstacle, corners = terrain_obstacles(t), []
        for x, y in geo.spaces:
            if obstacle((x, y)):
                corners += [(2 * x + 1, 2 * y + 1, 0)] + [
                    (2 * x + dx, 2 * y + dy, plane) for dx in (0, 2) for dy in (0, 2)
                    for plane in (0, 1)]
        return mask_table(t, rules, False) | _bits(geo.position(*e) for e in corners if judge(*e))

    def _patch(old: int, t: Terrain) -> int:
        geo, judge, touched = geometry(t), _judge(t), _touched_elements(t)
        gone = _bits(geo.position(*e) for e in touched)
        return (old & ~gone) | _bits(geo.position(*e) for e in touched if judge(*e))
    return terrain.table(key, _build, _patch)


def ranged_mask(terrain: Terrain, rules: Rules, blocking: frozenset[Point]) -> int:
    """The plain-ranged blocked mask with the spaces ``blocking`` (units) as obstacles too.

    Only those spaces and their corners are judged again, kept per set of blocking spaces.
    """
    base = mask_table(terrain, rules, True)
    if not blocking:
        return base

    def _build() -> int:
        geo, spaces = geometry(terrain), terrain_obstacles(terrain)
        judge = judge_elements(rules, barrier_borders_of(terrain), barrier_spaces_of(terrain),
                               lambda p: p in blocking or spaces(p))
        touched = [(2 * x + 1, 2 * y + 1, 0) for x, y in blocking] + [
            (2 * x + dx, 2 * y + dy, plane) for x, y in blocking for dx in (0, 2)
            for dy in (0, 2) for plane in (0, 1)]
        return base | _bits(geo.position(*e) for e in touched if judge(*e))
    return terrain.recent(("ranged units", tuple(rules[n] for n in READINGS[:3]), blocking), _build)


class BlockedBoxes:
    """Counts of blocked elements over boxes of the doubled grid (2D prefix sums), to decide a
    whole run of targets at once."""

    def __init__(self, geo: _Geometry, mask: int):
        f = geo.frame
        S, P = f._stride, f._plane
        rows = 2 * f.height + 1
        grid = [0] * (S * rows)
        bits = bin(mask)[:1:-1]
        for k, bit in enumerate(bits):
            if bit == "1":
                grid[k % P] = 1
        width = S + 1
        sums = [0] * (width * (rows + 1))
        for y in range(rows):
            run, row, above = 0, (y + 1) * width, y * width
            for x in range(S):
                run += grid[y * S + x]
                sums[row + x + 1] = sums[above + x + 1] + run
        self.geo, self.mask, self.sums, self.width = geo, mask, sums, width
        xs = [p[0] for p in geo.spaces]
        self.column = {x: (bisect_left(xs, x), bisect_right(xs, x)) for x in set(xs)}
        self.columns = sorted(self.column)

    def _count(self, x0: int, y0: int, x1: int, y1: int) -> int:
        """Blocked elements with relative doubled x0 <= X <= x1, y0 <= Y <= y1."""
        s, w = self.sums, self.width
        return s[(y1 + 1) * w + x1 + 1] - s[y0 * w + x1 + 1] - s[(y1 + 1) * w + x0] + s[y0 * w + x0]

    def row(self, a: Point, i: int) -> int:
        """The bits ``j > i`` of the spaces whose line from ``a = spaces[i]`` is clear."""
        geo, f = self.geo, self.geo.frame
        spaces = geo.spaces
        cx, cy = 2 * (a[0] - f.x0) + 1, 2 * (a[1] - f.y0) + 1
        out, blocked = 0, None
        todo = [(i + 1, self.column[a[0]][1])]
        later = bisect_right(self.columns, a[0])
        if later < len(self.columns):
            todo.append((self.column[self.columns[later]][0], len(spaces)))
        while todo:
            lo, hi = todo.pop()
            if lo >= hi:
                continue
            first, last = spaces[lo], spaces[hi - 1]
            ys = (first[1], last[1]) if first[0] == last[0] else (0 + f.y0, f.y0 + f.height - 1)
            bx0, bx1 = min(cx, 2 * (first[0] - f.x0) + 1), max(cx, 2 * (last[0] - f.x0) + 1)
            by0 = min(cy, 2 * (min(ys) - f.y0) + 1)
            by1 = max(cy, 2 * (max(ys) - f.y0) + 1)
            if not self._count(bx0, by0, bx1, by1):
                out |= ((1 << (hi - lo)) - 1) << lo
            elif last[0] - first[0] >= _RUN_COLUMNS:
                mid = self.column[(first[0] + last[0] + 1) // 2][0] if \
                    (first[0] + last[0] + 1) // 2 in self.column else (lo + hi) // 2
                todo += [(lo, mid), (mid, hi)]
            else:
                if blocked is None:
                    blocked = self.mask << geo.centre[a]
                order = geo.order
                for t in geo.clear_shifted(blocked, a, lo, hi):
                    out |= 1 << order[t]
        return out


_RUN_COLUMNS = 16
"""Runs of targets narrower than this many columns are tested one by one."""
