"""Errors the rules core raises for bad content, bad arguments and illegal actions.

Bad content names the file, line and column (1-based) and what was expected;
bad API arguments name the argument. Loading never half-succeeds: a loader
either returns a complete value or raises one of these.
"""

from __future__ import annotations

__all__ = ["BadArgument", "ContentError", "IllegalAction", "RulesError"]


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
    """An argument the rules core cannot use (unknown, malformed, out of range); the message
    names the argument."""


class IllegalAction(RulesError):
    """A well-formed action the rules forbid in this state: the message names the argument
    at fault and ``cite`` is the rule that forbids it (a citation value or its written form).
    """

    def __init__(self, argument: str, message: str, cite: object):
        self.cite = cite
        super().__init__(argument, f"{message} ({cite})")
