"""Plain numbers for people: a chance as its exact fraction beside a percentage, a mean in
plain decimals beside its exact fraction, and the few words around them.

>>> exact(Fraction(5, 9)), number(Fraction(7, 4))
('5/9 (55.56%)', '1.75 (exactly 7/4)')
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["exact", "number", "hits_phrase", "a_kind"]

_LONG = 60  # fractions longer than this are shown by their percentage and size


def exact(p: Fraction | int, digits: int = 4) -> str:
    """An exact chance and its percentage, ``5/9 (55.56%)``; a very long fraction gives its
    percentage and the size of its exact denominator.

    >>> exact(Fraction(1)), exact(Fraction(0))
    ('1 (100%)', '0 (0%)')
    """
    p = Fraction(p)
    if p.denominator == 1:
        return f"{p.numerator} ({p.numerator * 100}%)" if p in (0, 1) else str(p.numerator)
    text = str(p)
    percent = f"{float(p) * 100:.{max(digits - 2, 0)}f}%"
    if len(text) > _LONG:
        return f"{percent} (an exact fraction with a {len(str(p.denominator))}-digit denominator)"
    return f"{text} ({percent})"


def number(value: Fraction | int) -> str:
    """An exact number that is not a chance (a mean): plain decimals, then the exact fraction.

    >>> number(Fraction(7, 4)), number(Fraction(1480986203, 312500000)), number(3)
    ('1.75 (exactly 7/4)', '4.74 (exactly 1480986203/312500000)', '3')
    """
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    plain = f"{float(value):.2f}".rstrip("0").rstrip(".") if abs(value) >= Fraction(1, 10) \
        else f"{float(value):.2g}"
    if len(str(value)) > _LONG:
        return f"about {plain}"
    return f"{plain} (exactly {value})"


def hits_phrase(p: Fraction) -> str:
    """``hits 5 times in 9``, ``hits every time``, ``never hits``.

    >>> hits_phrase(Fraction(5, 9)), hits_phrase(Fraction(1, 36)), hits_phrase(Fraction(0))
    ('hits 5 times in 9', 'hits 1 time in 36', 'never hits')
    """
    if p in (0, 1):
        return "never hits" if p == 0 else "hits every time"
    if len(str(p)) > _LONG:
        return f"hits about {float(p) * 100:.1f}% of the time"
    return f"hits {p.numerator} time{'s' if p.numerator > 1 else ''} in {p.denominator}"


def a_kind(word: str) -> str:
    """``a physical``, ``an arcane``.

    >>> a_kind("arcane")
    'an arcane'
    """
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"
