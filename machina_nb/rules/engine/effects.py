"""Resolving effects: attacks, damage and death, spawn, threat, chapters, events, markers.

These are the engine's shared state changes. Each works on a :class:`Resolution`
(the state being built, the events so far, the rules, the dice and the
players' choices) and emits an :class:`Event` citing its rule. The public
engine API (:mod:`machina_nb.rules.engine.actions`) stays pure: it builds a
Resolution from a frozen state and returns the final state and events.

Rules: manual p13 (spawn monster), p14 (horror event, threat), p18-19 (attributes,
essence, death, banish), p24-27 (attacks, effects, markers), p28-29 (chapters),
p35-37 (map spaces).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping, Sequence

from machina_nb.rules.board import distance, placement
from machina_nb.rules.board.maptext import BorderKind, Point, SpaceKind
from machina_nb.rules.board.sight import adjacent_borders
from machina_nb.rules.board.terrain import adjacent, nearest_spaces
from machina_nb.rules.cards.abilities import Effect
from machina_nb.rules.cards.items import equipped_items, find_item
from machina_nb.rules.cards.units import UnitCard
from machina_nb.rules.engine.binding import bind_horror_event, release_bound_events
from machina_nb.rules.engine.cardplay import (attribute as current_attribute, moves_through,
                                              passive_total)
from machina_nb.rules.engine.holdings import (destroy_item, discard_inventory, inventory_of,
                                              release_spent, release_waiting)
from machina_nb.rules.engine.monsters import effect_move
from machina_nb.rules.engine.resolution import Resolution, Step, resolve
from machina_nb.rules.engine.scopes import units_in_scope
from machina_nb.rules.engine.state import (EXPLORER_MARKERS, HORROR_MARKERS, Deck, GameState,
                                           Lasting, Unit)
from machina_nb.rules.engine.triggers import fire, fire_all
from machina_nb.rules.odds.processes import adjusted_spawn_rating, lower_threat
from machina_nb.rules.rulings import Rules

__all__ = [
    "threat_up", "threat_down", "spawn_monster", "lose_health", "destroy_unit", "attack",
    "light_chapter", "invoke_horror_event", "invoke_explorer_event", "reinvoke_horror_event",
    "reinvoke_explorer_event", "next_chapter", "reset_ratings", "return_markers",
    "explorers_counted", "destroy_map_space", "destroyed_tokens", "spend_essence",
    "trigger_traps", "explode_barrel", "strike", "edge_spaces",
    "place_exit_token", "remove_exit_token", "refresh_space", "set_door", "close_target_door",
    "level5_loss", "remove_half", "shuffle_event_deck", "SPAWN_LIMIT",
]

SPAWN_LIMIT = 4
"""Monsters on a tile at which a spawn becomes a threat increase (manual p13)."""

# --- threat and level ---------------------------------------------------------------------

def threat_up(r: Resolution, amount: int, why: str) -> None:
    """Increase monster threat one position at a time, levelling up at the top (manual p14).

    ``threat.levelup``: ``on_reach`` levels up when the slider reaches the last
    position (1.0); ``on_increase_from_last`` when it increases while on it
    (3.5; rulings C-8, D29). At level 5 under ``level5_rule = yes`` each increase
    is replaced by the explorers' item-or-death rule (manual p14).
    Rules: manual p14 (increase monster threat), 3.5 §Increasing Monster Level.
    """
    for _ in range(amount):
        s = r.state
        if s.level >= 5 and r.rules["level5_rule"] == "yes":
            r.emit("level5", f"{why}: at level 5 each explorer destroys an equipped item or is "
                   "destroyed instead", "manual p14 (level 5)")
            level5_loss(r, why)
            continue
        top = s.threat_positions
        tops = s.threat + 1 >= top if r.rules["threat.levelup"] == "on_reach" \
            else s.threat == top
        if tops and s.level >= 5:
            r.set(threat=top)
            r.emit("threat", f"{why}: monster threat stays on its last position at level 5, "
                   "the last level", "manual p14 (monster level)")
            continue
        if r.rules["threat.levelup"] == "on_reach":
            if s.threat + 1 >= top:
                _level_up(r, why)
            else:
                r.set(threat=s.threat + 1)
                r.emit("threat", f"{why}: monster threat {s.threat} -> {s.threat + 1}",
                       "manual p14 (increase monster threat)")
        elif s.threat == top:
            _level_up(r, why)
        else:
            r.set(threat=s.threat + 1)
            r.emit("threat", f"{why}: monster threat {s.threat} -> {s.threat + 1}",
                   "3.5 §Increasing Monster Level")


_THREAT_DOWN_RULES = {"seal": "manual p36 (seal spawn space)", "event_space": "manual p37 "
                      "(event space); 3.5 §Updated Action Spaces", "card": "manual p26 (card "
                      "effects: monster threat decreases)"}


def threat_down(r: Resolution, amount: int, why: str, source: str = "card") -> None:
    """Decrease monster threat; where the first position holds is ``threat.floor`` (switch threat.floor).

    ``source`` is ``seal`` (sealing a spawn space: never below the first position,
    manual p36), ``event_space`` (the event-space roll, manual p37 and 3.5) or
    ``card`` (an effect, e.g. the binding-event example's -2, manual p26). Under
    ``clamp_one`` every decrease stops at position 1; under ``seal_only`` the
    others, for which no floor is written, go below it: the slider has no such
    position, so the state keeps the deficit (threat 0, -1, ...) and the next
    increases pay it back before the token moves on
    (:func:`machina_nb.rules.odds.processes.lower_threat`, the same reading for the odds).
    Rules: manual p36 (seal spawn space), p37 (event space), p26, p14 (threat); switch threat.floor.
    """
    s = r.state
    new = lower_threat(s.threat, amount, r.rules, source)
    r.set(threat=new)
    below = f" ({1 - new} below the first position, paid back by the next increases)" \
        if new < 1 else ""
    r.emit("threat", f"{why}: monster threat {s.threat} -> {new}{below}",
           f"{_THREAT_DOWN_RULES[source]}; switch threat.floor (threat.floor = {r.rules['threat.floor']})")


def _level_up(r: Resolution, why: str) -> None:
    s = r.state
    cards = s.monsters.cards + s.monsters.destroyed
    cards = r.dice.shuffle(cards, "monster deck at level-up")
    removed = 0
    if r.rules["level.halve"] == "yes":
        gone, cards = remove_half(r, cards, "monster", "manual p14 (remove half)")
        removed = len(gone)
    level = s.level + 1
    new = tuple(c for c in s.reserve if c.level == level)
    cards = r.dice.shuffle(cards + new, "new-level monsters")
    r.set(threat=1, level=level, monsters=Deck(cards, ()),
          reserve=tuple(c for c in s.reserve if c.level != level))
    r.emit("level", f"{why}: threat resets to 1, monster level {s.level} -> {level}; "
           f"{removed} cards removed, {len(new)} level-{level} cards added",
           "manual p14 (monster level); rulings C-8, D30")


def remove_half(r: Resolution, cards: tuple, what: str, rule: str) -> tuple[tuple, tuple]:
    """Half of a shuffled deck, removed: ``(removed, kept)`` (manual p14, p33).

    An odd count rounds by ``half.rounding`` (down, up, or the explorers choose); the cards
    that go are the top ones after the shuffle (``half.which = top_after_shuffle``) or the
    ones the explorers pick (``players_choose``).
    Rules: manual p14 (remove half of the monster deck), p33 (add item level); switches
    half.rounding, half.which.
    """
    count = len(cards) // 2
    if len(cards) % 2:
        reading = r.rules["half.rounding"]
        if reading == "players_choose":
            reading = r.choose(("floor", "ceil"), f"how many of the {len(cards)} {what} "
                               "cards go", f"{rule}; switches half.which and half.rounding")
        count += reading == "ceil"
    if r.rules["half.which"] == "top_after_shuffle":
        return tuple(cards[:count]), tuple(cards[count:])
    kept, gone = list(cards), []
    for n in range(count):
        pick = r.choose(tuple(dict.fromkeys(c.id for c in kept)),
                        f"{what} card {n + 1} of {count} to remove", f"{rule}; switch half.which")
        gone.append(kept.pop(next(i for i, c in enumerate(kept) if c.id == pick)))
    return tuple(gone), tuple(kept)


# --- units: damage, death, banish ---------------------------------------------------------

PAY_WITH = ("health", "essence")
"""The players' answer when an explorer with essence loses health: pay each point with (p18)."""


def lose_health(r: Resolution, unit_id: str, amount: int, killer: str | None, why: str) -> None:
    """A unit loses health; at 0 it is destroyed (manual p18-19).

    An explorer with essence may lose essence instead, point for point: the
    players choose ``"health"`` or ``"essence"`` for each point (manual p18).
    """
    u = r.state.unit(unit_id)
    if u.side == "explorer":
        for _ in range(amount):
            u = r.state.unit(unit_id)
            if u.essence and r.choose(PAY_WITH, f"how {unit_id} pays 1 health", "manual p18 "
                                      "(essence instead of health)") == "essence":
                r.state = r.state.update_unit(unit_id, essence=u.essence - 1)
                r.emit("essence", f"{why}: {unit_id} loses 1 essence instead of health",
                       "manual p18")
                amount -= 1
        u = r.state.unit(unit_id)
        if amount == 0:
            return
    health = max(0, u.health - amount)
    r.state = r.state.update_unit(unit_id, health=health)
    r.emit("health", f"{why}: {unit_id} loses {amount} health ({u.health} -> {health})",
           "manual p18 (health)")
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
    if u.side == "monster":
        origin = u.origin
        destroyed = s.monsters.destroyed
        if origin is not None and not (origin.level < s.level and origin.level != 4):
            destroyed = (origin,) + destroyed
        r.set(units=units, queue=tuple(q for q in s.queue if q != unit_id), lasting=lasting,
              monsters=Deck(s.monsters.cards, destroyed), done=tuple(d for d in s.done
                                                                    if d != unit_id))
        verb = "banished" if banish else "destroyed"
        r.emit(verb, f"{why}: {unit_id} is {verb}", "manual p19 (banish)" if banish
               else "manual p19 (destroyed monsters)")
        release_bound_events(r, unit_id, "monster")
        if origin is not None and destroyed is s.monsters.destroyed:   # removed from the game
            r.set(removed=r.state.removed + (origin,))
        if not banish:
            _kill_credit(r, killer, unit_id)
            _kill_triggers(r, killer, unit_id)
        return
    r.set(units=units, lasting=lasting, dead=s.dead + (unit_id,),
          done=tuple(d for d in s.done if d != unit_id),
          active=None if s.active == unit_id else s.active)
    r.emit("death", f"{why}: explorer {unit_id} is destroyed; monsters become scheming",
           "manual p19 (death), p15 (scheming)")
    release_bound_events(r, unit_id, "explorer")
    discard_inventory(r, unit_id)
    if not r.state.explorers:
        r.set(over="lost")
        r.emit("game", "the last explorer is destroyed: the game is lost", "manual p3")


def _kill_triggers(r: Resolution, killer: str | None, victim: str) -> None:
    """Binding events that trigger when their explorer kills a unit (manual p26, p25: kills).

    Rules: manual p26 (triggered conditionals, counted conditions), p25 (kill).
    """
    if killer is None or not r.state.has_unit(killer):
        return
    for who, card in r.state.bound:
        if who == killer and card.on_kill and r.state.has_unit(killer):
            r.emit("trigger", f"{killer} killed {victim}: {card.name} triggers", "manual p26")
            resolve(r, card.on_kill, r.state.unit(killer), None, card.name)
    fire(r, "kill", killer, f"{killer} killed {victim}")


def _kill_credit(r: Resolution, killer: str | None, victim: str) -> None:
    s = r.state
    reading = r.rules["essence.kill_credit"]
    if reading == "turn_owner":
        who = s.active if s.phase == "explorer" else None
    elif reading == "killer_on_own_turn":
        who = killer if killer is not None and killer == s.active and s.phase == "explorer" \
            else None
    else:
        who = killer if killer is not None and s.has_unit(killer) and \
            s.unit(killer).side == "explorer" else None
    if who is None or not s.has_unit(who):
        return
    e = s.unit(who)
    if e.side != "explorer":
        return
    new = min(e.max_essence, e.essence + 1)
    r.state = s.update_unit(who, essence=new)
    r.emit("essence", f"{who} restores 1 essence for destroying {victim} ({e.essence} -> {new})",
           f"manual p18-19; switch essence.kill_credit ({reading})")


# --- attacks ------------------------------------------------------------------------------

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
    r.emit("roll", f"{why}: {high} high + {low} low dice {faces} -> total {total} "
           f"({'arcane, against will' if arcane else 'physical, against armor'})",
           "manual p24 (attack)")
    return strike(r, attacker, live, barrels, total, arcane, why, bonus=bonus)


def _spend_per_blocker(r: Resolution, reachable, needs, cap: int, bonus: dict) -> int:
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
            s.unit(attacker).side == "explorer":
        return attacker, budget, list(live), True
    if s.phase == "explorer" and s.active is not None and r.essence and \
            s.has_unit(s.active) and s.unit(s.active).side == "explorer":
        return s.active, r.essence, [b for b in live if s.unit(b).side == "monster"], False
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
    r.emit("essence", f"{who} spends {need} essence: +{need} to the roll", rule)
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
            r.emit("hit", f"{mine} >= {attribute} {value}: {b} is hit", "manual p24")
            lose_health(r, b, 1, attacker, f"hit by {why}")
            fire(r, "hit", attacker, f"{attacker} hit {b}")
        else:
            r.emit("miss", f"{mine} < {attribute} {value}: {b} is missed", "manual p24")
    for barrel in barrels:
        if barrel in r.state.destroyed:
            continue
        if total >= 1:
            r.emit("hit", f"{total} >= 1: the barrel at {barrel} is hit", "manual p35")
            same = chained and r.rules["barrel.chain"] == "yes_same_roll"
            explode_barrel(r, barrel, attacker, arcane, total if same else None)
        else:
            r.emit("miss", f"{total} < 1: the barrel at {barrel} holds", "manual p35")
    return tuple(hit)


# --- spawn --------------------------------------------------------------------------------

def monsters_on_tile(state: GameState, tile) -> int:
    """How many monsters stand on a map tile (manual p13: spawn limit)."""
    return sum(1 for u in state.monsters_in_play if state.tile_of(u.position) == tile)


def spawn_spaces(state: GameState, tile) -> tuple[Point, ...]:
    """Non-destroyed spawn spaces of a map tile (manual p13, p36)."""
    return tuple(p for p in state.map.spaces(SpaceKind.SPAWN)
                 if p not in state.destroyed and state.tile_of(p) == tile)


def spawn_monster(r: Resolution, origin: Point, limit: bool, why: str) -> str | None:
    """Spawn a monster on ``origin``'s tile at the nearest spawn space (manual p13).

    With ``limit`` a tile already holding 4 monsters gives threat +1 instead.
    An empty deck reshuffles the destroyed monsters; with none, threat +1.
    The card joins the end of the queue; an occupied spawn space falls back
    to the nearest free passable space, the explorers choosing ties. Then the
    monster's «enters play» resolves (its card's ``enters_play``).
    Rules: manual p13 (spawn monster); rulings C-7, D18.
    """
    s = r.state
    tile = s.tile_of(origin)
    if limit and monsters_on_tile(s, tile) >= SPAWN_LIMIT:
        threat_up(r, 1, f"{why}: {SPAWN_LIMIT} monsters already on the tile")
        return None
    deck = s.monsters
    if not deck.cards:
        if not deck.destroyed:
            threat_up(r, 1, f"{why}: no monster cards left")
            return None
        deck = Deck(r.dice.shuffle(deck.destroyed, "destroyed monsters into a new deck"), ())
        r.emit("deck", "the monster deck is empty: the destroyed monsters become the deck",
               "manual p13")
    where = placement.spawn_placement(s.unit_board(), origin, r.rules)
    if not where.candidates:
        r.emit("spawn", f"{why}: no free spawn space on the tile, no monster placed",
               "manual p13; rulings D18, D42")
        return None
    space = r.choose(where.candidates, "the spawn space" + (" (fallback)" if where.fallback
                                                            else ""), "; ".join(where.rules))
    card: UnitCard = deck.cards[0]
    uid = f"{card.id}-{s.next_id}"
    monster = replace(Unit.from_card(card, uid, space), origin=card)
    done = s.done + ((uid,) if s.phase == "monster"
                     and r.rules["queue.mid_phase_spawn"] == "next_round" else ())
    r.set(units=s.units + (monster,), queue=s.queue + (uid,), next_id=s.next_id + 1,
          monsters=Deck(deck.cards[1:], deck.destroyed), done=done)
    r.emit("spawn", f"{why}: {card.name} ({uid}) spawns on {space} and joins the end of the "
           "queue", "manual p13 (spawn monster), p15 (queue)")
    if monster.enters_play:
        resolve(r, monster.enters_play, r.state.unit(uid), None, f"{card.name} enters play")
    return uid


# --- markers and lasting effects ----------------------------------------------------------

def return_markers(r: Resolution, holder_kind: str, why: str) -> None:
    """Return explorer or horror markers; their lasting effects end (manual p27).

    Rules: manual p12 (explorer phase), p14 (horror phase), p27 (markers).
    """
    keep = tuple(e for e in r.state.lasting
                 if (e.holder == "horror") != (holder_kind == "horror"))
    ended = len(r.state.lasting) - len(keep)
    r.set(lasting=keep)
    if ended:
        r.emit("markers", f"{why}: {ended} {holder_kind} marker(s) return, their lasting "
               "effects end", "manual p27 (markers)")
    release_waiting(r)
    if holder_kind != "horror":
        release_spent(r)


def _add_lasting(r: Resolution, effect: Effect, user: Unit | None, target: str, name: str):
    holder = user.id if user is not None and user.side == "explorer" else "horror"
    limit = EXPLORER_MARKERS if holder != "horror" else HORROR_MARKERS
    s = r.state
    stacks = sum(1 for e in s.lasting if e.name == name and e.target == target)
    if s.markers_used(holder) >= limit or stacks >= effect.stacks:
        r.emit("lasting", f"{name}: no free marker or {effect.stacks} stack(s) reached: skipped",
               "manual p27 (lasting effects)")
        return
    r.set(lasting=s.lasting + (Lasting(name, effect.op, target, holder, effect.amount, name,
                                       r.card or "", effect.attributes),))
    r.emit("lasting", f"{name} on {target} ({effect.op} {effect.amount:+d}), held by a "
           f"{'horror' if holder == 'horror' else holder + ' explorer'} marker",
           "manual p27 (lasting effects)")


# --- chapters, events ---------------------------------------------------------------------

def explorers_counted(state: GameState, rules: Rules) -> int:
    """How many explorers the 3.5 player-count adjustment counts (switch n35; 3.5 §Spawn Phase)."""
    reading = rules["n35"]
    if reading == "starting_explorers":
        return max(1, state.starting_explorers)
    if reading == "explorers_in_play":
        return max(1, len(state.explorers_on_map))
    return max(1, len(state.explorers))


def reset_ratings(r: Resolution, spawn: bool = True, horror: bool = True,
                  adjust: bool = False) -> None:
    """Return the sliders to the chapter's defaults (3.5: with the player-count adjustment).

    ``adjust`` marks the 3.5 rating-1 reset; ``adjust35.when = every_reset``
    adjusts at every reset (switch adjust35.when).
    Rules: manual p28 (reset ratings); 3.5 §Spawn Phase; switches adjust35.when and n35.
    """
    s = r.state
    changes = {}
    if spawn:
        value = s.chapter.spawn_rating
        if value is not None and r.rules["spawn.procedure"] == "v3_5" and (
                adjust or r.rules["adjust35.when"] == "every_reset"):
            value = adjusted_spawn_rating(value, explorers_counted(s, r.rules))
        changes["spawn_rating"] = value
    if horror:
        changes["horror_rating"] = s.chapter.horror_rating
    r.set(**changes)
    r.emit("ratings", "ratings reset: " + ", ".join(
        f"{k.replace('_', ' ')} {v}" if v is not None else
        f"no {k.split('_')[0]} rating (no {k.split('_')[0].title()} phase)"
        for k, v in changes.items()),
           "manual p28 (reset ratings)" + ("; 3.5 §Spawn Phase" if r.rules["spawn.procedure"]
                                           == "v3_5" else ""))


def next_chapter(r: Resolution, why: str) -> None:
    """Flip the next chapter: resolve its «enters play», reset its ratings (manual p28).

    Rules: manual p28 (go to next chapter), p29 (progress).
    """
    s = r.state
    if not s.chapters.cards:
        r.set(over="won")
        r.emit("game", f"{why}: no chapter left: the explorers win", "manual p28 (The End)")
        return
    chapter = s.chapters.cards[0]
    r.set(chapter=chapter, chapters=Deck(s.chapters.cards[1:], (s.chapter,) +
                                         s.chapters.destroyed))
    r.emit("chapter", f"{why}: chapter {chapter.name!r} is played", "manual p28")
    resolve(r, chapter.enters_play, None, None, f"{chapter.name} enters play")
    reset_ratings(r)


def light_chapter(r: Resolution, explorer: Unit | None, why: str) -> None:
    """Put a light token on an untokened chapter space on the explorer's tile (manual p36).

    ``light_chapter.choice``: the nearest (1.0) or any on the tile (aid; switch light_chapter.choice); with none on the tile, ``light_chapter.no_target`` (switch light_chapter.no_target).
    Rules: manual p36 (light chapter).
    """
    s = r.state
    unlit = [p for p in s.map.spaces(SpaceKind.CHAPTER)
             if p not in s.lit and p not in s.destroyed]
    origin = explorer.position if explorer is not None and explorer.position else None
    here = [p for p in unlit if origin is None or s.tile_of(p) == s.tile_of(origin)]
    if not here and r.rules["light_chapter.no_target"] == "nearest_any_tile":
        here = unlit
    if not here:
        r.emit("light", f"{why}: no unlit chapter space on the tile: nothing happens",
               "manual p36; switch light_chapter.no_target")
        return
    options = here if origin is None or r.rules["light_chapter.choice"] == "any_on_tile" \
        else nearest_spaces(s.static_board(), origin, here, r.rules)
    space = r.choose(sorted(options), "the chapter space to light", "manual p36; switch light_chapter.choice")
    r.set(lit=s.lit + (space,))
    r.emit("light", f"{why}: the chapter space at {space} is lit", "manual p36 (light chapter)")


def invoke_horror_event(r: Resolution, why: str) -> None:
    """Threat +1, draw a horror event, make it current and resolve «enters play» (manual p14).

    ``horror.invoke_order``: place then resolve (1.0) or resolve then place
    (aid; switch horror.invoke_order).
    Once it is invoked, "on any horror event" triggers fire (Hobnailed Boots, manual p30).
    Rules: manual p14 (invoke horror event), p26 (triggered conditions), p30.
    """
    threat_up(r, 1, why)
    deck = _drawable(r, r.state.horror_events, "horror", "horror events", "manual p14")
    if deck is None:
        return
    card = deck.cards[0]
    r.set(horror_events=Deck(deck.cards[1:], deck.destroyed))
    if r.rules["horror.invoke_order"] == "place_then_resolve":
        _place_horror_event(r, card, why, "manual p14")
        _resolve_card(r, card, f"{card.name} enters play")
    else:
        _resolve_card(r, card, f"{card.name} enters play")
        _place_horror_event(r, card, why, "aid (resolve, then place); switch horror.invoke_order")
    fire_all(r, "horror_event", f"the horror event {card.name} is invoked")


def _place_horror_event(r: Resolution, card, why: str, rule: str) -> None:
    """Bind the drawn horror event to a monster (a binding one, under the aid's reading) or
    put it on the destroyed pile, where it is the current horror event (manual p14)."""
    if bind_horror_event(r, card, why):
        return
    deck = r.state.horror_events
    r.set(horror_events=Deck(deck.cards, (card,) + deck.destroyed))
    r.emit("horror", f"horror event {card.name!r} becomes the current horror event", rule)


def reinvoke_horror_event(r: Resolution, why: str) -> None:
    """Resolve the current horror event's «enters play» again (manual p14).

    An event already resolving is not reinvoked from inside itself (that would
    never end; the text is silent).
    Rules: manual p14 (reinvoke horror event), p37 (event space roll).
    """
    _reinvoke(r, r.state.horror_events, "horror", None, why, "manual p14", "manual p14")


def reinvoke_explorer_event(r: Resolution, user: Unit | None, why: str) -> None:
    """Resolve the current explorer event's «enters play» again, for the activating explorer
    (manual p37; p20: the invoking explorer is its default target). An event already
    resolving is not reinvoked from inside itself.

    Rules: manual p37 (reinvoke explorer event), p20 («enters play»).
    """
    _reinvoke(r, r.state.explorer_events, "event", user, why, "manual p37",
              "manual p37 (reinvoke explorer event)")


def _reinvoke(r: Resolution, deck: Deck, kind: str, user: Unit | None, why: str, rule: str,
              again: str) -> None:
    what = "horror" if kind == "horror" else "explorer"
    current = deck.destroyed[:1]
    if not current:
        r.emit(kind, f"{why}: no current {what} event: nothing happens", rule)
        return
    card = current[0]
    if card.id in r.resolving:
        r.emit(kind, f"{why}: {card.name} is already resolving; it is not reinvoked from "
               "inside itself", rule)
        return
    r.emit(kind, f"{why}: {card.name}'s «enters play» resolves again", again)
    _resolve_card(r, card, f"{card.name} reinvoked", user)


def shuffle_event_deck(r: Resolution, kind: str, why: str) -> None:
    """*Shuffle event deck*: the destroyed events of ``kind`` (``horror`` or ``explorer``) are
    shuffled back into their deck (manual p14, p37). The current event (the topmost destroyed)
    goes in with them (``shuffle_events.current = shuffled_in``: none is current until the next
    invoke) or stays current (``stays``).

    Rules: manual p14 (shuffle horror event deck), p37 (shuffle event deck);
    switch shuffle_events.current.
    """
    field = "horror_events" if kind == "horror" else "explorer_events"
    deck = getattr(r.state, field)
    keep = deck.destroyed[:1] if r.rules["shuffle_events.current"] == "stays" else ()
    back = deck.destroyed[len(keep):]
    cards = r.dice.shuffle(deck.cards + back, f"the {kind} event deck")
    r.set(**{field: Deck(cards, keep)})
    stays = f"; {keep[0].name!r} stays the current {kind} event" if keep else \
        f"; no {kind} event is current until the next is invoked"
    r.emit("deck", f"{why}: {len(back)} destroyed {kind} event(s) are shuffled back into the "
           f"deck ({len(cards)} cards){stays}", f"manual p14, p37 (shuffle event deck); switch "
           f"shuffle_events.current")


def _drawable(r: Resolution, deck: Deck, kind: str, what: str, rule: str) -> Deck | None:
    """The deck to draw from: an empty deck reshuffles its destroyed pile; None if both are empty."""
    if deck.cards:
        return deck
    if not deck.destroyed:
        r.emit(kind, f"no {what} at all: nothing drawn", rule)
        return None
    return Deck(r.dice.shuffle(deck.destroyed, f"destroyed {what}"), ())


def _resolve_card(r: Resolution, card, why: str, user: Unit | None = None) -> None:
    r.resolving.add(card.id)
    try:
        resolve(r, card.enters_play, user, None, why)
    finally:
        r.resolving.discard(card.id)


def invoke_explorer_event(r: Resolution, explorer: Unit, why: str) -> None:
    """Draw an explorer event: binding ones stay with the explorer, others become current (p37).

    Rules: manual p37 (invoke explorer event), p26 (binding events).
    """
    deck = _drawable(r, r.state.explorer_events, "event", "explorer events", "manual p37")
    if deck is None:
        return
    card = deck.cards[0]
    if card.binding:
        r.set(explorer_events=Deck(deck.cards[1:], deck.destroyed),
              bound=r.state.bound + ((explorer.id, card),))
        r.emit("event", f"{why}: {explorer.id} binds explorer event {card.name!r}",
               "manual p37 (binding events)")
    else:
        r.set(explorer_events=Deck(deck.cards[1:], (card,) + deck.destroyed))
        r.emit("event", f"{why}: explorer event {card.name!r} becomes current", "manual p37")
    resolve(r, card.enters_play, r.state.unit(explorer.id), None, f"{card.name} enters play")


# --- the effect vocabulary ----------------------------------------------------------------


def _condition(state: GameState, rules: Rules, effect: Effect, user: Unit | None,
               target: Point | None, hits: tuple) -> bool:
    if effect.condition == "any_monster_wounded_on_tile":
        scope = units_in_scope(state, rules, "monsters_on_tile", user, target)
        return any(state.unit(m).wounded for m in scope)
    if effect.condition == "target_wounded":
        u = state.unit_at(target) if target is not None else None
        return bool(u and u.wounded)
    return bool(hits)


# --- handlers of the effect vocabulary (the table is vocabulary.EFFECT_HANDLERS) ----------

def attack_effect(r: Resolution, e: Effect, step: Step) -> tuple[str, ...]:
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


def destroy_target_effect(r: Resolution, e: Effect, step: Step) -> None:
    """Destroy the unit on the targeted space, or destroy the space itself (manual p35).

    Rules: manual p35 (destroy map space: a spawn space takes two tokens and its unit is
    destroyed), p19 (destroyed units).
    """
    target = step.target
    if target is None:
        return
    uid = step.user.id if step.user is not None else None
    if r.state.is_kind(target, SpaceKind.SPAWN):
        destroy_map_space(r, target, uid, step.label)
    elif r.state.unit_at(target) is not None:
        destroy_unit(r, r.state.unit_at(target).id, uid, step.label)
    else:
        destroy_map_space(r, target, uid, step.label)


def destroy_map_space(r: Resolution, space: Point, killer: str | None, why: str) -> None:
    """Destroy a map space: a destroyed token on it; a spawn space takes two tokens and the
    unit standing on it is destroyed (manual p35, as sealing does, p36).

    Rules: manual p35 (destroy map space), p36 (seal spawn space), p19 (destroyed units).
    """
    if r.state.is_kind(space, SpaceKind.SPAWN):
        occupant = r.state.unit_at(space)
        if occupant is not None:
            destroy_unit(r, occupant.id, killer, f"{why}: the destroyed spawn space destroys "
                         "its unit")
        r.set(destroyed=r.state.destroyed + (space, space))
        r.emit("destroy", f"{why}: two destroyed tokens on the spawn space {space}; it is an "
               "obstacle now", "manual p35 (destroy map space: a spawn space takes two)")
        return
    r.set(destroyed=r.state.destroyed + (space,))
    r.emit("destroy", f"{why}: a destroyed token on {space}", "manual p35")


def destroyed_tokens(state: GameState, space: Point) -> int:
    """How many destroyed tokens lie on a space (a sealed spawn space holds two, manual p36)."""
    return state.destroyed.count(tuple(space))


def restore_effect(r: Resolution, e: Effect, step: Step) -> None:
    """Restore health, essence or stamina to each unit in scope, up to its maximum.

    Rules: manual p18 (restore, up to the maximum).
    """
    attr = e.op.split("_")[1]
    for u in step.scope:
        unit = r.state.unit(u)
        new = min(getattr(unit, "max_" + attr), getattr(unit, attr) + e.amount)
        r.state = r.state.update_unit(u, **{attr: new})
        r.emit(attr, f"{step.label}: {u} {attr} {getattr(unit, attr)} -> {new}",
               "manual p18 (restore, up to the maximum)")


def lose_health_effect(r: Resolution, e: Effect, step: Step) -> None:
    """Each unit in scope loses health (manual p18)."""
    uid = step.user.id if step.user is not None else None
    for u in step.scope:
        lose_health(r, u, e.amount, uid, step.label)


def move_effect(r: Resolution, e: Effect, step: Step) -> None:
    """"Move up to N" on each unit in scope (manual p23, p34)."""
    for u in step.scope:
        _move_effect(r, u, e.amount, step.label)


def teleport_effect(r: Resolution, e: Effect, step: Step) -> None:
    """Teleport within N each unit in scope (manual p25)."""
    for u in step.scope:
        _teleport(r, u, e.amount, step.label)


def switch_effect(r: Resolution, e: Effect, step: Step) -> None:
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
            r.emit("switch", f"{step.label}: {user.id} and {u} trade places",
                   "manual p25 (switch positions)")


def trigger_traps_effect(r: Resolution, e: Effect, step: Step) -> None:
    """A card's "trigger traps" (manual p37)."""
    trigger_traps(r, step.user, None)


def place_exit_token_effect(r: Resolution, e: Effect, step: Step) -> None:
    """A card's "place exit token" (manual p28)."""
    place_exit_token(r, step.user, step.label)


def push_effect(r: Resolution, e: Effect, step: Step) -> None:
    """Push or pull each unit in scope (manual p25)."""
    for u in step.scope:
        _push(r, u, step.user, e.amount, e.op, step.label, e.up_to)


def close_door_effect(r: Resolution, e: Effect, step: Step) -> None:
    """Close an open door on a border of the targeted space (manual p22)."""
    if step.target is not None:
        close_target_door(r, step.target, step.label)


def refresh_space_effect(r: Resolution, e: Effect, step: Step) -> None:
    """Refresh the targeted map space (manual p35)."""
    if step.target is not None:
        refresh_space(r, tuple(step.target), step.label)


def banish_effect(r: Resolution, e: Effect, step: Step) -> None:
    """Banish each monster in scope: destroyed, with no kill (manual p19)."""
    for u in step.scope:
        if r.state.unit(u).side == "monster":
            destroy_unit(r, u, None, step.label, banish=True)


def threat_effect(r: Resolution, e: Effect, step: Step) -> None:
    """Monster threat up (a positive amount) or down (a negative one) (manual p14, p26)."""
    if e.amount >= 0:
        threat_up(r, e.amount, step.label)
    else:
        threat_down(r, -e.amount, step.label)


def light_chapter_effect(r: Resolution, e: Effect, step: Step) -> None:
    """Light a chapter space on the explorer's tile (manual p36)."""
    user = step.user
    light_chapter(r, user if user is not None and user.side == "explorer" else None,
                  step.label)


def spawn_effect(r: Resolution, e: Effect, step: Step) -> None:
    """A card's "spawn a monster" (manual p13; switch spawn.card_origin)."""
    _spawn_effect(r, step.user, step.label)


def lasting_effect(r: Resolution, e: Effect, step: Step) -> None:
    """A lasting effect on each unit in scope, held by a marker (manual p27)."""
    for u in step.scope:
        _add_lasting(r, e, step.user, u, e.key or f"{step.why} ({e.op})")


def _resolve_then(r: Resolution, effects, step: Step) -> None:
    resolve(r, effects, step.user, step.target, step.why, step.essence_budget, step.second)


def conditional_effect(r: Resolution, e: Effect, step: Step) -> None:
    """Resolve ``then`` when the condition holds, else ``otherwise`` (manual p26).

    Rules: manual p26 (conditionals).
    """
    holds = _condition(r.state, r.rules, e, step.user, step.target, step.hits)
    r.emit("condition", f"{step.label}: {e.condition} is {'true' if holds else 'false'}",
           "manual p26 (conditionals)")
    _resolve_then(r, e.then if holds else e.otherwise, step)


def effect_roll_effect(r: Resolution, e: Effect, step: Step) -> None:
    """Roll a d10: at least the amount resolves ``then``, else ``otherwise`` (manual p26).

    Rules: manual p26 (effect roll).
    """
    value = r.roll("d10", f"{step.why}: effect roll {e.amount}")
    ok = value >= e.amount
    r.emit("effect_roll", f"{step.label}: d10 {value} {'>=' if ok else '<'} {e.amount}",
           "manual p26 (effect roll)")
    _resolve_then(r, e.then if ok else e.otherwise, step)


def invoke_explorer_event_effect(r: Resolution, e: Effect, step: Step) -> None:
    """An explorer draws an explorer event (manual p37)."""
    if step.user is not None and step.user.side == "explorer":
        invoke_explorer_event(r, step.user, step.label)


def reinvoke_horror_event_effect(r: Resolution, e: Effect, step: Step) -> None:
    """The current horror event's «enters play» again (manual p14)."""
    reinvoke_horror_event(r, step.label)


def shuffle_event_deck_effect(r: Resolution, e: Effect, step: Step) -> None:
    """*Shuffle (horror) event deck*: the destroyed events of ``key`` go back (manual p14, p37);
    switch shuffle_events.current."""
    shuffle_event_deck(r, e.key, step.label)


def reinvoke_explorer_event_effect(r: Resolution, e: Effect, step: Step) -> None:
    """The current explorer event's «enters play» again (manual p37)."""
    reinvoke_explorer_event(r, step.user, step.label)


def count_effect(r: Resolution, e: Effect, step: Step) -> None:
    """Count towards N; at N the count starts again and ``then`` resolves (manual p26).

    Rules: manual p26 (counted condition).
    """
    key = e.key or step.why
    n = r.state.count(key) + 1
    counts = dict(r.state.counts)
    counts[key] = 0 if n >= e.amount else n
    r.set(counts=tuple(sorted(counts.items())))
    r.emit("count", f"{step.label}: {key} count {n}/{e.amount}", "manual p26 (counted "
           "condition)")
    if n >= e.amount:
        _resolve_then(r, e.then, step)


def next_chapter_effect(r: Resolution, e: Effect, step: Step) -> None:
    """Go to the next chapter (manual p28)."""
    next_chapter(r, step.label)


def _move_effect(r: Resolution, unit_id: str, amount: int, why: str) -> None:
    """"Move up to N" on a unit: a mindless monster heads for its closest explorer, anyone
    else goes where the players choose within N steps (past obstacles when it moves through
    them: the Aeromantle, manual p30); no stamina (manual p23, p34).

    Rules: manual p23 (affected units of a move), p34 (move), p35 (pits); switch move_effect.mindless_doors.
    """
    s = r.state
    u = s.unit(unit_id)
    if u.immobile:
        r.emit("move", f"{why}: {unit_id} is immobile", "manual p17")
        return
    if u.side == "monster" and not s.scheming:
        plan = effect_move(s, r.rules, unit_id, amount, tuple(r.choices))
        if plan.options:
            r.choose(plan.options, plan.choice_of, "manual p16")   # raises NeedChoice
        path = plan.path
        end = path[-1] if path else u.position
    else:
        board = s.unit_board()
        spaces = distance.reach(board, u.position, amount, r.rules, distance.Mover(
            unit=u.id, move_through=moves_through(s, u.id, r.rules), obstacles_only=True))
        end = r.choose(tuple(spaces), f"where {unit_id} moves (up to {amount})", "manual p23")
        path = (end,)
    if end == u.position:
        r.emit("move", f"{why}: {unit_id} stays on {end}", "manual p23")
        return
    r.state = s.update_unit(unit_id, position=end)
    steps = f"{len(path)} step{'s' if len(path) != 1 else ''}"
    r.emit("move", f"{why}: {unit_id} moves {u.position} -> {end} ({steps}, no stamina)",
           "manual p23 (move effect)")
    if r.state.is_kind(end, SpaceKind.PIT):
        destroy_unit(r, unit_id, r.actor if r.actor != unit_id else None,
                     f"{why}: moved into a pit")


def edge_spaces(state: GameState,
                kinds=(BorderKind.EDGE, BorderKind.DIRECTION)) -> tuple[Point, ...]:
    """Spaces on an unexplored edge of the map (its outer ring), sorted (manual p11, p28, p34).

    Rules: manual p11 (edges), p28 (entry and exit tokens), p34 (explore, exit).
    """
    return state.map.ring_spaces(kinds)


def place_exit_token(r: Resolution, user: Unit | None, why: str) -> None:
    """The activating explorer puts the exit token on an unexplored edge, not the entry's (p28).

    On a playing area of map tiles the token lies on one unexplored edge of the
    placed tiles, which can then not be explored (manual p34).
    Rules: manual p28 (place exit token).
    """
    area = r.state.map.area
    if area is None:
        entry = set(edge_spaces(r.state, (BorderKind.DIRECTION,)))
        options = [p for p in edge_spaces(r.state, (BorderKind.EDGE,)) if p not in entry]
    else:
        options = sorted({edge[0] for edge in area.exit_options()})
    if not options:
        r.emit("exit", f"{why}: no unexplored edge for the exit token", "manual p28")
        return
    space = r.choose(options, "the edge for the exit token", "manual p28 (place exit token)")
    r.set(exit_token=space)
    if area is not None:
        edge = next(e for e in area.exit_options() if e[0] == space)
        r.set(map=replace(r.state.map, area=area.place_exit_token(edge)))
    r.emit("exit", f"{why}: the exit token goes on {space}; chapter spaces no longer advance the "
           "chapter", "manual p28, p36")


def refresh_space(r: Resolution, space: Point, why: str) -> None:
    """Refresh map space: its tokens come off — all of them, the light token too
    (``refresh.removes = all_tokens``, manual p35) or only destroyed tokens
    (``destroyed_tokens``, the index; switch refresh.removes).

    Rules: manual p35 (refresh map space); switch refresh.removes.
    """
    s = r.state
    removed = ["destroyed"] if space in s.destroyed else []
    r.set(destroyed=tuple(p for p in s.destroyed if p != space))
    if r.rules["refresh.removes"] == "all_tokens" and space in s.lit:
        r.set(lit=tuple(p for p in s.lit if p != space))
        removed.append("light")
    r.emit("refresh", f"{why}: {space} is refreshed; tokens removed: "
           f"{', '.join(removed) or 'none'}", "manual p35 (refresh map space); switch refresh.removes")


def remove_exit_token(r: Resolution) -> None:
    """Take the exit token off the map, and off the playing area's edge when there is one.

    Rules: manual p28 (place exit token), p34 (exit map tile).
    """
    r.set(exit_token=None)
    area = r.state.map.area
    if area is not None and area.exit is not None:
        r.set(map=replace(r.state.map, area=replace(area, exit=None)))


def set_door(r: Resolution, a: Point, b: Point, kind: BorderKind) -> None:
    """The door between ``a`` and ``b`` becomes ``kind`` (open, closed or destroyed; manual p36).

    Rules: manual p36 (doors), p22 (a door on a space's border).
    """
    key = tuple(sorted((a, b)))
    r.set(borders=tuple(x for x in r.state.borders if x[0] != key) + ((key, kind),))


def close_target_door(r: Resolution, space: Point, why: str) -> None:
    """Close an open door on a border of the targeted space; with several, the players choose
    (manual p22: a door ability targets a space that has the door on one of its borders).

    Rules: manual p22 (targeting doors), p36 (doors).
    """
    doors = sorted(pair for pair, kind in adjacent_borders(r.state.static_board(), space)
                   if kind is BorderKind.DOOR_OPEN)
    if not doors:
        r.emit("door", f"{why}: no open door on a border of {space}", "manual p22")
        return
    a, b = r.choose(doors, f"which door of {space} closes", "manual p22 (target door)")
    set_door(r, a, b, BorderKind.DOOR_CLOSED)
    r.emit("door", f"{why}: the door between {a} and {b} closes", "manual p22, p36")


def _teleport(r: Resolution, unit_id: str, amount: int, why: str) -> None:
    """Teleport within ``amount`` spaces to a passable, unoccupied space the players choose;
    a pit destroys the unit (manual p25, p35).

    Rules: manual p25 (teleport within X).
    """
    u = r.state.unit(unit_id)
    where = placement.teleport_within(r.state.unit_board(), u.position, amount, r.rules)
    if not where.candidates:
        r.emit("teleport", f"{why}: no free space within {amount}", "manual p25")
        return
    end = r.choose(where.candidates, f"where {unit_id} teleports", "manual p25 (teleport)")
    r.state = r.state.update_unit(unit_id, position=end)
    r.emit("teleport", f"{why}: {unit_id} teleports {u.position} -> {end}", "manual p25")
    if end in where.lethal:
        destroy_unit(r, unit_id, r.actor if r.actor != unit_id else None,
                     f"{why}: teleported into a pit")


def _spawn_effect(r: Resolution, user: Unit | None, why: str) -> None:
    """A card's "spawn a monster": where, per ``spawn.card_origin`` (switch spawn.card_origin; manual p13).

    ``nearest_to_activating_explorer``: near the activating unit, or on a tile
    the explorers choose (by one of its explorers) when there is none;
    ``players_choose_tile``: always the explorers' choice; ``all_tiles_each``:
    with no activating unit, one monster on every tile with an explorer.
    Rules: manual p13 (spawn monster), p21-22 (map-tile scope); switch spawn.card_origin.
    """
    limit = r.rules["spawn.limit_scope"] == "all_spawns"
    reading = r.rules["spawn.card_origin"]
    explorers = [x.position for x in r.state.explorers_on_map]
    if user is not None and user.position is not None and reading != "players_choose_tile":
        spawn_monster(r, user.position, limit, why)
    elif reading == "all_tiles_each" and user is None:
        by_tile = {}
        for p in explorers:
            by_tile.setdefault(r.state.tile_of(p), p)
        for tile in sorted(by_tile):
            spawn_monster(r, by_tile[tile], limit, why)
    elif explorers:
        origin = r.choose(sorted(explorers), "an explorer whose tile gets the monster",
                          "switch spawn.card_origin")
        spawn_monster(r, origin, limit, why)


def _push(r: Resolution, unit_id: str, user: Unit | None, amount: int, op: str, why: str,
          up_to: bool = False):
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
    options = move(s.unit_board(), s.unit(unit_id).position, user.position, amount, r.rules,
                   by=user.id, immobile=immobile, up_to=up_to)
    rule = "switch push.blocked"
    if up_to and user.side == "monster" and not s.scheming and \
            r.rules["mindless.up_to"] == "full_amount" and options:
        longest = max(len(o.path) for o in options)
        options = [o for o in options if len(o.path) == longest]
        rule += "; switch mindless.up_to (full_amount)"
    done = r.choose(options, f"where the {op} " + (f"stops (up to {amount})" if up_to else
                                                    "slides"), rule)
    if done.end != s.unit(unit_id).position:
        r.state = s.update_unit(unit_id, position=done.end)
    r.emit(op, f"{why}: {unit_id} {' -> '.join(map(str, done.path))} ({done.stopped})",
           "; ".join(done.rules))
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
    r.emit("barrel", f"the barrel at {barrel} explodes", "manual p35 (exploding barrel)")

    def _near(p):
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
        r.emit("roll", f"exploding barrel: 3 high dice {faces} -> total {total}",
               "manual p35 (exploding barrel)")
    else:
        bonus = {}
        r.emit("roll", f"exploding barrel: the same total {total}", "ruling D36 (yes_same_roll)")
    credited = attacker if r.rules["barrel.credit"] == "hitter" else None
    strike(r, credited, units, barrels, total, arcane, "exploding barrel", chained=True,
           bonus=bonus)


def trigger_traps(r: Resolution, activator: Unit | None, lever: Point) -> None:
    """3 high dice at every unit on a trapped space of the activator's tile, then the
    secondary attacks by ``traps.secondary`` / ``traps.secondary_levers`` (rulings C-10, D35).

    Rules: manual p37 (trigger traps), 3.5 §Trigger Traps.
    """
    s = r.state
    trapped = s.map.spaces(SpaceKind.TRAPPED)

    def _victims(tile):
        return tuple(u.id for u in r.state.units if u.position in trapped and
                     (tile is None or r.state.tile_of(u.position) == tile))

    tile = s.tile_of(activator.position) if activator is not None else None
    who = activator.id if activator is not None else None
    attack(r, who, _victims(tile), 3, 0, False, why="trigger traps (primary)")
    reading = r.rules["traps.secondary"]
    if reading == "none":
        return
    levers = list(s.map.spaces(SpaceKind.LEVER))
    if r.rules["traps.secondary_levers"] == "other_nondestroyed":
        levers = [p for p in levers if p != lever and p not in r.state.destroyed]
    board = r.state.static_board()
    helpers = [e for e in r.state.explorers_on_map if e.id != who and
               any(adjacent(board, e.position, p, r.rules) for p in levers)]
    if not helpers:
        return
    if reading == "per_explorer_own_tile":
        for e in helpers:
            if r.state.has_unit(e.id):
                attack(r, e.id, _victims(r.state.tile_of(e.position)), 0, 3, False,
                       why=f"trigger traps (secondary, {e.id})")
    else:
        attack(r, None, _victims(tile if reading == "once_activating_tile" else None), 0, 3,
               False, why="trigger traps (secondary)")


def level5_loss(r: Resolution, why: str) -> None:
    """At monster level 5 each explorer destroys one equipped item (the players choose which;
    what was attached to it becomes unequipped) or, with none equipped, is destroyed (manual p14).
    Explorers who have exited are reached too (``level5.exited = reached``) or not.

    Rules: manual p14 (increase monster threat at level 5), p19 (explorer death);
    switch level5.exited.
    """
    rule = "manual p14 (level 5)"
    reached = r.state.explorers if r.rules["level5.exited"] == "reached" else \
        r.state.explorers_on_map
    for explorer in tuple(e.id for e in reached):
        if r.state.over or not r.state.has_unit(explorer):
            continue
        inv = inventory_of(r.state, explorer)
        items = equipped_items(inv)
        if not items:
            r.emit("level5", f"{why}: {explorer} has no equipped item", rule)
            destroy_unit(r, explorer, None, f"{why}: level 5, no equipped item to destroy")
            continue
        pick = r.choose(tuple(c.id for c in items), f"the equipped item {explorer} destroys",
                        rule)
        r.emit("level5", f"{why}: {explorer} destroys the equipped {find_item(inv, pick).name}",
               rule)
        destroy_item(r, explorer, pick, why)

