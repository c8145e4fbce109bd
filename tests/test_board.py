"""The board graph: state changes in place, tokens, printed kinds, tile joins (manual p11, p22, p34-37)."""

from __future__ import annotations

import pytest

from machina_nb.rules.board.graph import Board
from machina_nb.rules.errors import RulesError
from machina_nb.rules.board.maptext import BorderKind, SpaceKind, parse_map

MAP = """\
+-+-+-+
|. s h|
+ +D+ +
|. . r|
+-+-+-+
"""


def board() -> Board:
    return Board.from_layout(parse_map(MAP), tile="t1")


def test_manual_p36_updates_change_the_graph_in_place_without_rebuilding():
    b = board()
    graph, version = b.graph, b.version
    b.set_border((1, 0), (1, 1), BorderKind.DOOR_OPEN)          # open the door
    b.add_token((2, 0), "light")                                 # light the chapter
    b.place_unit((0, 0), "P")                                    # place a unit
    b.destroy_space((0, 1))                                      # destroy a space
    assert b.graph is graph and b.version == version + 4
    assert b.border((1, 0), (1, 1)) is BorderKind.DOOR_OPEN
    assert b.tokens((2, 0)) == ("light",)
    assert b.space((0, 1)) is SpaceKind.DESTROYED and b.printed((0, 1)) is SpaceKind.FLOOR


def test_manual_p35_destroying_a_spawn_space_puts_two_tokens_and_destroys_its_unit():
    b = board()
    b.place_unit((1, 0), "M")
    assert b.destroy_space((1, 0)) == "M"
    assert b.tokens((1, 0)) == ("destroyed", "destroyed") and b.unit_at((1, 0)) is None
    assert b.printed((1, 0)) is SpaceKind.SPAWN


def test_manual_p35_units_stand_only_on_passable_spaces():
    b = board()
    before = b.state()
    for p in ((2, 1), (2, 0)):                                   # rubble, chapter space
        with pytest.raises(RulesError) as err:
            b.place_unit(p, "P")
        assert err.value.argument == "space"
    b.place_unit((0, 0), "P")
    with pytest.raises(RulesError, match="occupied"):
        b.place_unit((0, 0), "Q")
    b.place_unit((0, 0), None)
    assert b.state() == before


def test_manual_p34_connecting_two_tiles_and_taking_one_away():
    b = board()
    b.add_layout(parse_map("+-+\n|.|\n+ +\n|.|\n+-+\n"), "t2", (3, 0))
    assert b.border((2, 0), (3, 0)) is BorderKind.BOUNDARY and not b.graph.has_edge((2, 0), (3, 0))
    b.connect((2, 0), (3, 0), BorderKind.JOINED)
    b.connect((2, 0), (3, 1), None)
    assert b.border((2, 0), (3, 0)) is BorderKind.JOINED
    assert b.graph.edges[(2, 0), (3, 1)]["diagonal"]
    assert b.tiles() == ("t1", "t2")
    b.place_unit((3, 1), "M")
    assert b.remove_tile("t2") == {"M": (3, 1)}
    assert b.tiles() == ("t1",) and (3, 0) not in b
    assert b.border((2, 0), (3, 0)) is BorderKind.BOUNDARY


def test_bad_input_connect_needs_neighbours_and_a_fitting_border():
    b = board()
    b.add_layout(parse_map("+-+\n|.|\n+-+\n"), "t2", (3, 0))
    before = b.state()
    with pytest.raises(RulesError) as err:
        b.connect((0, 0), (3, 0), BorderKind.JOINED)
    assert err.value.argument == "b"
    with pytest.raises(RulesError) as err:
        b.connect((2, 0), (3, 0), None)
    assert err.value.argument == "border"
    with pytest.raises(RulesError) as err:
        b.connect((2, 0), (4, 0), None)
    assert err.value.argument == "b"
    assert b.state() == before


def test_copy_is_independent():
    b = board()
    c = b.copy()
    c.place_unit((0, 0), "P")
    assert b.unit_at((0, 0)) is None and c.state() != b.state()


def test_bad_input_a_unit_drawn_on_rubble_or_a_layout_on_top_of_another():
    with pytest.raises(RulesError, match="rubble") as err:
        Board.from_layout(parse_map("+-+-+\n|. K|\n+-+-+\n", legend={"K": SpaceKind.RUBBLE}))
    assert err.value.argument == "layout"
    b = board()
    before = b.state()
    with pytest.raises(RulesError) as err:
        b.add_layout(parse_map("+-+-+\n|. .|\n+-+-+\n"), "t2", (2, 1))
    assert err.value.argument == "origin" and b.state() == before
