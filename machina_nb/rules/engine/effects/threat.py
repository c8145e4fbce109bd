"""Monster threat and level: threat up and down, the level-up, removing half a deck, level 5.

Each works on a :class:`~machina_nb.rules.engine.resolution.Resolution` and emits an
event citing its rule.

Rules: manual p14 (monster threat, monster level, level 5), p26 (threat decreases),
p33 (remove half), p36-37 (seal spawn space, event space); 3.5 (increasing monster level).
"""

from __future__ import annotations

from typing import Any

from machina_nb.rules.cards.abilities import Effect
from machina_nb.rules.cards.items import equipped_items, find_item
from machina_nb.rules.cite import Cite
from machina_nb.rules.engine.effects.combat import destroy_unit
from machina_nb.rules.engine.holdings import destroy_item, inventory_of
from machina_nb.rules.engine.resolution import Resolution, EffectStep
from machina_nb.rules.engine.state import Deck
from machina_nb.rules.odds.processes import lower_threat

__all__ = [
    "threat_up", "threat_down", "remove_half", "level5_loss", "threat_effect",
]


# --- threat and level -------------------------------------------------------------------------

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
            r.emit("level5", "level5", "manual p14 (level 5)", cause=why)
            level5_loss(r, why)
            continue
        top = s.threat_positions
        tops = s.threat + 1 >= top if r.rules["threat.levelup"] == "on_reach" \
            else s.threat == top
        if tops and s.level >= 5:
            r.set(threat=top)
            r.emit("threat", "threat_stays", "manual p14 (monster level)", cause=why)
            continue
        if r.rules["threat.levelup"] == "on_reach":
            if s.threat + 1 >= top:
                _level_up(r, why)
            else:
                r.set(threat=s.threat + 1)
                r.emit("threat", "threat_up", Cite("manual", ("p14",), "increase monster threat"),
                       cause=why, amounts=(s.threat, s.threat + 1))
        elif s.threat == top:
            _level_up(r, why)
        else:
            r.set(threat=s.threat + 1)
            r.emit("threat", "threat_up", Cite.parse("3.5 §Increasing Monster Level"), cause=why,
                   amounts=(s.threat, s.threat + 1))


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
    r.emit("threat", "threat_down_below" if new < 1 else "threat_down",
           f"{_THREAT_DOWN_RULES[source]}; switch threat.floor (threat.floor = {r.rules['threat.floor']})",
           amounts=(s.threat, new, 1 - new), cause=why)


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
    r.emit("level", "level_up", "manual p14 (monster level); rulings C-8, D30",
           amounts=(s.level, level, removed, len(new)), cause=why)


def remove_half(r: Resolution, cards: tuple[Any, ...], what: str, rule: str
                ) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
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

# --- level 5 ----------------------------------------------------------------------------------

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
            r.emit("level5", "level5_no_item", rule, who=(explorer,), cause=why)
            destroy_unit(r, explorer, None, f"{why}: level 5, no equipped item to destroy")
            continue
        pick = r.choose(tuple(c.id for c in items), f"the equipped item {explorer} destroys",
                        rule)
        r.emit("level5", "level5_item", rule, who=(explorer,), words=(find_item(inv, pick).name,),
               cause=why)
        destroy_item(r, explorer, pick, why)

# --- the handler of the threat effect (the table is vocabulary.EFFECT_HANDLERS) ---------------

def threat_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """Monster threat up (a positive amount) or down (a negative one) (manual p14, p26)."""
    if e.amount >= 0:
        threat_up(r, e.amount, step.label)
    else:
        threat_down(r, -e.amount, step.label)
