"""Words for what an action holds beyond its kind and its spaces, as the ``actions`` answer
lists it: who contributes essence toward its cost, and what *use inventory* equips and gives,
units and items by name.

Rules: manual p19 (contributing explorers), p32 (use inventory).
"""

from __future__ import annotations

from machina_nb.rules.cards.items import all_items
from machina_nb.rules.engine.actions import Action, Trade, UseInventory
from machina_nb.rules.engine.holdings import inventory_of
from machina_nb.rules.engine.state import GameState

__all__ = ["contribution_words", "inventory_words", "trade_words"]


def contribution_words(state: GameState, action: Action) -> str:
    """`` with Phillip contributing 2 and Hank contributing 1``, or nothing when the actor
    pays alone.

    >>> from machina_nb.rules.engine.state import MapSpec, Unit
    >>> from machina_nb.rules.board.maptext import parse_map
    >>> from machina_nb.rules.engine.actions import SealSpawn
    >>> units = (Unit("kim", "Kim", "explorer", (0, 0)), Unit("lou", "Lou", "explorer", (2, 0)))
    >>> state = GameState(MapSpec(parse_map("+-+-+-+\\n|. s .|\\n+-+-+-+\\n")), units=units)
    >>> contribution_words(state, SealSpawn("kim", (1, 0), (("lou", 2),)))
    ' with Lou contributing 2'
    """
    given = getattr(action, "contributions", ())
    return (" with " + " and ".join(f"{state.unit(who).name} contributing {n}"
                                    for who, n in given)) if given else ""


def inventory_words(state: GameState, action: UseInventory) -> str:
    """*Use inventory* in words: whose, what it equips in order, what it gives and to whom
    (``use Phillip's inventory: unequip all then equip Circular Saw then give Rotopod to
    Kim``), with no commas, since the answer lists actions with them.
    """
    owner = action.owner or action.actor
    names = {c.id: c.name for c in all_items(inventory_of(state, owner))}
    whose = "use inventory" if owner == action.actor else \
        f"use {state.unit(owner).name}'s inventory"
    steps = []
    for step in action.steps:
        item = names.get(step[1], step[1])
        steps.append(f"equip {item}" if step[0] == "main" else
                     f"{step[0]} {names.get(step[2], step[2])} with {item}")
    steps += [f"give {names.get(item, item)} to {state.unit(to).name}"
              for item, to in action.gifts]
    return " then ".join([f"{whose}: unequip all"] + steps)


def trade_words(state: GameState, action: Trade) -> str:
    """A trade in words, items by name: ``trade with Phillip, giving Aeromantle``."""
    names = {c.id: c.name for who in (action.actor, action.partner)
             for c in all_items(inventory_of(state, who))}
    parts = [f"{verb} {' and '.join(names.get(i, i) for i in items)}"
             for verb, items in (("giving", action.give), ("taking", action.take)) if items]
    return ", ".join([f"trade with {state.unit(action.partner).name}"] + parts)
