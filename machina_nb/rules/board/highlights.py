"""What a picture marks on a board: spaces, lines and points by role, numbers, unit sides.

A :class:`Highlights` value is what the board view's overlays compute and what
:func:`machina_nb.rules.board.drawing.draw` draws over the map; each role is a key of
:data:`machina_nb.rules.board.palette.ROLE_COLOURS`.

>>> Highlights(spaces=(((0, 0), "selected"),)).spaces
(((0, 0), 'selected'),)
"""

from __future__ import annotations

from dataclasses import dataclass

from machina_nb.rules.board.maptext import Point
from machina_nb.rules.board.palette import ROLE_COLOURS, SIDE_COLOURS

__all__ = ["Highlights", "Segment"]

#: A segment between two points of the board, ``((x0, y0), (x1, y1))``; space ``(x, y)``
#: covers ``[x, x+1] x [y, y+1]`` so its centre is ``(x + 0.5, y + 0.5)``.
Segment = tuple[tuple[float, float], tuple[float, float]]


@dataclass(frozen=True)
class Highlights:
    """What to mark: spaces, segments and points by role, labels, unit sides, a title, a verdict.

    ``labels`` put short text (a distance) on spaces; ``sides`` give a unit's side by its
    letter on the board (``(("A", "explorer"),)``; a unit not listed is drawn plainly);
    ``verdict`` is plain text, one line per item.
    """

    spaces: tuple[tuple[Point, str], ...] = ()
    lines: tuple[tuple[Segment, str], ...] = ()
    points: tuple[tuple[tuple[float, float], str], ...] = ()
    labels: tuple[tuple[Point, str], ...] = ()
    title: str = ""
    verdict: tuple[str, ...] = ()
    sides: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        for _, role in self.spaces + self.lines + self.points:
            if role not in ROLE_COLOURS:
                raise ValueError(f"highlights: unknown role {role!r}; expected one of "
                                 f"{', '.join(ROLE_COLOURS)}")
        for _, side in self.sides:
            if side not in SIDE_COLOURS:
                raise ValueError(f"highlights: unknown side {side!r}; expected one of "
                                 f"{', '.join(SIDE_COLOURS)}")
