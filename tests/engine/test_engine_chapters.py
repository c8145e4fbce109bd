"""Leaving the map and coming back on a playing area of map tiles (manual p28, p34).

The last explorer out banishes every monster, sends the placed tiles under the
map-tile deck in a shuffled order (a chance point the dice script), and flips
the next chapter; its *place entry token* draws the top tile into the empty
area, and the explorers come back on or next to the entry token, choosing
where, then resolve their cards' «enters play».
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from chapter_cases import (
    ESCAPE,
    MEND,
    QUIET,
    REGROUP,
    RULES,
    on_the_exit,
)
from engine_cases import decision

from machina_nb.rules.board.maptext import parse_map
from machina_nb.rules.cards.abilities import Effect
from machina_nb.rules.cards.events import Chapter
from machina_nb.rules.cards.items import Equipped, Inventory, ItemCard
from machina_nb.rules.cards.units import UnitCard
from machina_nb.rules.engine.actions import EndTurn, Exit, apply, legal_actions
from machina_nb.rules.engine.chance import ScriptedDice
from machina_nb.rules.engine.game import History, new_game, replay
from machina_nb.rules.engine.holdings import set_inventory
from machina_nb.rules.engine.saves import from_json, to_json
from machina_nb.rules.engine.state import Deck, MapSpec, Unit
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.rulings import Rules

V35 = Rules.preset("v3_5")
def test_manual_p28_p34_the_last_exit_sends_the_tiles_under_the_deck_in_the_shuffled_order():
    state = on_the_exit()
    assert [t.key for t in state.map.area.tiles] == ["t00a", "t01a"]
    after, events = apply(state, Exit("P", choices=((3, 0), (5, 1))), RULES,
                          ScriptedDice([(1, 0)]))
    kinds = [e.kind for e in events]
    assert kinds.index("banished") < kinds.index("tiles") < kinds.index("chapter")
    assert not after.queue and [c.id for c in after.monsters.destroyed] == ["ghoul"]
    tiles = next(e for e in events if e.kind == "tiles")
    assert "t01a, t00a" in tiles.text and "manual p28" in tiles.rule and "p34" in tiles.rule
    area = after.map.area
    # The top tile t02a is the new map; the returned tiles lie under t03a, shuffled.
    assert [t.key for t in area.tiles] == ["t02a"] and area.deck == ("t03a", "t01a", "t00a")
    assert area.entry == ((4, 0), (4, -1)) and area.exit is None and after.exit_token is None
    assert after.chapter == REGROUP
    # Tokens of the old tiles left with them.
    assert after.destroyed == () and after.lit == ()


def test_manual_p28_the_explorers_enter_on_or_next_to_the_entry_token_and_resolve_enters_play():
    after, events = apply(on_the_exit(), Exit("P", choices=((3, 0), (5, 1))), RULES,
                          ScriptedDice([(1, 0)]))
    # Q exited first and enters first; each choice is on the token's space or next to it.
    assert after.unit("Q").position == (3, 0) and after.unit("P").position == (5, 1)
    assert after.exited == () and after.tile_of((3, 0)) == "t02a"
    entries = [e for e in events if e.kind == "entry"]
    assert all("manual p28" in e.rule for e in entries) and "t02a" in entries[0].text
    # Both cards' «enters play» (restore 1 health) resolved after both were placed.
    assert after.unit("P").health == 4 and after.unit("Q").health == 4
    health = [i for i, e in enumerate(events) if e.kind == "health"]
    assert min(health) > max(i for i, e in enumerate(events) if e.kind == "entry")


def test_manual_p28_the_players_choose_where_each_explorer_enters():
    need = decision(on_the_exit(), Exit("P"), RULES, ScriptedDice([(1, 0)]))
    assert need.options == ((3, 0), (3, 1), (4, 0), (4, 1), (5, 0), (5, 1))
    assert "manual p28" in need.rule


def test_a_playing_area_round_trips_through_json_after_the_new_chapter():
    after, _ = apply(on_the_exit(), Exit("P", choices=((3, 0), (5, 1))), RULES,
                     ScriptedDice([(1, 0)]))
    assert from_json(to_json(after)) == after
    assert EndTurn("P") not in legal_actions(after, RULES)     # P's turn ended by exiting


def test_manual_p28_with_no_entry_token_the_area_stays_empty_and_round_trips():
    after, events = apply(on_the_exit(QUIET), Exit("P"), RULES, ScriptedDice([(0, 1)]))
    assert after.map.area.tiles == () and after.map.area.deck == ("t02a", "t03a", "t00a",
                                                                 "t01a")
    assert after.over == "no explorer on the map"
    assert from_json(to_json(after)) == after


def test_undo_and_replay_of_the_last_exit():
    state = on_the_exit()
    game = History.start(state, RULES).apply(Exit("P", choices=((3, 0), (5, 1))),
                                             ScriptedDice([(1, 0)]))
    assert game.log()[0][1] == ((1, 0),)                 # the shuffle is in the log
    assert game.undo().state == state
    assert replay(game.initial, game.log(), RULES) == game.state
    assert game.undo().redo().state == game.state


def test_a_fixed_map_keeps_working_without_a_tile_deck():
    """No playing area: nothing is drawn; the direction symbol is the entry token (p28)."""
    from engine_cases import open_map

    from machina_nb.rules.engine.scenario import scenario
    text = open_map(3, 1).replace("+-+-+-+\n", "+-+E+-+\n", 1)
    p = Unit("a", "a", "explorer", (2, 0), health=3, max_health=5, stamina=4, max_stamina=4,
             enters_play=MEND)
    state = scenario(text, {}, chapter=ESCAPE, chapters=Deck((REGROUP,)))
    state = replace(state, units=(p,), exit_token=(2, 0), active="a")
    after, events = apply(state, Exit("a", choices=((1, 0),)), RULES)
    assert after.unit("a").position == (1, 0) and after.unit("a").health == 4
    assert not any(e.kind == "tiles" for e in events) and after.map == state.map


@pytest.mark.parametrize("reading", ["remove_exit_token", "full_exit_procedure", "keep_token"])
def test_the_timer_on_an_exit_chapter_of_map_tiles(reading):
    """3.5: the rating-1 timer advances the exit-token chapter while P is still on the map and
    Q has exited. full_exit_procedure: everyone leaves, the tiles go under the deck and the
    entry token brings both back on a fresh tile. The other readings keep the tiles: Q comes
    back next to the old entry token (t00a's south edge), P stays where it stands."""
    state = on_the_exit()
    state = replace(state, phase="spawn", spawn_rating=1, done=(), active=None,
                    chapter=replace(ESCAPE, spawn_rating=1))
    state = replace(state, phase="explorer", done=("Q",), active="P")
    rules = V35.replace({"timer35.exit_chapter": reading})
    after, events = apply(state, EndTurn("P", choices=((3, 0), (5, 1), (4, 8))), rules,
                          ScriptedDice([(1, 0)] + [0] * 10))
    assert after.chapter == REGROUP and after.exited == ()
    keys = [t.key for t in after.map.area.tiles]
    if reading == "full_exit_procedure":
        assert keys == ["t02a"] and not after.queue
        assert (after.unit("Q").position, after.unit("P").position) == ((3, 0), (5, 1))
    else:
        assert keys == ["t00a", "t01a"] and after.queue == ("ghoul",)
        assert after.unit("Q").position == (4, 8) and after.unit("P").position == (9, 4)
        assert (after.exit_token is None) is (reading == "remove_exit_token")


def test_manual_p28_p34_no_entry_token_left_after_a_scroll():
    """Tiles still placed (ruling D28 remove_exit_token) but the entry token's tile was scrolled
    away: nobody can enter, and the explorer waits off the map."""
    from machina_nb.rules.engine.chapters import enter_at_entry_token
    state = on_the_exit()
    state = replace(state, map=MapSpec(area=replace(state.map.area, entry=None)))
    r = new_resolution(state, RULES, ScriptedDice())
    enter_at_entry_token(r, "Regroup")
    assert r.state.exited == ("Q",) and "scrolled" in r.events[-1].text


def test_manual_p14_p28_a_chapter_without_a_horror_rating_is_told_in_words():
    """The next chapter prints no horror rating: the game has no Horror phase while it lasts
    (manual p14), and the reset of the ratings (manual p28) says so, never 'None'."""
    from machina_nb.rules.cards.units import UnitCard
    from machina_nb.rules.engine.actions import ChapterSpace
    from machina_nb.rules.engine.scenario import scenario
    calm = Chapter("calm", "The Calm", spawn_rating=8, horror_rating=None)
    phillip = UnitCard("phillip", "Phillip", "explorer", armor=2, will=2, health=5, stamina=4)
    state = scenario("+-+-+\n|P h|\n+-+-+\n", {"P": phillip}, lit=((1, 0),),
                     chapter=Chapter("one", "One"), chapters=Deck((calm,)), active="phillip",
                     turns=("phillip",))
    after, events = apply(state, ChapterSpace("phillip", (1, 0)), Rules())
    told = [e.text for e in events if e.kind == "ratings"]
    assert after.chapter == calm and after.horror_rating is None
    assert told == ["ratings reset: spawn rating 8, no horror rating (no Horror phase)"]


def test_manual_p8_p28_explorers_placed_at_setup_resolve_their_enters_play():
    """Setup places the explorers as *place entry token* does (manual p8), and that effect
    ends with each one's «enters play» (manual p28): here 1 essence back."""
    card = UnitCard("seer", "Seer", "explorer", armor=1, will=1, health=4, stamina=4,
                    enters_play=(Effect("restore_essence", scope="self", amount=1),))
    plain = UnitCard("bo", "Bo", "explorer", armor=1, will=1, health=4, stamina=4)
    game = new_game(parse_map("+-+-+-+\n|. . .|\n+-+-+-+\n"), [(card, (0, 0)), (plain, (2, 0))])
    assert game.unit("seer").essence == 1 and game.unit("bo").essence == 0


def test_manual_p28_an_equipped_items_enters_play_resolves_at_the_entry_token():
    """Place entry token: «enters play» of the unit cards and of the equipped items (p28)."""
    charm = ItemCard("charm", "Charm", "artifact",
                     enters_play=(Effect("restore_essence", scope="self", amount=2),))
    state = on_the_exit()
    state = set_inventory(state, Inventory("P", (Equipped(charm),)), RULES)
    after, _ = apply(state, Exit("P", choices=((3, 0), (5, 1))), RULES, ScriptedDice([(1, 0)]))
    assert after.unit("P").essence == 2 and after.unit("Q").essence == 0
