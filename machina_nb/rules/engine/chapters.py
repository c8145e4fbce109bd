"""Leaving and re-entering the map between chapters: the last explorer out, the entry token.

When the last surviving explorer exits (manual p28, p34) every monster is
banished, the placed map tiles are shuffled and slid under the map-tile deck
(the shuffle is a chance point of the dice passed in), and the next chapter
comes into play. Its *place entry token* draws the top map tile into the empty
playing area, puts the entry token on that tile's direction symbol and brings
the explorers back on or next to it, the players choosing where; then each
resolves its unit card's «enters play». On a single fixed map (no playing area)
no tile moves: the entry token is the map's direction symbol. The 3.5 timer
ends an exit-token chapter the same way under ``timer35.exit_chapter =
full_exit_procedure`` (switch timer35.exit_chapter).

Rules: manual p28 (place entry/exit token), p34 (exit map tile), p19 (banish), p20
(«enters play»); switch timer35.exit_chapter.
"""

from __future__ import annotations

from dataclasses import replace

from machina_nb.rules.cards.abilities import Effect
from machina_nb.rules.engine.effects import destroy_unit, edge_spaces, next_chapter, remove_exit_token
from machina_nb.rules.engine.resolution import Resolution, Step, resolve
from machina_nb.rules.board.maptext import BorderKind
from machina_nb.rules.board.playarea import spaces_at_entry

__all__ = ["return_tiles", "last_explorer_exits", "everyone_exits", "enter_at_entry_token",
           "place_entry_token_effect"]

_EXIT = "manual p28 (place exit token: the last explorer out), p34 (exit map tile)"
_ENTRY = "manual p28 (place entry token)"


def return_tiles(r: Resolution, why: str) -> None:
    """Shuffle every placed tile and slide them under the map-tile deck (manual p28, p34).

    Tokens and door changes on the tiles leave with them; the playing area is
    empty until the next *place entry token*.
    Rules: manual p28 (exit token chapters), p34 (exit map tile).
    """
    s = r.state
    area = s.map.area
    order = r.dice.shuffle(tuple(t.key for t in area.tiles), "the placed map tiles")
    r.set(map=replace(s.map, area=area.clear(order)), destroyed=(), lit=(), borders=(),
          exit_token=None)
    r.emit("tiles", f"{why}: the placed tiles are shuffled and slid under the map-tile deck "
           f"in the order {', '.join(order)}", _EXIT)


def last_explorer_exits(r: Resolution, why: str) -> None:
    """No explorer is left on the map: banish every monster, return the tiles, next chapter.

    On a playing area of tiles every placed tile goes under the deck
    (:func:`return_tiles`); on a fixed map only the exit token is removed. The
    new chapter's «enters play» normally places the entry token, which brings
    the explorers back; if it does not, no explorer is on the map and the game
    stops there.
    Rules: manual p28 (exit token chapters), p34 (exit map tile), p19 (banish).
    """
    for m in r.state.queue:
        destroy_unit(r, m, None, why, banish=True)
    if r.state.map.area is not None:
        return_tiles(r, why)
    else:
        remove_exit_token(r)
    next_chapter(r, why)
    if not r.state.explorers_on_map and not r.state.over:
        r.set(over="no explorer on the map")
        r.emit("game", "the new chapter places no entry token: no explorer on the map",
               "manual p28")


def everyone_exits(r: Resolution, why: str) -> None:
    """Every explorer on the map leaves it, then the last-explorer procedure runs.

    The ``full_exit_procedure`` reading of ``timer35.exit_chapter``: the 3.5
    timer advancing an exit-token chapter counts as everyone having exited.
    Rules: manual p28, p34; 3.5 FAQ (exit-token chapters are non-blocking); switch timer35.exit_chapter.
    """
    for e in r.state.explorers_on_map:
        r.state = r.state.update_unit(e.id, position=None)
        r.set(exited=r.state.exited + (e.id,))
        r.emit("exit", f"{why}: {e.id} leaves the map with the others",
               "switch timer35.exit_chapter (full_exit_procedure)")
    last_explorer_exits(r, why)


def enter_at_entry_token(r: Resolution, why: str) -> None:
    """*Place entry token*: a fresh tile if the area is empty, the explorers back, «enters play».

    1. An empty playing area draws the top map tile, unturned, with the entry
       token on its direction symbol (never at setup: that is the bottom tile,
       manual p8). With tiles still placed (the exit token was only removed,
       switch timer35.exit_chapter) no tile is drawn and the entry token stays where it is. A
       fixed map's entry token is its direction symbol.
    2. Each explorer off the map takes a free space on the token or next to it,
       the players choosing (:func:`machina_nb.rules.board.playarea.spaces_at_entry`).
    3. Each of them then resolves its unit card's «enters play».
    Rules: manual p28 (place entry token), p20 («enters play»), p22 (adjacent).
    """
    s = r.state
    area = s.map.area
    if area is None:
        symbols = edge_spaces(s, (BorderKind.DIRECTION,))
        inside = symbols[0] if symbols else None
    elif not area.tiles:
        if not area.deck:
            r.emit("entry", f"{why}: the map-tile deck is empty: no tile to enter", _ENTRY)
            return
        area = area.place_entry_token()
        r.set(map=replace(s.map, area=area))
        inside = area.entry[0]
        r.emit("entry", f"{why}: the top map tile {area.tiles[0].key} is drawn into the "
               f"playing area; the entry token goes on its direction symbol at {inside}", _ENTRY)
    else:
        inside = area.entry[0] if area.entry is not None else None
    if inside is None:
        r.emit("entry", f"{why}: " + ("the map has no direction symbol for the entry token"
                                      if area is None else "the entry token left the map with "
                                      "its scrolled tile"), "manual p28, p34")
        return
    entered = []
    for who in r.state.exited:
        free = spaces_at_entry(r.state.unit_board(), inside, r.rules)
        if not free:
            r.emit("entry", f"{why}: no free space on or next to the entry token for {who}",
                   _ENTRY)
            break
        space = r.choose(free, f"where {who} enters", _ENTRY)
        r.state = r.state.update_unit(who, position=space)
        r.set(exited=tuple(x for x in r.state.exited if x != who))
        r.emit("entry", f"{why}: {who} enters the map on {space}", _ENTRY)
        entered.append(who)
    for who in entered:
        if r.state.has_unit(who) and r.state.unit(who).enters_play:
            u = r.state.unit(who)
            resolve(r, u.enters_play, u, None, f"{u.name} enters play")


def place_entry_token_effect(r: Resolution, e: Effect, step: Step) -> None:
    """A chapter's "place entry token": the explorers off the map come back at it (manual p28)."""
    enter_at_entry_token(r, step.label)
