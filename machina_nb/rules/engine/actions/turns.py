"""Turns and the phases' own actions: :class:`StartTurn`, :class:`EndTurn`, the rolls
(:class:`RollSpawn`, :class:`RollHorror`) and the mindless monster's steps
(:class:`MonsterAct`), each kind's check and resolution side by side.

Rules: manual p12 (explorer turns), p13 (spawn roll), p14 (horror roll), p15-17 (monster
phase), p16 (the explorers resolve a mindless monster's ambiguities), p23 (two targets).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, cast

from machina_nb.rules.board.maptext import BorderKind, Point
from machina_nb.rules.cite import Cite
from machina_nb.rules.engine.actions.abilities import _abilities, _play, second_targets
from machina_nb.rules.engine.actions.core import Action, _fail
from machina_nb.rules.engine.actions.movement import _move
from machina_nb.rules.engine.effects import set_door
from machina_nb.rules.engine.monsters import DOOR_DESTROY_COST, mindless_step
from machina_nb.rules.engine.plans import PlannedAbility, PlannedDoor, PlannedMove
from machina_nb.rules.engine.phases import current_monster, horror_roll, spawn_roll, spawn_rollers
from machina_nb.rules.engine.resolution import Event, Kind, NeedChoice, Resolution
from machina_nb.rules.engine.state import GameState, MonsterTurn, PhaseName, Side, Unit
from machina_nb.rules.rulings import Rules

__all__ = ["StartTurn", "EndTurn", "RollSpawn", "RollHorror", "MonsterAct"]

TURNS = Cite("manual", ("p12",))
"""The rule of explorer turns."""


@dataclass(frozen=True)
class StartTurn(Action):
    """An explorer begins their turn; explorers pick their order (manual p12)."""

    def verify(self, state: GameState, rules: Rules) -> None:
        """Between turns of the explorer phase, an explorer who has not acted (manual p12)."""
        if state.phase != PhaseName.EXPLORER or state.active is not None:
            _fail("action", "a turn can start only in the explorer phase between turns",
                  "manual p12")
        u = state.unit(self.actor)
        if u.side != Side.EXPLORER or u.position is None or u.id in state.done:
            _fail("actor", f"{self.actor} cannot take a turn now", "manual p12")

    def perform(self, r: Resolution) -> None:
        """The explorer becomes the active one (manual p12)."""
        r.set(active=self.actor, turns=r.state.turns + (self.actor,))
        r.emit("turn", "turn_begins", TURNS, who=(self.actor,))


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


def _end_turn(r: Resolution, u: Unit) -> None:
    """An explorer's turn ends with their stamina at 0; a scheming monster's turn ends.

    Rules: manual p12 (end turn), p15 (scheming monsters).
    """
    if u.side == Side.EXPLORER:
        r.state = r.state.update_unit(u.id, stamina=0)
        r.set(active=None, done=r.state.done + (u.id,))
        r.emit("turn", "turn_ends", TURNS, who=(u.id,))
    else:
        _finish_monster(r, u.id, "players")


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
        if state.phase != PhaseName.HORROR or state.horror_rating is None or "horror" in state.done:
            _fail("action", "the horror roll is made once, in the horror phase", "manual p14")

    def perform(self, r: Resolution) -> None:
        """The horror roll and the horror event it invokes (manual p14)."""
        horror_roll(r)


@dataclass(frozen=True)
class MonsterAct(Action):
    """The mindless monster's next action (manual p15-17); ``choices`` answer its ties."""

    def verify(self, state: GameState, rules: Rules) -> None:
        """The monster first in the queue, if mindless (manual p15-16)."""
        if state.phase != PhaseName.MONSTER or current_monster(state) != self.actor:
            _fail("actor", f"it is not {self.actor}'s turn", "manual p15 (queue)")
        if state.player_driven(self.actor):
            _fail("actor", "scheming and controlled monsters are moved by the players' actions",
                  "manual p15 (scheming), p25 (control monster)")

    def perform(self, r: Resolution) -> None:
        """The next step of the mindless monster's plan (manual p15-17)."""
        _monster_act(r, self)


def _monster_act(r: Resolution, action: MonsterAct) -> None:
    """The plan's reasons, then its next step: a move, an ability, a closed door destroyed,
    or the end of the turn; a tie the plan leaves open waits for the players.

    Rules: manual p15-17 (mindless monsters), p16 (the players resolve ties), p36 (doors).
    """
    plan = mindless_step(r.state, r.rules, action.actor, action.choices)
    if plan.options:
        raise NeedChoice(plan.choice_of, plan.options, "manual p16")
    for reason in plan.reasons:
        r.events.append(Event(Kind.REASON, "monster_reason", reason.who, reason.where,
                              reason.amounts, words=reason.words, cite=_PLAN, reason=reason))
    turn = r.state.monster_turn or MonsterTurn(action.actor)
    m = r.state.unit(action.actor)
    path = (cast(Point, m.position),) + plan.path if plan.established else turn.path
    turn = MonsterTurn(turn.monster, plan.target, plan.goal, turn.played, path)
    step = plan.action
    if isinstance(step, PlannedMove):   # the step and the turn's note change the state at once
        walked = path[1:] if path[1:2] == (step.to,) else ()
        _move(r, m, step.to, monster_turn=MonsterTurn(turn.monster, turn.target, turn.goal,
                                                      turn.played + ("move",), walked))
        return
    r.set(monster_turn=turn)
    if isinstance(step, PlannedAbility):
        _play(r, m, step.index, _mindless_second(r, m, step.index, step.target), 0, ())
    elif isinstance(step, PlannedDoor):
        set_door(r, step.a, step.b, BorderKind.DOOR_DESTROYED)
        r.state = r.state.update_unit(m.id, stamina=m.stamina - DOOR_DESTROY_COST)
        r.emit("door", "door_destroy_monster", "manual p16, p36", who=(m.id,),
               where=(step.a, step.b), amounts=(DOOR_DESTROY_COST,))
        turn = cast(MonsterTurn, r.state.monster_turn)
        r.set(monster_turn=replace(turn, played=turn.played + ("door",)))
    else:
        _finish_monster(r, m.id, "no_step_left")


_PLAN = Cite.parse("manual p15-17")


def _finish_monster(r: Resolution, monster: str, why: str) -> None:
    """The monster's turn ends and it leaves the queue (manual p16); ``why`` is the key of
    the phrase saying why (``turn_ends_`` and it in the phrasebook)."""
    r.set(done=r.state.done + (monster,), monster_turn=None)
    r.emit("monster_turn", f"monster_turn_ends_{why}", "manual p16", who=(monster,))


def _mindless_second(r: Resolution, m: Unit, index: int, target: Point | tuple[Point, Point] | None
                     ) -> Point | tuple[Point, Point] | None:
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
    return cast(Point, tuple(target)), cast(Point, tuple(second))


def _monster_acts(state: GameState, rules: Rules, m: str, choices: tuple[Any, ...]
                  ) -> list[Action]:
    """One MonsterAct per way the players may answer the plan's ties (manual p16)."""
    plan = mindless_step(state, rules, m, choices)
    if plan.options and len(choices) < 3:
        return [a for o in plan.options for a in _monster_acts(state, rules, m, choices + (o,))]
    return [MonsterAct(m, choices=choices)]
