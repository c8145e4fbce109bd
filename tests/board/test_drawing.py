"""The one board drawer: the scene, its SVG, its legend, and every picture of the app drawn by it."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import FrozenInstanceError

import pytest

from machina_nb.rules.analysis.export import board_svg, situation_board
from machina_nb.rules.analysis.situation import load_situation
from machina_nb.rules.board.drawing import Circle, Polyline, Rect, Text, draw, legend, svg
from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.highlights import Highlights
from machina_nb.rules.board.maptext import SpaceKind, parse_map
from machina_nb.rules.board.palette import SPACE_COLOURS, STYLES, UNIT_FILL
from machina_nb.rules.content import content_root
from machina_nb.rules.rulings import Rules
from machina_nb.views.board import Highlights as ViewHighlights
from machina_nb.views.board import (
    Pick,
    board_data,
    highlight_data,
    legend_html,
    shipped_board,
    sight_overlay,
)
from machina_nb.views.picture import svg_board
from machina_nb.views.rulings import RulingsPanel

SITUATIONS = content_root() / "situations"
PIT_MAP = "+-+-+-+\n|. o .|\n+ + + +\n|. . o|\n+-+-+-+\n"


def kind_fills(svg_text: str) -> dict[str, set[str]]:
    """The fill of each space kind in an SVG picture, read from each space's tooltip."""
    found: dict[str, set[str]] = {}
    for fill, kind in re.findall(r"<rect [^>]*fill='(#[0-9a-fA-F]{6})'[^>]*><title>\w+\d+ "
                                 r"\(([a-z ]+)\)</title>", svg_text):
        found.setdefault(kind, set()).add(fill)
    return found


def test_the_views_highlights_are_the_board_wings_value():
    assert ViewHighlights is Highlights


def test_a_scene_is_frozen_primitives_in_board_coordinates():
    board = Board.from_layout(parse_map(PIT_MAP)).with_units([((0, 0), "A")])
    scene = draw(board, Highlights(spaces=(((1, 1), "selected"),), sides=(("A", "explorer"),)))
    with pytest.raises(FrozenInstanceError):
        scene.items[0].x = 3
    pits = [p for p in scene.items if isinstance(p, Rect) and p.key == "space:pit"]
    assert [(p.x, p.y, p.w, p.h) for p in pits] == [(1, 0, 1, 1), (2, 1, 1, 1)]
    assert {p.fill for p in pits} == {SPACE_COLOURS[SpaceKind.PIT]}
    unit, = [p for p in scene.items if isinstance(p, Circle)]
    assert (unit.x, unit.y, unit.key) == (0.5, 0.5, "unit:explorer")
    axis = [p.text for p in scene.items if isinstance(p, Text) and p.key == "axis"]
    assert axis == ["A", "B", "C", "1", "2"]
    x0, y0, x1, y1 = scene.bounds
    assert x0 < 0 and y0 < 0 and x1 > 3 and y1 > 2


def test_every_colour_drawn_has_legend_words():
    board = shipped_board()
    highlights = sight_overlay(board, Rules(), Pick((3, 8), (12, 5)))
    scene = draw(board, highlights)
    shown = legend(scene)
    explained = {colour for _, colour, _, _ in shown}
    neutral = {STYLES[key].colour for key in ("grid", "axis", "letter")} | {UNIT_FILL}
    drawn = set()
    for item in scene.items:
        drawn |= {getattr(item, name) for name in ("fill", "stroke", "colour")
                  if getattr(item, name, "")}
    assert drawn - neutral <= explained, drawn - neutral - explained
    assert all(words and "_" not in words and "=" not in words for *_, words in shown)
    assert any(key == "role:blocked" and look == "dim" for key, _, look, _ in shown)


def test_a_blocked_line_explains_the_blocker_and_the_cross_once_each():
    """The border that blocks and the ✕ where the line is cut are two legend entries with
    their own words, in the picture and beside the app's board."""
    board = shipped_board()
    highlights = sight_overlay(board, Rules(), Pick((3, 8), (12, 5)))
    words = [(look, said) for _, _, look, said in legend(draw(board, highlights))]
    assert ("line", "what blocks the line") in words and ("mark", "where the line is cut") in words
    shown = legend_html(highlight_data(highlights) | board_data(board))
    assert shown.count("what blocks the line") == 1 and shown.count("where the line is cut") == 1


def test_svg_pictures_are_well_formed_xml():
    board = shipped_board()
    highlights = sight_overlay(board, Rules(), Pick((3, 8), (12, 5)))
    for text in (svg(draw(board, highlights)), board._repr_svg_(), svg_board(board, highlights),
                 board_svg(load_situation(SITUATIONS / "closest_pit.toml"))):
        root = ET.fromstring(text)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
    dimmed = svg(draw(board, highlights))     # out of sight: a veil, the kind beneath
    assert "fill-opacity='0.4'" in dimmed and "url(#hatch" not in dimmed
    hatched = svg(draw(board, Highlights(spaces=(((0, 0), "differs"),))))
    assert "url(#hatch" in hatched and "<pattern id='hatch" in hatched


def test_export_rulings_tab_and_jupyter_draw_a_pit_in_the_same_colour():
    situation = load_situation(SITUATIONS / "closest_pit.toml")
    board, sides = situation_board(situation)
    pit = SPACE_COLOURS[SpaceKind.PIT]
    exported = kind_fills(board_svg(situation))
    assert exported["pit"] == {pit} and exported["floor"] == {SPACE_COLOURS[SpaceKind.FLOOR]}
    assert kind_fills(board._repr_svg_()) == exported
    assert kind_fills(svg_board(board, sides)) == exported
    panel = RulingsPanel()
    panel.switch.value = "closest.pits"
    assert kind_fills(panel.shown.value)["pit"] == {pit}
    assert kind_fills(panel.shown.value)["floor"] == exported["floor"]


def test_jupyter_shows_a_board_as_the_one_drawers_svg():
    board = Board.from_layout(parse_map(PIT_MAP))
    assert board._repr_svg_() == svg(draw(board))
    assert svg_board(board, px=32) == svg(draw(board), px=32)


def test_the_direction_symbol_is_a_closed_filled_triangle():
    board = shipped_board()
    arrows = [p for p in draw(board).items if isinstance(p, Polyline) and p.key == "direction"]
    assert arrows and all(a.closed and len(a.points) == 3 and a.fill for a in arrows)
