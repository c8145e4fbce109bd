"""The shipped cards as one read-only catalogue per kind, read once.

A situation's units, items, events and chapters name cards of ``content/``; these lookups
are what the situation files and their questions check the names against.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from machina_nb.rules.cards.events import load_all_chapters, load_all_events
from machina_nb.rules.cards.items import load_all_items
from machina_nb.rules.cards.units import load_all_units

__all__ = ["unit_cards", "item_cards", "event_cards", "chapter_cards"]


@lru_cache(maxsize=1)
def unit_cards() -> Mapping[str, Any]:
    """The unit cards of ``content/units`` by id, read once (a read-only mapping)."""
    return MappingProxyType(load_all_units())


@lru_cache(maxsize=1)
def item_cards() -> Mapping[str, Any]:
    """The item cards of ``content/items`` by id, read once (a read-only mapping)."""
    return MappingProxyType(load_all_items())


@lru_cache(maxsize=1)
def event_cards() -> Mapping[str, Any]:
    """The horror and explorer event cards of ``content/events`` by id, read once."""
    return MappingProxyType(load_all_events())


@lru_cache(maxsize=1)
def chapter_cards() -> Mapping[str, Any]:
    """The chapter cards of ``content/chapters`` by id, read once."""
    return MappingProxyType(load_all_chapters())
