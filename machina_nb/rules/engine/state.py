"""The frozen game state: the map and its tokens, units, chapter, ratings, queue, decks.

A :class:`GameState` is a value: every field is a frozen dataclass, a tuple or
a scalar, so "what if" costs nothing and notebook cells never alias. Changes
to the map (doors opened, closed or destroyed, spaces destroyed, chapter
spaces lit) are data applied to the map's base :class:`Layout` when
:meth:`GameState.board` builds a :class:`~machina_nb.rules.board.graph.Board`.
When the players must choose before the game can go on (a tied spawn space, where a push
stops...), the state carries that :class:`Decision`. :mod:`machina_nb.rules.engine.saves`
writes a state as JSON and reads it back exactly.

>>> from machina_nb.rules.board.maptext import parse_map
>>> phillip = Unit("phillip", "Phillip", "explorer", (1, 0), armor=2, will=3,
...                health=5, max_health=5, stamina=4, max_stamina=4)
>>> state = GameState(MapSpec(parse_map("+-+-+\\n|. .|\\n+-+-+\\n")), units=(phillip,))
>>> state.unit("phillip").position
(1, 0)

Rules: manual p8 (setup), p10 (round), p13-15 (ratings, threat, queue), p18 (attributes),
p27 (markers), p28 (chapters).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Collection, Iterable, cast

from machina_nb.rules.cards.abilities import Ability, Effect
from machina_nb.rules.board.graph import Board, pair
from machina_nb.rules.errors import RulesError
from machina_nb.rules.cards.items import Inventory, ItemDecks, ItemWindow
from machina_nb.rules.board.maptext import BorderKind, Layout, Point, SpaceKind
from machina_nb.rules.board.playarea import PlayArea
from machina_nb.rules.cards.events import Chapter, EventCard
from machina_nb.rules.cards.units import ATTRIBUTE_MAX, SIDES, Side, UnitCard, check_attribute

__all__ = [
    "Unit", "Deck", "Lasting", "MapSpec", "MonsterTurn", "Decision",
    "GameState", "EXPLORER_MARKERS", "HORROR_MARKERS",
    "THREAT_POSITIONS", "PHASES", "PhaseName", "Side",
]


EXPLORER_MARKERS = 3
"""Markers per explorer (manual p8)."""

HORROR_MARKERS = 4
"""Horror markers, shared by monsters and horror events (manual p5)."""

THREAT_POSITIONS = 5
"""Positions on the threat slider; only the picture shows them, so a parameter (manual p13)."""

class PhaseName(StrEnum):
    """A phase of the round (manual p10); a ``str`` enum, so ``state.phase == PhaseName.SPAWN`` holds
    and it is written as its value."""

    EXPLORER = "explorer"
    SPAWN = "spawn"
    HORROR = "horror"
    MONSTER = "monster"

    def __repr__(self) -> str:
        return repr(self.value)   # shown as its word, as before it was an enum


PHASES = tuple(phase.value for phase in PhaseName)
"""The round's four phases in order (manual p10)."""


@dataclass(frozen=True)
class Unit:
    """A unit in play: its card values and current attributes, position and flags (manual p18).

    Attributes lie in 0..9 and current health, stamina and essence never exceed
    their maximum (manual p18). ``position`` is a pair of whole numbers (a list is made a
    tuple; text, floats and bools are refused, naming ``position``), or None for an explorer
    who exited.
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

    def __post_init__(self) -> None:
        self._check(_UNIT_CHECKED)

    def _check(self, changed: Collection[str]) -> None:
        """Check and normalise the fields in ``changed`` (the others were checked before)."""
        if "side" in changed and type(self.side) is not Side:
            if self.side not in SIDES:
                raise RulesError("side", f"expected explorer or monster, got {self.side!r}")
            object.__setattr__(self, "side", Side(self.side))
        for name in _ATTRIBUTES:
            if name in changed:
                check_attribute(name, getattr(self, name))
        for current, top in (("health", "max_health"), ("stamina", "max_stamina"),
                             ("essence", "max_essence")):
            if (current in changed or top in changed) and \
                    getattr(self, current) > getattr(self, top):
                raise RulesError(current, f"{self.id}: current {current} {getattr(self, current)} "
                                          f"exceeds its maximum {getattr(self, top)} (manual p18)")
        if "position" in changed and self.position is not None:
            object.__setattr__(self, "position", pair(self.position, "position"))
        for name in ("abilities", "enters_play"):
            if name in changed:
                object.__setattr__(self, name, tuple(getattr(self, name)))

    def evolve(self, **changes: Any) -> "Unit":
        """The unit with ``changes`` to its fields, checked as a new unit is: what
        :func:`dataclasses.replace` gives, checking only the fields that change."""
        unknown = changes.keys() - _UNIT_FIELDS
        if unknown:
            raise TypeError(f"Unit has no field {sorted(unknown)[0]!r}")
        new = object.__new__(Unit)
        new.__dict__.update(self.__dict__, **changes)
        new._check(changes.keys())
        return new

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


_ATTRIBUTES = ("armor", "will", "health", "max_health", "stamina", "max_stamina", "essence",
               "max_essence")
_UNIT_FIELDS = frozenset(f.name for f in fields(Unit))
_UNIT_CHECKED = frozenset(("side", "position", "abilities", "enters_play") + _ATTRIBUTES)
"""The fields a new unit checks or normalises; :meth:`Unit.evolve` checks only those it
changes."""


@dataclass(frozen=True)
class Deck:
    """A deck (top card first) and its destroyed pile (most recent first) (manual p13-14, p37).

    Rules: manual p13 (monster deck), p14 (horror deck), p37 (explorer events).
    """

    cards: tuple[Any, ...] = ()
    destroyed: tuple[Any, ...] = ()

    def __post_init__(self) -> None:
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
    if TYPE_CHECKING:   # set once in __post_init__, not fields: a hash, the spaces by kind
        _hash: int = field(init=False, repr=False, compare=False)
        _printed: dict[SpaceKind, tuple[Point, ...]] = field(init=False, repr=False,
                                                             compare=False)

    def __post_init__(self) -> None:
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

    def tile_of(self, point: Point) -> str | Point | None:
        """The map tile a space lies on (manual p21-22: map-tile scope)."""
        if self.area is not None:
            tile = self.area.tile_at(point)
            return tile.key if tile is not None else None
        return (point[0] // self.tile_size, point[1] // self.tile_size)

    def printed(self, point: Point) -> SpaceKind:
        """The kind printed on the map at ``point`` (manual p35)."""
        if self.area is None:
            return cast(Layout, self.layout).space(*point)
        tile = self.area.tile_at(point)
        if tile is None:
            raise RulesError("point", f"{point} is not on a placed map tile")
        return tile.layout.space(point[0] - tile.origin[0], point[1] - tile.origin[1])

    def spaces(self, kind: SpaceKind) -> tuple[Point, ...]:
        """Every space printed as ``kind``, sorted by row then column (manual p35-37)."""
        hit = self._printed.get(kind)
        if hit is None:
            layouts: tuple[tuple[Layout, Point], ...]
            if self.area is None:
                layouts = ((cast(Layout, self.layout), (0, 0)),)
            else:
                layouts = tuple((t.layout, t.origin) for t in self.area.tiles)
            hit = self._printed[kind] = tuple(sorted(
                ((ox + x, oy + y) for layout, (ox, oy) in layouts
                 for y in range(layout.height) for x in range(layout.width)
                 if layout.space(x, y) is kind), key=lambda p: (p[1], p[0])))
        return hit

    def ring_spaces(self, kinds: Collection[BorderKind]) -> tuple[Point, ...]:
        """Spaces inside an unexplored ring border of one of ``kinds``, sorted (manual p11, p34)."""
        if self.area is not None:
            ring = self.area.ring()
            return tuple(sorted({edge[0] for edge in self.area.unexplored_edges()
                                 if ring[edge] in kinds}))
        layout = cast(Layout, self.layout)
        w, h = layout.width, layout.height
        at: dict[str, Callable[[int], Point]] = {"N": lambda i: (i, 0), "S": lambda i: (i, h - 1), "W": lambda i: (0, i),
              "E": lambda i: (w - 1, i)}
        return tuple(sorted({at[side](i) for side, i, kind in layout.ring() if kind in kinds}))


@dataclass(frozen=True)
class MonsterTurn:
    """A monster turn in progress: whose, its target, end point, actions so far (manual p15-16).

    ``played`` lists the actions so far (ability names, ``door``, ``move``); ``path`` the
    path established toward the target, starting where the monster stands (empty: none yet),
    which ``replan.when = on_target_change`` keeps until the target changes.

    Rules: manual p15-16 (monster phase, mindless behaviour); switch replan.when.
    """

    monster: str
    target: str | None = None
    goal: Point | None = None
    played: tuple[str, ...] = ()
    path: tuple[Point, ...] = ()


@dataclass(frozen=True)
class Decision:
    """The players must choose before the game goes on: ``what``, from ``options`` (``rule``).

    An action's resolution reached a choice nobody answered yet (a tied spawn space after the
    roll, where a push stops, which item deck...). The state that carries the decision is the
    state before that action: the game stands still until the players choose, and choosing
    (:class:`machina_nb.rules.engine.actions.Choose`) resolves ``action`` again from there
    with the choices made so far plus the new one and the same die results (``rolls``), so
    everything before the choice happens exactly as it did. ``reported`` counts the events
    already told (they are not told twice).
    Rules: manual p16 (the explorers resolve ambiguities), p23 (the players choose targets
    and scopes), p26 (effects resolve in printed order).
    """

    what: str
    options: tuple[Any, ...]
    rule: str
    action: Any
    rolls: tuple[int | tuple[int, ...], ...] = ()
    reported: int = 0

    def __post_init__(self) -> None:
        if len(self.options) < 2:
            raise RulesError("options", f"a decision needs two options or more, got "
                             f"{len(self.options)}")


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
    ``decision`` is the choice the players must make before anything else happens (or None).
    ``endgame``: the scenario's endgame chapter cards, set aside at setup until *enter endgame*
    (manual p8, p28).
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
    phase: str = PhaseName.EXPLORER
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
    decision: Decision | None = None
    endgame: tuple[Chapter, ...] = ()

    def __post_init__(self) -> None:
        self._check(_STATE_CHECKED)

    def _check(self, changed: Collection[str]) -> None:
        """Check and normalise the fields in ``changed`` (the others were checked before)."""
        if "phase" in changed and type(self.phase) is not PhaseName:
            if self.phase not in PHASES:
                raise RulesError("phase", f"unknown phase {self.phase!r}; expected one of "
                                 f"{PHASES}")
            object.__setattr__(self, "phase", PhaseName(self.phase))
        if "units" in changed:
            self._check_units()
        if "units" in changed or "queue" in changed:
            self._check_queue()
        if ("threat" in changed or "threat_positions" in changed) and (
                isinstance(self.threat, bool) or not isinstance(self.threat, int)
                or self.threat > self.threat_positions):
            raise RulesError("threat", f"threat {self.threat!r} is not a position up to the "
                                       f"last, {self.threat_positions} (below 1: a deficit under "
                                       "threat.floor = seal_only, switch threat.floor)")
        # One entry per destroyed token: a sealed spawn space holds two (manual p35, p36).
        if "destroyed" in changed:
            object.__setattr__(self, "destroyed", tuple(sorted(map(tuple, self.destroyed))))
        if "lit" in changed:
            object.__setattr__(self, "lit", tuple(sorted(set(map(tuple, self.lit)))))
        if "borders" in changed:
            object.__setattr__(self, "borders", tuple(sorted(
                ((tuple(sorted((tuple(a), tuple(b)))), k) for (a, b), k in self.borders),
                key=lambda item: item[0])))

    def _check_units(self) -> None:
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

    def _check_queue(self) -> None:
        monsters = {u.id for u in self.units if u.side == Side.MONSTER}
        if set(self.queue) != monsters or len(self.queue) != len(monsters):
            raise RulesError("queue", f"the monster queue {self.queue} must hold exactly the "
                                      f"monsters in play {sorted(monsters)} (manual p15)")

    def evolve(self, **changes: Any) -> "GameState":
        """The state with ``changes`` to its fields, checked as a new state is: what
        :func:`dataclasses.replace` gives, without passing every field through ``__init__``
        (the engine copies the state at every step)."""
        unknown = changes.keys() - _STATE_FIELDS
        if unknown:
            raise TypeError(f"GameState has no field {sorted(unknown)[0]!r}")
        new = object.__new__(GameState)
        new.__dict__.update(self.__dict__, **changes)
        new._check(changes.keys())
        return new

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
        return tuple(u for u in self.units if u.side == Side.EXPLORER)

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

    def tile_of(self, point: Point) -> str | Point | None:
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
        return _static_board(self.map, self.borders, self.destroyed, self.treated, self.features)

    def closest_board(self) -> Board:
        """The static board with the immobile units placed: the board *closest* is measured on.

        Rules: manual p16 (immobile units in the closest count); switch closest.immobile_units.
        """
        placed = tuple(sorted((u.position, u.id) for u in self.units
                              if u.immobile and u.position is not None))
        return _placed_board(self.map, self.borders, self.destroyed, placed, self.treated,
                             self.features)

    def unit_board(self) -> Board:
        """The static board with every unit placed (a shared value).

        Rules: manual p23 (units are obstacles for ranged targeting), p34.
        """
        placed = tuple(sorted((u.position, u.id) for u in self.units if u.position is not None))
        return _placed_board(self.map, self.borders, self.destroyed, placed, self.treated,
                             self.features)

    def board(self) -> Board:
        """The :class:`Board` with tokens, doors and units applied (a value: its ``with_...``
        methods give changed boards).

        Rules: manual p11, p34-36 (map tiles, spaces, borders), p22 (units are obstacles).
        """
        return self.unit_board()

    # --- changing (returns new states) -------------------------------------------------------

    def with_unit(self, unit: Unit, **fields: Any) -> "GameState":
        """The state with one unit replaced (by id), and any other ``fields`` of the state
        changed in the same copy.

        Rules: manual p18 (units and attributes).
        """
        return self.evolve(units=tuple(unit if u.id == unit.id else u for u in self.units),
                           **fields)

    def update_unit(self, unit_id: str, **changes: Any) -> "GameState":
        """The state with fields of one unit changed (validated by :class:`Unit`).

        Rules: manual p18 (units and attributes).
        """
        return self.with_unit(self.unit(unit_id).evolve(**changes))


_STATE_FIELDS = frozenset(f.name for f in fields(GameState))
_Borders = tuple[tuple[tuple[Point, Point], BorderKind], ...]
_Kinds = tuple[tuple[Point, SpaceKind], ...]
_STATE_CHECKED = frozenset(("phase", "units", "queue", "threat", "destroyed", "lit", "borders"))
"""The fields a new state checks or normalises; :meth:`GameState.evolve` checks only those
it changes (the others were checked when the state it comes from was made)."""


@lru_cache(maxsize=32)
def _base_board(spec: MapSpec) -> Board:
    """The map as printed, built once per map: every state of it shares this terrain."""
    if spec.area is not None:
        return spec.area.board()
    board = Board.from_layout(cast(Layout, spec.layout))
    tiles = [(p, {"tile": "{},{}".format(*cast(Point, spec.tile_of(p)))}) for p in board]
    return Board(board.terrain.changed(spaces=tiles).rebased())


_BOARD_KIND_ORDER = (
    SpaceKind.UNIDENTIFIABLE, SpaceKind.RUBBLE, SpaceKind.BARREL, SpaceKind.LEVER,
    SpaceKind.CHEST, SpaceKind.EVENT, SpaceKind.WORKBENCH, SpaceKind.RECHARGE, SpaceKind.CHAPTER,
    SpaceKind.PIT, SpaceKind.TRAPPED, SpaceKind.SPAWN, SpaceKind.FLOOR)
"""Which kind a space with gained features shows the board, strongest first: a barrier
blocks moves and sight, an obstacle stops moves, a barrel or lever is set off by a push,
a pit destroys (manual p35: treat map space also as another kind)."""


def board_kind(own: SpaceKind, features: Iterable[SpaceKind]) -> SpaceKind:
    """The kind the board gives a space that keeps ``own`` and gains ``features`` too: the
    strongest for moving, sight and pushes (a floor also rubble blocks both; a chest also an
    exploding barrel is hit by a push into it) (manual p35: treat map space).

    Rules: manual p35 (treat map space: additional features), p22 (barriers, obstacles), p25.
    """
    kinds = (own,) + tuple(features)
    ranked = [k for k in kinds if k in _BOARD_KIND_ORDER]
    return min(ranked, key=_BOARD_KIND_ORDER.index) if ranked else own


@lru_cache(maxsize=256)
def _static_board(spec: MapSpec, borders: _Borders, destroyed: tuple[Point, ...],
                  treated: _Kinds = (), features: _Kinds = ()) -> Board:
    """The map with a state's door changes, treated and destroyed spaces: the printed
    terrain with those few elements changed (its sight and step tables are patched). A space
    with gained features takes the strongest of its kinds (:func:`board_kind`)."""
    spaces = {p: {"kind": kind} for p, kind in treated}
    for p in {p for p, _ in features} - set(destroyed):
        own = spaces[p]["kind"] if p in spaces else spec.printed(p)
        spaces[p] = {"kind": board_kind(own, (k for q, k in features if q == p))}
    spaces.update((p, {"kind": SpaceKind.DESTROYED}) for p in destroyed)
    base = _base_board(spec)
    return Board(base.terrain.changed(borders=borders, spaces=spaces.items()))


@lru_cache(maxsize=256)
def _placed_board(spec: MapSpec, borders: _Borders, destroyed: tuple[Point, ...],
                  placed: tuple[tuple[Point, str], ...], treated: _Kinds = (),
                  features: _Kinds = ()) -> Board:
    """The static board with units standing on it (the same terrain, a new occupancy)."""
    board = _static_board(spec, borders, destroyed, treated, features)
    return board.with_units(placed, standing=True) if placed else board
