"""Board speed at scale: big open boards, a melee check on 300x300, and how
sight, closest and the monster phase grow from 20x20 to 80x80.

Rows with a target print the figure, the target and whether it is met; the
networkx peer runs the same *closest* search on the same view of the board
(breadth first, answers asserted equal). The numpy all-pairs reference of
``bench_board`` needs memory ~ pairs x segment length, so it runs on 20x20 only. The
monster phase of the scaling table runs in a fresh interpreter per size
(:func:`benchmarks.bench_engine.phase_figures`), so its cold figure is a board never seen
and no other benchmark's boards weigh on it.

Targets on the 2-core machine: ``visible_pairs`` on an open 80x80 board <= 10 s
and <= 300 MB of Python allocations (tracemalloc peak); one melee check on a
300x300 board <= 10 ms (work proportional to the question). Without a target, in the
same spirit: a monster phase on an open 200x200 board with the monster near the explorer.
"""

from __future__ import annotations

import gc
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import replace

import networkx as nx

from benchmarks.bench_board import print_rows
from benchmarks.bench_engine import CLAW, phase_figures
from machina_nb.rules.board import sight, terrain
from machina_nb.rules.board.distance import closest, closest_paths, closest_view
from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.maptext import BorderKind, SpaceKind, parse_map
from machina_nb.rules.board.sight import visible_from, visible_pairs
from machina_nb.rules.cards.units import UnitCard
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.state import MonsterTurn
from machina_nb.rules.rulings import Rules

SIZES = (20, 40, 80)
EXPLORERS = {"A": (2, 2), "B": (17, 3), "C": (4, 16), "P": (15, 15)}
MONSTERS = {"M": (10, 8), "N": (15, 7), "O": (6, 9), "Q": (3, 12), "R": (5, 15), "S": (15, 17),
            "T": (18, 18), "V": (7, 6)}


def open_text(side: int) -> str:
    """An open ``side`` x ``side`` board: floor everywhere, no inner border."""
    row = "|" + " ".join("." * side) + "|\n"
    return "+" + "-+" * side + "\n" + (row + "+" + " +" * side + "\n") * (side - 1) + row + \
        "+" + "-+" * side + "\n"


def walled_text(side: int, units: dict[str, tuple[int, int]], seed: int = 22) -> str:
    """10x10 tiles joined in a square, tile boundaries walls with 2-wide openings; inside, random
    walls (12%), open and closed doors (3% each), rubble, obstacles and pits; ``units`` on floor."""
    rng = random.Random(seed)
    at = {p: letter for letter, p in units.items()}

    def border(wall: str, on_boundary: bool, along: int) -> str:
        if on_boundary:
            return " " if along % 10 in (3, 4) else wall
        roll = rng.random()
        return wall if roll < 0.12 else "d" if roll < 0.15 else "D" if roll < 0.18 else " "

    def space(p: tuple[int, int]) -> str:
        if p in at:
            return at[p]
        roll = rng.random()
        return "r" if roll < 0.06 else "c" if roll < 0.08 else "b" if roll < 0.10 else \
            "o" if roll < 0.12 else "."

    lines = ["+" + "-+" * side]
    for y in range(side):
        row = "|"
        for x in range(side):
            row += space((x, y)) + ("|" if x == side - 1 else border("|", x % 10 == 9, y))
        lines.append(row)
        if y < side - 1:
            lines.append("+" + "".join(border("-", y % 10 == 9, x) + "+" for x in range(side)))
    lines.append("+" + "-+" * side)
    return "\n".join(lines) + "\n"


def scaled(units: dict[str, tuple[int, int]], side: int) -> dict[str, tuple[int, int]]:
    return {letter: (x * side // 20, y * side // 20) for letter, (x, y) in units.items()}


def timed(call: Callable[[], object], repeat: int) -> tuple[float, object]:
    """Median seconds of ``repeat`` runs, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def fresh(board: Board) -> Board:
    """The same board with a terrain built anew (no tables): the first question on a new map."""
    return Board(board.terrain.rebased(), board.occupancy)


def peak_mb(call: Callable[[], object]) -> float:
    """Peak Python allocations of ``call`` in MB (tracemalloc)."""
    gc.collect()
    tracemalloc.start()
    try:
        call()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def open_pairs_rows(rules: Rules) -> list:
    rows = []
    for side in (40, 80):
        board = Board.from_layout(parse_map(open_text(side)))
        seconds, pairs = timed(lambda board=board: visible_pairs(fresh(board), rules), 3 if side == 40 else 1)
        mb = peak_mb(lambda board=board: visible_pairs(fresh(board), rules))
        target = 10.0 if side == 80 else None
        rows.append((f"visible_pairs, open {side}x{side}", seconds, target,
                     f"{len(pairs)} pairs; peak {mb:.0f} MB"
                     + (" (target <= 300 MB: " + ("met" if mb <= 300 else "MISSED") + ")"
                        if side == 80 else "")))
    return rows


def melee_rows(rules: Rules) -> list:
    side = 300
    start = time.perf_counter()
    board = Board.from_layout(parse_map(open_text(side))).with_unit((150, 150), "A") \
        .with_unit((151, 150), "M")
    built = time.perf_counter() - start
    checks = []
    for _ in range(5):  # each time on a terrain with no tables yet: the first question
        board = fresh(board)
        t0 = time.perf_counter()
        legal = terrain.adjacent(board, (150, 150), (151, 150), rules) and \
            sight.can_target(board, (150, 150), (151, 150), rules, "melee").legal
        checks.append(time.perf_counter() - t0)
    assert legal
    return [(f"one melee check on a {side}x{side} board", statistics.median(checks), 10e-3,
             f"first question on the map (adjacent + can_target); building the board "
             f"itself once: {built:.1f} s")]


def near_pair_state(side: int):
    """An open ``side`` x ``side`` board with one explorer in the middle and one monster 6
    spaces east and 3 south, at the monster phase; its board built already."""
    rows = open_text(side).splitlines()
    for letter, (x, y) in (("A", (side // 2, side // 2)), ("M", (side // 2 + 6, side // 2 + 3))):
        rows[1 + 2 * y] = rows[1 + 2 * y][:1 + 2 * x] + letter + rows[1 + 2 * y][2 + 2 * x:]
    legend = {"A": UnitCard("a", "A", "explorer", armor=3, will=3, health=9, stamina=5),
              "M": UnitCard("m0", "Monster", "monster", armor=2, will=2, health=3, stamina=5,
                            abilities=(CLAW,))}
    state = scenario("\n".join(rows) + "\n", legend)
    state.static_board()
    return replace(state, phase="monster", done=(), monster_turn=MonsterTurn(state.queue[0]))


def near_phase_rows() -> list:
    side = 200
    phase = phase_figures(make="benchmarks.bench_scale:near_pair_state", side=side)
    return [(f"monster phase, {side}x{side}, monster near explorer", phase["cold"], None,
             f"{phase['steps']} actions, first phase on the built board (CPU, fresh "
             f"interpreter); warm {phase['warm'] * 1e3:.2f} ms; distances searched only as "
             f"far as asked (7f69650, searching the whole board: about 2 s)")]


def monster_state(side: int):
    legend = {}
    for letter in EXPLORERS:
        legend[letter] = UnitCard(letter.lower(), letter, "explorer", armor=3, will=3, health=9,
                                  stamina=5)
    for i, letter in enumerate(MONSTERS):
        legend[letter] = UnitCard(f"m{i}", f"Monster {i}", "monster", armor=2, will=2,
                                  health=3, stamina=5, abilities=(CLAW,))
    units = scaled(EXPLORERS | MONSTERS, side)
    state = scenario(walled_text(side, units), legend)
    return replace(state, phase="monster", done=(), monster_turn=MonsterTurn(state.queue[0]))


def scaling_row(side: int, rules: Rules) -> tuple:
    units = scaled(EXPLORERS | {"M": MONSTERS["M"]}, side)
    legend = {letter: SpaceKind.FLOOR for letter in units}
    board = Board.from_layout(parse_map(walled_text(side, units), legend=legend))
    source, monster = units["A"], units["M"]
    goals = [units[e] for e in EXPLORERS]
    step = next(q for q in ((monster[0] + 1, monster[1]), (monster[0] - 1, monster[1]),
                            (monster[0], monster[1] + 1)) if q in board
                and board.space(q) is SpaceKind.FLOOR)
    door = next((p, (p[0] + 1, p[1])) for p in sorted(board) if p[0] > 5 and p[1] > 5
                and (p[0] + 1, p[1]) in board and board.border(p, (p[0] + 1, p[1])) is BorderKind.OPEN)
    flip = [0]

    def moved() -> Board:
        flip[0] ^= 1
        return board.with_unit(step if flip[0] else monster, "M")

    def closed() -> Board:
        flip[0] ^= 1
        return board.with_border(*door, BorderKind.DOOR_CLOSED if flip[0] else BorderKind.OPEN)

    def hunt(on: Board):
        start = on.units()["M"]
        ranking = closest(on, start, goals, rules)
        return ranking, next(iter(closest_paths(on, start, ranking.candidates[0], rules)))

    cold, _ = timed(lambda: visible_from(fresh(board), source, rules), 3)
    visible_from(board, source, rules)
    warm, _ = timed(lambda: visible_from(board, source, rules), 50)
    after_move, _ = timed(lambda: visible_from(moved(), source, rules), 30)
    after_door, _ = timed(lambda: visible_from(closed(), source, rules), 30)
    hunt(board)
    hunt_warm, (ranking, _) = timed(lambda: hunt(board), 30)
    hunt_moved, _ = timed(lambda: hunt(moved()), 30)
    view = closest_view(board, rules)

    def networkx_hunt():
        lengths = nx.single_source_shortest_path_length(view, monster)
        best = min(lengths[g] for g in goals if g in lengths)
        target = min(g for g in goals if lengths.get(g) == best)
        return best, nx.shortest_path(view, monster, target)
    peer, (best, _) = timed(networkx_hunt, 10)
    assert best == ranking.distance, "networkx and machina_nb disagree"
    phase = phase_figures(make="benchmarks.bench_scale:monster_state", side=side)
    return side, cold, warm, after_move, after_door, hunt_warm, hunt_moved, peer, \
        phase["cold"], phase["warm"]


def main() -> None:
    rules = Rules()
    rows = open_pairs_rows(rules) + melee_rows(rules) + near_phase_rows()
    print("big boards")
    print_rows(rows)
    print()
    print("scaling (walled boards of 10x10 tiles; ms, medians): single-source sight "
          "(new map / warm / after a unit moves / after a door closes), closest explorer + "
          "path (warm / after a unit moves / networkx on the same view), monster phase with "
          "8 monsters in a fresh interpreter (CPU: cold, a board never seen / warm, median of "
          "7 seeds)")
    print(f"{'side':>5} {'sight new':>10} {'warm':>7} {'moved':>7} {'door':>7} "
          f"{'closest':>8} {'moved':>7} {'networkx':>9} {'phase cold':>11} {'warm':>8}")
    rows = [scaling_row(side, rules) for side in SIZES]
    for row in rows:
        print(f"{row[0]:>5} " + " ".join(f"{v * 1e3:{w}.2f}" for v, w in zip(
            row[1:], (10, 7, 7, 7, 8, 7, 9, 11, 8))))
    small = rows[0]
    checks = [("sight warm, moved, door <= 1 ms", max(small[2:5]) <= 1e-3),
              ("closest + path warm, moved <= 1 ms", max(small[5:7]) <= 1e-3),
              ("monster phase cold <= 80 ms", small[8] <= 0.080),
              ("warm <= 20 ms", small[9] <= 0.020)]
    print(f"targets on {small[0]}x{small[0]} (bench_board, bench_engine): " + "; ".join(
        f"{name}: {'met' if ok else 'MISSED'}" for name, ok in checks))


if __name__ == "__main__":
    main()
