"""The state machine: ``legal_actions(state, rules)`` and ``apply(state, action, rules, dice)``.

Actions are frozen records naming their actor. Each kind of action is one class that
owns its rule: ``verify`` refuses it when illegal now, ``perform`` resolves it, and
``options`` lists its legal instances for a unit; :func:`check`, :func:`apply` and
:func:`legal_actions` are thin loops over the kinds (:data:`TURN_ACTIONS`). :func:`apply`
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
stamina cost). Essence costs list the form where the actor pays; any split
among eligible contributors is also legal (:func:`contributors`).

Rules: manual p10-16 (round and phases), p12 (explorer actions and costs), p18-19
(essence, contributing explorers), p20-29 (abilities, chapters), p34-37 (map
actions, action spaces); 3.5 §Updated Action Spaces.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace
from typing import ClassVar, Sequence

from machina_nb.rules.board.distance import Mover, reach
from machina_nb.rules.board.maptext import BorderKind, Point, SpaceKind
from machina_nb.rules.board.playarea import SIDES, Exploration, explore_options
from machina_nb.rules.board.terrain import adjacent, move_steps, neighbours
from machina_nb.rules.cards.abilities import Ability
from machina_nb.rules.cards.items import all_items, unequip_all
from machina_nb.rules.engine import inventory as inv
from machina_nb.rules.engine.cardplay import (explorer_sources, marker_holder, marker_on,
                                              moves_through, usable_items)
from machina_nb.rules.engine.chance import Dice, OpenDice
from machina_nb.rules.engine.chapters import last_explorer_exits
from machina_nb.rules.engine.effects import (destroy_unit, invoke_explorer_event, light_chapter,
                                             lose_health, next_chapter, reinvoke_horror_event,
                                             set_door, threat_down, trigger_traps)
from machina_nb.rules.engine.holdings import consume, destroy_card, inventory_of
from machina_nb.rules.engine.monsters import DOOR_DESTROY_COST, mindless_step, monster_abilities
from machina_nb.rules.engine.phases import (advance, current_monster, horror_roll, spawn_roll,
                                            spawn_rollers)
from machina_nb.rules.engine.resolution import Event, NeedChoice, Resolution, resolve
from machina_nb.rules.engine.state import Decision, GameState, MonsterTurn, Unit
from machina_nb.rules.engine.targets import ability_targets, card_key, destroy_options, unpaid_cost
from machina_nb.rules.engine.triggers import return_marker
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

__all__ = [
    "Action", "StartTurn", "EndTurn", "Move", "Door", "Activate", "ChapterSpace", "SealSpawn",
    "TURN_ACTIONS", "SPACE_ACTIONS",
    "Exit", "Explore", "UseInventory", "Trade",
    "PlayAbility", "RollSpawn", "RollHorror", "MonsterAct", "Choose", "ACTION_KINDS",
    "legal_actions", "apply", "check",
    "contributors", "explorer_abilities", "explorations", "ACTION_SPACE_COSTS",
    "second_targets", "play_targets", "through_moves",
]

ACTION_SPACE_COSTS = {SpaceKind.CHEST: 3, SpaceKind.WORKBENCH: 3, SpaceKind.RECHARGE: 1,
                      SpaceKind.LEVER: 2}
"""Explorer stamina for action spaces; the event space reads ``cost.event_space`` (p12, p37)."""

DOOR_COSTS = {("explorer", "open"): 2, ("explorer", "close"): 2, ("explorer", "destroy"): 4,
              ("scheming", "open"): 3, ("scheming", "close"): 3, ("scheming", "destroy"): 4}
"""Door costs by actor (manual p12, p15, p36)."""

SEAL_COST = (3, 4)
EXIT_COST = 2
EXPLORE_COST = 2
UNLIT_CHAPTER_COST = (3, 3)
SCHEMING_LEVER_COST = 3


# --- the actions: each kind checks, lists and performs itself ---------------------------------

@dataclass(frozen=True)
class Action:
    """An action by ``actor`` (a unit id, or ``players`` for the horror roll).

    ``choices`` answer, in order, the choices its resolution raises (a tied
    spawn space, a target, where a slide goes...): each is used where it fits.
    Each kind owns its rule: :meth:`verify` refuses it when illegal now, :meth:`perform`
    resolves it, and :meth:`options` lists its legal instances for a unit (what
    :func:`legal_actions` offers). An action taken on its actor's turn (the default)
    implements ``_verify`` and ``_perform`` for that unit.
    Rules: manual p12 (explorer actions), p16 (the explorers resolve ambiguities).
    """

    actor: str
    choices: tuple = field(default=(), kw_only=True)

    closes_item_window: ClassVar[bool] = True
    """Taking it ends the free inventory steps after a workbench or recharge (manual p33, p37)."""

    def verify(self, state: GameState, rules: Rules) -> None:
        """Raise :class:`RulesError` naming the broken rule if this action is illegal now.

        Rules: manual p12 (explorer turns), p15 (queue); see each kind.
        """
        self._verify(state, rules, _require_turn(state, self))

    def perform(self, r: Resolution) -> None:
        """Resolve this (checked) action into ``r``.

        Rules: see each kind.
        """
        if r.state.item_window is not None and self.closes_item_window:
            r.set(item_window=None)     # the free inventory steps end with any other action
        self._perform(r, r.state.unit(self.actor))

    def _verify(self, state: GameState, rules: Rules, u: Unit) -> None:
        raise RulesError("action", f"unknown action {type(self).__name__}")

    def _perform(self, r: Resolution, u: Unit) -> None:
        raise RulesError("action", f"unknown action {type(self).__name__}")

    @classmethod
    def options(cls, state: GameState, rules: Rules, u: Unit) -> list[Action]:
        """The legal instances of this kind for ``u`` on its turn, in the documented order."""
        return []


@dataclass(frozen=True)
class StartTurn(Action):
    """An explorer begins their turn; explorers pick their order (manual p12)."""

    def verify(self, state: GameState, rules: Rules) -> None:
        """Between turns of the explorer phase, an explorer who has not acted (manual p12)."""
        if state.phase != "explorer" or state.active is not None:
            _fail("action", "a turn can start only in the explorer phase between turns",
                  "manual p12")
        u = state.unit(self.actor)
        if u.side != "explorer" or u.position is None or u.id in state.done:
            _fail("actor", f"{self.actor} cannot take a turn now", "manual p12")

    def perform(self, r: Resolution) -> None:
        """The explorer becomes the active one (manual p12)."""
        r.set(active=self.actor, turns=r.state.turns + (self.actor,))
        r.emit("turn", f"{self.actor} begins their turn", "manual p12")


@dataclass(frozen=True)
class EndTurn(Action):
    """End the turn, setting stamina to 0 (manual p12)."""

    def _verify(self, state: GameState, rules: Rules, u: Unit) -> None:
        return

    def _perform(self, r: Resolution, u: Unit) -> None:
        _end_turn(r, u)

    @classmethod
    def options(cls, state: GameState, rules: Rules, u: Unit) -> list[Action]:
        return [EndTurn(u.id)]


@dataclass(frozen=True)
class Move(Action):
    """One step to an adjacent, passable, unoccupied space for 1 stamina (manual p34); a unit
    that moves through obstacles (the Aeromantle) may also move past them to a free passable
    space, 1 stamina a space (:func:`through_moves`, manual p30, p34)."""

    to: Point = (0, 0)

    def _verify(self, state: GameState, rules: Rules, u: Unit) -> None:
        if u.immobile:
            _fail("actor", f"{u.id} is immobile", "manual p17")
        if u.stamina < 1:
            _fail("actor", f"{u.id} has no stamina left", "manual p34 (1 per step)")
        if not _step_ok(state, rules, u.position, tuple(self.to)) and \
                tuple(self.to) not in through_moves(state, rules, u):
            _fail("to", f"{self.to} is not an adjacent, passable, unoccupied space",
                  "manual p22, p34 (move)")

    def _perform(self, r: Resolution, u: Unit) -> None:
        to = tuple(self.to)
        if _step_ok(r.state, r.rules, u.position, to):
            _move(r, u, to)
        else:
            _move(r, u, to, through_moves(r.state, r.rules, u)[to])

    @classmethod
    def options(cls, state: GameState, rules: Rules, u: Unit) -> list[Action]:
        if u.immobile or u.stamina < 1:
            return []
        return [Move(u.id, q) for q in move_steps(state.static_board(), u.position, rules)
                if state.unit_at(q) is None] + [Move(u.id, q)
                                                for q in through_moves(state, rules, u)]


def through_moves(state: GameState, rules: Rules, u: Unit) -> dict[Point, int]:
    """Where a unit that moves through obstacles (a ``move_through`` effect: the Aeromantle)
    may move past obstacles, and the stamina it pays: the free passable spaces it reaches
    for less than a plain move costs, or only that way (manual p30, p34: move through
    effects; it ends on no obstacle and no unit).

    Rules: manual p30 (Aeromantle), p34 (move, move through effects), p35 (pits).
    """
    if u.position is None or not moves_through(state, u.id, rules):
        return {}
    board = state.unit_board()
    plain = reach(board, u.position, u.stamina, rules, Mover(unit=u.id))
    through = reach(board, u.position, u.stamina, rules,
                    Mover(unit=u.id, move_through=True, obstacles_only=True))
    return {q: c for q, c in through.items() if q != u.position and c >= 1
            and plain.get(q, c + 1) > c}


@dataclass(frozen=True)
class Door(Action):
    """Open, close or destroy the door between ``a`` (the actor's space) and ``b`` (manual p36)."""

    a: Point = (0, 0)
    b: Point = (0, 0)
    op: str = "open"

    def _verify(self, state: GameState, rules: Rules, u: Unit) -> None:
        a, b = tuple(self.a), tuple(self.b)
        if a != u.position or abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1 or \
                b not in state.static_board():
            _fail("a", "a door must lie on a border of the actor's space", "manual p22")
        kind = state.border(a, b)
        doors = (BorderKind.DOOR_OPEN, BorderKind.DOOR_CLOSED)
        wanted = {"open": (BorderKind.DOOR_CLOSED,), "close": (BorderKind.DOOR_OPEN,),
                  "destroy": (BorderKind.DOOR_CLOSED,) if u.side == "explorer" else doors}
        if self.op not in wanted:
            _fail("op", f"expected open, close or destroy, got {self.op!r}", "manual p36")
        if kind not in wanted[self.op]:
            _fail("op", f"cannot {self.op} a border that is {kind.name}", "manual p36 (doors)")
        _pay_check(state, rules, u, DOOR_COSTS[(_mode(state, u), self.op)], 0, (), None,
                   "manual p12, p15, p36")

    def _perform(self, r: Resolution, u: Unit) -> None:
        _door(r, u, tuple(self.a), tuple(self.b), self.op)

    @classmethod
    def options(cls, state: GameState, rules: Rules, u: Unit) -> list[Action]:
        board, out = state.static_board(), []
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            q = (u.position[0] + dx, u.position[1] + dy)
            if q in board:
                for op in ("open", "close", "destroy"):
                    out += _if_legal(state, rules, Door(u.id, u.position, q, op))
        return out


@dataclass(frozen=True)
class Activate(Action):
    """Activate an adjacent action space; ``option`` picks the event space's option (manual p37).

    ``essence`` is the most the explorer will spend on each attack roll the activation sets
    off (a trap lever's attacks, an exploding barrel), as on any attack roll of their turn
    (manual p18).
    """

    space: Point = (0, 0)
    option: str = ""
    contributions: tuple[tuple[str, int], ...] = ()
    essence: int = 0

    spaces: ClassVar[tuple[SpaceKind, ...]] = (SpaceKind.EVENT, *ACTION_SPACE_COSTS)
    """The space kinds this action uses (manual p37)."""

    def _verify(self, state: GameState, rules: Rules, u: Unit) -> None:
        space = tuple(self.space)
        _adjacent_space(state, rules, u, space)
        kind = state.space_kind(space)
        if isinstance(self.essence, bool) or not isinstance(self.essence, int) or \
                not 0 <= self.essence <= 9 or (self.essence and u.side != "explorer"):
            _fail("essence", f"expected an explorer's essence budget 0-9, got {self.essence!r}",
                  "manual p18")
        if u.side != "explorer":
            if kind is not SpaceKind.LEVER:
                _fail("space", "scheming monsters activate only trap levers", "manual p15")
            _pay_check(state, rules, u, SCHEMING_LEVER_COST, 0, (), None, "manual p15, p37")
        elif kind is SpaceKind.EVENT:
            if self.option not in ("essence", "roll"):
                _fail("option", "the event space needs option 'essence' or 'roll'", "manual p37")
            _pay_check(state, rules, u, _event_cost(rules), 0, (), None, "manual p37; switch cost.event_space")
        elif kind not in ACTION_SPACE_COSTS:
            _fail("space", f"{space} is not an action space that can be activated ({kind.name})",
                  "manual p37 (destroyed action spaces cannot be used)")
        else:
            _pay_check(state, rules, u, ACTION_SPACE_COSTS[kind], 0, (), None, "manual p12, p37")

    def _perform(self, r: Resolution, u: Unit) -> None:
        r.essence = self.essence
        _activate(r, u, self)

    @classmethod
    def at(cls, state: GameState, rules: Rules, u: Unit, q: Point) -> list[Action]:
        """The legal activations of the adjacent space ``q`` (items: a deck is a choice).

        Rules: manual p12, p37 (action spaces; the event space pays essence or rolls).
        """
        if state.space_kind(q) is SpaceKind.EVENT:
            return [a for option in ("essence", "roll")
                    for a in _if_legal(state, rules, Activate(u.id, q, option))]
        return _if_legal(state, rules, Activate(u.id, q))


@dataclass(frozen=True)
class ChapterSpace(Action):
    """Activate an adjacent chapter space, lit or unlit (manual p36)."""

    space: Point = (0, 0)
    contributions: tuple[tuple[str, int], ...] = ()

    spaces: ClassVar[tuple[SpaceKind, ...]] = (SpaceKind.CHAPTER,)
    """The space kinds this action uses (manual p36)."""

    def _verify(self, state: GameState, rules: Rules, u: Unit) -> None:
        space = tuple(self.space)
        _adjacent_space(state, rules, u, space)
        if u.side != "explorer" or state.space_kind(space) is not SpaceKind.CHAPTER:
            _fail("space", f"{space} is not a chapter space an explorer can activate",
                  "manual p36")
        blocked = state.exit_token is not None or state.chapter.blocking
        if blocked and rules["chapter_space.when_blocked"] == "illegal":
            _fail("space", "the chapter cannot advance (blocking chapter or exit token)",
                  "manual p29, p36; switch chapter_space.when_blocked")
        if space in state.lit:
            _pay_check(state, rules, u, int(rules["cost.chapter_lit"]), 0, (), space,
                       "manual p36; switch cost.chapter_lit")
        else:
            _pay_check(state, rules, u, *UNLIT_CHAPTER_COST, self.contributions, space,
                       "manual p36")

    def _perform(self, r: Resolution, u: Unit) -> None:
        _chapter_space(r, u, self)

    @classmethod
    def at(cls, state: GameState, rules: Rules, u: Unit, q: Point) -> list[Action]:
        """The legal activation of the adjacent chapter space ``q``.

        Rules: manual p36 (chapter spaces).
        """
        return _if_legal(state, rules, ChapterSpace(u.id, q))


@dataclass(frozen=True)
class SealSpawn(Action):
    """Seal an adjacent spawn space: 3 stamina + 4 essence (manual p36)."""

    space: Point = (0, 0)
    contributions: tuple[tuple[str, int], ...] = ()

    spaces: ClassVar[tuple[SpaceKind, ...]] = (SpaceKind.SPAWN,)
    """The space kinds this action uses (manual p36)."""

    def _verify(self, state: GameState, rules: Rules, u: Unit) -> None:
        space = tuple(self.space)
        _adjacent_space(state, rules, u, space)
        if u.side != "explorer" or state.space_kind(space) is not SpaceKind.SPAWN:
            _fail("space", f"{space} is not an unsealed spawn space", "manual p36")
        _pay_check(state, rules, u, *SEAL_COST, self.contributions, space,
                   "manual p36 (seal spawn space)")

    def _perform(self, r: Resolution, u: Unit) -> None:
        _seal(r, u, tuple(self.space), self.contributions)

    @classmethod
    def at(cls, state: GameState, rules: Rules, u: Unit, q: Point) -> list[Action]:
        """The legal seals of the adjacent spawn space ``q``.

        Rules: manual p36 (seal spawn space).
        """
        return _if_legal(state, rules, SealSpawn(u.id, q))


@dataclass(frozen=True)
class PlayAbility(Action):
    """Play ability ``index`` of :func:`explorer_abilities` (or a monster's) on ``target``.

    ``target`` is one space, or a pair of spaces for an ability with two targets
    (the same space may come twice, manual p23). ``essence`` is the most the
    actor will spend after seeing an attack roll (manual p18). ``destroy`` names
    the adjacent space a destroy cost destroys (manual p23, p26).
    """

    index: int = 0
    target: Point | tuple[Point, Point] | None = None
    essence: int = 0
    contributions: tuple[tuple[str, int], ...] = ()
    destroy: Point | None = None

    def verify(self, state: GameState, rules: Rules) -> None:
        """On the actor's turn, or outside it an ability that costs no stamina (p12, p20).

        Rules: manual p12 (explorer turns), p20 (abilities outside the turn).
        """
        if state.has_unit(self.actor) and state.unit(self.actor).side == "explorer" \
                and state.active != self.actor:
            u = state.unit(self.actor)
            abilities = explorer_abilities(state, u)
            if not 0 <= self.index < len(abilities) or abilities[self.index].cost.stamina:
                _fail("actor", f"outside their turn {u.id} may play only abilities that cost "
                      "no stamina", "manual p12, p20")
            _check_ability(state, u, self, rules)
            return
        super().verify(state, rules)

    def _verify(self, state: GameState, rules: Rules, u: Unit) -> None:
        _check_ability(state, u, self, rules)

    def _perform(self, r: Resolution, u: Unit) -> None:
        r.essence = self.essence
        _play(r, u, self.index, self.target, self.essence, self.contributions, self.destroy)

    @classmethod
    def options(cls, state: GameState, rules: Rules, u: Unit) -> list[Action]:
        return _abilities_for(state, rules, u, free_only=False)


@dataclass(frozen=True)
class Exit(Action):
    """Leave the map from the exit token's space for 2 stamina (manual p34)."""

    def _verify(self, state: GameState, rules: Rules, u: Unit) -> None:
        if u.side != "explorer" or state.exit_token is None or u.position != state.exit_token:
            _fail("actor", f"{u.id} does not stand on the exit token", "manual p34 (exit)")
        _pay_check(state, rules, u, EXIT_COST, 0, (), None, "manual p34 (exit)")

    def _perform(self, r: Resolution, u: Unit) -> None:
        _exit(r, u)

    @classmethod
    def options(cls, state: GameState, rules: Rules, u: Unit) -> list[Action]:
        return _if_legal(state, rules, Exit(u.id))


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
        _pay_check(state, rules, u, EXPLORE_COST, 0, (), None, "manual p12, p34 (explore)")
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


@dataclass(frozen=True)
class UseInventory(Action):
    """*Use inventory* on ``owner`` (the actor, or an adjacent explorer; default the actor):
    unequip all, equip by ``steps``, give ``gifts`` ((item, explorer) pairs) (manual p32).

    A step is ``("main", item)``, ``("upgrade", item, host)`` or ``("augment", item, host)``.
    3 stamina, or free right after a workbench or recharge station (manual p33, p37).
    """

    owner: str | None = None
    steps: tuple = ()
    gifts: tuple[tuple[str, str], ...] = ()

    closes_item_window: ClassVar[bool] = False

    def _verify(self, state: GameState, rules: Rules, u: Unit) -> None:
        if u.side != "explorer":
            _fail("actor", "only explorers have an inventory", "manual p31")
        inv.check_use_inventory(state, rules, u.id, self.owner or u.id, self.steps, self.gifts)

    def _perform(self, r: Resolution, u: Unit) -> None:
        inv.use_inventory(r, u.id, self.owner or u.id, self.steps, self.gifts)

    @classmethod
    def options(cls, state: GameState, rules: Rules, u: Unit) -> list[Action]:
        return _use_inventory_actions(state, rules, u)


@dataclass(frozen=True)
class Trade(Action):
    """Exchange items with an adjacent explorer for 2 stamina: ``give`` the actor's, ``take``
    the partner's; they arrive unequipped (manual p32). Free with a recharge-station partner
    (manual p37; 3.5 FAQ).
    """

    partner: str = ""
    give: tuple[str, ...] = ()
    take: tuple[str, ...] = ()

    closes_item_window: ClassVar[bool] = False

    def _verify(self, state: GameState, rules: Rules, u: Unit) -> None:
        if u.side != "explorer" or not state.has_unit(self.partner) or \
                state.unit(self.partner).side != "explorer":
            _fail("partner", f"{self.partner!r} is not an explorer in play", "manual p32")
        inv.check_trade(state, rules, u.id, self.partner, self.give, self.take)

    def _perform(self, r: Resolution, u: Unit) -> None:
        inv.trade(r, u.id, self.partner, self.give, self.take)

    @classmethod
    def options(cls, state: GameState, rules: Rules, u: Unit) -> list[Action]:
        return _trade_actions(state, rules, u)


@dataclass(frozen=True)
class RollSpawn(Action):
    """The explorer's spawn roll (manual p13)."""

    def verify(self, state: GameState, rules: Rules) -> None:
        """An explorer who rolls for spawn this phase (manual p13; switch spawn.roller)."""
        if self.actor not in {e.id for e in spawn_rollers(state, rules)}:
            _fail("actor", f"{self.actor} does not roll for spawn now",
                  "manual p13; switches spawn10.roll_order and spawn.no_spawn_spaces")

    def perform(self, r: Resolution) -> None:
        """The spawn roll and what it spawns (manual p13)."""
        spawn_roll(r, r.state.unit(self.actor))


@dataclass(frozen=True)
class RollHorror(Action):
    """The horror roll, made by one player (manual p14)."""

    actor: str = "players"

    def verify(self, state: GameState, rules: Rules) -> None:
        """Once, in a horror phase whose chapter has a horror rating (manual p14)."""
        if state.phase != "horror" or state.horror_rating is None or "horror" in state.done:
            _fail("action", "the horror roll is made once, in the horror phase", "manual p14")

    def perform(self, r: Resolution) -> None:
        """The horror roll and the horror event it invokes (manual p14)."""
        horror_roll(r)


@dataclass(frozen=True)
class MonsterAct(Action):
    """The mindless monster's next action (manual p15-17); ``choices`` answer its ties."""

    def verify(self, state: GameState, rules: Rules) -> None:
        """The monster first in the queue, if mindless (manual p15-16)."""
        if state.phase != "monster" or current_monster(state) != self.actor:
            _fail("actor", f"it is not {self.actor}'s turn", "manual p15 (queue)")
        if state.player_driven(self.actor):
            _fail("actor", "scheming and controlled monsters are moved by the players' actions",
                  "manual p15 (scheming), p25 (control monster)")

    def perform(self, r: Resolution) -> None:
        """The next step of the mindless monster's plan (manual p15-17)."""
        _monster_act(r, self)


@dataclass(frozen=True)
class Choose(Action):
    """The players answer the decision the game waits on with ``option`` (manual p16); its
    ``choices``, like any action's, answer the choices that come after it.

    Legal only while the state carries a :class:`~machina_nb.rules.engine.state.Decision`,
    and then the only legal kind of action.
    """

    actor: str = "players"
    option: object = None

    def verify(self, state: GameState, rules: Rules) -> None:
        """One of the options of the decision the game waits on (manual p16)."""
        decision = state.decision
        if decision is None:
            _fail("action", "there is no choice to make now", "manual p16")
        if self.option not in decision.options:
            _fail("option", f"{self.option!r} is not one of the options for {decision.what}",
                  decision.rule)

    def perform(self, r: Resolution) -> None:
        """Never resolved on its own: :func:`apply` resumes the decision's action."""
        raise RulesError("action", "a choice resumes the action that asked for it")


SPACE_ACTIONS: tuple[type[Action], ...] = (Activate, ChapterSpace, SealSpawn)
"""The actions on an adjacent space: each names the space kinds it uses (manual p36-37)."""

TURN_ACTIONS = (Move, Door, SPACE_ACTIONS, Exit, Explore, UseInventory, Trade, PlayAbility,
                EndTurn)
"""The kinds a unit may take on its turn, in the order :func:`legal_actions` lists them; the
space actions are listed together, per adjacent space in the board's order of neighbours."""

ACTION_KINDS: tuple[type[Action], ...] = (
    StartTurn, Move, Door, *SPACE_ACTIONS, Exit, Explore, UseInventory, Trade, PlayAbility,
    EndTurn, RollSpawn, RollHorror, MonsterAct, Choose)
"""Every kind of action (a saved state waiting for a choice holds the action it resolves)."""


# --- what a unit may do ---------------------------------------------------------------------

def explorer_abilities(state: GameState, unit: Unit) -> tuple[Ability, ...]:
    """An explorer's abilities: card, bound events, current explorer event, chapter,
    equipped items and held consumables.

    Passive and triggered abilities keep their place in the list but are never
    played (manual p20). Monsters use :func:`machina_nb.rules.engine.monsters.monster_abilities`.
    Rules: manual p20 (sources of active abilities), p31, p33 (items).
    """
    return tuple(a for _, a in explorer_sources(state, unit))


def _abilities(state: GameState, unit: Unit, rules: Rules) -> tuple[Ability, ...]:
    if unit.side == "explorer":
        return explorer_abilities(state, unit)
    return tuple(a for _, a in monster_abilities(state, unit, rules))


def second_targets(state: GameState, rules: Rules, unit: Unit,
                   ability: Ability) -> tuple[Point, ...] | None:
    """Legal second targets of a two-target ability (same icon and range), sorted; None when
    it asks for one target or none. The first target may be named again (manual p23).

    Rules: manual p23 (two targets).
    """
    t = ability.targeting
    if t.second is None:
        return None
    return ability_targets(state, rules, unit, replace(ability, targeting=replace(
        t, target=t.second, second=None)))


def play_targets(target) -> tuple[Point, ...]:
    """A :class:`PlayAbility` target as a tuple of spaces: () for none, one space, or two.

    Rules: manual p20 (targets), p23 (two targets).
    """
    if target is None:
        return ()
    try:
        if len(target) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                    for v in target):
            return (tuple(target),)
        points = tuple(tuple(p) for p in target)
        if all(len(p) == 2 for p in points):
            return points
    except TypeError:
        pass
    raise RulesError("target", f"expected a space (x, y) or a pair of spaces, got {target!r}")


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
    if unit.side != "explorer" or unit.position is None:
        _fail("actor", f"{unit.id} is not an explorer on the map", "manual p34")
    return explore_options(area, state.unit_board(), unit.position, rules,
                           explorers={e.id for e in state.explorers}, side=side)


def contributors(state: GameState, rules: Rules, actor: str,
                 target: Point | None) -> tuple[str, ...]:
    """Explorers who may pay part of an essence cost, in seating order (manual p19).

    A breadth-first search over explorer-explorer adjacency, seeded by the
    activating explorer and every explorer adjacent to the target space.
    Rules: manual p19 (contributing explorers).
    """
    board = state.static_board()
    explorers = state.explorers_on_map
    me = state.unit(actor)
    seeds = {me.id} | {e.id for e in explorers if target is not None and e.id != me.id and
                       adjacent(board, e.position, target, rules)}
    seen, frontier = set(seeds), deque(seeds)
    while frontier:
        a = state.unit(frontier.popleft())
        for e in explorers:
            if e.id not in seen and adjacent(board, a.position, e.position, rules):
                seen.add(e.id)
                frontier.append(e.id)
    return tuple(e.id for e in explorers if e.id in seen and e.id != actor)


def _mode(state: GameState, unit: Unit) -> str:
    return "explorer" if unit.side == "explorer" else "scheming"


# --- checks -----------------------------------------------------------------------------------

def _fail(argument: str, message: str, rule: str):
    raise RulesError(argument, f"{message} ({rule})")


def _require_turn(state: GameState, action: Action) -> Unit:
    if state.over:
        _fail("action", f"the game is over ({state.over})", "manual p3")
    u = state.unit(action.actor) if state.has_unit(action.actor) else \
        _fail("actor", f"no unit {action.actor!r} in play", "manual p12")
    if u.side == "explorer":
        if state.phase != "explorer" or state.active != u.id:
            _fail("actor", f"it is not {u.id}'s turn", "manual p12 (explorer turns)")
    else:
        if state.phase != "monster" or current_monster(state) != u.id:
            _fail("actor", f"it is not {u.id}'s turn", "manual p15 (queue)")
        if not state.player_driven(u.id):
            _fail("actor", f"{u.id} is mindless: step it with MonsterAct",
                  "manual p15-16 (mindless)")
    return u


def _pay_check(state: GameState, rules: Rules, u: Unit, stamina: int, essence: int,
               contributions: Sequence[tuple[str, int]], target: Point | None,
               rule: str) -> None:
    if u.stamina < stamina:
        _fail("actor", f"{u.id} has {u.stamina} stamina, needs {stamina}", rule)
    if essence == 0 and contributions:
        _fail("contributions", "nothing to contribute to", "manual p19")
    given = 0
    if contributions:
        allowed = contributors(state, rules, u.id, target)
        for who, amount in contributions:
            if who not in allowed:
                _fail("contributions", f"{who} is not adjacent to the target space, to "
                      f"{u.id} or to another contributor", "manual p19 (contributing explorers)")
            if amount < 0 or state.unit(who).essence < amount:
                _fail("contributions", f"{who} cannot pay {amount} essence", "manual p19")
            given += amount
    if given > essence:
        _fail("contributions", f"contributions {given} exceed the cost {essence}", "manual p19")
    if u.essence < essence - given:
        _fail("actor", f"{u.id} has {u.essence} essence, needs {essence - given} "
              f"(after contributions)", rule)


def _pay(r: Resolution, u: Unit, stamina: int, essence: int,
         contributions: Sequence[tuple[str, int]], why: str, rule: str) -> None:
    given = 0
    for who, amount in contributions:
        if amount:
            c = r.state.unit(who)
            r.state = r.state.update_unit(who, essence=c.essence - amount)
            r.emit("essence", f"{who} contributes {amount} essence to {why}",
                   "manual p19 (contributing explorers)")
            given += amount
    me = r.state.unit(u.id)
    r.state = r.state.update_unit(u.id, stamina=me.stamina - stamina,
                                  essence=me.essence - (essence - given))
    cost = f"{stamina} stamina" + (f" + {essence} essence" if essence else "")
    r.emit("pay", f"{u.id} pays {cost} for {why}", rule)


def _step_ok(state: GameState, rules: Rules, a: Point, b: Point) -> bool:
    return b in move_steps(state.static_board(), a, rules) and state.unit_at(b) is None


def _event_cost(rules: Rules) -> int:
    return int(rules["cost.event_space"])


def _adjacent_space(state: GameState, rules: Rules, u: Unit, space: Point) -> None:
    board = state.static_board()
    if space not in board or not adjacent(board, u.position, space, rules):
        _fail("space", f"{space} is not adjacent to {u.id}", "manual p22 (adjacent), p37")


def _check_ability(state: GameState, u: Unit, action: PlayAbility, rules: Rules) -> None:
    abilities = _abilities(state, u, rules)
    if not 0 <= action.index < len(abilities):
        _fail("index", f"{u.id} has no ability {action.index}", "manual p20")
    ability = abilities[action.index]
    if ability.kind != "active":
        _fail("index", f"{ability.name} is a {ability.kind} ability: it is never played",
              "manual p20 (ability types)")
    points = play_targets(action.target)
    targets = ability_targets(state, rules, u, ability)
    if targets is not None and (not points or points[0] not in targets):
        _fail("target", f"{action.target} is not a legal target of {ability.name}",
              "manual p20 (legal target), p23")
    if targets is None and points:
        _fail("target", f"{ability.name} takes no target", "manual p20")
    seconds = second_targets(state, rules, u, ability)
    if seconds is not None and (len(points) != 2 or points[1] not in seconds):
        _fail("target", f"{ability.name} needs two legal targets (the same one may come "
              f"twice), got {action.target}", "manual p23 (two targets)")
    if seconds is None and len(points) > 1:
        _fail("target", f"{ability.name} takes one target", "manual p20, p23")
    if ability.cost.health > u.health:
        _fail("actor", f"{u.id} cannot pay {ability.cost.health} health", "manual p20")
    _check_destroy_and_marker(state, rules, u, action, ability)
    target = points[0] if points else None
    _pay_check(state, rules, u, ability.cost.stamina, ability.cost.essence, action.contributions,
               target, "manual p20 (cost)")


def _check_destroy_and_marker(state: GameState, rules: Rules, u: Unit, action: PlayAbility,
                              ability: Ability) -> None:
    """The destroy and marker parts of a cost are checked before anything resolves (p23, p26)."""
    cost = ability.cost
    if cost.destroys_space:
        if action.destroy is None:
            _fail("destroy", f"{ability.name} costs destroying an adjacent {cost.destroy} "
                  "space: name it", "manual p23 (advanced examples), p26 (cost)")
        if tuple(action.destroy) not in destroy_options(state, rules, u, cost.destroy):
            _fail("destroy", f"{action.destroy} is not an adjacent {cost.destroy} space left to "
                  "destroy; another effect's destruction does not pay the cost",
                  "manual p23, p26 (cost, not condition)")
    elif action.destroy is not None:
        _fail("destroy", f"{ability.name} destroys no space as its cost", "manual p20 (cost)")
    problem = unpaid_cost(state, rules, u, action.index, ability)
    if problem is not None:
        _fail("index", *problem)


# --- doing ------------------------------------------------------------------------------------

def apply(state: GameState, action: Action, rules: Rules,
          dice: Dice | None = None) -> tuple[GameState, tuple[Event, ...]]:
    """The state after ``action`` and the events it caused, each citing its rule.

    Illegal actions raise :class:`RulesError` naming the rule; an open roll raises
    :class:`~machina_nb.rules.engine.chance.ChanceNode` (``state`` is immutable, so it is
    unchanged in both cases). When the players must choose and ``action.choices`` holds
    no answer, the result is the state before the action carrying the
    :class:`~machina_nb.rules.engine.state.Decision`, with the events so far; a
    :class:`Choose` then resumes the action with the same die results.
    Rules: manual p10-37 (see the module docstring), p16 (the players choose).
    """
    check(state, action, rules)
    dice = dice if dice is not None else OpenDice()
    if isinstance(action, Choose):
        decision = state.decision
        chosen = replace(decision.action, choices=decision.action.choices + (action.option,)
                         + action.choices)
        return _resolve(replace(state, decision=None), chosen, rules,
                        _Resume(decision.rolls, dice), decision.reported)
    return _resolve(state, action, rules, dice, 0)


def _resolve(state: GameState, action: Action, rules: Rules, dice: Dice,
             reported: int) -> tuple[GameState, tuple[Event, ...]]:
    """Resolve a checked action, then the phases; pause at an unanswered choice (p16)."""
    start = len(dice.record)
    r = new_resolution(state, rules, dice, action.choices, action.actor)
    try:
        action.perform(r)
        advance(r)
    except NeedChoice as need:
        decision = Decision(need.what, need.options, need.rule, action,
                            tuple(dice.record[start:]), len(r.events))
        return replace(state, decision=decision), tuple(r.events[reported:])
    return r.state, tuple(r.events[reported:])


class _Resume(Dice):
    """The die results of a paused resolution again, in order, then the caller's dice (which
    record the new results, so a history can replay the choice)."""

    def __init__(self, rolls: tuple, then: Dice):
        super().__init__()
        self.script, self.then = list(rolls), then

    def _roll(self, die, reason):
        return self.script.pop(0) if self.script else self.then.roll(die, reason)

    def _permutation(self, n, reason):
        if self.script:
            return list(self.script.pop(0))
        order = self.then._permutation(n, reason)
        self.then.record.append(tuple(order))
        return order


def _explore(r: Resolution, u: Unit, action: Explore) -> None:
    """Scroll (banish, destroy tiles), then draw and join the top map tile (manual p34).

    Tokens, lit chapter spaces, treated spaces and door changes on a scrolled tile leave with it.
    Rules: manual p34 (explore map tile, scroll map tile), p19 (banish).
    """
    chosen = explorations(r.state, r.rules, u, action.side)[action.option or 0]
    _pay(r, u, EXPLORE_COST, 0, (), "exploring", "manual p12, p34 (explore map tile)")
    for monster, _ in chosen.banished:
        destroy_unit(r, monster, None, "its map tile scrolls away", banish=True)
    old = r.state.map.area
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
        r.emit("scroll", f"{', '.join(chosen.destroyed)} scroll away and go under the "
               "map-tile deck", "manual p34 (scroll map tile); switch scroll.destroy")
    r.set(map=replace(r.state.map, area=chosen.area))
    r.emit("explore", chosen.explain(), "manual p34 (explore map tile); rulings D19, D21")


def _tile_points(tile) -> list[Point]:
    ox, oy = tile.origin
    return [(ox + x, oy + y) for y in range(tile.layout.height) for x in range(tile.layout.width)]


def _exit(r: Resolution, u: Unit) -> None:
    """The explorer leaves the map; the last one out ends the chapter (manual p28, p34).

    The last surviving explorer's exit banishes every monster, slides the placed
    tiles under the map-tile deck and flips the next chapter, whose «enters play»
    normally places the entry token (:func:`machina_nb.rules.engine.chapters.last_explorer_exits`).
    Rules: manual p34 (exit map tile), p28 (exit token chapters).
    """
    r.state = r.state.update_unit(u.id, position=None, stamina=u.stamina - EXIT_COST)
    r.set(exited=r.state.exited + (u.id,), active=None, done=r.state.done + (u.id,))
    r.emit("exit", f"{u.id} exits the map ({EXIT_COST} stamina): no more turns or spawn rolls",
           "manual p34 (exit map tile)")
    if not r.state.explorers_on_map:
        last_explorer_exits(r, "the last explorer exits")


def _end_turn(r: Resolution, u: Unit) -> None:
    if u.side == "explorer":
        r.state = r.state.update_unit(u.id, stamina=0)
        r.set(active=None, done=r.state.done + (u.id,))
        r.emit("turn", f"{u.id} ends their turn", "manual p12")
    else:
        _finish_monster(r, u.id, "the players end the scheming monster's turn")


def _move(r: Resolution, u: Unit, to: Point, cost: int = 0, **fields) -> None:
    """``u`` steps to ``to`` (1 stamina, or ``cost`` through obstacles); other ``fields`` of
    the state change in the same copy.

    Rules: manual p34 (move, move through effects), p35 (pits).
    """
    moved = replace(r.state.unit(u.id), position=to, stamina=u.stamina - (cost or 1))
    r.state = r.state.with_unit(moved, **fields)
    if cost:
        r.emit("move", f"{u.id} moves through obstacles {u.position} -> {to} ({cost} stamina)",
               "manual p34 (move through effects), p30 (Aeromantle)")
    else:
        r.emit("move", f"{u.id} moves {u.position} -> {to} (1 stamina)", "manual p34 (move)")
    if r.state.is_kind(to, SpaceKind.PIT):
        destroy_unit(r, u.id, None, f"{u.id} enters a pit", )
        r.emit("pit", "entering a pit destroys the unit", "manual p35; switch pit.voluntary_entry")
        if r.state.monster_turn and r.state.monster_turn.monster == u.id:
            r.set(monster_turn=None)


def _door(r: Resolution, u: Unit, a: Point, b: Point, op: str) -> None:
    cost = DOOR_COSTS[(_mode(r.state, u), op)]
    new = {"open": BorderKind.DOOR_OPEN, "close": BorderKind.DOOR_CLOSED,
           "destroy": BorderKind.DOOR_DESTROYED}[op]
    set_door(r, a, b, new)
    r.state = r.state.update_unit(u.id, stamina=u.stamina - cost)
    r.emit("door", f"{u.id} {op}s the door {a}|{b} ({cost} stamina)", "manual p36 (doors)")


def _activate(r: Resolution, u: Unit, action: Activate) -> None:
    space = tuple(action.space)
    kind = r.state.space_kind(space)
    if kind is SpaceKind.LEVER:
        cost = SCHEMING_LEVER_COST if u.side == "monster" else ACTION_SPACE_COSTS[kind]
        _pay(r, u, cost, 0, (), f"the trap lever at {space}", "manual p37 (trap lever)")
        r.set(destroyed=r.state.destroyed + (space,))
        trigger_traps(r, u, space)
        return
    if kind is SpaceKind.EVENT:
        _pay(r, u, _event_cost(r.rules), 0, (), f"the event space at {space}",
             "manual p37; 3.5 §Updated Action Spaces; switch cost.event_space")
        r.set(destroyed=r.state.destroyed + (space,))
        if action.option == "essence":
            _restore_essence(r, u.id, "the event space")
            invoke_explorer_event(r, r.state.unit(u.id), "the event space")
        else:
            rating = r.state.horror_rating
            value = r.roll("d10", f"event space roll against horror rating {rating}")
            if rating is not None and value >= rating:
                r.emit("event_roll", f"{value} >= current horror rating {rating}", "manual p37")
                threat_down(r, 1, "the event space roll", source="event_space")
            else:
                r.emit("event_roll", f"{value} < current horror rating {rating}: reinvoke the "
                       "horror event", "manual p37")
                reinvoke_horror_event(r, "the event space roll")
        return
    _pay(r, u, ACTION_SPACE_COSTS[kind], 0, (), f"the {kind.name.lower()} at {space}",
         "manual p37")
    r.set(destroyed=r.state.destroyed + (space,))
    if kind is SpaceKind.CHEST:
        _restore_essence(r, u.id, "the chest")
        inv.gain_item(r, u.id, "the chest")
    elif kind is SpaceKind.WORKBENCH:
        inv.operate_workbench(r, u.id)
    else:
        inv.recharge(r, u.id, space)


def _restore_essence(r: Resolution, who: str, why: str) -> None:
    e = r.state.unit(who)
    new = min(e.max_essence, e.essence + 1)
    r.state = r.state.update_unit(who, essence=new)
    r.emit("essence", f"{why}: {who} restores 1 essence ({e.essence} -> {new})",
           "manual p18, p37; switch essence.max")


def _chapter_space(r: Resolution, u: Unit, action: ChapterSpace) -> None:
    space = tuple(action.space)
    lit = space in r.state.lit
    if lit:
        _pay(r, u, int(r.rules["cost.chapter_lit"]), 0, (), f"the lit chapter space {space}",
             "manual p36; switch cost.chapter_lit")
    else:
        _pay(r, u, *UNLIT_CHAPTER_COST, action.contributions, f"the chapter space {space}",
             "manual p36")
    blocked = r.state.exit_token is not None or r.state.chapter.blocking
    if not (blocked and r.rules["chapter_space.when_blocked"] == "pay_no_consume"):
        r.set(destroyed=r.state.destroyed + (space,))
        r.emit("chapter_space", f"the chapter space {space} is used up (destroyed token)",
               "manual p36")
    if blocked:
        r.emit("chapter_space", "a blocking chapter or an exit token: the chapter does not "
               "advance", "manual p29, p36; switch chapter_space.when_blocked")
        return
    next_chapter(r, f"{u.id} activates a chapter space")


def _play(r: Resolution, u: Unit, index: int, target, essence: int,
          contributions: Sequence[tuple[str, int]], destroy: Point | None = None) -> None:
    ability = _abilities(r.state, u, r.rules)[index]
    key = card_key(r.state, u, index, ability)
    card = next((c for c in usable_items(r.state, u.id) if f"item:{c.id}" == key), None)
    points = play_targets(target)
    _pay(r, u, ability.cost.stamina, ability.cost.essence, contributions,
         f"{ability.name}", "manual p20 (cost)")
    if ability.cost.health:
        lose_health(r, u.id, ability.cost.health, None, f"the cost of {ability.name}")
    _pay_destroy_and_marker(r, u, ability, key, destroy,
                            card is not None and card.type == "consumable")
    if r.state.monster_turn and r.state.monster_turn.monster == u.id:
        turn = r.state.monster_turn
        r.set(monster_turn=replace(turn, played=turn.played + (ability.name,)))
    on = f" on {points[0]}" if len(points) == 1 else \
        f" on {points[0]} and {points[1]}" if points else ""
    r.emit("ability", f"{u.id} plays {ability.name}{on}", "manual p20-21" +
           (", p23 (two targets)" if len(points) > 1 else ""))
    user = r.state.unit(u.id) if r.state.has_unit(u.id) else None
    previous, r.card = r.card, key
    before = set(r.state.lasting)
    resolve(r, ability.effects, user, points[0] if points else None, ability.name, essence,
            points[1] if len(points) > 1 else None)
    r.card = previous
    if card is not None and card.type == "consumable" and r.state.has_unit(u.id):
        consume(r, u.id, card, marked=any(e.holder == u.id for e in r.state.lasting
                                              if e not in before))


def _pay_destroy_and_marker(r: Resolution, u: Unit, ability: Ability, key: str,
                            destroy: Point | None, consumable: bool = False) -> None:
    """Pay a destroy cost (the named adjacent space, or the card) and a marker cost (p23, p27).
    A consumable's own card is destroyed after resolving (:func:`inv.consume`), so that a
    lasting effect it starts keeps it waiting for the marker (manual p27, p30)."""
    cost = ability.cost
    if cost.destroys_space:
        if destroy is None:
            destroy = r.choose(destroy_options(r.state, r.rules, u, cost.destroy),
                               f"the {cost.destroy} space {ability.name} destroys",
                               "manual p23 (cost)")
        space = tuple(destroy)
        r.set(destroyed=r.state.destroyed + (space,))
        r.emit("pay", f"{u.id} destroys the {cost.destroy} space at {space} to pay for "
               f"{ability.name}", "manual p23 (advanced examples), p26 (cost)")
    if cost.destroy == "card" and not consumable:
        destroy_card(r, key, f"the cost of {ability.name}")
    if cost.marker:
        return_marker(r, marker_on(r.state, marker_holder(u), key), f"the cost of {ability.name}")


# --- the monster phase --------------------------------------------------------------------

def _finish_monster(r: Resolution, monster: str, why: str) -> None:
    r.set(done=r.state.done + (monster,), monster_turn=None)
    r.emit("monster_turn", f"{monster}'s turn ends: {why}", "manual p16")


def _monster_act(r: Resolution, action: MonsterAct) -> None:
    plan = mindless_step(r.state, r.rules, action.actor, action.choices)
    if plan.options:
        raise NeedChoice(plan.choice_of, plan.options, "manual p16")
    for reason in plan.reasons:
        r.emit("reason", f"{action.actor}: {reason}", "manual p15-17")
    turn = r.state.monster_turn or MonsterTurn(action.actor)
    m = r.state.unit(action.actor)
    path = (m.position,) + plan.path if plan.established else turn.path
    turn = replace(turn, target=plan.target, goal=plan.goal, path=path)
    kind = plan.action[0]
    if kind == "move":      # the step and the turn's note change the state in one copy
        to = plan.action[1]
        walked = path[1:] if path[1:2] == (to,) else ()
        _move(r, m, to, monster_turn=replace(turn, played=turn.played + ("move",), path=walked))
        return
    r.set(monster_turn=turn)
    if kind == "ability":
        _, index, target = plan.action
        _play(r, m, index, _mindless_second(r, m, index, target), 0, ())
    elif kind == "door":
        _, a, b = plan.action
        set_door(r, a, b, BorderKind.DOOR_DESTROYED)
        r.state = r.state.update_unit(m.id, stamina=m.stamina - DOOR_DESTROY_COST)
        r.emit("door", f"{m.id} destroys the closed door {a}|{b} ({DOOR_DESTROY_COST} stamina)",
               "manual p16, p36")
        turn = r.state.monster_turn
        r.set(monster_turn=replace(turn, played=turn.played + ("door",)))
    else:
        _finish_monster(r, m.id, "no ability, door or step left")


def _mindless_second(r: Resolution, m: Unit, index: int, target):
    """A mindless monster's two-target ability: played on its one target only
    (``mindless.two_targets = first_only``), or the explorers choose the second target.

    Rules: manual p23 (two targets), p16 (the explorers resolve a mindless monster's
    ambiguities); switch mindless.two_targets.
    """
    ability = _abilities(r.state, m, r.rules)[index]
    if target is None or ability.targeting.second is None or \
            r.rules["mindless.two_targets"] == "first_only":
        return target
    seconds = second_targets(r.state, r.rules, m, ability)
    if not seconds:
        return target
    second = r.choose(seconds, f"the second target of {ability.name}",
                      "manual p23, p16; switch mindless.two_targets")
    return (tuple(target), tuple(second))


# --- listing ----------------------------------------------------------------------------------

def legal_actions(state: GameState, rules: Rules) -> tuple[Action, ...]:
    """Every legal action now, in the order the module docstring documents.

    Rules: manual p10-16 (who acts when), p12 (explorer actions).
    """
    if state.over:
        return ()
    if state.decision is not None:
        return tuple(Choose(option=o) for o in state.decision.options)
    out: list[Action] = []
    if state.phase == "explorer" and state.active is None:
        out += [StartTurn(e.id) for e in state.explorers_on_map if e.id not in state.done]
    elif state.phase == "spawn":
        out += [RollSpawn(e.id) for e in spawn_rollers(state, rules)]
    elif state.phase == "horror" and state.horror_rating is not None and \
            "horror" not in state.done:
        out.append(RollHorror())
    elif state.phase == "monster":
        m = current_monster(state)
        if m is not None and not state.player_driven(m):
            out += _monster_acts(state, rules, m, ())
    actor = state.active if state.phase == "explorer" else None
    if state.phase == "monster" and current_monster(state) is not None and \
            state.player_driven(current_monster(state)):
        actor = current_monster(state)
    if actor is not None:
        out += _unit_actions(state, rules, state.unit(actor))
    for e in state.explorers_on_map:
        if e.id != state.active:
            out += _abilities_for(state, rules, e, free_only=True)
    return tuple(out)


def _monster_acts(state: GameState, rules: Rules, m: str, choices: tuple) -> list[Action]:
    """One MonsterAct per way the players may answer the plan's ties (manual p16)."""
    plan = mindless_step(state, rules, m, choices)
    if plan.options and len(choices) < 3:
        return [a for o in plan.options for a in _monster_acts(state, rules, m, choices + (o,))]
    return [MonsterAct(m, choices=choices)]


def _explore_actions(state: GameState, rules: Rules, u: Unit) -> list[Action]:
    """One Explore per edge side and per placement the players may choose (manual p34)."""
    area = state.map.area
    if area is None or u.side != "explorer" or u.stamina < EXPLORE_COST:
        return []
    sides = sorted({_SIDE_OF[(o[0] - i[0], o[1] - i[1])]
                    for i, o in area.unexplored_edges() if i == u.position})
    out: list[Action] = []
    for side in sides:
        side = side if len(sides) > 1 else None
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


def _greedy(held) -> tuple:
    """Steps equipping every card that fits, in card order: mains, then upgrades and augments."""
    cards = all_items(unequip_all(held))
    steps: list[tuple] = []
    placed: list[str] = []
    for card in cards:
        tries = [("main", card.id)] + [(how, card.id, host) for host in placed
                                       for how in ("upgrade", "augment")]
        for step in tries:
            try:
                inv.arrange(held, steps + [step])
            except RulesError:
                continue
            steps.append(step)
            placed.append(card.id)
            break
    return tuple(steps)


def _abilities_for(state: GameState, rules: Rules, u: Unit, free_only: bool) -> list[Action]:
    out: list[Action] = []
    for i, ability in enumerate(_abilities(state, u, rules)):
        if ability.kind != "active" or (free_only and ability.cost.stamina):
            continue
        targets = ability_targets(state, rules, u, ability)
        plays = (None,) if targets is None else targets
        seconds = second_targets(state, rules, u, ability) if targets else None
        if seconds is not None:
            plays = tuple((t, s) for t in targets for s in seconds)      # the same twice too
        destroys = (None,) if not ability.cost.destroys_space else \
            destroy_options(state, rules, u, ability.cost.destroy)
        for t in plays:
            for d in destroys:
                out += _if_legal(state, rules, PlayAbility(u.id, i, t, destroy=d))
    return out


def _if_legal(state: GameState, rules: Rules, action: Action) -> list[Action]:
    try:
        check(state, action, rules)
    except RulesError:
        return []
    return [action]


def check(state: GameState, action: Action, rules: Rules) -> None:
    """Raise :class:`RulesError` naming the broken rule if ``action`` is illegal now.

    Rules: manual p3 (the game's end), p12 (explorer actions and costs); see each action kind.
    """
    if not isinstance(action, Action):
        raise RulesError("action", f"expected an Action, got {type(action).__name__}")
    if state.over:
        _fail("action", f"the game is over ({state.over})", "manual p3")
    if state.decision is not None and not isinstance(action, Choose):
        _fail("action", f"the players must first choose {state.decision.what}",
              state.decision.rule)
    action.verify(state, rules)


def _seal(r: Resolution, u: Unit, space: Point, contributions) -> None:
    """Seal a spawn space: threat -1, its unit destroyed, two destroyed tokens, light a chapter.

    Rules: manual p36 (seal spawn space).
    """
    _pay(r, u, *SEAL_COST, contributions, f"sealing {space}", "manual p36")
    threat_down(r, 1, f"{u.id} seals {space}", source="seal")
    occupant = r.state.unit_at(space)
    if occupant is not None:
        destroy_unit(r, occupant.id, u.id, "the sealed spawn space destroys its unit")
    r.set(destroyed=r.state.destroyed + (space, space))
    r.emit("seal", f"two destroyed tokens on {space}: it is an obstacle now",
           "manual p36 (seal spawn space)")
    light_chapter(r, r.state.unit(u.id), "sealing a spawn space")


def _unit_actions(state: GameState, rules: Rules, u: Unit) -> list[Action]:
    """Every kind's legal instances for the unit on its turn, in :data:`TURN_ACTIONS` order."""
    out: list[Action] = []
    for kind in TURN_ACTIONS:
        out += _space_actions(state, rules, u) if kind is SPACE_ACTIONS else \
            kind.options(state, rules, u)
    return out


def _space_actions(state: GameState, rules: Rules, u: Unit) -> list[Action]:
    """The actions on each adjacent space, in the board's order of neighbours (p36-37)."""
    by_kind = {kind: action for action in SPACE_ACTIONS for kind in action.spaces}
    out: list[Action] = []
    for q in neighbours(state.static_board(), u.position, rules):
        action = by_kind.get(state.space_kind(q))
        if action is not None:
            out += action.at(state, rules, u, q)
    return out


def _owners(state: GameState, rules: Rules, u: Unit) -> tuple[str, ...]:
    return (u.id,) + inv.adjacent_explorers(state, rules, u.id) \
        if u.side == "explorer" and u.position is not None else ()


def _use_inventory_actions(state: GameState, rules: Rules, u: Unit) -> list[Action]:
    """A representative few inventory arrangements (the full space of arrangements is huge):
    per explorer whose inventory the actor may use (self, adjacent), unequip everything, and
    :func:`_greedy` equipping.

    Rules: manual p32 (use inventory).
    """
    out: list[Action] = []
    for owner in _owners(state, rules, u):
        held = inventory_of(state, owner)
        if held.empty:
            continue
        steps = _greedy(held)
        for option in ((), steps) if steps else ((),):
            out += _if_legal(state, rules, UseInventory(u.id, owner=owner, steps=option))
    return out


def _trade_actions(state: GameState, rules: Rules, u: Unit) -> list[Action]:
    """For each trade partner, giving or taking one item at a time.

    Rules: manual p32 (trade), p37 (recharge station partners).
    """
    if u.side != "explorer" or u.position is None:
        return []
    window = state.item_window
    partners = set(inv.adjacent_explorers(state, rules, u.id))
    if window is not None and window.explorer == u.id and window.trade_partners:
        partners |= set(window.trade_partners)
    out: list[Action] = []
    for partner in sorted(partners):
        for card in all_items(inventory_of(state, u.id)):
            out += _if_legal(state, rules, Trade(u.id, partner=partner, give=(card.id,)))
        for card in all_items(inventory_of(state, partner)):
            out += _if_legal(state, rules, Trade(u.id, partner=partner, take=(card.id,)))
    return out
