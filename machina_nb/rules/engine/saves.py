"""Saving and loading: a game state as JSON text and back, checked whole.

:func:`to_json` writes a :class:`~machina_nb.rules.engine.state.GameState` (cards once, in a
table, referred to by key); :func:`from_json` reads it back into an equal state and refuses
anything the engine's invariants forbid, naming the path of the bad field. A state that
waits for the players' choice keeps its :class:`~machina_nb.rules.engine.state.Decision`,
with the action being resolved, so a game can be saved at any point.

>>> from machina_nb.rules.board.maptext import parse_map
>>> from machina_nb.rules.engine.state import GameState, MapSpec, Unit
>>> phillip = Unit("phillip", "Phillip", "explorer", (1, 0), armor=2, will=3,
...                health=5, max_health=5, stamina=4, max_stamina=4)
>>> state = GameState(MapSpec(parse_map("+-+-+\\n|. .|\\n+-+-+\\n")), units=(phillip,))
>>> from_json(to_json(state)) == state
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import replace
import enum
import json
from functools import lru_cache
from typing import Any, Callable, cast

from machina_nb.rules.board.graph import PASSABLE_SPACES
from machina_nb.rules.board.maptext import BorderKind, Layout, Point, SpaceKind, parse_map
from machina_nb.rules.board.placement import Displacement, Trigger
from machina_nb.rules.board.playarea import PlayArea, place_tile
from machina_nb.rules.board.tiles import TileSide
from machina_nb.rules.cards.abilities import Ability, Cost, Effect, Targeting
from machina_nb.rules.cards.events import Chapter, EventCard
from machina_nb.rules.cards.items import Equipped, Inventory, ItemCard, ItemDecks, ItemWindow
from machina_nb.rules.cards.units import UnitCard
from machina_nb.rules.engine.actions import ACTION_KINDS, Action
from machina_nb.rules.engine.state import (Deck, Decision, GameState, Lasting, MapSpec,
                                           MonsterTurn, PhaseName, Side, Unit)
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules, check_rules

__all__ = ["to_json", "from_json", "MAX_SAVE_CHARS", "MAX_JSON_DEPTH", "MAX_SAVE_LIST",
           "MAX_ROUND"]


_CLASSES = {cls.__name__: cls for cls in (
    UnitCard, Unit, EventCard, Chapter, Deck, Lasting, MonsterTurn, GameState, Ability, Cost,
    Targeting, Effect, ItemCard, Equipped, Inventory, ItemDecks, ItemWindow, Decision,
    Displacement, Trigger, *ACTION_KINDS)}
_ENUMS = {cls.__name__: cls for cls in (BorderKind, SpaceKind)}
_PLAIN_ENUMS = (PhaseName, Side)
"""The enums a save writes as plain words (the state turns them back into enums)."""


def to_json(state: GameState, indent: int | None = None) -> str:
    """The state as JSON text; :func:`from_json` gives back an equal state (save/load).

    Cards (units' cards, events, chapters, abilities) are written once in a
    ``cards`` table and referred to by key wherever they appear.
    """
    codec = _Codec()
    body = codec.encode(state)
    return json.dumps({"cards": codec.table, "state": body}, indent=indent, sort_keys=True)


MAX_SAVE_CHARS = 4_000_000
"""The longest save :func:`from_json` reads (characters); a long game's save is far smaller."""

MAX_JSON_DEPTH = 64
"""How deeply a save's JSON may nest (a state nests about 15 deep)."""

MAX_SAVE_LIST = 5_000
"""The longest list a save may hold (decks, destroyed spaces, the units...)."""

MAX_ROUND = 999
"""The highest round number a save may carry."""


def from_json(text: str, rules: Rules | None = None) -> GameState:
    """A state from :func:`to_json` text , checked whole; bad input raises
    :class:`RulesError` naming ``text`` and the path of the bad field (``state.units[2].health``).

    The checks are the engine's invariants: units on passable spaces of the board, one per
    space; the monster queue holds exactly the monsters in play; attributes 0-9; every
    unit id the state names (active, done, markers, inventories) is a unit; every card
    reference resolves, and none refers to itself; sizes within :data:`MAX_SAVE_CHARS`,
    :data:`MAX_JSON_DEPTH`, :data:`MAX_SAVE_LIST`. ``rules`` (optional): under
    ``fallback.passable = not_required`` a monster may stand on an obstacle space.
    Rules: manual p18 (attributes), p25 (one unit a space).
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise RulesError("text", "a save is UTF-8 JSON text") from None
    if not isinstance(text, str):
        raise RulesError("text", f"expected the JSON text of a save, got {type(text).__name__}")
    if len(text) > MAX_SAVE_CHARS:
        raise RulesError("text", f"a save is at most {MAX_SAVE_CHARS} characters, got {len(text)}")
    if rules is not None:
        check_rules(rules)
    try:
        data = json.loads(text)
    except RecursionError:
        raise RulesError("text", f"not a saved game state: nested more than {MAX_JSON_DEPTH} "
                         "deep") from None
    except ValueError as exc:
        raise RulesError("text", f"not a saved game state: {str(exc)[:120]}") from None
    _check_json_shape(data)
    if not isinstance(data, dict) or set(data) != {"cards", "state"} or \
            not isinstance(data["cards"], dict):
        raise RulesError("text", "not a saved game state: expected {\"cards\": {...}, "
                         "\"state\": {...}}")
    state = _Codec(data["cards"]).decode(data["state"], "state")
    if not isinstance(state, GameState):
        raise RulesError("text", "state: the JSON does not hold a GameState")
    _check_state(state, rules)
    return state


def _bad(path: str, message: str) -> RulesError:
    return RulesError("text", f"{path}: {message}")


def _check_json_shape(data: Any) -> None:
    """Refuse nesting deeper than :data:`MAX_JSON_DEPTH` and lists longer than
    :data:`MAX_SAVE_LIST`, without recursion."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise RulesError("text", f"not a saved game state: nested more than "
                             f"{MAX_JSON_DEPTH} deep")
        if isinstance(value, list):
            if len(value) > MAX_SAVE_LIST:
                raise RulesError("text", f"a list of {len(value)} entries; saves hold at most "
                                 f"{MAX_SAVE_LIST}")
            stack.extend((v, depth + 1) for v in value if isinstance(v, (list, dict)))
        elif isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values() if isinstance(v, (list, dict)))


def _point(state: GameState, path: str, value: Any) -> Point:
    """``value`` if it is a point (two ints) on the map of ``state``, else an error at ``path``."""
    if not (isinstance(value, tuple) and len(value) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise _bad(path, f"expected a point [x, y], got {value!r}"[:160])
    spec = state.map
    layout = cast(Layout, spec.layout)     # a map is a layout when it is not an area
    if spec.area is not None:
        if spec.area.tile_at(value) is None:
            raise _bad(path, f"{value} is not on a placed map tile")
    elif not (0 <= value[0] < layout.width and 0 <= value[1] < layout.height):
        raise _bad(path, f"{value} is off the {layout.width}x{layout.height} map")
    return value


def _whole(path: str, value: Any, low: int, high: int, none: bool = False) -> None:
    if none and value is None:
        return
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _bad(path, f"expected a whole number {low}..{high}, got {value!r}"[:160])


def _names(path: str, values: Any, known: set[str] | None = None) -> None:
    if not isinstance(values, tuple) or not all(isinstance(v, str) for v in values):
        raise _bad(path, "expected a list of unit ids")
    for i, v in enumerate(values):
        if known is not None and v not in known:
            raise _bad(f"{path}[{i}]", f"unknown unit {v[:40]!r}")


def _check_state(state: GameState, rules: Rules | None) -> None:
    """The invariants a loaded state must hold (see :func:`from_json`)."""
    _check_units(state, rules)
    ids = {u.id for u in state.units}
    for name, low, high, none in (("round", 1, MAX_ROUND, False),
                                  ("starting_explorers", 0, 8, False),
                                  ("spawn_rating", 0, 9, True), ("horror_rating", 0, 9, True),
                                  ("threat_positions", 2, 20, False),
                                  ("threat", -20, 20, False), ("level", 1, 5, False),
                                  ("next_id", 0, 10 ** 6, False)):
        _whole(f"state.{name}", getattr(state, name), low, high, none)
    if state.active is not None and state.active not in ids:
        raise _bad("state.active", f"unknown unit {str(state.active)[:40]!r}")
    for name in ("done", "turns", "dead", "exited"):
        _names(f"state.{name}", getattr(state, name))
    if state.monster_turn is not None and state.monster_turn.monster not in ids:
        raise _bad("state.monster_turn.monster", "unknown unit")
    for name in ("destroyed", "lit"):
        for i, p in enumerate(getattr(state, name)):
            _point(state, f"state.{name}[{i}]", p)
    if state.exit_token is not None:
        _point(state, "state.exit_token", state.exit_token)
    for i, ((a, b), kind) in enumerate(state.borders):
        _point(state, f"state.borders[{i}]", a)
        _point(state, f"state.borders[{i}]", b)
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1 or not isinstance(kind, BorderKind):
            raise _bad(f"state.borders[{i}]", "a border lies between two neighbouring spaces")
    for name in ("treated", "features"):
        for i, entry in enumerate(getattr(state, name)):
            if len(entry) != 2 or not isinstance(entry[1], SpaceKind):
                raise _bad(f"state.{name}[{i}]", "expected [point, space kind]")
            _point(state, f"state.{name}[{i}]", entry[0])
    for i, entry in enumerate(state.counts):
        if len(entry) != 2 or not isinstance(entry[0], str):
            raise _bad(f"state.counts[{i}]", "expected [name, count]")
        _whole(f"state.counts[{i}]", entry[1], -999, 999)
    for i, inv in enumerate(state.inventories):
        if not isinstance(inv, Inventory) or inv.owner not in ids:
            raise _bad(f"state.inventories[{i}]", "an inventory belongs to a unit in the state")
    for i, lasting in enumerate(state.lasting):
        if not isinstance(lasting, Lasting):
            raise _bad(f"state.lasting[{i}]", "expected a lasting effect")
    _check_cards(state)
    if state.decision is not None:
        _check_decision(state.decision)


def _check_decision(decision: Decision) -> None:
    """A waiting choice: a known action being resolved, its die results and events so far."""
    path = "state.decision"
    if not isinstance(decision, Decision):
        raise _bad(path, "expected the players' decision")
    if not isinstance(decision.action, Action):
        raise _bad(f"{path}.action", "expected the action being resolved")
    if not isinstance(decision.what, str) or not isinstance(decision.rule, str):
        raise _bad(path, "a decision names what is chosen and its rule")
    if not all(isinstance(v, (int, tuple)) and not isinstance(v, bool) for v in decision.rolls):
        raise _bad(f"{path}.rolls", "expected die results and shuffles")
    _whole(f"{path}.reported", decision.reported, 0, MAX_SAVE_LIST)


def _check_units(state: GameState, rules: Rules | None) -> None:
    """Units: Unit values on passable spaces of the board (one per space: GameState checks)."""
    if not isinstance(state.units, tuple):
        raise _bad("state.units", "expected a list of units")
    loose = rules is not None and rules["fallback.passable"] == "not_required"
    for i, u in enumerate(state.units):
        path = f"state.units[{i}]"
        if not isinstance(u, Unit) or not isinstance(u.id, str) or not isinstance(u.name, str):
            raise _bad(path, "expected a unit with an id and a name")
        _whole(f"{path}.level", u.level, 1, 5)
        for flag in ("immobile", "ethereal"):
            if not isinstance(getattr(u, flag), bool):
                raise _bad(f"{path}.{flag}", "expected true or false")
        if not all(isinstance(a, Ability) for a in u.abilities):
            raise _bad(f"{path}.abilities", "expected abilities")
        if u.position is None:
            continue
        _point(state, f"{path}.position", u.position)
        kind = state.space_kind(u.position)
        if kind not in PASSABLE_SPACES and not (loose and u.side == Side.MONSTER):
            raise _bad(f"{path}.position", f"{u.id} stands on a {kind.name.lower()} space at "
                       f"{u.position}; units stand on passable spaces (manual p25)")


def _check_cards(state: GameState) -> None:
    """Decks and piles hold cards of their kind."""
    for name, kind in (("monsters", UnitCard), ("horror_events", EventCard),
                       ("explorer_events", EventCard), ("chapters", Chapter)):
        deck = getattr(state, name)
        if not isinstance(deck, Deck) or not all(
                isinstance(c, kind) for c in (*deck.cards, *deck.destroyed)):
            raise _bad(f"state.{name}", f"expected a deck of {kind.__name__} cards")
    if not isinstance(state.chapter, Chapter):
        raise _bad("state.chapter", "expected a chapter card")
    for name, kind in (("reserve", UnitCard), ("removed", UnitCard), ("waiting", EventCard)):
        if not all(isinstance(c, kind) for c in getattr(state, name)):
            raise _bad(f"state.{name}", f"expected {kind.__name__} cards")
    for i, entry in enumerate(state.bound):
        if len(entry) != 2 or not isinstance(entry[0], str) or \
                not isinstance(entry[1], EventCard):
            raise _bad(f"state.bound[{i}]", "expected [holder, event card]")


_CARDS = (UnitCard, EventCard, Chapter, Ability, ItemCard)
_CARD_JSON: dict[int, tuple[Any, dict[str, Any]]] = {}     # id -> (card, its encoding): cards never change
_CARD_OBJECTS: dict[str, Any] = {}               # canonical JSON text -> the decoded card


def _area_json(area: PlayArea) -> dict[str, Any]:
    """A playing area as JSON: tile sides by map text, placed tiles by (key, rotation, origin)."""
    return {"library": [[s.tile, s.side, s.name, s.layout.to_text()] for s in area.library],
            "deck": list(area.deck),
            "tiles": [[t.key, t.rotation, list(t.origin)] for t in area.tiles],
            "joined": sorted([list(p) for p in sorted(pair)] for pair in area.joined),
            "entry": [list(p) for p in area.entry] if area.entry else None,
            "exit": [list(p) for p in area.exit] if area.exit else None}


@lru_cache(maxsize=64)
def _library(text: str) -> tuple[TileSide, ...]:
    return tuple(TileSide(tile, side, name, parse_map(layout))
                 for tile, side, name, layout in json.loads(text))


def _area_from_json(data: dict[str, Any]) -> PlayArea:
    area = PlayArea(_library(json.dumps(data["library"])), tuple(data["deck"]))

    def _edge(value: Any) -> tuple[Point, Point] | None:
        return None if value is None else (tuple(value[0]), tuple(value[1]))

    tiles = tuple(place_tile(area.side(key), rotation, tuple(origin))
                  for key, rotation, origin in data["tiles"])
    joined = frozenset(frozenset(tuple(p) for p in pair) for pair in data["joined"])
    return replace(area, tiles=tiles, joined=joined, entry=_edge(data["entry"]),
                   exit=_edge(data["exit"]))


class _Codec:
    """JSON for states: dataclasses tagged with ``$``, enums with ``$enum``, cards by ``$ref``."""

    def __init__(self, table: dict[str, Any] | None = None, inline: bool = False) -> None:
        self.table = table if table is not None else {}
        self.inline = inline          # cards inside a card are written in place
        self._keys: dict[int, str] = {}
        self._alive: list[Any] = []
        self._decoded: dict[str, Any] = {}
        self._open: set[str] = set()      # card keys being decoded: a reference back is a loop

    def encode(self, value: Any) -> Any:
        """``value`` as JSON-ready data (cards go into the table once, by key)."""
        if isinstance(value, _CARDS) and not self.inline:
            key = self._keys.get(id(value))
            if key is None:
                key = f"{type(value).__name__}:{len(self._keys)}"
                self._keys[id(value)] = key
                self._alive.append(value)
                self.table[key] = self._card(value)
            return {"$ref": key}
        if isinstance(value, MapSpec):
            if value.area is not None:
                return {"$": "MapSpec", "area": _area_json(value.area),
                        "tile_size": value.tile_size}
            return {"$": "MapSpec", "map": cast(Layout, value.layout).to_text(),
                    "tile_size": value.tile_size}
        if dataclasses.is_dataclass(value):
            return self._fields(value)
        if isinstance(value, _PLAIN_ENUMS):   # written as their words, as before they were enums
            return value.value
        if isinstance(value, enum.Enum):
            return {"$enum": type(value).__name__, "value": value.value}
        if isinstance(value, tuple):
            return [self.encode(v) for v in value]
        return value

    def _card(self, card: Any) -> dict[str, Any]:
        hit = _CARD_JSON.get(id(card))
        if hit is None or hit[0] is not card:
            if len(_CARD_JSON) > 4096:
                _CARD_JSON.clear()
            hit = _CARD_JSON[id(card)] = (card, _Codec(inline=True)._fields(card))
        return hit[1]

    def _fields(self, value: Any) -> dict[str, Any]:
        out = {"$": type(value).__name__}
        for f in dataclasses.fields(value):
            out[f.name] = self.encode(getattr(value, f.name))
        return out

    def decode(self, value: Any, path: str = "state") -> Any:
        """The value that :meth:`encode` wrote, cards looked up in the table; a bad value
        raises :class:`RulesError` naming ``text`` and the path of the bad field.
        """
        if isinstance(value, list):
            return tuple(self.decode(v, f"{path}[{i}]") for i, v in enumerate(value))
        if not isinstance(value, dict):
            return value
        if "$ref" in value:
            return self._ref(value["$ref"], path)
        if "$enum" in value:
            enum_type = _ENUMS.get(value["$enum"]) if isinstance(value["$enum"], str) else None
            try:
                return cast(Any, enum_type)(value.get("value"))   # None: a TypeError
            except (TypeError, ValueError):
                raise _bad(path, f"unknown {value['$enum']!r} value {value.get('value')!r}"[:160]) \
                    from None
        name = value.get("$")
        if name == "MapSpec":
            return self._built(path, lambda: self._map(value))
        if not isinstance(name, str) or name not in _CLASSES:
            raise _bad(path, f"unknown kind of value {str(name)[:40]!r}")
        cls = _CLASSES[name]
        known = {f.name for f in dataclasses.fields(cls)}
        for key in value:
            if key != "$" and key not in known:
                raise _bad(f"{path}.{key}"[:200], f"unknown field of a {name}")
        position = value.get("position")
        if name == "Unit" and position is not None and not (
                isinstance(position, list) and len(position) == 2 and all(
                    isinstance(v, int) and not isinstance(v, bool) for v in position)):
            raise _bad(f"{path}.position", f"expected a point [x, y], got {position!r}"[:160])
        fields = {k: self.decode(v, f"{path}.{k}") for k, v in value.items() if k != "$"}
        return self._built(path, lambda: cls(**fields))

    def _ref(self, key: Any, path: str) -> Any:
        if not isinstance(key, str) or key not in self.table:
            raise _bad(path, f"unknown card reference {str(key)[:40]!r}")
        if key not in self._decoded:
            if key in self._open:
                raise _bad(path, f"the card {key!r} refers to itself")
            self._open.add(key)
            entry = self.table[key]
            text = json.dumps(entry, sort_keys=True)
            card = _CARD_OBJECTS.get(text)
            if card is None:
                card = self.decode(entry, f"cards[{key!r}]")
                if not isinstance(card, _CARDS):
                    raise _bad(f"cards[{key!r}]", "expected a card")
                if len(_CARD_OBJECTS) > 4096:
                    _CARD_OBJECTS.clear()
                _CARD_OBJECTS[text] = card
            self._open.discard(key)
            self._decoded[key] = card
        return self._decoded[key]

    def _map(self, value: dict[str, Any]) -> MapSpec:
        if "area" in value:
            return MapSpec(area=_area_from_json(value["area"]), tile_size=value["tile_size"])
        return MapSpec(parse_map(value["map"]), value["tile_size"])

    @staticmethod
    def _built(path: str, build: Callable[[], Any]) -> Any:
        """``build()``; any failure becomes an error at ``path`` (a nested one keeps its own)."""
        try:
            return build()
        except RulesError as exc:
            if exc.argument == "text":
                raise
            raise _bad(path, str(exc)[:200]) from None
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as exc:
            raise _bad(path, f"cannot be read ({type(exc).__name__}: {str(exc)[:160]})") from None
