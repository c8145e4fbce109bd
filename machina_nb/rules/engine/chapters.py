"""Leaving and re-entering the map between chapters: the last explorer out, the entry token.

When the last surviving explorer exits (manual p28, p34) every monster is
banished, the placed map tiles are shuffled and slid under the map-tile deck
(the shuffle is a chance point of the dice passed in), and the next chapter
comes into play. Its *place entry token* draws the top map tile into the empty
playing area, puts the entry token on that tile's direction symbol and brings
the explorers back on or next to it, the players choosing where; then each
resolves the «enters play» of its unit card and equipped items. On a single fixed map (no playing area)
no tile moves: the entry token is the map's direction symbol. The 3.5 timer
ends an exit-token chapter the same way under ``timer35.exit_chapter =
full_exit_procedure`` (switch timer35.exit_chapter).

Rules: manual p28 (place entry/exit token), p34 (exit map tile), p19 (banish), p20
(«enters play»); switch timer35.exit_chapter.
"""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from machina_nb.rules.cards.abilities import Effect
from machina_nb.rules.engine.cardplay import usable_items
from machina_nb.rules.engine.effects import (destroy_unit, edge_spaces, next_chapter,
                                             remove_exit_token, reset_ratings)
from machina_nb.rules.engine.resolution import Resolution, EffectStep, resolve
from machina_nb.rules.board.maptext import BorderKind, Point
from machina_nb.rules.board.playarea import PlayArea, spaces_at_entry
from machina_nb.rules.engine.state import Deck

__all__ = ["return_tiles", "last_explorer_exits", "everyone_exits", "enter_at_entry_token",
           "place_entry_token_effect", "enters_play", "enter_endgame", "enter_endgame_effect",
           "game_end_effect", "reset_ratings_effect"]

_EXIT = "manual p28 (place exit token: the last explorer out), p34 (exit map tile)"
_ENTRY = "manual p28 (place entry token)"


def return_tiles(r: Resolution, why: str) -> None:
    """Shuffle every placed tile and slide them under the map-tile deck (manual p28, p34).

    Tokens and door changes on the tiles leave with them; the playing area is
    empty until the next *place entry token*.
    Rules: manual p28 (exit token chapters), p34 (exit map tile).
    """
    s = r.state
    area = cast(PlayArea, s.map.area)
    order = r.dice.shuffle(tuple(t.key for t in area.tiles), "the placed map tiles")
    r.set(map=replace(s.map, area=area.clear(order)), destroyed=(), lit=(), borders=(),
          exit_token=None)
    r.emit("tiles", "tiles_returned", _EXIT, words=tuple(order), cause=why)


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
        r.emit("game", "no_entry_token", "manual p28")


def everyone_exits(r: Resolution, why: str) -> None:
    """Every explorer on the map leaves it, then the last-explorer procedure runs.

    The ``full_exit_procedure`` reading of ``timer35.exit_chapter``: the 3.5
    timer advancing an exit-token chapter counts as everyone having exited.
    Rules: manual p28, p34; 3.5 FAQ (exit-token chapters are non-blocking); switch timer35.exit_chapter.
    """
    for e in r.state.explorers_on_map:
        r.state = r.state.update_unit(e.id, position=None)
        r.set(exited=r.state.exited + (e.id,))
        r.emit("exit", "leaves_with_others", "switch timer35.exit_chapter "
               "(full_exit_procedure)", who=(e.id,), cause=why)
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
    3. Each of them then resolves the «enters play» of its unit card and equipped items.
    Rules: manual p28 (place entry token), p20 («enters play»), p22 (adjacent).
    """
    s = r.state
    area = s.map.area
    inside: Point | None
    if area is None:
        symbols = edge_spaces(s, (BorderKind.DIRECTION,))
        inside = symbols[0] if symbols else None
    elif not area.tiles:
        if not area.deck:
            r.emit("entry", "tile_deck_empty", _ENTRY, cause=why)
            return
        area = area.place_entry_token()
        r.set(map=replace(s.map, area=area))
        inside = cast(tuple[Point, Point], area.entry)[0]
        r.emit("entry", "entry_tile_drawn", _ENTRY, where=(inside,),
               words=(area.tiles[0].key,), cause=why)
    else:
        inside = area.entry[0] if area.entry is not None else None
    if inside is None:
        r.emit("entry", "no_direction_symbol" if area is None else "entry_token_scrolled",
               "manual p28, p34", cause=why)
        return
    for who in _seat_at(r, inside, why, _ENTRY):
        enters_play(r, who, why)


def _seat_at(r: Resolution, inside: Point, why: str, rule: str) -> list[str]:
    """Each explorer off the map takes a free space on the entry token ``inside`` or next to
    it, the players choosing; returns those seated (manual p28: place explorers)."""
    entered = []
    for who in r.state.exited:
        free = spaces_at_entry(r.state.unit_board(), inside, r.rules)
        if not free:
            r.emit("entry", "no_entry_space", rule, who=(who,), cause=why)
            break
        space = r.choose(free, f"where {who} enters", rule)
        r.state = r.state.update_unit(who, position=space)
        r.set(exited=tuple(x for x in r.state.exited if x != who))
        r.emit("entry", "enters_map", rule, who=(who,), where=(space,), cause=why)
        entered.append(who)
    return entered


def enters_play(r: Resolution, who: str, why: str) -> None:
    """An explorer placed at the entry token resolves the «enters play» of its unit card and
    of its equipped items, at setup too (manual p8, p28: place entry token; p20).

    Rules: manual p28 (place entry token: resolve «enters play»), p8 (setup), p20
    («enters play» abilities), p32 (equipped items).
    """
    if not r.state.has_unit(who):
        return
    u = r.state.unit(who)
    if u.enters_play:
        resolve(r, u.enters_play, u, None, f"{u.name} enters play ({why})")
    for card in usable_items(r.state, who):
        if card.type != "consumable" and card.enters_play and r.state.has_unit(who):
            resolve(r, card.enters_play, r.state.unit(who), None,
                    f"{card.name} enters play ({why})")


def place_entry_token_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """A chapter's "place entry token": the explorers off the map come back at it (manual p28)."""
    enter_at_entry_token(r, step.label)


_ENDGAME = "manual p28 (enter endgame)"


def enter_endgame(r: Resolution, tile: str | None, why: str) -> None:
    """*Enter endgame*: the endgame tile into play, the explorers on or next to its entry token,
    the scenario's endgame cards played (their «enters play» is the endgame's setup).

    On a playing area the tile side ``tile`` enters apart from the others
    (:meth:`machina_nb.rules.board.playarea.PlayArea.place_endgame`); a fixed map holds its
    endgame already, and its entry token is the map's direction symbol. Every explorer on
    the map leaves it and takes a space on or next to that token, the players choosing. The
    endgame chapter cards set aside at setup then come first in the chapter deck and the
    first is played (:func:`next_chapter`).
    Rules: manual p28 (enter endgame; victory and defeat conditions), p8 (endgame cards and
    tile set aside), p3 (how to win and lose).
    """
    s = r.state
    area = s.map.area
    inside: Point | None
    if area is not None and tile is not None:
        area = area.place_endgame(tile)
        r.set(map=replace(s.map, area=area))
        inside = cast(tuple[Point, Point], area.entry)[0]
        r.emit("endgame", "endgame_tile", _ENDGAME, where=(inside,), words=(tile,), cause=why)
    else:
        symbols = edge_spaces(s, (BorderKind.DIRECTION,))
        inside = symbols[0] if symbols else None
    if inside is not None:
        for e in r.state.explorers_on_map:
            r.state = r.state.update_unit(e.id, position=None)
            r.set(exited=r.state.exited + (e.id,))
        _seat_at(r, inside, why, _ENDGAME)
    else:
        r.emit("endgame", "endgame_no_entry", _ENDGAME, cause=why)
    if r.state.endgame:
        r.set(chapters=Deck(r.state.endgame + r.state.chapters.cards,
                            r.state.chapters.destroyed), endgame=())
        r.emit("endgame", "endgame_cards", _ENDGAME, cause=why)
        next_chapter(r, why)


def enter_endgame_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """A chapter's "enter endgame"; ``key`` names the endgame tile side (manual p28)."""
    enter_endgame(r, e.key, step.label)


def game_end_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """*Victory*: the current chapter flips and every surviving explorer wins; *defeat*: the
    endgame's defeat condition is met and the game is lost (manual p3, p28).

    Rules: manual p28 (victory; enter endgame: defeat condition), p3 (how to win and lose).
    """
    won = e.op == "victory"
    r.set(over="won" if won else "lost")
    r.emit("game", "victory" if won else "defeat",
           "manual p28 (victory), p3" if won else "manual p28 (enter endgame), p3",
           cause=step.label)


def reset_ratings_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """*Reset spawn/horror ratings*: the sliders named (both without ``key``) return to the
    current chapter's defaults (manual p28)."""
    reset_ratings(r, spawn=e.key in (None, "spawn"), horror=e.key in (None, "horror"))
