"""Errors the rules core raises for bad content and bad arguments.

Bad content names the file, line and column (1-based) and what was expected;
bad API arguments name the argument. Loading never half-succeeds: a loader
either returns a complete value or raises one of these.
"""

from __future__ import annotations

from machina_nb.rules.cite import Cite

__all__ = ["ContentError", "RulesError", "BadArgument", "IllegalAction"]


class ContentError(ValueError):
    """Malformed content: ``path:line:col: message`` (content/README.md)."""

    def __init__(self, path: str, line: int, col: int, message: str):
        self.path = str(path)
        self.line = line
        self.col = col
        self.message = message
        super().__init__(f"{self.path}:{line}:{col}: {message}")


class RulesError(ValueError):
    """A rules call with a bad argument; the message names the argument."""

    def __init__(self, argument: str, message: str):
        self.argument = argument
        super().__init__(f"{argument}: {message}")


class BadArgument(RulesError):
    """An argument that is not what the call takes (a wrong type, a value out of range)."""


class IllegalAction(RulesError):
    """A well-formed action the rules forbid now; ``cite`` is the rule that forbids it.

    The message ends with the rule in brackets, as a :class:`RulesError`'s always did.
    """

    def __init__(self, argument: str, message: str, cite: Cite):
        self.cite = cite
        super().__init__(argument, f"{message} ({cite})")
