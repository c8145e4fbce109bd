"""Share a ruling question: a situation as Markdown with a picture of its board (SVG).

:func:`board_svg` draws the board from the situation itself (spaces, walls, doors,
units with their letters) as plain SVG text; :func:`to_markdown` writes the
situation, the rules in force, each answer with its explanation and, for every
switch that changes an answer, the answers under each reading — ready to paste
into a forum post. The picture is embedded as a ``data:`` URI.

>>> from machina_nb.rules.content import content_root
>>> from machina_nb.rules.analysis.situation import load_situation
>>> s = load_situation(content_root() / "situations" / "sight_corner.toml")
>>> board_svg(s).startswith("<svg")
True

Rules: the pages each answer cites (see :mod:`machina_nb.rules.analysis.ask`).
"""

from __future__ import annotations

import base64
from html import escape

from machina_nb.rules.analysis.ask import Answer, ask, show_value
from machina_nb.rules.analysis.phrases import question_words
from machina_nb.rules.analysis.sensitivity import Sensitive, sensitivity
from machina_nb.rules.analysis.situation import Situation
from machina_nb.rules.board.labels import column_name, plain_text, space_name
from machina_nb.rules.board.maptext import BorderKind, SpaceKind
from machina_nb.rules.rulings import Rules

__all__ = ["board_svg", "to_markdown", "with_names", "SPACE_COLOURS"]

CELL = 32
SPACE_COLOURS = {
    SpaceKind.FLOOR: ("#f4efe4", "floor"), SpaceKind.SPAWN: ("#e8b4b4", "spawn space"),
    SpaceKind.PIT: ("#3a3a3a", "pit"), SpaceKind.RUBBLE: ("#b8a68c", "rubble"),
    SpaceKind.DESTROYED: ("#777777", "destroyed space"),
    SpaceKind.UNIDENTIFIABLE: ("#555566", "unidentifiable area"),
}
"""Fill colour and legend name of the space kinds drawn in their own colour; the other
action and event spaces share one colour and carry their map character."""
_OTHER = ("#cfe0f0", "action or event space (its map character shown)")
_BORDER = {BorderKind.WALL: ("#222222", 4, ""), BorderKind.BOUNDARY: ("#222222", 4, ""),
           BorderKind.DOOR_CLOSED: ("#8a4b0f", 6, ""),
           BorderKind.DOOR_OPEN: ("#8a4b0f", 3, "6,4"),
           BorderKind.DOOR_DESTROYED: ("#aaaaaa", 3, "2,4")}


def _border_lines(layout) -> list[str]:
    out = []
    for y in range(layout.height):
        for x in range(layout.width + 1):
            kind = layout.vertical[y][x]
            if kind in _BORDER:
                colour, width, dash = _BORDER[kind]
                out.append(_line(x * CELL, y * CELL, x * CELL, (y + 1) * CELL, colour, width, dash))
    for y in range(layout.height + 1):
        for x in range(layout.width):
            kind = layout.horizontal[y][x]
            if kind in _BORDER:
                colour, width, dash = _BORDER[kind]
                out.append(_line(x * CELL, y * CELL, (x + 1) * CELL, y * CELL, colour, width, dash))
    return out


def _line(x1, y1, x2, y2, colour, width, dash) -> str:
    extra = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" '
            f'stroke-width="{width}" stroke-linecap="round"{extra}/>')


def board_svg(situation: Situation) -> str:
    """The situation's board as SVG text: coloured spaces, walls, doors, units by letter, the
    columns lettered and the rows numbered as on the app's boards (``C6``).

    Closed doors are thick brown, open doors dashed brown, destroyed doors dotted
    grey; explorers are blue circles, monsters red squares.
    Rules: manual p22 (walls and doors), p35-37 (map spaces) — as drawn, no rule applied.
    """
    layout = situation.layout
    w, h = layout.width * CELL, layout.height * CELL
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w + 28}" height="{h + 28}" '
             f'viewBox="-24 -24 {w + 28} {h + 28}" font-family="sans-serif">']
    parts += [f'<text x="{x * CELL + CELL // 2}" y="-8" font-size="11" text-anchor="middle" '
              f'fill="#444">{column_name(x)}</text>' for x in range(layout.width)]
    parts += [f'<text x="-8" y="{y * CELL + CELL // 2 + 4}" font-size="11" text-anchor="end" '
              f'fill="#444">{y + 1}</text>' for y in range(layout.height)]
    for y in range(layout.height):
        for x in range(layout.width):
            kind = layout.space(x, y)
            colour, _ = SPACE_COLOURS.get(kind, _OTHER)
            parts.append(f'<rect x="{x * CELL}" y="{y * CELL}" width="{CELL}" height="{CELL}" '
                         f'fill="{colour}" stroke="#d8d0c0" stroke-width="0.5"/>')
            if kind not in SPACE_COLOURS:
                parts.append(f'<text x="{x * CELL + 4}" y="{y * CELL + 11}" font-size="9" '
                             f'fill="#335">{escape(kind.value)}</text>')
    parts += _border_lines(layout)
    sides = {u.id: u.side for u in situation.base.units}
    for u in situation.units:
        cx, cy = u.position[0] * CELL + CELL // 2, u.position[1] * CELL + CELL // 2
        if sides.get(u.id) == "monster":
            parts.append(f'<rect x="{cx - 11}" y="{cy - 11}" width="22" height="22" '
                         f'fill="#c0392b"/>')
        else:
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="11" fill="#2c6fbb"/>')
        parts.append(f'<text x="{cx}" y="{cy + 5}" font-size="14" font-weight="bold" '
                     f'text-anchor="middle" fill="white">{escape(u.letter)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def _legend(situation: Situation) -> list[str]:
    kinds = {situation.layout.space(x, y) for y in range(situation.layout.height)
             for x in range(situation.layout.width)}
    lines = ["Legend: blue circle = explorer, red square = monster; black line = wall, "
             "thick brown = closed door, dashed brown = open door, dotted grey = destroyed door."]
    spaces = sorted({SPACE_COLOURS.get(k, _OTHER)[1] for k in kinds})
    lines.append("Spaces shown: " + ", ".join(spaces) + ".")
    state = situation.base
    units = ", ".join(f"{u.letter} = {state.unit(u.id).name} ({state.unit(u.id).side}) on "
                      f"{space_name(u.position)}" for u in situation.units)
    lines.append(f"Units: {units}.")
    return lines


def with_names(situation: Situation, text: str) -> str:
    """Text from the rules core with each unit's id as its name and letter (``lorrai`` ->
    ``Lorrai (L)``) and each space as the board labels it (``(0, 3)`` -> ``A4``)."""
    state = situation.base
    return plain_text(text, {u.id: f"{state.unit(u.id).name} ({u.letter})"
                             for u in situation.units})


def to_markdown(situation: Situation, rules: Rules | None = None,
                found: tuple[Sensitive, ...] | None = None) -> str:
    """The situation, its answers and every ruling that changes them, as Markdown with the board.

    Rules: the pages each answer cites; the switches of :mod:`machina_nb.rules.rulings`.
    """
    rules = situation.rules() if rules is None else rules
    found = sensitivity(situation, rules) if found is None else found
    picture = base64.b64encode(board_svg(situation).encode("utf-8")).decode("ascii")
    flips = ", ".join(f"{k} = {v}" for k, v in situation.rulings)
    out = [f"# {situation.title}", "",
           f"![the board](data:image/svg+xml;base64,{picture})", "",
           *_legend(situation), "",
           f"Rules in force: {rules.name}" + (f" ({flips})" if flips else "") + ".", "",
           "## Answers", ""]
    for a in ask(situation, rules):
        out += _answer_lines(situation, a)
    out += ["## Rulings that change the answers", ""]
    if not found:
        out.append("No other reading of any switch changes these answers.")
    for f in found:
        out += [f"### `{f.switch}` (in force: {f.in_force})", "",
                "| reading | " + " | ".join(_heading(situation, q) for q in f.changed) + " |",
                "|---|" + "---|" * len(f.changed)]
        for reading, values in f.answers:
            shown = dict(values)
            out.append(f"| {reading} | "
                       + " | ".join(_cell(situation, shown[q]) for q in f.changed) + " |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _heading(situation: Situation, name: str) -> str:
    """A question named ``name`` in words (``Can Kim (K) see Lorrai (L)?``)."""
    q = next(q for q in situation.questions if q.name == name)
    return question_words(situation, q).replace("|", "\\|")


def _answer_lines(situation: Situation, a: Answer) -> list[str]:
    lines = [f"- **{_heading(situation, a.name)}** {with_names(situation, show_value(a.value))}"]
    lines += [f"  - {with_names(situation, why)}" for why in a.why if why]
    return lines + [""]


def _cell(situation: Situation, value) -> str:
    return with_names(situation, show_value(value)).replace("|", "\\|")
