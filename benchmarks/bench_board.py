"""Board speed figures on a 2x2-tile board (20x20 spaces with walls, doors, rubble, obstacles, units).

Prints single-source visibility, all-pairs line of sight side by side with a
vectorised numpy implementation of the same exact rule (answers asserted
equal), the closest explorer plus a path for a monster, and reach within
stamina. Run with ``python -m benchmarks`` (``make bench``).

Targets on the 2-core machine (issues 3 and 16): single source <= 1 ms, also right
after a unit moves and after a door closes (a new board value each time: the
monster steps to and fro, a door closes and opens); all pairs within 1.3x of
numpy; closest + path <= 1 ms, also right after a unit moves. Bigger boards:
``bench_scale``.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

import numpy as np

from machina_nb.rules.board.distance import Mover, closest, closest_paths, reach
from machina_nb.rules.board.graph import BARRIER_BORDERS, BARRIER_SPACES, Board
from machina_nb.rules.board.maptext import BorderKind, SpaceKind, parse_map
from machina_nb.rules.board.sight import visible_from, visible_pairs
from machina_nb.rules.rulings import Rules

SIDE = 20
EXPLORERS = {"A": (2, 2), "B": (17, 3), "C": (4, 16), "D": (15, 15)}
MONSTER = ("M", (10, 8))


def board_text(seed: int = 22) -> str:
    """Four 10x10 tiles joined in a 2x2 square: tile boundaries are walls with two 2-wide openings.

    Inside each tile: random walls (12%), open and closed doors (3% each), rubble (6%), other
    obstacles (4%) and pits (2%); the units of :data:`EXPLORERS` and :data:`MONSTER` on floor.
    """
    rng = random.Random(seed)
    units = {p: letter for letter, p in EXPLORERS.items()} | {MONSTER[1]: MONSTER[0]}
    openings = {3, 4, 14, 15}

    def border(wall: str, on_boundary: bool, along: int) -> str:
        if on_boundary:
            return " " if along in openings else wall
        roll = rng.random()
        return wall if roll < 0.12 else "d" if roll < 0.15 else "D" if roll < 0.18 else " "

    def space(p: tuple[int, int]) -> str:
        if p in units:
            return units[p]
        roll = rng.random()
        return "r" if roll < 0.06 else "c" if roll < 0.08 else "b" if roll < 0.10 else \
            "o" if roll < 0.12 else "."

    lines = ["+" + "-+" * SIDE]
    for y in range(SIDE):
        row = "|"
        for x in range(SIDE):
            row += space((x, y))
            row += "|" if x == SIDE - 1 else border("|", x == 9, y)
        lines.append(row)
        if y < SIDE - 1:
            lines.append("+" + "".join(border("-", y == 9, x) + "+" for x in range(SIDE)))
    lines.append("+" + "-+" * SIDE)
    return "\n".join(lines) + "\n"


def make_board() -> Board:
    legend = {letter: SpaceKind.FLOOR for letter in [*EXPLORERS, MONSTER[0]]}
    return Board.from_layout(parse_map(board_text(), legend=legend))


# --- the same exact rule, vectorised with numpy --------------------------------------------------------


def numpy_events(width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """Per offset (dx, dy): the relative doubled-grid indices the segment meets, padded.

    Found from the grid-line crossings in exact integers (not the library's walk):
    on the vertical line at odd relative X the segment is at Y = X*dy/dx; an odd
    integer Y is a vertex, otherwise the border whose midpoint is the nearest
    even Y; each crossing's two neighbouring spaces are entered (ends excluded).
    """
    S = 2 * width + 1
    plane = S * (2 * height + 1)
    rows = []
    for dy in range(-height + 1, height):
        for dx in range(-width + 1, width):
            events = set()
            ends = {(0, 0), (2 * dx, 2 * dy)}
            for a, b, swap in ((dx, dy, False), (dy, dx, True)):  # vertical, then horizontal lines
                sa = 1 if a > 0 else -1
                for X in range(sa, 2 * a, 2 * sa) if a else ():
                    num, den = X * b, a
                    if num % den == 0 and (num // den) % 2:  # odd integer: a lattice vertex
                        Y = num // den
                        x, y = (Y, X) if swap else (X, Y)
                        events.add((x, y, 1 if dx * dy < 0 else 0))
                        sx, sy = (1 if dx > 0 else -1), (1 if dy > 0 else -1)
                        cells = ((x - sx, y - sy), (x + sx, y + sy))
                    else:
                        Y = 2 * ((num + den) // (2 * den)) if den > 0 else 2 * ((-num - den) // (-2 * den))
                        x, y = (Y, X) if swap else (X, Y)
                        events.add((x, y, 0))
                        cells = ((Y, X - 1), (Y, X + 1)) if swap else ((X - 1, Y), (X + 1, Y))
                    events.update((cx, cy, 0) for cx, cy in cells if (cx, cy) not in ends)
            rows.append(sorted(x + y * S + p * plane for x, y, p in events))
    longest = max(len(r) for r in rows)
    index = np.zeros((len(rows), longest), dtype=np.int64)
    valid = np.zeros((len(rows), longest), dtype=bool)
    for i, r in enumerate(rows):
        index[i, :len(r)] = r
        valid[i, :len(r)] = True
    return index, valid


def numpy_blocked(board: Board, rules: Rules) -> np.ndarray:
    """The blocked flags of every border, space and vertex (two planes), vectorised (rulings D1, D2)."""
    W = H = SIDE
    cells = np.ones((H + 2, W + 2), dtype=bool)  # padded: off the map is a barrier
    for (x, y), kind in board.terrain.graph.nodes(data="kind"):
        cells[y + 1, x + 1] = kind in BARRIER_SPACES
    vb = np.ones((H + 2, W + 1), dtype=bool)  # vb[y+1, x]: border west of (x, y)
    hb = np.ones((H + 1, W + 2), dtype=bool)  # hb[y, x+1]: border north of (x, y)
    for y in range(H):
        for x in range(W + 1):
            vb[y + 1, x] = board.border((x - 1, y), (x, y)) in BARRIER_BORDERS
    for y in range(H + 1):
        for x in range(W):
            hb[y, x + 1] = board.border((x, y - 1), (x, y)) in BARRIER_BORDERS
    n, s = vb[0:H + 1, :], vb[1:H + 2, :]
    w, e = hb[:, 0:W + 1], hb[:, 1:W + 2]
    squeeze = rules["los.space_squeeze"] == "blocked"
    nw, ne = cells[0:H + 1, 0:W + 1] & squeeze, cells[0:H + 1, 1:W + 2] & squeeze
    sw, se = cells[1:H + 2, 0:W + 1] & squeeze, cells[1:H + 2, 1:W + 2] & squeeze
    reading = rules["los.vertex"]
    planes = []
    for side1, rays1, side2, rays2 in ((ne, n | e, sw, s | w), (nw, n | w, se, s | e)):
        if reading == "separating":
            planes.append((rays1 | side1) & (rays2 | side2))
        elif reading == "touch_ok":
            planes.append(side1 & side2)
        else:
            count = n.astype(int) + s + w + e + side1 + side2
            planes.append(count >= 2)
    grid = np.zeros((2, 2 * H + 1, 2 * W + 1), dtype=bool)
    grid[0, 1::2, 1::2] = cells[1:H + 1, 1:W + 1]
    grid[0, 1::2, 0::2] = vb[1:H + 1, :]
    grid[0, 0::2, 1::2] = hb[:, 1:W + 1]
    grid[0, 0::2, 0::2], grid[1, 0::2, 0::2] = planes
    return grid.ravel()


def numpy_visible_pairs(board: Board, rules: Rules, events: tuple[np.ndarray, np.ndarray]
                        ) -> set[tuple[tuple[int, int], tuple[int, int]]]:
    index, valid = events
    blocked = numpy_blocked(board, rules)
    spaces = sorted(board)
    xs = np.array([p[0] for p in spaces])
    ys = np.array([p[1] for p in spaces])
    i, j = np.triu_indices(len(spaces), k=1)
    offset = (xs[j] - xs[i] + SIDE - 1) + (ys[j] - ys[i] + SIDE - 1) * (2 * SIDE - 1)
    source = (2 * xs[i] + 1) + (2 * ys[i] + 1) * (2 * SIDE + 1)
    hit = blocked[source[:, None] + index[offset]] & valid[offset]
    clear = ~hit.any(axis=1)
    return {(spaces[a], spaces[b]) for a, b in zip(i[clear].tolist(), j[clear].tolist())}


# --- timing ----------------------------------------------------------------------------------------------


def timed(call: Callable[[], object], repeat: int) -> tuple[float, object]:
    """Median seconds of ``repeat`` runs, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def fresh(board: Board) -> Board:
    """The same board with a terrain built anew: no tables yet (the first question on a new map)."""
    return Board(board.terrain.rebased(), board.occupancy)


def first_open_border(board: Board) -> tuple[tuple[int, int], tuple[int, int]]:
    """An open border between two floor spaces away from the units: the door that will close."""
    for p in sorted(board):
        q = (p[0] + 1, p[1])
        if q in board and board.border(p, q) is BorderKind.OPEN and p[0] > 5 and p[1] > 5:
            return p, q
    raise AssertionError("no open border")


def alternating(make: Callable[[int], object]) -> Callable[[], object]:
    """A call that makes a new value each time (two alternating states, never the same object)."""
    count = [0]

    def call():
        count[0] += 1
        return make(count[0] % 2)
    return call


def main() -> None:
    board, rules = make_board(), Rules()
    source = EXPLORERS["A"]
    rows = []
    steps = ((11, 8), (10, 8))  # the monster steps to and fro: a unit moves
    door = first_open_border(board)

    def moved(i: int) -> Board:
        return board.with_unit(steps[i], MONSTER[0])

    def door_moved(i: int) -> Board:  # the door closes, or opens again
        return board.with_border(*door, BorderKind.DOOR_CLOSED if i else BorderKind.OPEN)

    visible_from(board, source, rules)
    warm, seen = timed(lambda: visible_from(board, source, rules), 200)
    after_move = alternating(lambda i: visible_from(moved(i), source, rules))
    after_door = alternating(lambda i: visible_from(door_moved(i), source, rules))
    moved_time, _ = timed(after_move, 50)
    door_time, _ = timed(after_door, 50)
    cold, _ = timed(lambda: visible_from(fresh(board), source, rules), 10)
    rows.append((f"single-source visibility ({len(board) - 1} targets)", warm, 1e-3,
                 f"{len(seen)} visible; first question on a new map {cold * 1e3:.2f} ms"))
    rows.append(("  the same right after a unit moves", moved_time, 1e-3,
                 "sight tables belong to the terrain: nothing to redo"))
    rows.append(("  the same right after a door closes", door_time, 1e-3,
                 "the terrain's masks patched at the door and its two ends"))

    events = numpy_events(SIDE, SIDE)
    visible_pairs(board, rules)
    ours_warm, ours = timed(lambda: visible_pairs(board, rules), 15)
    ours_cold, _ = timed(lambda: visible_pairs(fresh(board), rules), 15)
    theirs, reference = timed(lambda: numpy_visible_pairs(board, rules, events), 15)
    assert set(ours) == reference, "numpy and machina_nb disagree"
    pairs = len(board) * (len(board) - 1) // 2
    rows.append((f"all-pairs LOS ({pairs} pairs), machina_nb", ours_cold, 1.3 * theirs,
                 f"{len(ours)} visible; {ours_cold / theirs:.2f}x numpy "
                 f"(tables cached: {ours_warm * 1e3:.1f} ms; both build their blocked tables "
                 f"from the board each run)"))
    rows.append(("all-pairs LOS, numpy (same exact rule)", theirs, None, "answers equal"))

    def hunt(on: Board):
        goals = [p for u, p in on.units().items() if u != MONSTER[0]]
        start = on.units()[MONSTER[0]]
        ranking = closest(on, start, goals, rules)
        return ranking, next(iter(closest_paths(on, start, ranking.candidates[0], rules)))
    hunt(board)
    hunt_warm, (ranking, path) = timed(lambda: hunt(board), 200)
    hunt_moved, _ = timed(alternating(lambda i: hunt(moved(i))), 50)
    hunt_door, _ = timed(alternating(lambda i: hunt(door_moved(i))), 50)
    rows.append(("closest explorer + path for a monster", hunt_warm, 1e-3,
                 f"{ranking.candidates} at {ranking.distance}, path of {len(path) - 1} steps; "
                 f"{hunt_door * 1e3:.2f} ms after a door closes"))
    rows.append(("  the same right after a unit moves", hunt_moved, 1e-3,
                 "step lists belong to the terrain; units ignored by closest"))

    mover = Mover("A")
    reach(board, source, 6, rules, mover)
    reach_warm, spaces = timed(lambda: reach(board, source, 6, rules, mover), 200)
    reach_moved, _ = timed(alternating(lambda i: reach(moved(i), source, 6, rules, mover)), 50)
    rows.append(("reach within 6 stamina", reach_warm, None,
                 f"{len(spaces)} spaces; {reach_moved * 1e3:.2f} ms after a unit moves"))

    print(f"board {SIDE}x{SIDE} (2x2 tiles), rules: {rules.name}")
    print_rows(rows)


def print_rows(rows) -> None:
    """One line per figure: name, time, target, whether it is met, notes."""
    print(f"{'operation':<48} {'time':>10} {'target':>10}  met  notes")
    for name, seconds, target, note in rows:
        shown = f"{seconds * 1e3:.3f} ms"
        goal = f"{target * 1e3:.3f} ms" if target else "-"
        met = "-" if target is None else ("yes" if seconds <= target else "NO")
        print(f"{name:<48} {shown:>10} {goal:>10}  {met:<4} {note}")


if __name__ == "__main__":
    main()
