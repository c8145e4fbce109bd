"""machina_nb: an interactive, exact, cited rules explorer for Machina Arcana.

The front door: the few names a notebook user needs, with the options keyword-only and
``rules=None`` meaning the manual 1.0 readings (``Rules()``). Every function checks its
arguments and refuses a bad one with a one-line :class:`RulesError` naming it.

>>> from machina_nb import Board, Rules, pool, hit_chance, line_of_sight, parse_map
>>> hit_chance(pool("1H1L"), 3)
Fraction(5, 9)
>>> board = Board.from_layout(parse_map("+-+-+\\n|. .|\\n+-+-+\\n"))
>>> line_of_sight(board, (0, 0), (1, 0), rules=Rules.preset("v3_5")).visible
True

The rules core is :mod:`machina_nb.rules`; the views (:mod:`machina_nb.views`) are not loaded.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from fractions import Fraction
from pathlib import Path

from machina_nb.rules.analysis import ask as _ask
from machina_nb.rules.analysis import situation as _situation
from machina_nb.rules.board import distance as _distance
from machina_nb.rules.board import maptext as _maptext
from machina_nb.rules.board import sight as _sight
from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.maptext import Layout, SpaceKind
from machina_nb.rules.errors import RulesError
from machina_nb.rules.odds import attacks as _attacks
from machina_nb.rules.odds.dice import Pool, parse_dice
from machina_nb.rules.rulings import Rules

__version__ = "0.1.0"

__all__ = ["Board", "Rules", "RulesError", "Pool", "parse_map", "pool", "hit_chance",
           "kill_chance", "line_of_sight", "closest", "nearest", "reach", "load_situation",
           "ask"]

Point = tuple[int, int]


def _rules(rules: object) -> Rules:
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules):
        raise RulesError("rules", f"expected a Rules object such as Rules() or "
                         f"Rules.preset('v3_5'), got a {type(rules).__name__}")
    return rules


def _board(board: object) -> Board:
    if not isinstance(board, Board):
        raise RulesError("board", f"expected a Board (Board.from_layout(parse_map(...))), "
                         f"got a {type(board).__name__}")
    return board


def _pool(dice: object, argument: str = "pool") -> Pool:
    if isinstance(dice, str):
        return pool(dice, argument=argument)
    if not isinstance(dice, Pool):
        raise RulesError(argument, f"expected a pool such as pool('1H2L'), got a "
                         f"{type(dice).__name__}")
    return dice


def parse_map(text: str, *, legend: Mapping[str, SpaceKind] | None = None,
              path: str = "<map>") -> Layout:
    """Map text (format in content/README.md) as a layout for :meth:`Board.from_layout`."""
    return _maptext.parse_map(text, path, legend)


def pool(text: str, *, argument: str = "text") -> Pool:
    """The dice of ``text`` such as ``"1H2L"`` (H high, L low attack dice) as a :class:`Pool`.

    A pool is dice only: a modifier or the word arcane is refused (give a modifier to
    :func:`hit_chance`). In a notebook a pool shows its sum's chances as a table.
    """
    expression = parse_dice(text, argument)
    if expression.modifier or expression.arcane:
        raise RulesError(argument, f"a pool holds dice only, got {text!r}; give a modifier "
                         f"with modifier=")
    return expression.pool


def hit_chance(pool: Pool | str, defense: int, *, rules: Rules | None = None,
               modifier: int = 0, essence: int = 0) -> Fraction:
    """The exact chance one attack with ``pool`` hits armor or will ``defense`` (0-9)."""
    return _attacks.hit_chance(_pool(pool), defense, _rules(rules), modifier, essence)


def kill_chance(pool: Pool | str, defense: int, health: int, *, attacks: int = 1,
                rules: Rules | None = None, modifier: int = 0, essence: int = 0) -> Fraction:
    """The exact chance ``attacks`` attacks take a blocker's last ``health`` points."""
    return _attacks.kill_chance(_pool(pool), defense, health, attacks, _rules(rules),
                                modifier, essence)


def line_of_sight(board: Board, a: Point, b: Point, *,
                  rules: Rules | None = None) -> _sight.Sight:
    """Whether space ``b`` is in sight of space ``a``, with the reason (``.explain()``)."""
    return _sight.line_of_sight(_board(board), a, b, _rules(rules))


def nearest(board: Board, start: Point, goals: Iterable[Point], *,
            rules: Rules | None = None) -> _distance.Ranking:
    """The nearest of ``goals``, counted directly (every tied goal kept)."""
    return _distance.nearest(_board(board), start, goals, _rules(rules))


def closest(board: Board, start: Point, goals: Iterable[Point], *, rules: Rules | None = None,
            immobile: Collection[str] = ()) -> _distance.Ranking:
    """The closest of ``goals``, counted in steps (every tied goal kept)."""
    board = _board(board)
    if isinstance(immobile, str) or not isinstance(immobile, Collection) or not all(
            isinstance(unit, str) for unit in immobile):
        raise RulesError("immobile", "expected a list of the ids of units on the board")
    if missing := sorted(set(immobile) - set(board.units())):
        raise RulesError("immobile", f"no unit {missing[0]!r} stands on the board")
    return _distance.closest(board, start, goals, _rules(rules), immobile)


def reach(board: Board, start: Point, stamina: int, *,
          rules: Rules | None = None) -> Mapping[Point, int]:
    """Every space a unit on ``start`` can end on with ``stamina``, and the stamina it takes."""
    return _distance.reach(_board(board), start, stamina, _rules(rules))


def load_situation(path: str | Path) -> _situation.Situation:
    """A situation file (``kind = "situation"``): a board, units, rules and questions."""
    if not isinstance(path, (str, Path)) or not str(path):
        raise RulesError("path", f"expected a file name, got a {type(path).__name__}")
    try:
        return _situation.load_situation(path)
    except OSError as exc:
        raise RulesError("path", f"cannot read {path}: {exc.strerror or exc}") from None


def ask(situation: _situation.Situation, *,
        rules: Rules | None = None) -> tuple[_ask.Answer, ...]:
    """Every question of ``situation`` answered (at its own rules unless ``rules`` is given)."""
    if not isinstance(situation, _situation.Situation):
        raise RulesError("situation", f"expected a situation from load_situation(), got a "
                         f"{type(situation).__name__}")
    return _ask.ask(situation, None if rules is None else _rules(rules))
