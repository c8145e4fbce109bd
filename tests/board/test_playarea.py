"""The playing area: starting tile, explore and join, the 2x2 limit, scrolling (manual p8, p28, p34)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tiles_for_tests import drawn_side, start_side, tile_side

from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.maptext import BorderKind
from machina_nb.rules.board.playarea import (
    SIDES,
    PlayArea,
    apply_exploration,
    entry_spaces,
    explore,
    explore_options,
    place_tile,
)
from machina_nb.rules.board.sight import adjacent
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

RULES = Rules()
DRAWN = ("t01a", "t02a", "t03a", "t04a", "t05a", "t06a")


def new_area(deck=DRAWN):
    sides = [start_side()] + [drawn_side(k) for k in DRAWN]
    area = PlayArea.start(sides, deck + ("t00a",))
    return area, area.board()


def move(board: Board, unit: str, to) -> Board:
    return board.with_unit(to, unit)


def explored(result):
    done, board = result
    return done.area, board


def cheb(a, b):
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def test_manual_p8_starting_tile_is_the_bottom_card_with_the_entry_on_its_symbol():
    area, board = new_area()
    assert [t.key for t in area.tiles] == ["t00a"]
    assert area.deck == DRAWN
    assert area.entry == ((4, 9), (4, 10))
    assert board.border((4, 9), (4, 10)) is BorderKind.DIRECTION
    assert len(board.graph) == 100


@pytest.mark.parametrize("side, space", [("N", (4, 0)), ("E", (9, 5)), ("W", (0, 4))])
def test_manual_p34_joining_puts_the_direction_symbol_next_to_the_explorer(side, space):
    area, board = new_area()
    board = board.with_unit(space, "P")
    done, board = explore(area, board, space, RULES, explorers={"P"})
    symbol_side, (inside, outside) = done.tile.direction_symbol()
    assert cheb(inside, space) == 1                       # next to the explorer
    assert outside in done.area.tile("t00a")              # the symbol faces the exploring edge
    step = SIDES[side]
    assert done.tile.slot == step and done.tile.origin == (10 * step[0], 10 * step[1])
    beyond = (space[0] + step[0], space[1] + step[1])
    assert board.border(space, beyond) is BorderKind.JOINED
    assert board.tile_of(beyond) == "t01a"
    assert _same_graph(board, done.area.board())


def _same_graph(a: Board, b: Board) -> bool:
    # Units live on the board, not in the area: compare without them.
    def strip(board):
        nodes, edges, rings = board.state()
        return tuple((p, tuple(kv for kv in data if kv[0] != "unit")) for p, data in nodes), edges
    return strip(a) == strip(b)


def test_manual_p34_exploring_the_south_edge_from_the_entry_token_is_refused():
    area, board = new_area()
    board = board.with_unit((4, 9), "P")
    before = board.state()
    with pytest.raises(RulesError, match="entry token") as err:
        explore(area, board, (4, 9), RULES, explorers={"P"})
    assert err.value.argument == "space"
    assert board.state() == before


def test_joining_from_each_edge_of_a_placed_tile_including_the_south():
    # A starting tile whose symbol sits on the west edge, so the south edge is free to explore.
    sides = [tile_side("t00a", w="....Ee....")] + [drawn_side(k) for k in DRAWN]
    for side, space in (("N", (5, 0)), ("E", (9, 4)), ("S", (5, 9))):
        area = PlayArea.start(sides, DRAWN + ("t00a",))
        board = area.board()
        board = board.with_unit(space, "P")
        done, board = explore(area, board, space, RULES, explorers={"P"})
        inside, outside = done.tile.direction_symbol()[1]
        assert cheb(inside, space) == 1 and outside in area.tile("t00a")
        assert done.tile.slot == SIDES[side]


@pytest.mark.parametrize("symbol", ["n", "e", "s", "w"])
@pytest.mark.parametrize("space", [(4, 0), (9, 5), (0, 4)])
def test_manual_p34_the_drawn_tile_turns_so_its_symbol_faces_the_explorer(symbol, space):
    drawn = tile_side("t01a", **{symbol: "....Ee...."})
    area = PlayArea.start([start_side(), drawn], ("t01a", "t00a"))
    board = area.board()
    board = board.with_unit(space, "P")
    done, board = explore(area, board, space, RULES, explorers={"P"})
    inside, outside = done.tile.direction_symbol()[1]
    assert outside in area.tile("t00a") and cheb(inside, space) == 1
    assert board.border(inside, outside) is BorderKind.JOINED


def build_2x2():
    """Slots (0,0) start, (1,0) east, (1,-1) north-east, (0,-1) north: a full 2x2 area."""
    area, board = new_area()
    board = board.with_unit((9, 4), "P")
    area, board = explored(explore(area, board, (9, 4), RULES, explorers={"P"}))       # t01a at (1, 0)
    board = move(board, "P", (14, 0))
    area, board = explored(explore(area, board, (14, 0), RULES, explorers={"P"}))      # t02a at (1, -1)
    board = move(board, "P", (10, -6))
    area, board = explored(explore(area, board, (10, -6), RULES, explorers={"P"}))     # t03a at (0, -1)
    return area, board


def test_manual_p34_the_area_grows_to_2x2_and_the_l_closes_into_a_loop():
    area, board = build_2x2()
    assert sorted(area.slots()) == [(0, -1), (0, 0), (1, -1), (1, 0)]
    # join.other_edges default: the 4th tile's south edge meets t00a's north edge and connects.
    assert board.border((4, -1), (4, 0)) is BorderKind.JOINED
    assert board.border((5, -1), (5, 0)) is BorderKind.JOINED
    assert board.border((3, -1), (3, 0)) is BorderKind.BOUNDARY
    assert board.graph.has_edge((3, -1), (4, 0)) and board.graph.edges[(3, -1), (4, 0)]["diagonal"]
    assert _same_graph(board, area.board())


def test_only_the_explored_edge_connects():
    area, board = new_area()
    rules = RULES.replace({"join.other_edges": "only_explored_edge_connects"})
    board = board.with_unit((9, 4), "P")
    area, board = explored(explore(area, board, (9, 4), rules, explorers={"P"}))
    board = move(board, "P", (14, 0))
    area, board = explored(explore(area, board, (14, 0), rules, explorers={"P"}))
    board = move(board, "P", (10, -6))
    area, board = explored(explore(area, board, (10, -6), rules, explorers={"P"}))
    assert board.border((9, -6), (10, -6)) is BorderKind.JOINED        # the explored edge
    assert board.border((4, -1), (4, 0)) is BorderKind.EDGE            # aligned, left unexplored
    assert ((4, 0), (4, -1)) in area.unexplored_edges()
    assert _same_graph(board, area.board())


def test_manual_p34_b13_scroll_north_from_the_top_row_destroys_the_bottom_row():
    area, board = build_2x2()
    board = move(board, "P", (4, -10))                     # north edge of the top-left tile t03a
    board = board.with_unit((15, 5), "M1")                # on the bottom-right tile t01a
    board = board.with_unit((2, -5), "M2")                # on the top-left tile t03a: stays
    board = board.with_unit((3, 3), "M3")                 # on the bottom-left tile t00a
    done, board = explore(area, board, (4, -10), RULES, explorers={"P"})
    assert done.destroyed == ("t00a", "t01a")
    assert done.banished == (("M1", (15, 5)), ("M3", (3, 3)))
    assert sorted(done.area.slots()) == [(0, -2), (0, -1), (1, -1)]
    assert done.area.deck[-2:] == ("t00a", "t01a")          # slid under the deck
    assert set(board.units()) == {"P", "M2"}
    assert board.tiles() == ("t02a", "t03a", "t04a")
    assert board.border((4, -10), (4, -11)) is BorderKind.JOINED
    assert board.border((4, -1), (4, 0)) is BorderKind.EDGE   # t03a's south edge is unexplored again
    assert done.area.entry is None and "entry token leaves" in done.warnings[0]
    assert done.explain().startswith("explore from (4, -10): t04a turned 2 at (0, -20) (slot (0, -2)); "
                                     "scrolled away t00a, t01a; banished M1 at (15, 5), M3 at (3, 3)")
    assert _same_graph(board, done.area.board())


def d20_situation(reading, explorer_at=None):
    area, board = build_2x2()
    board = move(board, "P", (4, -10))
    if explorer_at:
        board = board.with_unit(explorer_at, "Q")
    rules = RULES.replace({"scroll.destroy": reading})
    return area, board, rules


def test_scroll_readings():
    area, board, rules = d20_situation("minimal_opposite")
    assert [o.destroyed for o in explore_options(area, board, (4, -10), rules, explorers={"P"})] \
        == [("t00a", "t01a")]
    area, board, rules = d20_situation("all_explorer_free")
    assert [o.destroyed for o in explore_options(area, board, (4, -10), rules, explorers={"P"})] \
        == [("t00a", "t01a", "t02a")]
    area, board, rules = d20_situation("players_choose")
    options = explore_options(area, board, (4, -10), rules, explorers={"P"})
    assert [o.destroyed for o in options] == [("t00a", "t01a"), ("t00a", "t01a", "t02a")]
    before = board.state()
    with pytest.raises(RulesError) as err:
        explore(area, board, (4, -10), rules, explorers={"P"})
    assert err.value.argument == "option" and board.state() == before
    done, board = explore(area, board, (4, -10), rules, explorers={"P"}, option=1)
    assert board.tiles() == ("t03a", "t04a")
    assert _same_graph(board, done.area.board())


def test_minimal_opposite_refuses_when_an_explorer_stands_on_the_far_row():
    area, board, rules = d20_situation("minimal_opposite", explorer_at=(15, 5))
    before = board.state()
    with pytest.raises(RulesError, match="explorers stand") as err:
        explore(area, board, (4, -10), rules, explorers={"P", "Q"})
    assert err.value.argument == "space" and board.state() == before
    # Under players_choose the explorers may keep t01a and scroll t00a + t02a? No: the area must fit.
    _, _, choose = d20_situation("players_choose")
    with pytest.raises(RulesError, match="2x2"):
        explore_options(area, board, (4, -10), choose, explorers={"P", "Q"})


def test_explore_offset_readings():
    area, board = new_area()
    board = board.with_unit((4, 0), "P")
    origins = {reading: [o.tile.origin for o in explore_options(
        area, board, (4, 0), RULES.replace({"explore.offset": reading}), explorers={"P"})]
        for reading in ("grid_snap", "orthogonal", "any_adjacent")}
    # The drawn symbol lands at local (5, 9) after turning: grid_snap leaves it diagonal to P.
    assert origins == {"grid_snap": [(0, -10)], "orthogonal": [(-1, -10)],
                       "any_adjacent": [(-2, -10), (-1, -10), (0, -10)]}
    orthogonal = explore_options(area, board, (4, 0),
                                 RULES.replace({"explore.offset": "orthogonal"}), explorers={"P"})[0]
    assert orthogonal.tile.direction_symbol()[1] == ((4, -1), (4, 0))


def test_grid_snap_warns_when_the_symbol_is_not_next_to_the_explorer():
    sides = [start_side(), tile_side("t01a", n="Ee........")]
    area = PlayArea.start(sides, ("t01a", "t00a"))
    board = area.board()
    board = board.with_unit((5, 0), "P")
    (option,) = explore_options(area, board, (5, 0), RULES, explorers={"P"})
    assert option.warnings and "explore.offset" in option.warnings[0]


def test_adjacency_across_tiles_readings_on_joined_tiles():
    area, board = build_2x2()
    touching = RULES.replace({"adjacency.across_tiles": "any_touching_spaces"})
    a, b = (3, -1), (3, 0)                          # touching across a tile boundary wall
    assert board.border(a, b) is BorderKind.BOUNDARY
    assert not adjacent(board, a, b, RULES) and adjacent(board, a, b, touching)
    assert adjacent(board, (4, -1), (4, 0), RULES)                  # across the joined edge
    assert adjacent(board, (3, -1), (4, 0), RULES)                  # diagonally into the opening
    assert not adjacent(board, (2, -1), (3, 0), RULES) and adjacent(board, (2, -1), (3, 0), touching)


def test_manual_p28_exit_token_on_any_unexplored_edge_but_the_entrys():
    area, _ = new_area()
    options = area.exit_options()
    assert ((4, 9), (4, 10)) not in options and ((5, 9), (5, 10)) not in options
    assert ((4, 0), (4, -1)) in options and len(options) == 6
    area = area.place_exit_token(((9, 4), (10, 4)))
    assert area.exit == ((9, 4), (10, 4))
    with pytest.raises(RulesError) as err:
        area.place_exit_token(((4, 9), (4, 10)))
    assert err.value.argument == "edge"


def test_manual_p34_the_exit_token_edge_cannot_be_explored():
    area, board = new_area()
    area = area.place_exit_token(((9, 5), (10, 5)))
    board = board.with_unit((9, 4), "P")
    with pytest.raises(RulesError, match="exit token"):
        explore(area, board, (9, 4), RULES, explorers={"P"})


def test_manual_p28_place_entry_token_draws_the_top_tile_into_an_empty_area():
    area = PlayArea.new([start_side(), drawn_side("t01a")], ("t01a", "t00a"))
    area = area.place_entry_token()
    assert [t.key for t in area.tiles] == ["t01a"] and area.deck == ("t00a",)
    assert area.entry == ((4, 0), (4, -1))
    with pytest.raises(RulesError) as err:
        area.place_entry_token()
    assert err.value.argument == "area"


def test_manual_p28_explorers_start_on_or_next_to_the_entry_token():
    area, board = new_area()
    board = board.with_unit((5, 9), "M")
    assert entry_spaces(area, board, RULES) == ((3, 8), (3, 9), (4, 8), (4, 9), (5, 8))


def test_manual_p34_a_corner_space_on_two_edges_offers_both():
    sides = [tile_side("t00a", n="ee........", w="ee........", s="....Ee....")] + [
        drawn_side(k) for k in DRAWN]
    area = PlayArea.start(sides, DRAWN + ("t00a",))
    board = area.board()
    board = board.with_unit((0, 0), "P")
    options = explore_options(area, board, (0, 0), RULES, explorers={"P"})
    assert sorted(o.tile.slot for o in options) == [(-1, 0), (0, -1)]
    with pytest.raises(RulesError) as err:
        explore(area, board, (0, 0), RULES, explorers={"P"})
    assert err.value.argument == "option"
    (west,) = explore_options(area, board, (0, 0), RULES, explorers={"P"}, side="W")
    assert west.tile.slot == (-1, 0)
    for bad, argument in ((dict(side="X"), "side"), (dict(option=7), "option"),
                          (dict(option=True), "option"), (dict(rules={}), "rules")):
        before = board.state()
        with pytest.raises(RulesError) as err:
            explore(area, board, (0, 0), **{"rules": RULES, **bad}, explorers={"P"})
        assert err.value.argument == argument and board.state() == before


def test_manual_p28_the_last_exit_sends_every_placed_tile_under_the_deck():
    area, board = build_2x2()
    before = area
    with pytest.raises(RulesError) as err:
        area.clear(("t00a",))
    assert err.value.argument == "order" and area == before
    cleared = area.clear(("t02a", "t00a", "t03a", "t01a"))
    assert cleared.tiles == () and cleared.entry is None
    assert cleared.deck == ("t04a", "t05a", "t06a", "t02a", "t00a", "t03a", "t01a")
    assert cleared.place_entry_token().tiles[0].key == "t04a"


# --- bad input: a clear error naming the argument, nothing changed ---------------------------


def test_bad_input_off_board_coordinates():
    area, board = new_area()
    before = board.state()
    with pytest.raises(RulesError) as err:
        explore(area, board, (40, 40), RULES, explorers={"P"})
    assert err.value.argument == "space" and board.state() == before


def test_bad_input_exploring_from_a_non_edge():
    area, board = new_area()
    board = board.with_unit((4, 4), "P")
    before = board.state()
    with pytest.raises(RulesError, match="not on an unexplored edge") as err:
        explore(area, board, (4, 4), RULES, explorers={"P"})
    assert err.value.argument == "space" and board.state() == before
    board = board.with_unit((0, 0), "Q")                    # a corner on two boundaries, no edge
    with pytest.raises(RulesError, match="not on an unexplored edge"):
        explore(area, board, (0, 0), RULES, explorers={"Q"})


def test_bad_input_exploring_without_an_explorer_there():
    area, board = new_area()
    board = board.with_unit((4, 0), "M")
    before = board.state()
    with pytest.raises(RulesError, match="no explorer") as err:
        explore(area, board, (4, 0), RULES, explorers={"P"})
    assert err.value.argument == "space" and board.state() == before


@pytest.mark.parametrize("rotation", [5, -1, 1.5, "1", True, None])
def test_bad_input_illegal_rotation(rotation):
    with pytest.raises(RulesError) as err:
        place_tile(drawn_side("t01a"), rotation, (0, 0))
    assert err.value.argument == "rotation"


def test_bad_input_unknown_tile():
    sides = [start_side()]
    with pytest.raises(RulesError) as err:
        PlayArea.start(sides, ("t99a", "t00a"))
    assert err.value.argument == "deck" and "t99a" in str(err.value)
    area, board = new_area()
    before = board.state()
    with pytest.raises(RulesError) as err:
        area.tile("t99a")
    assert err.value.argument == "tile"
    with pytest.raises(RulesError) as err:
        board.without_tile("t99a")
    assert err.value.argument == "tile" and board.state() == before


def test_bad_input_a_unit_on_rubble_or_off_the_board():
    side = tile_side("t00a", s="....Ee....", cells={(2, 2): "r"})
    board = PlayArea.start([side], ("t00a",)).board()
    before = board.state()
    with pytest.raises(RulesError, match="rubble") as err:
        board.with_unit((2, 2), "P")
    assert err.value.argument == "space" and board.state() == before
    with pytest.raises(RulesError) as err:
        board.with_unit((-1, 3), "P")
    assert err.value.argument == "space" and board.state() == before


def test_bad_input_a_tile_already_in_play_or_twice_in_the_deck():
    with pytest.raises(RulesError) as err:
        PlayArea.new([start_side(), drawn_side("t00b")], ("t00a", "t00b"))
    assert err.value.argument == "deck"


# --- properties ---------------------------------------------------------------------------------

OFFSETS = ("grid_snap", "orthogonal", "any_adjacent")
SCROLLS = ("minimal_opposite", "players_choose", "all_explorer_free")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 3)), max_size=7),
       st.sampled_from(OFFSETS), st.sampled_from(SCROLLS),
       st.sampled_from(("auto_connect_if_aligned", "only_explored_edge_connects")))
def test_property_exploring_keeps_the_board_equal_to_the_rebuilt_area(moves, offset, scroll, join):
    """After any run of explores: at most 2x2 slots, no overlap, the board after each explore equals a rebuild."""
    rules = RULES.replace({"explore.offset": offset, "scroll.destroy": scroll,
                           "join.other_edges": join})
    area, board = new_area()
    board = board.with_unit((4, 4), "M")
    board = board.with_unit((0, 0), "P")
    for pick, option in moves:
        edges = [e for e in area.unexplored_edges() if board.unit_at(e[0]) in (None, "P")]
        board = move(board, "P", edges[pick % len(edges)][0])
        try:
            options = explore_options(area, board, board.units()["P"], rules, explorers={"P"})
        except RulesError:
            continue
        done = options[option % len(options)]
        units_before = board.units()
        board = apply_exploration(board, done)
        area = done.area
        slots = area.slots()
        assert max(s[0] for s in slots) - min(s[0] for s in slots) <= 1
        assert max(s[1] for s in slots) - min(s[1] for s in slots) <= 1
        assert len(board.graph) == 100 * len(area.tiles)
        assert "P" in board.units()
        assert set(board.units()) == set(units_before) - {u for u, _ in done.banished}
        assert _same_graph(board, area.board())
        for token in (area.entry, area.exit):
            assert token is None or area.tile_at(token[0]) is not None
        assert sorted(area.deck + tuple(t.key for t in area.tiles)) == sorted(DRAWN + ("t00a",))


def test_shipped_tiles_join_and_scroll_with_the_board_equal_to_a_rebuild():
    """The content tiles: explores in deck order keep the board after each explore exact."""
    from machina_nb.rules.board.tiles import load_tiles
    tiles = load_tiles()
    assert len(tiles) == 10, "the shipped tile set has ten tiles"
    sides = [s for t in tiles.values() for s in t.sides]
    deck = tuple(f"{tile_id}a" for tile_id in sorted(tiles))
    area = PlayArea.start(sides, deck)
    board = area.board()
    count = 0
    for _ in range(12):
        edges = [e for e in area.unexplored_edges()
                 if board.unit_at(e[0]) in (None, "P") and board.space(e[0]).name == "FLOOR"]
        if not edges:
            break
        board = move(board, "P", edges[0][0])
        try:
            options = explore_options(area, board, edges[0][0], RULES, explorers={"P"})
        except RulesError:
            continue
        board = apply_exploration(board, options[0])
        area = options[0].area
        count += 1
        assert _same_graph(board, area.board())
    assert count >= 3
