"""Damage, death and attacks: losing health, destroying and banishing units, attack rolls,
essence spent on them, and exploding barrels (an attack that a hit barrel makes).

The barrel lives here because a struck barrel explodes and its explosion strikes again.

Rules: manual p18-19 (health, essence, death, banish), p23-25 (blockers, attacks, kills),
p35 (exploding barrel).
"""

from __future__ import annotations

from typing import Mapping, Sequence

from machina_nb.rules.board.maptext import Point, SpaceKind
from machina_nb.rules.board.terrain import adjacent
from machina_nb.rules.cite import Cite
from machina_nb.rules.cards.abilities import Effect
from machina_nb.rules.engine.binding import release_bound_events
from machina_nb.rules.engine.cardplay import attribute as current_attribute, passive_total
from machina_nb.rules.engine.holdings import discard_inventory
from machina_nb.rules.engine.resolution import Resolution, EffectStep, resolve
from machina_nb.rules.engine.state import Deck, GameState, PhaseName, Side
from machina_nb.rules.engine.triggers import fire, fire_when_destroyed
from machina_nb.rules.rulings import Rules

__all__ = [
    "PAY_WITH", "lose_health", "destroy_unit", "roll_modifier", "attack", "spend_essence",
    "strike", "explode_barrel", "attack_effect", "restore_effect", "lose_health_effect",
    "banish_effect",
]


# --- damage, death, banish --------------------------------------------------------------------

PAY_WITH = ("health", "essence")
ATTACK = Cite("manual", ("p24",), "attack")
"""The rule of an attack roll."""
"""The players' answer when an explorer with essence loses health: pay each point with (p18)."""


def lose_health(r: Resolution, unit_id: str, amount: int, killer: str | None, why: str) -> None:
    """A unit loses health; at 0 it is destroyed (manual p18-19).

    An explorer with essence may lose essence instead, point for point: the
    players choose ``"health"`` or ``"essence"`` for each point (manual p18).
    """
    u = r.state.unit(unit_id)
    if u.side == Side.EXPLORER:
        for _ in range(amount):
            u = r.state.unit(unit_id)
            if u.essence and r.choose(PAY_WITH, f"how {unit_id} pays 1 health", "manual p18 "
                                      "(essence instead of health)") == "essence":
                r.state = r.state.update_unit(unit_id, essence=u.essence - 1)
                r.emit("essence", "essence_for_health", Cite("manual", ("p18",)), cause=why,
                       who=(unit_id,))
                amount -= 1
        u = r.state.unit(unit_id)
        if amount == 0:
            return
    health = max(0, u.health - amount)
    r.state = r.state.update_unit(unit_id, health=health)
    r.emit("health", "health_loss", Cite("manual", ("p18",), "health"), cause=why,
           who=(unit_id,), amounts=(amount, u.health, health))
    if health == 0:
        destroy_unit(r, unit_id, killer, why)


def destroy_unit(r: Resolution, unit_id: str, killer: str | None, why: str,
                 banish: bool = False) -> None:
    """Remove a destroyed (or banished) unit, with death's consequences (manual p19).

    A monster's card goes to the destroyed pile, or out of the game when its
    level is below the monster level and it is not level 4. A kill on an
    explorer's turn restores 1 essence by ``essence.kill_credit`` (switch essence.kill_credit);
    banish gives nothing. A destroyed explorer makes monsters scheming; the
    last one loses the game.
    Rules: manual p19 (death, banish), p18 (essence), p25 (kill); switch essence.kill_credit.
    """
    s = r.state
    u = s.unit(unit_id)
    units = tuple(x for x in s.units if x.id != unit_id)
    lasting = tuple(e for e in s.lasting if e.target != unit_id and e.holder != unit_id
                    and e.card != f"unit:{unit_id}")     # its card leaves: markers return (p27)
    if u.side == Side.MONSTER:
        origin = u.origin
        destroyed = s.monsters.destroyed
        if origin is not None and not (origin.level < s.level and origin.level != 4):
            destroyed = (origin,) + destroyed
        r.set(units=units, queue=tuple(q for q in s.queue if q != unit_id), lasting=lasting,
              monsters=Deck(s.monsters.cards, destroyed), done=tuple(d for d in s.done
                                                                    if d != unit_id))
        verb = "banished" if banish else "destroyed"
        r.emit(verb, verb, Cite("manual", ("p19",), "banish" if banish else "destroyed monsters"),
               cause=why, who=(unit_id,))
        release_bound_events(r, unit_id, "monster")
        if origin is not None and destroyed is s.monsters.destroyed:   # removed from the game
            r.set(removed=r.state.removed + (origin,))
        if not banish:
            fire_when_destroyed(r, u, killer)
            _kill_credit(r, killer, unit_id)
            _kill_triggers(r, killer, unit_id)
        return
    r.set(units=units, lasting=lasting, dead=s.dead + (unit_id,),
          done=tuple(d for d in s.done if d != unit_id),
          active=None if s.active == unit_id else s.active)
    r.emit("death", "explorer_destroyed", "manual p19 (death), p15 (scheming)", who=(unit_id,),
           cause=why)
    release_bound_events(r, unit_id, "explorer")
    fire_when_destroyed(r, u, killer)
    discard_inventory(r, unit_id)
    if not r.state.explorers:
        r.set(over="lost")
        r.emit("game", "game_lost", Cite("manual", ("p3",)), who=())


def _kill_triggers(r: Resolution, killer: str | None, victim: str) -> None:
    """Binding events that trigger when their explorer kills a unit (manual p26, p25: kills).

    Rules: manual p26 (triggered conditionals, counted conditions), p25 (kill).
    """
    if killer is None or not r.state.has_unit(killer):
        return
    for who, card in r.state.bound:
        if who == killer and card.on_kill and r.state.has_unit(killer):
            r.emit("trigger", "kill_triggers", "manual p26", who=(killer, victim),
                   words=(card.name,))
            resolve(r, card.on_kill, r.state.unit(killer), None, card.name)
    fire(r, "kill", killer, f"{killer} killed {victim}")


def _kill_credit(r: Resolution, killer: str | None, victim: str) -> None:
    s = r.state
    reading = r.rules["essence.kill_credit"]
    if reading == "turn_owner":
        who = s.active if s.phase == PhaseName.EXPLORER else None
    elif reading == "killer_on_own_turn":
        who = killer if killer is not None and killer == s.active and s.phase == PhaseName.EXPLORER \
            else None
    else:
        who = killer if killer is not None and s.has_unit(killer) and \
            s.unit(killer).side == Side.EXPLORER else None
    if who is None or not s.has_unit(who):
        return
    e = s.unit(who)
    if e.side != Side.EXPLORER:
        return
    new = min(e.max_essence, e.essence + 1)
    r.state = s.update_unit(who, essence=new)
    r.emit("essence", "kill_essence", f"manual p18-19; switch essence.kill_credit ({reading})",
           who=(who, victim), amounts=(e.essence, new))

# --- attacks ----------------------------------------------------------------------------------

def roll_modifier(state: GameState, unit_id: str, rules: Rules | None = None) -> int:
    """The sum of lasting and passive effects changing a unit's attack rolls (manual p21, p27)."""
    return sum(e.amount for e in state.lasting if e.op == "roll_modifier" and
               e.target == unit_id) + passive_total(state, "roll_modifier", unit_id,
                                                    rules=rules)


def attack(r: Resolution, attacker: str | None, blockers: Sequence[str], high: int, low: int,
           arcane: bool, essence_budget: int = 0, why: str = "attack",
           barrels: Sequence[Point] = ()) -> tuple[str, ...]:
    """One attack roll against every blocker; each hit costs 1 health (manual p24).

    The dice are summed, roll modifiers added, and essence spent after the
    roll: an explorer attacker with a budget spends the least that makes a
    single blocker a hit (manual p18). Against several blockers
    ``essence.multi_blocker`` (switch essence.multi_blocker) decides: ``shared_total`` raises the one
    total against all of them (spending the least that hits every blocker the
    budget can reach); ``per_blocker`` raises it only against the blockers the
    players choose, one at a time, each paying its own need while the budget lasts.
    ``barrels`` are exploding barrels among the blockers: a total of 1 or more hits them
    (manual p35). Returns the units hit.
    Rules: manual p24 (attack), p18 (essence), p23 (one roll for several blockers), p35;
    switch essence.multi_blocker.
    """
    faces = [r.roll("high", why) for _ in range(high)] + [r.roll("low", why) for _ in range(low)]
    total = sum(faces)
    if attacker is not None and r.state.has_unit(attacker):
        total += roll_modifier(r.state, attacker, r.rules)
    attribute = "will" if arcane else "armor"
    live = [b for b in blockers if r.state.has_unit(b)]
    total, bonus = spend_essence(r, attacker, live, total, attribute, essence_budget)
    if r.rules["roll.floor"] == "clamp0":
        total = max(0, total)
    r.emit("roll", "arcane_roll" if arcane else "attack_roll", ATTACK, cause=why,
           amounts=(high, low, total), dice=tuple(faces))
    return strike(r, attacker, live, barrels, total, arcane, why, bonus=bonus)


def _spend_per_blocker(r: Resolution, reachable: Sequence[str], needs: Mapping[str, int],
                       cap: int, bonus: dict[str, int]) -> int:
    """Essence spent against the blockers the players pick one at a time, each paying its own
    need while the budget lasts; returns the essence spent (manual p18; essence.multi_blocker).
    """
    spent = 0
    while True:
        fits = [b for b in reachable if b not in bonus and needs[b] <= cap - spent]
        if not fits:
            return spent
        chosen = r.choose(fits, "the blocker the essence is spent against",
                          "switch essence.multi_blocker (per_blocker)")
        bonus[chosen] = needs[chosen]
        spent += needs[chosen]


def _essence_spender(r: Resolution, attacker: str | None, live: Sequence[str],
                     budget: int) -> tuple[str, int, list[str], bool] | None:
    """Who may spend essence on this roll, how much at most, and against which blockers.

    An explorer spends on their own attack roll (``budget``), and the active explorer on any
    other attack roll of their turn, a trap's or a barrel's, against the monsters it attacks
    (the action's ``Resolution.essence``).
    Rules: manual p18 (essence: after their attack roll, or any attack roll on their turn).
    """
    s = r.state
    if attacker is not None and budget and s.has_unit(attacker) and \
            s.unit(attacker).side == Side.EXPLORER:
        return attacker, budget, list(live), True
    if s.phase == PhaseName.EXPLORER and s.active is not None and r.essence and \
            s.has_unit(s.active) and s.unit(s.active).side == Side.EXPLORER:
        return s.active, r.essence, [b for b in live if s.unit(b).side == Side.MONSTER], False
    return None


def spend_essence(r: Resolution, attacker: str | None, live: Sequence[str], total: int,
                  attribute: str, budget: int) -> tuple[int, dict[str, int]]:
    """The roll's total after essence is spent on it, and any per-blocker bonus (manual p18).

    The spender (see :func:`_essence_spender`) pays the least that makes a blocker a hit;
    against several blockers ``essence.multi_blocker`` (switch essence.multi_blocker) decides as in :func:`attack`.
    Rules: manual p18 (spend essence after an attack roll), p23 (one roll, several blockers);
    switch essence.multi_blocker.
    """
    bonus: dict[str, int] = {}
    spender = _essence_spender(r, attacker, live, budget) if live else None
    if spender is None:
        return total, bonus
    who, most, against, own = spender
    me = r.state.unit(who)
    cap = min(most, me.essence)
    floor0 = r.rules["roll.floor"] == "clamp0"
    needs = {b: 0 if floor0 and current_attribute(r.state, b, attribute, r.rules) <= 0
             else current_attribute(r.state, b, attribute, r.rules) - total for b in against}
    reachable = [b for b in against if 0 < needs[b] <= cap]
    if not reachable:
        return total, bonus
    rule = "manual p18 (spend essence on attack rolls" + \
        (")" if own else ", any attack roll on their turn)")
    if len(live) == 1 or r.rules["essence.multi_blocker"] == "shared_total":
        need = max(needs[b] for b in reachable)
        total += need
        if len(live) > 1:
            rule += "; switch essence.multi_blocker (shared_total)"
    else:
        need = _spend_per_blocker(r, reachable, needs, cap, bonus)
        rule += f"; switch essence.multi_blocker (per_blocker: against {', '.join(bonus)})"
    r.state = r.state.update_unit(who, essence=me.essence - need)
    r.emit("essence", "spends_essence", rule, who=(who,), amounts=(need,))
    return total, bonus


def strike(r: Resolution, attacker: str | None, blockers: Sequence[str],
           barrels: Sequence[Point], total: int, arcane: bool, why: str,
           chained: bool = False, bonus: Mapping[str, int] | None = None) -> tuple[str, ...]:
    """Compare one attack total with each blocker's armor (or will); barrels need 1 (manual p24).

    ``bonus`` raises the total against single blockers (essence spent per blocker, switch essence.multi_blocker).

    A barrel hit by an explosion (``chained``) explodes with the same total under
    ``barrel.chain = yes_same_roll``, else with its own roll (ruling D36).

    Rules: manual p24 (attack), p35 (exploding barrel: hit on a total of 1 or more).
    """
    attribute = "will" if arcane else "armor"
    hit = []
    for b in blockers:
        if not r.state.has_unit(b):
            continue
        value = current_attribute(r.state, b, attribute, r.rules)
        mine = total + (bonus or {}).get(b, 0)
        if mine >= value:
            hit.append(b)
            r.emit("hit", f"hit_{attribute}", Cite("manual", ("p24",)), who=(b,),
                   amounts=(mine, value))
            lose_health(r, b, 1, attacker, f"hit by {why}")
            fire(r, "hit", attacker, f"{attacker} hit {b}")
        else:
            r.emit("miss", f"miss_{attribute}", Cite("manual", ("p24",)), who=(b,),
                   amounts=(mine, value))
    for barrel in barrels:
        if barrel in r.state.destroyed:
            continue
        if total >= 1:
            r.emit("hit", "barrel_hit", Cite("manual", ("p35",)), where=(barrel,),
                   amounts=(total,))
            same = chained and r.rules["barrel.chain"] == "yes_same_roll"
            explode_barrel(r, barrel, attacker, arcane, total if same else None)
        else:
            r.emit("miss", "barrel_holds", Cite("manual", ("p35",)), where=(barrel,),
                   amounts=(total,))
    return tuple(hit)

# --- exploding barrels ------------------------------------------------------------------------

def explode_barrel(r: Resolution, barrel: Point, attacker: str | None, arcane: bool,
                   total: int | None = None) -> None:
    """A hit barrel is destroyed and attacks every adjacent unit with 3 high dice (manual p35).

    The explosion is arcane when the barrel was hit by an arcane attack.
    ``barrel.adjacency``: adjacent by the p22 definition (with sight) or any of
    the 8 neighbours; ``barrel.chain``: adjacent barrels are blockers too and
    explode with their own roll (``yes_new_roll``) or this one's total
    (``yes_same_roll``), or are left alone (``no``) (ruling D36). ``barrel.credit``: the unit
    whose attack hit the barrel is the explosion's attacker for kills (``hitter``), or the
    explosion has no attacker (``nobody``).
    Rules: manual p35 (exploding barrel); switches barrel.adjacency, barrel.chain,
    barrel.credit.
    """
    board = r.state.static_board()
    r.set(destroyed=r.state.destroyed + (barrel,))
    r.emit("barrel", "barrel_explodes", Cite("manual", ("p35",), "exploding barrel"),
           where=(barrel,))

    def _near(p: Point) -> bool:
        if r.rules["barrel.adjacency"] == "raw_8_neighbours":
            return p != barrel and max(abs(p[0] - barrel[0]), abs(p[1] - barrel[1])) == 1
        return adjacent(board, barrel, p, r.rules)

    units = tuple(u.id for u in r.state.units if u.position is not None and _near(u.position))
    barrels = () if r.rules["barrel.chain"] == "no" else tuple(
        p for p in board if r.state.is_kind(p, SpaceKind.BARREL) and _near(p))
    if total is None:
        faces = [r.roll("high", "exploding barrel") for _ in range(3)]
        total = sum(faces)
        total, bonus = spend_essence(r, None, units, total, "will" if arcane else "armor", 0)
        r.emit("roll", "barrel_roll", Cite("manual", ("p35",), "exploding barrel"),
               amounts=(total,), dice=tuple(faces))
    else:
        bonus = {}
        r.emit("roll", "barrel_same_total", "ruling D36 (yes_same_roll)", amounts=(total,))
    credited = attacker if r.rules["barrel.credit"] == "hitter" else None
    strike(r, credited, units, barrels, total, arcane, "exploding barrel", chained=True,
           bonus=bonus)

# --- handlers of damage and attack effects (the table is vocabulary.EFFECT_HANDLERS) ----------

def attack_effect(r: Resolution, e: Effect, step: EffectStep) -> tuple[str, ...]:
    """Roll the effect's dice against each unit in scope; a targeted barrel counts as a
    blocker with 1 defense (manual p24, p35). Returns the units hit.

    Rules: manual p24 (attack), p35 (exploding barrel), p18 (essence on the roll).
    """
    target = step.target
    barrels = (target,) if e.scope == "target" and target is not None and \
        r.state.is_kind(target, SpaceKind.BARREL) else ()
    uid = step.user.id if step.user is not None else None
    return attack(r, uid, step.scope, e.high, e.low, e.arcane, step.essence_budget, step.why,
                  barrels)


def restore_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """Restore health, essence or stamina to each unit in scope, up to its maximum.

    Rules: manual p18 (restore, up to the maximum).
    """
    attr = e.op.split("_")[1]
    for u in step.scope:
        unit = r.state.unit(u)
        new = min(getattr(unit, "max_" + attr), getattr(unit, attr) + e.amount)
        r.state = r.state.update_unit(u, **{attr: new})
        r.emit(attr, f"restore_{attr}", Cite("manual", ("p18",), "restore, up to the maximum"),
               cause=step.label, who=(u,), amounts=(getattr(unit, attr), new))


def lose_health_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """Each unit in scope loses health (manual p18)."""
    uid = step.user.id if step.user is not None else None
    for u in step.scope:
        lose_health(r, u, e.amount, uid, step.label)


def banish_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """Banish each monster in scope: destroyed, with no kill (manual p19)."""
    for u in step.scope:
        if r.state.unit(u).side == Side.MONSTER:
            destroy_unit(r, u, None, step.label, banish=True)
