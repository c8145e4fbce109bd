"""Item actions: :class:`UseInventory` and :class:`Trade`, each kind's check, legal
instances and resolution side by side (the item rules themselves live in
:mod:`machina_nb.rules.engine.inventory`).

Rules: manual p31-33 (inventory, use inventory, trade), p37 (workbench, recharge station).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from machina_nb.rules.cards.items import Inventory, all_items, unequip_all
from machina_nb.rules.engine import inventory as inv
from machina_nb.rules.engine.actions.core import Action, _fail, _if_legal
from machina_nb.rules.engine.holdings import inventory_of
from machina_nb.rules.engine.resolution import Resolution
from machina_nb.rules.engine.state import GameState, Side, Unit
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

__all__ = ["UseInventory", "Trade"]


@dataclass(frozen=True)
class UseInventory(Action):
    """*Use inventory* on ``owner`` (the actor, or an adjacent explorer; default the actor):
    unequip all, equip by ``steps``, give ``gifts`` ((item, explorer) pairs) (manual p32).

    A step is ``("main", item)``, ``("upgrade", item, host)`` or ``("augment", item, host)``.
    3 stamina, or free right after a workbench or recharge station (manual p33, p37).
    """

    owner: str | None = None
    steps: tuple[tuple[str, ...], ...] = ()
    gifts: tuple[tuple[str, str], ...] = ()

    closes_item_window: ClassVar[bool] = False

    def _verify(self, state: GameState, rules: Rules, u: Unit) -> None:
        if u.side != Side.EXPLORER:
            _fail("actor", "only explorers have an inventory", "manual p31")
        inv.check_use_inventory(state, rules, u.id, self.owner or u.id, self.steps, self.gifts)

    def _perform(self, r: Resolution, u: Unit) -> None:
        inv.use_inventory(r, u.id, self.owner or u.id, self.steps, self.gifts)

    @classmethod
    def options(cls, state: GameState, rules: Rules, u: Unit) -> list[Action]:
        return _use_inventory_actions(state, rules, u)


def _use_inventory_actions(state: GameState, rules: Rules, u: Unit) -> list[Action]:
    """A representative few inventory arrangements (the full space of arrangements is huge):
    per explorer whose inventory the actor may use (self, adjacent), unequip everything, and
    :func:`_greedy` equipping.

    Rules: manual p32 (use inventory).
    """
    out: list[Action] = []
    for owner in _owners(state, rules, u):
        held = inventory_of(state, owner)
        if held.empty:
            continue
        steps = _greedy(held)
        for option in ((), steps) if steps else ((),):
            out += _if_legal(state, rules, UseInventory(u.id, owner=owner, steps=option))
    return out


def _owners(state: GameState, rules: Rules, u: Unit) -> tuple[str, ...]:
    return (u.id,) + inv.adjacent_explorers(state, rules, u.id) \
        if u.side == Side.EXPLORER and u.position is not None else ()


def _greedy(held: Inventory) -> tuple[tuple[str, ...], ...]:
    """Steps equipping every card that fits, in card order: mains, then upgrades and augments."""
    cards = all_items(unequip_all(held))
    steps: list[tuple[str, ...]] = []
    placed: list[str] = []
    for card in cards:
        tries = [("main", card.id)] + [(how, card.id, host) for host in placed
                                       for how in ("upgrade", "augment")]
        for step in tries:
            try:
                inv.arrange(held, steps + [step])
            except RulesError:
                continue
            steps.append(step)
            placed.append(card.id)
            break
    return tuple(steps)


@dataclass(frozen=True)
class Trade(Action):
    """Exchange items with an adjacent explorer for 2 stamina: ``give`` the actor's, ``take``
    the partner's; they arrive unequipped (manual p32). Free with a recharge-station partner
    (manual p37; 3.5 FAQ).
    """

    partner: str = ""
    give: tuple[str, ...] = ()
    take: tuple[str, ...] = ()

    closes_item_window: ClassVar[bool] = False

    def _verify(self, state: GameState, rules: Rules, u: Unit) -> None:
        if u.side != Side.EXPLORER or not state.has_unit(self.partner) or \
                state.unit(self.partner).side != Side.EXPLORER:
            _fail("partner", f"{self.partner!r} is not an explorer in play", "manual p32")
        inv.check_trade(state, rules, u.id, self.partner, self.give, self.take)

    def _perform(self, r: Resolution, u: Unit) -> None:
        inv.trade(r, u.id, self.partner, self.give, self.take)

    @classmethod
    def options(cls, state: GameState, rules: Rules, u: Unit) -> list[Action]:
        return _trade_actions(state, rules, u)


def _trade_actions(state: GameState, rules: Rules, u: Unit) -> list[Action]:
    """For each trade partner, giving or taking one item at a time.

    Rules: manual p32 (trade), p37 (recharge station partners).
    """
    if u.side != Side.EXPLORER or u.position is None:
        return []
    window = state.item_window
    partners = set(inv.adjacent_explorers(state, rules, u.id))
    if window is not None and window.explorer == u.id and window.trade_partners:
        partners |= set(window.trade_partners)
    out: list[Action] = []
    for partner in sorted(partners):
        for card in all_items(inventory_of(state, u.id)):
            out += _if_legal(state, rules, Trade(u.id, partner=partner, give=(card.id,)))
        for card in all_items(inventory_of(state, partner)):
            out += _if_legal(state, rules, Trade(u.id, partner=partner, take=(card.id,)))
    return out
