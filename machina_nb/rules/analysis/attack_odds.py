"""The ``attack_odds`` question: the exact hit chance of every attack a unit may make now.

A unit's attacks come from every card that lends it abilities, as the engine plays them: an
explorer's unit card, bound events, the current explorer event, the chapter, equipped items
and held consumables; a monster's current horror event (and, under the aid's reading, the
horror events bound to it) before its card.

Rules: manual p20-21 (the sources of a unit's abilities), p24 (attack), p18 (essence), p30-31
(items lend their abilities).
"""

from __future__ import annotations

from typing import Any

from machina_nb.rules.analysis.questions import Question
from machina_nb.rules.analysis.situation import Situation
from machina_nb.rules.cards.abilities import Ability
from machina_nb.rules.engine.cardplay import explorer_sources
from machina_nb.rules.engine.monsters import monster_abilities
from machina_nb.rules.engine.state import GameState, Unit
from machina_nb.rules.numbers import fraction_words, percent_words
from machina_nb.rules.odds.attacks import hit_chance
from machina_nb.rules.odds.dice import Pool
from machina_nb.rules.rulings import Rules

__all__ = ["attack_odds", "attack_pools", "attack_sources"]

_SOURCE_WORDS = {"unit": "its card", "card": "its card", "bound": "a bound event",
                 "explorer_event": "the current explorer event", "chapter": "the chapter",
                 "item": "an item", "horror": "the current horror event"}
"""Where an ability comes from, in words (the engine's source keys)."""


def attack_pools(ability: Any) -> list[tuple[bool, Pool]]:
    """The attacks an ability makes: ``(arcane, pool)`` for each attack effect with dice."""
    return [(e.arcane, Pool.attack(e.high, e.low)) for e in ability.effects
            if e.op == "attack" and (e.high or e.low)]


def attack_sources(state: GameState, unit: Unit, rules: Rules) -> tuple[tuple[str, Ability], ...]:
    """Every ability the unit holds now with the source it comes from, in the engine's order,
    one entry per ability name (the first source that prints it).

    Rules: manual p20-21 (ability sources: card, items, events, chapter), p15-16 (a monster's:
    the current horror event first); switch monster.ability_sources.
    """
    if unit.side == "explorer":
        pairs = tuple((key.split(":")[0], a) for key, a in explorer_sources(state, unit))
    else:
        pairs = monster_abilities(state, unit, rules)
    seen: set[str] = set()
    out = []
    for source, ability in pairs:
        if ability.name not in seen:
            seen.add(ability.name)
            out.append((source, ability))
    return tuple(out)


def attack_odds(situation: Situation, q: Question, rules: Rules, state: GameState
                ) -> tuple[Any, ...]:
    """Each attack the attacker may make now on each target: the exact hit chance.

    Rules: manual p24 (attack: the total against armor, or will if arcane), p18 (essence),
    p20-21 (ability sources), p30-31 (equipped items, held consumables).
    """
    attacker = state.unit(situation.unit_id(q.get("attacker")))
    if attacker.position is None:
        return {}, [f"{q.get('attacker')} is not on the map: it makes no attack (manual p34)"]
    if q.get("target") is not None:
        targets = [state.unit(situation.unit_id(q.get("target")))]
    else:
        targets = [u for u in state.units if u.side != attacker.side and u.position is not None]
    value, why = {}, []
    modifier, essence = q.get("modifier", 0), q.get("essence", attacker.essence)
    for source, ability in attack_sources(state, attacker, rules):
        for arcane, pool in attack_pools(ability):
            for t in targets:
                defense = t.will if arcane else t.armor
                p = hit_chance(pool, defense, rules, modifier, essence)
                key = f"{ability.name} on {situation.letter_of(t.id) or t.id}"
                value[key] = fraction_words(p)
                why.append(f"{key} ({_SOURCE_WORDS.get(source, source)}): {pool} "
                           f"{modifier:+d} against {'will' if arcane else 'armor'} {defense}, "
                           f"essence up to {essence}: {fraction_words(p)} = {percent_words(p)} "
                           "(manual p24)")
    marks = ((attacker.position, "asked"),) + tuple((t.position, "target") for t in targets
                                                     if t.position is not None)
    return value, why or [f"{q.get('attacker')} has no attack ability now (manual p20: card, "
                          "items, events, chapter)"], marks
