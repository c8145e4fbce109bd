"""Generating functions: the symbolic derivation of the dice and rating odds.

A die's generating function is ``G(z) = sum over faces of z**value / faces``;
a pool's is the product of its dice's, so the attack pool of ``h`` high and
``l`` low dice has ``((1 + 2z + 2z**2 + z**3)/6)**h * ((1 + 3z + 2z**2)/6)**l``.
The coefficient of ``z**s`` in the expansion is ``P(S = s)``. This module
shows that derivation with sympy and reads probabilities off it; the tests use
it as an oracle for the fast integer convolution in :mod:`machina_nb.rules.odds.dice`.

sympy is imported inside the functions, so importing the dice stays light.

>>> str(generating_function(Pool.attack(high=1)))
'z**3/6 + z**2/3 + z/3 + 1/6'

Rules: manual p24 (an attack roll adds its dice: the generating functions multiply).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from machina_nb.rules.errors import RulesError
from machina_nb.rules.odds.dice import HIGH, LOW, Die, Pool

if TYPE_CHECKING:  # pragma: no cover
    import sympy

__all__ = [
    "die_generating_function", "generating_function", "expanded_generating_function",
    "probabilities_from_generating_function", "hit_probability_from_generating_function",
    "closed_forms",
]


def _z() -> Any:
    import sympy
    return sympy.Symbol("z")


def die_generating_function(die: Die, z: sympy.Symbol | None = None) -> sympy.Expr:
    """``sum z**face / faces`` for one die, as an exact sympy expression.

    Rules: manual p4-5 (die faces).
    """
    import sympy
    z = z if z is not None else _z()
    return sum((sympy.Rational(1, len(die.faces)) * z ** v for v in die.faces), sympy.Integer(0))


def generating_function(pool: Pool, z: sympy.Symbol | None = None,
                        factored: bool = False) -> sympy.Expr:
    """The pool's generating function: the product of its dice's, one factor per die kind.

    With ``factored=True`` each die kind's factor is kept as a power, e.g.
    ``(z**3/6 + z**2/3 + z/3 + 1/6)**2*(z**2/3 + z/2 + 1/6)``.

    Rules: manual p24 (the roll is the sum of the dice).
    """
    import sympy
    z = z if z is not None else _z()
    factors = [die_generating_function(die, z) ** n for die, n in pool.dice]
    product = sympy.Mul(*factors, evaluate=True)
    return product if factored else sympy.expand(product)


def expanded_generating_function(pool: Pool) -> sympy.Poly:
    """The expanded generating function as a polynomial in ``z`` with rational coefficients.

    Rules: manual p24 (the attack roll's totals are its coefficients).
    """
    import sympy
    z = _z()
    return sympy.Poly(generating_function(pool, z), z)


def probabilities_from_generating_function(pool: Pool) -> dict[int, Fraction]:
    """``{total: P(S = total)}`` read off the expanded generating function's coefficients.

    Rules: manual p24 (the attack roll's totals).
    """
    poly = expanded_generating_function(pool)
    result = {}
    for (power,), coefficient in poly.terms():
        if coefficient != 0:
            result[int(power)] = Fraction(int(coefficient.p), int(coefficient.q))
    return dict(sorted(result.items()))


def hit_probability_from_generating_function(pool: Pool, threshold: int) -> Fraction:
    """``P(S >= threshold)``: the sum of the coefficients of ``z**s`` for ``s >= threshold``.

    Rules: manual p24 (a hit: the total, with modifiers, reaches the defense), p18 (essence).
    """
    if not isinstance(threshold, int):
        raise RulesError("threshold", "must be an integer")
    return sum((p for s, p in probabilities_from_generating_function(pool).items()
                if s >= threshold), Fraction(0))


def closed_forms() -> dict[str, sympy.Expr]:
    """Closed forms in the number of dice or the rating, derived with sympy.

    Keys:

    * ``"P(S=0)"``, ``"P(S>=1)"``, ``"mean"``: in ``h`` high and ``l`` low dice (a barrel
      is hit unless every die shows 0);
    * ``"P(S=max)"``: every die on its top face;
    * ``"attempts_per_cycle_3_5"``: the expected spawn attempts of one 3.5
      countdown from rating ``d`` with ``m`` rollers, ``m * sum_{r=2}^{d} (10-r)/10``;
    * ``"rounds_per_cycle_3_5"``: ``d - 1``.

    Rules: manual p24 (attack roll), p35 (exploding barrel); 3.5 §Spawn Phase.
    """
    import sympy
    h, l, d, m, r = sympy.symbols("h l d m r", integer=True, nonnegative=True)
    z = _z()
    g_high = die_generating_function(HIGH, z)
    g_low = die_generating_function(LOW, z)
    p_zero = g_high.subs(z, 0) ** h * g_low.subs(z, 0) ** l
    mean = h * sympy.diff(g_high, z).subs(z, 1) + l * sympy.diff(g_low, z).subs(z, 1)
    p_top = sympy.Poly(g_high, z).LC() ** h * sympy.Poly(g_low, z).LC() ** l
    attempts = sympy.factor(m * sympy.summation((10 - r) / sympy.Integer(10), (r, 2, d)))
    return {
        "P(S=0)": sympy.simplify(p_zero),
        "P(S>=1)": sympy.simplify(1 - p_zero),
        "mean": sympy.simplify(mean),
        "P(S=max)": sympy.simplify(p_top),
        "attempts_per_cycle_3_5": attempts,
        "rounds_per_cycle_3_5": d - 1,
    }
