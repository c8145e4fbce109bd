"""The analysis board's editor as values: a situation being built, and its file text.

A :class:`Draft` is a situation under construction: a map (space kinds and borders,
no units drawn in it), the units placed on it with the values set on them, the rules it
names and its questions. Every edit (:func:`paint`, :func:`set_border`, :func:`place`,
:func:`move`, :func:`remove`, :func:`set_values`, ...) returns a new draft or raises
:class:`RulesError` naming what is wrong and changing nothing, so undo is keeping the
old values. :func:`to_toml` writes the situation file (content/README.md); the strict
loader reads it back to the same situation (:func:`to_situation`), and
:func:`draft_of_situation` turns a loaded situation into a draft again.

>>> d = place(place(empty_draft(4, 3), "sarall", (0, 0)), "phillip", (3, 2))
>>> d = set_border(d, (1, 0), (2, 0), BorderKind.DOOR_CLOSED)
>>> [u.letter for u in d.units], to_situation(d).unit_id("P")
(['S', 'P'], 'phillip')
>>> draft_of_situation(to_situation(d)) == d
True

Rules: manual p11 (the map grid), p18 (unit values), p22 (walls and doors), p35-37 (space
kinds).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from machina_nb.rules.analysis.inventories import Holding
from machina_nb.rules.analysis.own_cards import NO_CARDS, OwnCards
from machina_nb.rules.analysis.questions import Question
from machina_nb.rules.analysis.situation import MAX_SIDE, Situation, situation_from_text
from machina_nb.rules.board.maptext import BorderKind, Layout, Point, SpaceKind
from machina_nb.rules.board.tiles import load_tiles
from machina_nb.rules.cards.examples import Example
from machina_nb.rules.cards.records import Record
from machina_nb.rules.cards.units import unit_card
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import PRESETS, Rules

__all__ = ["DraftUnit", "Draft", "SPACE_KINDS", "BORDER_KINDS", "VALUE_KEYS", "empty_draft",
           "draft_of_tile", "draft_of_situation", "draft_of_example", "paint", "set_border",
           "place", "move", "remove", "set_values", "set_items", "set_held", "with_questions",
           "with_rules", "rules_parts", "value_limits", "map_text", "to_toml", "to_situation",
           "question", "with_choice", "with_roll", "table_lines"]

SPACE_KINDS: tuple[SpaceKind, ...] = tuple(SpaceKind)
"""Every space kind the map text knows (manual p35-37), in the order of its characters."""

BORDER_KINDS: tuple[BorderKind, ...] = (BorderKind.OPEN, BorderKind.WALL, BorderKind.DOOR_OPEN,
                                        BorderKind.DOOR_CLOSED, BorderKind.DOOR_DESTROYED)
"""What a border between two spaces of the board may be set to (manual p22, p36)."""

VALUE_KEYS = ("health", "stamina", "essence", "armor", "will")
"""The current values a situation may set on a unit (content/README.md; manual p18)."""

_NO_UNIT = (SpaceKind.DESTROYED, SpaceKind.UNIDENTIFIABLE)


@dataclass(frozen=True)
class DraftUnit:
    """A unit on the draft: its letter, card, space, the values set on it, items and engine id.

    ``values`` holds only what differs from a fresh card (full health and stamina, no
    essence, the card's armor and will); ``id`` is None for the default engine id.
    """

    letter: str
    card: str
    position: Point
    values: tuple[tuple[str, int], ...] = ()
    items: tuple[str, ...] = ()
    id: str | None = None
    printed: tuple[tuple[str, int], ...] = field(default=(), compare=False)
    """A fresh unit's values from its card, kept when the card is an own card."""
    held: Holding = Holding()
    """The rest of an explorer's inventory: upgrades, augments, unequipped cards, consumables."""

    def value(self, key: str) -> int:
        """The unit's current ``key`` (one of :data:`VALUE_KEYS`), set or from its card."""
        fresh = dict(self.printed) or _fresh(self.card, NO_CARDS)
        return dict(self.values).get(key, fresh[key])


@dataclass(frozen=True)
class Draft:
    """A situation being edited: the map without units, the units, rules, turn and questions.

    ``turn`` is ``(phase, active letter or None)``; ``questions`` are
    :class:`~machina_nb.rules.analysis.situation.Question` values.
    """

    layout: Layout
    units: tuple[DraftUnit, ...] = ()
    title: str = "A situation from the table"
    id: str = "my_situation"
    preset: str = "manual"
    rulings: tuple[tuple[str, str], ...] = ()
    turn: tuple[str, str | None] = ("explorer", None)
    questions: tuple[Question, ...] = ()
    note: str = ""
    shows: tuple[str, ...] = ()
    tile_size: int = 10
    game: Record = Record(())
    deck: tuple[str, ...] = ()
    cards: OwnCards = NO_CARDS
    """The player's own cards: those typed into the situation are written back into it."""

    def unit(self, letter: str) -> DraftUnit:
        """The unit drawn as ``letter``."""
        for u in self.units:
            if u.letter == letter:
                return u
        raise RulesError("letter", f"no unit {letter!r} on the board")

    def unit_at(self, point: Point) -> DraftUnit | None:
        """The unit standing on ``point``, if any."""
        return next((u for u in self.units if u.position == tuple(point)), None)

    def rules(self) -> Rules:
        """The rules this draft names: its preset with its overrides."""
        return Rules.preset(self.preset).replace(dict(self.rulings))


# --- starting points ---------------------------------------------------------------------------

def empty_draft(width: int, height: int) -> Draft:
    """A ``width`` x ``height`` board of floor inside a wall, no unit (at most 40x40).

    Rules: manual p11 (the map grid), p35 (floor).
    """
    for name, value in (("width", width), ("height", height)):
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_SIDE:
            raise RulesError(name, f"the board's {name} must be a whole number 1-{MAX_SIDE}, "
                             f"got {value!r}")
    ring = [[BorderKind.OPEN] * (width + 1) for _ in range(height)]
    for row in ring:
        row[0] = row[-1] = BorderKind.BOUNDARY
    rows = [[BorderKind.OPEN] * width for _ in range(height + 1)]
    rows[0] = rows[-1] = [BorderKind.BOUNDARY] * width
    return Draft(Layout(width, height, ((SpaceKind.FLOOR,) * width,) * height,
                        tuple(map(tuple, ring)), tuple(map(tuple, rows)),
                        (("+",) * (width + 1),) * (height + 1)))


def draft_of_tile(key: str) -> Draft:
    """One shipped tile side (``t01a``) as an empty draft; its edges stay on the ring.

    Rules: manual p11 (map tiles).
    """
    sides = {s.key: s for t in load_tiles().values() for s in t.sides}
    if key not in sides:
        raise RulesError("key", f"unknown tile side {key!r}; e.g. {', '.join(sorted(sides)[:3])}")
    return Draft(sides[key].layout, title=f"On tile side {key}", id=f"on_{key}")


def draft_of_example(example: Example) -> Draft:
    """A worked example's board and units as a draft, at the example's rules.

    Rules: manual p8 (setup).
    """
    where = dict(example.board.units)
    units = tuple(DraftUnit(letter, unit.id, where[letter]) for letter, unit in example.units)
    return Draft(replace(example.board, units=()), units, example.title,
                 example.id, example.preset, tuple(sorted(example.rulings)))


def draft_of_situation(situation: Situation) -> Draft:
    """A loaded situation as a draft: the same map, units, values, items, rules, turn, questions.

    Rules: manual p18 (unit values).
    """
    counts: dict[str, int] = {}
    for u in situation.units:
        counts[u.card] = counts.get(u.card, 0) + 1
    items = dict(situation.items)
    units = []
    for su in situation.units:
        engine = situation.base.unit(su.id)
        fresh = _fresh(su.card, situation.cards)
        values = tuple((k, getattr(engine, k)) for k in VALUE_KEYS
                       if getattr(engine, k) != fresh[k])
        default_id = su.card if counts[su.card] == 1 else f"{su.card}_{su.letter.lower()}"
        held = items.get(su.id, Holding())
        units.append(DraftUnit(su.letter, su.card, su.position, values, held.items,
                               None if su.id == default_id else su.id,
                               _printed(su.card, situation.cards), replace(held, items=())))
    return Draft(replace(situation.layout, units=()), tuple(units), situation.title,
                 situation.id, situation.preset, situation.rulings, _turn(situation),
                 situation.questions, situation.note, situation.shows, situation.tile_size,
                 situation.game, situation.deck, situation.cards)


def _turn(situation: Situation) -> tuple[str, str | None]:
    state = situation.base
    who = state.monster_turn.monster if state.monster_turn else state.active
    return state.phase, (situation.letter_of(who) if who else None)


def _fresh(card: str, cards: OwnCards) -> dict[str, int]:
    """A fresh unit's values from its card (manual p8: full health and stamina, no essence)."""
    printed = unit_card(cards.units()[card])
    return {"health": printed.health, "stamina": printed.stamina, "essence": 0,
            "armor": printed.armor, "will": printed.will}


def _printed(card: str, cards: OwnCards) -> tuple[tuple[str, int], ...]:
    """A fresh unit's values kept on a draft unit of an own card (none for a shipped card)."""
    return tuple(_fresh(card, cards).items()) if card in cards.ids("unit") else ()


def value_limits(card: str, cards: OwnCards = NO_CARDS) -> dict[str, tuple[int, int]]:
    """The range each of :data:`VALUE_KEYS` may take on a unit of ``card`` (manual p18),
    a shipped card or one of ``cards``.

    Rules: manual p18 (attributes 0-9; current health, stamina and essence up to the card's).
    """
    if card not in cards.units():
        raise RulesError("card", f"unknown card {card!r}")
    printed = unit_card(cards.units()[card])
    essence = printed.essence_max if printed.essence_max is not None else 9
    return {"health": (0, printed.health), "stamina": (0, printed.stamina),
            "essence": (0, essence), "armor": (0, 9), "will": (0, 9)}


# --- edits ------------------------------------------------------------------------------------

def _on_board(draft: Draft, point: Any, name: str) -> Point:
    layout = draft.layout
    if (not isinstance(point, (tuple, list)) or len(point) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in point)
            or not (0 <= point[0] < layout.width and 0 <= point[1] < layout.height)):
        raise RulesError(name, f"{point!r} is not a space of the {layout.width}x{layout.height} "
                         "board")
    return (point[0], point[1])


def paint(draft: Draft, point: Point, kind: SpaceKind) -> Draft:
    """The draft with space ``point`` of ``kind``; no unit may stand on a destroyed or
    unidentifiable space.

    Rules: manual p35-37 (space kinds), p36 (destroyed space).
    """
    x, y = _on_board(draft, point, "point")
    if not isinstance(kind, SpaceKind):
        raise RulesError("kind", f"expected a space kind, got {kind!r}")
    who = draft.unit_at((x, y))
    if who is not None and kind in _NO_UNIT:
        raise RulesError("kind", f"{who.letter} stands there: no unit can stand on a "
                         f"{_words(kind)} (manual p35-36)")
    spaces = _replaced(draft.layout.spaces, x, y, kind)
    return replace(draft, layout=replace(draft.layout, spaces=spaces))


def _words(kind: SpaceKind) -> str:
    return kind.name.lower().replace("_", " ") + " space"


def _replaced(rows: tuple[Any, ...], x: int, y: int, value: object) -> tuple[Any, ...]:
    row = rows[y]
    return rows[:y] + (row[:x] + (value,) + row[x + 1:],) + rows[y + 1:]


def set_border(draft: Draft, a: Point, b: Point, kind: BorderKind) -> Draft:
    """The draft with the border between neighbours ``a`` and ``b`` set to ``kind``
    (open, wall, or an open, closed or destroyed door; the ring stays as it is).

    Rules: manual p22 (walls and doors), p36 (destroyed door).
    """
    a, b = _on_board(draft, a, "a"), _on_board(draft, b, "b")
    if kind not in BORDER_KINDS:
        raise RulesError("kind", f"a border between spaces is open, a wall or a door, got {kind!r}")
    (ax, ay), (bx, by) = a, b
    layout = draft.layout
    if ay == by and abs(ax - bx) == 1:
        layout = replace(layout, vertical=_replaced(layout.vertical, max(ax, bx), ay, kind))
    elif ax == bx and abs(ay - by) == 1:
        layout = replace(layout, horizontal=_replaced(layout.horizontal, ax, max(ay, by), kind))
    else:
        raise RulesError("b", f"{a} and {b} are not side by side: a border lies between two "
                         "spaces that share a side")
    return replace(draft, layout=layout)


def _free_space(draft: Draft, point: Point, name: str, moving: str | None = None) -> Point:
    point = _on_board(draft, point, name)
    who = draft.unit_at(point)
    if who is not None and who.letter != moving:
        raise RulesError(name, f"{who.letter} already stands there: one unit per space "
                         "(manual p22)")
    kind = draft.layout.space(*point)
    if kind in _NO_UNIT:
        raise RulesError(name, f"no unit can stand on a {_words(kind)} (manual p35-36)")
    return point


def _letter_for(draft: Draft, card: str) -> str:
    taken = {u.letter for u in draft.units}
    initial: str = draft.cards.units()[card].name[:1].upper()
    for letter in [initial] + [chr(c) for c in range(ord("A"), ord("Z") + 1)]:
        if "A" <= letter <= "Z" and letter not in taken:
            return letter
    raise RulesError("card", "every letter A-Z is taken: a situation holds at most 26 units")


def place(draft: Draft, card: str, point: Point) -> Draft:
    """The draft with a fresh unit of ``card`` on the free space ``point``, lettered by its
    name's initial (or the first free letter).

    Rules: manual p8 (a unit enters with full health and stamina), p22 (one unit per space).
    """
    known = draft.cards.units()
    if card not in known:
        raise RulesError("card", f"unknown card {card!r}; content/units and the own cards have "
                         f"{', '.join(sorted(known))}")
    point = _free_space(draft, point, "point")
    unit = DraftUnit(_letter_for(draft, card), card, point,
                     printed=_printed(card, draft.cards))
    return replace(draft, units=draft.units + (unit,))


def move(draft: Draft, letter: str, point: Point) -> Draft:
    """The draft with unit ``letter`` on the free space ``point``.

    Rules: manual p22 (one unit per space), p35-36 (no unit on a destroyed space).
    """
    unit = draft.unit(letter)
    point = _free_space(draft, point, "point", moving=letter)
    return replace(draft, units=tuple(replace(u, position=point) if u is unit else u
                                      for u in draft.units))


def remove(draft: Draft, letter: str) -> Draft:
    """The draft without unit ``letter``, its questions, or its turn."""
    unit = draft.unit(letter)
    questions = tuple(q for q in draft.questions if letter not in _letters(q))
    turn = (draft.turn[0], None) if draft.turn[1] == letter else draft.turn
    return replace(draft, units=tuple(u for u in draft.units if u is not unit),
                   questions=questions, turn=turn)


def _letters(question: Question) -> set[str]:
    found = set()
    for _, value in question.record.items:
        values = value if isinstance(value, tuple) else (value,)
        found |= {v for v in values if isinstance(v, str) and len(v) == 1 and v.isupper()}
    return found


def set_values(draft: Draft, letter: str, **values: int) -> Draft:
    """The draft with unit ``letter``'s current values (:data:`VALUE_KEYS`) set.

    Rules: manual p18 (attributes 0-9; current health, stamina and essence up to the card's).
    """
    unit = draft.unit(letter)
    limits = value_limits(unit.card, draft.cards)
    now = dict(unit.values)
    for key, value in values.items():
        if key not in limits:
            raise RulesError(key, f"a unit's values are {', '.join(VALUE_KEYS)}")
        low, high = limits[key]
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise RulesError(key, f"{letter}'s {key} must be a whole number {low}-{high} "
                             "(manual p18)")
        now[key] = value
    fresh = _fresh(unit.card, draft.cards)
    kept = tuple((k, now[k]) for k in VALUE_KEYS if k in now and now[k] != fresh[k])
    return replace(draft, units=tuple(replace(u, values=kept) if u is unit else u
                                      for u in draft.units))


def set_items(draft: Draft, letter: str, items: Iterable[str]) -> Draft:
    """The draft with explorer ``letter`` holding ``items`` (item ids), equipped in order.

    Rules: manual p31 (inventory).
    """
    unit = draft.unit(letter)
    items = tuple(items)
    unknown = [i for i in items if i not in draft.cards.items()]
    if unknown:
        raise RulesError("items", f"unknown item {unknown[0]!r}")
    if items and unit_card(draft.cards.units()[unit.card]).side != "explorer":
        raise RulesError("items", f"{letter} is a monster: only explorers hold items (manual p30)")
    return replace(draft, units=tuple(replace(u, items=items) if u is unit else u
                                      for u in draft.units))


def set_held(draft: Draft, letter: str, held: Holding) -> Draft:
    """The draft with explorer ``letter`` holding ``held`` besides its main items: upgrades and
    augments (card, host), unequipped cards and consumables. Whether they fit together is the
    strict loader's to say when the draft is read (:func:`to_situation`).

    Rules: manual p30 (only explorers hold items), p31 (inventory).
    """
    unit = draft.unit(letter)
    unknown = [i for i in held.cards() if i not in draft.cards.items()]
    if unknown:
        raise RulesError("held", f"unknown item {unknown[0]!r}")
    if not held.empty and unit_card(draft.cards.units()[unit.card]).side != "explorer":
        raise RulesError("held", f"{letter} is a monster: only explorers hold items (manual p30)")
    return replace(draft, units=tuple(replace(u, held=replace(held, items=())) if u is unit
                                      else u for u in draft.units))


def with_questions(draft: Draft, questions: Iterable[Question]) -> Draft:
    """The draft asking ``questions`` (names unique; later ones of a name are dropped)."""
    kept, names = [], set()
    for q in questions:
        if q.name not in names:
            names.add(q.name)
            kept.append(q)
    return replace(draft, questions=tuple(kept))


def rules_parts(rules: Rules) -> tuple[str, tuple[tuple[str, str], ...]]:
    """``rules`` as a preset and the switches flipped from it (what a situation file names)."""
    preset = rules.name.rstrip("+")
    preset = preset if preset in PRESETS else "manual"
    flips = tuple(sorted((name, mine) for name, mine, _ in
                         rules.differences(Rules.preset(preset))))
    return preset, flips


def with_rules(draft: Draft, rules: Rules) -> Draft:
    """The draft naming ``rules`` (its preset and overrides)."""
    preset, flips = rules_parts(rules)
    return replace(draft, preset=preset, rulings=flips)


# --- the file text ------------------------------------------------------------------------------

def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, Record):
        return "{ " + ", ".join(f"{_key(k)} = {_toml_value(v)}" for k, v in value.items) + " }"
    raise RulesError("value", f"cannot write {type(value).__name__} in a situation file")


def map_text(draft: Draft) -> str:
    """The draft's map text with each unit's letter on its space (content/README.md)."""
    return replace(draft.layout, units=tuple((u.letter, u.position) for u in draft.units)).to_text()


def to_toml(draft: Draft) -> str:
    """The situation file of ``draft`` (content/README.md), read back by the strict loader."""
    out = ["# A situation written by the explorer's analysis board.", 'kind = "situation"',
           f"id = {_toml_value(draft.id)}", f"title = {_toml_value(draft.title)}",
           f"rules = {_toml_value(draft.preset)}"]
    if draft.note:
        out.append(f"note = {_toml_value(draft.note)}")
    if draft.shows:
        out.append(f"shows = {_toml_value(draft.shows)}")
    if draft.tile_size != 10:
        out.append(f"tile_size = {draft.tile_size}")
    if draft.deck:
        out.append(f"deck = {_toml_value(draft.deck)}")
    out += ["map = '''", map_text(draft).rstrip("\n"), "'''"]
    if draft.game.items:
        out += ["", "[game]"] + [f"{k} = {_toml_value(v)}" for k, v in draft.game.items]
    if draft.rulings:
        out += ["", "[rulings]"] + [f"{json.dumps(k)} = {json.dumps(v)}" for k, v in draft.rulings]
    for u in draft.units:
        out += ["", f"[unit.{u.letter}]", f"card = {_toml_value(u.card)}"]
        kind = draft.layout.space(*u.position)
        if kind is not SpaceKind.FLOOR:
            out.append(f"space = {_toml_value(kind.value)}")
        out += [f"{k} = {v}" for k, v in u.values]
        if u.items:
            out.append(f"items = {_toml_value(u.items)}")
        for key in ("unequipped", "consumables"):
            if getattr(u.held, key):
                out.append(f"{key} = {_toml_value(getattr(u.held, key))}")
        for key in ("upgrades", "augments"):
            if getattr(u.held, key):
                pairs = ", ".join(f"{_key(c)} = {_toml_value(h)}" for c, h in getattr(u.held, key))
                out.append(f"{key} = {{ {pairs} }}")
        if u.id:
            out.append(f"id = {_toml_value(u.id)}")
    phase, active = draft.turn
    if (phase, active) != ("explorer", None):
        out += ["", "[turn]", f"phase = {_toml_value(phase)}"]
        out += [f"active = {_toml_value(active)}"] if active else []
    for q in draft.questions:
        out += ["", "[[question]]", f"name = {_toml_value(q.name)}", f"ask = {_toml_value(q.ask)}"]
        out += [f"{k} = {_toml_value(v)}" for k, v in q.record.items if k not in ("name", "ask")]
    for card in draft.cards.typed_here().cards:
        out += table_lines(f"cards.{card.kind}.{card.id}", card.table)
    return "\n".join(out) + "\n"


def table_lines(name: str, table: Record) -> list[str]:
    """``[name]`` with its keys, then each table of a key holding tables as a table
    ``[name.key.sub]`` of its own (a card's abilities), as the content files write them."""
    out = ["", f"[{name}]"]
    out += [f"{_key(k)} = {_toml_value(v)}" for k, v in table.items
            if not isinstance(v, Record) or not _holds_tables(v)]
    for k, v in table.items:
        if isinstance(v, Record) and _holds_tables(v):
            for sub, inner in v.items:
                out += table_lines(f"{name}.{_key(k)}.{_key(sub)}", inner)
    return out


def _key(key: str) -> str:
    """A TOML key: bare when it can be, quoted otherwise."""
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def _holds_tables(record: Record) -> bool:
    return bool(record.items) and all(isinstance(v, Record) for _, v in record.items)


def to_situation(draft: Draft, name: str = "<analysis board>") -> Situation:
    """The draft loaded as a situation by the strict loader (errors name ``name``), knowing the
    cards of the player's card files the draft was made with."""
    return situation_from_text(to_toml(draft), name, draft.cards.from_files())


def with_choice(q: Question, option: Any) -> Question:
    """``q`` with the players' ``option`` (a unit id or a space) added to its ``choices``.

    Rules: manual p16 (ties are the players' choice).
    """
    return _added(q, "choices", list(option) if isinstance(option, tuple) else option)


def with_roll(q: Question, value: int) -> Question:
    """``q`` with the next die showing ``value`` (added to its scripted ``dice``).

    Rules: manual p4-5 (dice), p24 (the attack roll).
    """
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError("value", f"a die shows a whole number, got {value!r}")
    return _added(q, "dice", value)


def _added(q: Question, key: str, value: Any) -> Question:
    if q.ask != "monster_turn":
        raise RulesError("q", f"{q.name} is a {q.ask} question; only a monster's turn takes "
                         f"{key}")
    items = dict(q.record.items)
    items[key] = tuple(items.get(key, ())) + (value,)
    return question(q.name, q.ask, **{k: v for k, v in items.items() if k not in ("name", "ask")})


def question(name: str, ask: str, **keys: Any) -> Question:
    """A question of kind ``ask`` with ``keys`` (as a situation file would give them)."""
    return Question(name, ask, Record.of({"name": name, "ask": ask, **keys}))
