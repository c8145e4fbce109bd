"""Shuffling decks (manual p33: shuffle item deck; p14, p37: shuffle event deck) and the
automatic reshuffle of an empty event deck (manual p14, p37)."""

from collections import Counter

import pytest
from engine_cases import SHIVERS, SURGE, WHISPER, explorer, open_map

from machina_nb.rules.cards.items import ItemDecks, load_all_items
from machina_nb.rules.engine.chance import ScriptedDice, SeededDice
from machina_nb.rules.engine.effects import invoke_horror_event, shuffle_event_deck
from machina_nb.rules.engine.inventory import shuffle_item_decks
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.state import Deck
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.rulings import Rules

RULES = Rules()
I = load_all_items()
TREMOR = SHIVERS.__class__("tremor", "Tremor", "horror")


def test_manual_p33_shuffle_item_deck_keeps_each_type_apart_and_leaves_destroyed_cards_out():
    decks = ItemDecks(weapon=(I["reconnoisseur"], I["blood_boost_gun"]),
                      apparel=(I["aeromantle"], I["proximity_bender"]),
                      destroyed=(I["rotopod"],))
    state = scenario(open_map(2, 1, {0: "A."}), {"A": explorer("a")}, items=decks)
    for seed in range(6):
        r = new_resolution(state, RULES, SeededDice(seed))
        shuffle_item_decks(r, "an effect")
        after = r.state.items
        assert Counter(after.weapon) == Counter(decks.weapon)
        assert Counter(after.apparel) == Counter(decks.apparel)
        assert after.destroyed == (I["rotopod"],) and after.artifact == ()
    assert "manual p33" in r.events[-1].rule


@pytest.mark.parametrize("reading, current, deck_size", [("shuffled_in", None, 3),
                                                         ("stays", "shivers", 2)])
def test_manual_p14_p37_shuffle_event_deck(reading, current, deck_size):
    """Shivers is the current horror event, Surge destroyed under it, Tremor in the deck."""
    state = scenario(open_map(2, 1, {0: "A."}), {"A": explorer("a")},
                     horror_events=Deck((TREMOR,), (SHIVERS, SURGE)))
    r = new_resolution(state, RULES.replace({"shuffle_events.current": reading}),
                       SeededDice(3))
    shuffle_event_deck(r, "horror", "an effect")
    deck = r.state.horror_events
    assert len(deck.cards) == deck_size
    assert (deck.destroyed[0].id if deck.destroyed else None) == current
    assert Counter(c.id for c in deck.cards + deck.destroyed) == Counter(
        ("tremor", "shivers", "surge"))


def test_manual_p37_shuffle_explorer_event_deck():
    state = scenario(open_map(2, 1, {0: "A."}), {"A": explorer("a")},
                     explorer_events=Deck((), (WHISPER,)))
    r = new_resolution(state, RULES, ScriptedDice())
    shuffle_event_deck(r, "explorer", "an effect")
    assert r.state.explorer_events == Deck((WHISPER,), ())


def test_manual_p14_an_empty_horror_event_deck_reshuffles_its_destroyed_pile():
    """Invoke horror event with no card left: the destroyed events become the deck first."""
    state = scenario(open_map(2, 1, {0: "A."}), {"A": explorer("a", health=9)},
                     horror_events=Deck((), (SURGE,)), threat=1)
    r = new_resolution(state, RULES, ScriptedDice())
    invoke_horror_event(r, "test")
    deck = r.state.horror_events
    assert deck.cards == () and deck.destroyed == (SURGE,)       # drawn again, current again
    assert r.state.threat == 2


@pytest.mark.parametrize("reading, current", [("shuffled_in", None), ("stays", "shivers")])
def test_manual_p14_a_card_that_shuffles_the_horror_event_deck(reading, current):
    """A card prints "shuffle horror event deck" (manual p14): the effect of the vocabulary
    reaches the shuffle, and shuffle_events.current decides about the current event."""
    from machina_nb.rules.cards.abilities import Effect
    from machina_nb.rules.engine.resolution import resolve
    state = scenario(open_map(2, 1, {0: "A."}), {"A": explorer("a")},
                     horror_events=Deck((TREMOR,), (SHIVERS, SURGE)))
    r = new_resolution(state, RULES.replace({"shuffle_events.current": reading}),
                       ScriptedDice())
    resolve(r, (Effect("shuffle_event_deck", key="horror"),), None, None, "a horror event")
    deck = r.state.horror_events
    assert (deck.destroyed[0].id if deck.destroyed else None) == current
    assert any("manual p14" in e.rule for e in r.events)


def test_manual_p14_p37_shuffle_event_deck_names_which_deck():
    from machina_nb.rules.cards.abilities import Effect
    from machina_nb.rules.errors import RulesError
    with pytest.raises(RulesError, match="key"):
        Effect("shuffle_event_deck", key="monster")
