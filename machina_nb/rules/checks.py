"""Argument checks shared by the odds modules: a bad value raises BadArgument (a RulesError) naming it."""

from __future__ import annotations

from machina_nb.rules.errors import BadArgument

__all__ = ["integer"]


def integer(name: str, value: object, low: int | None = None, high: int | None = None) -> int:
    """``value`` if it is an int (not a bool) within ``low..high``; else BadArgument(name, ...).

    Rules: manual p18 (attributes are whole numbers 0-9) (argument checks).
    """
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadArgument(name, f"expected an integer, got {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"{low}..{high}" if high is not None else f"at least {low}"
        raise BadArgument(name, f"must be {bounds}, got {value}")
    return value
