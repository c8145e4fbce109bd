"""Dice, pools and their exact distributions; the dice-expression parser.

The game has two custom attack dice, a d10 "game die" and a recharge die
(manual p4-5, p24). A :class:`Pool` is a multiset of dice; its
:class:`Distribution` is exact: integer counts over a common denominator
(``6**dice`` for attack pools), so ``P(S >= k)`` is one integer over another
and becomes a :class:`~fractions.Fraction` only when asked.

>>> pool = Pool.attack(high=1, low=1)
>>> pool.distribution().at_least(3)
Fraction(5, 9)
>>> parse_dice("1H2L").pool == Pool.attack(high=1, low=2)
True

Rules: manual p4-5 (components: dice), manual p24 (attack roll).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import NoReturn, cast

from machina_nb.rules.errors import RulesError
from machina_nb.rules.numbers import fraction_words, percent_words

__all__ = [
    "Die", "LOW", "HIGH", "D10", "RechargeDie", "Distribution", "Pool",
    "DiceExpression", "parse_dice", "MAX_DICE", "MAX_MODIFIER", "MAX_FACES", "MAX_FACE_VALUE",
    "MAX_EXPRESSION",
]

MAX_DICE = 40
"""The most dice one pool may hold (the box has 3+3; abilities may ask for more)."""

MAX_FACES = 100
"""The most faces a custom die may have (the game's dice have 6 or 10)."""

MAX_FACE_VALUE = 99
"""The largest value (either sign) printed on a face of a custom die."""

MAX_EXPRESSION = 200
"""The longest dice expression :func:`parse_dice` reads."""

MAX_MODIFIER = 99
"""The largest constant a dice expression may add or subtract."""

_ONE, _ZERO = Fraction(1), Fraction(0)


@dataclass(frozen=True)
class Die:
    """A die: a name and the value printed on each face (one face per entry).

    Rules: manual p4-5 (dice).
    """

    name: str
    faces: tuple[int, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise RulesError("name", "a die needs a name")
        if not isinstance(self.faces, tuple) or not self.faces:
            raise RulesError("faces", "a die needs a tuple of at least one face")
        if len(self.faces) > MAX_FACES:
            raise RulesError("faces", f"a die has at most {MAX_FACES} faces")
        if not all(isinstance(v, int) and not isinstance(v, bool) and abs(v) <= MAX_FACE_VALUE
                   for v in self.faces):
            raise RulesError("faces", f"face values must be integers within ±{MAX_FACE_VALUE}")

    @cached_property
    def distribution(self) -> Distribution:
        """The die's own distribution: each face weighs 1 over ``len(faces)``.

        Rules: manual p4-5 (dice) (single dice).
        """
        low = min(self.faces)
        counts = [0] * (max(self.faces) - low + 1)
        for value in self.faces:
            counts[value - low] += 1
        return Distribution(low, tuple(counts), len(self.faces))


LOW = Die("low", (0, 1, 1, 1, 2, 2))
"""The low attack die (manual p4-5)."""

HIGH = Die("high", (0, 1, 1, 2, 2, 3))
"""The high attack die (manual p4-5)."""

D10 = Die("d10", tuple(range(10)))
"""The game die: 0-9, a 0 counts as 0 (manual p4-5, p26)."""


@dataclass(frozen=True)
class RechargeDie:
    """The recharge die: how many of its six faces show each result.

    The faces are not given in the text , so the counts are a
    parameter: ``restore_health + restore_stamina + nothing == 6``.

    >>> RechargeDie(2, 2, 2).chances()["restore_health"]
    Fraction(1, 3)

    Rules: aid (recharge station), 3.5 FAQ (recharge station).
    """

    restore_health: int
    restore_stamina: int
    nothing: int

    def __post_init__(self) -> None:
        for name in ("restore_health", "restore_stamina", "nothing"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(name, f"a face count is a whole number, got {value!r}"[:120])
            if value < 0:
                raise RulesError(name, "a face count cannot be negative")
        if self.restore_health + self.restore_stamina + self.nothing != 6:
            raise RulesError("recharge_die", "the face counts must add up to 6")

    def chances(self) -> dict[str, Fraction]:
        """Each result's probability on one roll.

        Rules: aid (recharge station).
        """
        return {name: Fraction(getattr(self, name), 6)
                for name in ("restore_health", "restore_stamina", "nothing")}


@dataclass(frozen=True)
class Distribution:
    """An exact distribution of integer totals: ``P(offset + i) = counts[i] / denominator``.

    Counts are integers (for attack pools the denominator is ``6**dice``), so
    sums of probabilities are integer sums. Adding two distributions convolves
    them; adding an integer shifts the totals.

    Rules: manual p24 (an attack roll adds its dice: sums are convolutions).
    """

    offset: int
    counts: tuple[int, ...]
    denominator: int

    @cached_property
    def _tails(self) -> tuple[int, ...]:
        tails = [0] * (len(self.counts) + 1)
        for i in range(len(self.counts) - 1, -1, -1):
            tails[i] = tails[i + 1] + self.counts[i]
        return tuple(tails)

    @property
    def minimum(self) -> int:
        """The smallest possible total.

        Rules: manual p24 (attack roll totals).
        """
        return self.offset

    @property
    def maximum(self) -> int:
        """The largest possible total.

        Rules: manual p24 (attack roll totals).
        """
        return self.offset + len(self.counts) - 1

    def count(self, total: int) -> int:
        """How many of the ``denominator`` equally likely outcomes give ``total``.

        Rules: manual p24 (attack roll totals).
        """
        i = _total(total) - self.offset
        return self.counts[i] if 0 <= i < len(self.counts) else 0

    def count_at_least(self, total: int) -> int:
        """How many outcomes give at least ``total`` (an integer; no division).

        Rules: manual p24 (a hit needs the total to reach armor or will).
        """
        i = _total(total) - self.offset
        if i <= 0:
            return self.denominator
        return self._tails[i] if i < len(self.counts) else 0

    def probability(self, total: int) -> Fraction:
        """``P(S = total)``.

        Rules: manual p24 (attack roll totals).
        """
        return Fraction(self.count(total), self.denominator)

    @cached_property
    def _tail_chances(self) -> tuple[Fraction, ...]:
        return tuple(Fraction(t, self.denominator) for t in self._tails)

    def at_least(self, total: int) -> Fraction:
        """``P(S >= total)``: the chance to reach a threshold (manual p24: a hit reaches the
        defense)."""
        return self._at_least(_total(total))

    def _at_least(self, total: int) -> Fraction:
        """:meth:`at_least` for a ``total`` already known to be a whole number."""
        i = total - self.offset
        if i <= 0:
            return _ONE
        return self._tail_chances[i] if i < len(self.counts) else _ZERO

    def pmf(self) -> dict[int, Fraction]:
        """Every total with a non-zero chance and that chance.

        Rules: manual p24 (attack roll totals).
        """
        return {self.offset + i: Fraction(c, self.denominator)
                for i, c in enumerate(self.counts) if c}

    @property
    def mean(self) -> Fraction:
        """The expected total.

        Rules: manual p24 (attack roll totals).
        """
        return Fraction(sum((self.offset + i) * c for i, c in enumerate(self.counts)),
                        self.denominator)

    def __add__(self, other: Distribution | int) -> Distribution:
        if isinstance(other, int):
            return Distribution(self.offset + other, self.counts, self.denominator)
        return _convolve(self, other)

    __radd__ = __add__

    def _repr_html_(self) -> str:
        """The chances as a notebook table: each total, exactly and at least, as a percent
        beside the exact fraction."""
        return _html_table(self, "")

    def clamped(self, floor: int) -> Distribution:
        """The distribution of ``max(S, floor)``.

        Rules: manual p24 (the total against the defense); switch roll.floor (``clamp0``).
        """
        if floor <= self.offset:
            return self
        below = self.denominator - self.count_at_least(floor + 1)
        rest = tuple(self.counts[floor + 1 - self.offset:])
        return Distribution(floor, (below,) + rest, self.denominator)


def _total(total: object) -> int:
    if not isinstance(total, int) or isinstance(total, bool):
        raise RulesError("total", f"expected a whole number, got {type(total).__name__}")
    return total


@lru_cache(maxsize=4096)
def _convolve(a: Distribution, b: Distribution) -> Distribution:
    out = [0] * (len(a.counts) + len(b.counts) - 1)
    bc = [(j, c) for j, c in enumerate(b.counts) if c]
    for i, ca in enumerate(a.counts):
        if ca:
            for j, cb in bc:
                out[i + j] += ca * cb
    return Distribution(a.offset + b.offset, tuple(out), a.denominator * b.denominator)


@lru_cache(maxsize=1024)
def _power(die: Die, n: int) -> Distribution:
    """The sum of ``n`` copies of ``die``, by repeated squaring of the convolution."""
    if n == 0:
        return Distribution(0, (1,), 1)
    if n == 1:
        return die.distribution
    half = _power(die, n // 2)
    twice = half + half
    return twice + die.distribution if n % 2 else twice


@dataclass(frozen=True)
class Pool:
    """A pool of dice rolled together and summed: ``((die, count), ...)``.

    Build attack pools with :meth:`attack`. Pools compare equal when they hold
    the same dice, whatever the order given.

    Rules: manual p24 (roll the low and high dice and sum them).
    """

    dice: tuple[tuple[Die, int], ...]

    def __post_init__(self) -> None:
        merged: dict[Die, int] = {}
        if not isinstance(self.dice, tuple) or not all(
                isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], Die)
                for pair in self.dice):
            raise RulesError("dice", "expected (die, count) pairs, e.g. Pool.attack(1, 2)")
        for die, n in self.dice:
            if not isinstance(n, int) or isinstance(n, bool):
                raise RulesError("dice", f"the number of {die.name} dice must be an integer")
            if n < 0:
                raise RulesError("dice", f"a pool cannot hold a negative number of {die.name} "
                                         f"dice ({n})")
            if n > MAX_DICE:
                raise RulesError("dice", f"at most {MAX_DICE} dice in one pool (got {n} "
                                         f"{die.name} dice)")
            merged[die] = merged.get(die, 0) + n
        total = sum(merged.values())
        if total == 0:
            raise RulesError("dice", "the pool has no dice")
        if total > MAX_DICE:
            raise RulesError("dice", f"at most {MAX_DICE} dice in one pool (got {total})")
        canon = tuple(sorted(((d, n) for d, n in merged.items() if n),
                             key=lambda dn: (dn[0].name, dn[0].faces)))
        object.__setattr__(self, "dice", canon)

    @classmethod
    def attack(cls, high: int = 0, low: int = 0) -> Pool:
        """``high`` high attack dice and ``low`` low attack dice (manual p24)."""
        return cls(((HIGH, high), (LOW, low)))

    @classmethod
    def of(cls, dice: Mapping[Die, int] | Iterable[tuple[Die, int]]) -> Pool:
        """A pool from ``{die: count}`` or ``(die, count)`` pairs (custom dice welcome).

        Rules: manual p4-5 (dice), p24 (dice rolled together and summed).
        """
        items = dice.items() if isinstance(dice, Mapping) else dice
        if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
            raise RulesError("dice", "expected {die: count} or (die, count) pairs")
        return cls(tuple(tuple(p) if isinstance(p, list) else p for p in items))

    def count(self, die: Die) -> int:
        """How many of ``die`` the pool holds.

        Rules: manual p24 (the low and high attack dice of a roll).
        """
        return dict(self.dice).get(die, 0)

    @property
    def high(self) -> int:
        """The number of high attack dice.

        Rules: manual p24 (the low and high attack dice of a roll).
        """
        return self.count(HIGH)

    @property
    def low(self) -> int:
        """The number of low attack dice.

        Rules: manual p24 (the low and high attack dice of a roll).
        """
        return self.count(LOW)

    @property
    def size(self) -> int:
        """The number of dice.

        Rules: manual p24 (the low and high attack dice of a roll).
        """
        return sum(n for _, n in self.dice)

    def distribution(self) -> Distribution:
        """The exact distribution of the pool's sum (manual p24: the attack roll adds its
        dice)."""
        try:
            known: Distribution = self.__dict__["_distribution"]
            return known
        except KeyError:
            dist = self.__dict__["_distribution"] = _pool_distribution(self)
            return dist

    def _repr_html_(self) -> str:
        """The pool's sum as a notebook table of chances (see :meth:`Distribution._repr_html_`)."""
        return _html_table(self.distribution(), f"The sum of {self}")

    def __str__(self) -> str:
        letters = {HIGH: "H", LOW: "L"}
        parts = [f"{n}{letters[d]}" if d in letters else f"{n}x{d.name}" for d, n in
                 sorted(self.dice, key=lambda dn: dn[0] is not HIGH)]
        return "+".join(parts)


def _chance_cell(p: Fraction) -> str:
    return f"<td>{percent_words(p)}</td><td>{fraction_words(p)}</td>"


def _html_table(dist: Distribution, caption: str) -> str:
    rows = "".join(f"<tr><td>{total}</td>{_chance_cell(p)}{_chance_cell(dist.at_least(total))}"
                   f"</tr>" for total, p in dist.pmf().items())
    head = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return (f"<table>{head}<tr><th>Total</th><th colspan='2'>Chance of exactly</th>"
            f"<th colspan='2'>Chance of at least</th></tr>{rows}</table>")


@lru_cache(maxsize=1024)
def _pool_distribution(pool: Pool) -> Distribution:
    result: Distribution | None = None
    for die, n in pool.dice:
        part = _power(die, n)
        result = part if result is None else result + part
    return cast(Distribution, result)   # a pool holds at least one die


@dataclass(frozen=True)
class DiceExpression:
    """A parsed dice expression: the pool, a constant modifier and the attack type.

    Rules: manual p24 (roll, add and subtract present effects; armor or will).
    """

    pool: Pool
    modifier: int = 0
    arcane: bool = False

    def __str__(self) -> str:
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.pool}{mod}{' arcane' if self.arcane else ''}"


_LETTERS = {"h": HIGH, "l": LOW}
_KEYWORDS = {"arcane": True, "physical": False}


def parse_dice(text: str, argument: str = "dice") -> DiceExpression:
    """Parse a dice expression such as ``1H2L``, ``3H arcane`` or ``2H+1L+1``.

    Grammar (case-insensitive, spaces allowed between tokens)::

        expression := term (sign? term)* keyword?
        term       := sign? NUMBER? ("H" | "L")  |  sign NUMBER  |  NUMBER
        sign       := "+" | "-"
        keyword    := "arcane" | "physical"

    A bare letter means one die. A constant is the present modifier. Nothing
    is evaluated: this is a hand-written scanner, and anything else is a
    :class:`RulesError` naming ``argument`` and the 1-based position.

    >>> str(parse_dice("2h + 1l - 1 arcane"))
    '2H+1L-1 arcane'

    Rules: manual p24 (attack dice and modifiers), manual p25 (arcane attacks).
    """
    _check_expression(text, argument)
    counts = {HIGH: 0, LOW: 0}
    modifier = 0
    arcane = False
    seen_term = False
    i, n = 0, len(text)

    def _fail(pos: int, message: str, hint: str = "") -> NoReturn:
        raise RulesError(argument, f"{message} at position {pos + 1} in {text!r}{hint}")

    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if ch.isascii() and ch.isalpha():
            i, keyword = _word(text, i, seen_term, counts, _fail)
            if keyword is not None:
                arcane = keyword
                break
            seen_term = True
            continue
        start = i
        sign = 1
        if ch in "+-":
            sign = -1 if ch == "-" else 1
            i += 1
            while i < n and text[i].isspace():
                i += 1
            if i == n:
                _fail(start, "a sign must be followed by a number or a die")
        digits_start = i
        while i < n and text[i] in "0123456789":
            i += 1
        digits = text[digits_start:i]
        if len(digits) > 4:
            _fail(digits_start, "number too large")
        if i < n and text[i].lower() in _LETTERS and (i + 1 == n or not text[i + 1].isalpha()):
            number = int(digits) if digits else 1
            if sign < 0:
                _fail(start, "a pool cannot hold a negative number of dice")
            counts[_LETTERS[text[i].lower()]] += number
            seen_term = True
            i += 1
            continue
        if not digits:
            _fail(i if i < n else start, f"unexpected {text[i]!r}" if i < n else "unexpected end")
        if not (ch in "+-" or not seen_term):
            _fail(start, "a constant needs a + or - sign after the dice")
        modifier += sign * int(digits)
        if abs(modifier) > MAX_MODIFIER:
            _fail(start, f"the modifier must stay within ±{MAX_MODIFIER}")
        seen_term = True
    return _expression(text, argument, seen_term, counts, modifier, arcane)


def _word(text: str, i: int, seen_term: bool, counts: dict[Die, int],
          fail: Callable[..., NoReturn]) -> tuple[int, bool | None]:
    """Scan the letters at ``i``: dice letters (counted) or the closing attack type."""
    start, n = i, len(text)
    while i < n and text[i].isascii() and text[i].isalpha():
        i += 1
    word = text[start:i].lower()
    if word in _KEYWORDS and seen_term:
        if text[i:].strip():
            fail(n - len(text[i:].lstrip()), "nothing may follow the attack type")
        return i, _KEYWORDS[word]
    if set(word) <= _LETTERS.keys():
        for letter in word:
            counts[_LETTERS[letter]] += 1
        return i, None
    fail(start, f"unknown {'word' if len(word) > 1 else 'letter'} {text[start:i]!r}",
         " (expected H, L, a number, + or -, or 'arcane')")


def _check_expression(text: object, argument: str) -> None:
    if not isinstance(text, str):
        raise RulesError(argument, "expected a dice expression such as '1H2L'")
    if len(text) > MAX_EXPRESSION:
        raise RulesError(argument, f"a dice expression has at most {MAX_EXPRESSION} characters")


def _expression(text: str, argument: str, seen_term: bool, counts: dict[Die, int], modifier: int,
                arcane: bool) -> DiceExpression:
    if not seen_term:
        raise RulesError(argument, f"empty dice expression {text!r}")
    if counts[HIGH] + counts[LOW] == 0:
        raise RulesError(argument, f"{text!r}: the pool has no dice")
    if counts[HIGH] + counts[LOW] > MAX_DICE:
        raise RulesError(argument, f"{text!r}: at most {MAX_DICE} dice in one pool")
    return DiceExpression(Pool.attack(counts[HIGH], counts[LOW]), modifier, arcane)
