"""The kinds of action in their documented order, and :func:`legal_actions`, the loop over
them (above every subject module, so that none of them imports it).

Rules: manual p10-16 (who acts when), p12 (explorer actions), p36-37 (space actions).
"""

from __future__ import annotations

from typing import cast

from machina_nb.rules.board.maptext import Point
from machina_nb.rules.board.terrain import neighbours
from machina_nb.rules.engine.actions.abilities import PlayAbility, _abilities_for
from machina_nb.rules.engine.actions.core import Action, Choose, check_state
from machina_nb.rules.engine.actions.items import Trade, UseInventory
from machina_nb.rules.engine.actions.maptiles import Exit, Explore
from machina_nb.rules.engine.actions.movement import Door, Move
from machina_nb.rules.engine.actions.spaces import Activate, ChapterSpace, SealSpawn
from machina_nb.rules.engine.actions.turns import (EndTurn, MonsterAct, RollHorror, RollSpawn,
                                                   StartTurn, _monster_acts)
from machina_nb.rules.engine.phases import current_monster, spawn_rollers
from machina_nb.rules.engine.state import GameState, PhaseName, Unit
from machina_nb.rules.rulings import Rules

__all__ = ["SPACE_ACTIONS", "TURN_ACTIONS", "ACTION_KINDS", "legal_actions"]


SPACE_ACTIONS: tuple[type[Activate] | type[ChapterSpace] | type[SealSpawn], ...] = (
    Activate, ChapterSpace, SealSpawn)
"""The actions on an adjacent space: each names the space kinds it uses (manual p36-37)."""


TURN_ACTIONS = (Move, Door, SPACE_ACTIONS, Exit, Explore, UseInventory, Trade, PlayAbility,
                EndTurn)
"""The kinds a unit may take on its turn, in the order :func:`legal_actions` lists them; the
space actions are listed together, per adjacent space in the board's order of neighbours."""


ACTION_KINDS: tuple[type[Action], ...] = (
    StartTurn, Move, Door, *SPACE_ACTIONS, Exit, Explore, UseInventory, Trade, PlayAbility,
    EndTurn, RollSpawn, RollHorror, MonsterAct, Choose)
"""Every kind of action (a saved state waiting for a choice holds the action it resolves)."""


def legal_actions(state: GameState, rules: Rules) -> tuple[Action, ...]:
    """Every legal action now, in the order the module docstring documents.

    Rules: manual p10-16 (who acts when), p12 (explorer actions).
    """
    check_state(state, rules)
    if state.over:
        return ()
    if state.decision is not None:
        return tuple(Choose(option=o) for o in state.decision.options)
    out: list[Action] = []
    if state.phase == PhaseName.EXPLORER and state.active is None:
        out += [StartTurn(e.id) for e in state.explorers_on_map if e.id not in state.done]
    elif state.phase == PhaseName.SPAWN:
        out += [RollSpawn(e.id) for e in spawn_rollers(state, rules)]
    elif state.phase == PhaseName.HORROR and state.horror_rating is not None and \
            "horror" not in state.done:
        out.append(RollHorror())
    elif state.phase == PhaseName.MONSTER:
        m = current_monster(state)
        if m is not None and not state.player_driven(m):
            out += _monster_acts(state, rules, m, ())
    actor = state.active if state.phase == PhaseName.EXPLORER else None
    if state.phase == PhaseName.MONSTER and current_monster(state) is not None and \
            state.player_driven(cast(str, current_monster(state))):
        actor = current_monster(state)
    if actor is not None:
        out += _unit_actions(state, rules, state.unit(actor))
    for e in state.explorers_on_map:
        if e.id != state.active:
            out += _abilities_for(state, rules, e, free_only=True)
    return tuple(out)


def _unit_actions(state: GameState, rules: Rules, u: Unit) -> list[Action]:
    """Every kind's legal instances for the unit on its turn, in :data:`TURN_ACTIONS` order."""
    out: list[Action] = []
    for kind in TURN_ACTIONS:
        out += _space_actions(state, rules, u) if kind is SPACE_ACTIONS else \
            cast(type[Action], kind).options(state, rules, u)
    return out


def _space_actions(state: GameState, rules: Rules, u: Unit) -> list[Action]:
    """The actions on each adjacent space, in the board's order of neighbours (p36-37)."""
    by_kind = {kind: action for action in SPACE_ACTIONS for kind in action.spaces}
    out: list[Action] = []
    for q in neighbours(state.static_board(), cast(Point, u.position), rules):
        action = by_kind.get(state.space_kind(q))
        if action is not None:
            out += action.at(state, rules, u, q)
    return out
