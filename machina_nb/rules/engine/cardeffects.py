"""Effects on cards, decks and spaces: take, treat map space, destroy this card (and
reinvoke explorer event, from :mod:`machina_nb.rules.engine.effects`).

:func:`card_effect` resolves the ops of
:data:`machina_nb.rules.engine.effects.CARD_OPS` for :func:`machina_nb.rules.engine.resolution.resolve`.

Rules: manual p25 (take), p35 (treat map space), p37 (reinvoke explorer event), p20, p27
(destroy icon, destroyed cards).
"""

from __future__ import annotations

from machina_nb.rules.cards.abilities import Effect
from machina_nb.rules.board.graph import PASSABLE_SPACES
from machina_nb.rules.engine.holdings import destroy_card
from machina_nb.rules.engine.resolution import Resolution, EffectStep, resolve
from machina_nb.rules.board.maptext import Point, SpaceKind
from machina_nb.rules.engine.state import Deck
from typing import Any, cast

__all__ = ["card_effect", "take", "treat_space"]


def card_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """Resolve one of ``take``, ``treat_space``, ``destroy_bound_event``, ``destroy_card``.

    Rules: manual p25 (take), p35 (treat map space), p20 and p27 (destroy a card).
    """
    if e.op == "treat_space":
        treat_space(r, step.target, SpaceKind[cast(str, e.key).upper()], step.label, e.also)
    elif e.op == "take":
        found = take(r, cast(str, e.key), step.label)
        resolve(r, e.then, step.user, step.target, step.why, step.essence_budget, step.second)
        if found is not None and r.rules.reads("take.found_card", "set_aside"):
            _unused_back(r, *found, step.label)
    elif e.op == "destroy_bound_event":
        if any(card.id == e.key for _, card in r.state.bound):
            destroy_card(r, f"bound:{e.key}", step.label)
    else:
        destroy_card(r, r.card, step.label)


def take(r: Resolution, card_id: str, why: str) -> tuple[Any, str, str] | None:
    """*Take*: find the card named ``card_id`` and shuffle the deck searched; the card goes
    on top of its deck, where the effects that follow (spawn, invoke) draw it (manual p25).

    Monster cards are searched in the manual's order: the monster deck (then
    shuffled), the destroyed monster cards, the monsters removed from the game,
    the monsters not yet added; events in their deck. Under ``take.found_card = set_aside``
    the card is only held for the effects that follow (:func:`card_effect` puts it back
    where it was found if none of them draws it); under ``top_of_deck`` it stays on top of
    its deck. Returns ``(card, deck field, place found)``, or None when not found.
    Rules: manual p25 (take, take specific monsters); switch take.found_card.
    """
    s = r.state
    deck = s.monsters
    held = "held" if r.rules.reads("take.found_card", "set_aside") else "top"
    for place in ("deck", "destroyed", "removed", "reserve"):
        pile = {"deck": deck.cards, "destroyed": deck.destroyed, "removed": s.removed,
                "reserve": s.reserve}[place]
        i = next((i for i, c in enumerate(pile) if c.id == card_id), None)
        if i is None:
            continue
        card, rest = pile[i], pile[:i] + pile[i + 1:]
        if place == "deck":
            rest = r.dice.shuffle(rest, "the monster deck after take")
            r.set(monsters=Deck((card,) + rest, deck.destroyed))
        else:
            r.set(monsters=Deck((card,) + deck.cards, rest if place == "destroyed"
                                else deck.destroyed), **({place: rest} if place != "destroyed"
                                                         else {}))
        r.emit("take", f"taken_monster_{'deck' if place == 'deck' else 'pile'}_{held}",
               "manual p25 (take specific monsters); switch take.found_card", card=card.name,
               words=(place,), cause=why)
        return card, "monsters", place
    for field in ("horror_events", "explorer_events"):
        deck = getattr(s, field)
        i = next((i for i, c in enumerate(deck.cards) if c.id == card_id), None)
        if i is not None:
            card = deck.cards[i]
            rest = r.dice.shuffle(deck.cards[:i] + deck.cards[i + 1:], f"{field} after take")
            r.set(**{field: Deck((card,) + rest, deck.destroyed)})
            r.emit("take", f"taken_event_{held}", "manual p25 (take); switch take.found_card",
                   card=card.name, words=(field.replace("_", " "),), cause=why)
            return card, field, "deck"
    r.emit("take", "take_nothing", "manual p25 (take)", words=(repr(card_id),), cause=why)
    return None


def _unused_back(r: Resolution, card: Any, field: str, place: str, why: str) -> None:
    """A card found by *take* that none of the effects that followed drew goes back where it
    was found: into its deck, shuffled, or to its pile (``take.found_card = set_aside``).

    Rules: manual p25 (take: search, then shuffle the deck); switch take.found_card.
    """
    deck = getattr(r.state, field)
    if not deck.cards or deck.cards[0] is not card:
        return
    rest = deck.cards[1:]
    if place == "deck":
        r.set(**{field: Deck(r.dice.shuffle((card,) + rest, f"{card.name} back into its deck"),
                             deck.destroyed)})
    elif place == "destroyed":
        r.set(**{field: Deck(rest, (card,) + deck.destroyed)})
    else:
        r.set(**{field: Deck(rest, deck.destroyed), place: getattr(r.state, place) + (card,)})
    r.emit("take", "take_back_deck" if place == "deck" else "take_back_pile",
           "manual p25 (take); switch take.found_card (set_aside)", card=card.name,
           words=(place,), cause=why)


def treat_space(r: Resolution, space: Point | None, kind: SpaceKind, why: str,
                also: bool = False) -> None:
    """*Treat map space*: the space becomes ``kind`` and loses its own features, or with
    ``also`` keeps its kind and gains ``kind``'s features too (a chest also an exploding
    barrel: it can be attacked and explodes, and still be opened) (manual p35).

    A destroyed token stays on top. A unit standing there keeps the space as it
    is when ``kind`` would be impassable (no unit stands on an obstacle, p35).
    Gained features count where the engine asks whether a space is of a kind
    (targets, attacks, costs), and for moving, sight and pushes the board shows the strongest
    of the space's kinds (:func:`machina_nb.rules.engine.state.board_kind`): a floor also
    rubble blocks moves and sight, a floor also a pit destroys who enters it, a chest also
    an exploding barrel is hit by a push into it.
    Rules: manual p35 (treat map space), p22 (barriers and obstacles), p25 (push into a barrel).
    """
    if space is None:
        r.emit("treat", "treat_no_space", "manual p35 (treat map space)", cause=why)
        return
    space = cast(Point, tuple(space))
    if also:
        if r.state.unit_at(space) is not None and kind not in PASSABLE_SPACES:
            r.emit("treat", "treat_occupied_too", "manual p35", where=(space,),
                   words=(kind.name.lower(),), cause=why)
            return
        r.set(features=r.state.features + ((space, kind),))
        r.emit("treat", "treated_too", "manual p35 (treat map space: extra features)",
               where=(space,), words=(kind.name.lower(),), cause=why)
        return
    if r.state.unit_at(space) is not None and kind not in PASSABLE_SPACES:
        r.emit("treat", "treat_occupied", "manual p35", where=(space,),
               words=(kind.name.lower(),), cause=why)
        return
    r.set(treated=tuple(t for t in r.state.treated if t[0] != space) + ((space, kind),))
    r.emit("treat", "treated", "manual p35 (treat map space)", where=(space,),
           words=(kind.name.lower(),), cause=why)


