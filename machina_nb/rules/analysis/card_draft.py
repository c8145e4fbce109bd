"""A unit card being typed on the analysis board: its stats and abilities as values, the card
in plain words, its problems at the field, and the situation that carries it.

A :class:`CardDraft` holds what the card editor's fields hold; :func:`card_toml` writes it as
the ``[cards.unit.<id>]`` tables of a situation file (module ``own_cards``), so the strict
loader checks it exactly as it checks a card typed by hand: :func:`card_problems` gives each
problem with the field it stands at. :func:`card_words` says what the card does, ability by
ability, in the vocabulary's plain words; :func:`with_card` puts the card into a draft
situation.

>>> ghoul = CardDraft("ghoul", "Ghoul", "monster", stats=(("armor", 1), ("will", 1),
...     ("stamina", 3), ("health", 2)), abilities=(AbilityDraft("gnaw", stamina=1,
...     target="melee", effects=(EffectDraft("attack", high=1, low=1),)),))
>>> card_problems(ghoul)
()
>>> card_words(ghoul)[-1]
'gnaw: costs 1 stamina; targets an adjacent explorer; attack with 1 high and 1 low dice.'

Rules: manual p18 (unit cards, attributes 0-9), p20-27 (abilities: cost, targeting, effects,
triggers).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, replace
from typing import Any

from machina_nb.rules.analysis.draft import Draft, table_lines
from machina_nb.rules.analysis.own_cards import OwnCard, OwnCards, read_own_cards
from machina_nb.rules.cards.abilities import Ability, Effect
from machina_nb.rules.cards.records import Record
from machina_nb.rules.cards.units import ATTRIBUTES, unit_card
from machina_nb.rules.content import TomlFile
from machina_nb.rules.errors import ContentError, RulesError

__all__ = ["EffectDraft", "AbilityDraft", "CardDraft", "card_toml", "card_problems",
           "card_words", "ability_words", "with_card", "card_of", "card_draft_of"]


@dataclass(frozen=True)
class EffectDraft:
    """One effect of an ability: an op of the vocabulary, whom it lands on, its numbers."""

    op: str
    scope: str = "target"
    amount: int = 0
    high: int = 0
    low: int = 0
    arcane: bool = False


@dataclass(frozen=True)
class AbilityDraft:
    """One ability: its name, kind (active, passive, triggered) and trigger, cost, targeting
    icon and range, and effects in printed order."""

    name: str
    text: str = ""
    kind: str = "active"
    trigger: str = ""
    stamina: int = 0
    essence: int = 0
    target: str = "none"
    range: int = 0
    effects: tuple[EffectDraft, ...] = ()


@dataclass(frozen=True)
class CardDraft:
    """A unit card: id, name, side (explorer or monster), class or level, the five
    attributes, the keywords, the abilities."""

    id: str
    name: str
    kind: str = "monster"
    unit_class: str = "gunman"
    level: int = 1
    stats: tuple[tuple[str, int], ...] = ()
    immobile: bool = False
    ethereal: bool = False
    abilities: tuple[AbilityDraft, ...] = ()

    def stat(self, name: str) -> int:
        """The attribute ``name`` as typed (0 when not yet)."""
        return dict(self.stats).get(name, 0)


def _effect_table(e: EffectDraft) -> dict[str, Any]:
    table: dict[str, Any] = {"op": e.op, "scope": e.scope}
    for key in ("amount", "high", "low"):
        if getattr(e, key):
            table[key] = getattr(e, key)
    if e.arcane:
        table["arcane"] = True
    return table


def _ability_table(a: AbilityDraft) -> dict[str, Any]:
    table: dict[str, Any] = {"text": a.text or a.name.replace("_", " ")}
    if a.kind != "active":
        table["kind"] = a.kind
    if a.trigger:
        table["trigger"] = a.trigger
    cost = {k: v for k, v in (("stamina", a.stamina), ("essence", a.essence)) if v}
    if cost:
        table["cost"] = cost
    if a.target != "none":
        table["target"] = a.target
        if a.target != "melee":
            table["range"] = a.range
    table["effects"] = [_effect_table(e) for e in a.effects]
    return table


def _card_table(card: CardDraft) -> dict[str, Any]:
    table: dict[str, Any] = {"name": card.name, "kind": card.kind}
    if card.kind == "explorer":
        table["class"] = card.unit_class
    else:
        table["level"] = card.level
    for name in ATTRIBUTES:
        if name != "essence" or card.kind == "explorer":
            table[name] = card.stat(name)
    for flag in ("immobile", "ethereal"):
        if getattr(card, flag):
            table[flag] = True
    table.update(invented=True, source="typed on the analysis board")
    if card.abilities:
        table["abilities"] = {a.name: _ability_table(a) for a in card.abilities}
    return table


def card_toml(card: CardDraft) -> str:
    """The card as the ``[cards.unit.<id>]`` tables of a situation file."""
    return "\n".join(table_lines(f"cards.unit.{card.id}", Record.of(_card_table(card)))) + "\n"


def _field_of(text: str, line: int) -> str:
    """The editor field the file line ``line`` (1-based) holds: ``name``, ``armor``,
    ``ability 1``, ``ability 1 cost``, ``ability 1 effect 2``... (the key's own words)."""
    lines = text.split("\n")
    header, key = "", ""
    for row in lines[:line]:
        m = re.match(r"^\[(.+)\]$", row)
        if m:
            header, key = m[1], ""
        elif "=" in row:
            key = row.split("=", 1)[0].strip()
    m = re.search(r"\.abilities\.([a-z0-9_]+)$", header)
    if not m:
        return key or "card"
    return f"ability {m[1]}" + (f" {key}" if key and key != "text" else "")


def card_problems(card: CardDraft, library: OwnCards | None = None
                  ) -> tuple[tuple[str, str], ...]:
    """Each problem of the card as ``(field, words)``: what the strict loader refuses, at the
    field it stands at (the id taken by a shipped card or one of ``library``, a value out of
    range, an effect the vocabulary does not know...). Empty when the card loads.

    Rules: manual p18 (attributes 0-9), p20-27 (abilities).
    """
    if not re.fullmatch(r"[a-z][a-z0-9_]*", card.id or ""):
        return (("id", "the id is lower-case letters, digits and '_', starting with a letter"),)
    text = card_toml(card)
    try:
        toml = TomlFile("<card>", text, tomllib.loads(text))
        read_own_cards(toml, None, library or OwnCards())
    except ContentError as exc:
        field = "id" if "id of" in exc.message else _field_of(text, exc.line)
        return ((field, exc.message),)
    except tomllib.TOMLDecodeError as exc:
        return (("card", f"the card does not write as a file: {exc}"),)
    return ()


def card_of(card: CardDraft) -> Any:
    """The card as the engine reads it (a checked :class:`UnitCard`); :class:`RulesError`
    naming ``card`` when it has problems."""
    text = card_toml(card)
    problems = card_problems(card)
    if problems:
        raise RulesError("card", f"{problems[0][0]}: {problems[0][1]}")
    own = read_own_cards(TomlFile("<card>", text, tomllib.loads(text)))
    return unit_card(own.units()[card.id])


_OPS = {"attack": "attack", "lose_health": "loses {amount} health",
        "restore_health": "restores {amount} health", "restore_stamina":
        "restores {amount} stamina", "restore_essence": "restores {amount} essence",
        "push": "is pushed {amount} spaces", "pull": "is pulled {amount} spaces",
        "move": "moves up to {amount} spaces", "teleport": "teleports within {amount} spaces",
        "incapacitate": "is incapacitated", "threat": "monster threat changes by {amount}",
        "spawn": "a monster spawns", "invoke_explorer_event": "invokes an explorer event",
        "roll_modifier": "attack rolls change by {amount}", "banish": "is banished"}
_SCOPES = {"target": "the target", "self": "itself", "explorers_on_tile":
           "every explorer on its tile", "monsters_on_tile": "every monster on its tile",
           "units_adjacent": "every adjacent unit", "explorers_all_tiles":
           "every explorer on every tile", "monsters_all_tiles": "every monster on every tile"}
_TRIGGERS = {"hit": "each time its owner hits", "kill": "each time its owner kills",
             "explorer_phase": "when the Explorer phase begins", "horror_event":
             "when a horror event is invoked", "destroyed": "when it is destroyed (its "
             "destroyer resolves it)"}


def _dice(e: Effect) -> str:
    parts = [f"{n} {w}" for n, w in ((e.high, "high"), (e.low, "low")) if n]
    return " and ".join(parts) + (" die" if e.high + e.low == 1 else " dice")


def _effect_words(e: Effect) -> str:
    who = _SCOPES.get(e.scope, e.scope.replace("_", " "))
    if e.op == "attack":
        kind = "arcane attack" if e.arcane else "attack"
        return kind + (f" on {who}" if e.scope != "target" else "") + f" with {_dice(e)}"
    words = _OPS.get(e.op, e.op.replace("_", " ") + (" {amount}" if e.amount else ""))
    return f"{who}: " + words.format(amount=e.amount)


def ability_words(ability: Ability, side: str) -> str:
    """One engine ability in plain words: when, its cost, its target, its effects in order.

    Rules: manual p20-27 (abilities, costs, targeting, effects, triggers).
    """
    parts = []
    if ability.kind == "triggered":
        parts.append(_TRIGGERS.get(ability.trigger or "", "when triggered"))
    elif ability.kind == "passive":
        parts.append("while in play")
    cost = [f"{n} {w}" for n, w in ((ability.cost.stamina, "stamina"),
                                    (ability.cost.essence, "essence")) if n]
    if cost:
        parts.append("costs " + " and ".join(cost))
    aim = ability.targeting
    who = aim.target if aim.target in ("unit", "explorer", "monster") else \
        f"{aim.target} space"
    if aim.kind == "melee":
        parts.append(f"targets an adjacent {who}")
    elif aim.kind != "none":
        article = "an" if who[0] in "aeiou" else "a"
        parts.append(f"targets {article} {who} within {aim.range} spaces"
                     + (", through obstacles" if aim.kind == "ranged_through" else ""))
    parts += [_effect_words(e) for e in ability.effects] or ["no effect yet"]
    return f"{ability.name}: " + "; ".join(parts) + "."


def card_words(card: CardDraft) -> tuple[str, ...]:
    """The card in plain words: its side and stats, then each ability (or its problem)."""
    side = f"{card.name or card.id}: {card.kind}" + (
        f", {card.unit_class}" if card.kind == "explorer" else f", level {card.level}")
    stats = ", ".join(f"{n} {card.stat(n)}" for n in ATTRIBUTES
                      if n != "essence" or card.kind == "explorer")
    out = [f"{side}; {stats}" + "".join(f"; {f}" for f in ("immobile", "ethereal")
                                        if getattr(card, f)) + "."]
    try:
        printed = card_of(card)
    except RulesError as exc:
        return tuple(out) + (str(exc).split(": ", 1)[-1],)
    out += [ability_words(a, card.kind) for a in printed.abilities]
    return tuple(out)


def with_card(draft: Draft, card: CardDraft) -> Draft:
    """``draft`` carrying ``card`` among the cards typed into it (a card of the same id
    typed before is replaced); :class:`RulesError` naming the field for a card with problems.

    Rules: manual p18, p20-27 (a unit card).
    """
    others = OwnCards(tuple(c for c in draft.cards.cards if not (
        c.kind == "unit" and c.id == card.id and not c.origin)))
    problems = card_problems(card, others.from_files())
    clash = card.id in others.typed_here().ids("unit")
    if problems or clash:
        field, words = problems[0] if problems else ("id", f"{card.id!r} is taken")
        raise RulesError(field, words)
    text = card_toml(card)
    own = read_own_cards(TomlFile("<card>", text, tomllib.loads(text)))
    typed = OwnCard("unit", card.id, own.units()[card.id], Record.of(_card_table(card)))
    return replace(draft, cards=others.joined(OwnCards((typed,))))


_EFFECT_FIELDS = {"op", "scope", "amount", "high", "low", "arcane"}
_ABILITY_FIELDS = {"text", "kind", "trigger", "cost", "target", "range", "effects", "source",
                   "attack"}
_CARD_FIELDS = {"name", "kind", "class", "level", *ATTRIBUTES, "immobile", "ethereal",
                "invented", "stated", "source", "abilities"}


def card_draft_of(card_id: str, table: Record) -> CardDraft:
    """A unit card's table (as typed into a situation) back in the editor's fields; a
    :class:`RulesError` naming ``card`` when it holds what the editor cannot show (a
    conditional, a second target, «enters play»...): then it is edited in the file."""
    items = dict(table.items)
    if set(items) - _CARD_FIELDS:
        raise RulesError("card", f"{card_id} has {', '.join(sorted(set(items) - _CARD_FIELDS))}"
                         ", which the card editor cannot show: edit it in the file")
    abilities = []
    for name, raw in dict(items.get("abilities", Record(())).items).items():
        a = dict(raw.items)
        extra = set(a) - _ABILITY_FIELDS | set(dict(a.get("cost", Record(())).items)) - {
            "stamina", "essence"}
        effects = [dict(e.items) for e in a.get("effects", ())]
        if "attack" in a:           # the attack table of the content files (manual p24)
            attack = dict(a["attack"].items)
            effects.append({"op": "attack", "scope": attack.get("affects", "target"),
                            "high": attack.get("high", 0), "low": attack.get("low", 0),
                            "arcane": attack.get("kind") == "arcane"})
        if extra or any(set(e) - _EFFECT_FIELDS for e in effects):
            raise RulesError("card", f"{card_id}'s ability {name} has parts the card editor "
                             "cannot show: edit it in the file")
        cost = dict(a.get("cost", Record(())).items)
        abilities.append(AbilityDraft(name, a.get("text", ""), a.get("kind", "active"),
                                      a.get("trigger", ""), cost.get("stamina", 0),
                                      cost.get("essence", 0), a.get("target", "none"),
                                      a.get("range", 0),
                                      tuple(EffectDraft(**e) for e in effects)))
    return CardDraft(card_id, items.get("name", ""), items.get("kind", "monster"),
                     items.get("class", "gunman"), items.get("level", 1),
                     tuple((n, items.get(n, 0)) for n in ATTRIBUTES),
                     items.get("immobile", False), items.get("ethereal", False),
                     tuple(abilities))
