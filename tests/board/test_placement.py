"""Push, pull, teleport, switch, spawn and move destinations (manual p13, p22, p25; rulings D15-D18, D34)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.maptext import BorderKind, SpaceKind, parse_map
from machina_nb.rules.board.placement import (
    apply_displacement,
    move_destination,
    nearest_unoccupied,
    pull,
    push,
    spawn_placement,
    switch_positions,
    teleport_to,
    teleport_within,
)
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

RULES = Rules()
LEGEND = {c: SpaceKind.FLOOR for c in "ABMTUQ"}


def room(width: int, height: int, units=None, cells=None, tile: str | None = None,
         origin=(0, 0), board: Board | None = None) -> Board:
    """An open room of floor with units {letter: (x, y)} and special cells {(x, y): char}."""
    units, cells = units or {}, cells or {}
    lines = ["+" + "-+" * width]
    for y in range(height):
        lines.append("|" + " ".join(cells.get((x, y), ".") for x in range(width)) + "|")
        lines.append("+" + ("-+" if y == height - 1 else " +") * width)
    layout = parse_map("\n".join(lines) + "\n")
    if board is None:
        board = Board.from_layout(layout, tile, origin)
    else:
        board = board.with_layout(layout, tile, origin)
    return board.with_units(((x + origin[0], y + origin[1]), letter)
                            for letter, (x, y) in units.items())


def one(results):
    (result,) = results
    return result


# --- B12: the push and pull examples, from the rule text ------------------------------------


def test_push_orthogonal():
    board = room(6, 2, {"A": (0, 0), "T": (2, 0)})
    done = one(push(board, (2, 0), (0, 0), 2, RULES, by="A"))
    assert done.path == ((2, 0), (3, 0), (4, 0)) and done.stopped == "distance"


def test_push_diagonal():
    board = room(5, 5, {"A": (0, 0), "T": (1, 1)})
    assert one(push(board, (1, 1), (0, 0), 2, RULES, by="A")).end == (3, 3)


def test_pull_diagonal_stops_next_to_the_activator():
    board = room(5, 5, {"A": (0, 0), "T": (3, 3)})
    done = one(pull(board, (3, 3), (0, 0), 5, RULES, by="A"))
    assert done.path == ((3, 3), (2, 2), (1, 1)) and done.stopped == "activator"


def test_pull_off_axis_goes_diagonal_then_stops():
    board = room(5, 5, {"A": (0, 0), "T": (2, 1)})
    done = one(pull(board, (2, 1), (0, 0), 3, RULES, by="A"))
    assert done.path == ((2, 1), (1, 0)) and done.stopped == "activator"


def test_push_into_a_pit_destroys_and_counts_as_a_kill():
    board = room(5, 1, {"A": (0, 0), "T": (1, 0)}, {(3, 0): "o"})
    done = one(push(board, (1, 0), (0, 0), 4, RULES, by="A"))
    assert done.path == ((1, 0), (2, 0), (3, 0)) and done.destroyed and done.kill_by == "A"
    assert done.triggers[0].what == "pit" and "manual p35 (pit)" in done.rules
    assert done.explain().startswith("push T: (1, 0) -> (2, 0) -> (3, 0); stopped: pit; "
                                     "destroyed (a kill by A); pit at (3, 0) [push.off_axis=")
    after = apply_displacement(board, done)
    assert "T" not in after.units() and board.units()["T"] == (1, 0)


def test_push_into_a_trap_lever_activates_it_and_the_unit_stays():
    board = room(5, 1, {"A": (0, 0), "T": (1, 0)}, {(3, 0): "l"})
    done = one(push(board, (1, 0), (0, 0), 4, RULES, by="A"))
    assert done.end == (2, 0) and done.stopped == "trap_lever"
    (lever,) = done.triggers
    assert (lever.what, lever.space, lever.activator, lever.optional) == ("trap_lever", (3, 0), "A", False)


def test_push_into_a_barrel_counts_as_a_hit():
    board = room(5, 1, {"A": (0, 0), "T": (1, 0)}, {(2, 0): "b"})
    done = one(push(board, (1, 0), (0, 0), 3, RULES, by="A"))
    assert done.path == ((1, 0),) and done.triggers[0].what == "barrel"


def test_push_into_a_wall_or_a_unit_stops():
    board = room(4, 1, {"A": (0, 0), "T": (1, 0), "U": (3, 0)})
    done = one(push(board, (1, 0), (0, 0), 3, RULES, by="A"))
    assert done.path == ((1, 0), (2, 0)) and done.stopped == "blocked" and done.blocker == (3, 0)
    done = one(push(board, (3, 0), (0, 0), 3, RULES, by="A"))
    assert done.path == ((3, 0),) and done.blocker == (4, 0)         # the room's wall


def test_manual_p25_immobile_units_are_not_pushed():
    board = room(4, 1, {"A": (0, 0), "T": (1, 0)})
    done = one(push(board, (1, 0), (0, 0), 2, RULES, by="A", immobile={"T"}))
    assert done.path == ((1, 0),) and done.stopped == "immobile"


def test_manual_p25_the_direction_is_rechecked_each_step():
    # Pushed diagonally into a wall-less corner then blocked: never turns by itself under "stop".
    board = room(4, 4, {"A": (0, 0), "T": (1, 1)})
    done = one(push(board, (1, 1), (0, 0), 5, RULES, by="A"))
    assert done.path == ((1, 1), (2, 2), (3, 3)) and done.stopped == "blocked"


def test_push_up_to_x_offers_every_length():
    board = room(5, 1, {"A": (0, 0), "T": (1, 0)}, {(4, 0): "o"})
    outcomes = push(board, (1, 0), (0, 0), 5, RULES, by="A", up_to=True)
    assert [(d.end, d.stopped) for d in outcomes] == [
        ((1, 0), "chosen"), ((2, 0), "chosen"), ((3, 0), "chosen"), ((4, 0), "pit")]
    blocked = room(3, 1, {"A": (0, 0), "T": (2, 0)})
    assert [d.stopped for d in push(blocked, (2, 0), (0, 0), 2, RULES, up_to=True)] == ["blocked"]


# --- switches ---------------------------------------------------------------------------------


def test_push_off_axis_readings():
    board = room(6, 5, {"A": (0, 0), "T": (2, 1)})
    paths = {r: one(push(board, (2, 1), (0, 0), 2, RULES.replace({"push.off_axis": r}), by="A"))
             for r in ("diagonal_otherwise", "strict_none", "dominant_axis")}
    assert paths["diagonal_otherwise"].path == ((2, 1), (3, 2), (4, 3))
    assert paths["strict_none"].path == ((2, 1),) and paths["strict_none"].stopped == "off_axis"
    assert paths["dominant_axis"].path == ((2, 1), (3, 1), (4, 1))


def corner_board(walls):
    """Target (1,1) pushed from (0,0) toward (2,2) across vertex V(2,2); ``walls`` on its rays."""
    board = room(4, 4, {"A": (0, 0), "T": (1, 1)})
    for a, b in walls:
        board = board.with_border(a, b, BorderKind.WALL)
    return board


@pytest.mark.parametrize("walls, expected", [
    # a single wall end on the S ray of V(2,2)
    ([((1, 2), (2, 2))], {"as_move": (2, 2), "destination_only": (2, 2),
                          "block_on_any_corner": (1, 1)}),
    # a straight wall through V(2,2): N and S rays
    ([((1, 1), (2, 1)), ((1, 2), (2, 2))], {"as_move": (1, 1), "destination_only": (2, 2),
                                            "block_on_any_corner": (1, 1)}),
])
def test_push_corner_readings(walls, expected):
    board = corner_board(walls)
    ends = {r: one(push(board, (1, 1), (0, 0), 1, RULES.replace({"push.corners": r}), by="A")).end
            for r in expected}
    assert ends == expected


def test_push_blocked_readings():
    board = room(4, 4, {"A": (0, 0), "T": (1, 1), "U": (2, 2)}, {(1, 2): "r"})
    stop = one(push(board, (1, 1), (0, 0), 1, RULES, by="A"))
    assert stop.path == ((1, 1),) and stop.blocker == (2, 2)
    slide = one(push(board, (1, 1), (0, 0), 1, RULES.replace({"push.blocked": "slide"}), by="A"))
    assert slide.path == ((1, 1), (2, 1))
    open_sides = room(4, 4, {"A": (0, 0), "T": (1, 1), "U": (2, 2)})
    both = push(open_sides, (1, 1), (0, 0), 1, RULES.replace({"push.blocked": "slide"}), by="A")
    assert [d.end for d in both] == [(1, 2), (2, 1)]                 # the players choose


def test_trap_lever_activator_and_activation_readings():
    board = room(5, 1, {"A": (0, 0), "T": (1, 0)}, {(2, 0): "l"})
    activators = {r: one(push(board, (1, 0), (0, 0), 1, RULES.replace({"traps.push_activator": r}),
                              by="A")).triggers[0].activator
                  for r in ("pusher", "pushed_unit", "none")}
    assert activators == {"pusher": "A", "pushed_unit": "T", "none": None}
    optional = one(push(board, (1, 0), (0, 0), 1, Rules.preset("v3_5"), by="A")).triggers[0]
    assert optional.optional is True


def test_teleport_within_counts_by_nearest_metric():
    board = room(5, 5, {"T": (0, 0)}, {(1, 0): "r", (0, 1): "c"})
    spaces = {m: set(teleport_within(board, (0, 0), 3, RULES.replace({"nearest.metric": m})).candidates)
              for m in ("chebyshev", "euclidean", "manhattan")}
    assert {(3, 1), (2, 2), (3, 3)} <= spaces["chebyshev"]
    assert (2, 2) in spaces["euclidean"] and (3, 1) not in spaces["euclidean"]
    assert (2, 2) not in spaces["manhattan"] and (2, 1) in spaces["manhattan"]
    assert all((1, 0) not in s and (0, 1) not in s for s in spaces.values())    # rubble, chest


def test_manual_p25_teleport_within_ignores_walls_and_lists_pits_as_lethal():
    board = room(3, 3, {"T": (1, 1)}, {(2, 2): "o"})
    for q in ((0, 1), (2, 1), (1, 0), (1, 2)):
        board = board.with_border((1, 1), q, BorderKind.WALL)
    result = teleport_within(board, (1, 1), 1, RULES)
    assert len(result.candidates) == 8 and result.lethal == ((2, 2),)


def test_teleport_to_a_kind_destroyed_readings():
    board = room(8, 3, {"T": (0, 1)}, {(2, 1): "v", (6, 1): "v"}, tile="t1")
    board = board.with_destroyed((2, 1))
    excluded = teleport_to(board, (0, 1), SpaceKind.EVENT, RULES)
    allowed = teleport_to(board, (0, 1), SpaceKind.EVENT,
                          RULES.replace({"teleport.destroyed_kind": "allowed"}))
    assert excluded.targets == ((6, 1),) and excluded.fallback
    assert set(excluded.candidates) == {(5, 0), (6, 0), (7, 0), (5, 1), (7, 1), (5, 2), (6, 2), (7, 2)}
    assert allowed.targets == ((2, 1),)
    assert (1, 1) in allowed.candidates and (3, 1) in allowed.candidates


def test_manual_p25_teleport_to_a_kind_stays_on_the_units_tile():
    board = room(4, 2, {"T": (0, 0)}, {(3, 1): "s"}, tile="t1")
    board = room(4, 2, {}, {(0, 0): "s"}, tile="t2", origin=(4, 0), board=board)
    result = teleport_to(board, (0, 0), SpaceKind.SPAWN, RULES)
    assert result.targets == ((3, 1),) and result.candidates == ((3, 1),) and not result.fallback


def d18_board() -> Board:
    """The spawn space (5,5) is taken; its ring holds a chest, a pit, walled floor, another tile."""
    board = room(8, 6, {"M": (5, 5), "Q": (5, 1)},
                 {(5, 5): "s", (4, 4): "r", (5, 4): "r", (6, 4): "r", (6, 5): "o"}, tile="t1")
    board = room(8, 3, {}, {(5, 0): "c", (4, 0): "r"}, tile="t2", origin=(0, 6), board=board)
    board = board.with_connections([((x, 5), (x + dx, 6), None if dx else BorderKind.JOINED)
                                    for x in range(8) for dx in (-1, 0, 1) if 0 <= x + dx < 8])
    for y in range(9):
        board = board.with_border((4, y), (5, y), BorderKind.WALL)
    return board


@pytest.mark.parametrize("changes, expected", [
    ({}, {(4, 5), (6, 6)}),
    ({"fallback.passable": "not_required"}, {(4, 5), (5, 6), (6, 6)}),
    ({"fallback.pits": "allowed"}, {(4, 5), (6, 5), (6, 6)}),
    ({"fallback.walls": "same_side"}, {(6, 6)}),
    ({"fallback.tile": "same_tile"}, {(4, 5)}),
    ({"fallback.walls": "same_side", "fallback.tile": "same_tile"},
     {(5, 3), (6, 3), (7, 3), (7, 4), (7, 5)}),
])
def test_spawn_fallback_readings(changes, expected):
    board = d18_board()
    before = board.state()
    result = spawn_placement(board, (5, 1), RULES.replace(changes))
    assert result.targets == ((5, 5),) and result.fallback
    assert set(result.candidates) == expected
    assert result.lethal == (((6, 5),) if changes.get("fallback.pits") == "allowed" else ())
    assert board.state() == before


def test_manual_p13_spawn_on_the_nearest_free_spawn_space_ties_all_returned():
    board = room(7, 3, {"Q": (3, 1)}, {(1, 1): "s", (5, 1): "s", (3, 0): "s"}, tile="t1")
    assert spawn_placement(board, (3, 1), RULES).candidates == ((3, 0),)
    board = board.with_destroyed((3, 0))
    result = spawn_placement(board, (3, 1), RULES)
    assert result.candidates == ((1, 1), (5, 1)) and not result.fallback


def test_manual_p22_move_destination_taken_uses_closest_not_nearest():
    board = Board.from_layout(parse_map("+-+-+-+\n|. M|.|\n+ +-+ +\n|. . .|\n+-+-+-+\n",
                                        legend=LEGEND))
    result = move_destination(board, (1, 0), RULES)
    assert set(result.candidates) == {(0, 0), (0, 1)}
    assert set(nearest_unoccupied(board, (1, 0), RULES)) == {(0, 0), (0, 1), (1, 1), (2, 0), (2, 1)}
    assert move_destination(board, (2, 1), RULES).candidates == ((2, 1),)


def test_manual_p25_switch_positions():
    board = room(3, 1, {"A": (0, 0), "T": (2, 0)})
    after = apply_displacement(board, *switch_positions(board, (0, 0), (2, 0)))
    assert after.units() == {"A": (2, 0), "T": (0, 0)}
    assert board.units() == {"A": (0, 0), "T": (2, 0)}                # a board never changes


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize("call, argument", [
    (lambda b: push(b, (1, 0), (0, 0), 1, RULES), "target"),
    (lambda b: push(b, (2, 0), (9, 9), 1, RULES), "source"),
    (lambda b: push(b, (2, 0), (0, 0), -1, RULES), "distance"),
    (lambda b: pull(b, (2, 0), (0, 0), 1.5, RULES), "distance"),
    (lambda b: teleport_within(b, (-1, 0), 1, RULES), "space"),
    (lambda b: teleport_to(b, (2, 0), "event", RULES), "kind"),
    (lambda b: switch_positions(b, (0, 0), (1, 0)), "b"),
    (lambda b: spawn_placement(b, (0, 5), RULES), "explorer"),
    (lambda b: teleport_to(b, (2, 0), SpaceKind.EVENT, {"nearest.metric": "chebyshev"}), "rules"),
    (lambda b: push(b, (2, 0), (0, 0), 1, None), "rules"),
    (lambda b: nearest_unoccupied(b, (2, 0), "manual"), "rules"),
])
def test_bad_input_names_the_argument_and_changes_nothing(call, argument):
    board = room(3, 1, {"A": (0, 0), "T": (2, 0)})
    before = board.state()
    with pytest.raises(RulesError) as err:
        call(board)
    assert err.value.argument == argument and board.state() == before


# --- properties ---------------------------------------------------------------------------------


@given(st.integers(0, 6), st.integers(0, 6), st.integers(0, 6), st.integers(0, 6),
       st.integers(0, 8), st.booleans())
def test_property_push_and_pull_in_an_open_room(sx, sy, tx, ty, distance, pulling):
    """In an empty room a push or pull moves straight or diagonally, never onto the source."""
    if (sx, sy) == (tx, ty):
        return
    board = room(7, 7, {"A": (sx, sy), "T": (tx, ty)})
    done = one((pull if pulling else push)(board, (tx, ty), (sx, sy), distance, RULES, by="A"))
    assert len(done.path) <= distance + 1 and (sx, sy) not in done.path
    for a, b in zip(done.path, done.path[1:]):
        assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1
        before = (a[0] - sx, a[1] - sy)
        after = (b[0] - sx, b[1] - sy)
        grows = max(map(abs, after)) > max(map(abs, before))
        assert grows != pulling or max(map(abs, after)) == max(map(abs, before))
    if len(done.path) < distance + 1:
        assert done.stopped in ("blocked", "activator")
