"""A board scene as a PNG picture: the bitmap backend of the one board drawer.

:func:`png` paints a :class:`~machina_nb.rules.board.drawing.Scene` with Pillow, primitive by
primitive in the scene's order, with the colours the primitives carry (the palette's, as the
SVG uses them), so the picture shows what the app's board shows: spaces by kind, walls and
doors, units as lettered discs, and the marks of the answers (routes, sight lines, marked
spaces). It lives with the views because the rules core imports no drawing library.

>>> from machina_nb.rules.board.graph import Board
>>> from machina_nb.rules.board.maptext import parse_map
>>> from machina_nb.rules.board.drawing import draw
>>> png(draw(Board.from_layout(parse_map("+-+-+\\n|. o|\\n+-+-+\\n"))))[:8]
b'\\x89PNG\\r\\n\\x1a\\n'
"""

from __future__ import annotations

import base64
import html
import io
import math

from PIL import Image, ImageColor, ImageDraw, ImageFont

from machina_nb.rules.board.drawing import Circle, Line, Polyline, Rect, Scene, Text

__all__ = ["png", "picture_size", "png_link"]

_DASHES = {"solid": (), "dashed": (7, 5), "dotted": (1, 6)}
_ANCHOR_X = {"start": "l", "middle": "m", "end": "r"}
_ANCHOR_Y = {"top": "t", "middle": "m", "bottom": "s"}
_BACKGROUND = "#ffffff"


def picture_size(scene: Scene, px: int = 32) -> tuple[int, int]:
    """The picture's width and height in pixels, ``px`` pixels a space (as the SVG's)."""
    x0, y0, x1, y1 = scene.bounds
    return round((x1 - x0) * px), round((y1 - y0) * px)


def png(scene: Scene, px: int = 32) -> bytes:
    """``scene`` as PNG bytes, ``px`` pixels a space, on a white ground.

    Texts are never under 9 pixels high (as in the SVG), in Pillow's built-in font.
    """
    image = Image.new("RGB", picture_size(scene, px), _BACKGROUND)
    pen = _Pen(ImageDraw.Draw(image, "RGBA"), px, scene.bounds[0], scene.bounds[1])
    for item in scene.items:
        pen.item(item)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _rgba(colour: str, opacity: float = 1.0) -> tuple[int, int, int, int]:
    """A colour as the SVG names it (``#rrggbb`` or a name such as ``white``) with ``opacity``."""
    red, green, blue = ImageColor.getrgb(colour)[:3]
    return red, green, blue, round(255 * opacity)


class _Pen:
    """Board units to pixels, and each primitive painted."""

    def __init__(self, canvas: ImageDraw.ImageDraw, px: int, x0: float, y0: float):
        self.canvas, self.px, self.x0, self.y0 = canvas, px, x0, y0
        self.fonts: dict[int, ImageFont.FreeTypeFont | ImageFont.ImageFont] = {}

    def at(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.x0) * self.px, (y - self.y0) * self.px

    def item(self, i) -> None:
        if isinstance(i, Rect):
            self.rect(i)
        elif isinstance(i, Line):
            self.segment(self.at(i.x0, i.y0), self.at(i.x1, i.y1), _rgba(i.colour), i.width,
                         i.dash)
        elif isinstance(i, Polyline):
            points = [self.at(x, y) for x, y in i.points]
            if i.closed:
                self.canvas.polygon(points, fill=_rgba(i.fill) if i.fill else None,
                                    outline=_rgba(i.colour), width=max(1, round(i.width)))
            else:
                self.canvas.line(points, fill=_rgba(i.colour), width=max(1, round(i.width)),
                                 joint="curve")
        elif isinstance(i, Circle):
            cx, cy = self.at(i.x, i.y)
            r = i.r * self.px
            self.canvas.ellipse((cx - r, cy - r, cx + r, cy + r), fill=_rgba(i.fill),
                                outline=_rgba(i.stroke), width=max(1, round(i.width)))
        elif isinstance(i, Text):
            self.text(i)

    def rect(self, i: Rect) -> None:
        (a, b), (c, d) = self.at(i.x, i.y), self.at(i.x + i.w, i.y + i.h)
        if i.fill:
            self.canvas.rectangle((a, b, c, d), fill=_rgba(i.fill, i.fill_opacity))
        if i.hatch and i.stroke:
            self.hatch((a, b, c, d), _rgba(i.stroke, 0.9))
        elif i.stroke:
            colour = _rgba(i.stroke, i.opacity)
            corners = [(a, b), (c, b), (c, d), (a, d), (a, b)]
            for p, q in zip(corners, corners[1:]):
                self.segment(p, q, colour, i.width, i.dash)

    def hatch(self, box: tuple[float, float, float, float], colour) -> None:
        """Diagonal lines 5 pixels apart inside ``box`` (the SVG's hatch pattern)."""
        a, b, c, d = box
        step = 5 * math.sqrt(2)
        offset = 0.0
        while offset < (c - a) + (d - b):
            # the line x + y = a + b + offset, clipped to the box
            s = a + b + offset
            x_start, x_end = max(a, s - d), min(c, s - b)
            if x_start <= x_end:
                self.canvas.line(((x_start, s - x_start), (x_end, s - x_end)), fill=colour,
                                 width=2)
            offset += step

    def segment(self, p, q, colour, width: float, dash: str) -> None:
        """A straight line from ``p`` to ``q``, dashed as the SVG dashes it."""
        pattern = _DASHES.get(dash, ())
        thick = max(1, round(width))
        if not pattern:
            self.canvas.line((p, q), fill=colour, width=thick)
            return
        length = math.dist(p, q)
        if length == 0:
            return
        ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length
        on, off = pattern
        t = 0.0
        while t < length:
            end = min(length, t + on)
            start_point = (p[0] + ux * t, p[1] + uy * t)
            if end - t < 1.5:  # a dot
                r = thick / 2
                self.canvas.ellipse((start_point[0] - r, start_point[1] - r,
                                     start_point[0] + r, start_point[1] + r), fill=colour)
            else:
                self.canvas.line((start_point, (p[0] + ux * end, p[1] + uy * end)),
                                 fill=colour, width=thick)
            t += on + off

    def font(self, size: int):
        if size not in self.fonts:
            self.fonts[size] = ImageFont.load_default(size=size)
        return self.fonts[size]

    def text(self, i: Text) -> None:
        size = round(max(9.0, i.size * self.px))
        anchor = _ANCHOR_X.get(i.anchor, "m") + _ANCHOR_Y.get(i.baseline, "m")
        colour = _rgba(i.colour)
        self.canvas.text(self.at(i.x, i.y), i.text, fill=colour, font=self.font(size),
                         anchor=anchor, stroke_width=1 if i.bold else 0, stroke_fill=colour)


def png_link(scene: Scene, filename: str = "board.png", label: str = "Download picture (PNG)",
             css: str = "analysis-png", px: int = 32) -> str:
    """An HTML link that saves ``scene`` as the PNG ``filename`` (a data URI: it works in
    Voila), a button reading ``label``."""
    data = base64.b64encode(png(scene, px)).decode("ascii")
    return (f"<a class='{html.escape(css)}' download='{html.escape(filename)}' "
            f"href='data:image/png;base64,{data}' style='display:inline-block;padding:4px 10px;"
            "border:1px solid #888;border-radius:3px;background:#f2f2f2;color:#111;"
            f"text-decoration:none'>{html.escape(label)}</a>")
