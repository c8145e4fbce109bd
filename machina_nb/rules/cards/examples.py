"""The manual's worked examples as data: a board, its units, a rules preset, steps, the outcome.

An example file is TOML with ``kind = "example"``; the board is map text whose
upper-case letters are units named in ``[legend]``. content/README.md
documents every key. The steps are raw records until the engine defines them.

>>> from machina_nb.rules.content import content_root
>>> example = load_example(content_root() / "examples" / "p22_door_adjacency.toml")
>>> example.page, example.unit("L").name, example.board.unit_at(0, 2)
('manual p22', 'Lorrai', 'L')

Rules: manual p22 (the door adjacency example) and the pages each example cites.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from machina_nb.rules.board.maptext import Layout, Point, SpaceKind
from machina_nb.rules.board.tiles import map_in_toml
from machina_nb.rules.cards.events import load_all_chapters, load_all_events
from machina_nb.rules.cards.items import load_all_items
from machina_nb.rules.cards.records import Record
from machina_nb.rules.cards.units import UnitEntry, load_all_units
from machina_nb.rules.content import (
    TomlFile,
    check_keys,
    did_you_mean,
    expect_kind,
    read_toml,
    require,
    shown,
)
from machina_nb.rules.rulings import PRESETS, SWITCHES, Rules

__all__ = ["ExampleStep", "Example", "load_example", "STEP_VERBS", "MAX_STEPS", "MAX_DICE_SCRIPT"]

_PAGE = re.compile(r"^(manual p\d+(-\d+)?|3\.5 \S.*|aid \S.*)$")
_LETTER = re.compile(r"^[A-Z]$")
_TOP_KEYS = {"kind", "id", "title", "page", "rules", "rulings", "board", "legend", "step",
             "outcome"}


_COMMON_STEP_KEYS = ("do", "actor", "target", "expect", "note")
_INVENTORY_EXPECT = ("equipped", "unequipped", "mains", "stamina", "essence", "armor", "will")

REPORT_KEYS = ("health", "armor", "will", "rolls", "position", "ethereal_targeting", "counts",
               "chapter", "threat", "lit", "tokens", "units", "over", "essence", "stamina",
               "markers", "equipped")
"""What a step that plays or resolves something may check afterwards (content/README.md)."""

STEP_VERBS: dict[str, tuple[tuple[str, ...], tuple[str, ...] | None]] = {
    "set": (("armor", "will", "stamina", "health", "essence"), ()),
    "monster_turn": (("dice",), ("end", "moves", "stamina_left", "abilities", "ability_target",
                                 "health")),
    "distances": ((), None),
    "contributors": ((), None),
    "play_ability": (("ability", "dice", "essence_budget", "phase", "second", "choices",
                      "destroy"),
                     ("hit", "target_health", "destroyed", "closed", "allowed", *REPORT_KEYS)),
    "spawn_rating": (("default",), None),
    "spawn_roll": (("default", "current", "monster"), ("chance", "after_failure",
                                                       "after_success")),
    "push": (("distance", "dice"), ("end", "destroyed")),
    "pull": (("distance", "dice"), ("end", "destroyed")),
    "inventory": (("steps", "unequipped"), ("valid", "error", "armor", "will", "equipped",
                                            "unequipped", "mains")),
    "item_decks": (("weapon", "apparel", "artifact", "consumable"), ()),
    "activate": (("choices", "dice"), _INVENTORY_EXPECT),
    "use_inventory": (("steps",), _INVENTORY_EXPECT),
    "trade_partners": ((), None),
    "adjacent": (("closed_doors",), None),
    "close_door": (("border",), None),
    "horror_roll": (("default", "current"), ("chance", "after_failure", "after_success")),
    "in_play": (("chapter", "next_chapters", "horror_event", "explorer_event", "bound_event",
                 "threat"), ()),
    "kill": (("banish", "dice", "choices"), REPORT_KEYS),
    "new_round": (("dice", "choices"), REPORT_KEYS),
    "invoke": (("event", "dice", "choices"), REPORT_KEYS),
    "chapter_space": (("dice", "choices"), REPORT_KEYS),
    "look": ((), REPORT_KEYS),
    "area": (("start", "deck", "places"), ()),
    "explore": (("at", "choices"), ("slots", *REPORT_KEYS)),
    "place": (("at",), ()),
}
"""Each step verb: its own keys (beside ``do``, ``actor``, ``target``, ``expect``, ``note``)
and the keys its ``expect`` table may hold (``()``: no ``expect``; ``None``: an ``expect``
that is not a table of named results). content/README.md documents them."""

MAX_STEPS = 64
"""The most steps one example may have."""

MAX_DICE_SCRIPT = 64
"""The most scripted dice results one step may give."""


@dataclass(frozen=True)
class ExampleStep:
    """One thing to do in an example: a verb ``do``, an optional ``actor``/``target``, raw extras.
    """

    do: str
    actor: str | None
    target: str | Point | None
    record: Record


@dataclass(frozen=True)
class Example:
    """A worked example: board, units by legend letter, rules, steps and the stated outcome."""

    id: str
    title: str
    page: str
    board: Layout
    units: tuple[tuple[str, UnitEntry], ...]
    preset: str
    rulings: tuple[tuple[str, str], ...]
    steps: tuple[ExampleStep, ...]
    outcome: str

    def unit(self, letter: str) -> UnitEntry:
        """The unit drawn as ``letter`` on the board (named in the example's legend)."""
        for key, unit in self.units:
            if key == letter:
                return unit
        raise KeyError(f"example {self.id} has no unit {letter!r}")

    def rules(self) -> Rules:
        """The preset with this example's rulings applied."""
        return Rules.preset(self.preset).replace(dict(self.rulings))


def load_example(path: str | Path, units: dict[str, UnitEntry] | None = None) -> Example:
    """Load one ``kind = "example"`` file, or raise :class:`ContentError` at file:line:col.

    ``units`` are the known units by id (default: every file in ``content/units``).
    """
    toml = read_toml(path)
    expect_kind(toml, "example")
    data = toml.data
    for key in data:
        if key not in _TOP_KEYS:
            raise toml.error(None, key, f"unknown key {key!r}; an example has "
                             f"{', '.join(sorted(_TOP_KEYS))}")
    example_id = require(toml, data, None, "id", str, "the example's id, e.g. 'p22_door_adjacency'")
    title = require(toml, data, None, "title", str, "the example's title")
    page = require(toml, data, None, "page", str, "the citation, e.g. 'manual p22'")
    if not _PAGE.match(page):
        raise toml.error(None, "page", f"page {page!r} must cite a source: 'manual p22', "
                         "'3.5 FAQ' or 'aid §...'")
    preset = require(toml, data, None, "rules", str, "a rules preset name")
    if preset not in PRESETS:
        raise toml.error(None, "rules", f"unknown rules preset {preset!r}; expected one of "
                         f"{', '.join(PRESETS)}")
    rulings = _rulings(toml, data.get("rulings", {}))
    outcome = require(toml, data, None, "outcome", str, "the outcome the source states, in our words")
    known = load_all_units() if units is None else units
    legend, by_letter = _legend(toml, require(toml, data, None, "legend", dict,
                                              "a table [legend] of letter = { unit = ... }"), known)
    text = require(toml, data, None, "board", str, "the board's map text")
    board = map_in_toml(toml, None, "board", text, legend)
    on_board = {letter for letter, _ in board.units}
    for letter in legend:
        if letter not in on_board:
            raise toml.error("legend", letter, f"legend letter {letter!r} is not on the board")
    steps = _steps(toml, data.get("step", []), board, by_letter)
    units_on_board = tuple((letter, by_letter[letter]) for letter, _ in board.units)
    return Example(example_id, title, page, board, units_on_board, preset, rulings, steps, outcome)


def _rulings(toml: TomlFile, table: Any) -> tuple[tuple[str, str], ...]:
    if not isinstance(table, dict):
        raise toml.error(None, "rulings", "'rulings' must be a table of switch = reading")
    for name, reading in table.items():
        if name not in SWITCHES:
            raise toml.error("rulings", name, f"unknown ruling {name!r}"
                             f"{did_you_mean(name, SWITCHES)}")
        if not isinstance(reading, str) or reading not in SWITCHES[name].readings:
            raise toml.error("rulings", name, f"unknown reading {shown(reading)} for {name}; "
                             f"expected one of {', '.join(SWITCHES[name].readings)}")
    return tuple(table.items())


def _legend(toml: TomlFile, table: dict[str, Any], known: dict[str, UnitEntry]
            ) -> tuple[dict[str, SpaceKind], dict[str, UnitEntry]]:
    legend: dict[str, SpaceKind] = {}
    by_letter: dict[str, UnitEntry] = {}
    spaces = {kind.value: kind for kind in SpaceKind}
    for letter, entry in table.items():
        if not _LETTER.match(letter):
            raise toml.error("legend", letter, f"legend key {letter!r} must be one upper-case letter")
        if not isinstance(entry, dict):
            raise toml.error("legend", letter, f"legend entry {letter!r} must be a table "
                             "{ unit = \"id\" } (optionally with space = \".\")")
        unit_id = entry.get("unit")
        if not isinstance(unit_id, str):
            raise toml.error("legend", letter, f"legend entry {letter!r} needs unit = \"<unit id>\"")
        if unit_id not in known:
            raise toml.error("legend", letter, f"unknown unit {shown(unit_id)}; content/units has "
                             f"{', '.join(sorted(known))}")
        space = entry.get("space", ".")
        if not isinstance(space, str) or space not in spaces:
            raise toml.error("legend", letter, f"legend entry {letter!r}: space {shown(space)} is not "
                             "a space character")
        unknown = set(entry) - {"unit", "space"}
        if unknown:
            raise toml.error("legend", letter, f"legend entry {letter!r} has unknown keys "
                             f"{', '.join(sorted(unknown))}; expected unit, space")
        legend[letter] = spaces[space]
        by_letter[letter] = known[unit_id]
    return legend, by_letter


def _steps(toml: TomlFile, tables: Any, board: Layout, by_letter: dict[str, UnitEntry]
           ) -> tuple[ExampleStep, ...]:
    if not isinstance(tables, list):
        raise toml.error(None, "step", "steps are an array of tables [[step]]")
    loaded: dict[str, dict[str, Any]] = {}

    def known_items() -> dict[str, Any]:
        if "items" not in loaded:
            loaded["items"] = load_all_items()
        return loaded["items"]

    if len(tables) > MAX_STEPS:
        raise toml.error(None, "step", f"at most {MAX_STEPS} steps in an example")
    steps = []
    for i, table in enumerate(tables):
        do = require(toml, table, "step", "do", str, "what to do, e.g. 'adjacent'", i,
                     choices=tuple(STEP_VERBS))
        _step_keys(toml, table, do, i)
        _step_references(toml, table, do, i, by_letter, known_items)
        actor = table.get("actor")
        if actor is not None and (not isinstance(actor, str) or actor not in by_letter):
            raise toml.error("step", "actor", f"actor {shown(actor)} is not a unit letter in the "
                             "legend", i)
        target = table.get("target")
        if isinstance(target, list):
            if (len(target) != 2 or not all(isinstance(v, int) and not isinstance(v, bool)
                                             for v in target)
                    or not (0 <= target[0] < board.width and 0 <= target[1] < board.height)):
                raise toml.error("step", "target", f"target {shown(target)} must be [x, y] on the "
                                 f"{board.width}x{board.height} board", i)
            target = (target[0], target[1])
        elif target is not None and (not isinstance(target, str) or target not in by_letter):
            raise toml.error("step", "target", f"target {shown(target)} must be a unit letter in the "
                             "legend or [x, y]", i)
        steps.append(ExampleStep(do, actor, target, Record.of(table)))
    return tuple(steps)


def _step_keys(toml: TomlFile, table: dict[str, Any], do: str, i: int) -> None:
    """The keys of the ``i``-th step and of its ``expect`` table are those its verb reads, and
    every scripted die is a whole number 1-10 (a d10; manual p13, p24)."""
    keys, expected = STEP_VERBS[do]
    check_keys(toml, "step", table, (*_COMMON_STEP_KEYS, *keys), f"a {do!r} step", i)
    expect = table.get("expect")
    if expected == () and "expect" in table:
        raise toml.error("step", "expect", f"a {do!r} step checks nothing: no 'expect'", i)
    if expected:
        if not isinstance(expect, dict):
            raise toml.error("step", "expect", f"'expect' of a {do!r} step is a table of "
                             f"{', '.join(expected)}, got {shown(expect)}", i)
        check_keys(toml, "step", expect, expected, f"the 'expect' of a {do!r} step", i)
    for key in ("dice", "distance", "default", "essence_budget", *STEP_VERBS["set"][0]):
        if key in table:
            value = table[key]
            if key == "dice":
                if not isinstance(value, list) or len(value) > MAX_DICE_SCRIPT or not all(
                        isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10
                        for v in value):
                    raise toml.error("step", "dice", f"'dice' is a list of at most "
                                     f"{MAX_DICE_SCRIPT} results 0-10, got {shown(value)}", i)
            else:
                require(toml, table, "step", key, int, "a whole number 0-9", i, low=0, high=9)


_INVENTORY_STEPS: dict[object, int] = {"main": 2, "upgrade": 3, "augment": 3}

_PHASES = ("explorer", "spawn", "horror", "monster")


def _card_references(toml: TomlFile, table: dict[str, Any], do: str, i: int) -> None:
    """The chapter and event cards a step names are shipped cards, and a ``phase`` is one of
    the round's four (manual p10, p21, p28, p37)."""
    chapters = load_all_chapters() if do == "in_play" else {}
    events = load_all_events() if do in ("in_play", "invoke") else {}
    for key, known in (("chapter", chapters), ("horror_event", events),
                       ("explorer_event", events), ("bound_event", events), ("event", events)):
        if key in table and (not isinstance(table[key], str) or table[key] not in known):
            raise toml.error("step", key, f"unknown card {shown(table[key])}"
                             f"{did_you_mean(table[key], known)}", i)
    for name in table.get("next_chapters", []) if do == "in_play" else []:
        if name not in chapters:
            raise toml.error("step", "next_chapters", f"unknown chapter {shown(name)}"
                             f"{did_you_mean(name, chapters)}", i)
    if "phase" in table and table["phase"] not in _PHASES:
        raise toml.error("step", "phase", f"'phase' is one of {', '.join(_PHASES)}, got "
                         f"{shown(table['phase'])}", i)


def _step_references(toml: TomlFile, table: dict[str, Any], do: str, i: int,
                     by_letter: dict[Any, UnitEntry], known_items: Callable[[], dict[str, Any]]
                     ) -> None:
    """The names a step gives resolve: the actor's ability, the item cards it equips or deals.

    Rules: manual p20-21 (a unit plays its own abilities), p30-31 (item cards).
    """
    _card_references(toml, table, do, i)
    if do == "play_ability":
        actor = by_letter.get(table.get("actor")) if isinstance(table.get("actor"), str) else None
        ability = table.get("ability")
        names = [a.name for a in actor.abilities] if actor is not None else []
        held = {a.name for card in (*known_items().values(), *load_all_chapters().values(),
                                    *load_all_events().values()) for a in card.abilities}
        if actor is None or not isinstance(ability, str) or \
                (ability not in names and ability not in held):
            raise toml.error("step", "ability", f"{shown(ability)} is not an ability of the "
                             f"actor or of an item (its own: {', '.join(names) or 'none'})"
                             f"{did_you_mean(ability, [*names, *sorted(held)])}", i)
    items = None
    for key in ("steps", "unequipped", *STEP_VERBS["item_decks"][0]):
        if key not in table or do not in ("inventory", "use_inventory", "item_decks"):
            continue
        items = known_items() if items is None else items
        entries = table[key]
        if not isinstance(entries, list) or len(entries) > 64:
            raise toml.error("step", key, f"'{key}' must be a list of at most 64 entries", i)
        for entry in entries:
            given = entry if key != "steps" else entry[1:] if isinstance(entry, list) else None
            if key == "steps" and (not isinstance(entry, list) or
                                   _INVENTORY_STEPS.get(entry[0] if entry else None) != len(entry)):
                raise toml.error("step", key, f"an inventory step is [\"main\", item], "
                                 f"[\"upgrade\", item, host] or [\"augment\", item, host], "
                                 f"got {shown(entry)}", i)
            for name in given if isinstance(given, list) else [given]:
                if not isinstance(name, str) or name not in items:
                    raise toml.error("step", key, f"unknown item {shown(name)}"
                                     f"{did_you_mean(name, items)}", i)
