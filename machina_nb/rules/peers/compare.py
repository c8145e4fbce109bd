"""One situation under Machina Arcana and a peer game: sight, the chance curve, timing, distances.

Everything here calls the rule packs and returns exact values; the views and
notebook 09 only format them.

>>> from machina_nb.rules.odds.dice import parse_dice
>>> from machina_nb.rules.rulings import Rules
>>> timing = essence_timing(parse_dice("1H1L").pool, 3, 2, Rules())
>>> timing.chance, timing.spent_after, timing.value
(Fraction(35, 36), Fraction(5, 9), Fraction(13, 9))

Rules: manual p24 (attack), p18 (essence after the roll), p22 (nearest, closest); Arkham
summary (Skills and skill tests; Keywords: Hunter); Mansions summary (Attribute Tests; Skill
Points; Line of Sight).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import cast

import networkx as nx

from machina_nb.rules.board import distance, sight
from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.maptext import Point
from machina_nb.rules.errors import RulesError
from machina_nb.rules.odds import attacks
from machina_nb.rules.odds.dice import Pool
from machina_nb.rules.peers import arkham, mansions
from machina_nb.rules.peers.hunters import rooms_as_locations
from machina_nb.rules.rulings import Rules

__all__ = [
    "SightPair", "sight_pair", "seen_by_both", "machina_curve", "arkham_curve", "mansions_curve",
    "Timing", "timing_from_chances", "essence_timing", "icon_timing", "skill_point_timing",
    "DistanceNotion", "distance_notions",
]


# --- sight --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SightPair:
    """The same two spaces under Machina Arcana's centre line and Mansions' corner dots.

    Rules: manual p22 (line of sight); Mansions summary (Line of Sight).
    """

    machina: sight.Sight
    mansions: mansions.MansionsSight

    def explain(self) -> str:
        """Both verdicts, one per line."""
        return (f"Machina Arcana: {self.machina.explain()}\n"
                f"Mansions of Madness: {self.mansions.explain()}")


def sight_pair(board: Board, a: Point, b: Point, rules: Rules) -> SightPair:
    """Line of sight from ``a`` to ``b`` under both games on one map.

    Rules: manual p22 (line of sight); Mansions summary (Line of Sight).
    """
    return SightPair(sight.line_of_sight(board, a, b, rules),
                     mansions.line_of_sight(board, a, b, rules))


def seen_by_both(board: Board, a: Point, rules: Rules
                 ) -> tuple[frozenset[Point], frozenset[Point]]:
    """The spaces seen from ``a``: (under Machina Arcana, under Mansions of Madness).

    Rules: manual p22 (line of sight); Mansions summary (Line of Sight).
    """
    return sight.visible_from(board, a, rules), mansions.visible_from(board, a, rules)


# --- the chance against the required margin --------------------------------------------------------


def machina_curve(pool: Pool, margins: Iterable[int], essence: int = 0
                  ) -> tuple[tuple[int, Fraction], ...]:
    """P(the dice total, plus up to ``essence`` after the roll, reaches each margin).

    The margin is armor (or will) minus the modifiers: what the dice must make.
    Rules: manual p24 (attack: total at least the armor), p18 (essence after the roll).
    """
    dist = pool.distribution()
    return tuple((m, dist.at_least(m - essence)) for m in margins)


def arkham_curve(bag: arkham.Bag, margins: Iterable[int], rules: Rules
                 ) -> tuple[tuple[int, Fraction], ...]:
    """P(the chaos token's result is at least each margin and is not an auto-fail).

    The margin is the difficulty minus skill, icons and other modifiers: what the
    token must make (the skill floor reading is left out: it needs the skill itself).
    Rules: Arkham summary (Skills and skill tests).
    """
    results = arkham.outcomes(bag, rules)
    return tuple((m, sum((p for r, p in results.items() if not r.failed and r.modifier >= m),
                         Fraction(0))) for m in margins)


def mansions_curve(margins: Iterable[int]) -> tuple[tuple[int, Fraction], ...]:
    """P(pass) when the margin is 10 minus attribute and modifiers: clamp(10 - m, 1, 9) / 10.

    Written as "10 minus the roll must reach the margin", a d10 test reads like
    the others: the roll must be at most 10 - margin, with 1 always passing and
    10 always failing.
    Rules: Mansions summary (Attribute Tests).
    """
    return tuple((m, Fraction(min(9, max(1, 10 - m)), 10)) for m in margins)


# --- timing: deciding after the roll vs committing before it -------------------------------------


@dataclass(frozen=True)
class Timing:
    """Up to ``budget`` points that raise a test: committed before the draw or spent after it.

    The chance is the same either way (``chance``); committing before costs the
    whole budget every time (``spent_before``), deciding after the roll costs
    only the points that turn a fail into a success (``spent_after``, on
    average). ``value`` is the exact difference: what deciding after saves.

    Rules: manual p18 (essence after the roll); Arkham summary
    (Skills and skill tests: commit before the token); Mansions summary
    (Skill Points: before the roll).
    """

    budget: int
    chance: Fraction
    chance_without: Fraction
    spent_before: Fraction
    spent_after: Fraction

    @property
    def value(self) -> Fraction:
        """Points saved on average by deciding after the roll, at the same chance."""
        return self.spent_before - self.spent_after


def timing_from_chances(chances: Sequence[Fraction], cost: int = 1) -> Timing:
    """Timing from P(success) with 0, 1, ..., k points (each costing ``cost``): after the roll
    the least sufficient number is spent, so j points are spent with chance P_j - P_(j-1).

    Rules: manual p18 (essence after the roll), Arkham summary
    (Skills and skill tests), Mansions summary (Skill Points).
    """
    if not chances:
        raise RulesError("chances", "give the chance with 0 points at least")
    after = sum((j * (chances[j] - chances[j - 1]) for j in range(1, len(chances))), Fraction(0))
    budget = len(chances) - 1
    return Timing(budget, chances[-1], chances[0], Fraction(budget * cost), after * cost)


def essence_timing(pool: Pool, defense: int, essence: int, rules: Rules,
                   modifier: int = 0) -> Timing:
    """Machina Arcana's essence, spent after the roll, against committing it before.

    Rules: manual p18 (essence after the roll), p24 (attack).
    """
    return timing_from_chances([attacks.hit_chance(pool, defense, rules, modifier, e)
                                for e in range(essence + 1)])


def icon_timing(bag: arkham.Bag, skill: int, difficulty: int, icons: int, rules: Rules) -> Timing:
    """Arkham's committed icons (before the token) against choosing them after the draw.

    Rules: Arkham summary (Skills and skill tests: commit before).
    """
    return timing_from_chances([arkham.success_chance(bag, skill, difficulty, rules, k)
                                for k in range(icons + 1)])


def skill_point_timing(attribute: int, luck: int, modifier: int = 0) -> Timing:
    """Mansions' skill point (Luck added before the roll) against deciding after it.

    Rules: Mansions summary (Skill Points: before the roll).
    """
    return timing_from_chances([mansions.pass_chance(attribute, modifier),
                                mansions.pass_chance(attribute, modifier, luck, True)])


# --- nearest and closest ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DistanceNotion:
    """One way of measuring "nearest": its name, every explorer's distance, the tied winners.

    Rules: manual p22 (nearest, closest); Arkham summary (Hunter).
    """

    notion: str
    how: str
    distances: tuple[tuple[str, int | None], ...]
    winners: tuple[str, ...]
    rule: str


def _notion(notion: str, how: str, distances: dict[str, int | None], rule: str) -> DistanceNotion:
    known = [d for d in distances.values() if d is not None]
    best = min(known) if known else None
    winners = tuple(n for n, d in distances.items() if d is not None and d == best)
    return DistanceNotion(notion, how, tuple(distances.items()), winners, rule)


def distance_notions(board: Board, monster: Point, explorers: dict[str, Point],
                     rules: Rules) -> tuple[DistanceNotion, ...]:
    """Machina Arcana's closest (a path), Arkham's nearest (a path of locations: here each room
    is a location and each door a connection) and Machina Arcana's nearest (a straight count).

    Rules: manual p22 (closest: a path with closed doors open; nearest: counted directly);
    Arkham summary (Keywords: Hunter: shortest path of locations).
    """
    points = list(explorers.values())
    closest = cast(dict[Point, int], dict(distance.closest(board, monster, points, rules).distances))
    nearest = cast(dict[Point, int], dict(distance.nearest(board, monster, points, rules).distances))
    locations, room_of = rooms_as_locations(board)
    away = nx.single_source_shortest_path_length(locations.graph, room_of[monster])
    return (
        _notion("Machina Arcana closest", "steps along a path, closed doors counted as open",
                {n: closest.get(p) for n, p in explorers.items()}, "manual p22 (closest)"),
        _notion("Arkham LCG nearest", "moves between locations (rooms joined by doors)",
                {n: away.get(room_of[p]) for n, p in explorers.items()},
                f"{arkham.SUMMARY} (Keywords: Hunter)"),
        _notion("Machina Arcana nearest", "spaces counted directly, ignoring walls",
                {n: nearest.get(p) for n, p in explorers.items()}, "manual p22 (nearest)"),
    )
