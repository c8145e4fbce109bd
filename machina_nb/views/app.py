"""The explorer app composed of every view (served by Voila from notebooks/explorer.ipynb).

The Board tab offers ``demo_board.txt`` (a small original map using every space
and border kind, with explorers A, B and monsters M, N) and a 2x2 board of the
shipped tiles; Odds, Round, Rulings, Examples, Quiz, Other games, Analysis board and Rules
follow.

**One rules state.** The app holds one :class:`Rules`: a preset (the picker above the tabs)
plus the switches flipped on top of it, shown in words above the tabs ("In force: manual
1.0; changed: any corner where two walls meet blocks sight"). Every view takes it through
``view.rules = rules``, when it is built and whenever it changes; a view that changes its own
``rules`` (a reading used everywhere from the Rulings tab) changes it for the whole app. Picking another preset keeps the flipped
switches (the line above the tabs names them; a button clears them).

**Tabs on first use.** Only the Board tab is built when the app opens: the others are built
the first time they are picked, behind a progress bar, so the first tab answers a click
within seconds of the page request (``benchmarks/bench_first_interaction.py``). A tab is one
row of :data:`TABS`: its title and the method that builds its views.
"""

from __future__ import annotations

import html
from importlib import resources

import ipywidgets as widgets
import traitlets

from machina_nb.rules.board.maptext import Layout, SpaceKind, parse_map
from machina_nb.rules.rulings import PRESETS, SWITCHES, Rules
from machina_nb.rules.rulings_words import label, question
from machina_nb.views import setup_notebook
from machina_nb.views.analysis import AnalysisBoardView
from machina_nb.views.board import BoardView, as_board, shipped_board
from machina_nb.views.danger import DangerOverlay
from machina_nb.views.examples import ExamplesBrowser
from machina_nb.views.odds import OddsView, ProcessesView
from machina_nb.views.peers import OtherGamesView
from machina_nb.views.quiz import QuizView
from machina_nb.views.reference import ReferenceView, RuleLinks, open_link, open_rule
from machina_nb.views.round_start import RoundTab
from machina_nb.views.rulings import RulingsPanel
from machina_nb.views.stepper import RoundStepper, demo_game
from machina_nb.views.words import PRESET_WORDS, rules_words

__all__ = ["DEMO_LEGEND", "DEMO_NAMES", "TABS", "TAB_TITLES", "demo_layout", "Explorer",
           "explorer"]

#: The demo board's units: explorers A and B, monsters M and N, all standing on floor.
DEMO_LEGEND = {"A": SpaceKind.FLOOR, "B": SpaceKind.FLOOR, "M": SpaceKind.FLOOR,
               "N": SpaceKind.FLOOR}

#: The demo board's units by name (the Round tab's demo game deals the same cards).
DEMO_NAMES = {"A": "Phillip (explorer)", "B": "Lorrai (explorer)", "M": "Mi-Go (monster)",
              "N": "Sarall (monster)"}

#: The tabs in order: the title and the :class:`Explorer` method that builds the tab's views
#: (one widget, or a tuple shown one under the other). The first is built when the app opens,
#: the others on first use. Every view with ``rules`` is handed the rules in force.
TABS: tuple[tuple[str, str], ...] = (
    ("Board", "_build_board"),
    ("Odds", "_build_odds"),
    ("Round", "_build_round"),
    ("Rulings", "_build_rulings"),
    ("Examples", "_build_examples"),
    ("Quiz", "_build_quiz"),
    ("Other games", "_build_others"),
    ("Analysis board", "_build_analysis"),
    ("Rules", "_build_reference"),
)
TAB_TITLES = tuple(title for title, _ in TABS)


def demo_layout() -> Layout:
    """The demo board shipped with the package (``machina_nb/views/demo_board.txt``)."""
    name = "demo_board.txt"
    text = resources.files("machina_nb.views").joinpath(name).read_text(encoding="utf-8")
    return parse_map(text, path=name, legend=DEMO_LEGEND)


#: On a narrow window (a tablet, a phone) the tab titles wrap onto a second line instead of
#: being cut, the page's margins shrink so a board gets the width, and the Rulings tab's two
#: boards and legend stack; a plot wider than the window scales down in its own box
#: (``views/fit.py``) instead of pushing the page wider. On a phone a text field or a picker
#: shrinks to the width, and a wide table scrolls sideways in its own box.
FIT_CSS = """<style>
@media (max-width: 860px) {
  .app-tabs > .widget-tab-bar { height: auto; }
  .app-tabs > .widget-tab-bar .lm-TabBar-content { flex-wrap: wrap; }
  .app-tabs > .widget-tab-bar .lm-TabBar-tab { flex: 0 0 auto !important; min-width: 0;
                                              padding: 0 10px; }
}
.rulings-case svg { max-width: 100%; height: auto; }
@media (max-width: 600px) {
  .rulings-case table, .rulings-case tbody, .rulings-case tr, .rulings-case td {
    display: block; width: auto !important; }
  .jp-Cell, .lm-BoxPanel-child { padding-left: 0; padding-right: 0; }
  .jp-OutputArea-output { margin-left: 0; margin-right: 0; }
  .app-tabs > .widget-tab-contents { padding: 8px 4px; }
  .app-tabs .widget-inline-hbox { max-width: 100%; }
  .app-tabs .widget-inline-hbox > select, .app-tabs .widget-inline-hbox > input { min-width: 0; }
  .app-tabs .widget-html, .app-tabs .widget-html-content { max-width: 100%; }
  .app-tabs .widget-html-content { overflow-x: auto; }
}
</style>"""


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
    """Every view in one widget: the rules in force over tabs (:data:`TABS`).

    Attributes: ``rules`` (the one :class:`Rules` of the app; assign it to change every tab),
    ``preset`` (the preset picker), ``in_force`` (the rules in force in words), ``clear``
    (drops the flipped switches), ``tabs``, ``board`` (:class:`BoardView`); ``odds``,
    ``processes``, ``round``, ``rulings``, ``summary``, ``examples``, ``quiz``,
    ``others``, ``analysis`` and ``reference`` exist once their tab is built
    (:meth:`build_tab`, run when the tab is first picked).
    """

    rules = traitlets.Instance(Rules)

    def __init__(self, layout: Layout | None = None):
        setup_notebook()
        self._layout = layout or demo_layout()
        self._views: list[widgets.Widget] = []
        self.preset = widgets.Dropdown(options=[(PRESET_WORDS[p], p) for p in PRESETS],
                                       value="manual", tooltip="the rules preset")
        self.preset.add_class("rules-preset")
        self.in_force = widgets.HTML()
        self.in_force.add_class("rules-in-force")
        self.clear = widgets.Button(description="Back to the preset's readings",
                                    layout={"width": "auto"})
        self.clear.add_class("rules-clear")
        self.clear.on_click(lambda _: self.use_preset())
        self.rules = Rules.preset(self.preset.value)
        first = self._build(0)
        self.tabs = widgets.Tab([first, *(_building(title) for title, _ in TABS[1:])],
                                titles=TAB_TITLES)
        self.tabs.add_class("app-tabs")
        self._built = {0}
        self.tabs.observe(self._tab_picked, "selected_index")
        self.preset.observe(self._preset_picked, "value")
        super().__init__([self._header(), self.tabs])

    def _header(self) -> widgets.Box:
        """One line above the tabs (wrapping on a narrow window): the title, the preset and
        what is in force, so the boards start near the top of the window."""
        title = widgets.HTML("<b style='font-size:1.15em'>Machina Arcana rules explorer</b>")
        title.add_class("app-title")
        self.preset.description = ""
        self.preset.layout = widgets.Layout(width="auto", max_width="360px")
        header = widgets.Box([title, self.preset, self.in_force, self.clear, widgets.HTML(FIT_CSS)],
                             layout=widgets.Layout(display="flex", flex_flow="row wrap",
                                                   align_items="center", grid_gap="4px 12px"))
        header.add_class("app-header")
        return header

    # --- the rules in force ------------------------------------------------------------------

    @property
    def flipped(self) -> tuple[tuple[str, str], ...]:
        """The switches flipped on top of the preset: ``(switch, reading)`` in declaration order."""
        return tuple((name, mine) for name, _, mine in
                     Rules.preset(self.preset.value).differences(self.rules))

    def set_reading(self, switch: str, reading: str) -> None:
        """Flip ``switch`` to ``reading`` for every tab (a bad name or reading raises)."""
        self.rules = self.rules.replace({switch: reading})

    def use_preset(self) -> None:
        """Drop every flipped switch: the preset's readings are in force again."""
        self.rules = Rules.preset(self.preset.value)

    def _preset_picked(self, change) -> None:
        kept = Rules.preset(change["old"]).differences(self.rules)
        self.rules = Rules.preset(change["new"]).replace({name: mine for name, _, mine in kept})

    @traitlets.observe("rules")
    def _rules_changed(self, change) -> None:
        rules = change["new"]
        self.in_force.value = f"<b>In force:</b> {html.escape(rules_words(self.preset.value, rules))}"
        self.clear.layout.display = "" if self.flipped else "none"
        for view in self._views:
            if hasattr(view, "rules"):
                view.rules = rules
        if hasattr(self, "summary"):
            self.summary.value = _summary_html(rules)

    def _adopt(self, change) -> None:
        """A view changed its own rules (a reading flipped in it): they are the app's now."""
        self.rules = change["new"]

    # --- the tabs --------------------------------------------------------------------------------

    def _tab_picked(self, change) -> None:
        if change["new"] is not None:
            self.build_tab(change["new"])

    def build_tab(self, index: int) -> widgets.Widget:
        """Build tab ``index`` (0 Board ... 8 Rules) if it is not built yet; return its widget."""
        if index not in self._built:
            self._built.add(index)
            children = list(self.tabs.children)
            children[index] = self._build(index)
            self.tabs.children = children
        return self.tabs.children[index]

    def _build(self, index: int) -> widgets.Widget:
        """Build the views of tab ``index`` (its builder returns one widget or a tuple of them),
        hand them the rules in force and follow theirs."""
        built = getattr(self, TABS[index][1])()
        views = built if isinstance(built, tuple) else (built,)
        for view in views:
            self._views.append(view)
            if hasattr(view, "rules"):
                view.rules = self.rules
            if isinstance(view, traitlets.HasTraits) and view.has_trait("rules"):
                view.observe(self._adopt, "rules")
            for links in _rule_links(view):
                links.connect(lambda entry_id: open_rule(self, entry_id))
        return views[0] if len(views) == 1 else widgets.VBox(list(views))

    def _build_board(self) -> tuple[widgets.Widget, ...]:
        demo = as_board(self._layout)
        games: dict[str, object] = {}

        def game(board):   # the danger overlay plays the demo game's cards on the demo board
            if board is not demo:
                return None
            return games.setdefault("demo", demo_game(self._layout))

        self.danger = DangerOverlay(game, slider=True)
        self.board = BoardView({"demo": demo, "2x2 shipped tiles": shipped_board()},
                               names=DEMO_NAMES, overlays={"danger": self.danger})
        return (self.board,)

    def _build_odds(self) -> tuple[widgets.Widget, ...]:
        self.odds, self.processes = OddsView(self.rules), ProcessesView(self.rules, folded=True)
        return self.odds, self.processes

    def _build_round(self) -> tuple[widgets.Widget, ...]:
        self.round_tab = RoundTab(self._layout, self.rules, self._analysis_text)
        return (self.round_tab,)

    @property
    def round(self) -> RoundStepper:
        """The Round tab's stepper (the round being played)."""
        return self.round_tab.stepper

    def _analysis_text(self) -> str | None:
        """The Analysis board's situation file, when that tab is open."""
        return self.analysis.situation_text() if hasattr(self, "analysis") else None

    def _build_rulings(self) -> tuple[widgets.Widget, ...]:
        self.rulings = RulingsPanel(self.rules)
        self.summary = widgets.HTML(_summary_html(self.rules))
        self.summary.add_class("rulings-summary")
        every = widgets.Accordion([self.summary], titles=("Every ruling and its reading in force",),
                                  selected_index=None)
        return self.rulings, every

    def _build_examples(self) -> tuple[widgets.Widget, ...]:
        self.examples = ExamplesBrowser()
        return (self.examples,)

    def _build_quiz(self) -> tuple[widgets.Widget, ...]:
        self.quiz = QuizView(rules=self.rules)
        return (self.quiz,)

    def _build_others(self) -> tuple[widgets.Widget, ...]:
        self.others = OtherGamesView(rules=self.rules)
        return (self.others,)

    def _build_analysis(self) -> tuple[widgets.Widget, ...]:
        self.analysis = AnalysisBoardView(rules=self.rules)
        return (self.analysis,)

    def _build_reference(self) -> tuple[widgets.Widget, ...]:
        self.reference = ReferenceView(open_link=lambda kind, ident: open_link(self, kind, ident))
        return (self.reference,)


def _rule_links(view: object) -> tuple[RuleLinks, ...]:
    """The citation buttons of a view and of the views it holds (an attribute ``rule_links``)."""
    held = [view, *(vars(view).values() if hasattr(view, "__dict__") else ())]
    found = (getattr(inner, "rule_links", None) for inner in held)
    return tuple(dict.fromkeys(links for links in found if isinstance(links, RuleLinks)))


def _summary_html(rules: Rules) -> str:
    """Every switch and its reading in force, marking those off the manual's default."""
    rows = "".join(f"<tr data-switch='{html.escape(name)}'><td>{html.escape(question(name))}</td>"
                   f"<td>{html.escape(label(name, rules[name]))}"
                   f"{'' if rules[name] == SWITCHES[name].default else ' (not the default)'}"
                   "</td></tr>" for name in SWITCHES)
    return ("<table class='rules-switches'><tr><th>question</th><th>reading in force</th></tr>"
            f"{rows}</table>")


def explorer(layout: Layout | None = None) -> Explorer:
    """The whole explorer as one widget, on ``layout`` (default: the demo board)."""
    return Explorer(layout)
