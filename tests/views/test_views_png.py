"""The PNG picture of a board: it decodes, has the SVG's size, and agrees with the SVG on colours."""

import io
import re

from PIL import Image, ImageColor

from machina_nb.rules.board.drawing import Circle, Rect, draw, svg
from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.maptext import SpaceKind, parse_map
from machina_nb.rules.board.palette import SPACE_COLOURS
from machina_nb.views.png import picture_size, png

MAP = "+-+-+-+\n|. o .|\n+-+-+-+\n|. . .|\n+-+-+-+\n"


def _scene():
    board = Board.from_layout(parse_map(MAP)).with_units([((2, 1), "K")])
    return draw(board)


def _pixel(image, scene, x, y, px):
    x0, y0 = scene.bounds[:2]
    return "#{:02x}{:02x}{:02x}".format(*image.getpixel((int((x - x0) * px), int((y - y0) * px)))[:3])


def test_png_decodes_at_the_svg_size():
    scene = _scene()
    image = Image.open(io.BytesIO(png(scene, px=32)))
    assert image.format == "PNG"
    width, height = picture_size(scene, 32)
    assert image.size == (width, height)
    found = re.search(r"width='(\d+)' height='(\d+)'", svg(scene, px=32))
    assert (int(found[1]), int(found[2])) == (width, height)


def test_a_pit_space_is_the_palettes_pit_colour_in_both_pictures():
    scene = _scene()
    image = Image.open(io.BytesIO(png(scene, px=32))).convert("RGB")
    pit = next(i for i in scene.items if isinstance(i, Rect) and i.key == "space:pit")
    assert pit.fill == SPACE_COLOURS[SpaceKind.PIT]
    assert _pixel(image, scene, 1.5, 0.5, 32) == SPACE_COLOURS[SpaceKind.PIT]
    assert f"fill='{SPACE_COLOURS[SpaceKind.PIT]}'" in svg(scene)


def test_svg_and_png_agree_on_a_floor_and_a_unit_disc():
    scene = _scene()
    image = Image.open(io.BytesIO(png(scene, px=32))).convert("RGB")
    floor = SPACE_COLOURS[SpaceKind.FLOOR]
    assert _pixel(image, scene, 0.5, 0.5, 32) == floor
    disc = next(i for i in scene.items if isinstance(i, Circle))
    # inside the disc, off the letter: the disc's fill, as the SVG fills it
    assert _pixel(image, scene, disc.x - disc.r * 0.7, disc.y, 32) == "#{:02x}{:02x}{:02x}".format(*ImageColor.getrgb(disc.fill)[:3])
    text = svg(scene)
    assert f"fill='{floor}'" in text and f"fill='{disc.fill}'" in text
