"""The Analysis board tab: build a situation, ask the rules about it, find the rulings that
change the answers, and share it.

The tab is a :class:`machina_nb.views.editor.SituationEditor` over four panels:

* **Ask**: every unit or space clicked with the *ask about* tool (a list: each stays asked
  until removed, and can be moved up or down; :class:`machina_nb.views.asked.AskedList`), and
  the situation's own questions, answered at the rules in force by
  :func:`machina_nb.rules.analysis.ask.ask`
  (sight and targeting explained, reach, nearest and closest with every tie, a mindless
  monster's whole turn step by step with each step's reasons, the exact chance of each
  attack, spawn placement); the answer picked is marked on the board.
* **Rulings that change the answers**, on demand (a button, with a progress bar):
  :func:`machina_nb.rules.analysis.sensitivity.sensitivity`, the answers side by side per
  reading, and the board under each reading of the switch picked.
* **File**: the situation as text (copy it, or paste one and load it), a download link and
  an upload button. The file names the rules in force.
* **Share**: a link that opens this situation in the app (:mod:`machina_nb.rules.analysis.share`;
  a page opened with one shows it here, :func:`machina_nb.views.share.open_shared`); the board
  with the answers' sight lines and routes as a PNG picture to download
  (:func:`machina_nb.views.png.png_link`); Markdown with the board as SVG and the answers under each reading
  (:func:`machina_nb.rules.analysis.export.to_markdown`) and the same as BoardGameGeek BBCode
  (:func:`machina_nb.rules.analysis.bbcode.to_bbcode`), each with a copy button.

The rules in force are the app's (``view.rules``). A situation that names other rules
offers them; they apply here only when the user says so.

Rules: manual p13, p15-17, p22-24, p34 (per question).
"""

from __future__ import annotations

import base64
import html
from dataclasses import replace
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

import ipywidgets as widgets
import traitlets
from jupyter_bokeh.widgets import BokehModel

from machina_nb.rules.analysis.ask import Answer, ask, questions_about, show_value
from machina_nb.rules.analysis.bbcode import to_bbcode
from machina_nb.rules.analysis.card_draft import CardDraft, with_card
from machina_nb.rules.analysis.difference import Difference, difference, difference_words
from machina_nb.rules.analysis.draft import (
    Draft,
    draft_of_situation,
    rules_parts,
    to_situation,
    to_toml,
    with_choice,
    with_questions,
    with_roll,
    with_rules,
)
from machina_nb.rules.analysis.export import board_scene, to_markdown, with_names
from machina_nb.rules.analysis.marks import ROLE_OF_MARK, answer_highlights
from machina_nb.rules.analysis.own_cards import OwnCards, load_card_folder
from machina_nb.rules.analysis.sensitivity import Sensitive, sensitivity
from machina_nb.rules.analysis.share import (
    situation_from_link,
    situation_link,
    without_carried,
)
from machina_nb.rules.analysis.situation import Situation, situation_from_text
from machina_nb.rules.errors import ContentError, RulesError
from machina_nb.rules.rulings import Rules, load_rulings
from machina_nb.rules.rulings_words import cite_words, label, question
from machina_nb.views import setup_notebook
from machina_nb.views.asked import AskedList
from machina_nb.views.board import (
    BoardView,
    Highlights,
    legend_html,
    plain_text,
    render_board,
    space_name,
)
from machina_nb.views.card_editor import CardEditor
from machina_nb.views.danger import phase_answer_html
from machina_nb.views.danger_tool import DangerTool
from machina_nb.views.editor import SituationEditor, draft_board, draft_from_start, replace_title
from machina_nb.views.fit import board_holder
from machina_nb.views.odds import exact
from machina_nb.views.png import png_link
from machina_nb.views.reference import RuleLinks, manual_links
from machina_nb.views.share import copy_button, page_base
from machina_nb.views.words import question_words, rules_words, unit_words

__all__ = ["AnalysisBoardView", "ROLE_OF_MARK",
           "answer_html", "answer_highlights", "sensitivity_html", "download_link"]

_START = "situation:sarall_door"
_SLOW = ("monster_phase", "risk_map")  # questions that may take seconds: a line says so first
_WIDE = {"description_width": "initial"}  # a label never cut short


def _rules_words(rules: Rules) -> str:
    """The rules as words: the nearest preset and each switch flipped from it."""
    return rules_words(rules_parts(rules)[0], rules)


def _words(text) -> str:
    """Text for the page: spaces as the board labels them, rulings by their plain words."""
    return html.escape(plain_text(cite_words(str(text))))


def _value_html(a: Answer) -> str:
    v = a.value
    if a.kind == "sight":
        return "Yes: in sight." if v == "visible" else "No: out of sight."
    if a.kind == "target":
        return "Yes, a legal target." if v == "legal" else "No, not a legal target."
    if a.kind == "reach":
        return f"{len(v)} other spaces (outlined when marked on the board)."
    if a.kind in ("nearest", "closest"):
        if v["distance"] == "unreachable":
            return "No unit can be reached."
        tied = " and ".join(v["tied"])
        tie = " (a tie: the players choose)" if len(v["tied"]) > 1 else ""
        return f"{html.escape(tied)}, at distance {html.escape(v['distance'])}{tie}."
    if a.kind == "attack_odds":
        return "<br>".join(f"{html.escape(k)}: <b>{exact(Fraction(p))}</b>"
                           for k, p in v.items()) or "It has no attack."
    if a.kind == "risk_map":
        return (f"{len(v['spaces'])} spaces it can end its move on; the danger tool colours "
                "them on the board.")
    if a.kind == "spawn":
        return ("On " + ", ".join(_words(p) for p in v) + ".") if v else \
            "Nowhere: no spawn space on its tile."
    return _words(show_value(v))


def _turn_html(situation: Situation, a: Answer) -> str:
    v = a.value
    rows = []
    for i, step in enumerate(v["steps"]):
        reasons = a.why[i] if i < len(a.why) else ""
        rows.append(f"<li><b>{_words(with_names(situation, step))}</b><br>"
                    f"<small>{manual_links(plain_text(cite_words(str(with_names(situation, reasons)))))}"
                    "</small></li>")
    end = "removed from the board" if v["end"] == "removed" else f"on {_words(v['end'])}"
    return (f"<ol class='analysis-turn-steps'>{''.join(rows)}</ol>"
            f"It stands {end} with {v['stamina_left']} stamina left.")


def answer_html(situation: Situation, a: Answer) -> str:
    """One answer as HTML: the question in words, the answer, and why (with its citations)."""
    q = next(q for q in situation.questions if q.name == a.name)
    body = _turn_html(situation, a) if a.kind == "monster_turn" else \
        phase_answer_html(situation, a.value) if a.kind == "monster_phase" else _value_html(a)
    why = "" if a.kind == "monster_turn" else "".join(
        f"<li>{manual_links(plain_text(cite_words(str(w))))}</li>" for w in a.why if w)
    return (f"<div class='analysis-answer' data-question='{html.escape(a.name)}'>"
            f"<b>{html.escape(question_words(situation, q))}</b><br>{body}"
            + (f"<ul class='analysis-why'><small>{why}</small></ul>" if why else "") + "</div>")


def _cell_words(situation: Situation, kind: str, value) -> str:
    """An answer's value in a few words, for a table of readings side by side."""
    if kind == "monster_turn":
        end = "removed" if value["end"] == "removed" else f"on {value['end']}"
        return _words(with_names(situation, ", ".join(value["steps"])) + f"; ends {end} with "
                      f"{value['stamina_left']} stamina left")
    if kind in ("nearest", "closest"):
        return _words(" and ".join(value["tied"]) + f" at {value['distance']}"
                      if value["tied"] else "none reachable")
    if kind == "attack_odds":
        return "; ".join(f"{html.escape(k)}: {exact(Fraction(p))}" for k, p in value.items())
    if kind == "reach":
        return _words(f"{len(value)} spaces: " + ", ".join(value))
    return _words(show_value(value))


def sensitivity_html(situation: Situation, found: tuple[Sensitive, ...]) -> str:
    """The switches whose other readings change an answer, each with the answers side by side
    per reading and the ruling's question; or the sentence saying that none does."""
    if not found:
        return ("<p class='analysis-none'><b>No other reading of any ruling changes these "
                "answers.</b> Every ruling the rules read here gives the same answers.</p>")
    prose = load_rulings()
    parts = [f"<p><b>{len(found)} ruling{'s' if len(found) != 1 else ''} change"
             f"{'' if len(found) != 1 else 's'} an answer:</b></p>"]
    questions = {q.name: q for q in situation.questions}
    for f in found:
        head = "".join(f"<th>{html.escape(question_words(situation, questions[n]))}</th>"
                       for n in f.changed)
        rows, first = [], dict(f.answers[0][1])
        for reading, values in f.answers:
            shown = dict(values)
            mark = " (in force)" if reading == f.in_force else ""
            cells = "".join(f"<td>{_cell_words(situation, questions[n].ask, shown[n])}"
                            + ("" if reading == f.in_force else _difference_html(
                                situation, difference(shown[n], first[n]))) + "</td>"
                            for n in f.changed)
            rows.append(f"<tr><td><b>{html.escape(label(f.switch, reading))}</b>{mark}<br><small>"
                        f"{html.escape(prose[f.switch].readings.get(reading, ''))}</small></td>"
                        f"{cells}</tr>")
        parts.append(f"<div class='analysis-sensitive' data-switch='{html.escape(f.switch)}'>"
                     f"<h4>{html.escape(question(f.switch))}</h4><p>"
                     f"{html.escape(prose[f.switch].question)} <small style='color:#777'>"
                     f"({html.escape(f.switch)})</small></p><table class='analysis-readings'><tr><th>reading</th>{head}</tr>"
                     f"{''.join(rows)}</table></div>")
    return "".join(parts)


def _difference_html(situation: Situation, d: Difference) -> str:
    """What differs from the answer in force, named (nothing when the answers differ as a
    whole, a word or a number)."""
    text = difference_words(d)
    if not text:
        return ""
    return (f"<div class='analysis-differs'><small><b>Differs:</b> "
            f"{_words(with_names(situation, text))}.</small></div>")


def download_link(text: str, filename: str, label: str, css: str, kind: str = "text/plain") -> str:
    """An HTML link that saves ``text`` as ``filename`` (a data URI: it works in Voila)."""
    data = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return (f"<a class='{css}' download='{html.escape(filename)}' "
            f"href='data:{kind};charset=utf-8;base64,{data}' style='padding:4px 10px;"
            f"border:1px solid #888;border-radius:3px;background:#f2f2f2;color:#111;"
            f"text-decoration:none'>{html.escape(label)}</a>")


class AnalysisBoardView(widgets.VBox):
    """The Analysis board tab (see the module docstring). ``rules`` are the app's rules.

    Attributes: ``editor`` (:class:`SituationEditor`), ``asked`` (the units and spaces asked
    about, :class:`AskedList`), ``situation`` (the situation asked, with the questions about
    each of them), ``answers`` (at the rules in force),
    ``found`` (the last sensitivity, or None when the situation changed since). CSS classes
    for tests: ``analysis-rules``, ``analysis-offer``, ``analysis-apply-rules``,
    ``analysis-app-rules``, ``analysis-answers``, ``analysis-marked``, ``analysis-choice``,
    ``analysis-find``, ``analysis-progress``, ``analysis-sensitivity``,
    ``analysis-reading-switch``, ``analysis-reading-question``, ``analysis-reading-boards``,
    ``analysis-title``, ``analysis-text``, ``analysis-load-text``, ``analysis-upload``,
    ``analysis-file-message``, ``analysis-save``, ``analysis-export``,
    ``analysis-export-text``, ``analysis-export-link``, ``analysis-link-message``,
    ``analysis-link-text``, ``analysis-bbcode-text``, ``analysis-copy-link``,
    ``analysis-copy-markdown``, ``analysis-copy-bbcode``, ``analysis-png``, ``analysis-share``.
    """

    rules = traitlets.Instance(Rules)

    def __init__(self, rules: Rules | None = None, draft: Draft | None = None):
        setup_notebook()
        self.local_rules: Rules | None = None
        self._answered_choices: dict = {}
        self.picked_questions: tuple = ()
        self.found: tuple[Sensitive, ...] | None = None
        self.answers: tuple[Answer, ...] = ()
        self.editor = SituationEditor(draft or draft_from_start(_START))
        self.editor.start.value = _START if draft is None else self.editor.start.value
        self._rules_widgets()
        self._ask_widgets()
        self._sensitivity_widgets()
        self._file_widgets()
        self._share_widgets()
        self.library = OwnCards()
        self.card_editor = CardEditor(self.save_card, self.use_card_folder)
        super().__init__([
            self.link_message, self.rules_box, self.editor,
            widgets.HTML("<h3>Your own cards</h3>"), self.card_editor,
            widgets.HTML("<h3>Rulings that change the answers</h3>"),
            widgets.HBox([self.find_button, self.progress]), self.sensitive_html,
            widgets.HBox([self.reading_switch, self.reading_question]), self.reading_boards,
            widgets.HTML("<h3>File</h3>"), self._file_box(),
            widgets.HTML("<h3>Share</h3>"), self._share_box(),
        ], rules=rules or Rules())
        self.add_class("analysis-tab")
        self.editor.observe(self._draft_changed, "draft")
        self.editor.observe(self._picked, "picked")
        self.asked.observe(lambda _: self.refresh(), "picks")
        self.card_editor.set_cards(self.editor.draft.cards)
        if self.card_editor.folder.value:
            self.card_editor.use_folder(self.card_editor.folder.value)
        self.refresh()
        # what was marked before the tab is shown reaches the browser only when serialised again
        BoardView.refresh(self.editor.view.figure, self.editor.view.plot)

    # --- the rules in force ---------------------------------------------------------------------

    @property
    def in_force(self) -> Rules:
        """The rules the answers use: the app's, or the situation's once the user applied them."""
        return self.local_rules or self.rules

    def _rules_widgets(self) -> None:
        self.rules_line = widgets.HTML()
        self.rules_line.add_class("analysis-rules")
        self.offer_text = widgets.HTML()
        self.apply_rules = widgets.Button(description="answer under the situation's rules",
                                          layout=widgets.Layout(width="auto"))
        self.apply_rules.add_class("analysis-apply-rules")
        self.apply_rules.on_click(lambda _: self.use_situation_rules())
        self.offer = widgets.HBox([self.offer_text, self.apply_rules])
        self.offer.add_class("analysis-offer")
        self.app_rules = widgets.Button(description="back to the app's rules",
                                        layout=widgets.Layout(width="auto"))
        self.app_rules.add_class("analysis-app-rules")
        self.app_rules.on_click(lambda _: self.use_app_rules())
        self.rules_box = widgets.VBox([widgets.HBox([self.rules_line, self.app_rules]),
                                       self.offer])

    def use_situation_rules(self) -> None:
        """Answer under the rules the situation names (until the app's rules change)."""
        self.local_rules = self.editor.draft.rules()
        self.refresh()

    def use_app_rules(self) -> None:
        """Answer under the app's rules again."""
        self.local_rules = None
        self.refresh()

    @traitlets.observe("rules")
    def _app_rules_changed(self, _change) -> None:
        if hasattr(self, "editor"):
            self.local_rules = None
            self.refresh()

    def _show_rules(self) -> None:
        mine = self.in_force
        where = "the situation's" if self.local_rules else "the app's"
        self.rules_line.value = (f"<b>Rules in force here ({where}):</b> "
                                 f"{html.escape(_rules_words(mine))}")
        self.app_rules.layout.display = None if self.local_rules else "none"
        named = self.editor.draft.rules()
        differ = named != mine
        self.offer.layout.display = None if differ else "none"
        self.offer_text.value = (f"This situation names other rules: "
                                 f"<b>{html.escape(_rules_words(named))}</b>." if differ else "")

    # --- asking ------------------------------------------------------------------------------

    def _ask_widgets(self) -> None:
        self.marked = widgets.Dropdown(description="On the board", style=_WIDE,
                                       layout=widgets.Layout(width="auto", max_width="100%"))
        self.marked.add_class("analysis-marked")
        self.marked.observe(lambda _: self._mark(), "value")
        self.answers_html = widgets.HTML()
        self.answers_html.add_class("analysis-answers")
        self.rule_links = RuleLinks()
        self.choices = widgets.HBox()
        self.choices.add_class("analysis-choices")
        self.asked = AskedList(self._pick_words)
        self.danger = DangerTool(self.editor, self._asked, self._mark)
        # the answers beside the board (under it on a narrow window), before its legend
        view = self.editor.view
        view.answer.children = (*self.danger.widgets, self.asked, self.marked,
                                self.answers_html, self.rule_links, self.choices,
                                *view.answer.children)

    def _asked(self) -> tuple[Situation, Rules] | None:
        """The situation asked and the rules in force (None before the first answer)."""
        return (self.situation, self.in_force) if hasattr(self, "situation") else None

    def _pick_words(self, pick) -> str:
        if isinstance(pick, str):
            return html.escape(unit_words(self.situation, pick))
        return html.escape(space_name(pick))

    def _picked(self, change) -> None:
        """A unit or space asked about joins the list of what was asked (which refreshes)."""
        if change["new"] is None or change["new"] in self.asked.picks:
            self.refresh()
        else:
            self.asked.add(change["new"])

    def _on_board(self, pick) -> bool:
        draft = self.editor.draft
        if isinstance(pick, str):
            return any(u.letter == pick for u in draft.units)
        return 0 <= pick[0] < draft.layout.width and 0 <= pick[1] < draft.layout.height

    def _situation(self) -> Situation:
        draft = with_rules(self.editor.draft, self.in_force)
        base = situation_from_text(to_toml(draft), "the board")
        self.asked.keep(self._on_board)
        seen, about = {q.name for q in draft.questions}, []
        for pick in self.asked.picks:
            for q in questions_about(base, pick):
                if q.name not in seen:
                    seen.add(q.name)
                    about.append(q)
        self.picked_questions = tuple(self._answered_choices.get(q.name, q) for q in about)
        return situation_from_text(to_toml(with_questions(
            draft, self.picked_questions + draft.questions)), "the board")

    def refresh(self) -> None:
        """Ask again: the rules line, every answer at the rules in force, the marks, the file."""
        if not hasattr(self, "file_text"):
            return
        self._show_rules()
        try:
            self.situation = self._situation()
            if any(q.ask in _SLOW for q in self.situation.questions):
                self.answers_html.value = ("<p class='analysis-working'><i>Working: the exact "
                                           "monster phase, every die open…</i></p>")
            self.answers = ask(self.situation, self.in_force)
        except (RulesError, ContentError) as exc:
            self.answers_html.value = f"<p style='color:#b00020'>{_words(exc)}</p>"
            return
        self._show_answers()
        self._show_file()
        if self.found is not None and self._found_for != (self.situation, self.in_force):
            self.found = None
            self.sensitive_html.value = ("<p><i>The situation or the rules changed: press the "
                                         "button again.</i></p>")
            self.reading_boards.children = ()

    def _show_answers(self) -> None:
        asked = {q.name for q in self.picked_questions}
        parts, shown = [], set()
        for pick in self.asked.picks:
            mine = [a for a in self.answers if a.name in asked and a.name not in shown
                    and _mentions(next(q for q in self.situation.questions
                                       if q.name == a.name), pick)]
            shown |= {a.name for a in mine}
            parts.append(f"<h4>About {self._pick_words(pick)}</h4>"
                         + "".join(answer_html(self.situation, a) for a in mine))
        own = [answer_html(self.situation, a) for a in self.answers if a.name not in shown]
        if own:
            parts.append("<h4>The situation's own questions</h4>" + "".join(own))
        if not parts:
            parts.append("<p>Pick the <i>ask about</i> tool and click a unit or a space.</p>")
        self.answers_html.value = "".join(parts)
        self.rule_links.show("\n".join(str(w) for a in self.answers for w in a.why if w))
        options = [(question_words(self.situation, q), q.name) for q in self.situation.questions
                   if any(a.name == q.name and a.marks for a in self.answers)]
        keep, names = self.marked.value, [n for _, n in options]
        self.marked.options = [("nothing", "")] + options
        turns = [a.name for a in self.answers if a.kind == "monster_turn" and a.name in names]
        preferred = turns + names
        self.marked.value = keep if keep in names else \
            (preferred[0] if (self.asked.picks or turns) and preferred else "")
        self._mark()
        self._offer_choices()

    def _mark(self) -> None:
        if not hasattr(self, "situation"):
            return
        if self.danger.on:
            self.danger.show()
            return
        a = next((a for a in self.answers if a.name == self.marked.value), None)
        self.editor.show(answer_highlights(self.situation, a) if a else Highlights())

    def _offer_choices(self) -> None:
        buttons = []
        for a in self.answers:
            for option in a.options:
                label = self.situation.letter_of(option) if isinstance(option, str) else \
                    space_name(option)
                q = next(q for q in self.situation.questions if q.name == a.name)
                who = unit_words(self.situation, q.get("monster"))
                button = widgets.Button(description=f"choose {label or option} for {who}",
                                        layout=widgets.Layout(width="auto"))
                button.add_class("analysis-choice")
                button.on_click(lambda _, n=a.name, o=option: self.choose(n, o))
                buttons.append(button)
        self.choices.children = tuple(buttons + self._offer_rolls())

    def _offer_rolls(self) -> list[widgets.Button]:
        buttons = []
        for a in self.answers:
            if not a.rolls:
                continue
            die, outcomes = a.rolls
            for value, chance in dict(outcomes).items():
                button = widgets.Button(description=f"the {die} die shows {value} "
                                                    f"({exact(chance)})",
                                        layout=widgets.Layout(width="auto"))
                button.add_class("analysis-roll")
                button.on_click(lambda _, n=a.name, v=value: self.choose(n, v, roll=True))
                buttons.append(button)
        return buttons

    def choose(self, name: str, option, roll: bool = False) -> None:
        """Go on with a monster's turn once the players choose ``option`` (a unit id or a
        space), or, with ``roll``, once the die it waits for shows ``option``."""
        q = next(q for q in self.situation.questions if q.name == name)
        self._answered_choices[name] = with_roll(q, option) if roll else with_choice(q, option)
        draft = self.editor.draft
        if any(q.name == name for q in draft.questions):
            self.editor.set_draft(with_questions(draft, [
                self._answered_choices.pop(name) if x.name == name else x
                for x in draft.questions]), "The players' choice is kept in the situation.")
        else:
            self.refresh()

    def _draft_changed(self, change) -> None:
        old, new = change["old"], change["new"]
        self.card_editor.set_cards(new.cards)
        if (old.layout, old.units) != (new.layout, new.units):
            self._answered_choices.clear()
        if old.id != new.id and self.asked.picks:   # what was asked was about another situation
            self.asked.picks = ()                    # (which refreshes)
        else:
            self.refresh()

    # --- sensitivity --------------------------------------------------------------------------

    def _sensitivity_widgets(self) -> None:
        self._found_for: tuple[Situation, Rules] | None = None
        self.find_button = widgets.Button(description="find the rulings that change these answers",
                                          button_style="primary",
                                          layout=widgets.Layout(width="auto"))
        self.find_button.add_class("analysis-find")
        self.find_button.on_click(lambda _: self.find())
        self.progress = widgets.IntProgress(value=0, min=0, max=1, description="",
                                            layout=widgets.Layout(width="240px"))
        self.progress.add_class("analysis-progress")
        self.sensitive_html = widgets.HTML("<p>Press the button: every ruling whose other "
                                           "readings change an answer here.</p>")
        self.sensitive_html.add_class("analysis-sensitivity")
        self.reading_switch = widgets.Dropdown(description="Boards for", style=_WIDE,
                                               layout=widgets.Layout(width="340px"))
        self.reading_switch.add_class("analysis-reading-switch")
        self.reading_question = widgets.Dropdown(description="Question", style=_WIDE,
                                                 layout=widgets.Layout(width="520px"))
        self.reading_question.add_class("analysis-reading-question")
        self.reading_boards = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.reading_boards.add_class("analysis-reading-boards")
        self.reading_switch.observe(
            lambda _: self._switch_picked() if self._drawing else None, "value")
        self._drawing: bool = True
        self.reading_question.observe(
            lambda _: self.draw_readings() if self._drawing else None, "value")

    def find(self) -> tuple[Sensitive, ...]:
        """Find the switches whose other readings change an answer (with a progress bar)."""
        self.progress.max, self.progress.value, self.progress.bar_style = 1, 0, "info"
        self.sensitive_html.value = "<p><i>Asking each question under the other readings…</i></p>"
        self.found = sensitivity(self.situation, self.in_force, progress=self._progressed)
        self._found_for = (self.situation, self.in_force)
        self.progress.value, self.progress.bar_style = self.progress.max, "success"
        self.sensitive_html.value = sensitivity_html(self.situation, self.found)
        self._drawing = False        # one drawing below, not one per widget change
        try:
            self.reading_switch.options = [(question(f.switch), f.switch) for f in self.found]
            self.reading_switch.value = self.found[0].switch if self.found else None
        finally:
            self._drawing = True
        self._switch_picked()
        return self.found

    def _progressed(self, done: int, total: int) -> None:
        self.progress.max, self.progress.value = max(total, 1), done

    def _switch_picked(self) -> None:
        f = next((f for f in self.found or () if f.switch == self.reading_switch.value), None)
        questions = {q.name: q for q in self.situation.questions}
        self._drawing = False
        try:
            self.reading_question.options = [] if f is None else [
                (question_words(self.situation, questions[n]), n) for n in f.changed]
            turns = [q.name for q in self.situation.questions if q.ask == "monster_turn"]
            self.reading_question.value = None if f is None else \
                ([n for n in f.changed if n in turns] + list(f.changed))[0]
        finally:
            self._drawing = True
        self.draw_readings()

    def draw_readings(self) -> None:
        """The board under each reading of the switch picked, marked with the question picked."""
        f = next((f for f in self.found or () if f.switch == self.reading_switch.value), None)
        if f is None or not self.reading_question.value:
            self.reading_boards.children = ()
            return
        board = draft_board(self.editor.draft)
        names = dict(self.editor.view.names)
        boxes, drawn = [], []
        answers = [next(a for a in ask(self.situation, self.in_force.replace({f.switch: r}))
                        if a.name == self.reading_question.value) for r, _ in f.answers]
        for (reading, _), a in zip(f.answers, answers):
            shown = answer_highlights(self.situation, a, label(f.switch, reading))
            others = answers[1:] if a is answers[0] else answers[:1]
            only = {p for o in others
                    for p, _ in difference(list(a.marks), list(o.marks)).only_first}
            shown = replace(shown, spaces=shown.spaces + tuple((p, "differs")
                                                               for p in sorted(only)))
            figure, sources = render_board(board, shown, px_per_space=32)
            drawn.append(sources)
            caption = widgets.HTML(f"<b>{html.escape(label(f.switch, reading))}</b>"
                                   + (" (in force)" if reading == f.in_force else "")
                                   + f"<br><small>{_cell_words(self.situation, a.kind, a.value)}"
                                   "</small>" + ("" if a is answers[0] else _difference_html(
                                       self.situation, difference(a.value, answers[0].value))),
                                   layout=widgets.Layout(max_width="360px"))
            plot = BokehModel(figure)
            plot.add_class("analysis-reading-plot")
            boxes.append(widgets.VBox([caption, board_holder(plot, figure)],
                                      layout=widgets.Layout(margin="0 12px 0 0", min_width="0",
                                                            max_width="100%")))
        legend = widgets.HTML(legend_html(_merged(drawn), names))
        self.reading_boards.children = tuple(boxes) + (legend,)

    # --- file and share -----------------------------------------------------------------------

    def _file_widgets(self) -> None:
        self.title = widgets.Text(description="Title", layout=widgets.Layout(width="640px"),
                                  continuous_update=False)
        self.title.add_class("analysis-title")
        self.title.observe(self._title_changed, "value")
        self.save_link = widgets.HTML()
        self.upload = widgets.FileUpload(accept=".toml", multiple=False,
                                         description="load a situation file",
                                         layout=widgets.Layout(width="auto"))
        self.upload.add_class("analysis-upload")
        self.upload.observe(self._uploaded, "value")
        self.file_text = widgets.Textarea(layout=widgets.Layout(width="100%", max_width="760px", height="260px"))
        self.file_text.add_class("analysis-text")
        self.load_text = widgets.Button(description="load this text")
        self.load_text.add_class("analysis-load-text")
        self.load_text.on_click(lambda _: self.load(self.file_text.value, "the text"))
        self.file_message = widgets.HTML()
        self.file_message.add_class("analysis-file-message")
        self.export_button = widgets.Button(description="make the Markdown and BBCode",
                                            layout=widgets.Layout(width="auto"))
        self.export_button.add_class("analysis-export")
        self.export_button.on_click(lambda _: self.export())
        self.export_link = widgets.HTML()
        self.export_text = widgets.Textarea(
            placeholder="Press the button: the situation, its answers and the answers under "
                        "each reading, as Markdown with the board as a picture.",
            layout=widgets.Layout(width="100%", max_width="760px", height="200px"))
        self.export_text.add_class("analysis-export-text")

    def _share_widgets(self) -> None:
        self.link_message = widgets.HTML(layout=widgets.Layout(display="none"))
        self.link_message.add_class("analysis-link-message")
        self.link_text = widgets.Textarea(layout=widgets.Layout(width="100%", max_width="760px", height="64px"))
        self.link_text.add_class("analysis-link-text")
        self.bbcode_text = widgets.Textarea(
            placeholder="Press the button: the same for a BoardGameGeek forum post (BBCode, "
                        "the board as text).",
            layout=widgets.Layout(width="100%", max_width="760px", height="200px"))
        self.bbcode_text.add_class("analysis-bbcode-text")
        self.picture_link = widgets.HTML()   # the board with the answers' marks, as a PNG
        self.picture_link.add_class("analysis-png-box")

    def _share_box(self) -> widgets.Widget:
        def row(label, box, css):
            return widgets.HBox([copy_button(label, f".{box}", css)],
                                layout=widgets.Layout(margin="6px 0 0 0"))
        note = widgets.HTML("<small>A link that opens this situation, its questions and the "
                            "rules in force here, in the explorer.</small>")
        box = widgets.VBox([
            note, row("Copy link", "analysis-link-text", "analysis-copy-link"), self.link_text,
            widgets.HBox([self.picture_link], layout=widgets.Layout(margin="6px 0 0 0")),
            widgets.HBox([self.export_button, self.export_link]),
            row("Copy Markdown", "analysis-export-text", "analysis-copy-markdown"),
            self.export_text,
            row("Copy BBCode (BoardGameGeek)", "analysis-bbcode-text", "analysis-copy-bbcode"),
            self.bbcode_text])
        box.add_class("analysis-share")
        return box

    def open_link(self, query: str) -> bool:
        """Load the situation of a share link (its whole address or its query) and answer it
        under the rules it names; a bad link is one plain line at the top, nothing loaded."""
        try:
            text = situation_from_link(query)
        except RulesError as exc:
            self.link_message.value = (f"<p style='color:#b00020'><b>This link cannot be "
                                       f"opened</b>: {_words(str(exc).partition(': ')[2])}"
                                       "</p>")
            self.link_message.layout.display = None
            return False
        self.load(text, "the link", without_carried(self.library, text))
        if self.editor.draft.rules() != self.in_force:
            self.use_situation_rules()
        self.link_message.value = (f"<p>Opened from the link: <b>"
                                   f"{html.escape(self.editor.draft.title)}</b>.</p>")
        self.link_message.layout.display = None
        return True

    def _file_box(self) -> widgets.Widget:
        note = widgets.HTML("<small>The situation as a file (content/README.md). It names the "
                            "rules in force. Copy the text, or paste a situation and load it."
                            "</small>")
        return widgets.VBox([self.title, widgets.HBox([self.save_link, self.upload]),
                             self.file_message, note, self.file_text, self.load_text])

    def situation_text(self) -> str:
        """The situation file as it is saved: the board, its questions, the rules in force."""
        draft = with_rules(self.editor.draft, self.in_force)
        return to_toml(with_questions(draft, self.picked_questions + draft.questions))

    def _show_file(self) -> None:
        text = self.situation_text()
        self.file_text.value = text
        self.title.value = self.editor.draft.title
        self.save_link.value = download_link(text, f"{self.editor.draft.id}.toml",
                                             "save the situation file", "analysis-save")
        try:
            self.link_text.value = situation_link(text, page_base(), name="the situation",
                                                  cards=self.editor.draft.cards)
        except (ContentError, RulesError) as exc:
            self.link_text.value = ""
            self.link_text.placeholder = plain_text(str(exc))
        self.picture_link.value = png_link(board_scene(self.situation, self.answers),
                                           f"{self.editor.draft.id}.png")

    def save_card(self, card: CardDraft) -> str:
        """Put a card typed in the card editor into the situation (refused: its problem)."""
        self.editor.set_draft(with_card(self.editor.draft, card), f"{card.name} is saved.")
        return f"{card.name} is in the situation: place it with the place unit tool."

    def use_card_folder(self, path: str) -> str:
        """Use the card files of folder ``path`` (none: no folder) beside the situation's own
        cards; refused in one line when a card is bad or its id is taken."""
        library = load_card_folder(path) if path else OwnCards()
        draft = replace(self.editor.draft,
                        cards=library.joined(self.editor.draft.cards.typed_here()))
        to_situation(draft)
        self.library = self.card_editor.library = self.editor.library = library
        self.editor.set_draft(draft, "Card files read.")
        return f"{len(library.cards)} card(s) from your card files."

    def _title_changed(self, change) -> None:
        if change["new"] != self.editor.draft.title:
            self.editor.set_draft(replace_title(self.editor.draft, change["new"]),
                                  "Title changed.")

    def load(self, text: str, name: str, library: OwnCards | None = None) -> bool:
        """Load a situation from file text (refused with one line naming line:col; nothing
        changes); its questions come along, and its rules are offered, not applied. It knows
        the cards of ``library`` (default: the card files in use)."""
        try:
            situation = situation_from_text(text, name,
                                            self.library if library is None else library)
        except (ContentError, RulesError) as exc:
            self.file_message.value = f"<span style='color:#b00020'>{_words(exc)}</span>"
            return False
        self.editor.picked = None
        self.editor.set_draft(draft_of_situation(situation), f"Loaded {situation.title}.")
        self.file_message.value = f"Loaded <b>{html.escape(situation.title)}</b> from {name}."
        return True

    def _uploaded(self, change) -> None:
        files = change["new"]
        if not files:
            return
        got = files[0]
        try:
            text = bytes(got["content"]).decode("utf-8")
        except UnicodeDecodeError:
            self.file_message.value = ("<span style='color:#b00020'>That file is not text "
                                       "(UTF-8).</span>")
            return
        self.load(text, got.get("name", "the file"))

    def export(self) -> str:
        """The Markdown to share: the board as SVG, the answers, the answers under each reading,
        and the link that opens the situation; the same as BBCode (:attr:`bbcode_text`)."""
        found = self.found if self.found is not None else self.find()
        link = self.link_text.value
        text = to_markdown(self.situation, self.in_force, found)
        if link:
            text += f"\n[Open this situation in the rules explorer]({link})\n"
        self.bbcode_text.value = to_bbcode(self.situation, self.in_force, found, link)
        self.export_text.value = text
        self.export_link.value = download_link(text, f"{self.editor.draft.id}.md",
                                               "download the Markdown", "analysis-export-link",
                                               "text/markdown")
        return text


def _mentions(q, picked) -> bool:
    """Does question ``q`` name the picked unit letter or space?"""
    if picked is None:
        return False
    wanted = picked if isinstance(picked, str) else tuple(picked)
    return any(v == wanted or (isinstance(v, tuple) and wanted in v)
               for k, v in q.record.items if k not in ("name", "ask"))


def _merged(sources_list) -> dict:
    """The sources of several boards as one, for a single legend of every colour drawn."""
    merged = {}
    for name in sources_list[0]:
        data: dict[str, list[Any]] = {}
        for sources in sources_list:
            for column, values in sources[name].data.items():
                data.setdefault(column, []).extend(values)
        merged[name] = SimpleNamespace(data=data)
    return merged
