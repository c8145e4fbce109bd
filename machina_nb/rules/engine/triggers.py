"""Triggered abilities and marker removal: "every time X", and returning a marker from a card.

A triggered ability (``Ability(kind="triggered", trigger=...)``) on a card owned
by a unit resolves every time its trigger happens to that unit: the unit hits
a target, kills a unit, the Explorer phase begins or a horror event is invoked
(manual p26-27, p30 Hobnailed Boots). On a card without an owner (the chapter, the
current events) it resolves for a hit or a kill by any unit, and once at the start
of the Explorer phase or on a horror event (manual p21-22). A
marker cost on a triggered ability is its condition: it fires only while the
owner's marker lies on the card, and returning the marker is part of firing
(manual p27, Stygian Pendant). :func:`return_marker` also pays an active
ability's marker cost (manual p27, Circular Saw). An ability never triggers
itself again while it resolves.

Rules: manual p26 (triggered conditions), p27 (markers, removing a marker from a card).
"""

from __future__ import annotations

from machina_nb.rules.cite import Cite
from machina_nb.rules.cards.abilities import Ability
from machina_nb.rules.engine.cardplay import (CardInPlay, cards_in_play, marker_holder,
                                              marker_on)
from machina_nb.rules.engine.holdings import return_marker
from machina_nb.rules.engine.resolution import Resolution, resolve
from machina_nb.rules.engine.state import Unit

__all__ = ["fire", "fire_all", "fire_explorer_phase", "fire_when_destroyed", "return_marker"]


def fire(r: Resolution, trigger: str, unit_id: str | None, why: str) -> None:
    """Resolve every triggered ability ``trigger`` that ``unit_id`` sets off: those on the
    cards it owns, and those on cards without an owner (the chapter, the current events),
    which a hit or a kill by any unit sets off, that unit being their activating unit
    (manual p26; p21-22: cards without an owner).

    Rules: manual p26 (triggered conditions), p27 (Blood-boost gun, Stygian Pendant), p21-22
    (cards in play, owner and scope).
    """
    if unit_id is None or not r.state.has_unit(unit_id):
        return
    for card in cards_in_play(r.state, r.rules):
        if card.owner in (unit_id, None):
            for ability in card.abilities:
                if ability.kind == "triggered" and ability.trigger == trigger:
                    _fire_one(r, card, ability, unit_id, why)


def fire_all(r: Resolution, trigger: str, why: str) -> None:
    """A moment of the game sets off ``trigger`` for everyone: the triggered abilities on every
    unit's cards (for their owner) and on the cards without an owner (with no activating
    unit, so their map-tile scope is every tile), each once (manual p26, p21-22).

    Rules: manual p26 (triggered conditions), p27 (the start of the Explorer phase), p14
    (invoke horror event), p22 (cards without an owner reach every tile).
    """
    for card in cards_in_play(r.state, r.rules):
        for ability in card.abilities:
            if ability.kind == "triggered" and ability.trigger == trigger and \
                    (card.owner is None or r.state.has_unit(card.owner)):
                _fire_one(r, card, ability, card.owner, why)


def _fire_one(r: Resolution, card: CardInPlay, ability: Ability, user_id: str | None,
              why: str) -> None:
    """Resolve one triggered ability: a marker cost is its condition, paid by returning the
    owner's marker from the card; never while it is already resolving (manual p26-27)."""
    tag = f"{card.key}/{ability.name}"
    if tag in r.resolving or (user_id is not None and not r.state.has_unit(user_id)):
        return
    user = r.state.unit(user_id) if user_id is not None else None
    if ability.cost.marker:
        lasting = marker_on(r.state, marker_holder(user), card.key) if user else None
        if lasting is None:
            return
        return_marker(r, lasting, f"{ability.name} triggers")
    r.emit("trigger", "triggers", "manual p26 (triggered conditions)", card=card.name,
           words=(ability.name,), cause=why)
    r.resolving.add(tag)
    previous, r.card = r.card, card.key
    try:
        resolve(r, ability.effects, r.state.unit(user.id) if user else None, None,
                ability.name)
    finally:
        r.resolving.discard(tag)
        r.card = previous


def fire_when_destroyed(r: Resolution, unit: Unit, killer: str | None) -> None:
    """``unit`` has just been destroyed (not banished): the «when destroyed» abilities of its
    card resolve, the unit that destroyed it being their activating unit (none when no unit
    did), so the Mi-Go's attacker is the one who invokes an explorer event.

    Rules: manual p24 (the Mi-Go: destroyed by an attack, its attacker invokes an explorer
    event), p26 (triggered conditions), p19 (banish is not destroy).
    """
    user = r.state.unit(killer) if killer is not None and r.state.has_unit(killer) else None
    for ability in unit.abilities:
        tag = f"unit:{unit.id}/{ability.name}"
        if ability.kind != "triggered" or ability.trigger != "destroyed" or tag in r.resolving:
            continue
        r.emit("trigger", "when_destroyed", Cite("manual", ("p24", "p26"), "when destroyed"),
               who=(unit.id,), card=ability.name)
        r.resolving.add(tag)
        try:
            resolve(r, ability.effects, user, None, ability.name)
        finally:
            r.resolving.discard(tag)


def fire_explorer_phase(r: Resolution) -> None:
    """The Explorer phase begins: "explorer_phase" triggers fire before the markers return.

    Rules: manual p27 (Stygian Pendant: at the start of the Explorer phase, with a marker
    on it), p12 (explorer phase).
    """
    fire_all(r, "explorer_phase", "the explorer phase begins")
