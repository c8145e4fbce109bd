"""Horror events bound to monsters (the player aid), and bound events leaving play.

The player aid lets a monster play "its bound horror events" before the
current horror event and its card (aid §Monster Phase); the manual knows no such
thing (switches monster.ability_sources and horror_bind.monster). Under ``monster.ability_sources = bound_event_and_card`` a
horror event with the binding indicator is therefore bound when invoked,
instead of becoming the current horror event: to the monster
``horror_bind.monster`` names (no source says which; by default the explorers
choose, as they resolve every ambiguity, manual p16). With no monster in play,
or under the manual's reading, it is an ordinary horror event (manual p14).

When its holder leaves play the bound event goes too (:func:`release_bound_events`).

Rules: manual p14 (invoke horror event), p16 (ambiguities), p19 (death, banish), p21 (current
events), p24 (destroy a binding event), p37 (binding events); aid §Monster Phase; switches monster.ability_sources and horror_bind.monster.
"""

from __future__ import annotations

from machina_nb.rules.engine.state import Deck, Side
from machina_nb.rules.cards.events import EventCard
from machina_nb.rules.engine.resolution import Resolution

__all__ = ["bind_horror_event", "release_bound_events"]


def bind_horror_event(r: Resolution, card: EventCard, why: str) -> bool:
    """Bind a just-invoked binding horror event to a monster; False if it is not bound.

    It binds only under ``monster.ability_sources = bound_event_and_card`` and
    with a monster in play, to the one ``horror_bind.monster`` names:
    ``players_choose`` (any monster in play), ``first_in_queue`` (the oldest,
    acting first) or ``last_in_queue`` (the newest). Otherwise the caller makes
    it the current horror event.
    Rules: aid §Monster Phase (bound horror events); manual p14, p16, p37; switches monster.ability_sources and horror_bind.monster.
    """
    if not card.binding or r.rules["monster.ability_sources"] != "bound_event_and_card":
        return False
    queue = r.state.queue
    if not queue:
        r.emit("horror", "bind_no_monster", "manual p14; aid §Monster Phase; switches "
               "monster.ability_sources and horror_bind.monster", words=(repr(card.name),),
               cause=why)
        return False
    reading = r.rules["horror_bind.monster"]
    if reading == "first_in_queue":
        holder = queue[0]
    elif reading == "last_in_queue":
        holder = queue[-1]
    else:
        holder = r.choose(queue, f"the monster {card.name!r} binds to",
                          "manual p16 (the explorers resolve ambiguities); switches monster.ability_sources and horror_bind.monster")
    r.set(bound=r.state.bound + ((holder, card),))
    r.emit("horror", "binds_to", "aid §Monster Phase (bound horror events); switches "
           f"monster.ability_sources and horror_bind.monster (horror_bind.monster = {reading})",
           who=(holder,), words=(repr(card.name),), cause=why)
    return True


def release_bound_events(r: Resolution, unit_id: str, side: str) -> None:
    """A unit left play (``side``: ``explorer`` or ``monster``): its bound events go.

    An explorer's are removed from the game (manual p19: explorer death). A
    monster's bound horror events (aid; switches monster.ability_sources and horror_bind.monster), when it is destroyed or
    banished, are destroyed: on top of the destroyed horror event pile, as a
    destroyed binding event goes on top of its destroyed deck (manual p24), so
    the last of them is now the current horror event (manual p21: the topmost
    destroyed; ``bound.released_horror = becomes_current``), or they go under the current
    one, which stays current (``under_current``).
    Rules: manual p19 (explorer death, banish), p21 (current events), p24 (destroy); switches monster.ability_sources and horror_bind.monster;
    switch bound.released_horror.
    """
    mine = tuple(card for who, card in r.state.bound if who == unit_id)
    if not mine:
        return
    r.set(bound=tuple(b for b in r.state.bound if b[0] != unit_id))
    names = tuple(repr(c.name) for c in mine)
    if side == Side.EXPLORER:
        r.emit("event", "bound_removed", "manual p19 (explorer death)", who=(unit_id,),
               words=names)
        return
    deck = r.state.horror_events
    if r.rules["bound.released_horror"] == "under_current" and deck.destroyed:
        r.set(horror_events=Deck(deck.cards, deck.destroyed[:1] + tuple(reversed(mine))
                                 + deck.destroyed[1:]))
        r.emit("horror", "bound_under_current", "manual p24 (destroy a binding event), p21; "
               "switch bound.released_horror", who=(unit_id,),
               words=(repr(deck.destroyed[0].name),) + names)
        return
    r.set(horror_events=Deck(deck.cards, tuple(reversed(mine)) + deck.destroyed))
    r.emit("horror", "bound_on_top",
           "manual p24 (destroy a binding event), p21 (current: the topmost destroyed); "
           "aid; switches monster.ability_sources and horror_bind.monster; switch "
           "bound.released_horror", who=(unit_id,), words=(repr(mine[-1].name),) + names)
