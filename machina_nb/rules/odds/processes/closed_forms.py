"""The rating processes in closed form: one roll's chance, the 3.5 player-count adjustment,
the 1.0 spawn rating's renewal times and long-run rates, the 3.5 countdown cycle, threat and
level steps, the level-up's removed cards, and the event space's roll.

These answer a question about one roll, one cycle or the long run exactly, with no chain
over rounds (that is :mod:`machina_nb.rules.odds.processes.round_chain`).

>>> from machina_nb.rules.rulings import Rules
>>> adjusted_spawn_rating(8, 3)
6
>>> renewal_mean(2, Rules())
Fraction(61, 50)

Rules: manual p13 (spawn), manual p14 (horror, threat), 3.5 §Spawn Phase and FAQ.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from machina_nb.rules.checks import integer as _integer
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

__all__ = [
    "roll_chance", "adjusted_spawn_rating", "ChapterRatings", "Party", "counted_explorers",
    "renewal_pmf", "renewal_mean", "long_run_spawn_attempts", "long_run_invokes",
    "CountdownCycle", "countdown_cycle", "raise_threat", "lower_threat", "EventSpaceRoll",
    "event_space_roll", "rounds_per_level_up", "cards_removed", "surviving_copies", "DIE_FACES",
    "succeeding_faces",
]

DIE_FACES = 10
"""The faces of the game die, a d10 (manual p4-5)."""


def succeeding_faces(rating: int) -> int:
    """How many of the d10's faces are ``>= rating``.

    Rules: manual p13-14 (a roll succeeds when it is equal to or higher than the rating).
    """
    return min(DIE_FACES, max(0, DIE_FACES - rating))


def roll_chance(rating: int) -> Fraction:
    """``q(r) = P(U >= r)`` for a d10 roll U: ``(10 - r)/10``, 1 for ``r <= 0``, 0 for ``r >= 10``.

    Rules: manual p13-14 (roll equal or higher) notation.
    """
    return Fraction(succeeding_faces(_integer("rating", rating)), DIE_FACES)


def adjusted_spawn_rating(default: int, explorers: int) -> int:
    """The 3.5 player-count adjustment: ``d`` if ``d <= 3``, else ``max(3, d - (n - 1))``.

    The one definition for the odds and the engine. ``default`` is the rating being
    adjusted: a chapter's printed rating when it is reset, or the current rating
    under ``adjust35.when = every_phase_start``. A rating of 3 or less is left as it
    is, so one that the countdown has taken to 0 or below stays there.

    >>> [adjusted_spawn_rating(8, n) for n in (1, 2, 3, 4)]
    [8, 7, 6, 5]
    >>> adjusted_spawn_rating(-2, 4)
    -2

    Rules: 3.5 §Spawn Phase (-1 per explorer beyond the first, never below 3) and FAQ (8
    becomes 8, 7, 6, 5 for 1-4 explorers); switches adjust35.when, n35.
    """
    default = _integer("default", default)
    explorers = _integer("explorers", explorers, 1)
    return default if default <= 3 else max(3, default - (explorers - 1))


@dataclass(frozen=True)
class ChapterRatings:
    """A chapter's printed ratings (``None``: the chapter has none) and whether it is blocking.

    Only what the rating processes read; the whole chapter card is
    :class:`machina_nb.rules.cards.events.Chapter`. Chapters that place an exit token
    count as non-blocking (3.5 FAQ).

    Rules: manual p28-29 (chapter ratings, blocking chapters), 3.5 FAQ.
    """

    spawn_rating: int | None = None
    horror_rating: int | None = None
    blocking: bool = False

    def __post_init__(self) -> None:
        for name in ("spawn_rating", "horror_rating"):
            if getattr(self, name) is not None:
                _integer(name, getattr(self, name), 1, 9)


@dataclass(frozen=True, init=False)
class Party:
    """The explorers: how many started, are alive and are in play, and who rolls for spawns.

    ``full_tiles`` has one entry per explorer who rolls in the Spawn phase, in
    roll order (D22: the caller fixes the order): ``True`` when that explorer's
    tile already holds 4 or more monsters. By default every explorer in play
    rolls and no tile is full. Tiles are taken to stay as they are (monsters
    spawned and killed are not followed).

    Rules: manual p13 (each explorer in play rolls), 3.5 §Spawn Phase, switches spawn10.roll_order and n35.
    """

    starting: int
    alive: int
    in_play: int
    full_tiles: tuple[bool, ...]

    def __init__(self, starting: int, alive: int | None = None, in_play: int | None = None,
                 full_tiles: tuple[bool, ...] | None = None) -> None:
        _integer("starting", starting, 1, 8)
        alive = starting if alive is None else _integer("alive", alive, 0, starting)
        in_play = alive if in_play is None else _integer("in_play", in_play, 0, alive)
        full = (False,) * in_play if full_tiles is None else tuple(full_tiles)
        if len(full) > in_play:
            raise RulesError("full_tiles", f"{len(full)} rollers but only {in_play} in play")
        object.__setattr__(self, "starting", starting)
        object.__setattr__(self, "alive", alive)
        object.__setattr__(self, "in_play", in_play)
        object.__setattr__(self, "full_tiles", full)

    @property
    def rollers(self) -> int:
        """How many explorers roll in the Spawn phase.

        Rules: manual p13 (each explorer in play rolls unless every spawn space on their tile
        is destroyed), 3.5 §Spawn Phase.
        """
        return len(self.full_tiles)


def counted_explorers(party: Party, rules: Rules) -> int:
    """The ``n`` of the 3.5 adjustment under ``n35``: starting, alive or in-play explorers (min 1).

    Rules: 3.5 §Spawn Phase, switch n35.
    """
    n = {"starting_explorers": party.starting, "alive_explorers": party.alive,
         "explorers_in_play": party.in_play}[rules["n35"]]
    return max(1, n)


def _next_rating(rating: int, rules: Rules) -> int:
    """A failed 1.0 roll lowers the rating by one; ``rating.floor`` says how far (D23)."""
    return max(1, rating - 1) if rules["rating.floor"] == "one" else rating - 1


def renewal_pmf(default: int, rules: Rules, terms: int | None = None) -> dict[int, Fraction]:
    """P(T = t): the rolls from a reset at ``default`` to the next success of a 1.0 rating chain.

    The horror rating follows this per round and the 1.0 spawn rating per
    roll . Under ``rating.floor = none`` T is at most
    ``default + 1``; under ``one`` its tail is geometric, so only the first
    ``terms`` values are given (default ``default + 10``).

    Rules: manual p13-14 (success resets, failure lowers), switch rating.floor.
    """
    default = _integer("default", default, 1, 9)
    terms = default + 10 if terms is None else _integer("terms", terms, 1, 1000)
    result, alive, rating = {}, Fraction(1), default
    for t in range(1, terms + 1):
        q = roll_chance(rating)
        if q:
            result[t] = alive * q
        alive *= 1 - q
        if not alive:
            break
        rating = _next_rating(rating, rules)
    return result


def renewal_mean(default: int, rules: Rules) -> Fraction:
    """E[T] of :func:`renewal_pmf`, exact under both floors.

    Rules: manual p13-14, switch rating.floor.
    """
    default = _integer("default", default, 1, 9)
    mean, alive, rating = Fraction(0), Fraction(1), default
    while True:
        q = roll_chance(rating)
        if rules["rating.floor"] == "one" and rating == 1:
            return mean + alive / q
        mean += alive
        alive *= 1 - q
        if not alive:
            return mean
        rating = _next_rating(rating, rules)


@dataclass(frozen=True)
class CountdownCycle:
    """One 3.5 countdown from a reset: the reset rating, rounds and expected spawn attempts.

    Rules: 3.5 §Spawn Phase.
    """

    reset: int
    rounds: int
    attempts: Fraction
    per_round: Fraction


def countdown_cycle(default: int, explorers: int, rollers: int | None = None) -> CountdownCycle:
    """The 3.5 cycle of a blocking chapter: rolls at ``d', d'-1, ..., 2`` with ``d' = adj(d, n)``.

    Expected attempts per cycle = ``m * sum_{r=2}^{d'} (10 - r)/10`` over ``d' - 1``
    rounds (``m`` rollers, default ``n``). A reset at 1 never completes a
    cycle and is refused.

    Rules: 3.5 §Spawn Phase.
    """
    reset = adjusted_spawn_rating(_integer("default", default, 1, 9),
                                  _integer("explorers", explorers, 1, 8))
    rollers = explorers if rollers is None else _integer("rollers", rollers, 0, 8)
    if reset == 1:
        raise RulesError("default", "a countdown reset at 1 fires every phase and never "
                                    "completes a cycle")
    attempts = rollers * sum((roll_chance(r) for r in range(2, reset + 1)), Fraction(0))
    return CountdownCycle(reset, reset - 1, attempts, attempts / (reset - 1))


def long_run_spawn_attempts(default: int, rollers: int, rules: Rules,
                            explorers: int | None = None) -> Fraction:
    """Long-run expected spawn attempts per round under ``spawn.procedure``.

    1.0: ``m / E[T_d]`` by renewal-reward, whatever the roll order.
    3.5: the countdown cycle's attempts over its rounds (a blocking
    chapter, ``explorers`` counted for the adjustment, default ``rollers``).

    Rules: manual p13, 3.5 §Spawn Phase, switch spawn.procedure.
    """
    rollers = _integer("rollers", rollers, 0, 8)
    if rules["spawn.procedure"] == "v3_5":
        n = rollers if explorers is None else explorers
        return countdown_cycle(default, max(1, n), rollers).per_round
    return rollers / renewal_mean(default, rules)


def long_run_invokes(default: int, rules: Rules) -> Fraction:
    """Long-run horror events invoked per round: ``1 / E[T_d]``.

    Rules: manual p14 (horror phase).
    """
    return 1 / renewal_mean(default, rules)


def raise_threat(threat: int, level: int, rules: Rules, positions: int) -> tuple[int, int, bool]:
    """One +1 of monster threat: ``(threat, level, level5_event)`` after it.

    ``threat.levelup``: ``on_reach`` (1.0: reaching the last position levels
    up and resets to 1) or ``on_increase_from_last`` (3.5: an increase while
    on the last position does). At level 5 with ``level5_rule = yes`` the
    increase is replaced by the level-5 event (each explorer destroys an
    equipped item or is destroyed), reported as ``level5_event``. Levels stop at 5.

    Rules: manual p14 (increase monster threat), 3.5 §Increasing Monster Level, rulings C-8, D29.
    """
    if level >= 5 and rules["level5_rule"] == "yes":
        return threat, level, True
    if rules["threat.levelup"] == "on_reach":
        threat += 1
        if threat >= positions:
            return (1, level + 1, False) if level < 5 else (positions, level, False)
        return threat, level, False
    if threat >= positions:
        return (1, level + 1, False) if level < 5 else (positions, level, False)
    return threat + 1, level, False


def rounds_per_level_up(horror_default: int, positions: int, rules: Rules) -> Fraction:
    """Expected rounds between level-ups when horror invokes are the only threat source.

    ``threat.levelup = on_reach`` (1.0): ``(T - 1) * E[T_h]``;
    ``on_increase_from_last`` (3.5): ``T * E[T_h]`` (without the 3.5 timer's
    contributions), where ``T`` is the number of threat positions.

    Rules: manual p14 (threat), 3.5 §Increasing Monster Level (simple closed form), D29.
    """
    positions = _integer("positions", positions, 2, 20)
    steps = positions - 1 if rules["threat.levelup"] == "on_reach" else positions
    return steps * renewal_mean(horror_default, rules)


def cards_removed(deck_size: int, rules: Rules) -> tuple[int, ...]:
    """How many cards "remove half" takes from a deck, per ``half.rounding``.

    ``floor`` and ``ceil`` give one number; ``players_choose`` gives both
    choices when the deck is odd (9 cards: ``(4, 5)``).

    Rules: manual p14 (level up: remove half), manual p33 (item levels), switches half.which and half.rounding.
    """
    deck_size = _integer("deck_size", deck_size, 0, 500)
    low, high = deck_size // 2, (deck_size + 1) // 2
    reading = rules["half.rounding"]
    if reading == "floor":
        return (low,)
    if reading == "ceil":
        return (high,)
    return (low,) if low == high else (low, high)


def surviving_copies(deck_size: int, copies: int, removed: int) -> dict[int, Fraction]:
    """P(``k`` of ``copies`` given cards stay) when ``removed`` random cards leave a shuffled deck.

    Hypergeometric; one given card survives with ``(N - removed) / N``.

    Rules: manual p14 (remove half after shuffling).
    """
    deck_size = _integer("deck_size", deck_size, 1, 500)
    copies = _integer("copies", copies, 0, deck_size)
    removed = _integer("removed", removed, 0, deck_size)
    kept = deck_size - removed
    total = comb(deck_size, kept)
    return {k: Fraction(comb(copies, k) * comb(deck_size - copies, kept - k), total)
            for k in range(max(0, kept - (deck_size - copies)), min(copies, kept) + 1)}


def lower_threat(threat: int, amount: int, rules: Rules, source: str = "seal") -> int:
    """Monster threat after a decrease of ``amount``; ``threat.floor`` says where position 1 holds.

    ``clamp_one``: never below position 1. ``seal_only``: only sealing a
    spawn space stops at 1 (manual p36); other decreases (``source`` =
    ``"event_space"`` or ``"card"``) are applied as printed, so threat can go
    below 1: a deficit the next increases pay back (``threat`` may already be one).

    Rules: manual p36 (seal spawn space), manual p37 (event space), switch threat.floor.
    """
    threat = _integer("threat", threat)
    amount = _integer("amount", amount, 0)
    if source not in ("seal", "event_space", "card"):
        raise RulesError("source", f"expected seal, event_space or card, got {source!r}")
    if rules["threat.floor"] == "clamp_one" or source == "seal":
        return max(1, threat - amount)
    return threat - amount


@dataclass(frozen=True)
class EventSpaceRoll:
    """The event space's roll option: stamina cost and the two outcomes' chances.

    Rules: manual p37 (event space), switch cost.event_space.
    """

    cost: int
    lower_threat: Fraction
    reinvoke: Fraction


def event_space_roll(horror: int, rules: Rules) -> EventSpaceRoll:
    """Roll the d10 against the current horror rating (not moved): success lowers threat by 1,
    failure reinvokes the current horror event. Costs ``cost.event_space`` stamina (1.0: 2, 3.5: 1).

    Rules: manual p37 (event space), 3.5 (event space cost), switch cost.event_space.
    """
    q = roll_chance(_integer("horror", horror, -9, 9))
    return EventSpaceRoll(int(rules["cost.event_space"]), q, 1 - q)
