"""Attack odds: hit chance, essence after the roll, several blockers, kills, barrels, traps.

An attack rolls a pool, adds the present modifier ``m`` (boosts minus
reductions) and any essence ``e`` spent *after seeing the roll*, and hits a
blocker when the final total reaches its armor (physical) or will (arcane).
Every function takes the :class:`~machina_nb.rules.rulings.Rules` and reads the
switches it depends on: ``roll.floor`` (D31), ``essence.multi_blocker`` (D32),
``barrel.chain`` (D36) and ``traps.secondary`` (C-10, D35).

Essence policy (stated): after seeing the roll the attacker spends the
least essence that makes the attack hit (with several blockers: that hits as
many blockers as possible), and nothing when even all of it would not help.

>>> from machina_nb.rules.odds.dice import Pool
>>> from machina_nb.rules.rulings import Rules, check_rules
>>> hit_chance(Pool.attack(1, 1), 3, Rules(), essence=1)  # the Mi-Go, manual p24
Fraction(5, 6)

Rules: manual p24 (attack), manual p18-19 (essence, contributors).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb

from machina_nb.rules.checks import integer as _integer
from machina_nb.rules.errors import RulesError
from machina_nb.rules.odds.dice import Distribution, Pool
from machina_nb.rules.rulings import Rules, check_rules

__all__ = [
    "MAX_ATTRIBUTE", "MAX_BLOCKERS", "MAX_ESSENCE", "MAX_HEALTH", "MAX_ATTACKS", "AttackOdds", "final_total", "hit_chance", "attack_odds",
    "barrel_hit_chance", "blockers_outcome", "expected_hits", "LastingBoost", "kill_chance",
    "survival_chance",
    "effect_roll_chance", "barrel_explosion", "barrel_chain_hit_chance", "trap_damage",
    "TRAP_PRIMARY", "TRAP_SECONDARY",
]

MAX_ATTRIBUTE = 9
"""Armor and will lie in 0..9 (manual p18: attributes cannot exceed 9)."""

MAX_ESSENCE = 36
"""The most essence one attack may spend: four explorers of 9 essence each contributing
(manual p18-19). Beyond it the odds functions refuse at once."""

MAX_BLOCKERS = 16
"""The most blockers one roll is compared with (a barrel has at most 8 neighbours, p36)."""

MAX_HEALTH = 18
"""The most health a kill or survival chance may need: 9 health plus 9 essence lost instead
(manual p18)."""

MAX_ATTACKS = 20
"""The most attacks a kill or survival chance may span (four explorers' turns and more).
With :data:`MAX_ESSENCE`, :data:`MAX_HEALTH` and the pool's :data:`~machina_nb.rules.odds.dice.MAX_DICE`
this keeps the exact kill-chance programme to seconds."""

TRAP_PRIMARY = Pool.attack(high=3)
"""The trap lever's attack: 3 high dice (manual p37 index, 3.5; switches traps.secondary and traps.push_activation)."""

TRAP_SECONDARY = Pool.attack(low=3)
"""The trap lever's secondary attack: 3 low dice (manual p37 index, 3.5; switches traps.secondary and traps.push_activation)."""

BARREL_EXPLOSION = Pool.attack(high=3)
"""An exploding barrel attacks every adjacent unit with 3 high dice (manual p36)."""


def _check_defense(defense: object, name: str = "defense") -> int:
    return _integer(name, defense, 0, MAX_ATTRIBUTE)


def _check_pool(pool: object) -> Pool:
    if not isinstance(pool, Pool):
        raise RulesError("pool", f"expected a Pool, got {type(pool).__name__}")
    return pool


def _cost(defense: int, total: int, floor: str) -> int:
    """The essence needed to lift ``total`` (before essence) to ``defense``; 0 when already there."""
    if floor == "clamp0" and defense <= 0:
        return 0
    return max(0, defense - total)


def _rolled(pool: Pool, modifier: int) -> Distribution:
    """``S + m``, not floored: essence is added before any floor applies (manual p24 order)."""
    return _check_pool(pool).distribution() + _integer("modifier", modifier, -99, 99)


def final_total(pool: Pool, rules: Rules, modifier: int = 0) -> Distribution:
    """The distribution of the final total with no essence: ``S + m``, floored at 0 under ``clamp0``.

    Rules: manual p24 (sum, add, subtract), switch roll.floor (``roll.floor``).
    """
    rules = check_rules(rules)
    dist = _rolled(pool, modifier)
    return dist.clamped(0) if rules["roll.floor"] == "clamp0" else dist


@dataclass(frozen=True)
class AttackOdds:
    """One attack against one blocker: hit chance, the essence spent and its distribution.

    ``spent[e]`` is the chance that exactly ``e`` essence is spent under the
    least-needed policy.

    Rules: manual p24 (attack), manual p18 (essence).
    """

    hit: Fraction
    expected_spent: Fraction
    spent: dict[int, Fraction]


def attack_odds(pool: Pool, defense: int, rules: Rules, modifier: int = 0,
                essence: int = 0) -> AttackOdds:
    """Hit chance and essence spent for one attack against armor or will ``defense``.

    ``essence`` is what may be spent after the roll: the attacker's plus
    that of contributing explorers (manual p19). P(hit) = P(S >= A - m - E) and
    the expected spend is the sum over the rolls that need it.

    Rules: manual p24 (attack), manual p18 (essence after the roll), switch roll.floor.
    """
    rules = check_rules(rules)
    defense = _check_defense(defense)
    essence = _integer("essence", essence, 0, MAX_ESSENCE)
    dist = _rolled(pool, modifier)
    floor = rules["roll.floor"]
    hit = 0
    spent = [0] * (essence + 1)
    for i, count in enumerate(dist.counts):
        need = _cost(defense, dist.offset + i, floor)
        if need <= essence:
            hit += count
            spent[need] += count
        else:
            spent[0] += count
    d = dist.denominator
    return AttackOdds(
        Fraction(hit, d),
        Fraction(sum(e * c for e, c in enumerate(spent)), d),
        {e: Fraction(c, d) for e, c in enumerate(spent) if c},
    )


def hit_chance(pool: Pool, defense: int, rules: Rules, modifier: int = 0,
               essence: int = 0) -> Fraction:
    """P(hit) of one attack against armor or will ``defense`` (0-9), spending up to ``essence``.

    Rules: manual p24 (T >= attribute hits), switch roll.floor (``roll.floor``).
    """
    rules = check_rules(rules)
    defense = _check_defense(defense)
    essence = _integer("essence", essence, 0, MAX_ESSENCE)
    if rules["roll.floor"] == "clamp0" and defense == 0:
        _check_pool(pool)
        return Fraction(1)
    dist = _check_pool(pool).distribution()
    return dist._at_least(defense - _integer("modifier", modifier, -99, 99) - essence)


def barrel_hit_chance(pool: Pool, rules: Rules, modifier: int = 0, essence: int = 0) -> Fraction:
    """P(hit) against an exploding barrel: a final total of at least 1 (under every ``roll.floor``).

    Rules: manual p36 (exploding barrel), switch roll.floor.
    """
    rules = check_rules(rules)
    essence = _integer("essence", essence, 0, MAX_ESSENCE)
    return _rolled(pool, modifier).at_least(1 - essence)


def _hits_after_spend(total: int, defenses: Sequence[int], essence: int, reading: str,
                      floor: str) -> frozenset[int]:
    costs = [_cost(a, total, floor) for a in defenses]
    if reading == "shared_total":
        best = max((c for c in costs if c <= essence), default=0)
        return frozenset(i for i, c in enumerate(costs) if c <= best)
    hit, left = set(), essence
    for cost, i in sorted((c, i) for i, c in enumerate(costs)):
        if cost <= left:
            hit.add(i)
            left -= cost
    return frozenset(hit)


def blockers_outcome(pool: Pool, defenses: Sequence[int], rules: Rules, modifier: int = 0,
                     essence: int = 0) -> dict[frozenset[int], Fraction]:
    """The joint outcome of **one** roll against several blockers: ``{indices hit: chance}``.

    The blockers are hit together by threshold, not independently.
    Essence is spent after the roll to hit as many blockers as possible at the
    least cost: under ``essence.multi_blocker = shared_total`` the spend
    raises the one total every blocker is compared with; under
    ``per_blocker`` each essence point lifts the total for one chosen blocker.

    Rules: manual p24 (several blockers, one roll), switch essence.multi_blocker.
    """
    rules = check_rules(rules)
    if isinstance(defenses, (str, bytes)) or not isinstance(defenses, Sequence) or \
            len(defenses) > MAX_BLOCKERS:
        raise RulesError("defenses", f"expected a list of at most {MAX_BLOCKERS} armor or will "
                         "values 0-9")
    defenses = tuple(_check_defense(a, "defenses") for a in defenses)
    if not defenses:
        raise RulesError("defenses", "at least one blocker is needed")
    essence = _integer("essence", essence, 0, MAX_ESSENCE)
    reading, floor = rules["essence.multi_blocker"], rules["roll.floor"]
    dist = _rolled(pool, modifier)
    counts: dict[frozenset[int], int] = {}
    for i, count in enumerate(dist.counts):
        if count:
            hit = _hits_after_spend(dist.offset + i, defenses, essence, reading, floor)
            counts[hit] = counts.get(hit, 0) + count
    return {hit: Fraction(c, dist.denominator)
            for hit, c in sorted(counts.items(), key=lambda kv: (len(kv[0]), sorted(kv[0])))}


def expected_hits(outcome: dict[frozenset[int], Fraction]) -> Fraction:
    """E[#blockers hit] of a joint outcome: the sum of the marginal chances, not binomial.

    Rules: manual p24 (several blockers).
    """
    return sum((len(hit) * p for hit, p in outcome.items()), Fraction(0))


@dataclass(frozen=True)
class LastingBoost:
    """A lasting boost that stacks after each hit, such as the Blood-boost gun ("stacks up to 2").

    After a hit a stack is added if a marker is free and fewer than
    ``max_stacks`` are on; each stack adds ``bonus`` to later rolls. The
    bonus per stack is not printed in the text (probably +1), so it is a
    parameter. Stacks last until the next Explorer phase, so they carry across
    the attacks of one turn.

    Rules: manual p27 (lasting effects, markers) (stacking lasting boosts).
    """

    max_stacks: int
    bonus: int = 1
    free_markers: int = 3
    stacks: int = 0

    def __post_init__(self) -> None:
        _integer("max_stacks", self.max_stacks, 0, 9)
        _integer("bonus", self.bonus, -9, 9)
        _integer("free_markers", self.free_markers, 0, 3)
        _integer("stacks", self.stacks, 0, self.max_stacks)


def kill_chance(pool: Pool, defense: int, health: int, attacks: int, rules: Rules,
                modifier: int = 0, essence: int = 0,
                boost: LastingBoost | None = None) -> Fraction:
    """P(a blocker with ``health`` left dies within ``attacks`` attacks), essence shared across them.

    Each hit costs 1 health. The essence budget is spent after each roll,
    optimally for the kill (the dynamic programme of ), and a
    :class:`LastingBoost` may add stacks after hits. With neither, this is
    P(Bin(attacks, p) >= health).

    Rules: manual p24 (a hit costs 1 health), manual p18 (essence), manual p27
    (lasting stacks), switch roll.floor.
    """
    rules = check_rules(rules)
    defense = _check_defense(defense)
    health = _integer("health", health, 1, MAX_HEALTH)
    attacks = _integer("attacks", attacks, 1, MAX_ATTACKS)
    essence = _integer("essence", essence, 0, MAX_ESSENCE)
    if boost is not None and not isinstance(boost, LastingBoost):
        raise RulesError("boost", "expected a LastingBoost")
    dist = _rolled(pool, modifier)
    floor = rules["roll.floor"]
    d = dist.denominator
    if essence == 0 and (boost is None or boost.max_stacks == boost.stacks or boost.bonus == 0
                         or boost.free_markers == 0):
        bonus = boost.stacks * boost.bonus if boost else 0
        free = sum(c for i, c in enumerate(dist.counts)
                   if _cost(defense, dist.offset + i + bonus, floor) == 0)
        kills = sum(comb(attacks, j) * free ** j * (d - free) ** (attacks - j)
                    for j in range(health, attacks + 1))  # : P(Bin(k, p) >= H)
        return Fraction(kills, d ** attacks)
    boost = boost or LastingBoost(0)
    rolls = [(dist.offset + i, c) for i, c in enumerate(dist.counts) if c]

    @cache
    def ways(k: int, need: int, e: int, stacks: int, markers: int) -> int:
        """Outcomes (over d**k) that kill with k attacks left, counted in integers (manual
        p18: essence spent after each roll; p24: damage)."""
        if need == 0:
            every: int = d ** k
            return every
        if k == 0:
            return 0
        miss = ways(k - 1, need, e, stacks, markers)
        grow = markers > 0 and stacks < boost.max_stacks
        after = (stacks + 1, markers - 1) if grow else (stacks, markers)
        total = 0
        for s, count in rolls:
            cost = _cost(defense, s + stacks * boost.bonus, floor)
            best = miss
            if cost <= e:
                best = max(best, ways(k - 1, need - 1, e - cost, *after))
            total += count * best
        return total

    return Fraction(ways(attacks, health, essence, boost.stacks, boost.free_markers), d ** attacks)


def survival_chance(pool: Pool, armor: int, health: int, essence: int, attacks: int,
                    rules: Rules, modifier: int = 0) -> Fraction:
    """P(an explorer survives ``attacks`` monster attacks): each hit costs 1 of health + essence.

    The explorer may lose essence instead of health, so death needs
    ``health + essence`` hits. Explorers cannot raise a monster's roll, so
    there is no essence spending on these rolls.

    Rules: manual p18 (essence instead of health), manual p19 (death).
    """
    rules = check_rules(rules)
    health = _integer("health", health, 1, MAX_HEALTH)
    essence = _integer("essence", essence, 0, MAX_ESSENCE)
    return 1 - kill_chance(pool, armor, health + essence, attacks, rules, modifier)


def effect_roll_chance(threshold: int) -> Fraction:
    """P(d10 >= x): the effect resolves; ``1 -`` this is the "otherwise" branch. No essence.

    Rules: manual p26 (effect roll).
    """
    threshold = _integer("threshold", threshold, 0, 10)
    return Fraction(10 - threshold, 10)


def barrel_explosion(defenses: Sequence[int], rules: Rules, modifier: int = 0,
                     essence: int = 0) -> dict[frozenset[int], Fraction]:
    """The joint outcome of a barrel's 3H explosion against every adjacent unit.

    Arcane when the triggering attack was: pass will values then. The
    explorer whose turn it is may spend essence on it (it is an attack roll).

    Rules: manual p36 (exploding barrel), rulings D32, D36.
    """
    rules = check_rules(rules)
    return blockers_outcome(BARREL_EXPLOSION, defenses, rules, modifier, essence)


def barrel_chain_hit_chance(defense: int, barrels: int, rules: Rules) -> Fraction:
    """P(a unit next to only the last of ``barrels`` barrels in a row is hit) once the first explodes.

    ``barrel.chain``: ``yes_new_roll`` (each barrel hit with a total >= 1
    explodes with its own fresh 3H roll), ``yes_same_roll`` (one total runs
    down the chain) or ``no`` (a barrel's explosion does not set off others).

    Rules: manual p36 (exploding barrel), ruling D36.
    """
    rules = check_rules(rules)
    defense = _check_defense(defense)
    barrels = _integer("barrels", barrels, 1, 50)
    reading = rules["barrel.chain"]
    dist = BARREL_EXPLOSION.distribution()
    unit = hit_chance(BARREL_EXPLOSION, defense, rules)
    if barrels == 1:
        return unit
    if reading == "no":
        return Fraction(0)
    if reading == "yes_same_roll":
        return dist.at_least(max(defense, 1))
    return dist.at_least(1) ** (barrels - 1) * unit


def trap_damage(defense: int, rules: Rules, qualifying_on_tile: int = 0,
                qualifying_elsewhere: int = 0, on_activating_tile: bool = True,
                modifier: int = 0) -> dict[int, Fraction]:
    """The health lost by one unit on a trapped space when a trap lever fires: ``{loss: chance}``.

    The primary attack is 3H. The secondary 3L attacks depend on
    ``traps.secondary``: ``per_explorer_own_tile`` (1.0: one independent roll
    per other explorer next to another lever on the unit's tile),
    ``once_activating_tile`` / ``once_all_tiles`` (3.5: one roll if any such
    explorer exists; the first only reaches the activating tile) or ``none`` (aid).

    Rules: manual p37 (trap lever), 3.5 (trap lever), rulings C-10, D35.
    """
    rules = check_rules(rules)
    defense = _check_defense(defense)
    on_tile = _integer("qualifying_on_tile", qualifying_on_tile, 0, 8)
    elsewhere = _integer("qualifying_elsewhere", qualifying_elsewhere, 0, 8)
    if not isinstance(on_activating_tile, bool):
        raise RulesError("on_activating_tile", f"expected true or false, got "
                         f"{type(on_activating_tile).__name__}")
    reading = rules["traps.secondary"]
    if reading == "per_explorer_own_tile":
        secondary = on_tile
    elif reading == "once_all_tiles":
        secondary = 1 if on_tile + elsewhere else 0
    elif reading == "once_activating_tile":
        secondary = 1 if on_tile + elsewhere and on_activating_tile else 0
    else:
        secondary = 0
    p1 = hit_chance(TRAP_PRIMARY, defense, rules, modifier)
    p2 = hit_chance(TRAP_SECONDARY, defense, rules, modifier)
    loss = {0: 1 - p1, 1: p1}
    for _ in range(secondary):
        nxt: dict[int, Fraction] = {}
        for lost, p in loss.items():
            nxt[lost] = nxt.get(lost, 0) + p * (1 - p2)
            nxt[lost + 1] = nxt.get(lost + 1, 0) + p * p2
        loss = nxt
    return {k: Fraction(v) for k, v in sorted(loss.items()) if v}
