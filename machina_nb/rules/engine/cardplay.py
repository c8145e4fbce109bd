"""Cards in play and what acts through them: ability sources, passive abilities, markers.

A card in play (manual p21) is a unit card of a unit in play, a binding event
held by a unit, an equipped item, the current explorer event, the current horror
event or the current chapter. Each has a key (``unit:kim``, ``bound:oath``, ``item:saw``,
``explorer_event:whisper``, ``horror_event:shivers``, ``chapter:c1``) so that a
lasting effect can name the card its marker lies on (manual p27), and an owner
(the unit whose card it is) or none. Passive abilities act while their card is
in play: an owned card's tile scope is its owner's tile, an ownerless card's
is every tile (manual p21-22). Nothing here changes a state; triggered
abilities fire in :mod:`machina_nb.rules.engine.triggers`.

>>> from machina_nb.rules.cards.abilities import Ability, Effect
>>> from machina_nb.rules.board.maptext import parse_map
>>> from machina_nb.rules.engine.state import GameState, MapSpec, Unit
>>> steady = Ability("Steady", kind="passive",
...                  effects=(Effect("attribute_modifier", scope="self", amount=1,
...                                  attributes=("armor",)),))
>>> kim = Unit("kim", "Kim", "explorer", (0, 0), armor=2, abilities=(steady,))
>>> state = GameState(MapSpec(parse_map("+-+-+\\n|. .|\\n+-+-+\\n")), units=(kim,))
>>> attribute(state, "kim", "armor")
3

Rules: manual p20-22 (ability types, cards in play, map-tile scope), p27 (markers).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, cast

from machina_nb.rules.board.maptext import Point
from machina_nb.rules.cards.abilities import Ability, Effect
from machina_nb.rules.cards.items import Equipped, Inventory, ItemCard, equipped_items
from machina_nb.rules.cards.units import ATTRIBUTE_MAX
from machina_nb.rules.engine.state import GameState, Lasting, Side, Unit
from machina_nb.rules.rulings import Rules

__all__ = ["CardInPlay", "cards_in_play", "usable_items", "explorer_sources", "explorer_cards",
           "card_of", "passive_effects",
           "passive_total", "attribute", "can_target_ethereal", "enabled_to_target_ethereal",
           "moves_through", "aimed_abilities",
           "marker_on", "marker_holder"]


@dataclass(frozen=True)
class CardInPlay:
    """A card in play: its key, name, owner (a unit id or None) and abilities (manual p21).

    Rules: manual p21 (cards in play), p22 (owner and map-tile scope).
    """

    key: str
    name: str
    owner: str | None
    abilities: tuple[Ability, ...]


def cards_in_play(state: GameState, rules: Rules | None = None) -> tuple[CardInPlay, ...]:
    """Unit cards, bound events, equipped items, the current explorer and horror events, the
    chapter (manual p21). Consumables are left out, as p30 says they are never in play (C-17),
    unless ``consumables_in_play = yes``: then the consumables an explorer holds are in play
    too, and their passive and triggered abilities act for their holder.

    Rules: manual p21 (cards in play), p26 (binding events), p30-31 (equipped items,
    consumables), p14, p37 (current events); switch consumables_in_play.
    """
    out = [CardInPlay(f"unit:{u.id}", u.name, u.id, u.abilities) for u in state.units]
    out += [CardInPlay(f"bound:{card.id}", card.name, who, card.abilities)
            for who, card in state.bound]
    out += [CardInPlay(f"item:{card.id}", card.name, inv.owner, card.abilities)
            for inv in state.inventories for card in equipped_items(inv)]
    if rules is not None and rules.reads("consumables_in_play", "yes"):
        out += [CardInPlay(f"item:{card.id}", card.name, inv.owner, card.abilities)
                for inv in state.inventories for card in inv.unequipped
                if card.type == "consumable"]
    for kind, deck in (("explorer_event", state.explorer_events),
                       ("horror_event", state.horror_events)):
        out += [CardInPlay(f"{kind}:{card.id}", card.name, None, card.abilities)
                for card in deck.destroyed[:1]]
    out.append(CardInPlay(f"chapter:{state.chapter.id}", state.chapter.name, None,
                          state.chapter.abilities))
    return tuple(out)


def explorer_sources(state: GameState, unit: Unit) -> tuple[tuple[str, Ability], ...]:
    """An explorer's abilities with the key of the card each is on, in the order of
    :func:`machina_nb.rules.engine.actions.explorer_abilities`: card, bound events, current
    explorer event, chapter, then the :func:`usable_items` (every kind; only active
    ones are played); an item's abilities as its augments change them
    (:func:`aimed_abilities`).

    Rules: manual p20 (sources of active abilities), p28 (chapter abilities), p31
    (consumables usable from the inventory), p30, p32 (augments).
    """
    return tuple((f"{kind}:{card}", a) for (kind, card), abilities in explorer_cards(state, unit)
                 for a in abilities)


def explorer_cards(state: GameState, unit: Unit) -> list[tuple[tuple[str, str], tuple[Ability, ...]]]:
    """The cards of :func:`explorer_sources` in its order, as ``((kind, card id), abilities)``:
    the keys are put together only when asked for (listing the legal actions asks for the
    abilities alone, for every explorer at every step).

    Rules: manual p20 (sources of active abilities), p28 (chapter abilities), p31
    (consumables usable from the inventory), p30, p32 (augments).
    """
    cards = [(("unit", unit.id), unit.abilities)]
    cards += [(("bound", card.id), card.abilities) for who, card in state.bound if who == unit.id]
    cards += [(("explorer_event", card.id), card.abilities)
              for card in state.explorer_events.destroyed[:1]]
    cards.append((("chapter", state.chapter.id), state.chapter.abilities))
    inventory = next((inv for inv in state.inventories if inv.owner == unit.id), None)
    cards += [(("item", card.id), aimed_abilities(inventory, card))
              for card in usable_items(state, unit.id)]
    return cards


def usable_items(state: GameState, explorer: str) -> tuple[ItemCard, ...]:
    """The items whose abilities an explorer may play: equipped items, then the consumables
    they hold (usable unequipped; not those waiting for a marker) (manual p20, p30-31).

    Rules: manual p20 (ability sources), p30 (consumables), p31 (inventory).
    """
    for inv in state.inventories:
        if inv.owner == explorer:
            return equipped_items(inv) + tuple(c for c in inv.unequipped
                                               if c.type == "consumable")
    return ()


def card_of(state: GameState, unit: Unit, ability: Ability) -> str:
    """The key of the card in play that prints ``ability`` for ``unit`` (manual p20-21).

    The unit's own cards (its unit card, its bound events) come first, then the
    cards without an owner.
    Rules: manual p20-21 (ability sources, cards in play).
    """
    cards = sorted(cards_in_play(state), key=lambda c: c.owner != unit.id)
    for card in cards:
        if card.owner in (unit.id, None) and any(a is ability for a in card.abilities):
            return card.key
    return f"unit:{unit.id}"


def _tile_scope(state: GameState, scope: str, owner: Unit | None) -> tuple[str, ...]:
    if scope == "self":
        return (owner.id,) if owner is not None else ()
    side = Side.EXPLORER if scope.startswith("explorers") else Side.MONSTER
    units = [u for u in state.units if u.side == side and u.position is not None]
    if scope.endswith("on_tile") and owner is not None and owner.position is not None:
        tile = state.tile_of(owner.position)
        units = [u for u in units if state.tile_of(cast(Point, u.position)) == tile]
    elif scope.endswith("on_tile") and owner is not None:
        units = []
    return tuple(u.id for u in units)


def passive_effects(state: GameState, op: str, unit_id: str, rules: Rules | None = None
                    ) -> tuple[tuple[str, Effect], ...]:
    """The passive effects ``op`` acting on ``unit_id`` now, as ``(card key, effect)`` pairs.

    An owned card's tile scope is its owner's tile; a card without an owner
    reaches every tile (manual p21-22). A binding event waiting for its marker
    no longer counts (manual p27; not modelled yet: bound events leave ``bound``
    when destroyed).
    ``rules`` decides whether held consumables are in play (switch consumables_in_play).
    Rules: manual p20 (passive abilities), p21-22 (map-tile scope); switch consumables_in_play.
    """
    out = []
    for card in cards_in_play(state, rules):
        effects = [e for ability in card.abilities if ability.kind == "passive"
                   for e in ability.effects if e.op == op]
        if not effects:
            continue
        owner = state.unit(card.owner) if card.owner and state.has_unit(card.owner) else None
        for e in effects:
            scope = e.scope
            if owner is None and scope.endswith("on_tile"):
                scope = scope.replace("on_tile", "all_tiles")
            if unit_id in _tile_scope(state, scope, owner):
                out.append((card.key, e))
    return tuple(out)


def passive_total(state: GameState, op: str, unit_id: str, attribute_name: str = "",
                  rules: Rules | None = None) -> int:
    """The sum of passive ``op`` amounts on a unit (only those changing ``attribute_name``
    when given) (manual p20: passive abilities).

    Rules: manual p20 (passive), p21 (attack roll modifiers), p19 (attributes).
    """
    return sum(e.amount for _, e in passive_effects(state, op, unit_id, rules)
               if not attribute_name or attribute_name in e.attributes)


def attribute(state: GameState, unit_id: str, name: str, rules: Rules | None = None) -> int:
    """Armor or will as it stands now: the unit's value changed by lasting and passive
    ``attribute_modifier`` effects, within 0-9 (manual p18-19, p23, p27).

    Rules: manual p18 (attributes 0-9), p19 (items change attributes), p23 (Force
    Alternator), p27 (lasting effects).
    """
    base: int = getattr(state.unit(unit_id), name)
    change = sum(e.amount for e in state.lasting if e.op == "attribute_modifier"
                 and e.target == unit_id and name in e.attributes)
    change += passive_total(state, "attribute_modifier", unit_id, name, rules)
    return max(0, min(ATTRIBUTE_MAX, base + change))


def can_target_ethereal(state: GameState, unit: Unit, rules: Rules | None = None) -> bool:
    """Whether ``unit`` may target ethereal units: a lit chapter space on its tile, a passive
    or a lasting ``target_ethereal`` effect on it (manual p22, p25, p36).

    Rules: manual p25 (ethereal), p36 (lit chapter space), p22 (an artifact's passive).
    """
    if unit.position is None:
        return False
    tile = state.tile_of(unit.position)
    if any(state.tile_of(p) == tile for p in state.lit if p not in state.destroyed):
        return True
    return enabled_to_target_ethereal(state, unit.id, rules)


def enabled_to_target_ethereal(state: GameState, unit_id: str,
                               rules: Rules | None = None) -> bool:
    """Whether a lasting or passive ``target_ethereal`` effect lets the unit target ethereal
    units, lit chapter spaces aside (manual p22, p23: an effect that enables it).

    Rules: manual p22 (an artifact's passive), p23 (ethereal targets need an enabling effect).
    """
    if any(e.op == "target_ethereal" and e.target == unit_id for e in state.lasting):
        return True
    return bool(passive_effects(state, "target_ethereal", unit_id, rules))


def moves_through(state: GameState, unit_id: str, rules: Rules | None = None) -> bool:
    """Whether a lasting or passive ``move_through`` effect lets the unit move through
    obstacles (the Aeromantle: manual p30; move through effects, p34).

    Rules: manual p30 (Aeromantle), p34 (move through effects), p20 (passive abilities).
    """
    if any(e.op == "move_through" and e.target == unit_id for e in state.lasting):
        return True
    return bool(passive_effects(state, "move_through", unit_id, rules))


def aimed_abilities(inventory: Inventory | None, card: ItemCard) -> tuple[Ability, ...]:
    """An equipped item's abilities as its augments change them: an augment that lets "this
    weapon target through obstacles" turns its ranged icons into ranged-through icons of the
    same range (Precision Scope: manual p30; an augment affects only the item it is attached
    to, p32).

    Rules: manual p30 (Precision Scope), p32 (augments), p23 (ranged through).
    """
    def _node(trees: Iterable[Equipped | None]) -> Equipped | None:
        for tree in trees:
            found = None if tree is None else tree if tree.item is card else \
                _node((tree.upgrade, tree.augment))
            if found is not None:
                return found
        return None
    node = _node(inventory.equipped) if inventory is not None else None
    if node is None or node.augment is None or not node.augment.item.through_obstacles:
        return card.abilities
    return tuple(replace(a, targeting=replace(a.targeting, kind="ranged_through"))
                 if a.targeting.kind == "ranged" else a for a in card.abilities)


def marker_holder(unit: Unit) -> str:
    """Whose markers a unit's lasting effects use: its own (an explorer) or horror's.

    Rules: manual p27 (explorer markers, horror markers), p5, p8.
    """
    return unit.id if unit.side == Side.EXPLORER else "horror"


def marker_on(state: GameState, holder: str, card: str) -> Lasting | None:
    """The first lasting effect whose ``holder`` marker lies on ``card``, or None (manual p27).

    Rules: manual p27 (removing an explorer or horror marker from a card).
    """
    return next((e for e in state.lasting if e.holder == holder and e.card == card), None)
