"""The explorer app composed of every view (served by Voila from notebooks/explorer.ipynb).

The Board tab offers ``demo_board.txt`` (a small original map using every space
and border kind, with explorers A, B and monsters M, N) and a 2x2 board of the
shipped tiles; Odds, Round, Rulings, Examples, Quiz and Other games follow. One preset picker
hands the same :class:`Rules` to every view.

Only the Board tab is built when the app opens: the others are built the first time
they are picked, behind a progress bar, so the first tab answers a click within
seconds of the page request (``benchmarks/bench_first_interaction.py``).
"""

from __future__ import annotations

import html
from importlib import resources
from typing import Callable

import ipywidgets as widgets

from machina_nb.rules.board.maptext import Layout, SpaceKind, parse_map
from machina_nb.rules.rulings import PRESETS, SWITCHES, Rules
from machina_nb.views import setup_notebook
from machina_nb.views.analysis import AnalysisBoardView
from machina_nb.views.board import BoardView, shipped_board
from machina_nb.views.examples import ExamplesBrowser
from machina_nb.views.odds import OddsView, ProcessesView
from machina_nb.views.peers import OtherGamesView
from machina_nb.views.quiz import QuizView
from machina_nb.views.rulings import RulingsPanel
from machina_nb.views.stepper import RoundStepper, demo_game

__all__ = ["DEMO_LEGEND", "DEMO_NAMES", "TAB_TITLES", "demo_layout", "Explorer", "explorer"]

#: The demo board's units: explorers A and B, monsters M and N, all standing on floor.
DEMO_LEGEND = {"A": SpaceKind.FLOOR, "B": SpaceKind.FLOOR, "M": SpaceKind.FLOOR,
               "N": SpaceKind.FLOOR}

#: The demo board's units by name (the Round tab's demo game deals the same cards).
DEMO_NAMES = {"A": "Phillip (explorer)", "B": "Lorrai (explorer)", "M": "Mi-Go (monster)",
              "N": "Sarall (monster)"}

#: The tabs in order; the first is built when the app opens, the others on first use.
TAB_TITLES = ("Board", "Odds", "Round", "Rulings", "Examples", "Quiz", "Other games",
              "Analysis board")


def demo_layout() -> Layout:
    """The demo board shipped with the package (``machina_nb/views/demo_board.txt``)."""
    name = "demo_board.txt"
    text = resources.files("machina_nb.views").joinpath(name).read_text(encoding="utf-8")
    return parse_map(text, path=name, legend=DEMO_LEGEND)


def _building(title: str) -> widgets.VBox:
    """What a tab shows while it is built: a moving bar and what is happening."""
    bar = widgets.IntProgress(value=1, min=0, max=1, bar_style="info",
                              layout=widgets.Layout(width="320px"))
    bar.add_class("tab-progress")
    note = widgets.HTML(f"<i>Building the {html.escape(title)} tab…</i>")
    box = widgets.VBox([note, bar])
    box.add_class("tab-building")
    return box


class Explorer(widgets.VBox):
    """Every view in one widget: a rules preset picker over tabs (board, odds, round, rulings,
    examples, quiz).

    Picking a preset hands the new :class:`Rules` to every view built so far (and to each
    later one when it is built). Attributes: ``preset`` (the picker), ``board``
    (:class:`BoardView`), ``tabs``; ``odds``, ``processes``, ``round``, ``rulings``,
    ``summary``, ``examples`` and ``quiz`` exist once their tab is built
    (:meth:`build_tab`, run when the tab is first picked).
    """

    def __init__(self, layout: Layout | None = None):
        setup_notebook()
        self.preset = widgets.Dropdown(options=list(PRESETS), value="manual", description="Rules")
        self.preset.add_class("rules-preset")
        self._layout = layout or demo_layout()
        self.board = BoardView({"demo": self._layout, "2x2 shipped tiles": shipped_board()},
                               names=DEMO_NAMES)
        self._builders: dict[int, Callable[[], widgets.Widget]] = {
            1: self._build_odds, 2: self._build_round, 3: self._build_rulings,
            4: self._build_examples, 5: self._build_quiz, 6: self._build_others,
            7: self._build_analysis}
        self._built = {0}
        self.tabs = widgets.Tab([self.board, *(_building(t) for t in TAB_TITLES[1:])],
                                titles=TAB_TITLES)
        self.tabs.observe(self._tab_picked, "selected_index")
        self.preset.observe(self._apply_preset, "value")
        self._apply_preset()
        super().__init__([self.preset, self.tabs])  # the notebook gives the title

    @property
    def rules(self) -> Rules:
        """The rules of the picked preset."""
        return Rules.preset(self.preset.value)

    def _tab_picked(self, change) -> None:
        if change["new"] is not None:
            self.build_tab(change["new"])

    def build_tab(self, index: int) -> widgets.Widget:
        """Build tab ``index`` (0 Board ... 6 Other games) if it is not built yet; return its widget."""
        if index not in self._built:
            self._built.add(index)
            children = list(self.tabs.children)
            children[index] = self._builders[index]()
            self.tabs.children = children
            self._apply_preset()
        return self.tabs.children[index]

    def _build_odds(self) -> widgets.Widget:
        self.odds, self.processes = OddsView(self.rules), ProcessesView(self.rules)
        return widgets.VBox([self.odds, self.processes])

    def _build_round(self) -> widgets.Widget:
        self.round = RoundStepper(demo_game(self._layout), self.rules)
        return self.round

    def _build_rulings(self) -> widgets.Widget:
        self.rulings = RulingsPanel(self.preset.value)
        self.summary = widgets.HTML()
        self.summary.add_class("rulings-summary")
        return widgets.VBox([self.rulings, self.summary])

    def _build_examples(self) -> widgets.Widget:
        self.examples = ExamplesBrowser()
        return self.examples

    def _build_quiz(self) -> widgets.Widget:
        self.quiz = QuizView(rules=self.rules)
        return self.quiz

    def _build_others(self) -> widgets.Widget:
        self.others = OtherGamesView(rules=self.rules)
        return self.others

    def _build_analysis(self) -> widgets.Widget:
        self.analysis = AnalysisBoardView(rules=self.rules)
        return self.analysis

    def _apply_preset(self, _change=None) -> None:
        rules = self.rules
        self.board.rules = rules
        for name in ("odds", "processes", "round", "quiz", "others", "analysis"):
            if hasattr(self, name):
                getattr(self, name).rules = rules
        if hasattr(self, "rulings"):
            self.rulings.preset.value = self.preset.value
            self.summary.value = _summary_html(rules)


def _summary_html(rules: Rules) -> str:
    """The preset's switches as a table: switch, reading in force."""
    rows = "".join(f"<tr><td>{html.escape(name)}</td><td>{html.escape(rules[name])}"
                   f"{'' if rules[name] == SWITCHES[name].default else ' (changed)'}</td></tr>"
                   for name in sorted(rules))
    return (f"<p><b>Rules in force: {html.escape(rules.name)}</b></p>"
            f"<table class='rules-switches'><tr><th>switch</th><th>reading</th></tr>{rows}</table>")


def explorer(layout: Layout | None = None) -> Explorer:
    """The whole explorer as one widget, on ``layout`` (default: the demo board)."""
    return Explorer(layout)
