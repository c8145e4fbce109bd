"""The quiz: a situation on a board and a question; answer with a click or a button, then read
the right answer, why, and the rule.

Answers come from :mod:`machina_nb.rules.analysis.quiz` (computed by the rules core under
the rulings in force), never from the question file.

Rules: manual p13, p15-16, p22, p24, p34 (per question).
"""

from __future__ import annotations

import html
from fractions import Fraction

import ipywidgets as widgets
import traitlets
from IPython.display import HTML

from machina_nb.rules.analysis.draft import rules_parts
from machina_nb.rules.analysis.quiz import (
    QuizQuestion,
    answer,
    board_of,
    has_board,
    load_quiz,
    pick,
    question_rules,
)
from machina_nb.rules.rulings import Rules
from machina_nb.rules.rulings_words import cite_words
from machina_nb.views import setup_notebook
from machina_nb.views.board import (
    BoardView,
    Highlights,
    highlight_data,
    legend_html,
    plain_text,
    space_name,
)
from machina_nb.views.odds import exact
from machina_nb.views.reference import RuleLinks, manual_links
from machina_nb.views.words import rules_words

__all__ = ["QuizView", "quiz_questions", "answer_key", "answer_words"]


def _reply_words(reply) -> str:
    if isinstance(reply, tuple):
        return space_name(reply)
    if isinstance(reply, str) and "/" in reply:
        return exact(Fraction(reply))
    return str(reply)


def _asked_under(q: QuizQuestion, rules: Rules) -> str:
    used = question_rules(q, rules)
    return rules_words(rules_parts(used)[0], used)


def answer_words(q: QuizQuestion, rules: Rules) -> str:
    """The right answer to ``q`` in words: every right reply (``C3 or E1``, ``yes``, ``7/10
    (70%)``); a space with a unit on it names the unit (``Lorrai (C3)``)."""
    units = {p: letter for letter, p in board_of(q).units().items()} if has_board(q) \
        else {}
    names = dict(q.names)

    def words(reply) -> str:
        letter = units.get(reply) if isinstance(reply, tuple) else None
        return f"{names.get(letter, letter)} ({space_name(reply)})" if letter else \
            _reply_words(reply)
    return " or ".join(words(c) for c in sorted(answer(q, rules).correct, key=str))


def quiz_questions(*ids: str) -> tuple[QuizQuestion, ...]:
    """The shipped questions (``content/quiz``) with these ids, in this order: a notebook's
    closing quiz."""
    return pick(load_quiz(), *ids)


def answer_key(questions: tuple[QuizQuestion, ...], rules: Rules | None = None) -> HTML:
    """The questions with their answers folded away (open one after answering it): the right
    answer, why, and the rule, each computed by the rules core under ``rules`` (or the
    readings the question fixes)."""
    rules = rules or Rules()
    items = []
    for q in questions:
        shown = answer(q, rules)
        items.append(
            f"<li><b>{html.escape(q.prompt)}</b><details><summary>Show the answer</summary>"
            f"The answer: <b>{html.escape(answer_words(q, rules))}</b>. Why: "
            f"{html.escape(plain_text(cite_words(shown.explanation)))}."
            + (f" {html.escape(q.note)}" if q.note else "")
            + f"<br><small>Rule: {manual_links(cite_words(shown.rule))} (asked under "
              f"{html.escape(_asked_under(q, rules))})</small></details></li>")
    return HTML(f"<ol class='quiz-key'>{''.join(items)}</ol>")


class QuizView(widgets.VBox):
    """One question at a time: the board (click a space) or buttons (yes/no, chances).

    CSS classes for tests: ``quiz-pick``, ``quiz-prompt``, ``quiz-buttons`` (each button
    ``quiz-option``), ``quiz-feedback``, ``quiz-next``, ``quiz-score``; the board is a
    :class:`BoardView` with prefix ``quiz-board``. ``questions`` may be given (default:
    every question in ``content/quiz``). Assigning ``rules`` re-asks under them.
    """

    rules = traitlets.Instance(Rules)

    def __init__(self, questions: tuple[QuizQuestion, ...] | None = None, rules: Rules | None = None):
        setup_notebook()
        self.questions = questions or load_quiz()
        self.right = self.asked = 0
        self.pick = widgets.Dropdown(
            options=[(f"{n}. {q.topic}: {q.prompt[:70]}", n - 1)
                     for n, q in enumerate(self.questions, 1)],
            description="QuizQuestion", layout=widgets.Layout(width="720px"))
        self.pick.add_class("quiz-pick")
        self.prompt = widgets.HTML()
        self.prompt.add_class("quiz-prompt")
        self.buttons = widgets.HBox()
        self.buttons.add_class("quiz-buttons")
        self.feedback = widgets.HTML()
        self.feedback.add_class("quiz-feedback")
        self.rule_links = RuleLinks()
        self.score = widgets.HTML()
        self.score.add_class("quiz-score")
        self.next_button = widgets.Button(description="next question")
        self.next_button.add_class("quiz-next")
        self.next_button.on_click(lambda _: self.go(min(self.pick.value + 1,
                                                        len(self.questions) - 1)))
        self.board_box = widgets.Box()
        # the feedback sits beside a board (under it on a narrow window), else here
        self.feedback_box = widgets.Box()
        self._views: dict[int, BoardView] = {}
        super().__init__([self.pick, self.prompt, self.buttons, self.board_box,
                          self.feedback_box, widgets.HBox([self.next_button, self.score])],
                         rules=rules or Rules())
        self.pick.observe(lambda change: self.go(change["new"]), "value")
        self.go(0)

    @property
    def question(self) -> QuizQuestion:
        """The question shown."""
        return self.questions[self.pick.value]

    def go(self, index: int) -> None:
        """Show question ``index`` (0-based), unanswered."""
        if self.pick.value != index:
            self.pick.value = index  # observe calls back here
            return
        q = self.question
        self.answered = False
        self.feedback.value = ""
        self.rule_links.show("")
        self.prompt.value = f"<h3>{html.escape(q.prompt)}</h3>"
        shown = answer(q, self.rules)
        if shown.form == "space":
            self.prompt.value += "<p><i>Click a space on the board.</i></p>"
        options = {"yes_no": ("yes", "no"), "choice": shown.options}.get(shown.form, ())
        buttons = []
        for option in options:
            button = widgets.Button(description=_reply_words(option),
                                    layout=widgets.Layout(width="auto"))
            button.add_class("quiz-option")
            button.on_click(lambda _, o=option: self.reply(o))
            buttons.append(button)
        self.buttons.children = tuple(buttons)
        self.board_box.children = (self._view(index),) if has_board(q) else ()
        self.feedback_box.children = () if has_board(q) else (self.feedback, self.rule_links)
        if has_board(q):
            self._mark(((q.space, "asked"),) if q.space is not None else (), answered=False)

    def _view(self, index: int) -> BoardView:
        if index not in self._views:
            q = self.questions[index]
            view = BoardView(board_of(q), self.rules, controls=False, css="quiz-board",
                             names=dict(q.names), on_click=self.reply)
            view.answer.children = (self.feedback, self.rule_links, *view.answer.children)
            self._views[index] = view
        return self._views[index]

    def _mark(self, spaces, answered: bool = True) -> None:
        view = self._views[self.pick.value]
        for name, data in highlight_data(Highlights(tuple(spaces))).items():
            view.sources[name].data = data
        if answered:
            title = "The right answer is outlined."
        elif answer(self.question, self.rules).form == "space":
            title = "Your answer: click a space."
        else:
            title = "The situation (answer with the buttons above)."
        view.title.value = f"<b>{title}</b>"
        view.verdict.value = ""
        view.legend.value = legend_html(view.sources, view.names)

    def reply(self, reply) -> bool:
        """Answer the question shown (a space, ``yes``/``no`` or a chance's text); show whether
        it is right, the right answer, why, and the rule. Returns whether it was right."""
        q = self.question
        shown = answer(q, self.rules)
        if shown.form == "space" and not isinstance(reply, tuple):
            self.feedback.value = "<p>Answer by clicking a space on the board.</p>"
            return False
        right = reply in shown.correct
        if not self.answered:
            self.asked += 1
            self.right += right
            self.answered = True
        words = answer_words(q, self.rules)
        verdict = ("<b style='color:#009E73'>Right.</b>" if right else
                   f"<b style='color:#D55E00'>Not quite</b>: you answered "
                   f"{html.escape(_reply_words(reply))}.")
        self.feedback.value = (
            f"<div class='quiz-result {'right' if right else 'wrong'}'>{verdict} "
            f"The answer: <b>{html.escape(words)}</b>.<br>Why: "
            f"{html.escape(plain_text(cite_words(shown.explanation)))}."
            + (f" {html.escape(q.note)}" if q.note else "")
            + f"<br><small>Rule: {manual_links(cite_words(shown.rule))} "
              f"(asked under {html.escape(_asked_under(q, self.rules))})</small></div>")
        self.rule_links.show(cite_words(shown.rule))
        if has_board(q) and shown.form == "space":     # a yes or no has nothing to outline
            roles = [(p, "answer") for p in sorted(shown.correct)]
            if isinstance(reply, tuple) and not right:
                roles.append((reply, "reply"))
            self._mark(roles)
        self.score.value = f"Score: {self.right} of {self.asked} answered"
        return right

    @traitlets.observe("rules")
    def _rules_changed(self, _change) -> None:
        if hasattr(self, "pick"):
            self.go(self.pick.value)
