"""Map-tile actions: :class:`Exit` (leave the map from the exit token) and :class:`Explore`
(join the top map tile at an unexplored edge, with :func:`explorations`), each kind's check,
legal instances and resolution side by side.

Rules: manual p34 (explore, scroll and exit map tile), p12 (their costs), p28 (exit token).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import cast

from machina_nb.rules.board.maptext import Point
from machina_nb.rules.board.playarea import (SIDES, Exploration, PlacedTile, PlayArea,
                                             explore_options)
from machina_nb.rules.engine.actions.core import Action, ActionCost, _fail, _if_legal, _pay, _pay_check
from machina_nb.rules.engine.chapters import last_explorer_exits
from machina_nb.rules.engine.effects import destroy_unit
from machina_nb.rules.engine.resolution import Resolution
from machina_nb.rules.engine.state import GameState, Side, Unit
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

__all__ = ["Exit", "Explore", "explorations", "EXIT_COST", "EXPLORE_COST"]

EXIT_COST = ActionCost(stamina=2)
"""Leaving the map from the exit token's space (manual p12, p34: exit map tile)."""

EXPLORE_COST = ActionCost(stamina=2)
"""Exploring from an unexplored edge (manual p12, p34: explore map tile)."""


@dataclass(frozen=True)
class Exit(Action):
    """Leave the map from the exit token's space for 2 stamina (manual p34)."""

    def _verify(self, state: GameState, rules: Rules, u: Unit) -> None:
        if u.side != Side.EXPLORER or state.exit_token is None or u.position != state.exit_token:
            _fail("actor", f"{u.id} does not stand on the exit token", "manual p34 (exit)")
        _pay_check(state, rules, u, EXIT_COST, (), None, "manual p34 (exit)")

    def _perform(self, r: Resolution, u: Unit) -> None:
        _exit(r, u)

    @classmethod
    def options(cls, state: GameState, rules: Rules, u: Unit) -> list[Action]:
        return _if_legal(state, rules, Exit(u.id))


def _exit(r: Resolution, u: Unit) -> None:
    """The explorer leaves the map; the last one out ends the chapter (manual p28, p34).

    The last surviving explorer's exit banishes every monster, slides the placed
    tiles under the map-tile deck and flips the next chapter, whose «enters play»
    normally places the entry token (:func:`machina_nb.rules.engine.chapters.last_explorer_exits`).
    Rules: manual p34 (exit map tile), p28 (exit token chapters).
    """
    r.state = r.state.update_unit(u.id, position=None, stamina=u.stamina - EXIT_COST.stamina)
    r.set(exited=r.state.exited + (u.id,), active=None, done=r.state.done + (u.id,))
    r.emit("exit", "exits_map", "manual p34 (exit map tile)", who=(u.id,),
           amounts=(EXIT_COST.stamina,))
    if not r.state.explorers_on_map:
        last_explorer_exits(r, "the last explorer exits")


@dataclass(frozen=True)
class Explore(Action):
    """Explore from an unexplored edge for 2 stamina: the top map tile joins there (manual p34).

    ``side`` (N, E, S or W) picks the edge when the actor's space touches two;
    ``option`` picks one of the ways the players choose between (:func:`explorations`),
    and may stay None when there is only one.
    """

    side: str | None = None
    option: int | None = None

    def _verify(self, state: GameState, rules: Rules, u: Unit) -> None:
        _pay_check(state, rules, u, EXPLORE_COST, (), None, "manual p12, p34 (explore)")
        options = explorations(state, rules, u, self.side)
        if self.option is None and len(options) > 1:
            _fail("option", f"the players choose one of {len(options)} ways to explore: "
                  + "; ".join(f"{i}: {o.explain()}" for i, o in enumerate(options)),
                  "manual p34; rulings D19, D20, D21")
        option = self.option or 0
        if isinstance(option, bool) or not isinstance(option, int) or \
                not 0 <= option < len(options):
            _fail("option", f"expected an index below {len(options)}, got {self.option!r}",
                  "manual p34")

    def _perform(self, r: Resolution, u: Unit) -> None:
        _explore(r, u, self)

    @classmethod
    def options(cls, state: GameState, rules: Rules, u: Unit) -> list[Action]:
        return _explore_actions(state, rules, u)


def _explore(r: Resolution, u: Unit, action: Explore) -> None:
    """Scroll (banish, destroy tiles), then draw and join the top map tile (manual p34).

    Tokens, lit chapter spaces, treated spaces and door changes on a scrolled tile leave with it.
    Rules: manual p34 (explore map tile, scroll map tile), p19 (banish).
    """
    chosen = explorations(r.state, r.rules, u, action.side)[action.option or 0]
    _pay(r, u, EXPLORE_COST, (), "exploring", "manual p12, p34 (explore map tile)")
    for monster, _ in chosen.banished:
        destroy_unit(r, monster, None, "its map tile scrolls away", banish=True)
    old = cast(PlayArea, r.state.map.area)
    gone = {p for key in chosen.destroyed for p in _tile_points(old.tile(key))}
    if gone:
        s = r.state
        r.set(destroyed=tuple(p for p in s.destroyed if p not in gone),
              lit=tuple(p for p in s.lit if p not in gone),
              treated=tuple(t for t in s.treated if t[0] not in gone),
              features=tuple(t for t in s.features if t[0] not in gone),
              borders=tuple(b for b in s.borders if not set(b[0]) & gone))
        if s.exit_token in gone:
            r.set(exit_token=None)
        r.emit("scroll", "tiles_scroll_away", "manual p34 (scroll map tile); switch "
               "scroll.destroy", words=tuple(chosen.destroyed))
    r.set(map=replace(r.state.map, area=chosen.area))
    tile = chosen.tile
    r.emit("explore", "explored", "manual p34 (explore map tile); rulings D19, D21",
           where=(chosen.space, tile.origin), words=(tile.key,),
           amounts=(tile.rotation,))
    if chosen.misaligned is not None:
        r.emit("explore", "explore_misaligned", "switch explore.offset (grid_snap)",
               where=chosen.misaligned)
    for token in chosen.tokens_left:
        r.emit("explore", "token_scrolled", "manual p34 (scroll map tile)", words=(token,))


def _tile_points(tile: PlacedTile) -> list[Point]:
    ox, oy = tile.origin
    return [(ox + x, oy + y) for y in range(tile.layout.height) for x in range(tile.layout.width)]


def explorations(state: GameState, rules: Rules, unit: Unit,
                 side: str | None = None) -> tuple[Exploration, ...]:
    """The ways ``unit`` can explore from its space now, in :func:`playarea.explore_options` order.

    The map must be a playing area of map tiles (``MapSpec(area=...)``); the tile
    joins per ``explore.offset``, ``scroll.destroy`` and ``join.other_edges``
    (rulings D19, D20, D21). Raises :class:`RulesError` when exploring is impossible.
    Rules: manual p34 (explore map tile, scroll map tile), p12 (2 stamina).
    """
    area = state.map.area
    if area is None:
        _fail("actor", "this map is a fixed layout without a map-tile deck",
              "manual p34 (explore map tile)")
    if unit.side != Side.EXPLORER or unit.position is None:
        _fail("actor", f"{unit.id} is not an explorer on the map", "manual p34")
    return explore_options(area, state.unit_board(), unit.position, rules,
                           explorers={e.id for e in state.explorers}, side=side)


def _explore_actions(state: GameState, rules: Rules, u: Unit) -> list[Action]:
    """One Explore per edge side and per placement the players may choose (manual p34)."""
    area = state.map.area
    if area is None or u.side != Side.EXPLORER or u.stamina < EXPLORE_COST.stamina:
        return []
    sides = sorted({_SIDE_OF[(o[0] - i[0], o[1] - i[1])]
                    for i, o in area.unexplored_edges() if i == u.position})
    out: list[Action] = []
    for each in sides:
        side = each if len(sides) > 1 else None
        try:
            options = explorations(state, rules, u, side)
        except RulesError:
            continue
        if len(options) == 1:
            out.append(Explore(u.id, side=side))
        else:
            out += [Explore(u.id, side=side, option=i) for i in range(len(options))]
    return out


_SIDE_OF = {step: side for side, step in SIDES.items()}
