"""Effects on map spaces: destroying and refreshing spaces, the exit token on an unexplored
edge, doors, and trapped spaces.

Rules: manual p22 (targeting doors), p28 (place exit token), p34 (exit), p35 (destroy and
refresh map space), p36 (doors, seal spawn space), p37 (trigger traps); 3.5 (trigger traps).
"""

from __future__ import annotations

from dataclasses import replace

from collections.abc import Collection
from typing import cast

from machina_nb.rules.board.maptext import BorderKind, Point, SpaceKind
from machina_nb.rules.board.sight import adjacent_borders
from machina_nb.rules.board.terrain import adjacent
from machina_nb.rules.cards.abilities import Effect
from machina_nb.rules.engine.effects.chapters import chapter_key
from machina_nb.rules.engine.effects.combat import attack, destroy_unit
from machina_nb.rules.engine.resolution import Resolution, EffectStep
from machina_nb.rules.engine.state import GameState, Side, Unit

__all__ = [
    "destroy_map_space", "destroyed_tokens", "refresh_space", "edge_spaces", "place_exit_token",
    "remove_exit_token", "set_door", "close_target_door", "trigger_traps",
    "destroy_target_effect", "refresh_space_effect", "place_exit_token_effect",
    "close_door_effect", "trigger_traps_effect", "chapter_trap_activator",
]


# --- destroying and refreshing spaces ---------------------------------------------------------

def destroy_map_space(r: Resolution, space: Point, killer: str | None, why: str) -> None:
    """Destroy a map space: a destroyed token on it; a spawn space takes two tokens and the
    unit standing on it is destroyed (manual p35, as sealing does, p36).

    Rules: manual p35 (destroy map space), p36 (seal spawn space), p19 (destroyed units).
    """
    if r.state.is_kind(space, SpaceKind.SPAWN):
        occupant = r.state.unit_at(space)
        if occupant is not None:
            destroy_unit(r, occupant.id, killer, f"{why}: the destroyed spawn space destroys "
                         "its unit")
        r.set(destroyed=r.state.destroyed + (space, space))
        r.emit("destroy", "spawn_space_destroyed",
               "manual p35 (destroy map space: a spawn space takes two)", where=(space,),
               cause=why)
        return
    r.set(destroyed=r.state.destroyed + (space,))
    r.emit("destroy", "space_destroyed", "manual p35", where=(space,), cause=why)


def destroyed_tokens(state: GameState, space: Point) -> int:
    """How many destroyed tokens lie on a space (a sealed spawn space holds two, manual p36)."""
    return state.destroyed.count(tuple(space))


def refresh_space(r: Resolution, space: Point, why: str) -> None:
    """Refresh map space: its tokens come off — all of them, the light token too
    (``refresh.removes = all_tokens``, manual p35) or only destroyed tokens
    (``destroyed_tokens``, the index; switch refresh.removes).

    Rules: manual p35 (refresh map space); switch refresh.removes.
    """
    s = r.state
    removed = ["destroyed"] if space in s.destroyed else []
    r.set(destroyed=tuple(p for p in s.destroyed if p != space))
    if r.rules["refresh.removes"] == "all_tokens" and space in s.lit:
        r.set(lit=tuple(p for p in s.lit if p != space))
        removed.append("light")
    r.emit("refresh", "refreshed", "manual p35 (refresh map space); switch refresh.removes",
           where=(space,), words=removed, cause=why)

# --- edges and the exit token -----------------------------------------------------------------

def edge_spaces(state: GameState,
                kinds: Collection[BorderKind] = (BorderKind.EDGE, BorderKind.DIRECTION)
                ) -> tuple[Point, ...]:
    """Spaces on an unexplored edge of the map (its outer ring), sorted (manual p11, p28, p34).

    Rules: manual p11 (edges), p28 (entry and exit tokens), p34 (explore, exit).
    """
    return state.map.ring_spaces(kinds)


def place_exit_token(r: Resolution, user: Unit | None, why: str) -> None:
    """The activating explorer puts the exit token on an unexplored edge, not the entry's (p28).

    On a playing area of map tiles the token lies on one unexplored edge of the
    placed tiles, which can then not be explored (manual p34).
    Rules: manual p28 (place exit token).
    """
    area = r.state.map.area
    if area is None:
        entry = set(edge_spaces(r.state, (BorderKind.DIRECTION,)))
        options = [p for p in edge_spaces(r.state, (BorderKind.EDGE,)) if p not in entry]
    else:
        options = sorted({edge[0] for edge in area.exit_options()})
    if not options:
        r.emit("exit", "no_exit_edge", "manual p28", cause=why)
        return
    space = r.choose(options, "the edge for the exit token", "manual p28 (place exit token)")
    r.set(exit_token=space)
    if area is not None:
        edge = next(e for e in area.exit_options() if e[0] == space)
        r.set(map=replace(r.state.map, area=area.place_exit_token(edge)))
    r.emit("exit", "exit_token", "manual p28, p36", where=(space,), cause=why)


def remove_exit_token(r: Resolution) -> None:
    """Take the exit token off the map, and off the playing area's edge when there is one.

    Rules: manual p28 (place exit token), p34 (exit map tile).
    """
    r.set(exit_token=None)
    area = r.state.map.area
    if area is not None and area.exit is not None:
        r.set(map=replace(r.state.map, area=replace(area, exit=None)))

# --- doors ------------------------------------------------------------------------------------

def set_door(r: Resolution, a: Point, b: Point, kind: BorderKind) -> None:
    """The door between ``a`` and ``b`` becomes ``kind`` (open, closed or destroyed; manual p36).

    Rules: manual p36 (doors), p22 (a door on a space's border).
    """
    key = tuple(sorted((a, b)))
    r.set(borders=tuple(x for x in r.state.borders if x[0] != key) + ((key, kind),))


def close_target_door(r: Resolution, space: Point, why: str) -> None:
    """Close an open door on a border of the targeted space; with several, the players choose
    (manual p22: a door ability targets a space that has the door on one of its borders).

    Rules: manual p22 (targeting doors), p36 (doors).
    """
    doors = sorted(pair for pair, kind in adjacent_borders(r.state.static_board(), space)
                   if kind is BorderKind.DOOR_OPEN)
    if not doors:
        r.emit("door", "no_open_door", "manual p22", where=(space,), cause=why)
        return
    a, b = r.choose(doors, f"which door of {space} closes", "manual p22 (target door)")
    set_door(r, a, b, BorderKind.DOOR_CLOSED)
    r.emit("door", "door_closes", "manual p22, p36", where=(a, b), cause=why)

# --- traps ------------------------------------------------------------------------------------

def trigger_traps(r: Resolution, activator: Unit | None, lever: Point | None) -> None:
    """3 high dice at every unit on a trapped space of the activator's tile, then the
    secondary attacks by ``traps.secondary`` / ``traps.secondary_levers`` (rulings C-10, D35).

    Rules: manual p37 (trigger traps), 3.5 §Trigger Traps.
    """
    s = r.state
    trapped = s.map.spaces(SpaceKind.TRAPPED)

    def _victims(tile: str | Point | None) -> tuple[str, ...]:
        return tuple(u.id for u in r.state.units if u.position in trapped and
                     (tile is None or r.state.tile_of(u.position) == tile))

    tile = s.tile_of(cast(Point, activator.position)) if activator is not None else None
    who = activator.id if activator is not None else None
    attack(r, who, _victims(tile), 3, 0, False, why="trigger traps (primary)")
    reading = r.rules["traps.secondary"]
    if reading == "none":
        return
    levers = list(s.map.spaces(SpaceKind.LEVER))
    if r.rules["traps.secondary_levers"] == "other_nondestroyed":
        levers = [p for p in levers if p != lever and p not in r.state.destroyed]
    board = r.state.static_board()
    helpers = [e for e in r.state.explorers_on_map if e.id != who and
               any(adjacent(board, cast(Point, e.position), p, r.rules) for p in levers)]
    if not helpers:
        return
    if reading == "per_explorer_own_tile":
        for e in helpers:
            if r.state.has_unit(e.id):
                attack(r, e.id, _victims(r.state.tile_of(cast(Point, e.position))), 0, 3, False,
                       why=f"trigger traps (secondary, {e.id})")
    else:
        attack(r, None, _victims(tile if reading == "once_activating_tile" else None), 0, 3,
               False, why="trigger traps (secondary)")

# --- handlers of map-space effects (the table is vocabulary.EFFECT_HANDLERS) ------------------

def destroy_target_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """Destroy the unit on the targeted space, or destroy the space itself (manual p35).

    Rules: manual p35 (destroy map space: a spawn space takes two tokens and its unit is
    destroyed), p19 (destroyed units).
    """
    target = step.target
    if target is None:
        return
    uid = step.user.id if step.user is not None else None
    if r.state.is_kind(target, SpaceKind.SPAWN):
        destroy_map_space(r, target, uid, step.label)
    elif r.state.unit_at(target) is not None:
        destroy_unit(r, cast(Unit, r.state.unit_at(target)).id, uid, step.label)
    else:
        destroy_map_space(r, target, uid, step.label)


def refresh_space_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """Refresh the targeted map space (manual p35)."""
    if step.target is not None:
        refresh_space(r, cast(Point, tuple(step.target)), step.label)


def place_exit_token_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """A card's "place exit token" (manual p28)."""
    place_exit_token(r, step.user, step.label)


def close_door_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """Close an open door on a border of the targeted space (manual p22)."""
    if step.target is not None:
        close_target_door(r, step.target, step.label)


def trigger_traps_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """A card's "trigger traps" (manual p37); from a chapter's «enters play», see
    :func:`chapter_trap_activator`."""
    activator = step.user if step.user is not None else chapter_trap_activator(r)
    trigger_traps(r, activator, None)


def chapter_trap_activator(r: Resolution) -> Unit | None:
    """Who activates the traps a new chapter's «enters play» sets off: nobody, so the traps on
    every tile (``none``: the card has no owner and no activating unit), or the explorer whose
    action flipped the chapter, the traps of their own tile only (``flipping_explorer``).

    Rules: manual p21 (an «enters play» ability of a chapter has neither owner nor activating
    unit: every map tile), p37 (trigger traps: the activating unit's tile; with none, all
    tiles); switch traps.chapter_activator.
    """
    s = r.state
    if r.rules["traps.chapter_activator"] == "none" or r.card != chapter_key(s.chapter.id):
        return None
    if r.actor is None or not s.has_unit(r.actor):
        return None
    u = s.unit(r.actor)
    return u if u.side == Side.EXPLORER and u.position is not None else None
