"""Chance points: where the engine rolls a die or shuffles a deck, and who decides the result.

Every roll goes through a dice source passed in by the caller:

* :class:`ScriptedDice` — "the next d10 is 7": results given in advance, in order;
* :class:`SeededDice` — drawn from a seeded :class:`random.Random`;
* :class:`OpenDice` — left open: the roll raises :class:`ChanceNode` listing its
  outcomes with exact :class:`~fractions.Fraction` probabilities, and the state
  is untouched (the caller picks an outcome and applies again with a script).

Every source records what it produced in :attr:`Dice.record`, so a history can
replay an action exactly.

>>> dice = ScriptedDice([7, 3])
>>> dice.roll("d10", "spawn roll"), dice.roll("high", "attack")
(7, 3)
>>> try:
...     OpenDice().roll("d10", "horror roll")
... except ChanceNode as node:
...     node.outcomes[0]
(0, Fraction(1, 10))

Rules: manual p4-5 (dice), p24 (attack roll), p13-14 (d10 rolls).
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from typing import Any, Iterable, Sequence, TypeVar, cast

from machina_nb.rules.odds.dice import D10, HIGH, LOW
from machina_nb.rules.errors import RulesError

__all__ = ["FACES", "ChanceNode", "Dice", "ScriptedDice", "SeededDice", "OpenDice", "outcomes"]

_T = TypeVar("_T")

FACES = {**{die.name: die.faces for die in (D10, HIGH, LOW)}, "recharge": (1, 2, 3, 4, 5, 6)}
"""Faces of each die the engine rolls, from :mod:`machina_nb.rules.odds.dice` (manual p4-5, p24);
the recharge die is a d6 whose face numbers stand for the results in
:data:`machina_nb.rules.engine.inventory.RECHARGE_FACES` (aid)."""


def outcomes(die: str) -> tuple[tuple[int, Fraction], ...]:
    """Each value of ``die`` with its exact probability.

    Rules: manual p4-5 (the dice and their faces).
    """
    if die not in FACES:
        raise RulesError("die", f"unknown die {die!r}; expected one of {', '.join(FACES)}")
    faces = FACES[die]
    counts = Counter(faces)
    return tuple((v, Fraction(counts[v], len(faces))) for v in sorted(counts))


class ChanceNode(Exception):
    """A roll left open: ``die``, ``reason`` and ``outcomes`` as (value, Fraction) pairs.

    Rules: manual p4-5 (dice).
    """

    def __init__(self, die: str, reason: str):
        self.die = die
        self.reason = reason
        self.outcomes = outcomes(die)
        super().__init__(f"chance point: {die} for {reason}: "
                         + ", ".join(f"{v} ({p})" for v, p in self.outcomes))


class Dice:
    """A source of die results and shuffles; subclasses decide where results come from.

    Rules: manual p4-5 (dice), p13-14 (shuffling decks).
    """

    def __init__(self) -> None:
        self.record: list[int | tuple[int, ...]] = []

    def roll(self, die: str, reason: str) -> int:
        """One result of ``die`` (``d10``, ``high`` or ``low``) for ``reason``; recorded.

        Rules: manual p4-5 (dice), p13-14 (d10 rolls), p24 (attack dice).
        """
        if die not in FACES:
            raise RulesError("die", f"unknown die {die!r}; expected one of {', '.join(FACES)}")
        value = self._roll(die, reason)
        if value not in FACES[die]:
            raise RulesError("dice", f"{value!r} is not a face of the {die} die "
                                     f"({sorted(set(FACES[die]))})")
        self.record.append(value)
        return value

    def shuffle(self, items: Sequence[_T], reason: str) -> tuple[_T, ...]:
        """``items`` in a shuffled order (a permutation is recorded).

        Rules: manual p8 (setup: shuffle the decks), p13-14 (reshuffle the monster and horror event decks).
        """
        order = tuple(self._permutation(len(items), reason))
        if sorted(order) != list(range(len(items))):
            raise RulesError("dice", f"{order!r} is not a permutation of {len(items)} cards")
        self.record.append(order)
        return tuple(items[i] for i in order)

    def _roll(self, die: str, reason: str) -> int:
        raise NotImplementedError

    def _permutation(self, n: int, reason: str) -> list[int]:
        raise NotImplementedError


class SeededDice(Dice):
    """Results drawn from a seeded :class:`random.Random` (or one you pass in).

    Rules: manual p4-5 (the dice), p13-14 (spawn and horror rolls).
    """

    def __init__(self, seed: int | random.Random = 0) -> None:
        super().__init__()
        self.random = seed if isinstance(seed, random.Random) else random.Random(seed)

    def _roll(self, die: str, reason: str) -> int:
        return self.random.choice(FACES[die])

    def _permutation(self, n: int, reason: str) -> list[int]:
        order = list(range(n))
        self.random.shuffle(order)
        return order


class OpenDice(Dice):
    """Every roll is left open: raises :class:`ChanceNode`; shuffles keep the order.

    Rules: manual p4-5 (the dice) (chance points with exact outcomes).
    """

    def _roll(self, die: str, reason: str) -> int:
        raise ChanceNode(die, reason)

    def _permutation(self, n: int, reason: str) -> list[int]:
        return list(range(n))


class ScriptedDice(Dice):
    """Results given in advance ("the next d10 is 7"); then ``then`` (default: open).

    Script entries are die values, or tuples (a shuffle's permutation). A shuffle
    with no tuple next in the script keeps the deck's order.
    Rules: manual p4-5 (the dice) (worked examples state their rolls).
    """

    def __init__(self, script: Iterable[Any] = (), then: Dice | None = None) -> None:
        super().__init__()
        self.script = list(script)
        self.then = then if then is not None else OpenDice()

    def _roll(self, die: str, reason: str) -> int:
        if self.script and not isinstance(self.script[0], (tuple, list)):
            return cast(int, self.script.pop(0))
        return self.then._roll(die, reason)

    def _permutation(self, n: int, reason: str) -> list[int]:
        if self.script and isinstance(self.script[0], (tuple, list)):
            return list(self.script.pop(0))
        return self.then._permutation(n, reason)
