"""An answer's marks as a picture's highlights: the spaces it is about, a line of sight, a route.

:func:`answer_highlights` turns one :class:`~machina_nb.rules.analysis.ask.Answer` into the
board's :class:`~machina_nb.rules.board.highlights.Highlights` (the analysis board shows one
answer at a time this way); :func:`picture_highlights` puts on one picture the sight lines and
the monsters' routes of all the answers, with the units ringed by side, for a shared picture.

>>> from machina_nb.rules.content import content_root
>>> from machina_nb.rules.analysis.ask import ask
>>> from machina_nb.rules.analysis.situation import load_situation
>>> s = load_situation(content_root() / "situations" / "sight_corner.toml")
>>> [role for _, role in picture_highlights(s, ask(s)).lines]
['blocked line']
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from machina_nb.rules.analysis.ask import Answer
from machina_nb.rules.analysis.phrases import question_words
from machina_nb.rules.analysis.situation import Situation
from machina_nb.rules.board.highlights import Highlights
from machina_nb.rules.board.maptext import Point

__all__ = ["ROLE_OF_MARK", "PICTURED_KINDS", "answer_highlights", "picture_highlights",
           "unit_sides"]

#: The board role (:data:`machina_nb.rules.board.palette.ROLE_COLOURS`) of each answer mark.
ROLE_OF_MARK = {"asked": "selected", "target": "target", "visible": "visible",
                "blocked": "blocked", "reach": "can end here", "tied": "tied",
                "candidate": "candidate", "step": "step", "end": "turn end", "spawn": "spawn"}

#: The kinds of question whose marks a shared picture carries: a line between two units or
#: spaces (sight, a legal target) and a monster's turn (its route).
PICTURED_KINDS = ("sight", "target", "monster_turn")


def _centre(p: Point) -> tuple[float, float]:
    return (p[0] + 0.5, p[1] + 0.5)


def answer_highlights(situation: Situation, a: Answer, reading: str = "") -> Highlights:
    """An answer's marks as board highlights: its spaces by role, the line of sight or the
    monster's moves as lines, and the question as the title."""
    q = next(q for q in situation.questions if q.name == a.name)
    spaces = tuple((p, ROLE_OF_MARK[role]) for p, role in a.marks)
    lines: tuple[Any, ...] = ()
    if a.kind in ("sight", "target") and len(a.marks) == 2:
        (p, _), (t, role) = a.marks
        lines = (((_centre(p), _centre(t)), "line" if role == "visible" else "blocked line"),)
    if a.kind == "monster_turn":
        path = [p for p, role in a.marks if role in ("asked", "step")]
        lines = tuple(((_centre(p), _centre(t)), "route") for p, t in zip(path, path[1:]))
    title = question_words(situation, q) + (f" ({reading})" if reading else "")
    return Highlights(spaces, lines, title=title)


def unit_sides(situation: Situation) -> tuple[tuple[str, str], ...]:
    """Each unit's letter and side, to ring it by side."""
    sides = {u.id: u.side for u in situation.base.units}
    return tuple((u.letter, sides.get(u.id, "unit")) for u in situation.units)


def picture_highlights(situation: Situation, answers: Iterable[Answer]) -> Highlights:
    """The units by side and, of ``answers``, every sight line and monster's route with the
    spaces they mark (each space once, its first role)."""
    spaces: dict[Point, str] = {}
    lines: list[Any] = []
    for a in answers:
        if a.kind not in PICTURED_KINDS:
            continue
        shown = answer_highlights(situation, a)
        for p, role in shown.spaces:
            spaces.setdefault(p, role)
        lines += [line for line in shown.lines if line not in lines]
    return Highlights(tuple(spaces.items()), tuple(lines), sides=unit_sides(situation))
