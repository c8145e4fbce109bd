"""One rulebook: the engine, played with open dice, gives the same exact chances as the odds.

The engine (:mod:`machina_nb.rules.engine`) and the odds wing
(:mod:`machina_nb.rules.odds.attacks`, :mod:`machina_nb.rules.odds.processes`) implement
the attack, essence, spawn, horror and threat rules twice, under the same switches. Here
the engine is played from many generated states with :class:`OpenDice`: every chance
point it reaches is walked outcome by outcome with its exact probability (no sampling),
and the resulting distribution is compared, as :class:`~fractions.Fraction` values, with
what the odds functions answer for the same situation and the same rules.

The states come from seeded generators (the seeds are fixed, so every run checks the
same states; each case's id says what it is). Where the two sides disagree, the case is
an expected failure naming the side the manual supports and the fix.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from fractions import Fraction

import pytest
from engine_cases import explorer, monster, open_map

from machina_nb.rules.cards.abilities import Ability, Cost, Effect, Targeting
from machina_nb.rules.cards.events import Chapter as ChapterCard
from machina_nb.rules.cards.events import EventCard
from machina_nb.rules.engine.actions import (
    Choose,
    EndTurn,
    PlayAbility,
    RollHorror,
    RollSpawn,
    apply,
)
from machina_nb.rules.engine.chance import ChanceNode, ScriptedDice
from machina_nb.rules.engine.phases import spawn_rollers
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.state import Deck, Lasting
from machina_nb.rules.odds.attacks import attack_odds, blockers_outcome
from machina_nb.rules.odds.dice import Pool
from machina_nb.rules.odds.processes import (
    ChapterRatings,
    Party,
    Setup,
    lower_threat,
    play_rounds,
    raise_threat,
)
from machina_nb.rules.rulings import Rules

MANUAL, V35 = Rules(), Rules.preset("v3_5")


# --- walking the engine's chance points ---------------------------------------------------

def engine_outcomes(state, action, rules, dice=(), chance=Fraction(1)):
    """Every way ``action`` can end: ``(probability, alternatives)`` per path of die results.

    Each open roll (a :class:`ChanceNode`) is walked over all of its outcomes with their
    exact probabilities by replaying the action with the results so far scripted. Where
    the players must choose after the dice (the state waits on a decision), every option
    is followed and the resulting states are returned together as the alternatives of
    that path, for the caller to pick from.
    """
    try:
        after, _ = apply(state, action, rules, ScriptedDice(dice))
    except ChanceNode as node:
        for value, p in node.outcomes:
            yield from engine_outcomes(state, action, rules, dice + (value,), chance * p)
        return
    if after.decision is not None:
        alternatives = []
        for option in after.decision.options:
            for p, states in engine_outcomes(after, Choose(option=option), rules):
                assert p == 1, "a roll after the players' choice: not walked here"
                alternatives += states
        yield chance, tuple(alternatives)
        return
    yield chance, (after,)


def add(distribution: dict, key, p: Fraction) -> None:
    distribution[key] = distribution.get(key, 0) + p


# --- p24 and p18: one attack, with and without essence ------------------------------------

@dataclass(frozen=True)
class AttackCase:
    """One attack on one blocker: pool, physical or arcane, defences, modifier, essence, floor."""

    high: int
    low: int
    arcane: bool
    armor: int
    will: int
    modifier: int
    essence: int
    floor: str

    @property
    def defense(self) -> int:
        return self.will if self.arcane else self.armor

    @property
    def rules(self) -> Rules:
        return MANUAL.replace({"roll.floor": self.floor})

    def __str__(self) -> str:
        return (f"{self.high}H{self.low}L-{'arcane' if self.arcane else 'physical'}-vs"
                f"{self.defense}-mod{self.modifier:+d}-essence{self.essence}-{self.floor}")


def _pool_sizes(rng: random.Random) -> tuple[int, int]:
    while True:
        high, low = rng.randint(0, 3), rng.randint(0, 3)
        if 1 <= high + low <= 3:  # 64 paths at most: each path replays the action
            return high, low


def attack_cases(seed: int, count: int, with_essence: bool) -> list[AttackCase]:
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        high, low = _pool_sizes(rng)
        armor, will = (rng.choice((0, 0, 1, 2, 3, 4, 5, 6, 7, 9)) for _ in range(2))
        cases.append(AttackCase(high, low, rng.random() < 0.3, armor, will,
                                rng.randint(-3, 2), rng.randint(1, 4) if with_essence else 0,
                                rng.choice(("none", "clamp0"))))
    return cases


def attack_state(case: AttackCase, defenses=None):
    """An explorer ``p`` with an attack ability and the case's modifier (a lasting effect), and
    monsters with 5 health (a hit never kills, so no kill credit changes essence)."""
    effect = Effect("attack", high=case.high, low=case.low, arcane=case.arcane,
                    scope="target" if defenses is None else "monsters_on_tile")
    targeting = Targeting("ranged", 3, "monster") if defenses is None else Targeting()
    gun = Ability("Test gun", Cost(stamina=1), targeting, (effect,))
    legend = {"P": (explorer("p", abilities=(gun,)), {"essence": case.essence})}
    pairs = [(case.armor, case.will)] if defenses is None else defenses
    letters = "WXYZ"
    for i, (armor, will) in enumerate(pairs):
        legend[letters[i]] = monster(f"m{i}", health=5, armor=armor, will=will)
    row = "P." + letters[:len(pairs)] if defenses is None else "P" + letters[:len(pairs)]
    state = scenario(open_map(len(row), 1, {0: row}), legend)
    lasting = (Lasting("test modifier", "roll_modifier", "p", "p", case.modifier),) \
        if case.modifier else ()
    return replace(state, phase="explorer", active="p", turns=("p",), lasting=lasting)


def _engine_attack(case: AttackCase) -> tuple[Fraction, dict[int, Fraction]]:
    state = attack_state(case)
    hit, spent = Fraction(0), {}
    for p, (after,) in engine_outcomes(state, PlayAbility("p", 0, (2, 0), essence=case.essence),
                                       case.rules):
        hit += p if after.unit("m0").health < 5 else 0
        add(spent, case.essence - after.unit("p").essence, p)
    return hit, spent


def _check_attack(case: AttackCase) -> None:
    hit, spent = _engine_attack(case)
    odds = attack_odds(Pool.attack(case.high, case.low), case.defense, case.rules,
                       case.modifier, case.essence)
    assert hit == odds.hit
    assert {e: p for e, p in spent.items() if p} == odds.spent


ATTACKS = attack_cases(24, 60, with_essence=False)
ESSENCE_ATTACKS = attack_cases(18, 70, with_essence=True)


@pytest.mark.parametrize("case", ATTACKS, ids=str)
def test_manual_p24_engine_attack_matches_attack_odds(case):
    _check_attack(case)


@pytest.mark.parametrize("case", ESSENCE_ATTACKS, ids=str)
def test_manual_p18_engine_essence_after_the_roll_matches_attack_odds(case):
    _check_attack(case)


# --- p24: one roll against several blockers -----------------------------------------------

@dataclass(frozen=True)
class BlockersCase:
    """One attack roll against 2-4 blockers on the attacker's tile."""

    attack: AttackCase
    defenses: tuple[tuple[int, int], ...]
    reading: str

    @property
    def rules(self) -> Rules:
        return self.attack.rules.replace({"essence.multi_blocker": self.reading})

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(w if self.attack.arcane else a for a, w in self.defenses)

    def __str__(self) -> str:
        a = self.attack
        return (f"{a.high}H{a.low}L-{'arcane' if a.arcane else 'physical'}-vs"
                f"{'.'.join(map(str, self.values))}-mod{a.modifier:+d}-essence{a.essence}-"
                f"{a.floor}-{self.reading}")


def blockers_cases(seed: int, count: int) -> list[BlockersCase]:
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        high, low = _pool_sizes(rng)
        attack = AttackCase(high, low, rng.random() < 0.3, 0, 0, rng.randint(-2, 2),
                            rng.choice((0, 0, 1, 2, 3)), rng.choice(("none", "clamp0")))
        defenses = tuple((rng.randint(0, 7), rng.randint(0, 7))
                         for _ in range(rng.randint(2, 4)))
        cases.append(BlockersCase(attack, defenses,
                                  rng.choice(("shared_total", "per_blocker"))))
    return cases


def _most_hits(alternatives, monsters):
    """The players' best answer: most blockers hit, then least essence spent (the odds' policy)."""
    def key(after):
        hit = frozenset(i for i, m in enumerate(monsters) if after.unit(m).health < 5)
        return len(hit), after.unit("p").essence, hit
    return max((key(a) for a in alternatives), key=lambda k: (k[0], k[1]))[2]


BLOCKERS = blockers_cases(23, 60)


@pytest.mark.parametrize("case", BLOCKERS, ids=str)
def test_manual_p24_engine_one_roll_against_several_blockers_matches_blockers_outcome(case):
    state = attack_state(case.attack, defenses=case.defenses)
    monsters = [f"m{i}" for i in range(len(case.defenses))]
    engine: dict = {}
    for p, alternatives in engine_outcomes(state, PlayAbility("p", 0, None,
                                                              essence=case.attack.essence),
                                           case.rules):
        add(engine, _most_hits(alternatives, monsters), p)
    odds = blockers_outcome(Pool.attack(case.attack.high, case.attack.low), case.values,
                            case.rules, case.attack.modifier, case.attack.essence)
    assert {k: p for k, p in engine.items() if p} == odds


# --- p13, p14 and 3.5: the spawn phase, the horror phase and the threat they raise --------

@dataclass(frozen=True)
class RoundCase:
    """The end of an explorer phase, from which the spawn and horror phases are played.

    Each explorer on the map stands on a 3x3 tile of their own with one spawn space;
    ``full`` says which of those tiles hold 4 monsters (the spawn limit), ``crowd`` how
    many monsters (0-2) the others hold. ``exited`` explorers are off the map and
    ``lost`` explorers died earlier (they count only as starting explorers).
    ``chapter`` and ``next_chapter`` are (spawn, horror, blocking) ratings.
    """

    preset: str
    changes: tuple[tuple[str, str], ...]
    full: tuple[bool, ...]
    crowd: tuple[int, ...]
    exited: int
    lost: int
    chapter: tuple
    next_chapter: tuple
    spawn: int | None
    horror: int | None
    threat: int
    level: int
    positions: int

    @property
    def rules(self) -> Rules:
        return Rules.preset(self.preset).replace(dict(self.changes))

    def __str__(self) -> str:
        (s, h, b), (s1, h1, _) = self.chapter, self.next_chapter
        flips = "-".join(f"{name.split('.')[-1]}={reading}" for name, reading in self.changes)
        tiles = "".join("F" if f else str(c) for f, c in zip(self.full, self.crowd))
        return (f"{self.preset}-tiles{tiles}-exited{self.exited}-lost{self.lost}"
                f"-ch{s}.{h}{'B' if b else ''}-next{s1}.{h1}-r{self.spawn}-h{self.horror}"
                f"-t{self.threat}of{self.positions}-L{self.level}-{flips}")


SWITCHES_1_0 = {"rating.floor": ("none", "one"),
                "spawn.limit_scope": ("all_spawns", "phase_only", "none"),
                "spawn10.reset_on_limit": ("yes", "no"),
                "spawn10.roll_order": ("players_choose", "turn_order", "seating"),
                "threat.levelup": ("on_reach", "on_increase_from_last")}
SWITCHES_3_5 = {"rating.floor": ("none", "one"),
                "spawn.limit_scope": ("all_spawns", "none"),
                "adjust35.when": ("every_reset", "rating1_only", "every_phase_start"),
                "threat35.amount": ("default_printed", "current_slider"),
                "threat35.no_horror_rating": ("zero", "skip_rule"),
                "n35": ("alive_explorers", "starting_explorers", "explorers_in_play"),
                "spawn35.reset_on_success": ("no", "yes"),
                "threat.levelup": ("on_increase_from_last", "on_reach")}


def _stays_below_level_5(case: RoundCase) -> bool:
    """Whether every increase one round can bring leaves the level below 5 (at level 5 each
    explorer must destroy an item or die, which the rating processes do not follow)."""
    increases = len(case.full) + 1 + (9 if case.preset == "v3_5" else 0)
    threat, level = case.threat, case.level
    for _ in range(increases):
        threat, level, _ = raise_threat(threat, level, case.rules, case.positions)
    return level < 5


def round_cases(seed: int, count: int, preset: str, spawn_phase: bool = True) -> list[RoundCase]:
    rng = random.Random(seed)
    switches = SWITCHES_3_5 if preset == "v3_5" else SWITCHES_1_0
    cases: list[RoundCase] = []
    while len(cases) < count:
        on_map = rng.randint(1, 3)
        spawn = rng.choice((None, 1, 2, 3, 4, 5, 6, 7, 8, 9)) if spawn_phase else None
        horror = rng.choice((None, 1, 2, 3, 4, 5, 6, 7, 8, 9))
        current = rng.choice((1, 1, 2, -1, 0, 3, 5, 7, 9)) if preset == "v3_5" else \
            rng.randint(-1, 9)
        positions = rng.randint(2, 7)
        case = RoundCase(
            preset, tuple((name, rng.choice(readings)) for name, readings in switches.items()),
            tuple(rng.random() < 0.3 for _ in range(on_map)),
            tuple(rng.randint(0, 2) for _ in range(on_map)), int(rng.random() < 0.25),
            int(rng.random() < 0.25), (spawn, horror, rng.random() < 0.5),
            (rng.randint(1, 9), rng.randint(1, 9), False),
            None if spawn is None else current,
            None if horror is None else rng.randint(-1, 9),
            rng.randint(1, positions), rng.randint(1, 4), positions)
        if _stays_below_level_5(case):
            cases.append(case)
    return cases


MONSTER_LETTERS = "EFGHIJKLMNOPQRTUVWXYZ"
GHOUL = monster("ghoul")
CALM = tuple(EventCard(f"calm-{i}", "Calm", "horror") for i in range(3))


def round_state(case: RoundCase):
    """The last explorer on the map is about to end their turn (manual p12)."""
    explorers = "ABCD"[:len(case.full) + case.exited]
    legend, rows, letters = {}, {0: "", 1: "", 2: ""}, iter(MONSTER_LETTERS)
    for i, letter in enumerate(explorers):
        legend[letter] = explorer(letter.lower())
        crowd = 4 if i < len(case.full) and case.full[i] else \
            case.crowd[i] if i < len(case.full) else 0
        here = "".join(next(letters) for _ in range(crowd))
        for m in here:
            legend[m] = monster(f"m{m.lower()}")
        rows[0] += f"{letter}.s"
        rows[1] += here[:3].ljust(3, ".")
        rows[2] += here[3:].ljust(3, ".")
    (s, h, blocking), (s1, h1, _) = case.chapter, case.next_chapter
    state = scenario(open_map(3 * len(explorers), 3, rows), legend, tile_size=3,
                     chapter=ChapterCard("c0", "Chapter one", s, h, blocking),
                     chapters=Deck((ChapterCard("c1", "Chapter two", s1, h1),)),
                     spawn_rating=case.spawn, horror_rating=case.horror, threat=case.threat,
                     level=case.level, threat_positions=case.positions,
                     monsters=Deck((GHOUL,) * 6), horror_events=Deck(CALM),
                     starting_explorers=len(explorers) + case.lost)
    on_map = tuple(e.lower() for e in explorers[:len(case.full)])
    for gone in explorers[len(case.full):]:
        state = state.update_unit(gone.lower(), position=None)
    return replace(state, phase="explorer", active=on_map[-1], done=on_map[:-1], turns=on_map,
                   exited=tuple(e.lower() for e in explorers[len(case.full):]),
                   dead=tuple(f"lost-{i}" for i in range(case.lost)))


def _next_roll(state, rules):
    """The roll the players make next in the spawn or horror phase, or None: the phases are over."""
    if state.over:
        return None
    if state.phase == "spawn":
        rollers = spawn_rollers(state, rules)
        return RollSpawn(rollers[0].id) if rollers else None
    if state.phase == "horror" and state.horror_rating is not None and "horror" not in state.done:
        return RollHorror()
    return None


def engine_round(case: RoundCase) -> dict:
    """The engine's exact distribution after the spawn and horror phases, as summaries."""
    rules = case.rules
    start = round_state(case)
    dist = {}
    for p, (after,) in engine_outcomes(start, EndTurn(start.active), rules):
        add(dist, after, p)
    finished: dict = {}
    while dist:
        later: dict = {}
        for state, p in dist.items():
            roll = _next_roll(state, rules)
            if roll is None:
                add(finished, _summary(state), p)
                continue
            for q, alternatives in engine_outcomes(state, roll, rules):
                assert len(alternatives) == 1, "a spawn roll asked the players to choose"
                add(later, alternatives[0], p * q)
        dist = later
    return finished


def _summary(state) -> tuple:
    return (0 if state.chapter.id == "c0" else 1, state.spawn_rating, state.horror_rating,
            state.threat, state.level, state.next_id - 1, len(state.horror_events.destroyed))


def odds_round(case: RoundCase) -> dict:
    """:func:`play_rounds` over one round from the same situation, as the same summaries."""
    (s, h, blocking), (s1, h1, _) = case.chapter, case.next_chapter
    on_map = len(case.full)
    alive = on_map + case.exited
    setup = Setup((ChapterRatings(s, h, blocking), ChapterRatings(s1, h1)),
                  Party(alive + case.lost, alive, on_map, case.full),
                  threat_positions=case.positions, threat=case.threat, level=case.level,
                  spawn=case.spawn, horror=case.horror)
    out: dict = {}
    for summary, p in play_rounds(setup, case.rules, 1).items():
        add(out, (summary.chapter, summary.spawn_rating, summary.horror_rating, summary.threat,
                  summary.level, summary.spawned, summary.invoked), p)
    return out


def _check_round(case: RoundCase) -> None:
    assert engine_round(case) == odds_round(case)


def counted(case: RoundCase, reading: str | None = None) -> int:
    """The explorers the 3.5 adjustment counts under ``n35`` (or ``reading``)."""
    on_map, alive = len(case.full), len(case.full) + case.exited
    return max(1, {"explorers_in_play": on_map, "alive_explorers": alive,
                   "starting_explorers": alive + case.lost}[reading or dict(case.changes)["n35"]])


ROUNDS_1_0 = round_cases(13, 45, "manual")
ROUNDS_3_5 = round_cases(35, 70, "v3_5")
HORROR = round_cases(14, 20, "manual", spawn_phase=False) + \
    round_cases(140, 15, "v3_5", spawn_phase=False)


@pytest.mark.parametrize("case", ROUNDS_1_0, ids=str)
def test_manual_p13_engine_spawn_phase_matches_play_rounds(case):
    _check_round(case)


@pytest.mark.parametrize("case", ROUNDS_3_5, ids=str)
def test_3_5_engine_spawn_phase_matches_play_rounds(case):
    _check_round(case)


@pytest.mark.parametrize("case", HORROR, ids=str)
def test_manual_p14_engine_horror_phase_matches_play_rounds(case):
    _check_round(case)


# --- p14: threat movement and the monster level -------------------------------------------

@dataclass(frozen=True)
class ThreatCase:
    """A card effect moving monster threat by ``amount`` from ``threat`` of ``positions``."""

    changes: tuple[tuple[str, str], ...]
    threat: int
    level: int
    positions: int
    amount: int

    @property
    def rules(self) -> Rules:
        return MANUAL.replace(dict(self.changes))

    def __str__(self) -> str:
        flips = "-".join(f"{name}={reading}" for name, reading in self.changes)
        return (f"t{self.threat}of{self.positions}-L{self.level}-threat{self.amount:+d}-{flips}")


def threat_cases(seed: int, count: int) -> list[ThreatCase]:
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        positions = rng.randint(2, 6)
        floor = rng.choice(("clamp_one", "seal_only"))
        low = -1 if floor == "seal_only" else 1     # a deficit only exists under seal_only
        cases.append(ThreatCase(
            (("threat.levelup", rng.choice(("on_reach", "on_increase_from_last"))),
             ("level5_rule", rng.choice(("yes", "no"))), ("threat.floor", floor)),
            rng.randint(low, positions), rng.choice((1, 2, 3, 4, 4, 5, 5)), positions,
            rng.choice((-3, -2, -1, 1, 1, 2, 3, 4, 5, 7))))
    return cases


def odds_threat(case: ThreatCase) -> tuple[int, int, int]:
    """Threat, level and level-5 replacements by :func:`raise_threat` / :func:`lower_threat`."""
    if case.amount < 0:
        return lower_threat(case.threat, -case.amount, case.rules, "card"), case.level, 0
    threat, level, replaced = case.threat, case.level, 0
    for _ in range(case.amount):
        threat, level, event = raise_threat(threat, level, case.rules, case.positions)
        replaced += event
    return threat, level, replaced


THREAT = threat_cases(14, 50)


@pytest.mark.parametrize("case", THREAT, ids=str)
def test_manual_p14_engine_threat_moves_as_raise_threat(case):
    """A card's threat change, played by an explorer with nothing equipped: at level 5 under
    ``level5_rule = yes`` every increase destroys that explorer instead, losing the game."""
    shift = Ability("Omen", Cost(stamina=1), Targeting(), (Effect("threat", amount=case.amount),))
    state = scenario(open_map(2, 1, {0: "P."}), {"P": explorer("p", abilities=(shift,))},
                     threat=case.threat, level=case.level, threat_positions=case.positions,
                     monsters=Deck((GHOUL,) * 4))
    state = replace(state, phase="explorer", active="p", turns=("p",))
    [(p, (after,))] = engine_outcomes(state, PlayAbility("p", 0, None), case.rules)
    threat, level, replaced = odds_threat(case)
    assert p == 1 and (after.threat, after.level) == (threat, level)
    assert (after.over == "lost") == (replaced > 0)
