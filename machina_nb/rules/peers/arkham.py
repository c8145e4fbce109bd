"""Arkham Horror LCG skill tests, exact: a chaos bag, a skill value, a difficulty.

A test reveals one chaos token at random. Numbered tokens modify the skill
value by their number; skull, cultist, tablet and elder thing by the value the
scenario gives them; the elder sign by the investigator's value; the auto-fail
token fails the test whatever the numbers. The test succeeds when the modified
value (skill + committed icons + other modifiers + token) is at least the
difficulty. Icons are committed *before* the token is drawn.

>>> from machina_nb.rules.rulings import Rules
>>> bag = Bag.parse("+1,0,0,-1,-1,-2,skull,auto_fail,elder_sign", values="skull=-2",
...                 elder_sign=1)
>>> success_chance(bag, skill=3, difficulty=3, rules=Rules())
Fraction(4, 9)
>>> success_chance(bag, skill=3, difficulty=3, rules=Rules(), commit=1)
Fraction(2, 3)

Readings beyond the summary (each off by default, see content/rulings/peers.toml):
``arkham.reveal_another`` (marked tokens reveal another, with chains),
``arkham.draw`` (draw two, keep the better), ``arkham.skill_floor``.

Rules: Arkham summary (Skills and skill tests; Chaos token
effects); switches arkham.reveal_another, arkham.draw, arkham.skill_floor.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from machina_nb.rules.errors import RulesError
from machina_nb.rules.numbers import chance_words
from machina_nb.rules.rulings import Rules

__all__ = [
    "SUMMARY", "TOKEN_NAMES", "SCENARIO_TOKENS", "MAX_BAG", "Bag", "Result", "SkillTest",
    "outcomes", "success_chance", "skill_test", "icon_gain", "succeed_by", "fail_by_at_most",
    "fight", "evade", "investigate", "parse_values",
]

SUMMARY = "Arkham summary"
TEST_RULE = f"{SUMMARY} (Skills and skill tests)"
TOKEN_NAMES = ("skull", "cultist", "tablet", "elder_thing", "elder_sign", "auto_fail")
"""The named chaos tokens; any other token is a signed number."""
SCENARIO_TOKENS = ("skull", "cultist", "tablet", "elder_thing")
"""The tokens whose value the scenario sets."""
MAX_BAG = 40
"""The largest bag accepted: a documented limit on work (a printed campaign bag holds about 16)."""

Token = int | str


def _token(text: str) -> Token:
    word = text.strip().lower()
    if word in TOKEN_NAMES:
        return word
    try:
        return int(word)
    except ValueError:
        raise RulesError("bag", f"unknown token {text.strip()!r}: expected a signed number or one "
                         f"of {', '.join(TOKEN_NAMES)}") from None


def parse_values(text: str | None) -> dict[str, int]:
    """``"skull=-1,cultist=-2"`` -> ``{"skull": -1, "cultist": -2}``; errors name ``values``.

    Rules: Arkham summary (Chaos token effects: the scenario card).
    """
    values: dict[str, int] = {}
    for item in (text or "").split(","):
        if not item.strip():
            continue
        name, sep, number = item.partition("=")
        name = name.strip().lower()
        if not sep or name not in SCENARIO_TOKENS:
            raise RulesError("values", f"expected NAME=V with NAME one of "
                             f"{', '.join(SCENARIO_TOKENS)}, got {item.strip()!r}")
        try:
            values[name] = int(number)
        except ValueError:
            raise RulesError("values", f"{name}: expected a whole number, got {number.strip()!r}"
                             ) from None
    return values


@dataclass(frozen=True)
class Bag:
    """A chaos bag: its tokens, the scenario's token values, the elder sign's value.

    ``tokens`` is sorted (order never matters in a bag); ``values`` holds the
    scenario tokens' values as ``(name, value)`` pairs; ``reveals_another``
    names the tokens marked to reveal a further token (read only under
    ``arkham.reveal_another = chain_marked``; numbers are written as text, ``"-2"``).

    Rules: Arkham summary (Setup: the chaos bag; Chaos token effects).
    """

    tokens: tuple[Token, ...]
    values: tuple[tuple[str, int], ...] = ()
    elder_sign: int | None = None
    reveals_another: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if not self.tokens:
            raise RulesError("bag", "the bag is empty: give at least one token")
        if len(self.tokens) > MAX_BAG:
            raise RulesError("bag", f"{len(self.tokens)} tokens; at most {MAX_BAG} are accepted")
        object.__setattr__(self, "tokens", tuple(sorted(self.tokens, key=_order)))
        values = dict(self.values)
        for token in set(self.tokens):
            if token in SCENARIO_TOKENS and token not in values:
                raise RulesError("values", f"the bag holds {token} but no value is given for it "
                                 f"(e.g. {token}=-1)")
            if token == "elder_sign" and self.elder_sign is None:
                raise RulesError("elder-sign", "the bag holds elder_sign but the investigator's "
                                 "elder sign value is not given")
        object.__setattr__(self, "values", tuple(sorted(values.items())))
        object.__setattr__(self, "reveals_another", frozenset(self.reveals_another))

    @classmethod
    def parse(cls, tokens: str, values: str | Mapping[str, int] | None = None,
              elder_sign: int | None = None, reveals_another: Iterable[str] = ()) -> Bag:
        """A bag from the CLI's text: ``"+1,0,-1,skull,auto_fail"`` and ``"skull=-1"``.

        Rules: Arkham summary (Setup: chaos tokens in the bag).
        """
        parts = [part for part in tokens.split(",")]
        if not tokens.strip() or any(not part.strip() for part in parts):
            raise RulesError("bag", f"expected a comma list of tokens, got {tokens!r}")
        given = values if isinstance(values, Mapping) else parse_values(values)
        marked = frozenset(str(_token(t)) for t in reveals_another)
        return cls(tuple(_token(p) for p in parts), tuple(given.items()), elder_sign, marked)

    def modifier(self, token: Token) -> int | None:
        """The token's modifier, or None for the auto-fail token.

        Rules: Arkham summary (Chaos token effects).
        """
        if isinstance(token, int):
            return token
        if token == "auto_fail":
            return None
        if token == "elder_sign":
            return self.elder_sign
        return dict(self.values)[token]

    def text(self) -> str:
        """The bag in words, e.g. ``+1, 0, -1, skull (-2), auto-fail``."""
        def word(t: Token) -> str:
            if isinstance(t, int):
                return f"{t:+d}" if t else "0"
            if t == "auto_fail":
                return "auto-fail"
            return f"{t.replace('_', ' ')} ({self.modifier(t):+d})"
        return ", ".join(word(t) for t in self.tokens)


def _order(token: Token) -> tuple[int, int, str]:
    return (0, -token, "") if isinstance(token, int) else (1, TOKEN_NAMES.index(token), token)


@dataclass(frozen=True, order=True)
class Result:
    """What the revealed token(s) did: ``failed`` (an auto-fail) or the total ``modifier``.

    Rules: Arkham summary (Chaos token effects).
    """

    failed: bool
    modifier: int

    def better_than(self, other: Result) -> bool:
        """Any result beats an auto-fail; otherwise the larger modifier (``arkham.draw``).

        Rules: switch arkham.draw (best_of_two).
        """
        if self.failed != other.failed:
            return other.failed
        return self.modifier > other.modifier


AUTO_FAIL = Result(True, 0)


def _counts(bag: Bag) -> tuple[tuple[Token, int], ...]:
    seen: dict[Token, int] = {}
    for token in bag.tokens:
        seen[token] = seen.get(token, 0) + 1
    return tuple(seen.items())


def _take(counts: tuple[tuple[Token, int], ...], index: int) -> tuple[tuple[Token, int], ...]:
    token, n = counts[index]
    rest = counts[:index] + (((token, n - 1),) if n > 1 else ()) + counts[index + 1:]
    return rest


@lru_cache(maxsize=4096)
def _chains(bag: Bag, counts: tuple[tuple[Token, int], ...], chain: bool
            ) -> tuple[tuple[Result, tuple[tuple[Token, int], ...], Fraction], ...]:
    """Every way one draw (a chain under ``chain_marked``) can end: result, bag left, chance."""
    total = sum(n for _, n in counts)
    found: list[tuple[Result, tuple[tuple[Token, int], ...], Fraction]] = []
    for index, (token, n) in enumerate(counts):
        p = Fraction(n, total)
        rest = _take(counts, index)
        value = bag.modifier(token)
        here = AUTO_FAIL if value is None else Result(False, value)
        if chain and str(token) in bag.reveals_another and rest:
            for result, left, q in _chains(bag, rest, chain):
                joined = AUTO_FAIL if here.failed or result.failed else \
                    Result(False, here.modifier + result.modifier)
                found.append((joined, left, p * q))
        else:
            found.append((here, rest, p))
    return tuple(found)


def outcomes(bag: Bag, rules: Rules) -> dict[Result, Fraction]:
    """The exact distribution of what the draw does to the test, under the readings.

    Under ``arkham.draw = best_of_two`` a second draw is made from what is left
    (when anything is left) and the better of the two is kept.

    >>> outcomes(Bag.parse("+1,auto_fail"), Rules().replace({"arkham.draw": "best_of_two"}))
    {Result(failed=False, modifier=1): Fraction(1, 1)}

    Rules: Arkham summary (Skills and skill tests); switches
    arkham.reveal_another, arkham.draw.
    """
    if not isinstance(bag, Bag):
        raise RulesError("bag", f"expected a Bag, got {type(bag).__name__}")
    chain = rules["arkham.reveal_another"] == "chain_marked"
    two = rules["arkham.draw"] == "best_of_two"
    dist: dict[Result, Fraction] = {}
    for first, left, p in _chains(bag, _counts(bag), chain):
        if two and left:
            for second, _, q in _chains(bag, left, chain):
                kept = second if second.better_than(first) else first
                dist[kept] = dist.get(kept, 0) + p * q
        else:
            dist[first] = dist.get(first, 0) + p
    return dict(sorted(dist.items()))


def _check_int(name: str, value: object, low: int = -99, high: int = 99) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesError(name, f"expected a whole number from {low} to {high}, got {value!r}")
    return value


def _value(base: int, result: Result, rules: Rules) -> int:
    total = base + result.modifier
    return max(0, total) if rules["arkham.skill_floor"] == "zero" else total


@dataclass(frozen=True)
class SkillTest:
    """One skill test, exactly: success chance, auto-fail chance and every margin.

    ``margins`` maps each margin (modified value minus difficulty) reached
    without an auto-fail to its chance; ``auto_fail`` is the chance of the
    auto-fail result, which fails with no margin at all.

    Rules: Arkham summary (Skills and skill tests).
    """

    skill: int
    difficulty: int
    commit: int
    modifier: int
    p_success: Fraction
    auto_fail: Fraction
    margins: tuple[tuple[int, Fraction], ...]
    reading: str

    def explain(self) -> str:
        """One line: the test, the exact chance and its percentage, the citation."""
        extra = f" + {self.commit} icon(s)" if self.commit else ""
        extra += f" {self.modifier:+d}" if self.modifier else ""
        return (f"skill {self.skill}{extra} against difficulty {self.difficulty}: succeeds with "
                f"chance {chance_words(self.p_success)}; auto-fail "
                f"{self.auto_fail} ({TEST_RULE}; {self.reading})")


def skill_test(bag: Bag, skill: int, difficulty: int, rules: Rules, commit: int = 0,
              modifier: int = 0) -> SkillTest:
    """The whole test: the chance to succeed and the chance of every margin.

    ``commit`` is the number of matching icons committed before the draw
    (each +1); ``modifier`` any other fixed change to the skill value.

    Rules: Arkham summary (Skills and skill tests: commit before
    the token; success when the modified value meets the difficulty); switch arkham.skill_floor.
    """
    skill = _check_int("skill", skill, 0, 99)
    difficulty = _check_int("difficulty", difficulty, 0, 99)
    commit = _check_int("commit", commit, 0, 99)
    modifier = _check_int("modifier", modifier)
    base = skill + commit + modifier
    margins: dict[int, Fraction] = {}
    failed = Fraction(0)
    for result, p in outcomes(bag, rules).items():
        if result.failed:
            failed += p
            continue
        margin = _value(base, result, rules) - difficulty
        margins[margin] = margins.get(margin, 0) + p
    success = sum((p for m, p in margins.items() if m >= 0), Fraction(0))
    reading = ", ".join(f"{name}={rules[name]}" for name in
                        ("arkham.reveal_another", "arkham.draw", "arkham.skill_floor"))
    return SkillTest(skill, difficulty, commit, modifier, success, failed,
                    tuple(sorted(margins.items())), reading)


def success_chance(bag: Bag, skill: int, difficulty: int, rules: Rules, commit: int = 0,
                   modifier: int = 0) -> Fraction:
    """P(success) of one skill test (see :func:`skill_test`).

    Rules: Arkham summary (Skills and skill tests).
    """
    return skill_test(bag, skill, difficulty, rules, commit, modifier).p_success


def succeed_by(bag: Bag, skill: int, difficulty: int, n: int, rules: Rules, commit: int = 0,
               modifier: int = 0) -> Fraction:
    """P(the test succeeds by ``n`` or more): modified value >= difficulty + n, no auto-fail.

    Rules: Arkham summary (Skills and skill tests).
    """
    n = _check_int("n", n, 0, 99)
    odds = skill_test(bag, skill, difficulty, rules, commit, modifier)
    return sum((p for m, p in odds.margins if m >= n), Fraction(0))


def fail_by_at_most(bag: Bag, skill: int, difficulty: int, n: int, rules: Rules,
                    commit: int = 0, modifier: int = 0) -> Fraction:
    """P(the test fails by ``n`` or less): 1 <= difficulty - value <= n.

    An auto-fail has no margin (the summary gives it none), so it never counts
    here; :attr:`SkillTest.auto_fail` reports it apart.

    Rules: Arkham summary (Skills and skill tests; Auto-fail).
    """
    n = _check_int("n", n, 1, 99)
    odds = skill_test(bag, skill, difficulty, rules, commit, modifier)
    return sum((p for m, p in odds.margins if -n <= m < 0), Fraction(0))


def icon_gain(bag: Bag, skill: int, difficulty: int, rules: Rules, commit: int = 0,
              modifier: int = 0) -> Fraction:
    """What one more committed icon buys: P(success with commit + 1) - P(success with commit).

    Rules: Arkham summary (Skills and skill tests: each matching
    icon adds 1).
    """
    return (success_chance(bag, skill, difficulty, rules, commit + 1, modifier)
            - success_chance(bag, skill, difficulty, rules, commit, modifier))


def fight(bag: Bag, combat: int, enemy_fight: int, rules: Rules, commit: int = 0,
          modifier: int = 0) -> SkillTest:
    """Fight: a combat test against the enemy's fight value.

    Rules: Arkham summary (The Investigation Phase: Fight).
    """
    return skill_test(bag, combat, enemy_fight, rules, commit, modifier)


def evade(bag: Bag, agility: int, enemy_evade: int, rules: Rules, commit: int = 0,
          modifier: int = 0) -> SkillTest:
    """Evade: an agility test against the enemy's evade value.

    Rules: Arkham summary (The Investigation Phase: Evade).
    """
    return skill_test(bag, agility, enemy_evade, rules, commit, modifier)


def investigate(bag: Bag, intellect: int, shroud: int, rules: Rules, commit: int = 0,
                modifier: int = 0) -> SkillTest:
    """Investigate: an intellect test against the location's shroud value.

    Rules: Arkham summary (The Investigation Phase: Investigate).
    """
    return skill_test(bag, intellect, shroud, rules, commit, modifier)
