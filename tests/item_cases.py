"""Shared item trees for the tests: the manual's p31 inventory and Kim beside a chest."""

from dataclasses import replace

from engine_cases import CARDS, open_map

from machina_nb.rules.cards.items import Equipped, Inventory, ItemDecks, load_all_items
from machina_nb.rules.engine.holdings import set_inventory
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.rulings import Rules

RULES = Rules()
ITEMS = load_all_items()
I = ITEMS


def tree(card, upgrade=None, augment=None):
    return Equipped(I[card], upgrade, augment)


def p31_apparel(head="brass_goggles"):
    """Boots (legs, main) <- torso <- head; Leather Holster on the torso (manual p31)."""
    return tree("hobnailed_boots", tree("aeromantle", tree(head), tree("leather_holster")))


def p31_weapons():
    """Teleportabulus (two-handed, main) <- Puncturing Revolver <- Precision Scope (p31)."""
    return tree("teleportabulus", tree("puncturing_revolver", None, tree("precision_scope")))


def on_map(rows, legend, width=5, height=3, spaces=None, **fields):
    return scenario(open_map(width, height, rows), legend, spaces=spaces, **fields)


def kim_at_chest(deck_apparel=("proximity_bender",), deck_weapon=("reconnoisseur",)):
    """Kim (gunman) next to a chest, holding the p31 apparel tree."""
    state = on_map({0: "Kc..."}, {"K": CARDS["kim"]})
    state = replace(state, phase="explorer", active="kim",
                    items=ItemDecks(apparel=tuple(I[c] for c in deck_apparel),
                                    weapon=tuple(I[c] for c in deck_weapon)))
    return set_inventory(state, Inventory("kim", (p31_apparel(),)), RULES)
