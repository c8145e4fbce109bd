"""Actions on an adjacent space: :class:`Activate` (action spaces and the event space),
:class:`ChapterSpace` and :class:`SealSpawn`, each kind's check, its legal instances on one
space (``at``) and its resolution side by side, with the costs of the spaces.

Rules: manual p36 (chapter spaces, seal spawn space), p37 (action spaces), p12, p15 (costs);
3.5 §Updated Action Spaces.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Sequence, cast

from machina_nb.rules.board.maptext import Point, SpaceKind
from machina_nb.rules.board.terrain import adjacent
from machina_nb.rules.engine import inventory as inv
from machina_nb.rules.board.graph import pair
from machina_nb.rules.engine.actions.core import (Action, ActionCost, _fail, _if_legal, _pay, _pay_check,
                                                 check_budget, check_contributions, with_splits)
from machina_nb.rules.engine.effects import (destroy_unit, invoke_explorer_event, light_chapter,
                                             next_chapter, reinvoke_horror_event, threat_down,
                                             trigger_traps)
from machina_nb.rules.engine.resolution import Resolution
from machina_nb.rules.engine.state import GameState, Side, Unit
from machina_nb.rules.errors import BadArgument
from machina_nb.rules.rulings import Rules

__all__ = ["Activate", "ChapterSpace", "SealSpawn", "ACTION_SPACE_COSTS", "SEAL_COST",
           "UNLIT_CHAPTER_COST", "SCHEMING_LEVER_COST"]

ACTION_SPACE_COSTS: dict[SpaceKind, ActionCost] = {
    SpaceKind.CHEST: ActionCost(stamina=3), SpaceKind.WORKBENCH: ActionCost(stamina=3),
    SpaceKind.RECHARGE: ActionCost(stamina=1), SpaceKind.LEVER: ActionCost(stamina=2)}
"""An explorer's cost of each action space; the event space reads the switch
``cost.event_space`` (manual p12, p37)."""

SEAL_COST = ActionCost(stamina=3, essence=4)
"""Sealing a spawn space (manual p36: seal spawn space)."""

UNLIT_CHAPTER_COST = ActionCost(stamina=3, essence=3)
"""Activating an unlit chapter space; a lit one reads the switch ``cost.chapter_lit``
(manual p36: chapter space)."""

SCHEMING_LEVER_COST = ActionCost(stamina=3)
"""A scheming monster pulling a trap lever (manual p15, p37)."""


def _adjacent_space(state: GameState, rules: Rules, u: Unit, space: Point) -> None:
    board = state.static_board()
    if space not in board or not adjacent(board, cast(Point, u.position), space, rules):
        _fail("space", f"{space} is not adjacent to {u.id}", "manual p22 (adjacent), p37")


def _event_cost(rules: Rules) -> ActionCost:
    """The event space's stamina (manual p37; 3.5 §Updated Action Spaces; switch
    cost.event_space)."""
    return ActionCost(stamina=int(rules["cost.event_space"]))


def _lit_chapter_cost(rules: Rules) -> ActionCost:
    """A lit chapter space's stamina (manual p36; switch cost.chapter_lit)."""
    return ActionCost(stamina=int(rules["cost.chapter_lit"]))


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

    def check_arguments(self) -> None:
        super().check_arguments()
        pair(self.space, "space")
        check_budget(self.essence)
        check_contributions(self.contributions)
        if not isinstance(self.option, str):
            raise BadArgument("option", f"expected an option's name, got {self.option!r:.40}")

    def _verify(self, state: GameState, rules: Rules, u: Unit) -> None:
        space = cast(Point, tuple(self.space))
        _adjacent_space(state, rules, u, space)
        kind = state.space_kind(space)
        if isinstance(self.essence, bool) or not isinstance(self.essence, int) or \
                not 0 <= self.essence <= 9 or (self.essence and u.side != Side.EXPLORER):
            _fail("essence", f"expected an explorer's essence budget 0-9, got {self.essence!r}",
                  "manual p18")
        if u.side != Side.EXPLORER:
            if kind is not SpaceKind.LEVER:
                _fail("space", "scheming monsters activate only trap levers", "manual p15")
            _pay_check(state, rules, u, SCHEMING_LEVER_COST, self.contributions, None,
                       "manual p15, p37")
        elif kind is SpaceKind.EVENT:
            if self.option not in ("essence", "roll"):
                _fail("option", "the event space needs option 'essence' or 'roll'", "manual p37")
            _pay_check(state, rules, u, _event_cost(rules), self.contributions, None,
                       "manual p37; switch cost.event_space")
        elif kind not in ACTION_SPACE_COSTS:
            _fail("space", f"{space} is not an action space that can be activated ({kind.name})",
                  "manual p37 (destroyed action spaces cannot be used)")
        else:
            _pay_check(state, rules, u, ACTION_SPACE_COSTS[kind], self.contributions, None,
                       "manual p12, p37")

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


def _activate(r: Resolution, u: Unit, action: Activate) -> None:
    """Pay for the space and use it up, then its effect: a trap lever's traps, the event
    space's essence and explorer event or its roll against the horror rating, a chest's
    essence and item, a workbench, a recharge station.

    Rules: manual p37 (action spaces); 3.5 §Updated Action Spaces; switch cost.event_space.
    """
    space = cast(Point, tuple(action.space))
    kind = r.state.space_kind(space)
    if kind is SpaceKind.LEVER:
        cost = SCHEMING_LEVER_COST if u.side == Side.MONSTER else ACTION_SPACE_COSTS[kind]
        _pay(r, u, cost, (), f"the trap lever at {space}", "manual p37 (trap lever)")
        r.set(destroyed=r.state.destroyed + (space,))
        trigger_traps(r, u, space)
        return
    if kind is SpaceKind.EVENT:
        _pay(r, u, _event_cost(r.rules), (), f"the event space at {space}",
             "manual p37; 3.5 §Updated Action Spaces; switch cost.event_space")
        r.set(destroyed=r.state.destroyed + (space,))
        if action.option == "essence":
            _restore_essence(r, u.id, "the event space")
            invoke_explorer_event(r, r.state.unit(u.id), "the event space")
        else:
            rating = r.state.horror_rating
            value = r.roll("d10", f"event space roll against horror rating {rating}")
            if rating is not None and value >= rating:
                r.emit("event_roll", "event_roll_up", "manual p37", amounts=(value, rating))
                threat_down(r, 1, "the event space roll", source="event_space")
            else:
                r.emit("event_roll", "event_roll_down", "manual p37",
                       amounts=(value, cast(int, rating)))
                reinvoke_horror_event(r, "the event space roll")
        return
    _pay(r, u, ACTION_SPACE_COSTS[kind], (), f"the {kind.name.lower()} at {space}",
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
    r.emit("essence", "restore_essence_one", "manual p18, p37; switch essence.max", who=(who,),
           amounts=(e.essence, new), cause=why)


@dataclass(frozen=True)
class ChapterSpace(Action):
    """Activate an adjacent chapter space, lit or unlit (manual p36)."""

    space: Point = (0, 0)
    contributions: tuple[tuple[str, int], ...] = ()

    spaces: ClassVar[tuple[SpaceKind, ...]] = (SpaceKind.CHAPTER,)
    """The space kinds this action uses (manual p36)."""

    def check_arguments(self) -> None:
        super().check_arguments()
        pair(self.space, "space")
        check_contributions(self.contributions)

    def _verify(self, state: GameState, rules: Rules, u: Unit) -> None:
        space = cast(Point, tuple(self.space))
        _adjacent_space(state, rules, u, space)
        if u.side != Side.EXPLORER or state.space_kind(space) is not SpaceKind.CHAPTER:
            _fail("space", f"{space} is not a chapter space an explorer can activate",
                  "manual p36")
        blocked = state.exit_token is not None or state.chapter.blocking
        if blocked and rules["chapter_space.when_blocked"] == "illegal":
            _fail("space", "the chapter cannot advance (blocking chapter or exit token)",
                  "manual p29, p36; switch chapter_space.when_blocked")
        if space in state.lit:
            _pay_check(state, rules, u, _lit_chapter_cost(rules), self.contributions, space,
                       "manual p36; switch cost.chapter_lit")
        else:
            _pay_check(state, rules, u, UNLIT_CHAPTER_COST, self.contributions, space,
                       "manual p36")

    def _perform(self, r: Resolution, u: Unit) -> None:
        _chapter_space(r, u, self)

    @classmethod
    def at(cls, state: GameState, rules: Rules, u: Unit, q: Point) -> list[Action]:
        """The legal activations of the adjacent chapter space ``q``: an unlit one once for
        each way the explorers may share its essence.

        Rules: manual p36 (chapter spaces), p19 (contributing explorers).
        """
        essence = 0 if q in state.lit else UNLIT_CHAPTER_COST.essence
        return with_splits(state, rules, ChapterSpace(u.id, q), essence, q)


def _chapter_space(r: Resolution, u: Unit, action: ChapterSpace) -> None:
    """Pay for the chapter space, use it up, and advance the chapter unless it is blocked.

    Rules: manual p36 (chapter space), p29 (blocking chapters); switches cost.chapter_lit and
    chapter_space.when_blocked.
    """
    space = cast(Point, tuple(action.space))
    lit = space in r.state.lit
    if lit:
        _pay(r, u, _lit_chapter_cost(r.rules), (), f"the lit chapter space {space}",
             "manual p36; switch cost.chapter_lit")
    else:
        _pay(r, u, UNLIT_CHAPTER_COST, action.contributions, f"the chapter space {space}",
             "manual p36")
    blocked = r.state.exit_token is not None or r.state.chapter.blocking
    if not (blocked and r.rules["chapter_space.when_blocked"] == "pay_no_consume"):
        r.set(destroyed=r.state.destroyed + (space,))
        r.emit("chapter_space", "chapter_space_used", "manual p36", where=(space,))
    if blocked:
        r.emit("chapter_space", "chapter_space_blocked",
               "manual p29, p36; switch chapter_space.when_blocked")
        return
    next_chapter(r, f"{u.id} activates a chapter space")


@dataclass(frozen=True)
class SealSpawn(Action):
    """Seal an adjacent spawn space: 3 stamina + 4 essence (manual p36)."""

    space: Point = (0, 0)
    contributions: tuple[tuple[str, int], ...] = ()

    spaces: ClassVar[tuple[SpaceKind, ...]] = (SpaceKind.SPAWN,)
    """The space kinds this action uses (manual p36)."""

    def check_arguments(self) -> None:
        super().check_arguments()
        pair(self.space, "space")
        check_contributions(self.contributions)

    def _verify(self, state: GameState, rules: Rules, u: Unit) -> None:
        space = cast(Point, tuple(self.space))
        _adjacent_space(state, rules, u, space)
        if u.side != Side.EXPLORER or state.space_kind(space) is not SpaceKind.SPAWN:
            _fail("space", f"{space} is not an unsealed spawn space", "manual p36")
        _pay_check(state, rules, u, SEAL_COST, self.contributions, space,
                   "manual p36 (seal spawn space)")

    def _perform(self, r: Resolution, u: Unit) -> None:
        _seal(r, u, cast(Point, tuple(self.space)), self.contributions)

    @classmethod
    def at(cls, state: GameState, rules: Rules, u: Unit, q: Point) -> list[Action]:
        """The legal seals of the adjacent spawn space ``q``, once for each way the explorers
        may share its essence.

        Rules: manual p36 (seal spawn space), p19 (contributing explorers).
        """
        return with_splits(state, rules, SealSpawn(u.id, q), SEAL_COST.essence, q)


def _seal(r: Resolution, u: Unit, space: Point, contributions: Sequence[tuple[str, int]]
          ) -> None:
    """Seal a spawn space: threat -1, its unit destroyed, two destroyed tokens, light a chapter.

    Rules: manual p36 (seal spawn space).
    """
    _pay(r, u, SEAL_COST, contributions, f"sealing {space}", "manual p36")
    threat_down(r, 1, f"{u.id} seals {space}", source="seal")
    occupant = r.state.unit_at(space)
    if occupant is not None:
        destroy_unit(r, occupant.id, u.id, "the sealed spawn space destroys its unit")
    r.set(destroyed=r.state.destroyed + (space, space))
    r.emit("seal", "sealed", "manual p36 (seal spawn space)", where=(space,))
    light_chapter(r, r.state.unit(u.id), "sealing a spawn space")
