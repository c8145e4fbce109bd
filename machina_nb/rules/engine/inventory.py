"""Items in the game: inventories in the state, gain item, workbench, recharge, trade, level 5.

These work on a :class:`~machina_nb.rules.engine.resolution.Resolution` like the other
effects. Every choice the players make (which deck to draw from, which card to
put away, who gets it, whether to equip it, which item to lose at level 5)
goes through :meth:`Resolution.choose`, so :func:`~machina_nb.rules.engine.actions.legal_actions`
and the stepper offer it. The explorer's attributes follow their items:
:func:`store_inventory` applies the bonuses of the items in play to the unit
(current values never above the maximum, manual p18).

>>> from machina_nb.rules.cards.items import Equipped, ItemCard
>>> from machina_nb.rules.board.maptext import parse_map
>>> from machina_nb.rules.rulings import Rules
>>> from machina_nb.rules.engine.state import MapSpec, Unit
>>> vest = ItemCard("vest", "Vest", "apparel", slot="torso", bonuses=(("armor", 1),))
>>> lorrai = Unit("lorrai", "Lorrai", "explorer", (0, 0), armor=2, will=3)
>>> state = GameState(MapSpec(parse_map("+-+-+\\n|. .|\\n+-+-+\\n")), units=(lorrai,))
>>> state = set_inventory(state, Inventory("lorrai", (Equipped(vest),)), Rules())
>>> state.unit("lorrai").armor, inventory_of(state, "lorrai").applied
(3, (('armor', 1),))

Rules: manual p14 (level 5), p19 (explorer death: the inventory is destroyed), p30-33
(items, inventory effects), p37 (chest, workbench, recharge station); 3.5 §Updated Action
Spaces and FAQ; rulings C-17, D30.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence, cast

from machina_nb.rules.cards.abilities import Effect
from machina_nb.rules.engine.holdings import (destroy_item_cards, inventory_of, set_inventory,
                                              store_inventory)
from machina_nb.rules.engine.effects import remove_half
from machina_nb.rules.engine.resolution import Resolution, EffectStep, resolve
from machina_nb.rules.errors import RulesError
from machina_nb.rules.cards.items import (ITEM_TYPES, Inventory, ItemCard, ItemWindow, all_items, attach, class_may_equip, equip_main, equipped_items, find_item, item_level, unequip, unequip_all)
from machina_nb.rules.board.maptext import Point, SpaceKind
from machina_nb.rules.rulings import Rules
from machina_nb.rules.engine.state import GameState
from machina_nb.rules.board.terrain import adjacent

__all__ = [
    "RECHARGE_FACES", "USE_INVENTORY_COST", "TRADE_COST", "gain_item", "operate_workbench",
    "recharge", "trade_partners", "arrange", "check_use_inventory", "use_inventory",
    "check_trade", "trade", "add_item_level", "add_item_level_effect", "shuffle_item_decks",
    "adjacent_explorers",
    "item_places",
]

USE_INVENTORY_COST = 3
"""Stamina for *use inventory* (manual p12, p32)."""

TRADE_COST = 2
"""Stamina for *trade with explorer* (manual p12, p32)."""

RECHARGE_FACES = ("health", "health", "stamina", "stamina", "nothing", "nothing")
"""What each face 1-6 of the recharge die does. INVENTED: the aid names the three results
(restore 1 health, restore stamina, nothing) but not how many faces show each;
how much "restore stamina" gives is the ``recharge.stamina`` ruling."""


# --- the inventory in the state ----------------------------------------------------------------


def adjacent_explorers(state: GameState, rules: Rules, explorer: str) -> tuple[str, ...]:
    """Explorers adjacent to ``explorer``, in seating order.

    Rules: manual p22 (adjacent), p32-33 (give, trade, use inventory on an adjacent explorer).
    """
    u = state.unit(explorer)
    if u.position is None:
        return ()
    board = state.static_board()
    return tuple(e.id for e in state.explorers_on_map if e.id != explorer and
                 adjacent(board, u.position, cast(Point, e.position), rules))


def item_places(state: GameState) -> dict[str, str]:
    """Where each item card is: ``deck:<type>``, ``destroyed``, ``reserve``, ``removed`` (out of
    the game) or an explorer id.

    Raises :class:`RulesError` if a card is in two places (each card is in one place).
    Rules: manual p30-31 (decks, destroyed item deck, inventories).
    """
    places: dict[str, str] = {}

    def _put(card: ItemCard, where: str) -> None:
        if card.id in places:
            raise RulesError("items", f"{card.id} is both in {places[card.id]} and in {where}")
        places[card.id] = where

    for kind in ITEM_TYPES:
        for card in state.items.deck(kind):
            _put(card, f"deck:{kind}")
    for card in state.items.destroyed:
        _put(card, "destroyed")
    for name in ("reserve", "removed"):
        for card in getattr(state.items, name):
            _put(card, name)
    for inv in state.inventories:
        for card in all_items(inv) + inv.spent:
            _put(card, inv.owner)
    return places


# --- drawing and receiving ----------------------------------------------------------------------

def _draw(r: Resolution, n: int, who: str, why: str, rule: str) -> list[ItemCard]:
    drawn: list[ItemCard] = []
    for i in range(n):
        options = [k for k in ITEM_TYPES if r.state.items.deck(k)]
        if not options:
            r.emit("item", "item_decks_empty", rule, amounts=(len(drawn),), cause=why)
            break
        kind = r.choose(options, f"the item deck for card {i + 1} of {n}", rule)
        deck = r.state.items.deck(kind)
        r.set(items=replace(r.state.items, **{kind: deck[1:]}))
        drawn.append(deck[0])
        r.emit("item", "item_drawn", rule, who=(who,), words=(deck[0].label(), str(kind)),
               cause=why)
    return drawn


def _put_back(r: Resolution, card: ItemCard, why: str, rule: str) -> None:
    how = r.choose(("destroy", "top"), f"destroy {card.name} or put it on top of its deck", rule)
    if how == "destroy":
        destroy_item_cards(r, (card,))
        r.emit("item", "item_destroyed", rule, words=(card.name,), cause=why)
    else:
        deck = r.state.items.deck(card.type)
        r.set(items=replace(r.state.items, **{card.type: (card,) + deck}))
        r.emit("item", "item_back", rule, words=(card.name, str(card.type)), cause=why)


def _receive(r: Resolution, explorer: str, card: ItemCard, may_equip: bool, why: str) -> None:
    """Keep ``card`` or give it to an adjacent explorer; a kept card of the class's type may be
    equipped at once as a main item (manual p33: gain item). Only the explorer who gained it
    may (``gained_item.equip_at_once = keeper_only``), or the explorer given it too
    (``receiver_too``).

    Rules: manual p33 (gain item); switch gained_item.equip_at_once.
    """
    rule = "manual p33 (keep it or give it to an adjacent explorer)"
    who = r.choose((explorer,) + adjacent_explorers(r.state, r.rules, explorer),
                   f"who gets {card.name}", rule)
    inv = inventory_of(r.state, who)
    store_inventory(r, replace(inv, unequipped=inv.unequipped + (card,)), why)
    r.emit("item", "item_gets", rule, who=(who,), words=(card.label(),), cause=why)
    unit = r.state.unit(who)
    if (who != explorer and r.rules["gained_item.equip_at_once"] == "keeper_only") or \
            not may_equip or not class_may_equip(unit.unit_class, card):
        return
    explorer = who
    rule = "manual p33 (gain item: equip main item of the class's type)"
    if r.choose(("equip", "keep_unequipped"), f"equip {card.name} at once", rule) != "equip":
        return
    inv = inventory_of(r.state, who)
    mains = tuple(t.item for t in inv.equipped if t.item.type == card.type)
    replacing = None
    if mains and not (card.type == "weapon" and card.hands == 1 and len(mains) == 1
                      and mains[0].hands == 1):
        replacing = r.choose(tuple(m.id for m in mains), f"the main {card.type} to unequip "
                             f"for {card.name}", "manual p32 (equip main item)")
        r.emit("item", "item_unequips", "manual p32 (unequip item), p33 (example)",
               who=(explorer,), words=(find_item(inv, replacing).name,))
    store_inventory(r, equip_main(inv, card.id, replacing), why)
    r.emit("item", "item_equips_main", rule, who=(explorer,), words=(card.name,))
    _enters_play(r, who, card)


def _enters_play(r: Resolution, explorer: str, card: ItemCard) -> None:
    if card.enters_play and r.state.has_unit(explorer):
        resolve(r, card.enters_play, r.state.unit(explorer), None, f"{card.name} enters play")


def gain_item(r: Resolution, explorer: str, why: str) -> None:
    """Draw 2 item cards from any decks, destroy one or put it back on top, keep the other or
    give it to an adjacent explorer, and maybe equip it at once (manual p33).

    With a single card left in all the decks it is the gained item (the text is silent).
    Rules: manual p33 (gain item), p37 (chest).
    """
    rule = "manual p33 (gain item)"
    drawn = _draw(r, 2, explorer, why, rule)
    if not drawn:
        return
    if len(drawn) == 2:
        away = r.choose(tuple(c.id for c in drawn), "the drawn card to put away", rule)
        _put_back(r, next(c for c in drawn if c.id == away), why, rule)
        drawn = [c for c in drawn if c.id != away]
    _receive(r, explorer, drawn[0], True, why)


def operate_workbench(r: Resolution, explorer: str) -> None:
    """Draw 3 item cards from any decks, swap any with inventory items, keep one (or give it to
    an adjacent explorer), destroy or return the rest, then a free *use inventory* (manual p33).

    The returned cards go back in drawn order, so the first drawn ends on top
    (``workbench.return_order = drawn_order``), or in the order the explorers choose.
    Rules: manual p33 (operate workbench), p37 (workbench); switch workbench.return_order.
    """
    rule = "manual p33 (operate workbench)"
    why = "the workbench"
    drawn = _draw(r, 3, explorer, why, rule)
    for i, card in enumerate(drawn):
        inv = inventory_of(r.state, explorer)
        pick = r.choose(("none",) + tuple(c.id for c in all_items(inv)),
                        f"an inventory item to swap for the drawn {card.name}", rule)
        if pick == "none":
            continue
        if any(c.id == pick for c in equipped_items(inv)):
            inv = unequip(inv, pick)
        mine = find_item(inv, pick)
        store_inventory(r, replace(inv, unequipped=tuple(
            c for c in inv.unequipped if c.id != pick) + (card,)), why)
        drawn[i] = mine
        r.emit("item", "item_swaps", rule, who=(explorer,), words=(mine.name, card.name))
    if drawn:
        keep = r.choose(tuple(c.id for c in drawn), "the card to keep", rule)
        _receive(r, explorer, next(c for c in drawn if c.id == keep), False, why)
        rest = [c for c in drawn if c.id != keep]
        if r.rules["workbench.return_order"] == "players_choose":
            ordered = []
            while rest:
                pick = r.choose(tuple(dict.fromkeys(c.id for c in rest)), "the returned card "
                                "to put back next (the last ends on top)",
                                f"{rule}; switch workbench.return_order")
                ordered.append(rest.pop(next(i for i, c in enumerate(rest) if c.id == pick)))
            rest = list(reversed(ordered))
        for card in reversed(rest):
            _put_back(r, card, why, rule)
    r.set(item_window=ItemWindow(explorer, None, True))
    r.emit("item", "use_inventory_free", rule, who=(explorer,))


def trade_partners(state: GameState, rules: Rules, explorer: str,
                   station: Point | None = None) -> tuple[str, ...]:
    """Explorers next to a recharge station (``station``, the one just activated, included) or a
    workbench, on any tile: who may trade after a recharge (manual p37; 3.5 FAQ).

    Rules: manual p37 (recharge station); 3.5 §Updated Action Spaces and FAQ.
    """
    spaces = [p for kind in (SpaceKind.RECHARGE, SpaceKind.WORKBENCH)
              for p in state.map.spaces(kind) if p not in state.destroyed]
    if station is not None:
        spaces.append(station)
    board = state.static_board()
    return tuple(e.id for e in state.explorers_on_map if e.id != explorer and any(
        adjacent(board, cast(Point, e.position), p, rules) for p in spaces))


def recharge(r: Resolution, explorer: str, station: Point) -> None:
    """Roll the recharge die and resolve it; then a free trade with a :func:`trade_partners`
    explorer and a free *use inventory* (manual p37; faces per :data:`RECHARGE_FACES`).

    Rules: manual p37 (recharge station); 3.5 §Updated Action Spaces; aid (die results) (face counts unknown: invented; how much stamina: ``recharge.stamina``).
    """
    face = r.roll("recharge", "the recharge die")
    result = RECHARGE_FACES[face - 1]
    u = r.state.unit(explorer)
    stamina = u.max_stamina if r.rules["recharge.stamina"] == "to_max" else \
        min(u.max_stamina, u.stamina + 1)
    amounts = {"health": (u.health, min(u.max_health, u.health + 1)),
               "stamina": (u.stamina, stamina), "nothing": ()}[result]
    if result == "health":
        r.state = r.state.update_unit(explorer, health=min(u.max_health, u.health + 1))
    elif result == "stamina":
        r.state = r.state.update_unit(explorer, stamina=stamina)
    r.emit("recharge", f"recharge_{result}",
           "manual p37; aid (recharge die) (face counts invented); switch recharge.stamina",
           amounts=(face,) + amounts)
    partners = trade_partners(r.state, r.rules, explorer, station)
    r.set(item_window=ItemWindow(explorer, partners, True))
    r.emit("item", "trade_then_use", "manual p37; 3.5 FAQ", who=(explorer, *partners))


# --- use inventory and trade ---------------------------------------------------------------

def arrange(inventory: Inventory, steps: Sequence[Sequence[Any]]
            ) -> tuple[Inventory, list[Any]]:
    """Unequip everything, then equip by ``steps`` in order; returns the inventory and the cards
    equipped (in step order) (manual p32: use inventory, steps 1-3).

    A step is ``("main", item)``, ``("upgrade", item, host)`` or ``("augment", item, host)``.
    Rules: manual p32 (use inventory, equip main item, upgrade item, augment item).
    """
    inv = unequip_all(inventory)
    equipped = []
    for step in steps:
        if not isinstance(step, (tuple, list)) or not step or step[0] not in (
                "main", "upgrade", "augment") or len(step) != (2 if step[0] == "main" else 3):
            raise RulesError("steps", f"a step is ('main', item), ('upgrade', item, host) or "
                             f"('augment', item, host), got {step!r}")
        if step[0] == "main":
            inv = equip_main(inv, step[1])
        else:
            inv = attach(inv, step[2], step[1], step[0])
        equipped.append(find_item(inv, step[1]))
    return inv, equipped


def _window(state: GameState, explorer: str) -> ItemWindow | None:
    w = state.item_window
    return w if w is not None and w.explorer == explorer else None


def check_use_inventory(state: GameState, rules: Rules, actor: str, owner: str,
                        steps: Sequence[Sequence[Any]], gifts: Sequence[tuple[str, str]]
                        ) -> None:
    """Raise :class:`RulesError` if *use inventory* on ``owner`` with these steps and gifts is
    illegal: 3 stamina (free after a workbench or recharge station), ``owner`` the actor or
    adjacent, gifts of unequipped items to explorers adjacent to ``owner`` (manual p32).

    Rules: manual p32 (use inventory), p12 (3 stamina); 3.5 FAQ (not a non-adjacent trade
    partner).
    """
    u = state.unit(actor)
    window = _window(state, actor)
    if not (window and window.use_inventory) and u.stamina < USE_INVENTORY_COST:
        raise RulesError("actor", f"{actor} has {u.stamina} stamina, needs "
                         f"{USE_INVENTORY_COST} (manual p12, p32)")
    if owner != actor and owner not in adjacent_explorers(state, rules, actor):
        raise RulesError("owner", f"{owner} is not {actor} or an explorer adjacent to them "
                         "(manual p32; 3.5 FAQ)")
    inv, _ = arrange(inventory_of(state, owner), steps)
    near = adjacent_explorers(state, rules, owner)
    for item, to in gifts:
        if to not in near:
            raise RulesError("gifts", f"{to} is not an explorer adjacent to {owner} "
                             "(manual p32: give items to adjacent explorers)")
        if not any(c.id == item for c in inv.unequipped):
            raise RulesError("gifts", f"{item} is not an unequipped item of {owner} after the "
                             "steps (manual p32)")
    if len({item for item, _ in gifts}) != len(gifts):
        raise RulesError("gifts", "an item is given once")


def use_inventory(r: Resolution, actor: str, owner: str, steps: Sequence[Sequence[Any]],
                  gifts: Sequence[tuple[str, str]]) -> None:
    """Resolve *use inventory* (checked by :func:`check_use_inventory`): unequip all, equip
    by ``steps`` (each equipped item's «enters play» resolves), give ``gifts`` (manual p32).

    Rules: manual p32 (use inventory, equip main item: «enters play»), p20.
    """
    window = _window(r.state, actor)
    if window and window.use_inventory:
        r.set(item_window=None)
        r.emit("item", "use_inventory_at_no_cost", "manual p33, p37", who=(actor,))
    else:
        u = r.state.unit(actor)
        r.state = r.state.update_unit(actor, stamina=u.stamina - USE_INVENTORY_COST)
        r.emit("pay", "pays_use_inventory", "manual p12, p32", who=(actor,),
               amounts=(USE_INVENTORY_COST,))
    inv, equipped = arrange(inventory_of(r.state, owner), steps)
    store_inventory(r, inv, "use inventory")
    r.emit("item", "use_inventory_equips" if equipped else "use_inventory_none",
           "manual p32 (use inventory)", who=(owner,), words=tuple(c.name for c in equipped))
    for card in equipped:
        _enters_play(r, owner, card)
    for item, to in gifts:
        _move_item(r, owner, to, item, "use inventory")


def _move_item(r: Resolution, giver: str, taker: str, item_id: str, why: str) -> None:
    inv = inventory_of(r.state, giver)
    if any(c.id == item_id for c in equipped_items(inv)):
        inv = unequip(inv, item_id)
    card = find_item(inv, item_id)
    store_inventory(r, replace(inv, unequipped=tuple(c for c in inv.unequipped
                                                     if c.id != item_id)), why)
    other = inventory_of(r.state, taker)
    store_inventory(r, replace(other, unequipped=other.unequipped + (card,)), why)
    r.emit("item", "item_given", "manual p32 (trade: items arrive unequipped)",
           who=(giver, taker), words=(card.name,), cause=why)


def check_trade(state: GameState, rules: Rules, actor: str, partner: str,
                give: Sequence[str], take: Sequence[str]) -> None:
    """Raise :class:`RulesError` if this trade is illegal: 2 stamina and an adjacent partner,
    or free with a partner of the recharge window; at least one item; items held (manual p32).

    Rules: manual p32 (trade with explorer), p37 (recharge station).
    """
    u = state.unit(actor)
    window = _window(state, actor)
    free = window is not None and window.trade_partners is not None and \
        partner in window.trade_partners
    if not free:
        if partner not in adjacent_explorers(state, rules, actor):
            raise RulesError("partner", f"{partner} is not an explorer adjacent to {actor} "
                             "(manual p32: trade with an adjacent explorer)")
        if u.stamina < TRADE_COST:
            raise RulesError("actor", f"{actor} has {u.stamina} stamina, needs {TRADE_COST} "
                             "(manual p12, p32)")
    if not give and not take:
        raise RulesError("give", "a trade exchanges at least one item (manual p32)")
    for who, items in ((actor, give), (partner, take)):
        held = {c.id for c in all_items(inventory_of(state, who))}
        if len(set(items)) != len(items) or not set(items) <= held:
            raise RulesError("give" if who == actor else "take",
                             f"{who} does not hold each of {list(items)} once (manual p32)")


def trade(r: Resolution, actor: str, partner: str, give: Sequence[str],
          take: Sequence[str]) -> None:
    """Exchange items with ``partner`` (checked by :func:`check_trade`); equipped items are
    unequipped first, their attachments stay with the giver (manual p32).

    Rules: manual p32 (trade with explorer), p37 (recharge: trade).
    """
    window = _window(r.state, actor)
    if window is not None and window.trade_partners is not None and \
            partner in window.trade_partners:
        r.set(item_window=replace(window, trade_partners=None))
        r.emit("item", "trades_free", "manual p37; 3.5 FAQ", who=(actor, partner))
    else:
        u = r.state.unit(actor)
        r.state = r.state.update_unit(actor, stamina=u.stamina - TRADE_COST)
        r.emit("pay", "pays_trade", "manual p12, p32", who=(actor, partner),
               amounts=(TRADE_COST,))
    for item in give:
        _move_item(r, actor, partner, item, "trade")
    for item in take:
        _move_item(r, partner, actor, item, "trade")


# --- losing items -------------------------------------------------------------------------------


def add_item_level(r: Resolution, level: int, why: str) -> None:
    """Remove half of each item deck (``half.rounding``, the top cards after a shuffle), then
    shuffle the level's cards from the reserve into their decks (manual p33).

    Rules: manual p28 (chapter effects), p33 (add item level); 3.5 §Adding Item Levels;
    switches half.which, half.rounding and item.printed_number.
    """
    items = r.state.items
    new = tuple(c for c in items.reserve if item_level(c, r.rules) == level)
    decks, removed = {}, ()
    for kind in ITEM_TYPES:
        cards = r.dice.shuffle(items.deck(kind), f"the {kind} deck before halving")
        gone, kept = remove_half(r, cards, kind, "manual p33 (add item level)")
        removed += gone
        added = tuple(c for c in new if c.type == kind)
        decks[kind] = r.dice.shuffle(kept + added, f"level-{level} {kind} items")
    r.set(items=replace(items, **decks, removed=items.removed + removed,
                        reserve=tuple(c for c in items.reserve
                                      if item_level(c, r.rules) != level)))
    r.emit("item", "item_level",
           "manual p33 (add item level); switches half.which and half.rounding",
           amounts=(level, len(removed), len(new)), cause=why)


def shuffle_item_decks(r: Resolution, why: str) -> None:
    """*Shuffle item deck*: each item type deck is shuffled on its own; destroyed item cards
    stay out (manual p33).

    Rules: manual p33 (shuffle item deck).
    """
    items = r.state.items
    decks = {kind: r.dice.shuffle(items.deck(kind), f"the {kind} deck") for kind in ITEM_TYPES}
    r.set(items=replace(items, **decks))
    r.emit("item", "item_decks_shuffled", "manual p33 (shuffle item deck)",
           amounts=(len(items.destroyed),), cause=why)


def add_item_level_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """A chapter's "add item level N" (manual p28, p33)."""
    add_item_level(r, e.amount, step.label)
