"""The state machine: ``legal_actions(state, rules)`` and ``apply(state, action, rules, dice)``.

Actions are frozen records naming their actor. Each kind of action is one class that
owns its rule: ``verify`` refuses it when illegal now, ``perform`` resolves it, and
``options`` lists its legal instances for a unit, side by side in the module of its subject;
:func:`check`, :func:`apply` and :func:`legal_actions` are thin loops over the kinds
(:data:`TURN_ACTIONS`). :func:`apply`
checks an action (refusing an illegal one with a :class:`RulesError` naming the rule it
breaks, the state untouched), resolves it, then steps the round's phases until
the players have a decision (:func:`machina_nb.rules.engine.phases.advance`). It
returns the new state and the events, each citing its rule. Rolls come from
the dice passed in (:mod:`machina_nb.rules.engine.chance`): scripted, seeded, or left
open as a chance point.

When the resolution reaches a choice the action's ``choices`` do not answer (a tied spawn
space after the roll, where a push stops, which item deck...), :func:`apply` returns the
state before the action carrying that :class:`~machina_nb.rules.engine.state.Decision`:
the game waits, :func:`legal_actions` lists one :class:`Choose` per option and nothing
else, and applying one resolves the action again with that choice and the same dice.

:func:`legal_actions` lists, in this order: the phase's turn actions
(``StartTurn`` for each explorer yet to act, seating order; ``RollSpawn`` per
eligible explorer; ``RollHorror``; ``MonsterAct``, one per way the players may answer
the ties of the mindless monster's plan); then the active unit's actions — ``Move`` (destinations
sorted), ``Door`` (open, close, destroy), the actions on each adjacent space
(``Activate``, ``ChapterSpace``, ``SealSpawn``; space by space in the board's order of
neighbours), ``Exit``, ``Explore`` (per edge side, then per placement the players
choose), ``UseInventory``, ``Trade``, ``PlayAbility`` (by ability, then target) and
``EndTurn``; then abilities other explorers may play outside their turn (no
stamina cost). An action with an essence cost is listed once for each way the
explorers may share it (:func:`essence_splits`): the actor alone first when they can pay it,
then each split among the explorers who may contribute, least contributed first.

The package, one module per subject, imports running one way (``core`` imports none of the
others; ``kinds`` imports them all):

- :mod:`.core`: the :class:`Action` base, :class:`ActionCost`, the shared checks and payment,
  :func:`check`, :func:`apply` and :class:`Choose`;
- :mod:`.movement`: :class:`Move` (and :func:`through_moves`), :class:`Door`;
- :mod:`.maptiles`: :class:`Exit`, :class:`Explore` (and :func:`explorations`);
- :mod:`.spaces`: :class:`Activate`, :class:`ChapterSpace`, :class:`SealSpawn` and the
  costs of the spaces;
- :mod:`.abilities`: :class:`PlayAbility`, :func:`explorer_abilities`, the targets;
- :mod:`.items`: :class:`UseInventory`, :class:`Trade`;
- :mod:`.turns`: :class:`StartTurn`, :class:`EndTurn`, :class:`RollSpawn`,
  :class:`RollHorror`, :class:`MonsterAct`;
- :mod:`.kinds`: the kinds in order (:data:`ACTION_KINDS`) and :func:`legal_actions`.

Rules: manual p10-16 (round and phases), p12 (explorer actions and costs), p18-19
(essence, contributing explorers), p20-29 (abilities, chapters), p34-37 (map
actions, action spaces); 3.5 §Updated Action Spaces.
"""

from machina_nb.rules.engine.actions.abilities import (PlayAbility, explorer_abilities,
                                                       play_targets, second_targets)
from machina_nb.rules.engine.actions.core import (Action, Choose, ActionCost, apply, check, contributors,
                                                 essence_splits)
from machina_nb.rules.engine.actions.items import Trade, UseInventory
from machina_nb.rules.engine.actions.kinds import (ACTION_KINDS, SPACE_ACTIONS, TURN_ACTIONS,
                                                   legal_actions)
from machina_nb.rules.engine.actions.maptiles import Exit, Explore, explorations
from machina_nb.rules.engine.actions.movement import Door, Move, through_moves
from machina_nb.rules.engine.actions.spaces import (ACTION_SPACE_COSTS, Activate, ChapterSpace,
                                                    SealSpawn)
from machina_nb.rules.engine.actions.turns import (EndTurn, MonsterAct, RollHorror, RollSpawn,
                                                   StartTurn)

__all__ = [
    "Action", "StartTurn", "EndTurn", "Move", "Door", "Activate", "ChapterSpace", "SealSpawn",
    "TURN_ACTIONS", "SPACE_ACTIONS",
    "Exit", "Explore", "UseInventory", "Trade",
    "PlayAbility", "RollSpawn", "RollHorror", "MonsterAct", "Choose", "ACTION_KINDS",
    "legal_actions", "apply", "check",
    "contributors", "essence_splits", "explorer_abilities", "explorations", "ACTION_SPACE_COSTS",
    "second_targets", "play_targets", "through_moves", "ActionCost",
]
