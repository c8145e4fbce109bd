"""Arkham Horror LCG locations and hunter moves: a graph of locations, every tied move returned.

Locations are nodes of a directed networkx graph; a location's listed
connections are its edges (a connection printed on one card only runs one way).
In the enemy phase each ready, unengaged hunter that shares its location with
no investigator moves once, to a connecting location on a shortest path toward
the nearest investigator. Ties between equally near investigators go to the
hunter's prey instruction, then to the lead investigator; ties between first
steps also go to the lead investigator. Every tied move is returned.

>>> house = Locations.of({"hall": ["study", "parlor"], "study": ["hall", "attic"],
...                       "parlor": ["hall", "attic"], "attic": ["study", "parlor"]})
>>> move = hunter_move(house, Hunter("ghoul", "hall"), (Investigator("Roland", "attic"),))
>>> [option.destination for option in move.options], move.chooser
(['parlor', 'study'], 'the lead investigator')

Rules: Arkham summary (The Enemy Phase: Hunter enemies move;
Keywords: Hunter; Key concepts: the lead investigator chooses).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import networkx as nx

from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.maptext import BorderKind, Point
from machina_nb.rules.content import TomlFile, check_card_table, expect_kind, read_toml, require
from machina_nb.rules.errors import RulesError

__all__ = [
    "HUNTER_RULE", "Locations", "Investigator", "Prey", "Hunter", "MoveOption", "HunterMove",
    "hunter_move", "enemy_phase", "load_locations", "rooms_as_locations",
]

SUMMARY = "Arkham summary"
HUNTER_RULE = f"{SUMMARY} (Keywords: Hunter; The Enemy Phase)"


@dataclass(frozen=True)
class Locations:
    """A scenario's locations: names and the connections listed on each (directed).

    ``connections`` holds ``(from, to)`` pairs; ``titles`` the display names.

    Rules: Arkham summary (Investigation phase: Move; connections).
    """

    names: tuple[str, ...]
    connections: frozenset[tuple[str, str]]
    titles: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, connects: Mapping[str, Iterable[str]],
           titles: Mapping[str, str] | None = None) -> Locations:
        """Locations from ``{location: [connected locations]}``; unknown names raise.

        Rules: Arkham summary (Move: a connection on your location).
        """
        names = tuple(sorted(connects))
        pairs = set()
        for name, others in connects.items():
            for other in others:
                if other not in connects:
                    raise RulesError("connects", f"{name} connects to unknown location {other!r}")
                if other == name:
                    raise RulesError("connects", f"{name} cannot connect to itself")
                pairs.add((name, other))
        return cls(names, frozenset(pairs), tuple(sorted((titles or {}).items())))

    @property
    def graph(self) -> nx.DiGraph:
        """The directed graph of locations (a fresh one each call; never shared)."""
        graph = nx.DiGraph()
        graph.add_nodes_from(self.names)
        graph.add_edges_from(self.connections)
        return graph

    def title(self, name: str) -> str:
        """The location's display name (its id when it has none)."""
        return dict(self.titles).get(name, name)

    def require(self, name: str, argument: str) -> str:
        """``name`` if it is a location here, else a :class:`RulesError` naming ``argument``."""
        if name not in self.names:
            raise RulesError(argument, f"unknown location {name!r}; known: {', '.join(self.names)}")
        return name


@dataclass(frozen=True)
class Investigator:
    """An investigator at a location, with the skill values a prey instruction may compare.

    Rules: Arkham summary (Skills and skill tests: four skills).
    """

    name: str
    location: str
    skills: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Prey:
    """A prey instruction: the ``highest`` or ``lowest`` value of ``skill``, or only ``name``.

    Rules: Arkham summary (Keywords: Hunter; Enemy engagement: Prey).
    """

    kind: str
    skill: str = ""
    name: str = ""

    def __post_init__(self) -> None:
        if self.kind not in ("highest", "lowest", "only"):
            raise RulesError("prey", f"expected highest, lowest or only, got {self.kind!r}")

    def best(self, candidates: tuple[Investigator, ...]) -> tuple[Investigator, ...]:
        """The candidates that best meet the instruction (all of them when none does; Arkham
        summary: Hunter)."""
        if self.kind == "only":
            named = tuple(i for i in candidates if i.name == self.name)
            return named or candidates
        values = [dict(i.skills).get(self.skill) for i in candidates]
        known = [v for v in values if v is not None]
        if not known:
            return candidates
        target = max(known) if self.kind == "highest" else min(known)
        return tuple(i for i, v in zip(candidates, values) if v == target)

    def text(self) -> str:
        """The instruction in words."""
        return f"only {self.name}" if self.kind == "only" else f"{self.kind} {self.skill}"


@dataclass(frozen=True)
class Hunter:
    """A hunter enemy: where it is, whether exhausted or engaged, its prey instruction.

    Rules: Arkham summary (Keywords: Hunter; Ready and exhausted).
    """

    name: str
    location: str
    exhausted: bool = False
    engaged: bool = False
    prey: Prey | None = None


@dataclass(frozen=True)
class MoveOption:
    """One move the rules allow: the ``destination`` and the investigators it heads toward."""

    destination: str
    toward: tuple[str, ...]


@dataclass(frozen=True)
class HunterMove:
    """A hunter's move in the enemy phase: every allowed option, who chooses, and why.

    ``options`` is empty when the hunter stays; ``chooser`` is ``"nobody"`` for
    a single option and ``"the lead investigator"`` when several are tied.

    Rules: Arkham summary (Keywords: Hunter; Key concepts).
    """

    hunter: str
    start: str
    options: tuple[MoveOption, ...]
    chooser: str
    reasons: tuple[str, ...]
    distance: int | None = None

    @property
    def stays(self) -> bool:
        """True when the hunter does not move."""
        return not self.options

    def explain(self) -> str:
        """The move in one paragraph of plain words, with the citation."""
        if self.stays:
            head = f"{self.hunter} stays at {self.start}"
        elif len(self.options) == 1:
            head = f"{self.hunter} moves from {self.start} to {self.options[0].destination}"
        else:
            where = " or ".join(o.destination for o in self.options)
            head = f"{self.hunter} moves from {self.start} to {where}: {self.chooser} chooses"
        return f"{head}. " + " ".join(self.reasons) + f" ({HUNTER_RULE})"


def _stays(hunter: Hunter, why: str) -> HunterMove:
    return HunterMove(hunter.name, hunter.location, (), "nobody", (why,))


def hunter_move(locations: Locations, hunter: Hunter,
                investigators: tuple[Investigator, ...]) -> HunterMove:
    """Where ``hunter`` may move in the enemy phase: every tied option, none picked.

    Rules: Arkham summary (The Enemy Phase step 1; Keywords: Hunter:
    shortest path toward the nearest investigator, prey, then the lead investigator decides).
    """
    start = locations.require(hunter.location, "hunter")
    for i in investigators:
        locations.require(i.location, "investigator")
    if hunter.exhausted:
        return _stays(hunter, "It is exhausted; exhausted hunters do not move.")
    if hunter.engaged:
        return _stays(hunter, "It is engaged; only unengaged hunters move (it goes where its "
                              "investigator goes).")
    here = [i.name for i in investigators if i.location == start]
    if here:
        return _stays(hunter, f"{', '.join(here)} {'is' if len(here) == 1 else 'are'} at its "
                              "location; a hunter with investigators does not move.")
    graph = locations.graph
    away = nx.single_source_shortest_path_length(graph, start)
    reachable = [i for i in investigators if i.location in away]
    if not reachable:
        return _stays(hunter, "No investigator can be reached along the connections.")
    best = min(away[i.location] for i in reachable)
    nearest = tuple(i for i in reachable if away[i.location] == best)
    reasons = [f"Nearest: {', '.join(i.name for i in nearest)}, {best} "
               f"move{'s' if best != 1 else ''} away along the connections."]
    targets = nearest
    if len(nearest) > 1 and hunter.prey is not None:
        targets = hunter.prey.best(nearest)
        verdict = ("picks " + targets[0].name if len(targets) == 1 else
                   "leaves " + ", ".join(i.name for i in targets) + " tied")
        reasons.append(f"Its prey instruction ({hunter.prey.text()}) {verdict}.")
    options = _first_steps(graph, start, targets, best)
    if len(targets) > 1:
        reasons.append("Several investigators are equally near: the lead investigator chooses.")
    elif len(options) > 1:
        reasons.append("Several shortest paths begin differently: the lead investigator chooses.")
    chooser = "the lead investigator" if len(options) > 1 else "nobody"
    return HunterMove(hunter.name, start, options, chooser, tuple(reasons), best)


def _first_steps(graph: nx.DiGraph, start: str, targets: tuple[Investigator, ...],
                 best: int) -> tuple[MoveOption, ...]:
    toward: dict[str, list[str]] = {}
    reverse = graph.reverse(copy=False)
    for investigator in targets:
        back = nx.single_source_shortest_path_length(reverse, investigator.location)
        for step in sorted(graph.successors(start)):
            if back.get(step) == best - 1:
                toward.setdefault(step, []).append(investigator.name)
    return tuple(MoveOption(step, tuple(names)) for step, names in sorted(toward.items()))


def enemy_phase(locations: Locations, hunters: Iterable[Hunter],
                investigators: Iterable[Investigator]) -> tuple[HunterMove, ...]:
    """Step 1 of the enemy phase: each hunter's move from where everyone stands now.

    Hunters never block one another, so each move is read from the same positions.
    Rules: Arkham summary (The Enemy Phase step 1).
    """
    investigators = tuple(investigators)
    return tuple(hunter_move(locations, h, investigators) for h in hunters)


# --- content: content/peers/*.toml of kind "arkham_locations" ------------------------------------


def load_locations(path: str | Path) -> Locations:
    """A location file (``kind = "arkham_locations"``), validated; errors at file:line:col.

    Rules: Arkham summary (Locations; Move: connections).
    """
    toml = read_toml(path)
    expect_kind(toml, "arkham_locations")
    for key in toml.data:
        if key not in ("kind", "name", "location"):
            raise toml.error(None, key, f"unknown key {key!r}; a locations file has 'kind', "
                             "'name' and [location.<id>] tables")
    require(toml, toml.data, None, "name", str, "the scenario's name (text)")
    tables = require(toml, toml.data, None, "location", dict, "tables [location.<id>]")
    connects: dict[str, list[str]] = {}
    titles: dict[str, str] = {}
    for lid, table in tables.items():
        name = check_card_table(toml, "location", lid, table, ("name", "connects"), "a location")
        titles[lid] = require(toml, table, name, "name", str, "the location's name (text)")
        connects[lid] = require(toml, table, name, "connects", list, "a list of location ids")
    for lid, others in connects.items():
        _check_connections(toml, f"location.{lid}", lid, others, connects)
    return Locations.of(connects, titles)


def _check_connections(toml: TomlFile, table: str, lid: str, others: list[Any],
                       connects: Mapping[str, list[Any]]) -> None:
    seen = set()
    for other in others:
        if not isinstance(other, str) or other not in connects:
            raise toml.error(table, "connects", f"{lid} connects to {other!r}, which is not a "
                             f"location here; known: {', '.join(sorted(connects))}")
        if other == lid:
            raise toml.error(table, "connects", f"{lid} cannot connect to itself")
        if other in seen:
            raise toml.error(table, "connects", f"{lid} lists {other!r} twice")
        seen.add(other)


# --- a Machina Arcana map read as Arkham locations ------------------------------------------------

_ROOM_OPEN = frozenset({BorderKind.OPEN, BorderKind.JOINED, BorderKind.DOOR_DESTROYED})
_DOORS = frozenset({BorderKind.DOOR_OPEN, BorderKind.DOOR_CLOSED})


def rooms_as_locations(board: Board) -> tuple[Locations, dict[Point, str]]:
    """A map's rooms as Arkham locations: spaces joined without a wall or door form a room
    (named after its most north-west space), and a door between two rooms connects them both ways.

    Used to compare distance notions on one situation; a room is only an analogy of a location.
    Rules: Arkham summary (Locations; Move: connections).
    """
    rooms = nx.Graph()
    rooms.add_nodes_from(board)
    doors = []
    for a, b, data in board.graph.edges(data=True):
        if data["diagonal"]:
            continue
        if data["border"] in _ROOM_OPEN:
            rooms.add_edge(a, b)
        elif data["border"] in _DOORS:
            doors.append((a, b))
    room_of: dict[Point, str] = {}
    for component in nx.connected_components(rooms):
        corner = min(component, key=lambda p: (p[1], p[0]))
        for p in component:
            room_of[p] = f"room {corner}"
    connects: dict[str, set[str]] = {name: set() for name in room_of.values()}
    for a, b in doors:
        if room_of[a] != room_of[b]:
            connects[room_of[a]].add(room_of[b])
            connects[room_of[b]].add(room_of[a])
    return Locations.of({k: sorted(v) for k, v in connects.items()}), room_of
