"""The boards of the peer games' rulings in the Rulings tab: Mansions of Madness' sight and
diagonal steps on the Other games tab's map, under the reading in force and the one compared.

Situation files hold Machina Arcana's questions only, so the three Mansions rulings get their
board here, from :mod:`machina_nb.rules.peers.mansions`: the space whose answer differs most
between the two readings, with what it sees (or where a figure may step) under each. Arkham's
rulings are about a bag of chaos tokens and have no board.

Rules: Mansions summary (Line of Sight; Movement); switches
mansions.dot_inset, mansions.wall_touch, mansions.diagonal.
"""

from __future__ import annotations

import html

from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.maptext import Point
from machina_nb.rules.peers import mansions
from machina_nb.rules.rulings import Rules
from machina_nb.rules.rulings_words import label
from machina_nb.views.board import Highlights, legend_html, space_name
from machina_nb.views.peers import sight_board
from machina_nb.views.picture import merged_columns, picture_columns, space_px, svg_board

__all__ = ["PEER_BOARDS", "peer_cases_html"]

PEER_BOARDS = ("mansions.dot_inset", "mansions.wall_touch", "mansions.diagonal")
"""The peer rulings that have a board."""


def _answer(board: Board, name: str, space: Point, rules: Rules) -> frozenset[Point]:
    """What ``space`` sees (sight rulings) or may step to (the diagonal ruling)."""
    if name == "mansions.diagonal":
        return frozenset(mansions.monster_steps(board, space, rules))
    return mansions.visible_from(board, space, rules) - {space}


def peer_cases_html(name: str, a: str, b: str | None) -> str:
    """The Mansions board of ruling ``name`` under reading ``a`` (in force) and ``b``
    (compared), from the space whose answer differs most; ``""`` for a ruling without one."""
    if name not in PEER_BOARDS or b is None:
        return ""
    board = sight_board()
    rules = {r: Rules().replace({name: r}) for r in (a, b)}
    answers = {p: {r: _answer(board, name, p, rules[r]) for r in (a, b)} for p in sorted(board)}
    start = max(answers, key=lambda p: (len(answers[p][a] ^ answers[p][b]), -p[1], -p[0]))
    differ = answers[start][a] ^ answers[start][b]
    asked = (f"Where may a figure on {space_name(start)} step?" if name == "mansions.diagonal"
             else f"What does {space_name(start)} see?")
    role = "can end here" if name == "mansions.diagonal" else "visible"
    columns, cells = [], []
    for reading, side, shown in ((a, "a", "in force"), (b, "b", "compared")):
        got = answers[start][reading]
        marks = Highlights(tuple((p, role) for p in sorted(got)) + ((start, "selected"),))
        columns.append(picture_columns(board, marks))
        listed = ", ".join(space_name(p) for p in sorted(got, key=lambda p: (p[1], p[0])))
        cells.append(
            f"<td class='rulings-side-{side}' style='vertical-align:top;padding:4px'><b>"
            f"{side.upper()}: {html.escape(label(name, reading))} ({shown})</b>"
            f"<div style='overflow-x:auto'>{svg_board(board, marks, px=space_px(board, 360))}"
            f"</div><div class='rulings-answer' data-differs='{'yes' if differ else 'no'}'>"
            f"<b>{'≠ ' if differ else ''}{asked}</b> "
            f"{len(got)} space{'s' if len(got) != 1 else ''}: {html.escape(listed or 'none')}"
            "</div></td>")
    cells.append("<td class='rulings-legend' style='vertical-align:top;width:250px'>"
                 f"{legend_html(merged_columns(*columns), {})}</td>")
    return ("<div class='rulings-case' data-situation='mansions' style='border-top:1px solid "
            "#ccc;margin-top:10px'><h4>Mansions of Madness: the Other games tab's map</h4>"
            f"<p class='rulings-setup'>From {space_name(start)}, the space whose answer differs "
            "most between the two readings. ≠ marks an answer that differs.</p>"
            f"<table style='width:100%;table-layout:fixed'><tr>{''.join(cells)}</tr></table>"
            "</div>")
