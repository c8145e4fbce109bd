"""Run ``main()`` of the ``benchmarks/bench_*.py`` modules in name order and print their figures.

``python -m benchmarks`` runs them all; ``python -m benchmarks odds processes`` runs only
``bench_odds`` and ``bench_processes``.
"""

from __future__ import annotations

import importlib
import pathlib
import sys


def main(names: list[str] | None = None) -> None:
    paths = sorted(pathlib.Path(__file__).parent.glob("bench_*.py"))
    known = [path.stem.removeprefix("bench_") for path in paths]
    unknown = [name for name in names or [] if name not in known]
    if unknown:
        raise SystemExit(f"unknown benchmark {', '.join(unknown)}; expected some of "
                         f"{', '.join(known)}")
    for path, name in zip(paths, known):
        if names and name not in names:
            continue
        module = importlib.import_module(f"benchmarks.{path.stem}")
        print(f"== {path.stem} ==")
        module.main()
        print()


if __name__ == "__main__":
    main(sys.argv[1:])
