"""What explorers hold, as values of the state: inventories stored with their bonuses,
consumables used up, items destroyed or discarded, and destroyed cards waiting for
their markers to return.

These change the state and emit events but resolve no effects, so the effect
handlers build on them.

Rules: manual p30-33 (items, inventory), p26 (destroy, consumables), p27 (markers on
destroyed cards), p19 (a destroyed explorer's items).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence, cast

from machina_nb.rules.cards.items import (BONUS_ATTRIBUTES, Inventory, ItemCard, all_items,
                                          equipped_items, find_item, item_bonuses, unequip,
                                          validate_inventory)
from machina_nb.rules.cards.units import ATTRIBUTE_MAX
from machina_nb.rules.engine.resolution import Resolution
from machina_nb.rules.cards.events import EventCard
from machina_nb.rules.engine.state import Deck, GameState, Lasting
from machina_nb.rules.rulings import Rules

__all__ = ["inventory_of", "set_inventory", "put_inventory", "store_inventory", "consume",
           "destroy_item_cards", "release_spent", "destroy_item", "discard_inventory",
           "destroy_card", "item_owner", "release_waiting", "return_marker"]


def inventory_of(state: GameState, explorer: str) -> Inventory:
    """An explorer's inventory (empty if they hold nothing).

    Rules: manual p31 (inventory).
    """
    for inv in state.inventories:
        if inv.owner == explorer:
            return inv
    return Inventory(explorer)


def applied_inventory(state: GameState, inventory: Inventory, rules: Rules
                      ) -> tuple[dict[str, Any], Inventory]:
    u = state.unit(inventory.owner)
    bonus = item_bonuses(inventory, rules["consumables_in_play"] == "yes")
    old = dict(inventory.applied)
    changes, applied = {}, []
    for attribute in BONUS_ATTRIBUTES:
        field = attribute if attribute in ("armor", "will") else "max_" + attribute
        current = getattr(u, field)
        base = current - old.get(attribute, 0)
        value = min(ATTRIBUTE_MAX, max(0, base + bonus.get(attribute, 0)))
        if value != current:
            changes[field] = value
        if value != base:
            applied.append((attribute, value - base))
    for attribute in ("health", "stamina"):
        if "max_" + attribute in changes:
            changes[attribute] = min(getattr(u, attribute), changes["max_" + attribute])
    return changes, replace(inventory, applied=tuple(applied))


def put_inventory(state: GameState, inventory: Inventory) -> GameState:
    others = tuple(i for i in state.inventories if i.owner != inventory.owner)
    keep = () if inventory.empty else (inventory,)
    return replace(state, inventories=tuple(sorted(others + keep, key=lambda i: i.owner)))


def set_inventory(state: GameState, inventory: Inventory, rules: Rules) -> GameState:
    """The state with ``inventory`` as its owner's, validated, the items' bonuses applied.

    For setting up situations; actions use :func:`store_inventory`.
    Rules: manual p31 (inventory), p19 (attributes with items).
    """
    validate_inventory(inventory)
    changes, inventory = applied_inventory(state, inventory, rules)
    return put_inventory(state.update_unit(inventory.owner, **changes), inventory)


def store_inventory(r: Resolution, inventory: Inventory, why: str) -> None:
    """Put a changed inventory in the state and bring its owner's attributes in line with the
    items now in play (manual p19: "with the Displacer Vest equipped, armor 3 and will 4").

    An item that leaves its owner's equipped items (unequipped, traded, given) ends the
    lasting effects whose markers lie on it under ``markers.item_unequipped = effect_ends``;
    under ``effect_stays`` only a card removed from the game does (manual p27).
    Rules: manual p19 (attributes), p30-32 (items in play), p27 (markers); switches
    consumables_in_play (consumables) and markers.item_unequipped.
    """
    validate_inventory(inventory)
    before = r.state.unit(inventory.owner)
    was = {c.id for c in equipped_items(inventory_of(r.state, inventory.owner))}
    changes, inventory = applied_inventory(r.state, inventory, r.rules)
    r.state = put_inventory(r.state.update_unit(inventory.owner, **changes), inventory)
    if changes:
        changed = sorted(changes.items())
        r.emit("attributes", f"items_change_{len(changed)}",
               "manual p19 (attributes changed by items), p30", who=(inventory.owner,),
               words=tuple(k.replace("_", " ") for k, _ in changed),
               amounts=tuple(n for k, v in changed for n in (getattr(before, k), v)),
               cause=why)
    gone = was - {c.id for c in equipped_items(inventory)}
    if gone and r.rules.reads("markers.item_unequipped", "effect_ends"):
        for lasting in [e for e in r.state.lasting if e.card in {f"item:{i}" for i in gone}]:
            return_marker(r, lasting, f"{why}: {lasting.card.removeprefix('item:')} is no "
                          "longer equipped (switch markers.item_unequipped)")


def return_marker(r: Resolution, lasting: Lasting, why: str) -> None:
    """Take a marker back from its card: its lasting effect ends (manual p27).

    Rules: manual p27 (taking a marker back from a card).
    """
    r.set(lasting=tuple(e for e in r.state.lasting if e is not lasting))
    horror = lasting.holder == "horror"
    on_unit = lasting.card.startswith("unit:")
    r.emit("markers", f"marker_returns_{'horror' if horror else 'explorer'}_"
           f"{'unit' if on_unit else 'card'}", "manual p27 (removing a marker from a card)",
           who=(lasting.target,) + (() if horror else (lasting.holder,))
           + ((lasting.card.removeprefix("unit:"),) if on_unit else ()),
           words=(lasting.name,) + (() if on_unit else (lasting.card.partition(":")[2],)),
           cause=why)
    release_waiting(r)


def destroy_item_cards(r: Resolution, cards: Sequence[ItemCard]) -> None:
    items = r.state.items
    r.set(items=replace(items, destroyed=tuple(reversed(tuple(cards))) + items.destroyed))


def consume(r: Resolution, explorer: str, card: ItemCard, marked: bool = False) -> None:
    """A consumable whose ability was played is destroyed (manual p30); if that ability put a
    lasting effect under a marker (``marked``), the card waits, unusable, until the marker
    returns (:func:`release_spent`) (manual p27).

    Rules: manual p30 (consumables are destroyed after use), p27 (lasting effects and
    destroyed consumables).
    """
    inv = inventory_of(r.state, explorer)
    if card not in inv.unequipped:
        return      # traded away or destroyed by its own effect
    rest = replace(inv, unequipped=tuple(c for c in inv.unequipped if c != card))
    if marked:
        store_inventory(r, replace(rest, spent=rest.spent + (card,)), f"{card.name} is used")
        r.emit("item", "item_used_up_waits", "manual p27 (lasting effects)", who=(explorer,),
               words=(card.name,))
        return
    store_inventory(r, rest, f"{card.name} is used up")
    destroy_item_cards(r, (card,))
    r.emit("item", "item_destroyed_after_use", "manual p30 (consumable)", who=(explorer,),
           words=(card.name,))


def release_spent(r: Resolution) -> None:
    """Explorer markers are back: used consumables that waited for theirs are destroyed.

    Rules: manual p27 (lasting effects and destroyed consumables).
    """
    for inv in r.state.inventories:
        if inv.spent:
            store_inventory(r, replace(inv, spent=()), "markers return")
            destroy_item_cards(r, inv.spent)
            r.emit("item", "spent_items_back", "manual p27", who=(inv.owner,),
                   words=tuple(c.name for c in inv.spent))


def destroy_item(r: Resolution, explorer: str, item_id: str, why: str) -> None:
    """Destroy an item ``explorer`` holds: unequip it if equipped (what is attached to it
    becomes unequipped), return the explorer markers on it (their lasting effects end), put
    it on top of the destroyed item deck (manual p26 destroy: an item). A consumable whose
    lasting effect has a marker on it waits for the marker instead (:func:`consume`, manual p27).

    Rules: manual p26 (destroy an item), p32 (unequip item), p27 (destroyed card with markers),
    p14 (level 5).
    """
    inv = inventory_of(r.state, explorer)
    key = f"item:{item_id}"
    card = find_item(inv, item_id)
    if card.type == "consumable" and card in inv.unequipped:
        consume(r, explorer, card, marked=any(e.card == key for e in r.state.lasting))
        return
    if any(c.id == item_id for c in equipped_items(inv)):
        inv = unequip(inv, item_id)
    for lasting in [e for e in r.state.lasting if e.card == key]:
        r.set(lasting=tuple(e for e in r.state.lasting if e is not lasting))
        horror = lasting.holder == "horror"
        r.emit("markers", "marker_returns_destroyed" + ("_horror" if horror else ""),
               "manual p26 (destroy an item: its markers return)",
               who=(lasting.target,) + (() if horror else (lasting.holder,)),
               card=card.name, words=(lasting.name,), cause=why)
    store_inventory(r, replace(inv, unequipped=tuple(c for c in inv.unequipped
                                                     if c.id != item_id)), why)
    destroy_item_cards(r, (card,))
    r.emit("item", "item_onto_destroyed", "manual p26 (destroy an item)", who=(explorer,),
           words=(card.name,), cause=why)


def discard_inventory(r: Resolution, explorer: str) -> None:
    """A destroyed explorer's inventory is shuffled onto the destroyed item deck (manual p19).

    Rules: manual p19 (explorer death).
    """
    inv = inventory_of(r.state, explorer)
    cards = all_items(inv) + inv.spent
    r.set(inventories=tuple(i for i in r.state.inventories if i.owner != explorer))
    if cards:
        destroy_item_cards(r, r.dice.shuffle(cards, f"{explorer}'s inventory"))
        r.emit("item", "inventory_discarded", "manual p19 (explorer death)", who=(explorer,),
               amounts=(len(cards),))


def destroy_card(r: Resolution, key: str | None, why: str) -> bool:
    """Destroy a binding event (``bound:<id>``) or an item (``item:<id>``), the card an
    ability is on. A binding event goes to its destroyed pile and stops counting as in play
    (manual p20 destroy icon, p26). While a marker lies on it the card waits instead
    (``GameState.waiting``): out of play, never destroyed again, its lasting effect going
    on, until the marker returns (manual p27). An item is destroyed by
    :func:`machina_nb.rules.engine.holdings.destroy_item` (unequipped, its markers back, on top of
    the destroyed item deck; a consumable with a marker waits, manual p26-27). Other cards
    are not destroyed here (unit cards, chapters). Returns whether it was destroyed.

    Rules: manual p20 (destroy), p26 (destroy: items, binding events), p27 (destroyed card
    with markers).
    """
    owner = item_owner(r, key)
    if owner is not None:
        destroy_item(r, owner, cast(str, key).removeprefix("item:"), why)
        return True
    held = [(who, card) for who, card in r.state.bound if f"bound:{card.id}" == key]
    if not held:
        r.emit("destroy", "not_destroyable", "manual p20", words=(str(key),), cause=why)
        return False
    who, card = held[0]
    field = "horror_events" if card.kind == "horror" else "explorer_events"
    deck = getattr(r.state, field)
    bound = list(r.state.bound)
    bound.remove((who, card))
    if any(e.card == key for e in r.state.lasting):
        r.set(bound=tuple(bound), waiting=r.state.waiting + (card,))
        r.emit("destroy", "card_destroyed_waits", "manual p27 (destroyed card with markers)",
               words=(card.name,), cause=why)
        return True
    r.set(bound=tuple(bound), **{field: _onto_pile(r, deck, card)})
    r.emit("destroy", f"card_destroyed{_where(r, card)}", "manual p20, p26"
           + ("; switch bound.destroyed_explorer_event" if card.kind == "explorer" else ""),
           card=card.name, cause=why)
    return True


def _onto_pile(r: Resolution, deck: Deck, card: EventCard) -> Deck:
    """``deck`` with a destroyed binding ``card`` on its destroyed pile: on top, where it is the
    current event (manual p21, p24), or for an explorer event under
    ``bound.destroyed_explorer_event = under_current`` beneath the current one.

    Rules: manual p21 (current event), p24, p26 (destroy); switch bound.destroyed_explorer_event.
    """
    if card.kind == "explorer" and deck.destroyed and \
            r.rules["bound.destroyed_explorer_event"] == "under_current":
        return Deck(deck.cards, deck.destroyed[:1] + (card,) + deck.destroyed[1:])
    return Deck(deck.cards, (card,) + deck.destroyed)


def _where(r: Resolution, card: EventCard) -> str:
    """Where a destroyed explorer event went, as the end of its phrase's key."""
    if card.kind != "explorer":
        return ""
    deck = r.state.explorer_events
    current = deck.destroyed[0] if deck.destroyed else None
    return "_current" if current == card else "_under"


def item_owner(r: Resolution, key: str | None) -> str | None:
    """Who holds the item ``key`` names (``item:<id>``), or None (manual p31)."""
    if key is None or not key.startswith("item:"):
        return None
    return next((inv.owner for inv in r.state.inventories
                 if any(f"item:{c.id}" == key for c in all_items(inv))), None)


def release_waiting(r: Resolution) -> None:
    """Destroyed cards whose markers have all returned go to their destroyed piles (manual p27).

    Rules: manual p27 (destroyed card with explorer markers).
    """
    for card in r.state.waiting:
        if any(e.card == f"bound:{card.id}" for e in r.state.lasting):
            continue
        field = "horror_events" if card.kind == "horror" else "explorer_events"
        deck = getattr(r.state, field)
        waiting = list(r.state.waiting)
        waiting.remove(card)
        r.set(waiting=tuple(waiting), **{field: _onto_pile(r, deck, card)})
        r.emit("destroy", f"marker_back{_where(r, card)}",
               "manual p27 (destroyed card with markers)", card=card.name)

