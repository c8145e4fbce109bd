"""Benchmark: the monster phase with 8 mindless monsters on a 20x20 board.

Run ``python -m benchmarks.bench_engine`` (or call :func:`main`). A whole monster phase is
stepped through ``legal_actions`` / ``apply`` as a player would, in a fresh interpreter each
time (figures are CPU milliseconds, medians of :data:`RUNS` interpreters):

* **cold**: the first phase on a board never seen (its step and sight tables are built);
* **warm**: the median of 7 phases with other seeds in the same interpreter (tables and plans
  kept).

The start-up garbage (imports, the state built) is collected before the clock starts: the
first full collection of it takes longer than a whole warm phase, and it would otherwise land
in whichever phase happens to cross the collector's threshold first.

Targets on the 2-core machine: warm <= 20 ms and cold <= 80 ms, each at least 2x faster than
the code before the monster-phase planning work (kept plans, one search per target),
measured in the same run: the phase of that code
(:data:`BASELINE`, taken out of git into a temporary folder) runs in interpreters alternating
with ours. ``MACHINA_BENCH_BASELINE`` names another commit, or a folder holding a checkout;
``none`` skips it. Under ``closer.metric = true_path_length`` the same phase must take at
most twice the default reading's time.
"""

from __future__ import annotations

import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from machina_nb.rules.cards.abilities import Ability, Cost, Effect, Targeting
from machina_nb.rules.cards.units import UnitCard
from machina_nb.rules.engine.actions import apply, legal_actions
from machina_nb.rules.engine.chance import SeededDice
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.state import MonsterTurn

WARM_MS, COLD_MS, RATIO, WALKING = 20, 80, 2.0, 2.0
RUNS = 5
BASELINE = "7f69650"
"""main before the monster-phase planning work: the code the ratio is measured against."""
ROOT = Path(__file__).resolve().parents[1]

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


_PHASE = """
import gc, importlib, json, statistics, sys, time
import machina_nb
from benchmarks.bench_engine import run_phase
from machina_nb.rules.rulings import Rules
module, function, side, metric = sys.argv[1:]
make = getattr(importlib.import_module(module), function)
state = make(int(side)) if side else make()
rules = Rules().replace({"closer.metric": metric})
gc.collect()
c0 = time.process_time()
steps = run_phase(state, rules)
cold = time.process_time() - c0
warm = []
for seed in range(7):
    c0 = time.process_time()
    run_phase(state, rules, seed)
    warm.append(time.process_time() - c0)
print(json.dumps({"cold": cold, "warm": statistics.median(warm), "steps": steps,
                  "code": machina_nb.__file__}))
"""


def phase_figures(code: Path = ROOT, metric: str = "closest_distance",
                  make: str = "benchmarks.bench_engine:monster_phase_state",
                  side: int | None = None) -> dict:
    """One fresh interpreter running the monster phase of ``make`` (``module:function``, given
    ``side`` if any) with the machina_nb found in ``code``: cold and warm CPU seconds."""
    module, function = make.split(":")
    env = dict(os.environ, PYTHONPATH=str(ROOT))    # benchmarks from here, machina_nb from code
    done = subprocess.run([sys.executable, "-c", _PHASE, module, function,
                           "" if side is None else str(side), metric],
                          cwd=code, env=env, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError((done.stderr.strip().splitlines() or ["no output"])[-1])
    figures = json.loads(done.stdout)
    if not Path(figures["code"]).resolve().is_relative_to(code.resolve()):
        raise RuntimeError(f"ran {figures['code']}, not the code in {code}")
    return figures


@contextmanager
def baseline_code(ref: str) -> Iterator[Path]:
    """A folder holding ``machina_nb`` and ``content`` of ``ref``: a checkout folder as it is,
    or a commit taken out of git into a temporary folder (removed afterwards)."""
    if Path(ref).is_dir():
        yield Path(ref)
        return
    done = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", ref, "machina_nb",
                           "content"], capture_output=True)
    if done.returncode:
        raise RuntimeError(done.stderr.decode(errors="replace").strip() or "git archive failed")
    with tempfile.TemporaryDirectory(prefix="machina_baseline_") as folder:
        with tarfile.open(fileobj=io.BytesIO(done.stdout)) as tar:
            tar.extractall(folder, filter="data")
        yield Path(folder)


def _medians(runs: list[dict]) -> dict:
    return {key: statistics.median(run[key] for run in runs) * 1000 for key in ("cold", "warm")}


def measure(ref: str | None) -> tuple[dict, str]:
    """Medians (ms) per (code, reading) over :data:`RUNS` rounds of fresh interpreters, ours and
    the baseline's alternating; and a note on the baseline (why it is missing, if it is)."""
    readings = ("closest_distance", "true_path_length")
    runs: dict[tuple[str, str], list[dict]] = {}
    note = "" if ref else "baseline skipped (MACHINA_BENCH_BASELINE=none)"
    with _maybe_baseline(ref) as (base, why):
        note = note or why
        codes = [("ours", ROOT)] + ([("before", base)] if base else [])
        for _ in range(RUNS):
            for label, code in codes:
                for metric in readings:
                    try:
                        runs.setdefault((label, metric), []).append(phase_figures(code, metric))
                    except RuntimeError as exc:
                        if label == "ours":
                            raise
                        note, codes = f"the baseline failed: {exc}", codes[:1]
                        break
    return {key: _medians(found) | {"steps": found[0]["steps"]} for key, found in runs.items()
            if len(found) == RUNS}, note


@contextmanager
def _maybe_baseline(ref: str | None) -> Iterator[tuple[Path | None, str]]:
    if not ref:
        yield None, ""
        return
    try:
        with baseline_code(ref) as base:
            yield base, f"the code before: {ref}"
    except (RuntimeError, OSError) as exc:
        yield None, f"ratio not measured: no baseline {ref} ({exc})"


def main() -> None:
    """Print the monster phase's figures against their targets, with the ratio to the baseline."""
    ref = os.environ.get("MACHINA_BENCH_BASELINE", BASELINE)
    found, note = measure(None if ref.lower() == "none" else ref)
    ours, before = found[("ours", "closest_distance")], found.get(("before", "closest_distance"))
    walking = found[("ours", "true_path_length")]
    print(f"monster phase, 8 monsters on a 20x20 board, {ours['steps']} actions; CPU ms, "
          f"medians of {RUNS} fresh interpreters; {note}")
    print(f"{'work':<44}{'ours':>8}{'before':>8}{'ratio':>7}  {'target':<26}met")
    for kind, limit in (("warm", WARM_MS), ("cold", COLD_MS)):
        ratio = before[kind] / ours[kind] if before else None
        met = ours[kind] <= limit and (ratio is None or ratio >= RATIO)
        print(f"{kind + (' (7 seeds, tables kept)' if kind == 'warm' else ' (a board never seen)'):<44}"
              f"{ours[kind]:>8.1f}{_shown(before, kind):>8}"
              f"{'-' if ratio is None else f'{ratio:.2f}x':>7}  "
              f"{f'<= {limit} ms, >= {RATIO:g}x before':<26}"
              f"{('yes' if met else 'NO') + ('' if before else ' (ratio not measured)')}")
    old = found.get(("before", "true_path_length"))
    for kind in ("warm", "cold"):
        times = walking[kind] / ours[kind]
        print(f"{f'closer.metric = true_path_length, {kind}':<44}{walking[kind]:>8.1f}"
              f"{_shown(old, kind):>8}{'-' if not old else f'{old[kind] / walking[kind]:.2f}x':>7}  "
              f"{f'<= {WALKING:g}x default ({times:.2f}x)':<26}{'yes' if times <= WALKING else 'NO'}")


def _shown(figures: dict | None, kind: str) -> str:
    return "-" if figures is None else f"{figures[kind]:.1f}"


if __name__ == "__main__":
    main()
