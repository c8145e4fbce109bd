"""The questions of a situation file: their kinds, their keys and how each key is checked.

A ``[[question]]`` table names a kind of :data:`QUESTION_KINDS` and gives that kind's keys;
:func:`parse_questions` checks every key against the situation's units and board and
refuses a bad one at file:line:col (content/README.md lists each kind and key).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, NoReturn, cast

from machina_nb.rules.analysis.notation import NotationError, parse_step
from machina_nb.rules.analysis.own_cards import NO_CARDS, OwnCards
from machina_nb.rules.board.labels import LABEL_SHAPE, space_of_name
from machina_nb.rules.board.maptext import Layout, SpaceKind
from machina_nb.rules.cards.records import Record
from machina_nb.rules.content import TomlFile, require
from machina_nb.rules.engine.state import Unit
from machina_nb.rules.errors import ContentError

__all__ = ["space_value", "Question", "QUESTION_KINDS", "ROUND_FIELDS", "REPORTS", "SPACE_WORDS",
           "MAX_PLAY_STEPS", "parse_questions"]

QUESTION_KINDS = {
    "sight": ("from", "to"),
    "target": ("from", "to", "icon", "range"),
    "reach": ("unit", "stamina", "move_through"),
    "nearest": ("from", "among"),
    "closest": ("from", "among"),
    "adjacent": ("from", "to"),
    "monster_turn": ("monster", "dice", "choices"),
    "attack_odds": ("attacker", "target", "modifier", "essence"),
    "spawn": ("explorer",),
    "push": ("pusher", "unit", "distance", "pull"),
    "actions": ("unit",),
    "teleport": ("unit", "space", "distance"),
    "play": ("steps", "dice", "choices", "report"),
    "setup": ("scenario_horror_events", "scenario_explorer_events", "items"),
    "rounds": ("spawn_rating", "horror_rating", "blocking", "explorers", "alive", "in_play",
               "full", "rounds", "threat", "level", "threat_positions", "fields"),
    "monster_phase": (),
    "risk_map": ("unit",),
}
"""Each question kind and the keys it may take (content/README.md)."""

_REQUIRED = {"sight": ("from", "to"), "target": ("from", "to"), "reach": ("unit",),
             "nearest": ("from",), "closest": ("from",), "adjacent": ("from", "to"),
             "monster_turn": ("monster",), "attack_odds": ("attacker",),
             "spawn": ("explorer",), "rounds": ("rounds",),
             "push": ("pusher", "unit", "distance"), "actions": (), "teleport": ("unit",),
             "play": ("steps", "report"), "setup": (), "monster_phase": (),
             "risk_map": ("unit",)}
ROUND_FIELDS = ("chapter", "spawn_rating", "horror_rating", "threat", "level", "spawned",
                "threat_from_limit", "invoked", "level5_events", "first_level_up")
"""What a ``rounds`` question may report: the fields of the odds core's round summary."""
_ROUND_NUMBERS = {"spawn_rating": (0, 9), "horror_rating": (0, 9), "explorers": (1, 8),
                  "alive": (0, 8), "in_play": (0, 8), "full": (0, 8), "rounds": (1, 12),
                  "threat": (1, 20), "level": (1, 5), "threat_positions": (2, 20)}
REPORTS = ("positions", "health", "stamina", "essence", "armor", "will", "queue", "threat",
           "level", "round", "phase", "outcome", "spawn_rating", "horror_rating", "chapter",
           "exit_token", "monster_deck", "monsters_destroyed", "horror_deck", "horror_destroyed",
           "explorer_deck", "explorer_destroyed", "item_decks", "items", "bound", "destroyed",
           "lit", "markers", "tiles")
"""The facts a ``play`` question may report (``analysis.play.FACTS`` answers each)."""
SPACE_WORDS = {kind.name.lower(): kind for kind in SpaceKind}
"""The kinds of space by name, as a ``teleport`` question's ``to`` names them."""
MAX_PLAY_STEPS = 40
"""The most steps a ``play`` question may list (a documented limit)."""
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Question:
    """One named question: its kind (:data:`QUESTION_KINDS`) and its keys as a record."""

    name: str
    ask: str
    record: Record

    def get(self, key: str, default: Any = None) -> Any:
        """The question's ``key``, or ``default``."""
        return self.record.get(key, default)


def parse_questions(toml: TomlFile, tables: Any, letters: dict[str, Unit], layout: Layout,
                    area: bool = False, cards: OwnCards = NO_CARDS) -> tuple[Question, ...]:
    """Each ``[[question]]``: a known kind, its keys checked, letters units, spaces on the board,
    cards shipped or among the situation's own ``cards``."""
    if not isinstance(tables, list):
        raise toml.error(None, "question", "questions are an array of tables [[question]]")
    out, names = [], set()
    for i, table in enumerate(tables):
        name = require(toml, table, "question", "name", str, "the question's name", i)
        if not _NAME.match(name) or name in names:
            raise toml.error("question", "name", f"question name {name!r} must be new and "
                             "lower-case letters, digits and '_'", i)
        names.add(name)
        ask = require(toml, table, "question", "ask", str,
                      f"one of {', '.join(QUESTION_KINDS)}", i)
        if ask not in QUESTION_KINDS:
            raise toml.error("question", "ask", f"unknown question {ask!r}; expected one of "
                             f"{', '.join(QUESTION_KINDS)}", i)
        for key, value in table.items():
            if key in ("name", "ask"):
                continue
            if key not in QUESTION_KINDS[ask]:
                raise toml.error("question", key, f"unknown key {key!r} for a {ask} question; "
                                 f"expected {', '.join(QUESTION_KINDS[ask])}", i)
            value = table[key] = _labelled(toml, key, value, letters, layout, i)
            _check_value(toml, key, value, letters, layout, i, cards)
        for key in _REQUIRED[ask]:
            if key not in table:
                raise toml.error("question", None, f"a {ask} question needs {key!r}", i)
        if ask == "play":
            for n, text in enumerate(table["steps"]):
                _check_step(toml, i, n, text, letters, None if area else layout, cards)
        out.append(Question(name, ask, Record.of(table)))
    return tuple(out)


_SPACE_KEYS = ("from", "to", "unit", "monster", "attacker", "target", "explorer", "pusher")


def space_value(toml: TomlFile, section: str | None, key: str, value: Any,
                index: int = 0) -> Any:
    """A space given as the board labels it (``"B3"``) as ``[x, y]`` (``[1, 2]``); any other
    value as it is. A label that names no space fails at its key (file:line:col)."""
    if not isinstance(value, str) or not LABEL_SHAPE.fullmatch(value):
        return value
    point = space_of_name(value)
    if point is None:
        raise toml.error(section, key, f"{value!r} is not a space as the board labels it: a "
                         "column letter A, B, ... and a row number from 1 (\"B3\")", index)
    return [point[0], point[1]]


def _labelled(toml: TomlFile, key: str, value: Any, letters: dict[str, Unit], layout: Layout,
              i: int) -> Any:
    """A question's spaces given as the board labels them, as ``[x, y]``: the keys that name a
    unit or a space, and the players' ``choices``."""
    if key == "choices" and isinstance(value, list):
        return [_labelled(toml, key, v, letters, layout, i) for v in value]
    if key not in _SPACE_KEYS + ("choices",) or not isinstance(value, str) or value in letters:
        return value
    point = space_value(toml, "question", key, value, i)
    if point is not value and not (0 <= point[0] < layout.width and 0 <= point[1] < layout.height):
        raise toml.error("question", key, f"{value!r} is off the {layout.width}x{layout.height} "
                         "board", i)
    return point


def _check_value(toml: TomlFile, key: str, value: Any, letters: dict[str, Unit],
                 layout: Layout, i: int, cards: OwnCards) -> None:
    """Letters must be units; points must lie on the board; numbers whole (content/README.md)."""
    def fail(message: str) -> NoReturn:
        raise toml.error("question", key, message, i)

    if key in ("from", "to", "unit", "monster", "attacker", "target", "explorer", "pusher"):
        if isinstance(value, list):
            if (len(value) != 2 or not all(isinstance(v, int) and not isinstance(v, bool)
                                           for v in value)
                    or not (0 <= value[0] < layout.width and 0 <= value[1] < layout.height)):
                fail(f"{value!r} must be [x, y] on the {layout.width}x{layout.height} board")
            if key in ("unit", "monster", "attacker", "explorer"):
                fail(f"{key!r} must be a unit letter")
        elif value not in letters:
            fail(f"{value!r} is not a unit letter of this situation")
    elif key == "among":
        if value not in ("explorers", "monsters") and not (
                isinstance(value, list) and all(v in letters for v in value)):
            fail("'among' is \"explorers\", \"monsters\" or a list of unit letters")
    elif key in ("stamina", "range"):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 40:
            fail(f"{key!r} must be a whole number 0-40")
    elif key in ("modifier", "essence"):
        if not isinstance(value, int) or isinstance(value, bool) or not -9 <= value <= 9 \
                or (key == "essence" and value < 0):
            fail(f"{key!r} must be a whole number (-9 to 9; essence 0-9)")
    elif key in _ROUND_NUMBERS:
        low, high = _ROUND_NUMBERS[key]
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            fail(f"{key!r} must be a whole number {low}-{high}")
    elif key == "distance":
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 9:
            fail("'distance' must be a whole number 0-9")
    elif key in ("blocking", "pull"):
        if not isinstance(value, bool):
            fail(f"{key!r} is true or false")
    elif key == "fields":
        if not isinstance(value, list) or any(v not in ROUND_FIELDS for v in value):
            fail(f"'fields' is a list of {', '.join(ROUND_FIELDS)}")
    elif key == "icon":
        if value not in ("melee", "ranged", "ranged_through"):
            fail("'icon' is melee, ranged or ranged_through")
    else:
        _check_play_value(toml, key, value, letters, i, cards)


def _check_play_value(toml: TomlFile, key: str, value: Any, letters: dict[str, Unit],
                      i: int, cards: OwnCards) -> None:
    """The keys of the play, teleport, setup and reach questions (content/README.md)."""
    def fail(message: str) -> NoReturn:
        raise toml.error("question", key, message, i)

    if key == "dice":
        if not isinstance(value, list) or not all(
                (isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10) or
                (isinstance(v, list) and all(isinstance(w, int) for w in v)) for v in value):
            fail("'dice' is a list of die results 0-10 (a list of positions: a shuffle's order)")
    elif key == "choices":
        if not isinstance(value, list) or any(
                isinstance(v, str) and len(v) == 1 and v.isupper() and v not in letters
                for v in value):
            fail("'choices' is a list of answers: unit letters, [x, y] spaces or words")
    elif key == "steps":
        if not isinstance(value, list) or not 1 <= len(value) <= MAX_PLAY_STEPS:
            fail(f"'steps' is a list of 1-{MAX_PLAY_STEPS} steps in the play notation")
    elif key == "report":
        if not isinstance(value, list) or not value or any(v not in REPORTS for v in value):
            fail(f"'report' is a list of {', '.join(REPORTS)}")
    elif key == "space":
        if value not in SPACE_WORDS:
            fail(f"'space' is a kind of space: {', '.join(SPACE_WORDS)}")
    elif key == "move_through":
        if not isinstance(value, bool):
            fail("'move_through' is true or false")
    elif key == "items":
        if not isinstance(value, list) or any(v not in cards.items() for v in value) or \
                len(set(value)) != len(value):
            fail("'items' is a list of item ids from content/items or the own cards, each "
                 "card once")
    elif key in ("scenario_horror_events", "scenario_explorer_events"):
        kind = key.split("_")[1]
        events = cards.events()
        if not isinstance(value, list) or any(
                v not in events or events[v].kind != kind for v in value):
            fail(f"{key!r} is a list of {kind} event ids from content/events or the own cards")


_AREA_REACH = 30
"""How far from the starting tile's corner a space of a playing area may lie: tiles join in a
2x2 area, and scrolling keeps it there (manual p34), so every space is within 3 tiles."""


def _check_step(toml: TomlFile, i: int, n: int, text: Any, letters: dict[str, Unit],
                layout: Layout | None, cards: OwnCards) -> None:
    """One step of a play question: it reads, its letters are units, its spaces on the board,
    its ability on a card (the unit's, or any item, event or chapter it may gain), the items it
    trades item cards."""
    line, col = _item_spot(toml, i, n)
    try:
        step = parse_step(text)
    except NotationError as exc:
        raise ContentError(toml.path, line, col + exc.column, exc.message) from None
    for letter, at in step.letters():
        if letter not in letters:
            raise ContentError(toml.path, line, col + at, f"{letter!r} is not a unit letter of "
                               "this situation")
    for (x, y), said, at in step.named_spaces():
        if layout is None and max(abs(x), abs(y)) > _AREA_REACH:
            raise ContentError(toml.path, line, col + at, f"{said} is off any playing area "
                               f"of 2x2 map tiles around the starting tile (manual p34)")
        if layout is not None and not (0 <= x < layout.width and 0 <= y < layout.height):
            raise ContentError(toml.path, line, col + at, f"{said} is off the "
                               f"{layout.width}x{layout.height} board")
    if step.verb == "play" and step.name not in _ability_names(letters[cast(str, step.actor)],
                                                               cards):
        raise ContentError(toml.path, line, col + step.text.index(step.name),
                           f"{step.actor} has no ability {step.name!r}: not on its card nor on "
                           "any item, event or chapter card")
    for item, at in step.items():
        if item not in cards.items():
            raise ContentError(toml.path, line, col + at, f"{item!r} is not an item card of "
                               "content/items nor an own card")


def _ability_names(unit: Unit, cards: OwnCards) -> set[str]:
    names = {a.name for a in unit.abilities}
    for found in (cards.items(), cards.events(), cards.chapters()):
        names |= {a.name for c in found.values() for a in c.abilities}
    return names


def _item_spot(toml: TomlFile, i: int, n: int) -> tuple[int, int]:
    """Line and column of the text of the ``n``-th string of the ``i``-th question's steps."""
    line, col = toml.where("question", "steps", i)
    lines = toml.raw.split("\n")
    row, at, seen = line - 1, col - 1, -1
    while row < len(lines):
        text = lines[row]
        while at < len(text):
            if text[at] == "#":
                break
            if text[at] in "\"'":
                quote, start = text[at], at + 1
                end = start
                while end < len(text) and text[end] != quote:
                    end += 2 if text[end] == "\\" and quote == '"' else 1
                seen += 1
                if seen == n:
                    return row + 1, start + 1
                at = end + 1
                continue
            at += 1
        row, at = row + 1, 0
    return line, col
