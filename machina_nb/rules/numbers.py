"""Numbers for people to read: an exact chance beside its percentage, a mean in plain decimals
beside its exact fraction, and the few words around them. Every answer stays an exact
``Fraction`` until one of these functions writes it.

Two families keep the forms their readers have always seen:

* the plain forms the command line and the rules' own sentences print (``fraction_words``,
  ``percent_words``, ``chance_words``, ``mean_words``): every fraction written out, one
  decimal in a percentage, two decimals in a mean;
* the app's forms (``exact``, ``number``, ``hits_phrase``, ``percent_label``): two decimals in
  a percentage, a certainty written ``1 (100%)``, trailing zeros dropped from a mean, a very
  long fraction shortened to its size.

>>> chance_words(Fraction(5, 9)), exact(Fraction(5, 9))
('5/9 (55.6%)', '5/9 (55.56%)')
>>> mean_words(Fraction(3, 2)), number(Fraction(3, 2))
('1.50 (exactly 3/2)', '1.5 (exactly 3/2)')
"""

from __future__ import annotations

from fractions import Fraction
from typing import SupportsFloat

__all__ = [
    "fraction_words", "percent_words", "chance_words", "decimals", "mean_words", "about_words",
    "whole_percent", "exact", "number", "hits_phrase", "percent_label", "a_kind",
]

_LONG = 60
"""Fractions longer than this many characters are shown by their size in the app's forms."""


def fraction_words(p: Fraction | int) -> str:
    """An exact number as a fraction, ``5/9``; a whole number alone.

    >>> fraction_words(Fraction(5, 9)), fraction_words(Fraction(4, 2)), fraction_words(0)
    ('5/9', '2', '0')
    """
    return str(Fraction(p))


def percent_words(p: Fraction | int, places: int = 1) -> str:
    """A chance as a percentage with ``places`` decimals (one unless told), for reading beside
    the fraction.

    >>> percent_words(Fraction(5, 9)), percent_words(Fraction(5, 9), 2), percent_words(1)
    ('55.6%', '55.56%', '100.0%')
    >>> percent_words(Fraction(1, 3), 0)
    '33%'
    """
    return f"{float(p) * 100:.{places}f}%"


def chance_words(p: Fraction | int) -> str:
    """An exact chance and its percentage to one decimal, ``5/9 (55.6%)``: the command line's
    form, which writes every fraction out however long.

    >>> chance_words(Fraction(5, 9)), chance_words(Fraction(9, 16)), chance_words(1)
    ('5/9 (55.6%)', '9/16 (56.2%)', '1 (100.0%)')
    """
    return f"{fraction_words(p)} ({percent_words(p)})"


def decimals(value: SupportsFloat, places: int = 2) -> str:
    """A number in plain decimals, trailing zeros kept: ``1.50``.

    >>> decimals(Fraction(3, 2)), decimals(Fraction(2, 3), 3)
    ('1.50', '0.667')
    """
    return f"{float(value):.{places}f}"


def mean_words(value: Fraction | int) -> str:
    """An exact number that is not a chance (a mean), as the command line prints it: two
    decimals, then the exact fraction; a whole number alone.

    >>> mean_words(Fraction(3, 2)), mean_words(Fraction(7, 4)), mean_words(Fraction(3))
    ('1.50 (exactly 3/2)', '1.75 (exactly 7/4)', '3')
    """
    value = Fraction(value)
    return str(value) if value.denominator == 1 else f"{decimals(value)} (exactly {value})"


def about_words(value: Fraction | int) -> str:
    """An exact number first, then its two-decimal value: ``7/3 (≈ 2.33)``.

    >>> about_words(Fraction(7, 3)), about_words(2)
    ('7/3 (≈ 2.33)', '2 (≈ 2.00)')
    """
    return f"{value} (≈ {decimals(value)})"


def whole_percent(p: Fraction | int) -> int:
    """A chance as a whole percentage, rounded from its decimal value, for a grid of numbers.

    It rounds the float, so a chance whose exact percentage ends in one half can round down
    where :func:`percent_label`, which rounds the exact fraction, rounds up.

    >>> whole_percent(Fraction(25, 36)), whole_percent(Fraction(23, 40))
    (69, 57)
    >>> percent_label(Fraction(23, 40))
    '58%'
    """
    return round(float(p) * 100)


def exact(p: Fraction | int, digits: int = 4) -> str:
    """An exact chance and its percentage as the app shows it, ``5/9 (55.56%)`` (``digits`` - 2
    decimals); a certainty or an impossibility is ``1 (100%)`` or ``0 (0%)``; a very long
    fraction gives its percentage and the size of its exact denominator.

    >>> exact(Fraction(5, 9)), exact(Fraction(1)), exact(Fraction(0)), exact(Fraction(5, 9), 3)
    ('5/9 (55.56%)', '1 (100%)', '0 (0%)', '5/9 (55.6%)')
    >>> exact(Fraction(2, 3) ** 80)
    '0.00% (an exact fraction with a 39-digit denominator)'
    """
    p = Fraction(p)
    if p.denominator == 1:
        return f"{p.numerator} ({p.numerator * 100}%)" if p in (0, 1) else str(p.numerator)
    text = str(p)
    percent = percent_words(p, max(digits - 2, 0))
    if len(text) > _LONG:
        return f"{percent} (an exact fraction with a {len(str(p.denominator))}-digit denominator)"
    return f"{text} ({percent})"


def number(value: Fraction | int) -> str:
    """An exact number that is not a chance (a mean) as the app shows it: plain decimals with
    trailing zeros dropped (two significant digits below a tenth), then the exact fraction;
    a very long fraction is only ``about`` its decimals.

    >>> number(Fraction(7, 4)), number(Fraction(1480986203, 312500000)), number(3)
    ('1.75 (exactly 7/4)', '4.74 (exactly 1480986203/312500000)', '3')
    >>> number(Fraction(3, 2)), number(Fraction(1, 30))
    ('1.5 (exactly 3/2)', '0.033 (exactly 1/30)')
    """
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    plain = decimals(value).rstrip("0").rstrip(".") if abs(value) >= Fraction(1, 10) \
        else f"{float(value):.2g}"
    if len(str(value)) > _LONG:
        return f"about {plain}"
    return f"{plain} (exactly {value})"


def hits_phrase(p: Fraction) -> str:
    """How often an attack hits, in words: ``hits 5 times in 9``, ``hits every time``,
    ``never hits``; a very long fraction by its percentage.

    >>> hits_phrase(Fraction(5, 9)), hits_phrase(Fraction(1, 36)), hits_phrase(Fraction(0))
    ('hits 5 times in 9', 'hits 1 time in 36', 'never hits')
    """
    if p in (0, 1):
        return "never hits" if p == 0 else "hits every time"
    if len(str(p)) > _LONG:
        return f"hits about {percent_words(p)} of the time"
    return f"hits {p.numerator} time{'s' if p.numerator > 1 else ''} in {p.denominator}"


def percent_label(p: Fraction) -> str:
    """A chance as a whole percentage short enough to write on a space, never rounded to a
    certainty it is not.

    >>> percent_label(Fraction(25, 36)), percent_label(Fraction(1, 1000)), percent_label(Fraction(0))
    ('69%', '<1%', '0%')
    """
    whole = round(p * 100)
    if p and whole == 0:
        return "<1%"
    if p != 1 and whole == 100:
        return ">99%"
    return f"{whole}%"


def a_kind(word: str) -> str:
    """A kind of attack with its article: ``a physical``, ``an arcane``.

    >>> a_kind("arcane")
    'an arcane'
    """
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"
