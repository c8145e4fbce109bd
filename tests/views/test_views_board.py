"""The board view without a browser: set values, call select/aim, assert on sources and texts.

Every overlay's answer is checked against the rules core called directly (the view must add
no rule of its own), and line of sight also against a per-pair ``line_of_sight`` loop.
"""

import html
import math
import re

import pytest
from bokeh.events import Tap
from bokeh.models import Legend
from marks import unmarked

from machina_nb.rules.board import distance, sight
from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.maptext import BorderKind, SpaceKind, parse_map
from machina_nb.rules.rulings import Rules
from machina_nb.views.app import demo_layout
from machina_nb.views.board import (
    OVERLAYS,
    ROLE_COLOURS,
    SHIPPED_UNITS,
    BoardView,
    Highlights,
    Pick,
    drawn_colours,
    drawn_space_pixels,
    highlight_data,
    plain_text,
    render_board,
    shipped_board,
)

L_AROUND_SIDE = parse_map("+-+-+\n|.|.|\n+-+ +\n|. .|\n+-+-+\n")


@pytest.fixture(scope="module")
def shipped():
    return shipped_board()


def spaces_by_role(view, role):
    data = view.sources["overlay"].data
    return {(math.floor(x), math.floor(y)) for x, y, r in zip(data["x"], data["y"], data["role"])
            if r == role}


def test_demo_board_draws_every_space_unit_and_border():
    board = Board.from_layout(demo_layout())
    fig, sources = render_board(board)
    assert len(sources["spaces"].data["x"]) == 12 * 8
    assert sorted(sources["units"].data["letter"]) == ["A", "B", "M", "N"]
    assert len(sources["door_closed"].data["x0"]) == 2 and len(sources["door_open"].data["x0"]) == 2
    assert sources["tiles"].data["tile"] == [] and sources["joined"].data["x0"] == []
    assert sources["overlay"].data["x"] == []


def test_manual_p34_shipped_2x2_board_shows_joined_edges_and_tile_outlines(shipped):
    fig, sources = render_board(shipped)
    assert sources["tiles"].data["tile"] == ["t01a", "t05a", "t06a", "t07a"]
    assert sources["tiles"].data["w"] == [10] * 4
    joined = list(zip(sources["joined"].data["x0"], sources["joined"].data["y0"],
                      sources["joined"].data["x1"], sources["joined"].data["y1"]))
    # two 2-space openings on each of the four inner tile seams
    assert len(joined) == 8
    assert (10, 4, 10, 5) in joined and (4, 10, 5, 10) in joined
    for x0, y0, x1, y1 in joined:
        a = (math.floor(min(x0, x1)) - (x0 == x1), math.floor(min(y0, y1)) - (y0 == y1))
        b = (math.floor(min(x0, x1)), math.floor(min(y0, y1)))
        assert shipped.border(a, b) is BorderKind.JOINED
    assert len(sources["spaces"].data["x"]) == 400
    assert dict(zip(sources["units"].data["letter"],
                    zip(sources["units"].data["x"], sources["units"].data["y"]))) == {
        u: (p[0] + 0.5, p[1] + 0.5) for u, p in SHIPPED_UNITS}


def test_legend_has_rows_enough_to_fit_the_frame_never_clipped():
    for board in (Board.from_layout(demo_layout()), shipped_board()):
        fig, _ = render_board(board, legend=True)
        legend, = [r for r in fig.right if isinstance(r, Legend)]
        items = len(set(fig.renderers[0].data_source.data["kind"])) + 10
        columns = -(-items // legend.nrows)
        assert legend.nrows * legend.label_height <= fig.frame_height
        assert columns * legend.nrows >= items


def test_manual_p22_sight_overlay_marks_exactly_the_visible_spaces(shipped):
    view = BoardView(shipped)
    view.select((3, 8))
    visible = spaces_by_role(view, "visible")
    blocked = spaces_by_role(view, "blocked")
    oracle = {p for p in shipped if p != (3, 8) and sight.line_of_sight(shipped, (3, 8), p, Rules())}
    assert visible == oracle
    assert blocked == set(shipped) - oracle - {(3, 8)}
    assert spaces_by_role(view, "selected") == {(3, 8)}
    assert unmarked(view.verdict.value).startswith(f"From D9 (floor, unit A): {len(oracle)} spaces in sight")
    assert view.title.value == "<b>Line of sight from D9</b>"


def test_manual_p22_target_draws_the_line_the_blocking_point_and_the_explanation(shipped):
    view = BoardView(shipped)
    figure = view.figure
    view.select((3, 8))
    assert view.click.value == "target"  # the next click aims
    view.aim((12, 5))
    verdict = sight.line_of_sight(shipped, (3, 8), (12, 5), Rules())
    assert not verdict.visible
    lines = view.sources["overlay_lines"].data
    assert (lines["x0"][0], lines["y0"][0], lines["x1"][0], lines["y1"][0]) == (3.5, 8.5, 12.5, 5.5)
    assert lines["role"] == ["blocked line", "blocker"]
    points = view.sources["overlay_points"].data
    assert (points["x"], points["y"]) == ([4.0], [pytest.approx(25 / 3)])
    assert html.escape(plain_text(verdict.explain())) in unmarked(view.verdict.value)
    assert "manual p22 (line of sight)" in unmarked(view.verdict.value)
    assert view.figure is figure  # built once


def test_a_visible_target_draws_a_green_line_and_no_blocker():
    view = BoardView(Board.from_layout(demo_layout()))
    view.select((1, 1))
    view.aim((2, 2))
    assert view.sources["overlay_lines"].data["role"] == ["line"]
    assert view.sources["overlay_points"].data["x"] == []
    assert "visible (manual p22 (line of sight))" in unmarked(view.verdict.value)


def test_flipping_los_vertex_redraws_the_same_target():
    view = BoardView(L_AROUND_SIDE)
    view.select((0, 1))
    view.aim((1, 0))
    assert "visible" in unmarked(view.verdict.value)
    view.rules = Rules().replace({"los.vertex": "any_two"})
    assert ("blocked by the wall between A1 and B1, and the wall between A1 and A2, meeting at "
            "the corner shared by A1, A2, B1 and B2") in unmarked(view.verdict.value)
    assert view.sources["overlay_points"].data["x"] == [1.0]
    view.rules = Rules().replace({"los.vertex": "touch_ok"})
    assert "visible" in unmarked(view.verdict.value)


def test_manual_p34_reach_overlay_labels_each_space_with_its_stamina(shipped):
    view = BoardView(shipped, overlay="reach")
    view.stamina.value = 2
    view.select((3, 8))
    costs = distance.reach(shipped, (3, 8), 2, Rules(), distance.Mover(unit="A"))
    assert spaces_by_role(view, "reach") == set(costs) - {(3, 8)}
    labels = view.sources["overlay_labels"].data
    assert {(math.floor(x), math.floor(y)): t for x, y, t in
            zip(labels["x"], labels["y"], labels["text"])} == {
        p: str(c) for p, c in costs.items() if p != (3, 8)}
    before = len(labels["x"])
    view.stamina.value = 4
    assert len(view.sources["overlay_labels"].data["x"]) > before
    assert view.title.value == "<b>Reach within stamina 4 from D9</b>"


def test_manual_p22_closest_lists_every_tie_and_distance(shipped):
    view = BoardView(shipped, overlay="closest")
    view.select((3, 8))
    ranking = distance.closest(shipped, (3, 8), [(12, 5), (6, 14), (15, 16)], Rules())
    assert ranking.candidates == ((6, 14), (12, 5))
    assert spaces_by_role(view, "tied") == {(6, 14), (12, 5)}
    assert spaces_by_role(view, "candidate") == {(15, 16)}
    text = unmarked(view.verdict.value)
    assert "Closest to D9: unit M on G15 and unit B on M6, 13 spaces away (a tie: the explorers choose)" in text
    assert "Every unit&#x27;s distance: unit M on G15: 13 spaces; unit B on M6: 13 spaces; unit N on P17: 18 spaces" in text


def test_manual_p22_nearest_counts_directly_and_follows_the_metric(shipped):
    view = BoardView(shipped, overlay="nearest")
    view.select((3, 8))
    assert "Nearest to D9: unit M on G15, 6 spaces away." in unmarked(view.verdict.value)
    assert "Every unit&#x27;s distance: unit M on G15: 6 spaces; unit B on M6: 9 spaces; unit N on P17: 12 spaces" in unmarked(view.verdict.value)
    view.rules = Rules().replace({"nearest.metric": "manhattan"})
    assert "Nearest to D9: unit M on G15, 9 spaces away." in unmarked(view.verdict.value)


def test_manual_p22_adjacent_overlay_names_spaces_and_own_borders():
    board = Board.from_layout(parse_map("+-+-+\n|. .|\n+ +-+\n|.|.|\n+-+-+\n"))
    view = BoardView(board, overlay="adjacent")
    view.select((0, 1))
    assert spaces_by_role(view, "adjacent") == set(sight.adjacent_spaces(board, (0, 1), Rules()))
    assert spaces_by_role(view, "adjacent") == {(0, 0), (1, 0)}  # an L round (1, 1) only
    assert "Walls and doors on its borders: wall between A2 and B2" in unmarked(view.verdict.value)
    assert view.sources["overlay_lines"].data["role"].count("border") == 3  # E, S and W walls


def test_clicks_select_then_aim_and_the_margin_is_ignored():
    view = BoardView(Board.from_layout(demo_layout()))
    view.on_tap(Tap(view.figure, x=-0.2, y=1.5))
    assert view.selected is None
    view.on_tap(Tap(view.figure, x=2.5, y=3.5))
    assert view.selected == (2, 3) and view.target is None
    view.on_tap(Tap(view.figure, x=6.5, y=0.5))
    assert view.selected == (2, 3) and view.target == (6, 0)
    view.click.value = "source"
    view.on_tap(Tap(view.figure, x=1.5, y=1.5))
    assert view.selected == (1, 1) and view.target is None
    view.on_tap(Tap(view.figure, x=3.5, y=1.5))
    assert view.click.value == "target" and view.target == (3, 1)
    view.overlay.value = "reach"  # no target there: a click selects
    view.on_tap(Tap(view.figure, x=4.5, y=1.5))
    assert view.selected == (4, 1)


def test_switching_overlays_and_boards_redraws_without_rebuilding():
    view = BoardView({"demo": demo_layout(), "2x2": shipped_board()})
    demo_figure = view.figure
    view.select((2, 3))
    for name in OVERLAYS:
        view.overlay.value = name
        assert unmarked(view.verdict.value).startswith("From C4")
    view.choice.value = "2x2"
    assert view.figure is not demo_figure and view.selected is None
    assert unmarked(view.verdict.value) == "Click a space."
    view.choice.value = "demo"
    assert view.figure is demo_figure


def test_bad_input_names_the_argument():
    view = BoardView(demo_layout())
    with pytest.raises(ValueError, match="select a space first"):
        view.aim((1, 1))
    with pytest.raises(Exception, match="point"):
        view.select((99, 0))
    with pytest.raises(ValueError, match="unknown role"):
        Highlights(spaces=(((0, 0), "glow"),))


def test_overlays_read_the_rules_object_only(shipped):
    """Every overlay answers through the core: a pick on a rubble-free floor space works for each."""
    assert shipped.space((3, 8)) is SpaceKind.FLOOR
    for overlay in OVERLAYS.values():
        assert overlay(shipped, Rules(), Pick((3, 8), (12, 5))).verdict


def test_a_quick_second_click_arrives_as_a_double_tap_and_still_counts():
    view = BoardView(demo_layout())
    assert {"tap", "doubletap"} <= set(view.figure._event_callbacks)
    from bokeh.events import DoubleTap
    view.on_tap(DoubleTap(view.figure, x=2.5, y=3.5))
    assert view.selected == (2, 3)


def test_closest_overlay_draws_every_tied_closest_path():
    """The closest overlay draws the union of every tied closest path (manual p16, p22)."""
    from machina_nb.views.board import Pick, closest_overlay, shipped_board

    board = shipped_board()
    start = board.units()["M"]
    shown = closest_overlay(board, Rules(), Pick(start))
    ranking = distance.closest(board, start, [p for u, p in board.units().items() if u != "M"],
                               Rules())
    expected = set()
    for goal in ranking.candidates:
        for path in distance.closest_paths(board, start, goal, Rules()):
            expected |= {((a[0] + .5, a[1] + .5), (b[0] + .5, b[1] + .5))
                         for a, b in zip(path, path[1:])}
    drawn = {segment for segment, role in shown.lines if role == "path"}
    assert drawn == expected and drawn
    assert any("shortest path" in line for line in shown.verdict)


def test_the_legend_beside_the_board_explains_every_colour_drawn(shipped):
    """Each overlay, on both boards: every colour on the plot has a legend sample."""
    for board in (Board.from_layout(demo_layout()), shipped):
        view = BoardView(board, names={"A": "Phillip"})
        start = sorted(board.units().values())[0]
        for overlay in OVERLAYS:
            view.overlay.value = overlay
            view.select(start)
            if overlay == "sight":
                view.aim(sorted(board)[-1])
            shown = set(re.findall(r"data-colour='([^']+)'", view.legend.value))
            assert drawn_colours(view.sources) <= shown, overlay
        assert "Phillip" in view.legend.value


def test_overlays_outline_hatch_or_dim_never_fill_so_space_kinds_show(shipped):
    view = BoardView(shipped)
    view.select((3, 8))
    glyphs = [r.glyph for r in view.figure.renderers if r.data_source is view.sources["overlay"]]
    assert glyphs[0].fill_color is None
    veils = [g for g in glyphs if g.fill_color is not None and g.fill_color != "fill"]
    assert veils and all(g.fill_alpha < 0.5 for g in veils)
    data = view.sources["overlay"].data
    # out of sight is dimmed, neither hatched over the space kind nor outlined
    assert {h for h, r in zip(data["hatch"], data["role"]) if r == "blocked"} == {" "}
    assert {e for e, r in zip(data["edge"], data["role"]) if r == "blocked"} == {"rgba(0, 0, 0, 0)"}


def test_only_the_danger_scale_fills_and_only_the_inner_square_so_the_kind_shows_at_its_rim(
        shipped):
    view = BoardView(shipped)
    view.select((3, 8))
    fills = [r.glyph for r in view.figure.renderers if r.data_source is view.sources["overlay"]
             and r.glyph.fill_color == "fill"]
    assert len(fills) == 1 and fills[0].width == fills[0].height == 0.8
    data = highlight_data(Highlights((((0, 0), "danger 50"), ((1, 0), "selected"))))["overlay"]
    assert data["filled"] == ["yes", "no"]
    assert data["fill"][0] == ROLE_COLOURS["danger 50"] and data["edge"][0] == "rgba(0, 0, 0, 0)"


def test_spaces_are_named_as_the_axes_label_them_and_at_least_32_px():
    board = Board.from_layout(demo_layout())
    view = BoardView(board)
    view.select((2, 5))
    assert view.title.value == "<b>Line of sight from C6</b>"
    assert "(2, 5)" not in unmarked(view.verdict.value)
    assert view.figure.xaxis.major_label_overrides[2.5] == "C"
    assert view.figure.yaxis.major_label_overrides[5.5] == "6"
    for b in (board, shipped_board()):
        fig, _ = render_board(b)
        assert drawn_space_pixels(fig) >= 32
