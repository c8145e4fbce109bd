"""Benchmark: ruling sensitivity of a 20x20 situation with 4 units (target <= 2 s).

Run ``python -m benchmarks.bench_analysis`` (or call :func:`main`). Prints the time of
:func:`machina_nb.rules.analysis.sensitivity.sensitivity` on the shipped
``hall_20x20`` situation (8 questions, a whole monster turn among them):

* **cold**: in a fresh interpreter, importing the analysis wing, loading the situation and
  the first sensitivity (the board's step and sight tables are built on first use) — what a
  user waits for the first time. Each figure is the median of three fresh interpreters;
* **warm**: the median of repeats in one process (the tables and plans cached).

It also reports whether sympy was imported on the way: the euclidean reading of
``nearest.metric`` is an exact square root without it (``distance.SquareRoot``); sympy alone
costs about 1.4 s CPU to import here.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time

from machina_nb.rules.analysis.sensitivity import sensitivity, switches_read
from machina_nb.rules.analysis.situation import load_situation
from machina_nb.rules.content import content_root

TARGET_S = 2.0
RUNS = 3

_COLD = """
import json, sys, time
c0 = time.process_time()
from machina_nb.rules.analysis.sensitivity import sensitivity
from machina_nb.rules.analysis.situation import load_situation
from machina_nb.rules.content import content_root
imported = time.process_time() - c0
situation = load_situation(content_root() / "situations" / "hall_20x20.toml")
c1 = time.process_time()
sensitivity(situation)
first = time.process_time() - c1
print(json.dumps({"imports": imported, "first": first, "total": time.process_time() - c0,
                  "sympy": "sympy" in sys.modules}))
"""


def cold_runs() -> list[dict]:
    """The cold figures (CPU seconds) of :data:`RUNS` fresh interpreters."""
    out = []
    for _ in range(RUNS):
        done = subprocess.run([sys.executable, "-c", _COLD], capture_output=True, text=True,
                              check=True)
        out.append(json.loads(done.stdout))
    return out


def main() -> None:
    """Print the sensitivity timings (cold in fresh interpreters, then warm) against the target."""
    cold = cold_runs()
    situation = load_situation(content_root() / "situations" / "hall_20x20.toml")
    found = sensitivity(situation)
    warm = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        sensitivity(situation)
        warm.append(time.perf_counter() - t0)
    read = set().union(*(seen for _, seen in switches_read(situation, situation.rules())))

    def median(key):
        return statistics.median(run[key] for run in cold)

    total = median("total")
    print(f"sensitivity, 20x20 situation, 4 units, {len(situation.questions)} questions: "
          f"cold {total:.2f} s CPU (imports {median('imports'):.2f} s + first sensitivity "
          f"{median('first'):.2f} s; sympy imported: "
          f"{'yes' if any(run['sympy'] for run in cold) else 'no'}), warm median "
          f"{statistics.median(warm):.3f} s; {len(read)} switches read, {len(found)} change an "
          f"answer (target <= {TARGET_S} s cold: {'met' if total <= TARGET_S else 'MISSED'})")


if __name__ == "__main__":
    main()
