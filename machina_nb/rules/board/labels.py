"""Spaces and points as the board's axes label them: columns A, B, ... from the left, rows 1,
2, ... from the top (``C6``), and text from the rules core rewritten that way.

The rules core speaks in ``(x, y)`` pairs counted from 0; everything a reader sees (the app, the
Markdown export) names spaces as the printed axes do.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction

from machina_nb.rules.board.maptext import Point

__all__ = ["space_name", "column_name", "point_name", "corner_name", "plain_text", "distance_words"]


def column_name(x: int) -> str:
    """Column letters as the board's top axis shows them: 0 -> A, 25 -> Z, 26 -> AA."""
    letters = ""
    x += 1
    while x > 0:
        x, rest = divmod(x - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def space_name(point: Point) -> str:
    """A space as the board's axes label it: column letter(s), then the row from 1 (``C6``).

    >>> space_name((2, 5)), space_name((0, 0))
    ('C6', 'A1')
    """
    return f"{column_name(point[0])}{point[1] + 1}"


_PAIR = re.compile(r"\((-?\d+), (-?\d+)\)")
_POINT = re.compile(r"\((-?\d+(?:/\d+)?), (-?\d+(?:/\d+)?)\)")


_AT_POINT = re.compile(r"\b(meeting|blocked by the space \(-?\d+, -?\d+\)) at "
                       r"\((-?\d+(?:/\d+)?), (-?\d+(?:/\d+)?)\)")
"""Where a line of sight is blocked: a point of the grid, not a space. Elsewhere ``at (2, 0)``
is a space (the barrel at (2, 0), the chapter space at (3, 0))."""


def _at_words(match: re.Match[str]) -> str:
    """``meeting at (1, 1)``, a point of the grid: the corner of a space, or a point between."""
    x, y = (Fraction(v) for v in match.groups()[1:])
    if x.denominator == y.denominator == 1:
        return f"{match[1]} at the top-left corner of {space_name((int(x), int(y)))}"
    return f"{match[1]} at the point {_mixed(x)} across, {_mixed(y)} down from the board's " \
        "top-left corner"


def _point_words(match: re.Match[str]) -> str:
    x, y = (Fraction(v) for v in match.groups())
    return f"the point {_mixed(x)} across, {_mixed(y)} down from the board's top-left corner"


def _mixed(value: Fraction) -> str:
    whole, part = divmod(value, 1)
    if not part:
        return str(whole)
    return f"{whole} {part.numerator}/{part.denominator}" if whole else str(part)


def point_name(point: tuple[int | Fraction, int | Fraction]) -> str:
    """A space by its label (``C6``); a point between spaces in words.

    >>> point_name((2, 5)), point_name((Fraction(13, 4), 4))
    ('C6', "the point 3 1/4 across, 4 down from the board's top-left corner")
    """
    x, y = (Fraction(v) for v in point)
    if x.denominator == y.denominator == 1:
        return space_name((int(x), int(y)))
    return f"the point {_mixed(x)} across, {_mixed(y)} down from the board's top-left corner"


def corner_name(point: tuple[int | Fraction, int | Fraction]) -> str:
    """A point of the grid (where a line of sight meets a wall): a space's corner, in words.

    >>> corner_name((1, 1))
    'the top-left corner of B2'
    """
    x, y = (Fraction(v) for v in point)
    if x.denominator == y.denominator == 1:
        return f"the top-left corner of {space_name((int(x), int(y)))}"
    return point_name(point)


def plain_text(text: str, names: Mapping[str, str] | None = None) -> str:
    """Text from the rules core as the board labels things: spaces ``(2, 5)`` become ``C6``,
    a point between spaces is described in words, ``->`` becomes an arrow and ``>=`` ``≥``;
    each unit id among ``names`` (a whole word) becomes its name there.

    >>> plain_text("(0, 0) -> (3, 1): meeting at (1, 1)")
    'A1 → D2: meeting at the top-left corner of B2'
    >>> plain_text("blocked at (13/4, 4)")
    "blocked at the point 3 1/4 across, 4 down from the board's top-left corner"
    >>> plain_text("the barrel at (4, 0) explodes")
    'the barrel at E1 explodes'
    >>> plain_text("2 >= armor 2")
    '2 ≥ armor 2'
    >>> plain_text("lorrai steps to (0, 3)", {"lorrai": "Lorrai (L)"})
    'Lorrai (L) steps to A4'
    """
    text = _AT_POINT.sub(_at_words, text)
    text = _PAIR.sub(lambda m: space_name((int(m[1]), int(m[2]))), text)
    text = _POINT.sub(_point_words, text).replace("->", "→")
    text = text.replace(">=", "≥").replace("<=", "≤")
    known = names or {}
    for unit_id in sorted(known, key=len, reverse=True):   # "mi_go-12" before "mi_go-1"
        text = re.sub(rf"(?<![\w-]){re.escape(unit_id)}(?![\w-])", known[unit_id], text)
    return text


def distance_words(distance: object, *, short: bool = False) -> str:
    """A distance as a reader counts it: whole spaces (``3 spaces``), or a straight-line
    distance that is a square root as a decimal with its exact value (``5.83 spaces (exactly
    √34)``); ``short`` gives what fits on a space (``3``, ``√34``).

    >>> from machina_nb.rules.board.distance_values import SquareRoot
    >>> distance_words(3), distance_words(1), distance_words(SquareRoot(34))
    ('3 spaces', '1 space', '5.83 spaces (exactly √34)')
    >>> distance_words(SquareRoot(72), short=True), distance_words(SquareRoot(25))
    ('6√2', '5 spaces')
    """
    text = str(distance)
    exact = re.sub(r"sqrt\((\d+)\)", r"√\1", text).replace("*", "")
    if short or "√" not in exact:
        return exact if short else f"{exact} space{'' if exact == '1' else 's'}"
    return f"{float(distance):.2f} spaces (exactly {exact})"   # type: ignore[arg-type]

