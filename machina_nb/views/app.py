"""The explorer app composed of every view (served by Voila from notebooks/explorer.ipynb).

The Board tab offers ``demo_board.txt`` (a small original map using every space
and border kind, with explorers A, B and monsters M, N) and a 2x2 board of the
shipped tiles; Odds, Round, Rulings and Examples follow. One preset picker hands
the same :class:`Rules` to every view.
"""

from __future__ import annotations

import html
from importlib import resources

import ipywidgets as widgets

from machina_nb.rules.board.maptext import Layout, SpaceKind, parse_map
from machina_nb.rules.rulings import PRESETS, Rules
from machina_nb.views import setup_notebook
from machina_nb.views.board import BoardView, shipped_board
from machina_nb.views.examples import ExamplesBrowser
from machina_nb.views.odds import OddsView, ProcessesView
from machina_nb.views.peers import OtherGamesView
from machina_nb.views.rulings import RulingsPanel
from machina_nb.views.stepper import RoundStepper, demo_game

__all__ = ["DEMO_LEGEND", "demo_layout", "Explorer", "explorer"]

#: The demo board's units: explorers A and B, monsters M and N, all standing on floor.
DEMO_LEGEND = {"A": SpaceKind.FLOOR, "B": SpaceKind.FLOOR, "M": SpaceKind.FLOOR,
               "N": SpaceKind.FLOOR}


def demo_layout() -> Layout:
    """The demo board shipped with the package (``machina_nb/views/demo_board.txt``)."""
    name = "demo_board.txt"
    text = resources.files("machina_nb.views").joinpath(name).read_text(encoding="utf-8")
    return parse_map(text, path=name, legend=DEMO_LEGEND)


class Explorer(widgets.VBox):
    """Every view in one widget: a rules preset picker over tabs (board, odds, round, rulings).

    Picking a preset hands the new :class:`Rules` to every view. Attributes:
    ``preset`` (the picker), ``board`` (:class:`BoardView`), ``summary`` (the
    preset's switches), ``tabs``.
    """

    def __init__(self, layout: Layout | None = None):
        setup_notebook()
        self.preset = widgets.Dropdown(options=list(PRESETS), value="manual", description="Rules")
        self.preset.add_class("rules-preset")
        self.board = BoardView({"demo": layout or demo_layout(), "2x2 shipped tiles": shipped_board()})
        self.odds, self.processes = OddsView(), ProcessesView()
        self.rulings = RulingsPanel()
        self.summary = widgets.HTML()
        self.round = RoundStepper(demo_game(demo_layout()))
        self.examples = ExamplesBrowser()
        self.others = OtherGamesView()
        self.tabs = widgets.Tab([
            self.board,
            widgets.VBox([self.odds, self.processes]),
            self.round,
            widgets.VBox([self.rulings, self.summary]),
            self.examples,
            self.others,
        ], titles=("Board", "Odds", "Round", "Rulings", "Examples", "Other games"))
        self.preset.observe(self._apply_preset, "value")
        self._apply_preset()
        super().__init__([self.preset, self.tabs])  # the notebook gives the title

    def _apply_preset(self, _change=None) -> None:
        rules = Rules.preset(self.preset.value)
        self.board.rules = self.odds.rules = self.processes.rules = self.round.rules = rules
        self.others.rules = rules
        self.rulings.preset.value = self.preset.value
        self.summary.value = f"<pre>{html.escape(rules.summary())}</pre>"


def explorer(layout: Layout | None = None) -> Explorer:
    """The whole explorer as one widget, on ``layout`` (default: the demo board)."""
    return Explorer(layout)
