"""Share a ruling question: a situation as Markdown with a picture of its board (SVG).

:func:`board_svg` draws the board from the situation itself (spaces, walls, doors,
units with their letters) as plain SVG text; :func:`to_markdown` writes the
situation, the rules in force, each answer with its explanation and, for every
switch that changes an answer, the answers under each reading (saying what differs from
the answer in force) — ready to paste
into a forum post. The picture is embedded as a ``data:`` URI.

>>> from machina_nb.rules.content import content_root
>>> from machina_nb.rules.analysis.situation import load_situation
>>> s = load_situation(content_root() / "situations" / "sight_corner.toml")
>>> board_svg(s).startswith("<svg")
True
"""

from __future__ import annotations

import base64

from machina_nb.rules.analysis.ask import Answer, ask, show_value
from machina_nb.rules.analysis.difference import difference, difference_words
from machina_nb.rules.analysis.marks import picture_highlights, unit_sides
from machina_nb.rules.analysis.phrases import PRESET_WORDS, question_words, reader_words
from machina_nb.rules.analysis.sensitivity import Sensitive, sensitivity
from machina_nb.rules.analysis.situation import Situation
from machina_nb.rules.board.drawing import Scene, draw, legend, svg
from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.highlights import Highlights
from machina_nb.rules.board.labels import space_name
from machina_nb.rules.rulings import Rules
from machina_nb.rules.rulings_words import cite_words, label, question

__all__ = ["board_svg", "board_scene", "situation_board", "to_markdown", "with_names"]

#: Pixels a side of a space in the shared picture.
CELL = 32


def situation_board(situation: Situation) -> tuple[Board, Highlights]:
    """The situation's map with its units by letter, and their sides (to ring them by side)."""
    board = Board.from_layout(situation.layout).with_units(
        (u.position, u.letter) for u in situation.units)
    return board, Highlights(sides=unit_sides(situation))


def board_scene(situation: Situation, answers: tuple[Answer, ...] = ()) -> Scene:
    """The situation's board drawn with the marks of ``answers``: each line of sight between
    two units or spaces, each monster's route and the spaces they mark."""
    board, _ = situation_board(situation)
    return draw(board, picture_highlights(situation, answers))


def board_svg(situation: Situation, answers: tuple[Answer, ...] = ()) -> str:
    """The situation's board as SVG text: coloured spaces, walls, doors, units by letter, the
    columns lettered and the rows numbered as on the app's boards (``C6``), and the marks of
    ``answers`` (sight lines, routes).

    Drawn by the board wing's one drawer (:mod:`machina_nb.rules.board.drawing`), in the
    colours the app shows.
    """
    return svg(board_scene(situation, answers), px=CELL, css="situation-board")


def _legend(situation: Situation, answers: tuple[Answer, ...] = ()) -> list[str]:
    shown = legend(board_scene(situation, answers))
    spaces = [words for key, _, _, words in shown if key.startswith("space:")]
    marks = [words for key, _, _, words in shown if not key.startswith("space:")]
    lines = ["Legend: units are white discs with their letter, ringed blue for an explorer and "
             "orange for a monster; black lines are walls, thick brown lines closed doors, "
             "dashed brown lines open doors, dotted orange lines destroyed doors.",
             "Spaces shown: " + ", ".join(spaces) + ".",
             "Drawn: " + ", ".join(marks) + "."]
    state = situation.base
    units = ", ".join(f"{u.letter} = {state.unit(u.id).name} ({state.unit(u.id).side}) on "
                      f"{space_name(u.position)}" for u in situation.units)
    lines.append(f"Units: {units}.")
    return lines


def with_names(situation: Situation, text: str) -> str:
    """Text from the rules core with each unit's id as its name and letter (``lorrai`` ->
    ``Lorrai (L)``), each space as the board labels it (``(0, 3)`` -> ``A4``) and each switch
    as its question or reading (:func:`~machina_nb.rules.analysis.phrases.reader_words`)."""
    return reader_words(situation, text)


def to_markdown(situation: Situation, rules: Rules | None = None,
                found: tuple[Sensitive, ...] | None = None) -> str:
    """The situation, its answers and every ruling that changes them, as Markdown with the board.
    """
    rules = situation.rules() if rules is None else rules
    found = sensitivity(situation, rules) if found is None else found
    answers = ask(situation, rules)
    picture = base64.b64encode(board_svg(situation, answers).encode("utf-8")).decode("ascii")
    flips = "; ".join(label(k, v) for k, v in situation.rulings)
    out = [f"# {situation.title}", "",
           f"![the board](data:image/svg+xml;base64,{picture})", "",
           *_legend(situation, answers), "",
           f"Rules in force: {PRESET_WORDS.get(rules.name.rstrip('+'), rules.name)}"
           + (f" (changed: {flips})" if flips else "") + ".", "",
           "## Answers", ""]
    for a in answers:
        out += _answer_lines(situation, a)
    out += ["## Rulings that change the answers", ""]
    if not found:
        out.append("No other reading of any switch changes these answers.")
    for f in found:
        out += [f"### {question(f.switch)} (in force: {label(f.switch, f.in_force)})", "",
                "| reading | " + " | ".join(_heading(situation, q) for q in f.changed) + " |",
                "|---|" + "---|" * len(f.changed)]
        first = dict(f.answers[0][1])
        for reading, values in f.answers:
            shown = dict(values)
            out.append(f"| {label(f.switch, reading)} | " + " | ".join(
                _cell(situation, shown[q]) + ("" if reading == f.in_force else
                                              _differs(situation, shown[q], first[q]))
                for q in f.changed) + " |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _heading(situation: Situation, name: str) -> str:
    """A question named ``name`` in words (``Can Kim (K) see Lorrai (L)?``)."""
    q = next(q for q in situation.questions if q.name == name)
    return question_words(situation, q).replace("|", "\\|")


def _answer_lines(situation: Situation, a: Answer) -> list[str]:
    lines = [f"- **{_heading(situation, a.name)}** {with_names(situation, show_value(a.value))}"]
    lines += [f"  - {cite_words(with_names(situation, why))}" for why in a.why if why]
    return lines + [""]


def _differs(situation: Situation, value: object, in_force: object) -> str:
    """What differs from the answer in force, after an answer in a table (or nothing)."""
    text = difference_words(difference(value, in_force))
    return f" (*differs*: {_cell(situation, text)})" if text else ""


def _cell(situation: Situation, value: object) -> str:
    return with_names(situation, show_value(value)).replace("|", "\\|")
