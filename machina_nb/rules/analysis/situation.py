"""Situation files: a position from the table, its rules and the questions to answer.

A situation (``kind = "situation"``, content/README.md) is a board — map text whose
upper-case letters are units, or one tile side with units placed by ``at`` — the
units' cards and current values, whose turn it is, the rules preset with switch
overrides, and named questions. :func:`load_situation` refuses a bad file at
file:line:col and returns a complete immutable :class:`Situation`, never half of one.

>>> from machina_nb.rules.content import content_root
>>> s = load_situation(content_root() / "situations" / "sight_corner.toml")
>>> s.rules().name, [q.name for q in s.questions][:1]
('manual', ['sees_lorrai'])

Rules: manual p8 (setup), p15 (the queue), p18 (unit values), p31 (inventory).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from machina_nb.rules.analysis.catalog import chapter_cards, event_cards, item_cards, unit_cards
from machina_nb.rules.analysis.inventories import (
    INVENTORY_KEYS,
    Holding,
    build_inventory,
    read_holding,
)
from machina_nb.rules.analysis.own_cards import NO_CARDS, OwnCards, read_own_cards
from machina_nb.rules.analysis.questions import (
    QUESTION_KINDS,
    REPORTS,
    SPACE_WORDS,
    Question,
    parse_questions,
    space_value,
)
from machina_nb.rules.board.maptext import Layout, Point, SpaceKind
from machina_nb.rules.board.playarea import PlayArea
from machina_nb.rules.board.tiles import TileSide, check_tile_layout, load_tiles, map_in_toml
from machina_nb.rules.cards.items import ITEM_TYPES, ItemDecks
from machina_nb.rules.cards.records import Record
from machina_nb.rules.cards.units import unit_card
from machina_nb.rules.content import TomlFile, content_root, expect_kind, read_toml, require
from machina_nb.rules.engine.holdings import set_inventory
from machina_nb.rules.engine.state import PHASES, Deck, GameState, MapSpec, MonsterTurn, Unit
from machina_nb.rules.errors import ContentError, RulesError
from machina_nb.rules.rulings import PRESETS, SWITCHES, Rules

__all__ = ["Question", "SituationUnit", "Situation", "load_situation", "load_situations",
           "QUESTION_KINDS", "situation_from_text", "unit_cards", "item_cards", "event_cards",
           "chapter_cards", "MAX_SIDE", "GAME_KEYS", "REPORTS", "SPACE_WORDS"]

_TOP_KEYS = {"kind", "id", "title", "rules", "rulings", "map", "tile", "unit", "turn",
             "question", "note", "shows", "tile_size", "game", "deck", "cards"}
GAME_KEYS = ("chapter", "chapters", "spawn_rating", "horror_rating", "threat",
             "threat_positions", "level", "round", "monsters", "monsters_destroyed", "reserve",
             "horror_events", "horror_destroyed", "explorer_events", "explorer_destroyed",
             *ITEM_TYPES, "lit", "destroyed", "exit_token", "bound", "fallen",
             "endgame")
"""The keys of a situation's ``[game]`` table: the cards, decks, tokens and tracks in play."""
_GAME_NUMBERS = {"spawn_rating": (0, 9), "horror_rating": (0, 9), "threat": (1, 20),
                 "threat_positions": (2, 20), "level": (1, 5), "round": (1, 99)}
_CARD_LISTS = {"chapters": "chapter", "endgame": "chapter", "monsters": "monster", "monsters_destroyed": "monster",
               "reserve": "monster", "horror_events": "horror", "horror_destroyed": "horror",
               "explorer_events": "explorer", "explorer_destroyed": "explorer",
               **{kind: "item" for kind in ITEM_TYPES}}
_UNIT_KEYS = {"card", "space", "at", "health", "stamina", "essence", "armor", "will", "id",
              *INVENTORY_KEYS}
_LETTER = re.compile(r"^[A-Z]$")
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
MAX_SIDE = 40
"""The largest board a situation may hold, in spaces per side (a documented limit)."""


@dataclass(frozen=True)
class SituationUnit:
    """A unit of the situation: its letter, engine id, card id and position."""

    letter: str
    id: str
    card: str
    position: Point


@dataclass(frozen=True)
class Situation:
    """A loaded situation: the state as set up, the rules, the units by letter, the questions.

    ``state`` is built at the situation's own rules; :meth:`state_at` rebuilds it
    under other rules (item bonuses may depend on a reading).
    Rules: manual p8 (setup), p18 (unit values).
    """

    id: str
    title: str
    path: str
    layout: Layout
    units: tuple[SituationUnit, ...]
    preset: str
    rulings: tuple[tuple[str, str], ...]
    questions: tuple[Question, ...]
    base: GameState
    items: tuple[tuple[str, Holding], ...] = ()
    """What each explorer holds, by engine id (module ``inventories``)."""
    note: str = ""
    shows: tuple[str, ...] = ()
    tile_size: int = 10
    game: Record = Record(())
    deck: tuple[str, ...] = ()
    cards: OwnCards = NO_CARDS
    """The player's own cards this situation knows: its own ``[cards]`` and its card files'."""

    def rules(self) -> Rules:
        """The preset with this situation's overrides applied."""
        return Rules.preset(self.preset).replace(dict(self.rulings))

    def unit_id(self, letter: str) -> str:
        """The engine id of the unit drawn as ``letter``."""
        for u in self.units:
            if u.letter == letter:
                return u.id
        raise RulesError("letter", f"situation {self.id} has no unit {letter!r}")

    def letter_of(self, unit_id: str) -> str | None:
        """The letter of the unit with engine id ``unit_id`` (None for a unit added later)."""
        return next((u.letter for u in self.units if u.id == unit_id), None)

    def state_at(self, rules: Rules) -> GameState:
        """The situation's state with its items equipped under ``rules`` (manual p31)."""
        return _with_items(self.base, self.items, rules, self.cards)


@lru_cache(maxsize=256)
def _with_items(state: GameState, items: tuple[Any, ...], rules: Rules,
                own: OwnCards) -> GameState:
    if not items:
        return state
    for owner, held in items:
        state = set_inventory(state, build_inventory(owner, held, own.items()), rules)
    return state


def load_situations(folder: str | Path | None = None,
                    cards: OwnCards = NO_CARDS) -> dict[str, Situation]:
    """Every situation in ``content/situations`` (or ``folder``), by id, each knowing the
    player's ``cards`` too; one bad file loads nothing."""
    from_folder = Path(folder) if folder else _content_situations()
    found: dict[str, Situation] = {}
    for path in sorted(from_folder.glob("*.toml")):
        s = load_situation(path, cards)
        if s.id in found:
            raise ContentError(str(path), *read_toml(path).where(None, "id"),
                               f"duplicate situation id {s.id!r}")
        found[s.id] = s
    return found


def _content_situations() -> Path:
    return content_root() / "situations"


def situation_from_text(text: str, name: str = "<situation>",
                        cards: OwnCards = NO_CARDS) -> Situation:
    """A situation from TOML text (e.g. pasted into a notebook); errors name ``name``;
    ``cards`` are the player's card files' cards (:func:`load_card_folder`)."""
    toml = _toml_text(text, name)
    return _situation(toml, cards)


def _toml_text(text: str, name: str) -> TomlFile:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.match(r"^(.*) \(at line (\d+), column (\d+)\)$", str(exc))
        if m:
            raise ContentError(name, int(m[2]), int(m[3]), f"bad TOML: {m[1]}") from None
        raise ContentError(name, 1, 1, f"bad TOML: {exc}") from None
    return TomlFile(name, text, data)


def load_situation(path: str | Path, cards: OwnCards = NO_CARDS) -> Situation:
    """Load one ``kind = "situation"`` file, or raise :class:`ContentError` at file:line:col.

    ``cards`` are the player's card files' cards (:func:`load_card_folder`); the file's own
    ``[cards]`` join them (module ``own_cards``).

    Refused: an unknown key, card, item, preset, switch or reading; a unit on
    no space of the board, off the board or on a space another unit holds; a
    board over 40x40; a question of an unknown kind, with an unknown key, or
    naming a letter that is not a unit.
    Rules: manual p8, p18, p22, p31.
    """
    return _situation(read_toml(path), cards)


def _situation(toml: TomlFile, library: OwnCards = NO_CARDS) -> Situation:
    expect_kind(toml, "situation")
    data = toml.data
    for key in data:
        if key not in _TOP_KEYS:
            raise toml.error(None, key, f"unknown key {key!r}; a situation has "
                             f"{', '.join(sorted(_TOP_KEYS))}")
    sid = require(toml, data, None, "id", str, "the situation's id, e.g. 'sarall_door'")
    title = require(toml, data, None, "title", str, "a one-line title")
    preset = data.get("rules", "manual")
    if preset not in PRESETS:
        raise toml.error(None, "rules", f"unknown rules preset {preset!r}; expected one of "
                         f"{', '.join(PRESETS)}")
    rulings = _rulings(toml, data.get("rulings", {}))
    own = read_own_cards(toml, data["cards"], library) if "cards" in data else library
    shows = _shows(toml, data.get("shows", []))
    unit_tables = data.get("unit", {})
    if not isinstance(unit_tables, dict):
        raise toml.error(None, "unit", "units are tables [unit.<LETTER>]")
    layout = _layout(toml, data, unit_tables)
    tile_size = data.get("tile_size", 10)
    if not isinstance(tile_size, int) or isinstance(tile_size, bool) or \
            not 1 <= tile_size <= MAX_SIDE:
        raise toml.error(None, "tile_size", f"'tile_size' is the side of a map tile in spaces, "
                         f"a whole number 1-{MAX_SIDE} (manual p11: map tiles)")
    units, items = _units(toml, layout, unit_tables, own)
    spec, deck = _map_spec(toml, data, layout, tile_size)
    game = _game(toml, data.get("game", {}), layout, dict((letter, u) for letter, u in units),
                 own)
    state = _state(toml, data.get("turn", {}), spec, units, game)
    letters = tuple(SituationUnit(letter, u.id, u.card, cast(Point, u.position))  # all placed
                    for letter, u in units)
    questions = parse_questions(toml, data.get("question", []), dict(units), layout, bool(deck),
                                own)
    situation = Situation(sid, title, toml.path, layout, letters, preset, rulings, questions,
                          state, items, str(data.get("note", "")), shows, tile_size,
                          Record.of(data.get("game", {})), deck, own)
    try:
        situation.state_at(situation.rules())
    except RulesError as exc:
        raise toml.error("unit", None, f"the items do not fit: {exc}") from None
    return situation


def _map_spec(toml: TomlFile, data: Mapping[str, Any], layout: Layout,
              tile_size: int) -> tuple[MapSpec, tuple[str, ...]]:
    """A fixed map cut into map tiles, or, with a ``deck``, a playing area whose starting tile
    is the board (a tile side: ``tile``, or a map drawn as one) and whose map-tile deck is
    ``deck``, top first (manual p8, p11, p34).

    Rules: manual p8 (setup: the starting tile, the map-tile deck), p11 (tile sides), p34
    (explore).
    """
    if "deck" not in data:
        return MapSpec(layout, tile_size), ()
    deck = data["deck"]
    sides = {s.key: s for t in load_tiles().values() for s in t.sides}
    if "tile" in data:
        start = sides[data["tile"]]
    else:
        check_tile_layout(layout, toml, None, "map")
        start = TileSide("start", "", "Starting tile", replace(layout, units=()))
    if "tile_size" in data:
        raise toml.error(None, "tile_size", "a playing area is made of 10x10 map tiles; give no "
                         "tile_size with a deck (manual p11)")
    if not isinstance(deck, list) or not deck or any(k not in sides for k in deck):
        raise toml.error(None, "deck", "'deck' is the map-tile deck, top first: shipped tile "
                         "sides such as \"t02a\" (manual p8)")
    try:
        area = PlayArea.start(tuple(sides.values()) + ((start,) if "tile" not in data else ()),
                              tuple(deck) + (start.key,))
    except RulesError as exc:
        raise toml.error(None, "deck", f"the map-tile deck does not hold together: {exc}") \
            from None
    return MapSpec(area=area), tuple(deck)


def _rulings(toml: TomlFile, table: Any) -> tuple[tuple[str, str], ...]:
    if not isinstance(table, dict):
        raise toml.error(None, "rulings", "'rulings' must be a table of switch = reading")
    for name, reading in table.items():
        if name not in SWITCHES:
            raise toml.error("rulings", name, f"unknown switch {name!r}")
        if reading not in SWITCHES[name].readings:
            raise toml.error("rulings", name, f"unknown reading {reading!r} for {name}; "
                             f"expected one of {', '.join(SWITCHES[name].readings)}")
    return tuple(sorted(table.items()))


def _shows(toml: TomlFile, names: Any) -> tuple[str, ...]:
    """The switches this situation is built to show (their readings change its answers)."""
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise toml.error(None, "shows", "'shows' must be a list of switch names")
    for name in names:
        if name not in SWITCHES:
            raise toml.error(None, "shows", f"unknown switch {name!r} in 'shows'")
    return tuple(names)


def _layout(toml: TomlFile, data: Mapping[str, Any], unit_tables: dict[str, Any]) -> Layout:
    """The board: map text (letters are units) or one tile side (units placed by ``at``)."""
    if ("map" in data) == ("tile" in data):
        raise toml.error(None, None, "give the board as map = '''...''' or tile = \"t01a\" "
                         "(one of them)")
    if "tile" in data:
        key = require(toml, data, None, "tile", str, "a tile side such as 't01a'")
        tiles = load_tiles()
        side = next((s for t in tiles.values() for s in t.sides if s.key == key), None)
        if side is None:
            raise toml.error(None, "tile", f"unknown tile side {key!r}; e.g. t01a, t01b")
        return side.layout
    text = require(toml, data, None, "map", str, "the board's map text")
    legend = {}
    for letter, entry in unit_tables.items():
        space = entry.get("space", ".") if isinstance(entry, dict) else "."
        kinds = {k.value: k for k in SpaceKind}
        if space not in kinds:
            raise toml.error(f"unit.{letter}", "space", f"space {space!r} is not a space "
                             "character (content/README.md)")
        legend[letter] = kinds[space]
    layout = map_in_toml(toml, None, "map", text, legend)
    if layout.width > MAX_SIDE or layout.height > MAX_SIDE:
        raise toml.error(None, "map", f"the board is {layout.width}x{layout.height}; a "
                         f"situation holds at most {MAX_SIDE}x{MAX_SIDE}")
    return layout


def _units(toml: TomlFile, layout: Layout, tables: dict[str, Any], own: OwnCards
           ) -> tuple[list[tuple[str, Unit]], tuple[tuple[str, Holding], ...]]:
    """Each unit's engine value, in letter order of the tables; items per explorer."""
    cards, items = own.units(), own.items()
    drawn = dict(layout.units)
    taken: dict[Point, str] = {}
    out: list[tuple[str, str, Point, dict[str, Any]]] = []
    held: list[tuple[str, Holding]] = []
    counts: dict[str, int] = {}
    for letter, entry in tables.items():
        name = f"unit.{letter}"
        if not _LETTER.match(letter):
            raise toml.error(name, None, f"unit key {letter!r} must be one upper-case letter")
        if not isinstance(entry, dict):
            raise toml.error(None, None, f"'{name}' must be a table [{name}]")
        for key in entry:
            if key not in _UNIT_KEYS:
                raise toml.error(name, key, f"unknown key {key!r} in a unit; expected "
                                 f"{', '.join(sorted(_UNIT_KEYS))}")
        card = require(toml, entry, name, "card", str, "a unit card id from content/units")
        if card not in cards:
            raise toml.error(name, "card", f"unknown card {card!r}; content/units and the "
                             f"own cards have {', '.join(sorted(cards))}")
        counts[card] = counts.get(card, 0) + 1
        position = _position(toml, layout, name, entry, drawn.get(letter))
        if position in taken:
            raise toml.error(name, "at" if "at" in entry else None,
                             f"{letter} stands on {position}, where {taken[position]} already "
                             "stands: one unit per space (manual p22)")
        taken[position] = letter
        out.append((letter, card, position, entry))
        holding = read_holding(toml, name, entry, items, cards[card].kind == "explorer")
        if not holding.empty:
            held.append((letter, holding))
    for letter in drawn:
        if letter not in tables:
            raise toml.error(None, "map", f"letter {letter!r} on the map has no [unit.{letter}]")
    units = [(letter, _unit(toml, letter, cards[card], position, entry, counts[card]))
             for letter, card, position, entry in out]
    ids = dict((letter, u.id) for letter, u in units)
    return units, tuple((ids[letter], got) for letter, got in held)


def _position(toml: TomlFile, layout: Layout, name: str, entry: dict[str, Any],
              drawn: Point | None) -> Point:
    at = entry.get("at")
    if at is None:
        if drawn is None:
            raise toml.error(name, None, f"{name[-1]} is not drawn on the map and has no "
                             "at = [x, y]")
        return drawn
    if drawn is not None:
        raise toml.error(name, "at", f"{name[-1]} is drawn on the map; give no 'at'")
    at = space_value(toml, name, "at", at)      # "B3" as the board labels it
    if (not isinstance(at, list) or len(at) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in at)):
        raise toml.error(name, "at", f"'at' must be [x, y] or a space as the board labels it "
                         f"(\"B3\"), got {entry.get('at')!r}")
    if not (0 <= at[0] < layout.width and 0 <= at[1] < layout.height):
        raise toml.error(name, "at", f"{tuple(at)} is off the {layout.width}x{layout.height} "
                         "board")
    kind = layout.space(at[0], at[1])
    if kind in (SpaceKind.DESTROYED, SpaceKind.UNIDENTIFIABLE):
        raise toml.error(name, "at", f"{tuple(at)} is a {kind.name.lower()} space: no unit "
                         "can stand there (manual p35-36)")
    return (at[0], at[1])


def _unit(toml: TomlFile, letter: str, card: Any, position: Point, entry: dict[str, Any],
          count: int) -> Unit:
    """The engine unit of ``card`` at ``position`` with the entry's current values (manual p18)."""
    name = f"unit.{letter}"
    uid = entry.get("id") or (card.id if count == 1 else f"{card.id}_{letter.lower()}")
    if not isinstance(uid, str) or not _NAME.match(uid):
        raise toml.error(name, "id", f"id {uid!r} must be lower-case letters, digits and '_'")
    unit = Unit.from_card(unit_card(card), uid, position)
    changes: dict[str, Any] = {"origin": unit_card(card)} if unit.side == "monster" else {}
    for key, top in (("health", "max_health"), ("stamina", "max_stamina"),
                     ("essence", "max_essence")):
        if key in entry:
            value = entry[key]
            if not isinstance(value, int) or isinstance(value, bool) or \
                    not 0 <= value <= getattr(unit, top):
                raise toml.error(name, key, f"{key} must be a whole number 0-"
                                 f"{getattr(unit, top)} (its card's maximum; manual p18), "
                                 f"got {value!r}")
            changes[key] = value
    for key in ("armor", "will"):
        if key in entry:
            value = entry[key]
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 9:
                raise toml.error(name, key, f"{key} must be a whole number 0-9 (manual p18), "
                                 f"got {value!r}")
            changes[key] = value
    return replace(unit, **changes)


def _state(toml: TomlFile, turn: Any, spec: MapSpec, units: list[tuple[str, Unit]],
           game: dict[str, Any]) -> GameState:
    """The state: explorers seated in table order, monsters queued in table order (manual p15)."""
    if not isinstance(turn, dict):
        raise toml.error(None, "turn", "[turn] is a table with phase and active")
    for key in turn:
        if key not in ("phase", "active"):
            raise toml.error("turn", key, f"unknown key {key!r} in [turn]; expected phase, active")
    phase = turn.get("phase", "explorer")
    if phase not in PHASES:
        raise toml.error("turn", "phase", f"unknown phase {phase!r}; expected one of "
                         f"{', '.join(PHASES)}")
    engine = [u for _, u in units]
    explorers = tuple(u for u in engine if u.side == "explorer")
    monsters = tuple(u for u in engine if u.side == "monster")
    ids = dict((letter, u.id) for letter, u in units)
    active = turn.get("active")
    if active is not None and active not in ids:
        raise toml.error("turn", "active", f"active {active!r} is not a unit letter")
    fields = dict(phase=phase, starting_explorers=len(explorers), spawn_rating=None,
                  horror_rating=None, queue=tuple(m.id for m in monsters))
    fields.update(game)
    fields["starting_explorers"] = len(explorers) + len(game.get("dead", ()))
    if active is not None:
        who = ids[active]
        side = next(u.side for u in engine if u.id == who)
        if phase == "monster" and side == "monster":
            others = tuple(m.id for m in monsters if m.id != who)
            fields.update(queue=(who,) + others, monster_turn=MonsterTurn(who))
        elif phase == "explorer" and side == "explorer":
            fields.update(active=who, turns=(who,))
        else:
            raise toml.error("turn", "active", f"{active} is a {side}; it does not act in the "
                             f"{phase} phase (manual p10)")
    try:
        return GameState(spec, units=explorers + monsters, **fields)
    except RulesError as exc:
        raise toml.error("game", None, f"the game does not hold together: {exc}") from None


def _game(toml: TomlFile, table: Any, layout: Layout, units: dict[str, Unit],
          own: OwnCards) -> dict[str, Any]:
    """The ``[game]`` table as state fields: the chapter and decks, tracks and tokens in play.

    Rules: manual p8 (setup: decks, tracks), p13-14 (ratings, threat, level, decks of monsters
    and horror events), p21 (the current event: the topmost destroyed), p26 (binding events),
    p28 (chapters; the endgame cards set aside until the endgame), p30 (item decks), p35-36
    (destroyed and light tokens), p34 (exit token), p15 and p19 (fallen explorers).
    """
    if not isinstance(table, dict):
        raise toml.error(None, "game", "[game] is a table of the cards, decks and tokens in play")
    for key in table:
        if key not in GAME_KEYS:
            raise toml.error("game", key, f"unknown key {key!r} in [game]; expected "
                             f"{', '.join(GAME_KEYS)}")
    fields: dict[str, Any] = {}
    if "chapter" in table:
        chapter = _card(toml, "chapter", table["chapter"], "chapter", own)
        fields.update(chapter=chapter, spawn_rating=chapter.spawn_rating,
                      horror_rating=chapter.horror_rating)
    for key, (low, high) in _GAME_NUMBERS.items():
        if key in table:
            value = table[key]
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise toml.error("game", key, f"{key!r} must be a whole number {low}-{high}")
            fields[key] = value
    cards = {key: tuple(_card(toml, key, c, kind, own) for c in _list(toml, table, key))
             for key, kind in _CARD_LISTS.items()}
    fields.update(chapters=Deck(cards["chapters"]), reserve=cards["reserve"],
                  monsters=Deck(cards["monsters"], cards["monsters_destroyed"]),
                  horror_events=Deck(cards["horror_events"], cards["horror_destroyed"]),
                  explorer_events=Deck(cards["explorer_events"], cards["explorer_destroyed"]),
                  items=ItemDecks(**{kind: cards[kind] for kind in ITEM_TYPES}),
                  endgame=cards["endgame"])
    for key in ("lit", "destroyed"):
        fields[key] = tuple(_spot(toml, key, p, layout) for p in _list(toml, table, key))
    if "exit_token" in table:
        fields["exit_token"] = _spot(toml, "exit_token", table["exit_token"], layout)
    fields["bound"] = _bound(toml, table.get("bound", {}), units, own)
    fields["dead"] = _fallen(toml, table, units, own)
    return fields


def _fallen(toml: TomlFile, table: dict[str, Any], units: dict[str, Unit], own: OwnCards
            ) -> tuple[str, ...]:
    """The explorers destroyed before this position, by card id: their figures are off the
    map for good, and while one has fallen the monsters are scheming.

    Rules: manual p15 (scheming monsters: the fallen explorers' players form a hive mind),
    p19 (an explorer at 0 health is destroyed), p3 (the last explorer destroyed loses the game).
    """
    cards, placed = own.units(), {u.card for u in units.values()}
    out: list[str] = []
    for card_id in _list(toml, table, "fallen"):
        if not isinstance(card_id, str) or card_id not in cards or \
                cards[card_id].kind != "explorer":
            raise toml.error("game", "fallen", f"{card_id!r} is not an explorer card of "
                             "content/units nor an own card")
        if card_id in placed or card_id in out:
            raise toml.error("game", "fallen", f"{card_id!r} is on the board or named twice: "
                             "a fallen explorer is out of the game (manual p19)")
        out.append(card_id)
    if out and not any(u.side == "explorer" for u in units.values()):
        raise toml.error("game", "fallen", "every explorer has fallen: the game is lost and "
                         "there is no position to ask about (manual p3)")
    return tuple(out)


def _list(toml: TomlFile, table: dict[str, Any], key: str) -> list[Any]:
    value = table.get(key, [])
    if not isinstance(value, list):
        raise toml.error("game", key, f"{key!r} is a list, top card (or first space) first")
    return value


def _card(toml: TomlFile, key: str, card_id: Any, kind: str, own: OwnCards) -> Any:
    """A card of ``kind`` (chapter, monster, horror, explorer, item) by its id: shipped or own."""
    found = cast(Mapping[str, Any], {"chapter": own.chapters(), "item": own.items(),
                                      "horror": own.events(), "explorer": own.events()}.get(kind))
    if kind == "monster":
        units = own.units()
        card = units.get(card_id) if isinstance(card_id, str) else None
        if card is not None and card.kind == "monster":
            return unit_card(card)
    elif isinstance(card_id, str) and card_id in found and (
            kind not in ("horror", "explorer") or found[card_id].kind == kind):
        card = found[card_id]
        if kind == "item" and key in ITEM_TYPES and card.type != key:
            raise toml.error("game", key, f"{card_id!r} is a {card.type}, not a {key} (manual "
                             "p30: one deck per item type)")
        return card
    where = {"chapter": "content/chapters", "item": "content/items", "monster": "content/units",
             "horror": "content/events", "explorer": "content/events"}[kind]
    raise toml.error("game", key, f"{card_id!r} is not a {kind} card of {where} nor an own "
                     "card")


def _spot(toml: TomlFile, key: str, value: Any, layout: Layout) -> Point:
    value = space_value(toml, "game", key, value)
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            or not (0 <= value[0] < layout.width and 0 <= value[1] < layout.height)):
        raise toml.error("game", key, f"{value!r} must be [x, y] on the {layout.width}x"
                         f"{layout.height} board")
    return (value[0], value[1])


def _bound(toml: TomlFile, table: Any, units: dict[str, Unit], own: OwnCards) -> tuple[Any, ...]:
    """Binding events held by units: explorer events by explorers, horror events by monsters."""
    if not isinstance(table, dict):
        raise toml.error("game", "bound", "'bound' is a table: LETTER = [event ids]")
    out = []
    for letter, ids in table.items():
        if letter not in units or not isinstance(ids, list):
            raise toml.error("game", "bound", f"'bound' gives a unit letter and a list of "
                             f"event ids, got {letter!r}")
        side = units[letter].side
        for card_id in ids:
            card = _card(toml, "bound", card_id, "explorer" if side == "explorer" else "horror",
                         own)
            out.append((units[letter].id, card))
    return tuple(out)
