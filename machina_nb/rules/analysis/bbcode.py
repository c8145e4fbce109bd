"""Share a ruling question on BoardGameGeek: a situation as BBCode.

BoardGameGeek's forums show no embedded picture, so the board goes as map text in a
fixed-width block (``[c]``), its columns lettered and its rows numbered as on the app's
boards (``C6``); then the rules in force, each answer under its question in words, and for
every switch that changes an answer, the ruling's question and the answers under each
reading. A share link, when given, ends the post.

>>> from machina_nb.rules.content import content_root
>>> from machina_nb.rules.analysis.situation import load_situation
>>> s = load_situation(content_root() / "situations" / "sight_corner.toml")
>>> post = to_bbcode(s, found=())
>>> post.splitlines()[0]
'[size=14][b]Kim looks past the corner of a wall at Lorrai[/b][/size]'
>>> "[b]Can Kim (K) see Lorrai (L)?[/b]" in post
True
"""

from __future__ import annotations

from machina_nb.rules.analysis.ask import ask, show_value
from machina_nb.rules.analysis.difference import difference, difference_words
from machina_nb.rules.analysis.export import with_names
from machina_nb.rules.analysis.phrases import question_words
from machina_nb.rules.analysis.sensitivity import Sensitive, sensitivity
from machina_nb.rules.analysis.situation import Situation
from machina_nb.rules.board.labels import column_name, space_name
from machina_nb.rules.board.maptext import SpaceKind
from machina_nb.rules.rulings import Rules, load_rulings

__all__ = ["to_bbcode", "board_text"]

_SPACE_WORDS = {
    SpaceKind.FLOOR: "floor", SpaceKind.TRAPPED: "trapped space", SpaceKind.PIT: "pit",
    SpaceKind.SPAWN: "spawn space", SpaceKind.RUBBLE: "rubble",
    SpaceKind.BARREL: "exploding barrel", SpaceKind.CHEST: "chest",
    SpaceKind.EVENT: "event space", SpaceKind.WORKBENCH: "workbench",
    SpaceKind.RECHARGE: "recharge station", SpaceKind.LEVER: "trap lever",
    SpaceKind.CHAPTER: "chapter space", SpaceKind.DESTROYED: "destroyed space",
    SpaceKind.UNIDENTIFIABLE: "unidentifiable area"}
"""Each kind of space in words, for the legend under the map text."""
_BORDERS = ("| and - are walls, D a closed door, d an open door, x a destroyed door; "
            "e marks where another tile can join.")


def board_text(situation: Situation) -> str:
    """The board as map text with each unit's letter on its space, the columns lettered
    above and the rows numbered on the left (as the app's boards label them)."""
    lines = [list(line) for line in situation.layout.to_text().splitlines()]
    for u in situation.units:
        lines[2 * u.position[1] + 1][2 * u.position[0] + 1] = u.letter
    width = len(str(situation.layout.height))
    letters = "".join(f"{column_name(x):<2}" for x in range(situation.layout.width))
    out = [" " * (width + 2) + letters.rstrip()]
    for i, line in enumerate(lines):
        number = str(i // 2 + 1) if i % 2 else ""
        out.append(f"{number:>{width}} " + "".join(line))
    return "\n".join(out)


def _legend(situation: Situation) -> list[str]:
    layout = situation.layout
    kinds = {layout.space(x, y) for y in range(layout.height) for x in range(layout.width)}
    spaces = ", ".join(f"{k.value} {_SPACE_WORDS[k]}" for k in SpaceKind if k in kinds)
    state = situation.base
    units = ", ".join(f"{u.letter} = {state.unit(u.id).name} ({state.unit(u.id).side}) on "
                      f"{space_name(u.position)}" for u in situation.units)
    return [f"Spaces: {spaces}. {_BORDERS}", f"Units: {units}." if units else "No units."]


def _differs(situation: Situation, value: object, in_force: object) -> str:
    """What differs from the answer in force, after an answer (or nothing)."""
    text = difference_words(difference(value, in_force))
    return f" ([i]differs[/i]: {_bb(with_names(situation, text))})" if text else ""


def _bb(text: str) -> str:
    """Text with BBCode's brackets made harmless (a ``[`` opens no tag)."""
    return text.replace("[", "(").replace("]", ")")


def to_bbcode(situation: Situation, rules: Rules | None = None,
              found: tuple[Sensitive, ...] | None = None, link: str = "") -> str:
    """The situation, its answers and every ruling that changes them, as a BoardGameGeek post.
    """
    rules = situation.rules() if rules is None else rules
    found = sensitivity(situation, rules) if found is None else found
    flips = ", ".join(f"{k} = {v}" for k, v in situation.rulings)
    words = {q.name: _bb(question_words(situation, q)) for q in situation.questions}
    out = [f"[size=14][b]{_bb(situation.title)}[/b][/size]", "",
           "[c]", board_text(situation), "[/c]", *map(_bb, _legend(situation)), "",
           f"Rules in force: {rules.name}" + (f" ({flips})" if flips else "") + ".", "",
           "[size=12][b]Answers[/b][/size]", ""]
    for a in ask(situation, rules):
        out.append(f"[b]{words[a.name]}[/b]")
        out.append(_bb(with_names(situation, show_value(a.value))))
        out += [f"[size=8]- {_bb(with_names(situation, why))}[/size]" for why in a.why if why]
        out.append("")
    out += ["[size=12][b]Rulings that change the answers[/b][/size]", ""]
    if not found:
        out.append("No other reading of any switch changes these answers.")
    prose = load_rulings() if found else {}
    for f in found:
        out.append(f"[b]{_bb(prose[f.switch].question)}[/b] (switch {f.switch}, in force: "
                   f"{f.in_force})")
        first = dict(f.answers[0][1])
        for reading, values in f.answers:
            shown = dict(values)
            out.append(f"[i]{reading}[/i]: " + "; ".join(
                f"{words[q]} {_bb(with_names(situation, show_value(shown[q])))}"
                + ("" if reading == f.in_force else _differs(situation, shown[q], first[q]))
                for q in f.changed))
        out.append("")
    if link:
        out += ["", f"[url={link}]Open this situation in the rules explorer[/url]"]
    return "\n".join(out).rstrip() + "\n"
