"""Benchmark: the monster phase with 8 mindless monsters on a 2x2-tile board (target <= 50 ms).

Run ``python -m benchmarks.bench_engine`` (or call :func:`main`). Prints the
time of a whole monster phase — every monster's turn stepped through
``legal_actions`` / ``apply`` as a player would — first on a cold cache (a
board never seen), then the median of warm repeats.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import replace

from machina_nb.rules.cards.abilities import Ability, Cost, Effect, Targeting
from machina_nb.rules.engine.actions import apply, legal_actions
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.chance import SeededDice
from machina_nb.rules.rulings import Rules
from machina_nb.rules.engine.state import MonsterTurn
from machina_nb.rules.cards.units import UnitCard

TARGET_MS = 50

UNITS = {"A": (0, 0), "B": (17, 1), "C": (2, 14), "P": (17, 10),
         "M": (4, 4), "N": (15, 7), "O": (6, 9), "Q": (3, 12), "R": (5, 15), "S": (15, 16),
         "T": (18, 18), "V": (7, 6)}


def map_text() -> str:
    """A 20x20 board (2x2 tiles of 10): walls with doors between the quarters, rubble, a pit."""
    size = 20
    space = [["."] * size for _ in range(size)]
    for x, y in ((3, 2), (4, 2), (14, 3), (13, 13), (4, 17), (5, 17)):
        space[y][x] = "r"
    space[7][2] = "o"
    for letter, (x, y) in UNITS.items():
        space[y][x] = letter
    west = {(10, y): "|" for y in range(size)}            # border west of (x, y)
    west.update({(10, 2): "d", (10, 9): "d", (10, 15): "D"})
    north = {(x, 10): "-" for x in range(size)}           # border north of (x, y)
    north.update({(2, 10): "d", (13, 10): "D", (18, 10): " "})
    lines = ["+" + "-+" * size]
    for y in range(size):
        lines.append("|" + "".join(space[y][x] + (west.get((x + 1, y), " ") if x + 1 < size
                                                  else "|") for x in range(size)))
        if y + 1 < size:
            lines.append("+" + "".join(north.get((x, y + 1), " ") + "+" for x in range(size)))
    lines.append("+" + "-+" * size)
    return "\n".join(lines) + "\n"


CLAW = Ability("Claw", Cost(stamina=2), Targeting("melee"), (Effect("attack", high=1, low=1),))


def monster_phase_state():
    """Four explorers and eight monsters at the start of the monster phase."""
    legend = {}
    for letter in "ABCP":
        legend[letter] = UnitCard(letter.lower(), letter, "explorer", armor=3, will=3, health=9,
                                  stamina=5)
    for i, letter in enumerate("MNOQRSTV"):
        legend[letter] = UnitCard(f"m{i}", f"Monster {i}", "monster", armor=2, will=2,
                                  health=3, stamina=5, abilities=(CLAW,))
    state = scenario(map_text(), legend)
    return replace(state, phase="monster", done=(), monster_turn=MonsterTurn(state.queue[0]))


def run_phase(state, rules, seed=0):
    """Step the whole monster phase; returns the number of actions applied."""
    dice = SeededDice(seed)
    steps = 0
    while state.phase == "monster":
        state, _ = apply(state, legal_actions(state, rules)[0], rules, dice)
        steps += 1
    return steps


def main() -> None:
    """Print the monster-phase timings (cold, then the warm median) against the target."""
    rules = Rules()
    state = monster_phase_state()
    monsters = len(state.queue)
    t0 = time.perf_counter()
    steps = run_phase(state, rules)
    cold = (time.perf_counter() - t0) * 1000
    warm, cpu = [], []
    for seed in range(7):
        t0, c0 = time.perf_counter(), time.process_time()
        run_phase(state, rules, seed)
        warm.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    median = statistics.median(warm)
    print(f"monster phase, {monsters} monsters on a 2x2-tile (20x20) board, {steps} actions: "
          f"cold {cold:.1f} ms, warm median {median:.1f} ms wall / "
          f"{statistics.median(cpu):.1f} ms CPU "
          f"(target <= {TARGET_MS} ms: {'met' if median <= TARGET_MS else 'MISSED'})")
    walking = rules.replace({"closer.metric": "true_path_length"})
    times = []
    for seed in range(3):
        t0 = time.perf_counter()
        run_phase(state, walking, seed)
        times.append((time.perf_counter() - t0) * 1000)
    print(f"the same under closer.metric = true_path_length (spec D46, no target): warm median "
          f"{statistics.median(times):.1f} ms wall")


if __name__ == "__main__":
    main()
