"""What an effect lands on: the targets an ability may take, the units an effect's scope
covers, and what of an ability's cost is still unpaid (the legality questions that both the
actions and the mindless monster ask).

Rules: manual p20-23 (abilities, targeting, icons, map-tile scope, affected units),
p26-27 (costs: destroy, markers).
"""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from machina_nb.rules.board import sight
from machina_nb.rules.board.maptext import Point, SpaceKind
from machina_nb.rules.board.terrain import adjacent, nearest_spaces, neighbours
from machina_nb.rules.cards.abilities import CHOSEN_SCOPES, Ability
from machina_nb.rules.engine.cardplay import (can_target_ethereal, card_of, explorer_sources,
                                              marker_holder, marker_on)
from machina_nb.rules.engine.state import GameState, Side, Unit
from machina_nb.rules.rulings import Rules

__all__ = ["SPACE_TARGETS", "card_key", "ability_targets", "destroy_options", "unpaid_cost",
           "units_in_scope"]

SPACE_TARGETS = {"chest": SpaceKind.CHEST, "event": SpaceKind.EVENT, "lever": SpaceKind.LEVER,
                 "chapter": SpaceKind.CHAPTER}
"""The kind of space each space-target of an ability stands for (manual p23)."""


def card_key(state: GameState, unit: Unit, index: int, ability: Ability) -> str:
    """The card an ability of ``unit`` is on: its unit card, an item or a bound event."""
    if unit.side == Side.EXPLORER:
        return explorer_sources(state, unit)[index][0]
    return card_of(state, unit, ability)


def ability_targets(state: GameState, rules: Rules, unit: Unit,
                    ability: Ability) -> tuple[Point, ...] | None:
    """Legal target spaces of an ability, sorted; None when it takes no target (manual p20, p23).

    Melee: the unit's own space and adjacent spaces. Ranged X: within range X
    with a clear line (:func:`machina_nb.rules.board.sight.can_target`). Ethereal
    units need a lit chapter space on the user's tile (manual p25, p36).
    Rules: manual p20 (legal target), p22-23 (targeting), p25 (ethereal).
    """
    t = ability.targeting
    if t.kind == "none" or unit.position is None:
        return None
    if unit.side == Side.MONSTER and t.target == "explorer" and state.controller(unit.id):
        t = replace(t, target="unit")      # a controlled monster may attack anyone (p25)
    here = unit.position
    if t.kind == "melee":
        spaces = (here,) + neighbours(state.static_board(), here, rules)
    else:
        board = state.unit_board()
        ethereal = tuple(u.id for u in state.units if u.ethereal)
        if t.target in ("explorer", "monster", "unit"):
            candidates = [u.position for u in state.units if u.position is not None]
            if t.target == "unit":
                candidates += [p for p in board if state.is_kind(p, SpaceKind.BARREL)]
        else:
            candidates = list(board)
        spaces = tuple(p for p in candidates if sight.can_target(
            board, here, p, rules, t.kind, t.range, ethereal, True).legal)
    out = []
    standing = {u.position: u for u in state.units if u.position is not None}
    for p in spaces:
        u = standing.get(p)
        if t.target in ("explorer", "monster", "unit"):
            if u is None and t.target == "unit" and state.is_kind(p, SpaceKind.BARREL):
                out.append(p)       # a barrel counts as a unit that can only be attacked (p35)
                continue
            if u is None or (t.target != "unit" and u.side != t.target):
                continue
            if u.ethereal and u.id != unit.id and not can_target_ethereal(state, unit, rules):
                continue
        elif t.target != "space":
            if not state.is_kind(p, SPACE_TARGETS[t.target]):
                continue
        out.append(p)
    return tuple(sorted(out))


def destroy_options(state: GameState, rules: Rules, unit: Unit, kind: str) -> tuple[Point, ...]:
    """Adjacent spaces of ``kind`` (event, lever, chest) a destroy cost may destroy, sorted;
    destroyed spaces are not among them (manual p23, p35).

    Rules: manual p23 (advanced examples: destroy an adjacent trap lever), p26 (cost).
    """
    if unit.position is None:
        return ()
    return tuple(sorted(q for q in neighbours(state.static_board(), unit.position, rules)
                        if state.is_kind(q, SPACE_TARGETS[kind])))


def unpaid_cost(state: GameState, rules: Rules, unit: Unit, index: int,
                ability: Ability) -> tuple[str, str] | None:
    """Why the destroy or marker part of ``ability``'s cost cannot be paid now, as
    ``(message, rule)``, or None: no adjacent space of the kind left, a card that cannot be
    destroyed, no marker of the unit's on the card (manual p23, p26, p27).

    Rules: manual p23 (advanced examples), p26 (a cost, not a condition), p27 (markers).
    """
    cost = ability.cost
    if not (cost.destroy or cost.marker):
        return None
    key = card_key(state, unit, index, ability)
    if cost.destroys_space and not destroy_options(state, rules, unit,
                                                             cast(str, cost.destroy)):
        return (f"{ability.name} costs destroying an adjacent {cost.destroy} space and none is "
                "left", "manual p23, p26 (cost, not condition)")
    if cost.destroy == "card" and not key.startswith(("bound:", "item:")):
        return (f"{ability.name} destroys its card, and {key} is not a card that can be "
                "destroyed here", "manual p20 (destroy icon), p27")
    if cost.marker and marker_on(state, marker_holder(unit), key) is None:
        return (f"{ability.name} costs returning {marker_holder(unit)}'s marker from {key}, "
                "and there is none on it", "manual p27 (marker removal as a cost)")
    return None


# --- who an effect lands on: the scope of an effect and the table of affected units -----------

def units_in_scope(state: GameState, rules: Rules, scope: str, user: Unit | None,
                   target: Point | None, second: Point | None = None) -> tuple[str, ...]:
    """Who an effect lands on (manual p21-23: map-tile scope and the table of affected units).

    With no owner and no activating unit, a tile scope covers every tile (manual p22).
    For the scopes where the players pick one unit (:data:`~machina_nb.rules.cards.abilities.
    CHOSEN_SCOPES`) these are the candidates: the nearest monsters on the user's tile
    (a direct count, ties to the players), the monsters on its tile or on every tile,
    the monsters adjacent to the targeted space (manual p23), the explorers on its tile
    (manual p21-22).
    """
    if scope in ("target", "second_target"):
        point = target if scope == "target" else second
        u = state.unit_at(point) if point is not None else None
        return (u.id,) if u else ()
    if scope in CHOSEN_SCOPES:
        return _candidates(state, rules, scope, user, target)
    if scope == "self":
        return (user.id,) if user is not None and state.has_unit(user.id) else ()
    if scope == "units_adjacent":
        if user is None or user.position is None:
            return ()
        board = state.static_board()
        return tuple(u.id for u in state.units if u.position is not None and u.id != user.id
                     and adjacent(board, user.position, u.position, rules))
    side = Side.EXPLORER if scope.startswith("explorers") else Side.MONSTER
    units = [u for u in state.units if u.side == side and u.position is not None]
    if scope.endswith("on_tile") and user is not None and user.position is not None:
        tile = state.tile_of(user.position)
        units = [u for u in units if state.tile_of(cast(Point, u.position)) == tile]
    return tuple(u.id for u in units)


def _candidates(state: GameState, rules: Rules, scope: str, user: Unit | None,
                target: Point | None) -> tuple[str, ...]:
    if scope == "any_monster_adjacent_target":
        if target is None:
            return ()
        board = state.static_board()
        return tuple(m.id for m in state.monsters_in_play if m.position is not None
                     and adjacent(board, target, m.position, rules))
    units = units_in_scope(state, rules, {"any_monster_any_tile": "monsters_all_tiles",
                                          "any_explorer_on_tile": "explorers_on_tile"}.get(
                               scope, "monsters_on_tile"), user, target)
    if scope == "nearest_monster" and user is not None and user.position is not None:
        where = {cast(Point, state.unit(m).position): m for m in units}
        nearest = set(nearest_spaces(state.static_board(), user.position, sorted(where), rules))
        return tuple(m for m in units if state.unit(m).position in nearest)
    return units
