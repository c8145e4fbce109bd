"""Triggered abilities and marker removal: "every time X", and returning a marker from a card.

A triggered ability (``Ability(kind="triggered", trigger=...)``) on a card owned
by a unit resolves every time its trigger happens to that unit: the unit hits
a target, kills a unit, or the Explorer phase begins (manual p26-27). A
marker cost on a triggered ability is its condition: it fires only while the
owner's marker lies on the card, and returning the marker is part of firing
(manual p27, Stygian Pendant). :func:`return_marker` also pays an active
ability's marker cost (manual p27, Circular Saw). An ability never triggers
itself again while it resolves.

Rules: manual p26 (triggered conditions), p27 (markers, removing a marker from a card).
"""

from __future__ import annotations

from machina_nb.rules.engine.cardplay import cards_in_play, marker_holder, marker_on
from machina_nb.rules.engine.holdings import release_waiting
from machina_nb.rules.engine.resolution import Resolution, resolve
from machina_nb.rules.engine.state import Lasting

__all__ = ["fire", "fire_explorer_phase", "return_marker"]


def return_marker(r: Resolution, lasting: Lasting, why: str) -> None:
    """Take a marker back from its card: its lasting effect ends (manual p27).

    Rules: manual p27 (removing an explorer or horror marker from a card).
    """
    r.set(lasting=tuple(e for e in r.state.lasting if e is not lasting))
    owner = "a horror" if lasting.holder == "horror" else f"{lasting.holder}'s"
    r.emit("markers", f"{why}: {owner} marker returns from {lasting.card}; {lasting.name} on "
           f"{lasting.target} ends", "manual p27 (removing a marker from a card)")
    release_waiting(r)


def fire(r: Resolution, trigger: str, unit_id: str | None, why: str) -> None:
    """Resolve every triggered ability ``trigger`` on the cards ``unit_id`` owns (manual p26).

    Rules: manual p26 (triggered conditions), p27 (Blood-boost gun, Stygian Pendant).
    """
    if unit_id is None or not r.state.has_unit(unit_id):
        return
    for card in cards_in_play(r.state):
        if card.owner != unit_id:
            continue
        for ability in card.abilities:
            if ability.kind != "triggered" or ability.trigger != trigger:
                continue
            tag = f"{card.key}/{ability.name}"
            if tag in r.resolving or not r.state.has_unit(unit_id):
                continue
            unit = r.state.unit(unit_id)
            if ability.cost.marker:
                lasting = marker_on(r.state, marker_holder(unit), card.key)
                if lasting is None:
                    continue
                return_marker(r, lasting, f"{ability.name} triggers")
            r.emit("trigger", f"{why}: {ability.name} ({card.name}) triggers",
                   "manual p26 (triggered conditions)")
            r.resolving.add(tag)
            previous, r.card = r.card, card.key
            try:
                resolve(r, ability.effects, r.state.unit(unit_id), None, ability.name)
            finally:
                r.resolving.discard(tag)
                r.card = previous


def fire_explorer_phase(r: Resolution) -> None:
    """The Explorer phase begins: "explorer_phase" triggers fire before the markers return.

    Rules: manual p27 (Stygian Pendant: at the start of the Explorer phase, with a marker
    on it), p12 (explorer phase).
    """
    for u in r.state.units:
        fire(r, "explorer_phase", u.id, "the explorer phase begins")
