"""Effects that move units: move up to N, teleport, switch positions, push and pull, with what
a move sets off (a pit, a trap lever, a barrel).

Rules: manual p16-17 (mindless moves, immobile), p23 (move effect), p25 (teleport, switch,
push, pull), p34-35 (move, pits, barrels), p37 (trap levers).
"""

from __future__ import annotations

from typing import Sequence, cast

from machina_nb.rules.board import distance, placement
from machina_nb.rules.board.maptext import Point, SpaceKind
from machina_nb.rules.cards.abilities import Effect
from machina_nb.rules.cite import Cite
from machina_nb.rules.engine.cardplay import moves_through
from machina_nb.rules.engine.effects.combat import destroy_unit, explode_barrel
from machina_nb.rules.engine.effects.map_spaces import trigger_traps
from machina_nb.rules.engine.monsters import effect_move
from machina_nb.rules.engine.resolution import Resolution, EffectStep
from machina_nb.rules.board.placement import Displacement
from machina_nb.rules.engine.state import Side, Unit

__all__ = ["move_effect", "teleport_effect", "switch_effect", "push_effect"]


# --- moves ------------------------------------------------------------------------------------

def _move_effect(r: Resolution, unit_id: str, amount: int, why: str) -> None:
    """"Move up to N" on a unit: a mindless monster heads for its closest explorer, anyone
    else goes where the players choose within N steps (past obstacles when it moves through
    them: the Aeromantle, manual p30); no stamina (manual p23, p34).

    Rules: manual p23 (affected units of a move), p34 (move), p35 (pits); switch move_effect.mindless_doors.
    """
    s = r.state
    u = s.unit(unit_id)
    if u.immobile:
        r.emit("move", "immobile", Cite("manual", ("p17",)), cause=why, who=(unit_id,))
        return
    if u.side == Side.MONSTER and not s.scheming:
        plan = effect_move(s, r.rules, unit_id, amount, tuple(r.choices))
        if plan.options:
            r.choose(plan.options, plan.choice_of, "manual p16")   # raises NeedChoice
        path = plan.path
        end = path[-1] if path else cast(Point, u.position)
    else:
        board = s.unit_board()
        spaces = distance.reach(board, cast(Point, u.position), amount, r.rules, distance.Mover(
            unit=u.id, move_through=moves_through(s, u.id, r.rules), obstacles_only=True))
        end = r.choose(tuple(spaces), f"where {unit_id} moves (up to {amount})", "manual p23")
        path = (end,)
    if end == u.position:
        r.emit("move", "stays", Cite("manual", ("p23",)), cause=why, who=(unit_id,),
               where=(end,))
        return
    r.state = s.update_unit(unit_id, position=end)
    r.emit("move", "effect_moves" if len(path) == 1 else "effect_moves_steps",
           "manual p23 (move effect)", who=(unit_id,), where=(cast(Point, u.position), end),
           amounts=(len(path),), cause=why)
    if r.state.is_kind(end, SpaceKind.PIT):
        destroy_unit(r, unit_id, r.actor if r.actor != unit_id else None,
                     f"{why}: moved into a pit")


def _teleport(r: Resolution, unit_id: str, amount: int, why: str) -> None:
    """Teleport within ``amount`` spaces to a passable, unoccupied space the players choose;
    a pit destroys the unit (manual p25, p35).

    Rules: manual p25 (teleport within X).
    """
    u = r.state.unit(unit_id)
    where = placement.teleport_within(r.state.unit_board(), cast(Point, u.position), amount,
                                      r.rules)
    if not where.candidates:
        r.emit("teleport", "teleport_nowhere", Cite("manual", ("p25",)), cause=why,
               amounts=(amount,))
        return
    end = r.choose(where.candidates, f"where {unit_id} teleports", "manual p25 (teleport)")
    r.state = r.state.update_unit(unit_id, position=end)
    r.emit("teleport", "teleports", Cite("manual", ("p25",)), cause=why, who=(unit_id,),
           where=(cast(Point, u.position), end))
    if end in where.lethal:
        destroy_unit(r, unit_id, r.actor if r.actor != unit_id else None,
                     f"{why}: teleported into a pit")


def _push(r: Resolution, unit_id: str, user: Unit | None, amount: int, op: str, why: str,
          up_to: bool = False) -> None:
    """Push (away) or pull (toward) a unit with :mod:`placement`, then apply what it set off.

    "Push N" goes as far as it can, up to N (``push.blocked``); a card worded "up to
    N" (``up_to``) lets the players choose where it stops, 0..N spaces (switch push.blocked), also for
    a mindless monster's card (``mindless.up_to = players_choose``), or a mindless monster
    goes as far as it can (``full_amount``).
    A pit destroys the unit (a kill for the pusher), a trap lever triggers the
    traps, a barrel counts as hit (manual p25, p35, p37).
    Rules: manual p25 (push, pull), p16; rulings D15, D16, D17, D34; switch mindless.up_to.
    """
    if user is None or user.position is None:
        return
    s = r.state
    move = placement.push if op == "push" else placement.pull
    immobile = tuple(u.id for u in s.units if u.immobile)
    options: Sequence[Displacement] = move(
        s.unit_board(), cast(Point, s.unit(unit_id).position), user.position, amount, r.rules,
        by=user.id, immobile=immobile, up_to=up_to)
    rule = "switch push.blocked"
    if up_to and user.side == Side.MONSTER and not s.scheming and \
            r.rules["mindless.up_to"] == "full_amount" and options:
        longest = max(len(o.path) for o in options)
        options = [o for o in options if len(o.path) == longest]
        rule += "; switch mindless.up_to (full_amount)"
    done = r.choose(options, f"where the {op} " + (f"stops (up to {amount})" if up_to else
                                                    "slides"), rule)
    if done.end != s.unit(unit_id).position:
        r.state = s.update_unit(unit_id, position=done.end)
    r.emit(op, "displaced", "; ".join(done.rules), who=(unit_id,), where=done.path,
           words=(done.stopped,), cause=why)
    if done.destroyed and r.state.has_unit(unit_id):
        destroy_unit(r, unit_id, done.kill_by, f"{why}: moved into a pit")
    for trigger in done.triggers:
        if trigger.what == "trap_lever" and trigger.optional and r.choose(
                ("activate", "decline"), f"whether the {op} activates the lever at "
                f"{trigger.space}", "3.5 §Trigger Traps; switches traps.push_activation and traps.push_activator") == "decline":
            continue
        if trigger.what == "trap_lever":
            activator = r.state.unit(trigger.activator) if trigger.activator and \
                r.state.has_unit(trigger.activator) else None
            r.set(destroyed=r.state.destroyed + (trigger.space,))
            trigger_traps(r, activator, trigger.space)
        elif trigger.what == "barrel":
            explode_barrel(r, trigger.space, user.id, False)

# --- handlers of movement effects (the table is vocabulary.EFFECT_HANDLERS) -------------------

def move_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """"Move up to N" on each unit in scope (manual p23, p34)."""
    for u in step.scope:
        _move_effect(r, u, e.amount, step.label)


def teleport_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """Teleport within N each unit in scope (manual p25)."""
    for u in step.scope:
        _teleport(r, u, e.amount, step.label)


def switch_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """The user trades places with each mobile unit in scope.

    Rules: manual p25 (switch positions), p17 (immobile).
    """
    user = step.user
    if user is None or user.position is None:
        return
    for u in step.scope:
        other = r.state.unit(u)
        if u != user.id and not other.immobile:
            mine, theirs = user.position, other.position
            r.state = r.state.update_unit(user.id, position=None)
            r.state = r.state.update_unit(u, position=mine)
            r.state = r.state.update_unit(user.id, position=theirs)
            r.emit("switch", "trade_places", Cite("manual", ("p25",), "switch positions"),
                   cause=step.label, who=(user.id, u))


def push_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """Push or pull each unit in scope (manual p25)."""
    for u in step.scope:
        _push(r, u, step.user, e.amount, e.op, step.label, e.up_to)
