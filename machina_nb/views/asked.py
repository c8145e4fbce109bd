"""The list of what was asked on the analysis board: each unit or space clicked with the *ask
about* tool stays in the list (its questions answered, weighed by the rulings and exported)
until it is removed; the list can be put in another order.

A pick is a unit letter (``"S"``) or a space (``(x, y)``), as the editor's ``picked`` holds it.
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as widgets
import traitlets

__all__ = ["AskedList"]


class AskedList(widgets.VBox):
    """The picks asked about, in order (``picks``, a tuple; observe it), each shown as a row
    with its name (``words(pick)``), *up*, *down* and *remove* buttons. CSS classes for tests:
    ``analysis-asked``, ``analysis-asked-row``, ``analysis-asked-up``,
    ``analysis-asked-down``, ``analysis-asked-remove``."""

    picks = traitlets.Tuple()

    def __init__(self, words: Callable[[object], str]):
        self.words = words
        super().__init__()
        self.add_class("analysis-asked")

    def add(self, pick) -> None:
        """Ask about ``pick`` too (last in the list; already there, it stays where it is)."""
        if pick is not None and pick not in self.picks:
            self.picks = self.picks + (pick,)

    def remove(self, pick) -> None:
        """Stop asking about ``pick``."""
        self.picks = tuple(p for p in self.picks if p != pick)

    def move(self, pick, step: int) -> None:
        """Move ``pick`` ``step`` places down the list (up when negative), within the list."""
        picks = list(self.picks)
        i = picks.index(pick)
        j = min(max(i + step, 0), len(picks) - 1)
        picks.insert(j, picks.pop(i))
        self.picks = tuple(picks)

    def keep(self, still_there: Callable[[object], bool]) -> None:
        """Drop the picks that are no longer on the board."""
        kept = tuple(p for p in self.picks if still_there(p))
        if kept != self.picks:
            self.picks = kept

    @traitlets.observe("picks")
    def _show(self, _change=None) -> None:
        rows = []
        for pick in self.picks:
            label = widgets.HTML(f"<b>About {self.words(pick)}</b>",
                                 layout=widgets.Layout(width="260px"))
            buttons = []
            for text, css, act in (("up", "up", lambda p=pick: self.move(p, -1)),
                                   ("down", "down", lambda p=pick: self.move(p, 1)),
                                   ("remove", "remove", lambda p=pick: self.remove(p))):
                button = widgets.Button(description=text, layout=widgets.Layout(width="auto"))
                button.add_class(f"analysis-asked-{css}")
                button.on_click(lambda _, act=act: act())
                buttons.append(button)
            row = widgets.HBox([label, *buttons])
            row.add_class("analysis-asked-row")
            rows.append(row)
        self.children = tuple(rows)
