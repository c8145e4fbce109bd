"""The plain notation of a ``play`` question's steps: what each unit does, one line a step.

A step names its unit by its letter and a space either by its coordinates as the answers
write them, ``(x, y)``, or as the board's axes label it, ``B3`` (column letters from ``A``,
row number from ``1``; :func:`~machina_nb.rules.board.labels.space_of_name` reads it)::

    K starts                      K ends                    K passes (starts and ends)
    K moves to (2, 1) (3, 1)      K opens the door to (2, 0)    (closes, destroys)
    K activates (1, 0)            K activates (1, 0) for a roll with 2 essence
    K plays hex_bolt on M         K plays alternate on M and (2, 0)
    K activates (1, 0) with L contributing 2     K plays hex_bolt on M with 1 essence and L contributing 1
    K explores north way 1        K exits                   K rolls for spawn
    K trades with P giving circular_saw and rotopod taking veil_lantern
    K uses inventory              K uses inventory on P equipping circular_saw and rotopod
    K uses inventory equipping circular_saw upgrading circular_saw with scope giving gem to P
    the horror roll               M acts                    M takes its turn
    the monsters take their turns

:func:`parse_step` reads one line into a :class:`PlayStep` or raises :class:`NotationError`
with the column (0-based, in the line) of what is wrong; the situation loader turns that
into file:line:col. A label that names no space (``B0``) is refused here; beyond that nothing
here knows the board or the cards: the loader checks that the letters are units, the spaces
on the board, the ability names on a card and the items a trade names item cards.

>>> parse_step("K plays hex_bolt on M with 2 essence")
PlayStep(text='K plays hex_bolt on M with 2 essence', verb='play', actor='K', spaces=(), targets=('M',), name='hex_bolt', essence=2, way=None, destroy=None, give=(), take=(), contributions=(), steps=(), gifts=())
>>> parse_step("K moves to (2, 1) (3, 1)").spaces
((2, 1), (3, 1))
>>> parse_step("K moves to C2 D2").spaces
((2, 1), (3, 1))
>>> parse_step("K plays alternate on M and C1").targets
('M', (2, 0))
>>> parse_step("K trades with P giving circular_saw and rotopod").give
('circular_saw', 'rotopod')
>>> parse_step("K activates (1, 0) with L contributing 2").contributions
(('L', 2),)
>>> parse_step("K uses inventory on P equipping saw upgrading saw with scope").steps
(('main', 'saw'), ('upgrade', 'scope', 'saw'))

Rules: manual p10-16 (the round: turns, rolls, the monster phase), p12 (explorer actions), p32
(use inventory, on an adjacent explorer too; trade with an adjacent explorer), p19 (other explorers contribute essence), p34-37 (moves, doors, action spaces, exploring).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import cast

from machina_nb.rules.board.labels import LABEL_SHAPE, space_of_name
from machina_nb.rules.board.maptext import Point

__all__ = ["PlayStep", "NotationError", "parse_step", "VERBS", "EXAMPLES", "SIDE_WORDS"]

_XY = r"\(\s*-?\d+\s*,\s*-?\d+\s*\)"
_L = LABEL_SHAPE.pattern
_P = rf"(?:{_XY}|{_L})"
_PATH = rf"{_P}(?:\s*{_XY}| {_L})*"
_T = rf"{_L}|[A-Z]|{_XY}"
_ITEMS = r"[a-z][a-z0-9_]*(?: and [a-z][a-z0-9_]*)*"
_POINT = re.compile(r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")
_SPACE = re.compile(rf"{_POINT.pattern}|(?<![\w(-])({_L})(?![\w-])")
"""A space as a step writes it: ``(x, y)`` (groups 1 and 2) or a board label (group 3)."""
_SPACE_WORDS = ("to", "activates", "on", "and", "destroying")
"""The words a space follows in a step (and each space of a path the one before it)."""
_GIVES = r"[A-Z] contributing \d"
_GIVEN = rf"(?: (?:with|and) (?P<given>{_GIVES}(?: and {_GIVES})*))?"
_GIVE = re.compile(r"([A-Z]) contributing (\d)")
_ITEM = r"[a-z][a-z0-9_]*"
_EQUIPS = rf"(?: (?:equipping {_ITEMS}|(?:upgrading|augmenting) {_ITEM} with {_ITEM}))*"
_EQUIP = re.compile(rf"equipping ({_ITEMS})|(upgrading|augmenting) ({_ITEM}) with ({_ITEM})")
_GIFT = re.compile(rf"({_ITEM}) to ([A-Z])")
_INVENTORY_WORDS = ("uses", "inventory", "on", "equipping", "upgrading", "augmenting", "with",
                    "giving", "to", "and")

SIDE_WORDS = {"north": "N", "east": "E", "south": "S", "west": "W"}
"""The sides a step may explore from, in words, and the engine's letters for them."""

VERBS = {
    "start": r"(?P<actor>[A-Z]) starts",
    "end": r"(?P<actor>[A-Z]) ends",
    "pass": r"(?P<actor>[A-Z]) passes",
    "move": rf"(?P<actor>[A-Z]) moves to (?P<path>{_PATH})",
    "door": rf"(?P<actor>[A-Z]) (?P<name>opens|closes|destroys) the door to (?P<space>{_P})",
    "activate": rf"(?P<actor>[A-Z]) activates (?P<space>{_P})(?: for (?P<name>essence|a roll))?"
                rf"(?: with (?P<essence>\d) essence)?{_GIVEN}",
    "play": rf"(?P<actor>[A-Z]) plays (?P<name>[a-z][a-z0-9_]*)(?: on (?P<t1>{_T})"
            rf"(?: and (?P<t2>{_T}))?)?(?: with (?P<essence>\d) essence)?{_GIVEN}"
            rf"(?: destroying (?P<destroy>{_P}))?",
    "explore": r"(?P<actor>[A-Z]) explores(?: (?P<name>north|east|south|west))?"
               r"(?: way (?P<way>\d))?",
    "exit": r"(?P<actor>[A-Z]) exits",
    "trade": rf"(?P<actor>[A-Z]) trades with (?P<t1>[A-Z])(?: giving (?P<give>{_ITEMS}))?"
             rf"(?: taking (?P<take>{_ITEMS}))?",
    "inventory": rf"(?P<actor>[A-Z]) uses inventory(?: on (?P<t1>[A-Z]))?(?P<equips>{_EQUIPS})"
                 rf"(?: giving (?P<gifts>{_ITEM} to [A-Z](?: and {_ITEM} to [A-Z])*))?",
    "spawn_roll": r"(?P<actor>[A-Z]) rolls for spawn",
    "horror_roll": r"the horror roll",
    "act": r"(?P<actor>[A-Z]) acts",
    "turn": r"(?P<actor>[A-Z]) takes its turn",
    "monsters": r"the monsters take their turns",
}
"""Each verb of the notation and the shape of its line (a regular expression)."""

EXAMPLES = ("K starts", "K ends", "K passes", "K moves to (2, 1)", "K opens the door to (2, 0)",
            "K activates (1, 0) for a roll", "K plays hex_bolt on M", "K explores north",
            "K exits", "K trades with P giving circular_saw",
            "K uses inventory equipping circular_saw", "K rolls for spawn",
            "the horror roll", "M acts", "M takes its turn",
            "the monsters take their turns")
"""One line of each verb, for error messages and the documentation."""

_COMPILED = {verb: re.compile(pattern) for verb, pattern in VERBS.items()}
_WORDS = {"starts": "start", "ends": "end", "passes": "pass", "moves": "move", "opens": "door",
          "closes": "door", "destroys": "door", "activates": "activate", "plays": "play",
          "explores": "explore", "exits": "exit", "rolls": "spawn_roll", "acts": "act",
          "takes": "turn", "trades": "trade", "uses": "inventory"}


@dataclass(frozen=True)
class PlayStep:
    """One step of a ``play`` question, as written.

    ``verb`` is a key of :data:`VERBS`; ``actor`` the unit's letter (None for the horror
    roll and the monster phase); ``spaces`` the spaces moved through, or the door's or the
    activated space; ``targets`` the ability's targets (letters or spaces); ``name`` the
    ability's name, the door's ``opens``/``closes``/``destroys``, the event space's option
    (``essence`` or ``a roll``) or the side explored from; ``essence`` the most spent on an
    attack roll; ``way`` the way to explore the players pick; ``destroy`` the space a
    destroy cost destroys; ``give`` and ``take`` the item ids a trade hands to the partner (the
    one target) and takes from them; ``contributions`` the essence other explorers pay toward
    the cost, by letter (manual p19); ``steps`` what *use inventory* equips, in order, as the
    engine's ``("main", item)``, ``("upgrade", item, host)`` and ``("augment", item, host)``,
    and ``gifts`` the (item, letter) pairs it gives away (manual p32), the owner of the
    inventory being the one target when it is not the actor's own.
    """

    text: str
    verb: str
    actor: str | None = None
    spaces: tuple[Point, ...] = ()
    targets: tuple[str | Point, ...] = ()
    name: str = ""
    essence: int = 0
    way: int | None = None
    destroy: Point | None = None
    give: tuple[str, ...] = ()
    take: tuple[str, ...] = ()
    contributions: tuple[tuple[str, int], ...] = ()
    steps: tuple[tuple[str, ...], ...] = ()
    gifts: tuple[tuple[str, str], ...] = ()

    def points(self) -> tuple[tuple[Point, int], ...]:
        """Every space the line names, with the column where it is written."""
        return tuple((point, at) for point, _, at in self.named_spaces())

    def named_spaces(self) -> tuple[tuple[Point, str, int], ...]:
        """Every space the line names: the space, how a message names it (``(2, 1)``, or the
        label in quotes, ``'C2'``) and the column where it is written."""
        return tuple((_space(m[0]), f"({m[1]}, {m[2]})" if m[1] else repr(m[3]), m.start())
                     for m in _SPACE.finditer(self.text))

    def letters(self) -> tuple[tuple[str, int], ...]:
        """Every unit letter the line names, with its column."""
        return tuple((m[0], m.start()) for m in re.finditer(r"\b[A-Z]\b", self.text))

    def items(self) -> tuple[tuple[str, int], ...]:
        """Every item id a trade or *use inventory* names, with its column."""
        skip = {"trade": ("trades", "with", "giving", "taking", "and"),
                "inventory": _INVENTORY_WORDS}.get(self.verb)
        if skip is None:
            return ()
        return tuple((m[0], m.start()) for m in re.finditer(r"\b[a-z][a-z0-9_]*\b", self.text)
                     if m[0] not in skip)


class NotationError(ValueError):
    """A step that does not read: ``message`` and the 0-based ``column`` in its line."""

    def __init__(self, message: str, column: int = 0):
        self.message, self.column = message, column
        super().__init__(message)


def _space(text: str) -> Point:
    """The space ``(x, y)`` or a board label names (the caller matched and checked it)."""
    m = _POINT.fullmatch(text.strip())
    if m is not None:
        return int(m[1]), int(m[2])
    return cast(Point, space_of_name(text))


def _target(text: str | None) -> str | Point | None:
    if text is None:
        return None
    return text if len(text) == 1 else _space(text)


def _no_space(text: str, written: str, column: int) -> NotationError:
    return NotationError(f"{text!r} names {written!r}, which is no space as the board labels "
                         "it: write column letters from A and a row number from 1, like 'B3', "
                         "or (x, y)", column)


def _check_labels(text: str) -> None:
    """Refuse a label that names no space (``B0``), naming it and where it stands."""
    for m in _SPACE.finditer(text):
        if m[3] and space_of_name(m[3]) is None:
            raise _no_space(text, m[3], m.start())


def _bad_space(text: str) -> NotationError | None:
    """Where a line that does not read holds a mistyped space (``b3``, ``3B``, ``AAAA1``): a
    word of letters and digits where a space goes."""
    words = [(m[0], m.start()) for m in re.finditer(r"\S+", text)]
    path = len(words) > 2 and words[1][0] == "moves"
    for i, (word, at) in enumerate(words[1:], 1):
        if (words[i - 1][0] in _SPACE_WORDS or (path and i > 3)) and not word.startswith("(") \
                and re.search(r"\d", word) and re.search(r"[A-Za-z]", word) \
                and not _SPACE.fullmatch(word):
            return _no_space(text, word, at)
    return None


def parse_step(text: str) -> PlayStep:
    """One step in the notation (see the module docstring), or :class:`NotationError`."""
    if not isinstance(text, str):
        raise NotationError(f"a step is a line of text such as {EXAMPLES[0]!r}, got {text!r}")
    line = " ".join(text.split())
    if line != text:
        raise NotationError("write a step on one line, words separated by single spaces",
                            next((i for i, c in enumerate(text) if c.isspace() and (
                                i == 0 or i == len(text) - 1 or text[i - 1].isspace()
                                or c != " ")), 0))
    for verb, pattern in _COMPILED.items():
        m = pattern.fullmatch(text)
        if m:
            _check_labels(text)
            return _step(text, verb, m)
    raise _bad_space(text) or NotationError(_unknown(text), _column(text))


def _step(text: str, verb: str, m: re.Match[str]) -> PlayStep:
    groups = m.groupdict()
    spaces: tuple[Point, ...] = ()
    if groups.get("path"):
        spaces = tuple(_space(m[0]) for m in _SPACE.finditer(groups["path"]))
    elif groups.get("space"):
        spaces = (_space(groups["space"]),)
    targets = tuple(t for t in (_target(groups.get("t1")), _target(groups.get("t2")))
                    if t is not None)
    name = groups.get("name") or ""
    if verb == "explore" and name:
        name = SIDE_WORDS[name]
    give, take = (tuple(groups[key].split(" and ")) if groups.get(key) else ()
                  for key in ("give", "take"))
    if verb == "trade" and not give and not take:
        raise NotationError(f"{text!r} trades nothing; write it like "
                            "'K trades with P giving circular_saw taking rotopod'", len(text))
    return PlayStep(text, verb, groups.get("actor"), spaces, targets, name,
                    int(groups.get("essence") or 0),
                    int(groups["way"]) if groups.get("way") else None,
                    _space(groups["destroy"]) if groups.get("destroy") else None, give, take,
                    tuple((a, int(n)) for a, n in _GIVE.findall(groups.get("given") or "")),
                    _equips(groups.get("equips") or ""),
                    tuple(_GIFT.findall(groups.get("gifts") or "")))


def _equips(text: str) -> tuple[tuple[str, ...], ...]:
    """The steps of *use inventory* in the order written: each item equipped as a main item,
    each upgrade and augment onto its host (manual p32)."""
    steps: list[tuple[str, ...]] = []
    for m in _EQUIP.finditer(text):
        if m[1]:
            steps += [("main", item) for item in m[1].split(" and ")]
        else:
            steps.append(("upgrade" if m[2] == "upgrading" else "augment", m[4], m[3]))
    return tuple(steps)


def _unknown(text: str) -> str:
    words = text.split(" ")
    verb = _WORDS.get(words[1]) if len(words) > 1 and re.fullmatch(r"[A-Z]", words[0]) else None
    if verb is not None:
        shape = next(e for e in EXAMPLES if e.split(" ")[1] == words[1] or (
            verb == "door" and "door" in e) or (verb == "spawn_roll" and "spawn" in e))
        return f"{text!r} does not read as a step; write it like {shape!r}"
    return (f"{text!r} is not a step; a step is one of: " + "; ".join(repr(e) for e in EXAMPLES))


def _column(text: str) -> int:
    """Where the line stops reading: the verb when the letter reads, else the start."""
    words = text.split(" ")
    if len(words) > 1 and re.fullmatch(r"[A-Z]", words[0]):
        return len(words[0]) + 1
    return 0
