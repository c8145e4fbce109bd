"""The round's four phases as data, and the stepper that moves between them.

Each :class:`Phase` names what happens when it begins, when it is over, what
happens as it ends and which phase follows (boardgame.io's ``on_begin`` /
``end_if`` / ``on_end`` / ``next``). :func:`advance` runs phase changes until
the players have a decision to make. The spawn and horror rolls live here
too: :func:`spawn_roll` and :func:`horror_roll`.

>>> [p.name for p in PHASE_ORDER]
['explorer', 'spawn', 'horror', 'monster']

Rules: manual p10 (round), p12 (explorer phase), p13 (spawn), p14 (horror), p15
(monster phase); 3.5 §Spawn Phase.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, cast

from machina_nb.rules.engine.chapters import everyone_exits
from machina_nb.rules.cards.abilities import Effect
from machina_nb.rules.engine.effects import (SPAWN_LIMIT, explorers_counted, invoke_horror_event,
                                             monsters_on_tile, next_chapter, remove_exit_token,
                                             reset_ratings, return_markers, spawn_monster,
                                             spawn_spaces, threat_up)
from machina_nb.rules.engine.resolution import Resolution, EffectStep
from machina_nb.rules.board.maptext import Point, SpaceKind
from machina_nb.rules.cite import Cite
from machina_nb.rules.rulings import Rules
from machina_nb.rules.engine.state import GameState, MonsterTurn, PhaseName, Side, Unit
from machina_nb.rules.engine.triggers import fire_explorer_phase
from machina_nb.rules.odds.processes import adjusted_spawn_rating

__all__ = ["Phase", "PHASE_ORDER", "PHASES_BY_NAME", "advance", "spawn_rollers", "spawn_roll",
           "horror_roll", "current_monster", "start_new_round", "start_new_round_effect",
           "reset_stamina"]


@dataclass(frozen=True)
class Phase:
    """One phase of the round as data (manual p10)."""

    name: PhaseName
    rule: str
    on_begin: Callable[[Resolution], None]
    end_if: Callable[[GameState, Rules], bool]
    on_end: Callable[[Resolution], None]
    next: PhaseName


# --- explorer phase -----------------------------------------------------------------------

def reset_stamina(state: GameState, rules: Rules, unit: Unit) -> int:
    """The stamina an explorer resets to: the maximum, as modified by lasting
    ``stamina_modifier`` effects (``stamina.reset = modified``, manual p12) or as printed
    (``printed``, the player aid; switch stamina.reset). Clamped to 0..max: current stamina never
    exceeds its maximum (manual p18), so a raise shows only once stamina is below it.

    Rules: manual p12 (explorer phase: reset stamina), p18, p27; switch stamina.reset.
    """
    if rules["stamina.reset"] == "printed":
        return unit.max_stamina
    change = sum(e.amount for e in state.lasting
                 if e.op == "stamina_modifier" and e.target == unit.id)
    return max(0, min(unit.max_stamina, unit.max_stamina + change))


def _explorer_begin(r: Resolution) -> None:
    fire_explorer_phase(r)      # "at the start of the Explorer phase" triggers come first (p27)
    return_markers(r, "explorer", "explorer phase begins")
    s = r.state
    units = tuple(replace(u, stamina=reset_stamina(s, r.rules, u)) if u.side == Side.EXPLORER
                  else u for u in s.units)
    r.set(units=units, done=(), turns=(), active=None)
    r.emit("stamina", "stamina_reset", "manual p12; switch stamina.reset",
           words=(r.rules["stamina.reset"],))


def start_new_round(r: Resolution, why: str) -> None:
    """*Start a New Round*: a fresh explorer phase at once — stamina to maximum, markers back.

    Rules: manual p28 (chapter effects: start a new round).
    """
    r.set(phase=PhaseName.EXPLORER, round=r.state.round + 1, monster_turn=None)
    r.emit("round", "round_at_once", "manual p28", amounts=(r.state.round,), cause=why)
    _explorer_begin(r)


def start_new_round_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """A chapter's "start a new round" (manual p28)."""
    start_new_round(r, step.label)


def _explorer_over(state: GameState, rules: Rules) -> bool:
    return state.active is None and all(e.id in state.done for e in state.explorers_on_map)


# --- spawn phase --------------------------------------------------------------------------

def spawn_rollers(state: GameState, rules: Rules) -> tuple[Unit, ...]:
    """Explorers who may roll next, in the order ``spawn10.roll_order`` allows (switch spawn10.roll_order).

    An explorer rolls unless they exited or every spawn space on their tile is
    destroyed; a tile with no spawn spaces at all follows ``spawn.no_spawn_spaces``
    (switch spawn.no_spawn_spaces). Under ``players_choose`` any of them may roll next.
    Rules: manual p13 (spawn phase); switches spawn10.roll_order and spawn.no_spawn_spaces.
    """
    if state.phase != PhaseName.SPAWN or state.spawn_rating is None:
        return ()
    eligible = []
    for e in state.explorers_on_map:
        if e.id in state.done:
            continue
        tile = state.tile_of(cast(Point, e.position))
        if not spawn_spaces(state, tile):
            printed = any(state.tile_of(p) == tile
                          for p in state.map.spaces(SpaceKind.SPAWN))
            if printed or rules["spawn.no_spawn_spaces"] == "skip":
                continue
        eligible.append(e)
    order = rules["spawn10.roll_order"]
    if order == "players_choose" or rules["spawn.procedure"] == "v3_5":
        return tuple(eligible)
    if order == "turn_order":
        rank = {x: i for i, x in enumerate(state.turns)}
        eligible.sort(key=lambda e: rank.get(e.id, len(rank)))
    return tuple(eligible[:1])


def _spawn_begin(r: Resolution) -> None:
    r.set(done=())
    s = r.state
    if s.spawn_rating is None:
        r.emit("phase", "no_spawn_rating", "manual p28")
        return
    if r.rules["spawn.procedure"] != "v3_5":
        return
    _spawn_timer(r)
    if r.rules["adjust35.when"] == "every_phase_start" and r.state.spawn_rating is not None:
        new = adjusted_spawn_rating(r.state.spawn_rating, explorers_counted(r.state, r.rules))
        r.set(spawn_rating=new)
        r.emit("ratings", "spawn_adjusted", "3.5 §Spawn Phase; switch adjust35.when",
               amounts=(new,))


def _spawn_timer(r: Resolution) -> None:
    """The 3.5 rating-1 step at the start of the spawn phase: threat up, then the next chapter
    (adjusted under ``adjust35.when = rating1_only``) or, in a blocking chapter, a reset.

    Rules: 3.5 §Spawn Phase and FAQ; switches threat35.amount, timer35.exit_chapter,
    adjust35.when.
    """
    s = r.state
    if s.spawn_rating != 1:
        return
    if s.chapter.horror_rating is None and r.rules["threat35.no_horror_rating"] == "skip_rule":
        r.emit("timer", "timer_no_horror_rating", "3.5 §Spawn Phase; switches threat35.amount and threat35.no_horror_rating (threat35.no_horror_rating = "
               "skip_rule)")
        return
    printed = s.chapter.horror_rating or 0
    amount = printed if r.rules["threat35.amount"] == "default_printed" else (s.horror_rating or 0)
    r.emit("timer", "timer_threat_zero" if s.chapter.horror_rating is None else "timer_threat",
           "3.5 §Spawn Phase; switches threat35.amount and threat35.no_horror_rating",
           amounts=(amount,))
    threat_up(r, amount, "3.5 spawn timer")
    chapter = r.state.chapter
    if not chapter.blocking or chapter.places_exit:
        if r.state.exit_token is not None:
            reading = r.rules["timer35.exit_chapter"]
            r.emit("timer", "timer_exit_chapter", "3.5 FAQ; switch timer35.exit_chapter",
                   words=(reading,))
            if reading == "full_exit_procedure":
                everyone_exits(r, "the 3.5 timer ends an exit-token chapter")
                return
            if reading != "keep_token":
                remove_exit_token(r)
        next_chapter(r, "3.5 spawn timer (non-blocking chapter)")
        if r.rules["adjust35.when"] == "rating1_only" and r.state.spawn_rating is not None:
            r.set(spawn_rating=adjusted_spawn_rating(r.state.spawn_rating,
                                                     explorers_counted(r.state, r.rules)))
    else:
        reset_ratings(r, spawn=True, horror=False,
                      adjust=r.rules["adjust35.when"] == "rating1_only")
        r.emit("timer", "timer_blocking_chapter", "3.5 FAQ")


def spawn_roll(r: Resolution, explorer: Unit) -> None:
    """One explorer's spawn roll against the current spawn rating (manual p13; 3.5).

    1.0: success spawns (or threat +1 at the 4-monster limit) and resets the
    rating (``spawn10.reset_on_limit``, switch spawn10.reset_on_limit); failure lowers it by 1
    (``rating.floor``, switch rating.floor). 3.5: success spawns or gives threat +1; the
    rating does not change (``spawn35.reset_on_success``, switch spawn35.reset_on_success).
    Rules: manual p13 (spawn phase), 3.5 §Spawn Phase; switches spawn.procedure and spawn.limit_scope.
    """
    s = r.state
    rating = cast(int, s.spawn_rating)     # spawn rollers exist only with a rating
    value = r.roll("d10", f"{explorer.id}'s spawn roll against {rating}")
    r.set(done=s.done + (explorer.id,))
    v35 = r.rules["spawn.procedure"] == "v3_5"
    rule = "3.5 §Spawn Phase" if v35 else "manual p13 (spawn phase)"
    if value < rating:
        if v35:
            r.emit("spawn_roll", "spawn_roll_nothing", Cite.parse(rule), who=(explorer.id,),
                   amounts=(value, rating), dice=(value,))
            return
        new = rating - 1 if r.rules["rating.floor"] == "none" else max(1, rating - 1)
        r.set(spawn_rating=new)
        r.emit("spawn_roll", "spawn_roll_lower", Cite.parse(rule + "; switch rating.floor"),
               who=(explorer.id,), amounts=(value, rating, new), dice=(value,))
        return
    r.emit("spawn_roll", "spawn_roll_spawns", Cite.parse(rule), who=(explorer.id,),
           amounts=(value, rating), dice=(value,))
    limited = r.rules["spawn.limit_scope"] != "none" and \
        monsters_on_tile(r.state, r.state.tile_of(cast(Point, explorer.position))) >= SPAWN_LIMIT
    if limited:
        threat_up(r, 1, f"{SPAWN_LIMIT} monsters already on {explorer.id}'s tile")
    else:
        spawn_monster(r, cast(Point, explorer.position), False, f"{explorer.id}'s spawn roll")
    if v35:
        if r.rules["spawn35.reset_on_success"] == "yes":
            reset_ratings(r, spawn=True, horror=False)
        return
    if limited and r.rules["spawn10.reset_on_limit"] == "no":
        r.emit("ratings", "spawn_limit_rating_stays", "switch spawn10.reset_on_limit")
        return
    reset_ratings(r, spawn=True, horror=False)


def _spawn_over(state: GameState, rules: Rules) -> bool:
    return not spawn_rollers(state, rules)


def _spawn_end(r: Resolution) -> None:
    s = r.state
    if r.rules["spawn.procedure"] == "v3_5" and s.spawn_rating is not None:
        r.set(spawn_rating=s.spawn_rating - 1)
        r.emit("ratings", "spawn_phase_end", "3.5 §Spawn Phase",
               amounts=(s.spawn_rating, s.spawn_rating - 1))


# --- horror phase -------------------------------------------------------------------------

def _horror_begin(r: Resolution) -> None:
    r.set(done=())
    skipped = r.state.horror_rating is None
    if not skipped or r.rules["markers.skipped_horror_phase"] == "return_anyway":
        return_markers(r, "horror", "horror phase begins")
    if skipped:
        r.emit("phase", "no_horror_rating", "manual p28; switch markers.skipped_horror_phase")


def horror_roll(r: Resolution) -> None:
    """One d10 against the current horror rating: invoke a horror event or lower it (manual p14).

    Rules: manual p14 (horror phase); switch rating.floor.
    """
    s = r.state
    rating = cast(int, s.horror_rating)     # the horror roll only with a rating
    value = r.roll("d10", f"horror roll against {rating}")
    r.set(done=s.done + ("horror",))
    if value >= rating:
        r.emit("horror_roll", "horror_roll_invokes", "manual p14", amounts=(value, rating))
        r.set(horror_rating=s.chapter.horror_rating)
        invoke_horror_event(r, "horror roll")
    else:
        new = rating - 1 if r.rules["rating.floor"] == "none" else max(1, rating - 1)
        r.set(horror_rating=new)
        r.emit("horror_roll", "horror_roll_lower", "manual p14; switch rating.floor",
               amounts=(value, rating, new))


def _horror_over(state: GameState, rules: Rules) -> bool:
    return state.horror_rating is None or "horror" in state.done


# --- monster phase ------------------------------------------------------------------------

def current_monster(state: GameState) -> str | None:
    """The monster whose turn it is: the oldest in the queue that has not acted (manual p15)."""
    if state.phase != PhaseName.MONSTER:
        return None
    for m in state.queue:
        if m not in state.done:
            return m
    return None


def _monster_begin(r: Resolution) -> None:
    r.set(done=(), monster_turn=None)
    if not r.state.queue:
        r.emit("phase", "no_monsters", "manual p15")
    _start_monster_turn(r)


def _start_monster_turn(r: Resolution) -> None:
    """Begin the next monster's turn: its stamina restores (manual p18)."""
    m = current_monster(r.state)
    if m is None or (r.state.monster_turn and r.state.monster_turn.monster == m):
        return
    u = r.state.unit(m)
    r.state = r.state.with_unit(u.evolve(stamina=u.max_stamina), monster_turn=MonsterTurn(m))
    controlled = r.state.controller(m)
    rule = "manual p15 (queue), p18 (stamina restores)"
    if controlled:
        r.emit("monster_turn", "monster_turn_controlled", rule, who=(m, controlled),
               amounts=(u.max_stamina,))
    else:
        r.emit("monster_turn", "monster_turn_begins", rule, who=(m,), amounts=(u.max_stamina,),
               words=("scheming" if r.state.scheming else "mindless",))


def _monster_over(state: GameState, rules: Rules) -> bool:
    return current_monster(state) is None


def _round_end(r: Resolution) -> None:
    r.set(round=r.state.round + 1, monster_turn=None)
    r.emit("round", "round_begins", "manual p10", amounts=(r.state.round,))


PHASE_ORDER = (
    Phase(PhaseName.EXPLORER, "manual p12", _explorer_begin, _explorer_over, lambda r: None,
          PhaseName.SPAWN),
    Phase(PhaseName.SPAWN, "manual p13; 3.5 §Spawn Phase", _spawn_begin, _spawn_over, _spawn_end,
          PhaseName.HORROR),
    Phase(PhaseName.HORROR, "manual p14", _horror_begin, _horror_over, lambda r: None,
          PhaseName.MONSTER),
    Phase(PhaseName.MONSTER, "manual p15", _monster_begin, _monster_over, _round_end,
          PhaseName.EXPLORER),
)
"""The round (manual p10): each phase's begin, end condition, end and successor."""

PHASES_BY_NAME: dict[str, Phase] = {p.name: p for p in PHASE_ORDER}


def advance(r: Resolution) -> None:
    """Move through phases while the current one is over and the game goes on (manual p10).

    Stops after one full round without a decision (no explorer on the map).
    Rules: manual p10 (round), p12-15.
    """
    _start_monster_turn(r)
    for _ in range(len(PHASE_ORDER) + 1):
        s = r.state
        if s.over:
            return
        phase = PHASES_BY_NAME[s.phase]
        if not phase.end_if(s, r.rules):
            return
        phase.on_end(r)
        r.set(phase=phase.next)
        r.emit("phase", "phase_begins", PHASES_BY_NAME[phase.next].rule, words=(phase.next.value,))
        PHASES_BY_NAME[phase.next].on_begin(r)
