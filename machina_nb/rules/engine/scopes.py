"""Who an effect lands on: the scope of an effect and the table of affected units.

Rules: manual p21-23 (map-tile scope, affected units, targeting).
"""

from __future__ import annotations

from machina_nb.rules.board.maptext import Point
from machina_nb.rules.board.terrain import adjacent, nearest_spaces
from machina_nb.rules.cards.abilities import CHOSEN_SCOPES
from machina_nb.rules.engine.state import GameState, Unit
from machina_nb.rules.rulings import Rules

__all__ = ["units_in_scope"]


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
    side = "explorer" if scope.startswith("explorers") else "monster"
    units = [u for u in state.units if u.side == side and u.position is not None]
    if scope.endswith("on_tile") and user is not None and user.position is not None:
        tile = state.tile_of(user.position)
        units = [u for u in units if state.tile_of(u.position) == tile]
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
        where = {state.unit(m).position: m for m in units}
        nearest = set(nearest_spaces(state.static_board(), user.position, sorted(where), rules))
        return tuple(m for m in units if state.unit(m).position in nearest)
    return units

