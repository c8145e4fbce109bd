"""The rating processes: spawn (1.0 and 3.5), horror, monster threat and level, as exact chains.

Every round the Spawn phase rolls the d10 against the spawn rating for each
rolling explorer and the Horror phase rolls once against the horror rating
(manual p13-14). In 1.0 the spawn rating is a per-*roll* renewal chain; in
3.5 it is a countdown whose rolls do not move it and whose reaching 1 fires a
chapter timer (3.5 §Spawn Phase). Horror invokes and spawns at the 4-monster
limit raise monster threat, which levels the monsters up (manual p14).

:func:`play_rounds` follows all of this exactly: the state after each round is
a distribution over :class:`RoundSummary` values with :class:`~fractions.Fraction`
chances, under any :class:`~machina_nb.rules.rulings.Rules`. The closed
quantities (renewal times, long-run rates, the 3.5 cycle) have their own functions in
:mod:`~machina_nb.rules.odds.processes.closed_forms`; the round chain is
:mod:`~machina_nb.rules.odds.processes.round_chain`. This package gathers both.

Limits. Ratings (1-9, overrides -9..9), explorers (1-8) and threat positions (2-20)
are checked where they are given. Work that grows with the horizon is refused before
it starts, with a :class:`~machina_nb.rules.errors.RulesError` naming ``rounds`` and
the limit; within the limits a call takes seconds at most (``benchmarks/bench_processes.py``
times the edge of each):

* ``MAX_ROUNDS`` (100): rounds of :func:`play_rounds` and :func:`spawn_chain`;
* ``MAX_SPAWN_ROLLS`` (400): rolling explorers x rounds (the spawn chain's length);
* ``MAX_HORROR_ROUNDS`` (60): rounds with a horror rating;
* ``MAX_JOINT_SIZE`` (200,000): the size measure of a joint chain (spawns at a full
  tile that raise threat, or 3.5 spawns that move the timer); the error gives the most
  rounds that fit;
* ``MAX_OUTCOMES`` (300,000): outcomes listed when a :class:`RoundDistribution` is
  iterated (its marginals and look-ups have no limit).

>>> from machina_nb.rules.rulings import Rules
>>> adjusted_spawn_rating(8, 3)
6
>>> renewal_mean(2, Rules())
Fraction(61, 50)

Rules: manual p13 (spawn), manual p14 (horror, threat), 3.5 §Spawn Phase and FAQ,
rulings C-3, C-8, D23, D24, D25, D26, D27, D28, D29, D48.
"""

from __future__ import annotations

from machina_nb.rules.odds.processes.closed_forms import (
    ChapterRatings,
    CountdownCycle,
    EventSpaceRoll,
    Party,
    adjusted_spawn_rating,
    cards_removed,
    countdown_cycle,
    counted_explorers,
    event_space_roll,
    long_run_invokes,
    long_run_spawn_attempts,
    lower_threat,
    raise_threat,
    renewal_mean,
    renewal_pmf,
    roll_chance,
    rounds_per_level_up,
    surviving_copies,
)
from machina_nb.rules.odds.processes.round_chain import (
    MAX_HORROR_ROUNDS,
    MAX_JOINT_SIZE,
    MAX_OUTCOMES,
    MAX_ROUNDS,
    MAX_SPAWN_ROLLS,
    RoundDistribution,
    RoundReport,
    RoundSummary,
    Setup,
    marginal,
    play_rounds,
    round_report,
    spawn_chain,
)

__all__ = [
    "roll_chance", "adjusted_spawn_rating", "ChapterRatings", "Party", "Setup", "RoundSummary",
    "counted_explorers", "renewal_pmf", "renewal_mean", "long_run_spawn_attempts",
    "long_run_invokes", "CountdownCycle", "countdown_cycle", "raise_threat", "lower_threat",
    "EventSpaceRoll", "event_space_roll", "play_rounds", "marginal", "spawn_chain",
    "RoundReport", "round_report", "rounds_per_level_up", "cards_removed", "surviving_copies",
    "RoundDistribution", "MAX_ROUNDS", "MAX_SPAWN_ROLLS", "MAX_HORROR_ROUNDS", "MAX_JOINT_SIZE",
    "MAX_OUTCOMES",
]
