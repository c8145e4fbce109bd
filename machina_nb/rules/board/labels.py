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
from machina_nb.rules.numbers import decimals

__all__ = ["space_name", "column_name", "point_name", "corner_name", "grid_point_words",
           "plain_text", "distance_words", "space_of_name", "LABEL_SHAPE"]


def column_name(x: int) -> str:
    """Column letters as the board's top axis shows them: 0 -> A, 25 -> Z, 26 -> AA; a column
    left of the board's first (a tile explored to the west) counts leftwards with a minus
    sign: -1 -> -A, -10 -> -J.

    >>> column_name(0), column_name(26), column_name(-1), column_name(-27)
    ('A', 'AA', '-A', '-AA')
    """
    if x < 0:
        return "-" + column_name(-x - 1)
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


_NAME = re.compile(r"([A-Z]{1,3})([1-9][0-9]{0,3})")

LABEL_SHAPE = re.compile(r"[A-Z]{1,3}-?\d+")
"""What looks like a space as the board labels it (``B3``), right or wrong (``B0``): text of
this shape is meant as a space, and :func:`space_of_name` says which, if any."""


def space_of_name(name: str) -> Point | None:
    """The space a board label names (``"C6"`` -> ``(2, 5)``), or None if it names none.

    >>> space_of_name("C6"), space_of_name("AA1"), space_of_name("c6")
    ((2, 5), (26, 0), None)
    """
    match = _NAME.fullmatch(name)
    if match is None:
        return None
    x = 0
    for letter in match[1]:
        x = x * 26 + ord(letter) - ord("A") + 1
    return (x - 1, int(match[2]) - 1)


_PAIR = re.compile(r"\((-?\d+), (-?\d+)\)")
_POINT = re.compile(r"\((-?\d+(?:/\d+)?), (-?\d+(?:/\d+)?)\)")


_AT_POINT = re.compile(r"\b(meeting|blocked by the space \(-?\d+, -?\d+\)) at "
                       r"\((-?\d+(?:/\d+)?), (-?\d+(?:/\d+)?)\)")
"""Where a line of sight is blocked: a point of the grid, not a space. Elsewhere ``at (2, 0)``
is a space (the barrel at (2, 0), the chapter space at (3, 0))."""

_ON_BORDER = re.compile(r"between \((-?\d+), (-?\d+)\) and \((-?\d+), (-?\d+)\) at "
                        r"\((-?\d+(?:/\d+)?), (-?\d+(?:/\d+)?)\)")
"""A border between two spaces and a point on it (where a line of sight meets that wall)."""


def _at_words(match: re.Match[str]) -> str:
    """``meeting at (1, 1)``: a point of the grid, named by the spaces around it."""
    x, y = (Fraction(v) for v in match.groups()[1:])
    return f"{match[1]} at {grid_point_words(x, y)}"


def _on_border_words(match: re.Match[str]) -> str:
    """``between (3, 8) and (4, 8) at (4, 25/3)``: the point said along that border."""
    a, b = (int(match[1]), int(match[2])), (int(match[3]), int(match[4]))
    x, y = Fraction(match[5]), Fraction(match[6])
    names = f"between {space_name(a)} and {space_name(b)}"
    if a[1] == b[1] and x == max(a[0], b[0]) and int(y // 1) == a[1] and y % 1:
        return f"{names}, {_way(y % 1)} down it"
    if a[0] == b[0] and y == max(a[1], b[1]) and int(x // 1) == a[0] and x % 1:
        return f"{names}, {_way(x % 1)} across it"
    return f"{names} at {grid_point_words(x, y)}"


def _point_words(match: re.Match[str]) -> str:
    x, y = (Fraction(v) for v in match.groups())
    return grid_point_words(x, y)


def _way(part: Fraction) -> str:
    return "halfway" if part == Fraction(1, 2) else f"{part.numerator}/{part.denominator} of the way"


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def grid_point_words(x: Fraction, y: Fraction) -> str:
    """A point of the board (``x`` across, ``y`` down, in spaces from the top-left corner) named
    by the spaces around it: a corner by the spaces that share it, a point on a border by the
    two spaces it lies between and how far along, else the space it is in.

    >>> grid_point_words(Fraction(3), Fraction(3))
    'the corner shared by C3, C4, D3 and D4'
    >>> grid_point_words(Fraction(4), Fraction(25, 3))
    'the point 1/3 of the way down the border between D9 and E9'
    >>> grid_point_words(Fraction(5, 2), Fraction(1))
    'the point halfway across the border between C1 and C2'
    >>> grid_point_words(Fraction(0), Fraction(1, 4)), grid_point_words(Fraction(0), Fraction(0))
    ('the point 1/4 of the way down the left edge of A1', 'the top-left corner of A1')
    >>> grid_point_words(Fraction(13, 4), Fraction(9, 2))
    'the point 1/4 of the way across and halfway down D5'
    """
    column, row = int(x // 1), int(y // 1)
    across, down = x % 1, y % 1
    if not across and not down:
        around = sorted((column + dx, row + dy) for dx in (-1, 0) for dy in (-1, 0)
                        if column + dx >= 0 and row + dy >= 0)
        if len(around) == 1:
            return f"the top-left corner of {space_name(around[0])}"
        return f"the corner shared by {_listed([space_name(p) for p in around])}"
    if not across:
        side = (f"the left edge of {space_name((column, row))}" if column == 0 else
                f"the border between {space_name((column - 1, row))} and "
                f"{space_name((column, row))}")
        return f"the point {_way(down)} down {side}"
    if not down:
        side = (f"the top edge of {space_name((column, row))}" if row == 0 else
                f"the border between {space_name((column, row - 1))} and "
                f"{space_name((column, row))}")
        return f"the point {_way(across)} across {side}"
    return f"the point {_way(across)} across and {_way(down)} down {space_name((column, row))}"


def point_name(point: tuple[int | Fraction, int | Fraction]) -> str:
    """A space by its label (``C6``); a point between spaces in words.

    >>> point_name((2, 5)), point_name((Fraction(13, 4), 4))
    ('C6', 'the point 1/4 of the way across the border between D4 and D5')
    """
    x, y = (Fraction(v) for v in point)
    if x.denominator == y.denominator == 1:
        return space_name((int(x), int(y)))
    return grid_point_words(x, y)


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
    'A1 → D2: meeting at the corner shared by A1, A2, B1 and B2'
    >>> plain_text("blocked at (13/4, 4)")
    'blocked at the point 1/4 of the way across the border between D4 and D5'
    >>> plain_text("the wall between (3, 8) and (4, 8) at (4, 25/3)")
    'the wall between D9 and E9, 1/3 of the way down it'
    >>> plain_text("blocked by the space (2, 0) at (2, 1/2)")
    'blocked by the space C1 at the point halfway down the border between B1 and C1'
    >>> plain_text("the barrel at (4, 0) explodes")
    'the barrel at E1 explodes'
    >>> plain_text("2 >= armor 2")
    '2 ≥ armor 2'
    >>> plain_text("lorrai steps to (0, 3)", {"lorrai": "Lorrai (L)"})
    'Lorrai (L) steps to A4'
    """
    text = _AT_POINT.sub(_at_words, text)
    text = _ON_BORDER.sub(_on_border_words, text)
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
    return f"{decimals(distance)} spaces (exactly {exact})"   # type: ignore[arg-type]

