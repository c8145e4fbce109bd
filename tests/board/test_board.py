"""The board graph as a value: changes return new boards, tokens, printed kinds, tile joins (manual p11, p22, p34-37)."""

from __future__ import annotations

import networkx as nx
import pytest

from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.maptext import BorderKind, SpaceKind, parse_map
from machina_nb.rules.errors import RulesError

MAP = """\
+-+-+-+
|. s h|
+ +D+ +
|. . r|
+-+-+-+
"""


def board() -> Board:
    return Board.from_layout(parse_map(MAP), tile="t1")


def test_manual_p36_changes_return_new_boards_and_leave_the_old_one_alone():
    b = board()
    before = b.state()
    c = (b.with_border((1, 0), (1, 1), BorderKind.DOOR_OPEN)          # open the door
         .with_token((2, 0), "light")                                 # light the chapter
         .with_unit((0, 0), "P")                                      # place a unit
         .with_destroyed((0, 1)))                                     # destroy a space
    assert b.state() == before and c != b
    assert c.border((1, 0), (1, 1)) is BorderKind.DOOR_OPEN
    assert c.tokens((2, 0)) == ("light",) and c.unit_at((0, 0)) == "P"
    assert c.space((0, 1)) is SpaceKind.DESTROYED and c.printed((0, 1)) is SpaceKind.FLOOR


def test_a_board_is_a_value_its_graph_is_frozen():
    b = board()
    with pytest.raises(AttributeError):
        b.terrain = None
    with pytest.raises(nx.NetworkXError):
        b.graph.add_node((9, 9))
    with pytest.raises(TypeError):
        b.graph.nodes[(0, 0)]["kind"] = SpaceKind.RUBBLE
    with pytest.raises(TypeError):
        b.with_unit((0, 0), "P").graph.nodes[(0, 0)]["unit"] = None
    assert b == board() and hash(b) == hash(board())                  # equal content, equal value
    moved = b.with_unit((0, 0), "P").with_unit((0, 1), "P")           # a unit moves
    assert moved.terrain is b.terrain and moved.units() == {"P": (0, 1)}
    assert moved.graph.nodes[(0, 1)]["unit"] == "P" and b.graph.nodes[(0, 1)]["unit"] is None
    assert moved.without_unit((0, 1)) == b


def test_manual_p35_destroying_a_spawn_space_puts_two_tokens_and_destroys_its_unit():
    b = board().with_unit((1, 0), "M")
    assert b.unit_at((1, 0)) == "M"
    c = b.with_destroyed((1, 0))
    assert c.tokens((1, 0)) == ("destroyed", "destroyed") and c.unit_at((1, 0)) is None
    assert c.printed((1, 0)) is SpaceKind.SPAWN and "M" not in c.units()


def test_manual_p35_units_stand_only_on_passable_spaces():
    b = board()
    for p in ((2, 1), (2, 0)):                                   # rubble, chapter space
        with pytest.raises(RulesError) as err:
            b.with_unit(p, "P")
        assert err.value.argument == "space"
    taken = b.with_unit((0, 0), "P")
    with pytest.raises(RulesError, match="occupied"):
        taken.with_unit((0, 0), "Q")
    with pytest.raises(RulesError, match="occupied"):
        Board(b.terrain, [((0, 0), "P"), ((0, 0), "Q")])
    assert taken.without_unit((0, 0)) == b


def test_manual_p34_connecting_two_tiles_and_taking_one_away():
    b = board().with_layout(parse_map("+-+\n|.|\n+ +\n|.|\n+-+\n"), "t2", (3, 0))
    assert b.border((2, 0), (3, 0)) is BorderKind.BOUNDARY and not b.graph.has_edge((2, 0), (3, 0))
    b = b.with_connection((2, 0), (3, 0), BorderKind.JOINED).with_connection((2, 0), (3, 1), None)
    assert b.border((2, 0), (3, 0)) is BorderKind.JOINED
    assert b.graph.edges[(2, 0), (3, 1)]["diagonal"]
    assert b.tiles() == ("t1", "t2")
    b = b.with_unit((3, 1), "M")
    assert b.units_on("t2") == {"M": (3, 1)}
    c = b.without_tile("t2")
    assert c.tiles() == ("t1",) and (3, 0) not in c and c.units() == {}
    assert c.border((2, 0), (3, 0)) is BorderKind.BOUNDARY


def test_bad_input_connect_needs_neighbours_and_a_fitting_border():
    b = board().with_layout(parse_map("+-+\n|.|\n+-+\n"), "t2", (3, 0))
    before = b.state()
    with pytest.raises(RulesError) as err:
        b.with_connection((0, 0), (3, 0), BorderKind.JOINED)
    assert err.value.argument == "b"
    with pytest.raises(RulesError) as err:
        b.with_connection((2, 0), (3, 0), None)
    assert err.value.argument == "border"
    with pytest.raises(RulesError) as err:
        b.with_connection((2, 0), (4, 0), None)
    assert err.value.argument == "b"
    with pytest.raises(RulesError) as err:
        b.with_border((0, 0), (1, 1), BorderKind.WALL)               # a diagonal pair
    assert err.value.argument == "b"
    assert b.state() == before


def test_bad_input_a_unit_drawn_on_rubble_or_a_layout_on_top_of_another():
    with pytest.raises(RulesError, match="rubble") as err:
        Board.from_layout(parse_map("+-+-+\n|. K|\n+-+-+\n", legend={"K": SpaceKind.RUBBLE}))
    assert err.value.argument == "layout"
    b = board()
    before = b.state()
    with pytest.raises(RulesError) as err:
        b.with_layout(parse_map("+-+-+\n|. .|\n+-+-+\n"), "t2", (2, 1))
    assert err.value.argument == "origin" and b.state() == before
