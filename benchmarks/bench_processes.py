"""The exact rating processes at scale: each figure with its target and whether met.

Rows:

* ``play_rounds`` 1.0 and 3.5, 4 explorers, 20 rounds (spawn rating 6, horror rating 5, a
  blocking chapter: the processes view's question), with every marginal the view reads;
  target <= 1 s. Measured on the first implementation (one joint chain rebuilt per roll,
  now ``tests/reference_processes.py``): about 26 s, 256,766 outcomes.
* ``spawn_chain(9, 8, 200)``: target <= 2 s, or refused at a documented limit in < 1 s
  (before: > 60 s, memory growing).
* the edge of every limit in ``machina_nb.rules.odds.processes`` (the longest chains each
  limit lets through), and the CLI's ``machina spawn --rating 9 --horror 9 --explorers 8
  --rounds 50``: target <= 10 s each.
* listing the joint distribution of the 4-explorer, 20-round question (informational: the
  view and the CLI read marginals only).

Each row is the best of a few runs; a refusal row times the refusal. The target is
checked on CPU seconds of this process; the wall clock is printed beside it (on a
shared machine it also counts the other work running).
"""

from __future__ import annotations

import time

from machina_nb.rules.errors import RulesError
from machina_nb.rules.odds import processes
from machina_nb.rules.odds.processes import ChapterRatings, Party, Setup, marginal, play_rounds
from machina_nb.rules.rulings import Rules

MANUAL, V35 = Rules(), Rules.preset("v3_5")
VIEW_FIELDS = ("spawned", "invoked", "threat", "level", "first_level_up")


def _view_question(rules: Rules, explorers: int, rounds: int, rating: int = 6,
                   horror: int = 5, full: int = 0):
    setup = Setup((ChapterRatings(rating, horror, True),),
                  Party(explorers, full_tiles=tuple(i < full for i in range(explorers))))
    result = play_rounds(setup, rules, rounds)
    return result, [marginal(result, field) for field in VIEW_FIELDS]


def _most_joint_rounds(rules: Rules, explorers: int, full: int) -> int:
    setup = Setup((ChapterRatings(9, 9, True),),
                  Party(explorers, full_tiles=tuple(i < full for i in range(explorers))))
    chain = processes.round_chain._Chain(setup, rules)
    return max(t for t in range(1, processes.MAX_ROUNDS + 1)
               if processes.round_chain._joint_size(chain, t) <= processes.MAX_JOINT_SIZE)


def _rows():
    listed = _view_question(MANUAL, 4, 20)[0]
    reset = V35.replace({"spawn35.reset_on_success": "yes"})
    joint_shapes = [(MANUAL, 4, 4), (MANUAL, 8, 8), (MANUAL, 2, 2), (MANUAL, 1, 1),
                    (reset, 1, 1), (reset, 1, 0), (reset, 4, 0)]
    rows = [
        ("play_rounds 1.0, 4 explorers, 20 rounds", 1.0, False,
         lambda: _view_question(MANUAL, 4, 20)),
        ("play_rounds 3.5, 4 explorers, 20 rounds", 1.0, False,
         lambda: _view_question(V35, 4, 20)),
        ("spawn_chain(9, 8, 200)", 2.0, True,
         lambda: processes.spawn_chain(9, 8, 200, MANUAL)),
        ("CLI spawn r9 h9, 8 explorers, 50 rounds", 10.0, True,
         lambda: _view_question(MANUAL, 8, 50, 9, 9)),
        ("edge MAX_SPAWN_ROLLS: spawn_chain(9, 8, 50)", 10.0, False,
         lambda: processes.spawn_chain(9, 8, 50, MANUAL)),
        ("edge MAX_HORROR_ROUNDS: r9 h9, 6 expl., 60 rnd", 10.0, False,
         lambda: _view_question(MANUAL, 6, 60, 9, 9)),
        ("view worst: 1.0 + 3.5, 4 expl., 60 rnd, r9 h9", 10.0, False,
         lambda: [_view_question(r, 4, 60, 9, 9) for r in (MANUAL, V35)]),
    ]
    for rules, explorers, full in joint_shapes:
        most = _most_joint_rounds(rules, explorers, full)
        name = "1.0" if rules is MANUAL else "3.5 reset"
        rows.append((f"edge MAX_JOINT_SIZE: {name}, {full}/{explorers} full, {most} rnd", 10.0,
                     False, lambda r=rules, e=explorers, f=full, m=most:
                     _view_question(r, e, m, 9, 9, f)))
    rows.append((f"list the joint of the 4 x 20 question ({len(listed)})", None, False,
                 lambda: processes.RoundDistribution(listed._parts).joint()))
    return rows


def _time(run, repeats: int) -> tuple[float, float, str]:
    """Best CPU seconds and best wall seconds over ``repeats`` runs, and what came of it."""
    cpu, wall, outcome = float("inf"), float("inf"), "answered"
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        try:
            run()
        except RulesError as exc:
            outcome = f"refused ({exc})"
        cpu = min(cpu, time.process_time() - start_cpu)
        wall = min(wall, time.perf_counter() - start)
    return cpu, wall, outcome


def main() -> None:
    header = f"{'work':<50}{'cpu s':>8}{'wall s':>8}{'target':>8}  met  outcome"
    print(header)
    print("-" * len(header))
    missed = []
    for name, target, refusal_counts, run in _rows():
        seconds, wall, outcome = _time(run, 3 if target is not None and target <= 2 else 1)
        if target is None:
            met, shown = "-", "-"
        else:
            refused = outcome.startswith("refused")
            ok = seconds <= (1.0 if refused else target) and (refusal_counts or not refused)
            met, shown = ("yes" if ok else "NO"), f"<={target:g}"
            if not ok:
                missed.append(name)
        print(f"{name:<50}{seconds:>8.3f}{wall:>8.3f}{shown:>8}  {met:<4} {outcome[:90]}")
    print("targets are met on CPU seconds (the wall clock also counts other work sharing the "
          "machine): " + ("all met" if not missed else f"missed on {'; '.join(missed)}"))


if __name__ == "__main__":
    main()
