"""Run ``main()`` of every ``benchmarks/bench_*.py`` in name order and print their figures."""

from __future__ import annotations

import importlib
import pathlib


def main() -> None:
    for path in sorted(pathlib.Path(__file__).parent.glob("bench_*.py")):
        module = importlib.import_module(f"benchmarks.{path.stem}")
        print(f"== {path.stem} ==")
        module.main()
        print()


if __name__ == "__main__":
    main()
