"""The Round tab: play a round along with the table from the demo game, a shipped situation
or the Analysis board's position.

:class:`RoundTab` holds a "start from" picker above a
:class:`~machina_nb.views.stepper.RoundStepper`; starting builds a new stepper on the
picked position, its units keeping the letters the situation gives them (the same letters
as on the Analysis board). The dice can be typed as they were rolled at the table (the
stepper's scripted dice) or drawn from a seed.
"""

from __future__ import annotations

import html
from collections.abc import Callable

import ipywidgets as widgets

from machina_nb.rules.analysis.situation import Situation, load_situations, situation_from_text
from machina_nb.rules.board.maptext import Layout
from machina_nb.rules.errors import ContentError, RulesError
from machina_nb.rules.rulings import Rules
from machina_nb.views.stepper import RoundStepper, demo_game

__all__ = ["RoundTab", "DEMO", "ANALYSIS"]

DEMO = "the demo game"
ANALYSIS = "the Analysis board's position"


class RoundTab(widgets.VBox):
    """A round to step through, started from a position the user picks.

    ``layout`` is the demo board; ``analysis_text`` returns the Analysis board's situation
    file (or None when that tab is not open yet). Widgets a test drives carry CSS classes:
    ``round-start-from``, ``round-start``, ``round-start-message``.
    """

    def __init__(self, layout: Layout, rules: Rules,
                 analysis_text: Callable[[], str | None] = lambda: None):
        self._layout, self._rules, self._analysis_text = layout, rules, analysis_text
        self._situations = load_situations()
        options = [DEMO, ANALYSIS] + [f"situation: {s.title}" for s in
                                     sorted(self._situations.values(), key=lambda s: s.title)]
        self.start_from = widgets.Dropdown(options=options, value=DEMO, description="Start from",
                                           style={"description_width": "initial"},
                                           layout=widgets.Layout(width="560px", max_width="100%"))
        self.start_from.add_class("round-start-from")
        self.start_button = widgets.Button(description="start the round here",
                                           tooltip="play on from the picked position")
        self.start_button.add_class("round-start")
        self.start_button.on_click(lambda _: self.start())
        self.message = widgets.HTML()
        self.message.add_class("round-start-message")
        self.stepper = RoundStepper(demo_game(layout), rules)
        self.holder = widgets.VBox([self.stepper])
        picker = widgets.Box([self.start_from, self.start_button],
                             layout=widgets.Layout(display="flex", flex_flow="row wrap",
                                                   grid_gap="4px 12px"))
        super().__init__([picker, self.message, self.holder])

    @property
    def rules(self) -> Rules:
        """The rules the round is played under (assigning them restarts the round)."""
        return self._rules

    @rules.setter
    def rules(self, rules: Rules) -> None:
        self._rules = rules
        self.stepper.rules = rules

    def start(self) -> bool:
        """Start a new round on the picked position; a position that cannot be played is
        refused in one line and the current round stays."""
        picked = self.start_from.value
        try:
            if picked == DEMO:
                stepper = RoundStepper(demo_game(self._layout), self._rules)
            else:
                situation = self._situation(picked)
                labels = {u.id: u.letter for u in situation.units}
                stepper = RoundStepper(situation.state_at(self._rules), self._rules, labels)
        except (RulesError, ContentError) as error:
            self.message.value = f"<div class='step-note'>{html.escape(str(error))}</div>"
            return False
        self.stepper = stepper
        self.holder.children = (stepper,)
        self.message.value = (f"<div class='step-note'>Playing on from {html.escape(picked)}. "
                              "Type the dice as rolled at the table under <b>Dice: "
                              "scripted</b>, or let the seed roll them.</div>")
        return True

    def _situation(self, picked: str) -> Situation:
        if picked == ANALYSIS:
            text = self._analysis_text()
            if not text:
                raise RulesError("Start from", "open the Analysis board tab and set up a "
                             "position there first")
            return situation_from_text(text, "the Analysis board")
        title = picked.removeprefix("situation: ")
        return next(s for s in self._situations.values() if s.title == title)
