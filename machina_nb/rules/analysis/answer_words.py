"""An answer's value as a reader reads it, on one line of plain words.

The rules core answers in values a program can compare: units by their letter (``K``),
spaces as ``(x, y)``, chances as exact fractions (``5/9``). :func:`value_words` says such a
value in words (units by name and letter, spaces as the board labels them, each hit chance as
its fraction beside a percentage); :func:`answer_words` says a whole answer, as a sentence
where its kind has one. The notebooks print these; the app shows the same words as HTML.

>>> from machina_nb.rules.content import content_root
>>> from machina_nb.rules.analysis.situation import load_situation
>>> s = load_situation(content_root() / "situations" / "own_cards.toml")
>>> value_words(s, {"steps": ["moves to (2, 0)", "plays gnaw on K (hit chance 5/9)"],
...                 "end": "(2, 0)"})
'steps: moves to C1, plays gnaw on Kim (K) (hit chance 5/9, 55.6%); end: C1'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from machina_nb.rules.analysis.ask import Answer, show_value
from machina_nb.rules.analysis.phrases import reader_words, unit_names
from machina_nb.rules.analysis.situation import Situation
from machina_nb.rules.board.distance_values import SquareRoot
from machina_nb.rules.board.labels import distance_words
from machina_nb.rules.numbers import chance_words, percent_words

__all__ = ["value_words", "answer_words"]

_HIT_CHANCE = re.compile(r"\bhit chance (\d+(?:/\d+)?)")
_ROOT = re.compile(r"(?:(\d+)\*)?sqrt\((\d+)\)")
"""A straight-line distance as an answer writes it (``2*sqrt(2)``)."""


def _letters(situation: Situation, text: str) -> str:
    """Each unit letter standing alone in ``text`` (``on K``) as ``Kim (K)``; a letter already
    in brackets after a name is left as it is."""
    letters = unit_names(situation)
    if not letters:
        return text
    alone = re.compile(r"(?<![\w(-])(" + "|".join(map(re.escape, letters)) + r")(?![\w)-])")
    return alone.sub(lambda m: f"{letters[m[1]]} ({m[1]})", text)


def _named(situation: Situation, value: Any) -> Any:
    """``value`` with unit letters as names and hit chances with their percentages, in its
    own shape (tables keep their keys' order)."""
    if isinstance(value, dict):
        return {_named(situation, k): _named(situation, v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_named(situation, v) for v in value]
    if isinstance(value, str):
        text = _HIT_CHANCE.sub(lambda m: f"hit chance {m[1]}, {percent_words(Fraction(m[1]))}",
                               value)
        return _letters(situation, text)
    return value


def value_words(situation: Situation, value: Any,
                names: Mapping[str, str] | None = None) -> str:
    """An answer's value (or a part of one) of ``situation`` in words on one line: lists joined
    by commas, tables as ``key: value``, units by name and letter (``Kim (K)``), spaces as the
    board labels them (``C1``), each hit chance as its fraction and percentage, the engine's
    ids as words (``names``: unit id -> name, default
    :func:`~machina_nb.rules.analysis.phrases.reader_names`)."""
    return reader_words(situation, show_value(_named(situation, value)), names)


def _ranking_words(situation: Situation, value: Mapping[str, Any],
                   names: Mapping[str, str] | None) -> str:
    """A ``nearest`` or ``closest`` answer: who, at what distance, and whether it is a tie."""
    if value["distance"] == "unreachable" or not value["tied"]:
        return "no unit can be reached"
    who = " and ".join(value_words(situation, t, names) for t in value["tied"])
    text = str(value["distance"])
    root = _ROOT.fullmatch(text)
    far = distance_words(SquareRoot(int(root[1] or 1) ** 2 * int(root[2]))) if root else \
        distance_words(text)
    tie = " (a tie: the players choose)" if len(value["tied"]) > 1 else ""
    return f"{who}, at distance {far}{tie}"


def answer_words(situation: Situation, answer: Answer,
                 names: Mapping[str, str] | None = None) -> str:
    """An answer of ``situation`` in words on one line: a sight answer as yes or no, a nearest
    or closest answer as who is at what distance, each attack's chance as its fraction and
    percentage, any other answer as :func:`value_words` says it.

    >>> from machina_nb.rules.content import content_root
    >>> from machina_nb.rules.analysis.ask import ask
    >>> from machina_nb.rules.analysis.situation import load_situation
    >>> s = load_situation(content_root() / "situations" / "sarall_door.toml")
    >>> for a in ask(s):
    ...     print(answer_words(s, a))
    Lorrai (L) and Phillip (P), at distance 4 spaces (a tie: the players choose)
    steps: moves to B3, moves to C3, moves to D4, ends its turn; end: D4; stamina left: 1
    rend on Phillip (P): 5/6 (83.3%); rend on Lorrai (L): 5/6 (83.3%)
    no: out of sight
    """
    v = answer.value
    if answer.kind == "sight":
        return "yes: in sight" if v == "visible" else "no: out of sight"
    if answer.kind in ("nearest", "closest"):
        return _ranking_words(situation, v, names)
    if answer.kind == "attack_odds":
        return "; ".join(f"{value_words(situation, k, names)}: {chance_words(Fraction(p))}"
                         for k, p in v.items()) or "it has no attack"
    return value_words(situation, v, names)
