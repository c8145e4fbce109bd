"""Benchmark: ruling sensitivity of a 20x20 situation with 4 units (target <= 2 s).

Run ``python -m benchmarks.bench_analysis`` (or call :func:`main`). Prints the time of
:func:`machina_nb.rules.analysis.sensitivity.sensitivity` on the shipped
``hall_20x20`` situation (8 questions, a whole monster turn among them): first cold
(the first sensitivity in the process, after sympy is imported: the euclidean reading of
``nearest.metric`` imports it once, a one-time cost printed separately), then the median of
warm repeats (the board caches filled), and how many switches the traced first pass read.
"""

from __future__ import annotations

import importlib
import statistics
import time

from machina_nb.rules.analysis.sensitivity import sensitivity, switches_read
from machina_nb.rules.analysis.situation import load_situation
from machina_nb.rules.content import content_root

TARGET_S = 2.0


def main() -> None:
    """Print the sensitivity timings (cold, then the warm median) against the target."""
    situation = load_situation(content_root() / "situations" / "hall_20x20.toml")
    t0 = time.process_time()
    importlib.import_module("sympy")
    sympy_cpu = time.process_time() - t0
    t0, c0 = time.perf_counter(), time.process_time()
    found = sensitivity(situation)
    cold, cold_cpu = time.perf_counter() - t0, time.process_time() - c0
    warm = []
    for _ in range(3):
        t0 = time.perf_counter()
        sensitivity(situation)
        warm.append(time.perf_counter() - t0)
    read = set().union(*(seen for _, seen in switches_read(situation, situation.rules())))
    median = statistics.median(warm)
    print(f"sensitivity, 20x20 situation, 4 units, {len(situation.questions)} questions: "
          f"cold {cold:.2f} s wall / {cold_cpu:.2f} s CPU, warm median {median:.2f} s; "
          f"{len(read)} switches read, {len(found)} change an answer; importing sympy once "
          f"{sympy_cpu:.2f} s CPU "
          f"(target <= {TARGET_S} s: {'met' if cold <= TARGET_S else 'MISSED'})")


if __name__ == "__main__":
    main()
