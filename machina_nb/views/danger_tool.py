"""The Analysis board's danger tool: the danger overlay (:mod:`machina_nb.views.danger`) on the
situation being built, driven by the editor's clicks.

With the *danger* tool, a click on an explorer picks it and fills every space it can end its
move on by the exact chance it is destroyed in the monster phase; a click on one of those
spaces says its breakdown above the answers (CSS class ``analysis-danger``). Picking another
tool clears it.

Rules: manual p34 (reach), p10-17 and p24 (the monster phase), p16 (the explorers choose).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import ipywidgets as widgets

from machina_nb.rules.analysis.situation import Situation
from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.labels import plain_text
from machina_nb.rules.board.maptext import Point
from machina_nb.rules.engine.state import GameState
from machina_nb.rules.errors import ContentError, RulesError
from machina_nb.rules.rulings import Rules
from machina_nb.rules.rulings_words import cite_words
from machina_nb.views.danger import DangerOverlay
from machina_nb.views.overlays import Pick

__all__ = ["DangerTool"]


class DangerTool:
    """The danger tool of a situation ``editor`` (its ``on_danger`` clicks come here), for the
    position ``asked()`` returns (the situation and the rules in force, or None before the
    first answer); ``fallback()`` marks the board again when the tool is put down.
    ``widgets`` go at the top of the answers beside the board."""

    def __init__(self, editor: Any, asked: Callable[[], tuple[Situation, Rules] | None],
                 fallback: Callable[[], None]):
        self.editor, self.asked, self.fallback = editor, asked, fallback
        self.overlay = DangerOverlay(self._game, no_game=(
            "The danger tool needs a position the rules can play: see the answers below."))
        self.html = widgets.HTML()
        self.html.add_class("analysis-danger")
        self.pick: Pick | None = None
        self._game_of: tuple[Any, GameState | None] = (None, None)
        self.widgets = (self.overlay.widget, self.html)
        editor.on_danger = self.click

    @property
    def on(self) -> bool:
        """Whether the danger tool is in hand with an explorer picked."""
        return bool(self.editor.tool.value == "danger" and self.pick is not None)

    def _game(self, _board: Board) -> GameState | None:
        """The position as a game (None while the situation cannot be played)."""
        key = self.asked()
        if key is None:
            return None
        if self._game_of[0] != key:
            try:
                state: GameState | None = key[0].state_at(key[1])
            except (RulesError, ContentError):
                state = None
            self._game_of = (key, state)
        return self._game_of[1]

    def click(self, point: Point | None) -> None:
        """An explorer picks it; a space of its reach says its breakdown; None (another tool
        picked) clears the danger marks."""
        if point is None:
            self.pick, self.html.value = None, ""
            self.fallback()
            return
        board = self.editor.view.board
        if self.pick is None or self.overlay.reselects(board, self.pick.selected, point) or \
                self._game(board) is None:
            self.pick = Pick(point)
        else:
            self.pick = replace(self.pick, target=point)
        self.show()

    def show(self) -> None:
        """The danger marks and words for the explorer and space picked."""
        board = self.editor.view.board
        asked = self.asked()
        if self.pick is None or asked is None:
            return
        if self.pick.selected not in board:
            self.pick = None
            return
        highlights = self.overlay(board, asked[1], self.pick)
        self.editor.show(highlights)
        self.html.value = ("<div class='analysis-danger-words'>" + "<br>".join(
            html.escape(plain_text(cite_words(line))) for line in highlights.verdict) + "</div>")
