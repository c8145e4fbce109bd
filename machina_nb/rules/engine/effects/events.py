"""Horror and explorer events, and the markers that hold lasting effects: invoking,
reinvoking and shuffling events; returning markers; adding a lasting effect.

Rules: manual p14 (horror events), p26 (binding events, triggers), p27 (markers, lasting
effects), p37 (explorer events).
"""

from __future__ import annotations

from typing import cast

from machina_nb.rules.cards.abilities import Effect
from machina_nb.rules.cards.events import EventCard
from machina_nb.rules.engine.binding import bind_horror_event
from machina_nb.rules.engine.effects.threat import threat_up
from machina_nb.rules.engine.holdings import release_spent, release_waiting
from machina_nb.rules.engine.resolution import Resolution, EffectStep, resolve
from machina_nb.rules.engine.state import (Deck, EXPLORER_MARKERS, HORROR_MARKERS, Lasting, Side,
                                           Unit)
from machina_nb.rules.engine.triggers import fire_all

__all__ = [
    "invoke_horror_event", "reinvoke_horror_event", "reinvoke_explorer_event",
    "shuffle_event_deck", "invoke_explorer_event", "return_markers",
    "invoke_explorer_event_effect", "reinvoke_horror_event_effect", "shuffle_event_deck_effect",
    "reinvoke_explorer_event_effect", "lasting_effect",
]


# --- horror and explorer events ---------------------------------------------------------------

def invoke_horror_event(r: Resolution, why: str) -> None:
    """Threat +1, draw a horror event, make it current and resolve «enters play» (manual p14).

    ``horror.invoke_order``: place then resolve (1.0) or resolve then place
    (aid; switch horror.invoke_order).
    Once it is invoked, "on any horror event" triggers fire (Hobnailed Boots, manual p30).
    Rules: manual p14 (invoke horror event), p26 (triggered conditions), p30.
    """
    threat_up(r, 1, why)
    deck = _drawable(r, r.state.horror_events, "horror", "horror events", "manual p14")
    if deck is None:
        return
    card = deck.cards[0]
    r.set(horror_events=Deck(deck.cards[1:], deck.destroyed))
    if r.rules["horror.invoke_order"] == "place_then_resolve":
        _place_horror_event(r, card, why, "manual p14")
        _resolve_card(r, card, f"{card.name} enters play")
    else:
        _resolve_card(r, card, f"{card.name} enters play")
        _place_horror_event(r, card, why, "aid (resolve, then place); switch horror.invoke_order")
    fire_all(r, "horror_event", f"the horror event {card.name} is invoked")


def _place_horror_event(r: Resolution, card: EventCard, why: str, rule: str) -> None:
    """Bind the drawn horror event to a monster (a binding one, under the aid's reading) or
    put it on the destroyed pile, where it is the current horror event (manual p14)."""
    if bind_horror_event(r, card, why):
        return
    deck = r.state.horror_events
    r.set(horror_events=Deck(deck.cards, (card,) + deck.destroyed))
    r.emit("horror", "horror_event_current", rule, words=(repr(card.name),))


def reinvoke_horror_event(r: Resolution, why: str) -> None:
    """Resolve the current horror event's «enters play» again (manual p14).

    An event already resolving is not reinvoked from inside itself (that would
    never end; the text is silent).
    Rules: manual p14 (reinvoke horror event), p37 (event space roll).
    """
    _reinvoke(r, r.state.horror_events, "horror", None, why, "manual p14", "manual p14")


def reinvoke_explorer_event(r: Resolution, user: Unit | None, why: str) -> None:
    """Resolve the current explorer event's «enters play» again, for the activating explorer
    (manual p37; p20: the invoking explorer is its default target). An event already
    resolving is not reinvoked from inside itself.

    Rules: manual p37 (reinvoke explorer event), p20 («enters play»).
    """
    _reinvoke(r, r.state.explorer_events, "event", user, why, "manual p37",
              "manual p37 (reinvoke explorer event)")


def _reinvoke(r: Resolution, deck: Deck, kind: str, user: Unit | None, why: str, rule: str,
              again: str) -> None:
    what = "horror" if kind == "horror" else "explorer"
    current = deck.destroyed[:1]
    if not current:
        r.emit(kind, "no_current_event", rule, words=(what,), cause=why)
        return
    card = current[0]
    if card.id in r.resolving:
        r.emit(kind, "event_already_resolving", rule, words=(card.name,), cause=why)
        return
    r.emit(kind, "event_again", again, words=(card.name,), cause=why)
    _resolve_card(r, card, f"{card.name} reinvoked", user)


def shuffle_event_deck(r: Resolution, kind: str, why: str) -> None:
    """*Shuffle event deck*: the destroyed events of ``kind`` (``horror`` or ``explorer``) are
    shuffled back into their deck (manual p14, p37). The current event (the topmost destroyed)
    goes in with them (``shuffle_events.current = shuffled_in``: none is current until the next
    invoke) or stays current (``stays``).

    Rules: manual p14 (shuffle horror event deck), p37 (shuffle event deck);
    switch shuffle_events.current.
    """
    field = "horror_events" if kind == "horror" else "explorer_events"
    deck = getattr(r.state, field)
    keep = deck.destroyed[:1] if r.rules["shuffle_events.current"] == "stays" else ()
    back = deck.destroyed[len(keep):]
    cards = r.dice.shuffle(deck.cards + back, f"the {kind} event deck")
    r.set(**{field: Deck(cards, keep)})
    r.emit("deck", "events_shuffled_back_stays" if keep else "events_shuffled_back",
           "manual p14, p37 (shuffle event deck); switch shuffle_events.current",
           amounts=(len(back), len(cards)),
           words=(kind,) + ((repr(keep[0].name),) if keep else ()), cause=why)


def _drawable(r: Resolution, deck: Deck, kind: str, what: str, rule: str) -> Deck | None:
    """The deck to draw from: an empty deck reshuffles its destroyed pile; None if both are empty."""
    if deck.cards:
        return deck
    if not deck.destroyed:
        r.emit(kind, "nothing_drawn", rule, words=(what,))
        return None
    return Deck(r.dice.shuffle(deck.destroyed, f"destroyed {what}"), ())


def _resolve_card(r: Resolution, card: EventCard, why: str, user: Unit | None = None
                  ) -> None:
    r.resolving.add(card.id)
    try:
        resolve(r, card.enters_play, user, None, why)
    finally:
        r.resolving.discard(card.id)


def invoke_explorer_event(r: Resolution, explorer: Unit, why: str) -> None:
    """Draw an explorer event: binding ones stay with the explorer, others become current (p37).

    Rules: manual p37 (invoke explorer event), p26 (binding events).
    """
    deck = _drawable(r, r.state.explorer_events, "event", "explorer events", "manual p37")
    if deck is None:
        return
    card = deck.cards[0]
    if card.binding:
        r.set(explorer_events=Deck(deck.cards[1:], deck.destroyed),
              bound=r.state.bound + ((explorer.id, card),))
        r.emit("event", "binds_explorer_event", "manual p37 (binding events)",
               who=(explorer.id,), words=(repr(card.name),), cause=why)
    else:
        r.set(explorer_events=Deck(deck.cards[1:], (card,) + deck.destroyed))
        r.emit("event", "explorer_event_current", "manual p37", words=(repr(card.name),),
               cause=why)
    resolve(r, card.enters_play, r.state.unit(explorer.id), None, f"{card.name} enters play")

# --- markers and lasting effects --------------------------------------------------------------

def return_markers(r: Resolution, holder_kind: str, why: str) -> None:
    """Return explorer or horror markers; their lasting effects end (manual p27).

    Rules: manual p12 (explorer phase), p14 (horror phase), p27 (markers).
    """
    keep = tuple(e for e in r.state.lasting
                 if (e.holder == "horror") != (holder_kind == "horror"))
    ended = len(r.state.lasting) - len(keep)
    r.set(lasting=keep)
    if ended:
        r.emit("markers", "markers_return", "manual p27 (markers)", amounts=(ended,),
               words=(holder_kind,), cause=why)
    release_waiting(r)
    if holder_kind != "horror":
        release_spent(r)


def _add_lasting(r: Resolution, effect: Effect, user: Unit | None, target: str, name: str
                 ) -> None:
    holder = user.id if user is not None and user.side == Side.EXPLORER else "horror"
    limit = EXPLORER_MARKERS if holder != "horror" else HORROR_MARKERS
    s = r.state
    stacks = sum(1 for e in s.lasting if e.name == name and e.target == target)
    if s.markers_used(holder) >= limit or stacks >= effect.stacks:
        r.emit("lasting", "lasting_skipped", "manual p27 (lasting effects)",
               amounts=(effect.stacks,), words=(name,))
        return
    r.set(lasting=s.lasting + (Lasting(name, effect.op, target, holder, effect.amount, name,
                                       r.card or "", effect.attributes),))
    r.emit("lasting", f"lasting_{'horror' if holder == 'horror' else 'explorer'}",
           "manual p27 (lasting effects)", who=(target,) + ((holder,) if holder != "horror"
                                                            else ()),
           words=(name, effect.op, f"{effect.amount:+d}"))

# --- handlers of event and lasting effects (the table is vocabulary.EFFECT_HANDLERS) ----------

def invoke_explorer_event_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """An explorer draws an explorer event (manual p37)."""
    if step.user is not None and step.user.side == Side.EXPLORER:
        invoke_explorer_event(r, step.user, step.label)


def reinvoke_horror_event_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """The current horror event's «enters play» again (manual p14)."""
    reinvoke_horror_event(r, step.label)


def shuffle_event_deck_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """*Shuffle (horror) event deck*: the destroyed events of ``key`` go back (manual p14, p37);
    switch shuffle_events.current."""
    shuffle_event_deck(r, cast(str, e.key), step.label)


def reinvoke_explorer_event_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """The current explorer event's «enters play» again (manual p37)."""
    reinvoke_explorer_event(r, step.user, step.label)


def lasting_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """A lasting effect on each unit in scope, held by a marker (manual p27)."""
    for u in step.scope:
        _add_lasting(r, e, step.user, u, e.key or f"{step.why} ({e.op})")
