"""The frozen game state: the map and its tokens, units, chapter, ratings, queue, decks.

A :class:`GameState` is a value: every field is a frozen dataclass, a tuple or
a scalar, so "what if" costs nothing and notebook cells never alias. Changes
to the map (doors opened, closed or destroyed, spaces destroyed, chapter
spaces lit) are data applied to the map's base :class:`Layout` when
:meth:`GameState.board` builds a :class:`~machina_nb.rules.board.graph.Board`.
:func:`to_json` / :func:`from_json` round-trip a state exactly.

>>> from machina_nb.rules.board.maptext import parse_map
>>> phillip = Unit("phillip", "Phillip", "explorer", (1, 0), armor=2, will=3,
...                health=5, max_health=5, stamina=4, max_stamina=4)
>>> state = GameState(MapSpec(parse_map("+-+-+\\n|. .|\\n+-+-+\\n")), units=(phillip,))
>>> state.unit("phillip").position
(1, 0)
>>> from_json(to_json(state)) == state
True

Rules: manual p8 (setup), p10 (round), p13-15 (ratings, threat, queue), p18 (attributes),
p27 (markers), p28 (chapters).
"""

from __future__ import annotations

import dataclasses
import enum
import json
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from machina_nb.rules.cards.abilities import Ability, Cost, Effect, Targeting
from machina_nb.rules.board.graph import PASSABLE_SPACES, Board
from machina_nb.rules.errors import RulesError
from machina_nb.rules.cards.items import Equipped, Inventory, ItemCard, ItemDecks, ItemWindow
from machina_nb.rules.board.maptext import BorderKind, Layout, Point, SpaceKind, parse_map
from machina_nb.rules.board.tiles import TileSide
from machina_nb.rules.board.playarea import PlayArea, place_tile
from machina_nb.rules.cards.events import Chapter, EventCard
from machina_nb.rules.cards.units import ATTRIBUTE_MAX, SIDES, UnitCard, check_attribute
from machina_nb.rules.rulings import Rules, check_rules

__all__ = [
    "Unit", "Deck", "Lasting", "MapSpec", "MonsterTurn",
    "GameState", "to_json", "from_json", "EXPLORER_MARKERS", "HORROR_MARKERS",
    "THREAT_POSITIONS", "PHASES",
]


EXPLORER_MARKERS = 3
"""Markers per explorer (manual p8)."""

HORROR_MARKERS = 4
"""Horror markers, shared by monsters and horror events (manual p5)."""

THREAT_POSITIONS = 5
"""Positions on the threat slider; only the picture shows them, so a parameter ."""

PHASES = ("explorer", "spawn", "horror", "monster")
"""The round's four phases in order (manual p10)."""


@dataclass(frozen=True)
class Unit:
    """A unit in play: its card values and current attributes, position and flags (manual p18).

    Attributes lie in 0..9 and current health, stamina and essence never exceed
    their maximum (manual p18). ``position`` is None for an explorer who exited.
    ``enters_play`` are its card's «enters play» effects (manual p20, p28).
    Rules: manual p18 (attributes), p19 (wounded), p25 (ethereal, immobile).
    """

    id: str
    name: str
    side: str
    position: Point | None
    armor: int = 0
    will: int = 0
    health: int = 1
    max_health: int = 1
    stamina: int = 0
    max_stamina: int = 0
    essence: int = 0
    max_essence: int = ATTRIBUTE_MAX
    level: int = 1
    immobile: bool = False
    ethereal: bool = False
    abilities: tuple[Ability, ...] = ()
    behaviour: str | None = None
    card: str = ""
    origin: UnitCard | None = None
    enters_play: tuple[Effect, ...] = ()
    unit_class: str | None = None

    def __post_init__(self):
        if self.side not in SIDES:
            raise RulesError("side", f"expected explorer or monster, got {self.side!r}")
        for name in ("armor", "will", "health", "max_health", "stamina", "max_stamina",
                     "essence", "max_essence"):
            check_attribute(name, getattr(self, name))
        for current, top in (("health", "max_health"), ("stamina", "max_stamina"),
                             ("essence", "max_essence")):
            if getattr(self, current) > getattr(self, top):
                raise RulesError(current, f"{self.id}: current {current} {getattr(self, current)} "
                                          f"exceeds its maximum {getattr(self, top)} (manual p18)")
        if self.position is not None:
            object.__setattr__(self, "position", (int(self.position[0]), int(self.position[1])))
        object.__setattr__(self, "abilities", tuple(self.abilities))
        object.__setattr__(self, "enters_play", tuple(self.enters_play))

    @classmethod
    def from_card(cls, card: UnitCard, id: str, position: Point | None) -> "Unit":
        """A fresh unit of ``card``: full health and stamina, 0 essence (manual p8, p13, p18)."""
        return cls(id, card.name, card.side, position, card.armor, card.will, card.health,
                   card.health, card.stamina, card.stamina, 0,
                   card.essence_max if card.essence_max is not None else ATTRIBUTE_MAX,
                   card.level, card.immobile, card.ethereal, card.abilities, card.behaviour,
                   card.id, enters_play=card.enters_play, unit_class=card.unit_class)

    @property
    def wounded(self) -> bool:
        """At least 1 missing health (manual p18)."""
        return self.health < self.max_health


@dataclass(frozen=True)
class Deck:
    """A deck (top card first) and its destroyed pile (most recent first) (manual p13-14, p37).

    Rules: manual p13 (monster deck), p14 (horror deck), p37 (explorer events).
    """

    cards: tuple[Any, ...] = ()
    destroyed: tuple[Any, ...] = ()

    def __post_init__(self):
        object.__setattr__(self, "cards", tuple(self.cards))
        object.__setattr__(self, "destroyed", tuple(self.destroyed))


@dataclass(frozen=True)
class Lasting:
    """A lasting effect and the marker that holds it (manual p27).

    ``holder`` is the explorer whose marker it uses, or ``"horror"`` for a horror
    marker; markers return at the start of the holder's reset phase. ``card``
    is the card the marker lies on (``unit:kim``, ``bound:oath``...; see
    :mod:`machina_nb.rules.engine.cardplay`); ``attributes`` those an
    ``attribute_modifier`` changes.
    Rules: manual p27 (markers, lasting effects, removing a marker from a card).
    """

    name: str
    op: str
    target: str
    holder: str
    amount: int = 0
    source: str = ""
    card: str = ""
    attributes: tuple[str, ...] = ()


@dataclass(frozen=True)
class MapSpec:
    """The map: one fixed layout cut into tiles, or a playing area of placed map tiles.

    With ``layout`` (an example board, a fixed map) a space ``(x, y)`` belongs to
    tile ``(x // tile_size, y // tile_size)``. With ``area`` (a
    :class:`~machina_nb.rules.board.playarea.PlayArea`: the map-tile deck and the tiles
    placed so far) the board grows as explorers explore, and a space belongs to
    the tile side covering it (its key, e.g. ``"t01a"``). Exactly one is given. The area
    is empty only between chapters: the last explorer out sends every tile under the deck
    and the next *place entry token* draws a fresh one (manual p28).
    Rules: manual p8 (map-tile deck, starting tile), p11 (10x10 tiles), p34 (the 2x2 play area).
    """

    layout: Layout | None = None
    tile_size: int = 10
    area: PlayArea | None = None

    def __post_init__(self):
        if (self.layout is None) == (self.area is None):
            raise RulesError("layout", "give a map layout or a playing area (area=...), not both")
        if self.layout is not None:
            # Letters drawn on an example map are not units in play: the state places units.
            object.__setattr__(self, "layout", replace(self.layout, units=()))
        elif not isinstance(self.area, PlayArea):
            raise RulesError("area", "expected a PlayArea (PlayArea.start)")
        if not isinstance(self.tile_size, int) or self.tile_size < 1:
            raise RulesError("tile_size",
                             f"expected a positive whole number, got {self.tile_size!r}")
        object.__setattr__(self, "_hash", hash((self.layout, self.tile_size, self.area)))
        object.__setattr__(self, "_printed", {})

    def __hash__(self) -> int:
        # The layout is large and states are looked up often: hash it once.
        return self._hash

    def tile_of(self, point: Point):
        """The map tile a space lies on (manual p21-22: map-tile scope)."""
        if self.area is not None:
            tile = self.area.tile_at(point)
            return tile.key if tile is not None else None
        return (point[0] // self.tile_size, point[1] // self.tile_size)

    def printed(self, point: Point) -> SpaceKind:
        """The kind printed on the map at ``point`` (manual p35)."""
        if self.area is None:
            return self.layout.space(*point)
        tile = self.area.tile_at(point)
        if tile is None:
            raise RulesError("point", f"{point} is not on a placed map tile")
        return tile.layout.space(point[0] - tile.origin[0], point[1] - tile.origin[1])

    def spaces(self, kind: SpaceKind) -> tuple[Point, ...]:
        """Every space printed as ``kind``, sorted by row then column (manual p35-37)."""
        hit = self._printed.get(kind)
        if hit is None:
            if self.area is None:
                layouts = ((self.layout, (0, 0)),)
            else:
                layouts = tuple((t.layout, t.origin) for t in self.area.tiles)
            hit = self._printed[kind] = tuple(sorted(
                ((ox + x, oy + y) for layout, (ox, oy) in layouts
                 for y in range(layout.height) for x in range(layout.width)
                 if layout.space(x, y) is kind), key=lambda p: (p[1], p[0])))
        return hit

    def ring_spaces(self, kinds) -> tuple[Point, ...]:
        """Spaces inside an unexplored ring border of one of ``kinds``, sorted (manual p11, p34)."""
        if self.area is not None:
            ring = self.area.ring()
            return tuple(sorted({edge[0] for edge in self.area.unexplored_edges()
                                 if ring[edge] in kinds}))
        layout = self.layout
        w, h = layout.width, layout.height
        at = {"N": lambda i: (i, 0), "S": lambda i: (i, h - 1), "W": lambda i: (0, i),
              "E": lambda i: (w - 1, i)}
        return tuple(sorted({at[side](i) for side, i, kind in layout.ring() if kind in kinds}))


@dataclass(frozen=True)
class MonsterTurn:
    """A monster turn in progress: whose, its target, end point, actions so far (manual p15-16).

    ``played`` lists the actions so far (ability names, ``door``, ``move``).

    Rules: manual p15-16 (monster phase, mindless behaviour).
    """

    monster: str
    target: str | None = None
    goal: Point | None = None
    played: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameState:
    """Everything on the table, frozen (manual p8 setup, p10 round); see the module docstring.

    ``borders`` and ``destroyed``/``lit`` are changes to ``map.layout``;
    ``units`` lists explorers in seating order, then monsters; ``queue`` holds
    monster ids in acting order; ``done`` the units that have taken their turn
    (explorer and monster phases) or rolled (spawn phase) this phase; ``turns``
    the order explorers took their turns this round; ``reserve`` the monster
    cards of levels not yet added; ``bound`` the binding events with the unit holding
    each: explorer events bound to explorers, and horror events bound to monsters
    (aid; read per ``monster.ability_sources``, switches monster.ability_sources and horror_bind.monster); ``treated`` the spaces
    treated as another kind, ``features`` the kinds a space counts as too (manual
    p35: treat map space); ``waiting`` the destroyed binding events whose marker has
    not returned yet (manual p27); ``removed`` monster cards removed from the
    game (manual p19, p25: *take* searches them). ``threat`` is the slider's
    position, 1 first; 0 or less is a deficit below the first position, which only
    ``threat.floor = seal_only`` produces (switch threat.floor). ``inventories`` each
    explorer's items, ``items`` the item decks, and ``item_window`` the free
    inventory steps an action space left open (:mod:`machina_nb.rules.cards.items`).
    Rules: manual p8, p10, p13-15, p18, p25, p27-28, p30-33 (items), p35.
    """

    map: MapSpec
    units: tuple[Unit, ...] = ()
    borders: tuple[tuple[tuple[Point, Point], BorderKind], ...] = ()
    destroyed: tuple[Point, ...] = ()
    lit: tuple[Point, ...] = ()
    exit_token: Point | None = None
    queue: tuple[str, ...] = ()
    dead: tuple[str, ...] = ()
    exited: tuple[str, ...] = ()
    starting_explorers: int = 0
    round: int = 1
    phase: str = "explorer"
    active: str | None = None
    done: tuple[str, ...] = ()
    turns: tuple[str, ...] = ()
    chapter: Chapter = Chapter("chapter-1", "Default chapter")
    chapters: Deck = Deck()
    spawn_rating: int | None = 6
    horror_rating: int | None = 4
    threat: int = 1
    threat_positions: int = THREAT_POSITIONS
    level: int = 1
    monsters: Deck = Deck()
    reserve: tuple[UnitCard, ...] = ()
    horror_events: Deck = Deck()
    explorer_events: Deck = Deck()
    bound: tuple[tuple[str, EventCard], ...] = ()
    lasting: tuple[Lasting, ...] = ()
    counts: tuple[tuple[str, int], ...] = ()
    monster_turn: MonsterTurn | None = None
    next_id: int = 1
    over: str | None = None
    treated: tuple[tuple[Point, SpaceKind], ...] = ()
    features: tuple[tuple[Point, SpaceKind], ...] = ()
    removed: tuple[UnitCard, ...] = ()
    waiting: tuple[EventCard, ...] = ()
    inventories: tuple[Inventory, ...] = ()
    items: ItemDecks = ItemDecks()
    item_window: ItemWindow | None = None

    def __post_init__(self):
        if self.phase not in PHASES:
            raise RulesError("phase", f"unknown phase {self.phase!r}; expected one of {PHASES}")
        ids = [u.id for u in self.units]
        if len(set(ids)) != len(ids):
            raise RulesError("units", f"duplicate unit ids in {ids}")
        seen: dict[Point, str] = {}
        for u in self.units:
            if u.position is None:
                continue
            if u.position in seen:
                raise RulesError("units", f"{u.id} and {seen[u.position]} both stand on "
                                          f"{u.position} (manual p25: no unit ends on another)")
            seen[u.position] = u.id
        monsters = {u.id for u in self.units if u.side == "monster"}
        if set(self.queue) != monsters or len(self.queue) != len(monsters):
            raise RulesError("queue", f"the monster queue {self.queue} must hold exactly the "
                                      f"monsters in play {sorted(monsters)} (manual p15)")
        if isinstance(self.threat, bool) or not isinstance(self.threat, int) \
                or self.threat > self.threat_positions:
            raise RulesError("threat", f"threat {self.threat!r} is not a position up to the "
                                       f"last, {self.threat_positions} (below 1: a deficit under "
                                       "threat.floor = seal_only, switch threat.floor)")
        # One entry per destroyed token: a sealed spawn space holds two (manual p35, p36).
        object.__setattr__(self, "destroyed", tuple(sorted(map(tuple, self.destroyed))))
        object.__setattr__(self, "lit", tuple(sorted(set(map(tuple, self.lit)))))
        object.__setattr__(self, "borders", tuple(sorted(
            ((tuple(sorted((tuple(a), tuple(b)))), k) for (a, b), k in self.borders),
            key=lambda item: item[0])))

    # --- reading ---------------------------------------------------------------------------

    def unit(self, unit_id: str) -> Unit:
        """The unit with this id, or a :class:`RulesError` naming ``unit``.

        Rules: manual p18 (units: explorers and monsters).
        """
        for u in self.units:
            if u.id == unit_id:
                return u
        raise RulesError("unit", f"no unit {unit_id!r} in play")

    def has_unit(self, unit_id: str) -> bool:
        """Whether a unit with this id is in play.

        Rules: manual p18 (units), p19 (death and banish take a unit out of play).
        """
        return any(u.id == unit_id for u in self.units)

    @property
    def explorers(self) -> tuple[Unit, ...]:
        """Explorers in play, in seating order (manual p12)."""
        return tuple(u for u in self.units if u.side == "explorer")

    @property
    def explorers_on_map(self) -> tuple[Unit, ...]:
        """Explorers with a figure on the map (not exited) (manual p34: exit map tile)."""
        return tuple(u for u in self.explorers if u.position is not None)

    @property
    def monsters_in_play(self) -> tuple[Unit, ...]:
        """Monsters in queue order (manual p15)."""
        return tuple(self.unit(m) for m in self.queue)

    @property
    def scheming(self) -> bool:
        """Monsters are scheming once an explorer has been destroyed (manual p15)."""
        return bool(self.dead)

    def controller(self, monster_id: str) -> str | None:
        """The explorer controlling a monster this round, if any (manual p25: control monster)."""
        return next((e.holder for e in self.lasting if e.op == "control"
                     and e.target == monster_id), None)

    def player_driven(self, monster_id: str) -> bool:
        """Whether the players decide this monster's actions: scheming (an explorer has died),
        or controlled by an explorer, which overrides either mode (manual p15, p25).
        """
        return self.scheming or self.controller(monster_id) is not None

    def unit_at(self, point: Point) -> Unit | None:
        """The unit standing on ``point``, if any.

        Rules: manual p18 (a unit's figure stands on the map), p25 (no unit ends on another).
        """
        for u in self.units:
            if u.position == point:
                return u
        return None

    def tile_of(self, point: Point):
        """The map tile of a space (manual p21-22)."""
        return self.map.tile_of(point)

    def space_kind(self, point: Point) -> SpaceKind:
        """The space's kind after tokens: destroyed tokens make it DESTROYED (manual p35)."""
        if point in self.destroyed:
            return SpaceKind.DESTROYED
        for p, kind in self.treated:
            if p == point:
                return kind
        return self.map.printed(point)

    def is_kind(self, point: Point, kind: SpaceKind) -> bool:
        """Whether a space counts as ``kind``: its kind after tokens and treatment, or a feature
        it was treated as having too (a chest also an exploding barrel) while not destroyed.

        Rules: manual p35 (treat map space, destroyed map space).
        """
        now = self.space_kind(point)
        return now is kind or (now is not SpaceKind.DESTROYED and (point, kind) in self.features)

    def base_kind(self, point: Point) -> SpaceKind:
        """The printed kind of a space, ignoring tokens (manual p35)."""
        return self.map.printed(point)

    def border(self, a: Point, b: Point) -> BorderKind:
        """The border between orthogonal neighbours after door changes (manual p36)."""
        key = tuple(sorted((a, b)))
        for k, kind in self.borders:
            if k == key:
                return kind
        return self.static_board().border(a, b)

    def count(self, key: str) -> int:
        """Count tokens on a counted condition (manual p26)."""
        return dict(self.counts).get(key, 0)

    def markers_used(self, holder: str) -> int:
        """Markers of ``holder`` (an explorer id or ``"horror"``) on cards (manual p27)."""
        return sum(1 for e in self.lasting if e.holder == holder)

    def static_board(self) -> Board:
        """The board with tokens and door changes applied, without units (a shared value).

        Rules: manual p35-36 (map elements, tokens), p22 (doors).
        """
        return _static_board(self.map, self.borders, self.destroyed, self.treated)

    def closest_board(self) -> Board:
        """The static board with the immobile units placed: the board *closest* is measured on.

        Rules: manual p16 (immobile units in the closest count); switch closest.immobile_units.
        """
        placed = tuple(sorted((u.position, u.id) for u in self.units
                              if u.immobile and u.position is not None))
        return _placed_board(self.map, self.borders, self.destroyed, placed, self.treated)

    def unit_board(self) -> Board:
        """The static board with every unit placed (a shared value).

        Rules: manual p23 (units are obstacles for ranged targeting), p34.
        """
        placed = tuple(sorted((u.position, u.id) for u in self.units if u.position is not None))
        return _placed_board(self.map, self.borders, self.destroyed, placed, self.treated)

    def board(self) -> Board:
        """The :class:`Board` with tokens, doors and units applied (a value: its ``with_...``
        methods give changed boards).

        Rules: manual p11, p34-36 (map tiles, spaces, borders), p22 (units are obstacles).
        """
        return self.unit_board()

    # --- changing (returns new states) -------------------------------------------------------

    def with_unit(self, unit: Unit) -> "GameState":
        """The state with one unit replaced (by id).

        Rules: manual p18 (units and attributes).
        """
        return replace(self, units=tuple(unit if u.id == unit.id else u for u in self.units))

    def update_unit(self, unit_id: str, **changes) -> "GameState":
        """The state with fields of one unit changed (validated by :class:`Unit`).

        Rules: manual p18 (units and attributes).
        """
        return self.with_unit(replace(self.unit(unit_id), **changes))


@lru_cache(maxsize=32)
def _base_board(spec: MapSpec) -> Board:
    """The map as printed, built once per map: every state of it shares this terrain."""
    if spec.area is not None:
        return spec.area.board()
    board = Board.from_layout(spec.layout)
    tiles = [(p, {"tile": "{},{}".format(*spec.tile_of(p))}) for p in board]
    return Board(board.terrain.changed(spaces=tiles).rebased())


@lru_cache(maxsize=256)
def _static_board(spec: MapSpec, borders, destroyed, treated=()) -> Board:
    """The map with a state's door changes, treated and destroyed spaces: the printed
    terrain with those few elements changed (its sight and step tables are patched)."""
    spaces = {p: {"kind": kind} for p, kind in treated}
    spaces.update((p, {"kind": SpaceKind.DESTROYED}) for p in destroyed)
    base = _base_board(spec)
    return Board(base.terrain.changed(borders=borders, spaces=spaces.items()))


@lru_cache(maxsize=256)
def _placed_board(spec: MapSpec, borders, destroyed, placed, treated=()) -> Board:
    """The static board with units standing on it (the same terrain, a new occupancy)."""
    board = _static_board(spec, borders, destroyed, treated)
    return board.with_units(placed) if placed else board


# --- JSON ------------------------------------------------------------------------------------

_CLASSES = {cls.__name__: cls for cls in (
    UnitCard, Unit, EventCard, Chapter, Deck, Lasting, MonsterTurn, GameState, Ability, Cost,
    Targeting, Effect, ItemCard, Equipped, Inventory, ItemDecks, ItemWindow)}
_ENUMS = {cls.__name__: cls for cls in (BorderKind, SpaceKind)}


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
    Rules:  (save and load); manual p18 (attributes), p25 (one unit a space).
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
    if spec.area is not None:
        if spec.area.tile_at(value) is None:
            raise _bad(path, f"{value} is not on a placed map tile")
    elif not (0 <= value[0] < spec.layout.width and 0 <= value[1] < spec.layout.height):
        raise _bad(path, f"{value} is off the {spec.layout.width}x{spec.layout.height} map")
    return value


def _whole(path: str, value: Any, low: int, high: int, none: bool = False) -> None:
    if none and value is None:
        return
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _bad(path, f"expected a whole number {low}..{high}, got {value!r}"[:160])


def _names(path: str, values: Any, known: set | None = None) -> None:
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
        if kind not in PASSABLE_SPACES and not (loose and u.side == "monster"):
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
_CARD_JSON: dict[int, tuple[Any, dict]] = {}     # id -> (card, its encoding): cards never change
_CARD_OBJECTS: dict[str, Any] = {}               # canonical JSON text -> the decoded card


def _area_json(area: PlayArea) -> dict:
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


def _area_from_json(data: dict) -> PlayArea:
    area = PlayArea(_library(json.dumps(data["library"])), tuple(data["deck"]))

    def _edge(value):
        return None if value is None else (tuple(value[0]), tuple(value[1]))

    tiles = tuple(place_tile(area.side(key), rotation, tuple(origin))
                  for key, rotation, origin in data["tiles"])
    joined = frozenset(frozenset(tuple(p) for p in pair) for pair in data["joined"])
    return replace(area, tiles=tiles, joined=joined, entry=_edge(data["entry"]),
                   exit=_edge(data["exit"]))


class _Codec:
    """JSON for states: dataclasses tagged with ``$``, enums with ``$enum``, cards by ``$ref``."""

    def __init__(self, table: dict | None = None, inline: bool = False):
        self.table = table if table is not None else {}
        self.inline = inline          # cards inside a card are written in place
        self._keys: dict[int, str] = {}
        self._alive: list = []
        self._decoded: dict[str, Any] = {}
        self._open: set[str] = set()      # card keys being decoded: a reference back is a loop

    def encode(self, value: Any) -> Any:
        """``value`` as JSON-ready data (cards go into the table once, by key).

        Rules:  (the state between actions, saved and loaded).
        """
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
            return {"$": "MapSpec", "map": value.layout.to_text(), "tile_size": value.tile_size}
        if dataclasses.is_dataclass(value):
            return self._fields(value)
        if isinstance(value, enum.Enum):
            return {"$enum": type(value).__name__, "value": value.value}
        if isinstance(value, tuple):
            return [self.encode(v) for v in value]
        return value

    def _card(self, card: Any) -> dict:
        hit = _CARD_JSON.get(id(card))
        if hit is None or hit[0] is not card:
            if len(_CARD_JSON) > 4096:
                _CARD_JSON.clear()
            hit = _CARD_JSON[id(card)] = (card, _Codec(inline=True)._fields(card))
        return hit[1]

    def _fields(self, value: Any) -> dict:
        out = {"$": type(value).__name__}
        for f in dataclasses.fields(value):
            out[f.name] = self.encode(getattr(value, f.name))
        return out

    def decode(self, value: Any, path: str = "state") -> Any:
        """The value that :meth:`encode` wrote, cards looked up in the table; a bad value
        raises :class:`RulesError` naming ``text`` and the path of the bad field.

        Rules:  (the state between actions, saved and loaded).
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
                return enum_type(value.get("value"))
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

    def _map(self, value: dict) -> MapSpec:
        if "area" in value:
            return MapSpec(area=_area_from_json(value["area"]), tile_size=value["tile_size"])
        return MapSpec(parse_map(value["map"]), value["tile_size"])

    @staticmethod
    def _built(path: str, build) -> Any:
        """``build()``; any failure becomes an error at ``path`` (a nested one keeps its own)."""
        try:
            return build()
        except RulesError as exc:
            if exc.argument == "text":
                raise
            raise _bad(path, str(exc)[:200]) from None
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as exc:
            raise _bad(path, f"cannot be read ({type(exc).__name__}: {str(exc)[:160]})") from None
