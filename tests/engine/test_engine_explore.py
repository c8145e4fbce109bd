"""The engine's Explore action on a playing area of map tiles (manual p8, p12, p19, p28, p34).

The state holds the map-tile deck and the placed tiles (``MapSpec(area=...)``);
``Explore`` costs 2 stamina, needs an unexplored edge without an entry or exit
token, and joins the top tile per ``explore.offset``, ``scroll.destroy`` and
``join.other_edges`` (rulings D19-D21). Geometry is :mod:`machina_nb.rules.board.playarea`'s.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from engine_cases import monster
from tiles_for_tests import drawn_side, start_side, tile_side

from machina_nb.rules.board.maptext import BorderKind, SpaceKind
from machina_nb.rules.board.playarea import PlayArea
from machina_nb.rules.engine.actions import EndTurn, Explore, Move, apply, check, legal_actions
from machina_nb.rules.engine.saves import from_json, to_json
from machina_nb.rules.engine.state import Deck, GameState, MapSpec, Unit
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

RULES = Rules()
DRAWN = ("t01a", "t02a", "t03a", "t04a", "t05a")


def area(deck=DRAWN, start=None):
    sides = [start or start_side()] + [drawn_side(k) for k in DRAWN]
    return PlayArea.start(sides, deck + ("t00a",))


def game(at=(4, 0), stamina=9, units=(), the_area=None) -> GameState:
    """Explorer P (9 stamina) on its turn on the starting tile, plus ``units``."""
    p = Unit("P", "P", "explorer", at, health=5, max_health=5, stamina=stamina, max_stamina=9)
    monsters = tuple(u.id for u in units if u.side == "monster")
    return GameState(MapSpec(area=the_area or area()), units=(p,) + tuple(units),
                     queue=monsters, active="P")


def explores(state, rules=RULES):
    return [a for a in legal_actions(state, rules) if isinstance(a, Explore)]


def go(state, action, rules=RULES):
    return apply(state, action, rules)[0]


def teleport(state, to):
    return state.update_unit("P", position=to)


def build_2x2(state, rules=RULES):
    """Slots (0,0) start, (1,0) east, (1,-1) north-east, (0,-1) north (as in test_playarea)."""
    state = go(teleport(state, (9, 4)), Explore("P"), rules)
    state = go(teleport(state, (14, 0)), Explore("P"), rules)
    state = go(teleport(state, (10, -6)), Explore("P"), rules)
    return replace(state, units=tuple(replace(u, stamina=9) if u.id == "P" else u
                                      for u in state.units))


def test_manual_p34_p12_explore_costs_2_stamina_and_joins_the_top_tile():
    state = game()
    assert explores(state) == [Explore("P")]
    after, events = apply(state, Explore("P"), RULES)
    assert after.unit("P").stamina == 7 and after.unit("P").position == (4, 0)
    assert [t.key for t in after.map.area.tiles] == ["t00a", "t01a"]
    assert after.map.area.deck == DRAWN[1:]
    assert after.static_board().border((4, 0), (4, -1)) is BorderKind.JOINED
    assert after.tile_of((4, -1)) == "t01a" and after.tile_of((4, 0)) == "t00a"
    assert any(e.kind == "explore" and "manual p34" in e.rule for e in events)
    assert Move("P", (4, -1)) in legal_actions(after, RULES)       # across the joined edge


def test_manual_p34_explore_refused_off_an_edge_on_the_entry_edge_or_without_stamina():
    for state, argument in ((game(at=(3, 3)), "space"),          # not on an edge
                            (game(at=(4, 9)), "space"),          # the entry token's edge (p28)
                            (game(stamina=1), "actor")):         # 2 stamina (p12)
        assert explores(state) == []
        with pytest.raises(RulesError) as err:
            apply(state, Explore("P"), RULES)
        assert err.value.argument == argument
    state = replace(game(), map=MapSpec(area=replace(area(), deck=())))
    with pytest.raises(RulesError, match="deck is empty"):
        check(state, Explore("P"), RULES)


def test_manual_p34_a_fixed_layout_has_no_map_tile_deck():
    from machina_nb.rules.board.maptext import parse_map
    p = Unit("P", "P", "explorer", (0, 0), stamina=4, max_stamina=4)
    state = GameState(MapSpec(parse_map("+-+-+\n|. .e\n+-+-+\n")), units=(p,), active="P")
    assert explores(state) == []
    with pytest.raises(RulesError, match="map-tile deck"):
        check(state, Explore("P"), RULES)


def test_manual_p28_p34_the_exit_token_edge_cannot_be_explored():
    from machina_nb.rules.engine.chance import ScriptedDice
    from machina_nb.rules.engine.effects import place_exit_token
    state = game(at=(9, 4))
    r = new_resolution(state, RULES, ScriptedDice(), ((9, 4),), "P")
    place_exit_token(r, state.unit("P"), "a chapter")
    assert r.state.exit_token == (9, 4) and r.state.map.area.exit == ((9, 4), (10, 4))
    assert explores(r.state) == []
    with pytest.raises(RulesError, match="exit token"):
        check(r.state, Explore("P"), RULES)


@pytest.mark.parametrize("reading, options", [("grid_snap", 1), ("orthogonal", 1),
                                              ("any_adjacent", 3)])
def test_explore_offset_each_placement_is_a_legal_action(reading, options):
    rules = RULES.replace({"explore.offset": reading})
    acts = explores(game(), rules)
    assert len(acts) == options
    origins = [go(game(), a, rules).map.area.tile("t01a").origin for a in acts]
    assert origins == {"grid_snap": [(0, -10)], "orthogonal": [(-1, -10)],
                       "any_adjacent": [(-2, -10), (-1, -10), (0, -10)]}[reading]
    if options > 1:
        with pytest.raises(RulesError) as err:          # the players must choose
            check(game(), Explore("P"), rules)
        assert err.value.argument == "option"


def test_manual_p34_a_corner_space_on_two_edges_lists_each_side():
    corner = tile_side("t00a", n="e.........", w="e.........", s="....Ee....")
    state = game(at=(0, 0), the_area=area(start=corner))
    assert sorted(a.side for a in explores(state)) == ["N", "W"]
    west = go(state, Explore("P", side="W"))
    assert west.map.area.tile("t01a").slot == (-1, 0)


@pytest.mark.parametrize("reading, border", [("auto_connect_if_aligned", BorderKind.JOINED),
                                             ("only_explored_edge_connects", BorderKind.EDGE)])
def test_join_other_edges(reading, border):
    state = build_2x2(game(), RULES.replace({"join.other_edges": reading}))
    assert sorted(state.map.area.slots()) == [(0, -1), (0, 0), (1, -1), (1, 0)]
    assert state.static_board().border((4, -1), (4, 0)) is border


def scroll_situation(reading):
    rules = RULES.replace({"scroll.destroy": reading})
    ghoul, imp, rat = (replace(Unit.from_card(monster(name), name, at), origin=monster(name))
                       for name, at in (("ghoul", (15, 5)), ("imp", (2, -5)), ("rat", (3, 3))))
    state = build_2x2(game(), rules)
    state = replace(state, units=state.units + (ghoul, imp, rat), queue=("ghoul", "imp", "rat"),
                    destroyed=((6, 6),), monsters=Deck())
    return teleport(state, (4, -10)), rules


def test_manual_p34_p19_scrolling_banishes_the_monsters_on_scrolled_tiles():
    state, rules = scroll_situation("minimal_opposite")
    after, events = apply(state, Explore("P"), rules)
    assert sorted(after.map.area.slots()) == [(0, -2), (0, -1), (1, -1)]
    assert after.map.area.deck[-2:] == ("t00a", "t01a")           # under the deck (p34)
    assert after.queue == ("imp",) and not after.has_unit("ghoul") and not after.has_unit("rat")
    assert [e.text for e in events if e.kind == "banished"] == [
        "its map tile scrolls away: ghoul is banished", "its map tile scrolls away: rat is banished"]
    # Banished, not killed: the cards go to the destroyed pile, no essence (manual p19).
    assert [c.id for c in after.monsters.destroyed] == ["rat", "ghoul"]
    assert after.unit("P").essence == 0
    assert after.destroyed == ()               # the token on the scrolled tile left with it
    assert (6, 6) not in after.static_board()
    assert from_json(to_json(after)) == after


@pytest.mark.parametrize("reading, kept", [
    ("minimal_opposite", [(0, -2), (0, -1), (1, -1)]),
    ("all_explorer_free", [(0, -2), (0, -1)]),
    ("players_choose", None)])
def test_scroll_destroy_readings_through_the_engine(reading, kept):
    state, rules = scroll_situation(reading)
    acts = explores(state, rules)
    slots = [sorted(go(state, a, rules).map.area.slots()) for a in acts]
    if kept is not None:
        assert slots == [kept]
    else:                                      # the players choose: both listed
        assert slots == [[(0, -2), (0, -1), (1, -1)], [(0, -2), (0, -1)]]


def test_save_load_round_trips_a_playing_area_with_tokens():
    state = build_2x2(game())
    state = replace(state, destroyed=((3, -5),), lit=(),
                    borders=((((0, 0), (1, 0)), BorderKind.DOOR_CLOSED),))
    text = to_json(state)
    assert from_json(text) == state and to_json(from_json(text)) == text
    assert from_json(text).base_kind((3, -5)) is SpaceKind.FLOOR


def test_explore_leaves_the_state_unchanged_when_refused():
    state = game(at=(3, 3))
    text = to_json(state)
    with pytest.raises(RulesError):
        apply(state, Explore("P"), RULES)
    assert to_json(state) == text
    assert EndTurn("P") in legal_actions(state, RULES)
