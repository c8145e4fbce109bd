"""The Rulings tab: every ruling as a question, grouped by topic and searchable; compare the
reading in force with another on every shipped situation that shows it, boards and answers
side by side; or use a reading everywhere.

Every switch's question, readings and sources come from ``content/rulings``
(:func:`machina_nb.rules.rulings.load_rulings`); the situations are the files of
``content/situations`` whose ``shows`` lists the switch, read when the panel is built (a
new situation file shows up with no change here). Each situation is answered by the rules
core (:func:`machina_nb.rules.analysis.ask.ask`) under its own rules with the switch set to
reading A (the one in force) and to reading B (the one compared); each side has its board
with the marks of the answers that differ, drawn as a picture
(:mod:`machina_nb.views.picture`) in the same HTML as the answers, so a board and its
answers always change together.

``panel.rules`` is the rules in force: assigning it shows that reading as A; "use this reading
everywhere" assigns ``panel.rules`` itself (the explorer app hands that to every tab), while
"compare" changes only what B shows.
"""

from __future__ import annotations

import html
import re
from dataclasses import replace
from fractions import Fraction
from typing import Any, Mapping

import ipywidgets as widgets
import traitlets

from machina_nb.rules.analysis.ask import Answer, ask
from machina_nb.rules.analysis.questions import Question
from machina_nb.rules.analysis.situation import Situation, load_situations
from machina_nb.rules.board import sight
from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.maptext import Point
from machina_nb.rules.numbers import percent_words
from machina_nb.rules.rulings import SWITCHES, TOPICS, Rules, load_rulings
from machina_nb.rules.rulings_words import (
    cite_words,
    find_switches,
    label,
    question,
    topic,
    topic_title,
)
from machina_nb.views.board import Highlights, legend_html, plain_text, sight_line_highlights
from machina_nb.views.picture import merged_columns, picture_columns, space_px, svg_board
from machina_nb.views.reference import RuleLinks, manual_links
from machina_nb.views.rulings_peers import PEER_BOARDS, peer_cases_html
from machina_nb.views.words import question_words, rules_words, unit_names

__all__ = ["situation_marks", "RulingsPanel"]

_FRACTION = re.compile(r"^-?\d+/\d+$")
_BY_TOPIC = sorted(SWITCHES, key=lambda n: list(TOPICS).index(topic(n)))
"""Every switch, topic by topic (the order of TOPICS), declaration order within a topic."""


def _value_html(value: Any, key: str = "") -> str:
    """An answer's value in words: chances with their percentage, coordinates as the board
    labels them, lists joined, tables as lists (a monster's steps numbered)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        items = "".join(f"<li>{html.escape(str(k).replace('_', ' '))}: {_value_html(v, str(k))}"
                        "</li>" for k, v in value.items())
        return f"<ul>{items}</ul>" if items else "nothing"
    if isinstance(value, (list, tuple)):
        if key == "steps" and value:
            return "<ol>" + "".join(f"<li>{_value_html(v)}</li>" for v in value) + "</ol>"
        return ", ".join(_value_html(v) for v in value) or "none"
    text = str(value)
    if _FRACTION.match(text):
        return f"{text} ≈ {percent_words(Fraction(text))}"
    return html.escape(_math_words(plain_text(text)))


def _math_words(text: str) -> str:
    """A distance as written by hand (``2*sqrt(26)`` -> ``2√26``), and a start the monster
    could not walk from said in words (the engine writes ``(was None)``)."""
    text = text.replace("(was None)", "(from where it stood, it could not walk there)")
    return re.sub(r"sqrt\((\d+)\)", r"√\1", text).replace("*", "")


def _answers_html(situation: Situation, answers: tuple[Answer, ...], changed: set[str],
                  names: Mapping[str, str]) -> str:
    """Each answer with its question and why; the answers that differ between the readings
    first, marked ≠, the others folded away when some differ."""
    differ: list[str] = []
    same: list[str] = []
    for q, a in zip(situation.questions, answers):
        differs = a.name in changed
        why = "".join(f"<li>{manual_links(_math_words(plain_text(cite_words(line))))}</li>"
                      for line in a.why if line)
        (differ if differs else same).append(
            f"<div class='rulings-answer' data-question='{html.escape(a.name)}' "
            f"data-differs='{'yes' if differs else 'no'}' style='margin:6px 0'>"
            f"<b>{'≠ ' if differs else ''}{html.escape(question_words(situation, q, names))}"
            f"</b><div>{_value_html(a.value)}</div>"
            + (f"<details><summary>Why (the rules cited)</summary><ul>{why}</ul></details>"
               if why else "") + "</div>")
    if not differ or not same:
        return "".join(differ + same)
    return ("".join(differ) + f"<details><summary>{len(same)} more answer"
            f"{'s' if len(same) != 1 else ''}, the same under both readings</summary>"
            + "".join(same) + "</details>")


# --- the marks of an answer on its board --------------------------------------------------------

_BOARD_FREE = {"rounds"}
_ENDS = ("asker", "asked")
_POINT = re.compile(r"\((-?\d+), (-?\d+)\)")


def _points(text: str) -> list[Point]:
    return [(int(x), int(y)) for x, y in _POINT.findall(text)]


def _at(situation: Situation, ref) -> Point:
    if isinstance(ref, (list, tuple)):
        return (ref[0], ref[1])
    return next(u.position for u in situation.units if u.letter == ref)


def _line_marks(situation: Situation, board: Board, q: Question, answer: Answer,
                rules: Rules) -> Highlights:
    """Rules: manual p22 (line of sight, adjacent), p23 (ranged: units block the line)."""
    a, b = _at(situation, q.get("from")), _at(situation, q.get("to"))
    if q.ask == "sight":
        return sight_line_highlights(a, b, sight.line_of_sight(board, a, b, rules), ends=_ENDS)
    if q.ask == "target":
        shot = sight.can_target(board, a, b, rules, q.get("icon", "melee"), q.get("range", 0))
        return sight_line_highlights(a, b, shot.sight, answer.value == "legal", _ENDS)
    return sight_line_highlights(a, b, None, answer.value == "adjacent", _ENDS)


def _answer_marks(situation: Situation, board: Board, q: Question, answer: Answer,
                  rules: Rules) -> Highlights:
    """What ``answer`` marks on the board."""
    value = answer.value
    if q.ask in ("sight", "target", "adjacent"):
        return _line_marks(situation, board, q, answer, rules)
    if q.ask == "reach":
        start = _at(situation, q.get("unit"))
        return Highlights(tuple((p, "reach") for p in _points(" ".join(value)))
                          + ((start, "asker"),))
    if q.ask in ("nearest", "closest"):
        tied = [_at(situation, t) if not t.startswith("(") else _points(t)[0]
                for t in value["tied"]]
        return Highlights(tuple((p, "tied") for p in tied)
                          + ((_at(situation, q.get("from")), "asker"),))
    if q.ask == "monster_turn":
        route = [_at(situation, q.get("monster"))]
        route += [_points(step)[0] for step in value["steps"] if step.startswith("moves to")]
        chosen = [p for step in value["steps"] if step.startswith("the players choose")
                  for p in _points(step)]  # the ends the players choose between
        ends = [p for p in _points(value["end"]) + chosen if p != route[0]]
        lines = tuple((((p[0] + .5, p[1] + .5), (r[0] + .5, r[1] + .5)), "path")
                      for p, r in zip(route, route[1:]))
        return Highlights(((route[0], "monster"),) + tuple((p, "end") for p in ends), lines)
    if q.ask == "spawn":
        return Highlights(tuple((p, "spawn") for p in _points(" ".join(value))))
    if q.ask == "push":
        start = _at(situation, q.get("unit"))
        stops = {_points(v)[0] for v in value if _points(v)} - {start}
        return Highlights(((start, "asker"),) + tuple((p, "end") for p in sorted(stops)))
    if q.ask == "teleport":
        return Highlights(tuple((p, "can end here") for p in _points(" ".join(value)))
                          + ((_at(situation, q.get("unit")), "asker"),))
    if q.ask == "play":
        return _play_marks(situation, board, value)
    return Highlights()


def _play_marks(situation: Situation, board: Board, value) -> Highlights:
    """Rules: the pages each step cites (ask: play): the units that moved, from and to."""
    moved = []
    for u in situation.units:
        ends = _points(value.get("positions", {}).get(u.letter, ""))
        if ends and ends[0] != u.position and ends[0] in board:
            moved += [(u.position, "asker"), (ends[0], "end")]
    return Highlights(tuple(moved))


def situation_marks(situation: Situation, board: Board, answers: tuple[Answer, ...],
                    rules: Rules, marked: set[str]) -> Highlights:
    """The marks of the answers named in ``marked``, on one board."""
    found = Highlights()
    for q, a in zip(situation.questions, answers):
        if a.name in marked:
            more = _answer_marks(situation, board, q, a, rules)
            found = replace(found, spaces=found.spaces + more.spaces,
                            lines=found.lines + more.lines, points=found.points + more.points)
    return found


# --- the panel ----------------------------------------------------------------------------------

class RulingsPanel(widgets.VBox):
    """The rulings as questions: find one by topic or by a word, read its readings in plain
    words, compare the reading in force with another on every shipped situation that shows it
    (boards and answers side by side), and, as a separate action, use a reading everywhere.

    Widgets (with CSS classes): ``search`` (``rulings-search``: a word of a question, a reading's
    label or a switch name), ``topic`` (``rulings-topic``), ``switch`` (``rulings-switch``: the
    questions found, by topic), ``compare`` (``rulings-compare``: the reading shown beside the
    one in force; changes nothing else), ``use`` (``rulings-use``: put the compared reading in
    force for every tab) and ``notice`` (``rulings-notice``: what that changed); the texts
    ``about`` (``rulings-about``: the question, each reading, sources) and ``shown``
    (``rulings-shown``: one ``rulings-case`` per situation, its sides ``rulings-side-a`` (in
    force) / ``-b`` (compared), each answer a ``rulings-answer`` with ``data-differs``), and
    ``working`` (``rulings-working``: a progress bar while the situations are answered).
    ``rules`` is the rules in force. ``situations`` defaults to the shipped ones
    (``content/situations``).
    """

    rules = traitlets.Instance(Rules)

    def __init__(self, rules: Rules | None = None, switch: str = "los.vertex",
                 situations: Mapping[str, Situation] | None = None):
        self._quiet, self._ready, self._using = False, False, False
        self.catalogue = load_rulings()
        found = load_situations() if situations is None else situations
        # the smallest boards first: a situation made for one switch before a big general one
        ordered = sorted(found.values(), key=lambda s: (s.layout.width * s.layout.height, s.id))
        self.shown_by = {name: tuple(s for s in ordered if name in s.shows) for name in SWITCHES}
        self._answers: dict[tuple[str, Rules], tuple[Answer, ...]] = {}
        self.search = widgets.Text(placeholder="a word of a question or a reading, or a switch",
                                   description="Find", layout={"width": "420px", "max_width": "100%"},
                                   continuous_update=True)
        self.search.add_class("rulings-search")
        self.topic = widgets.Dropdown(options=[("every topic", "")] + [
            (title, key) for key, title in TOPICS.items()], value="", description="Topic")
        self.topic.add_class("rulings-topic")
        self.switch = widgets.Select(options=self._options(list(_BY_TOPIC)), value=switch,
                                     description="Question", rows=10,
                                     layout={"width": "100%", "max_width": "760px"})
        self.switch.add_class("rulings-switch")
        self.found_count = widgets.HTML()
        self.found_count.add_class("rulings-found")
        self.compare = widgets.RadioButtons(description="Compare with",
                                            style={"description_width": "initial"},
                                            layout={"width": "max-content", "max_width": "100%"})
        self.compare.add_class("rulings-compare")
        self.use = widgets.Button(description="Use this reading everywhere", button_style="warning",
                                  tooltip="Put the compared reading in force for every tab",
                                  layout={"width": "260px"})
        self.use.add_class("rulings-use")
        self.notice = widgets.HTML()
        self.notice.add_class("rulings-notice")
        self.about = widgets.HTML()
        self.about.add_class("rulings-about")
        self.progress = widgets.IntProgress(value=0, min=0, max=1, bar_style="info")
        self.status = widgets.HTML()
        self.working = widgets.HBox([self.status, self.progress], layout={"display": "none"})
        self.working.add_class("rulings-working")
        self.shown = widgets.HTML()
        self.shown.add_class("rulings-shown")
        self.rule_links = RuleLinks()
        wrap = {"flex_flow": "row wrap"}    # one under the other on a narrow window
        super().__init__([widgets.HBox([self.search, self.topic], layout=wrap), self.found_count,
                          self.switch, self.about, self.rule_links,
                          widgets.HBox([self.compare, self.use],
                                                                layout=wrap), self.notice,
                          self.working, self.shown], rules=rules or Rules())
        self.search.observe(self._filter, "value")
        self.topic.observe(self._filter, "value")
        self.switch.observe(self._show_switch, "value")
        self.compare.observe(self._show, "value")
        self.use.on_click(lambda _: self.use_everywhere())
        self._ready = True
        self._show_switch()

    # --- finding a question --------------------------------------------------------------------

    def _options(self, names: list[str]) -> list[tuple[str, str]]:
        """Each switch as its topic and question, with how many situations show it."""
        def shown(name: str) -> str:
            count = len(self.shown_by[name])
            if not count:
                return "a board of the other game" if name in PEER_BOARDS else "no board"
            return f"{count} situation{'s' if count != 1 else ''}"
        return [(f"{topic_title(n)}: {question(n)} ({shown(n)})", n) for n in names]

    def _filter(self, _change=None) -> None:
        """Keep the questions of the topic picked holding every word searched for."""
        found = set(find_switches(self.search.value))
        names = [n for n in _BY_TOPIC if n in found
                 and (not self.topic.value or topic(n) == self.topic.value)]
        self.found_count.value = "" if len(names) == len(SWITCHES) else (
            f"<i>{len(names)} question{'s' if len(names) != 1 else ''} found</i>" if names else
            f"<i>No question, reading or switch holds {html.escape(self.search.value)!s}"
            + (" in this topic" if self.topic.value else "") + ".</i>")
        keep = self.switch.value if self.switch.value in names else None
        self._quiet = True
        self.switch.options = self._options(names)
        self.switch.value = keep or (names[0] if names else None)
        self._quiet = False
        if self.switch.value != keep:
            self._show_switch()

    # --- the readings -------------------------------------------------------------------------

    @traitlets.observe("rules")
    def _rules_changed(self, change) -> None:
        name = self.switch.value
        if self._ready and not self._using and name and \
                change["new"][name] != (change["old"] or Rules())[name]:
            self._show_switch()

    def use_everywhere(self) -> None:
        """Put the compared reading in force for every tab (``rules`` changes); the reading that
        was in force is offered for comparison, so the same button puts it back."""
        name, reading = self.switch.value, self.compare.value
        if name is None or reading is None:
            return
        was = self.rules[name]
        self._announce(name)
        self._using = True
        try:
            self.rules = self.rules.replace({name: reading})
        finally:
            self._using = False
        self._set_compare(keep=was)
        self._show()
        self.notice.value = (f"<p><b>Now in force everywhere:</b> {html.escape(label(name, reading))}"
                             f" (was: {html.escape(label(name, was))}).</p>")

    def _show_switch(self, _change=None) -> None:
        if self._quiet:
            return
        self.notice.value = ""
        name = self.switch.value
        if name is None:
            self.about.value = self.shown.value = ""
            self.rule_links.show("")
            self.compare.options = []
            return
        self._announce(name)
        self._set_compare()
        self._show()

    def _set_compare(self, keep: str | None = None) -> None:
        """Offer every reading but the one in force; keep ``keep`` (or the one compared) if it
        still differs from it, else pick the reading whose answers differ most."""
        name = self.switch.value
        a = self.rules[name]
        others = [r for r in SWITCHES[name].readings if r != a]
        keep = keep if keep in others else (self.compare.value if self.compare.value in others
                                            else None)
        self._quiet = True
        self.compare.options = [(label(name, r), r) for r in others]
        self.compare.value = keep or self._contrast(name, a, others)
        self._quiet = False
        self.use.disabled = not others

    def _contrast(self, name: str, a: str, others: list[str]) -> str | None:
        """The reading whose answers differ from A's in the most situations (the first such
        in declaration order); the first other reading when none differs."""
        def differing(reading: str) -> int:
            return sum(self._values(s, name, a) != self._values(s, name, reading)
                       for s in self.shown_by[name])
        counts = {reading: differing(reading) for reading in others}
        return max(others, key=lambda r: counts[r]) if others else None

    def _values(self, situation: Situation, name: str, reading: str) -> list:
        return [a.value for a in self._ask(situation, situation.rules().replace({name: reading}))]

    def _ask(self, situation: Situation, rules: Rules) -> tuple[Answer, ...]:
        key = (situation.id, rules)
        if key not in self._answers:
            self._answers[key] = ask(situation, rules)
            self.progress.value = min(self.progress.value + 1, self.progress.max)
        return self._answers[key]

    def _announce(self, name: str) -> None:
        """Show a progress bar over the situations' answers still to work out for ``name``
        (each reading; the first answers may take seconds), if any."""
        situations = self.shown_by[name]
        missing = {(s.id, s.rules().replace({name: r})) for s in situations
                   for r in SWITCHES[name].readings} - set(self._answers)
        if missing:
            self.status.value = (f"<i>Answering {len(situations)} situation"
                                 f"{'s' if len(situations) != 1 else ''} under each reading…</i>")
            self.progress.max, self.progress.value = len(missing), 0
            self.working.layout.display = ""

    # --- what is shown ------------------------------------------------------------------------

    def _show(self, _change=None) -> None:
        if self._quiet or self.switch.value is None:
            return
        name, b = self.switch.value, self.compare.value
        a = self.rules[name]
        self.about.value = self._about_html(name, a, b)
        self.rule_links.show(", ".join(self.catalogue[name].sources))
        situations = self.shown_by[name]
        if not situations:
            self.shown.value = peer_cases_html(name, a, b) or self._none_html(name)
            return
        self._announce(name)
        cases = [self._case_html(s, name, a, b) for s in situations]
        # the boards and the answers in one assignment: never an old board beside new answers
        self.shown.value = "".join(cases)
        self.working.layout.display = "none"

    def _none_html(self, name: str) -> str:
        example = self.catalogue[name].example
        why = ("This ruling is about another game's bag of chaos tokens, which has no board; the "
               "Other games tab gives the chances under it." if topic(name) == "other games" else
               "No shipped situation shows this ruling yet, so there is no board to compare here.")
        return (f"<p class='rulings-none'><i>{why}</i>" + (
                    " Where its readings differ, in the ruling's own words:</p><pre "
                    f"style='white-space:pre-wrap'>{html.escape(example)}</pre>"
                    if example.strip() else "</p>"))

    def _about_html(self, name: str, a: str, b: str | None) -> str:
        ruling = self.catalogue[name]
        marks = {a: "in force", b: "compared"}
        items = "".join(
            f"<li data-reading='{html.escape(r)}'><b>{html.escape(label(name, r))}</b>"
            + "".join(f" ({w})" for w in (marks.get(r), "the manual's reading"
                                           if r == SWITCHES[name].default else None) if w)
            + f": {html.escape(text)}</li>" for r, text in ruling.readings.items())
        sources = ", ".join(ruling.sources)
        return (f"<h3 style='margin:4px 0'>{html.escape(question(name))}</h3>"
                f"<p>{html.escape(ruling.question)} <small class='rulings-id' style='color:#888'>"
                f"({html.escape(topic_title(name))}; {html.escape(name)})</small></p><ul>{items}"
                f"</ul><p>Sources: {manual_links(sources) if sources else 'the manual'}</p>")

    def _case_html(self, s: Situation, name: str, a: str, b: str | None) -> str:
        """One situation: its title, note and setup, then A and B side by side, then a legend."""
        base = s.rules()
        sides = [(a, base.replace({name: a}), "a", "in force")]
        if b is not None:
            sides.append((b, base.replace({name: b}), "b", "compared"))
        answers = [self._ask(s, rules) for _, rules, _, _ in sides]
        changed = {x.name for x, y in zip(answers[0], answers[-1]) if x.value != y.value}
        names = unit_names(s)
        board = Board.from_layout(s.layout)
        for token in dict.fromkeys(s.base.destroyed):     # the destroyed tokens set out
            board = board.with_destroyed(token)
        drawn = any(q.ask not in _BOARD_FREE for q in s.questions)
        columns, cells = [], []
        for (reading, rules, side, role), got in zip(sides, answers):
            picture = ""
            if drawn:
                marks = situation_marks(s, board, got, rules, changed)
                columns.append(picture_columns(board, marks))
                picture = svg_board(board, marks, px=space_px(board, 420))
            cells.append(f"<td class='rulings-side-{side}' style='vertical-align:top;padding:4px'>"
                         f"<b>{side.upper()}: {html.escape(label(name, reading))} "
                         f"({role})</b><div style='overflow-x:auto'>{picture}</div>"
                         f"{_answers_html(s, got, changed, names)}</td>")
        same = "" if changed or b is None else (
            "<p><i>Here both readings give the same answers.</i></p>")
        if drawn:
            cells.append("<td class='rulings-legend' style='vertical-align:top;width:250px'>"
                         f"{legend_html(merged_columns(*columns), unit_names(s, side=True))}</td>")
        else:
            same += "<p><i>The board plays no part in these answers.</i></p>"
        note = f"<p>{html.escape(s.note)}</p>" if s.note else ""
        return (f"<div class='rulings-case' data-situation='{html.escape(s.id)}' "
                "style='border-top:1px solid #ccc;margin-top:10px'>"
                f"<h4>{html.escape(s.title)}</h4>{note}<p class='rulings-setup'>Answered under "
                f"this situation's own rules ({html.escape(rules_words(s.preset, base))}) with "
                "this ruling set to each reading. ≠ marks an answer that differs.</p>"
                f"{same}<table style='width:100%;table-layout:fixed'><tr>{''.join(cells)}</tr>"
                "</table></div>")
