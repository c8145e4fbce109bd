"""The danger overlay: where an explorer may end its move, coloured by the exact chance it is
destroyed in the monster phase, and a clicked space's breakdown in words.

:class:`DangerOverlay` is an overlay of the board view (:mod:`machina_nb.views.overlays`): the
first click picks an explorer, and every space it can end its move on is filled on one
sequential scale (:data:`machina_nb.rules.board.palette.DANGER_SCALE`) with its percentage
written on it; a click on a filled space says its breakdown (:func:`breakdown_lines`). The
chances are :func:`machina_nb.rules.analysis.risk_answer.risk_map`'s, the monsters who aim at
the space :func:`machina_nb.rules.analysis.risk_threats.threats`'; the choices the explorers
are assumed to make are said by the phrase the ``ask`` answers use
(:func:`machina_nb.rules.analysis.risk_answer.choice_phrase`).

:func:`health_chart_html` draws a health distribution as a bar table (the Analysis board's
``monster_phase`` answer).

Rules: manual p34 (reach), p10-17 and p24 (the monster phase), p16 (the explorers choose).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import ipywidgets as widgets

from machina_nb.rules.analysis.risk import MAX_STATES, SolvedPhase
from machina_nb.rules.analysis.risk_answer import (
    CHOICE_REASON,
    choice_phrase,
    risk_map,
    standing_at,
    start_turn,
)
from machina_nb.rules.analysis.risk_threats import Threat, threats
from machina_nb.rules.analysis.situation import Situation
from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.highlights import Highlights
from machina_nb.rules.board.labels import space_name
from machina_nb.rules.board.maptext import Point
from machina_nb.rules.board.palette import DANGER_SCALE, ROLE_COLOURS
from machina_nb.rules.engine.state import GameState
from machina_nb.rules.errors import RulesError
from machina_nb.rules.numbers import exact, number, percent_label
from machina_nb.rules.rulings import Rules
from machina_nb.views.overlays import Pick
from machina_nb.views.round_words import choice_words, unit_name
from machina_nb.views.words import unit_words

__all__ = ["DangerOverlay", "danger_role", "danger_highlights",
           "breakdown_lines", "health_chart_html", "phase_answer_html", "DANGER_HINT"]

DANGER_HINT = ("Click an explorer: every space it can end its move on is coloured by the chance "
               "it is destroyed in the monster phase if it stands there.")

RiskMap = dict[Point, SolvedPhase]


def danger_role(p: Fraction) -> str:
    """The danger scale's role of a chance: its bin (none at all is a bin of its own).

    >>> danger_role(Fraction(0)), danger_role(Fraction(1, 36)), danger_role(Fraction(25, 36))
    ('danger 0', 'danger 1', 'danger 50')
    """
    if p == 0:
        return DANGER_SCALE[0][0]
    return [role for role, least, _, _ in DANGER_SCALE[1:] if p * 100 >= least][-1]


def _destroyed(phase: SolvedPhase, uid: str) -> Fraction:
    return phase.destroyed(phase.best, phase.explorers.index(uid))


def danger_highlights(found: RiskMap, uid: str, here: Point, target: Point | None = None
                      ) -> tuple[tuple[tuple[Point, str], ...], tuple[tuple[Point, str], ...]]:
    """The marked spaces (each space of the map in its scale's role, then the explorer's own
    space and the clicked one outlined) and the percentages written on them."""
    spaces = [(p, danger_role(_destroyed(ph, uid))) for p, ph in found.items()]
    spaces.append((here, "selected"))
    if target is not None and target != here:
        spaces.append((target, "target"))
    labels = tuple((p, percent_label(_destroyed(ph, uid))) for p, ph in found.items())
    return tuple(spaces), labels


def _who(board: Board, state: GameState, uid: str) -> str:
    """A unit by its name and the letter the board shows it with: ``Mi-Go 1 (M)``."""
    here = state.unit(uid).position
    letter = board.unit_at(here) if here is not None and here in board else None
    name = unit_name(state, uid)
    return f"{name} ({letter})" if letter and letter != name else name


def _threat_words(board: Board, state: GameState, t: Threat) -> str:
    hits = " and ".join(exact(p) for p in t.hits)
    aimed = f"{_who(board, state, t.monster)} plays {t.ability.capitalize()} on it"
    tie = " if the players choose it in a tie" if t.tie else ""
    return aimed + tie + (f" (hit chance {hits})" if hits else "")


def _option_namer(state: GameState, what: str) -> Callable[[Any], str]:
    """How the options of a choice are said: as the round's words say them, except that a
    space chosen where a unit stands is said as that space (the rules' answer names the
    unit)."""
    def name(option: Any) -> str:
        where = state.unit(option).position if isinstance(option, str) and \
            state.has_unit(option) else None
        if ("space" in what or "point" in what) and where is not None:
            return f"{space_name(where)} (where {unit_name(state, option)} stands)"
        return choice_words(state, option)
    return name


def breakdown_lines(board: Board, state: GameState, phase: SolvedPhase, uid: str, space: Point,
                    aimed: tuple[Threat, ...], who: str) -> list[str]:
    """A space of the map in words: the chance the explorer is destroyed there beside the
    exact fraction, its expected health lost, the monsters whose attack aims at it, and the
    choices the explorers are assumed to make (and the worst case beside them).

    Rules: manual p10-17 and p24 (the monster phase), p16 (the explorers choose).
    """
    i = phase.explorers.index(uid)
    best = phase.best
    lines = [f"If {who} ends its move on {space_name(space)}: destroyed by the end of the "
             f"monster phase {exact(phase.destroyed(best, i))}; expected health lost "
             f"{number(phase.health_lost(best, i))}.",
             "Health at the end: " + ", ".join(
                 f"{h if h else '0 (destroyed)'}: {exact(p)}"
                 for h, p in phase.health(best, i).items()) + "."]
    if aimed:
        lines.append("Who attacks it: " + "; ".join(
            _threat_words(board, state, t) for t in aimed) + ".")
    elif phase.health_lost(best, i):
        lines.append("Who attacks it: no monster now in play aims its first ability at it; "
                     "what it may lose comes from the rest of the round (a monster spawned "
                     "before the Monster phase, a horror event, or a later ability).")
    else:
        lines.append("Who attacks it: no monster.")
    if phase.choices:
        lines += [f"The explorers are assumed to choose the "
                  f"{choice_phrase(c, _option_namer(state, c[0]))} ({CHOICE_REASON})."
                  for c in phase.choices]
    else:
        lines.append("The players make no choice on the way: the rules decide every step.")
    worst = phase.destroyed(phase.worst, i)
    if worst != phase.destroyed(best, i):
        lines.append(f"With the worst choices for the explorers: destroyed {exact(worst)}.")
    stopped = phase.stopped(best)
    if stopped:
        lines.append(f"{exact(stopped)}: an explorer falls and the monsters turn scheming; "
                     "the health counted is the health at that moment (manual p15).")
    lines.append(f"Every die open, {phase.states} distinct states solved (at most "
                 f"{MAX_STATES}); manual p12-17, p24.")
    return lines


def health_chart_html(health: Mapping[int, Fraction], css: str = "danger-chart") -> str:
    """A health distribution as a small bar table: each health (0 = destroyed), a bar as
    long as its chance, and the chance as a fraction beside its percentage."""
    rows = []
    for h, p in sorted(health.items(), reverse=True):
        colour = ROLE_COLOURS[DANGER_SCALE[-1][0]] if h == 0 else ROLE_COLOURS[DANGER_SCALE[3][0]]
        rows.append(f"<tr><td style='padding-right:6px'>{h if h else '0 (destroyed)'}</td>"
                    f"<td style='width:160px'><div style='background:{colour};height:12px;"
                    f"width:{float(p) * 100:.1f}%'></div></td>"
                    f"<td style='padding-left:6px'>{html.escape(exact(p))}</td></tr>")
    return (f"<table class='{css}'><tr><th style='text-align:left'>health</th><th></th>"
            "<th style='text-align:left;padding-left:6px'>chance</th></tr>"
            f"{''.join(rows)}</table>")


def phase_answer_html(situation: Situation, value: Mapping[str, Any]) -> str:
    """The ``monster_phase`` answer: for each explorer the chance it is destroyed, its expected
    health lost and its health at the end as a bar chart; then the chance any is destroyed."""
    parts = []
    for letter, health in value["health"].items():
        chances = {int(h): Fraction(p) for h, p in health.items()}
        parts.append(f"<div class='analysis-phase' data-unit='{html.escape(letter)}'><b>"
                     f"{html.escape(unit_words(situation, letter))}</b>: destroyed "
                     f"<b>{exact(Fraction(value['destroyed'][letter]))}</b>; expected health "
                     f"lost {number(Fraction(value['health_lost'][letter]))}."
                     f"{health_chart_html(chances)}</div>")
    parts.append(f"Any explorer destroyed: <b>{exact(Fraction(value['any_destroyed']))}</b>.")
    return "".join(parts)


class DangerOverlay:
    """The danger overlay of a board view, for the game ``game(board)`` returns (None: no
    game on that board; ``no_game`` says so). With ``slider``, the explorer has the pick's stamina left (the view's
    stamina slider), at most its own; else its own. Its ``widget`` (a line and a progress bar, shown while the map is
    computed) goes beside the board; CSS classes ``danger-working``, ``danger-progress``."""

    aimed = True   # after the explorer is picked, a click aims at a space

    def __init__(self, game: Callable[[Board], GameState | None], slider: bool = False,
                 no_game: str = "The danger overlay needs a game with monster cards: pick the "
                                "demo board."):
        self.game, self.slider, self.no_game = game, slider, no_game
        self.note = widgets.HTML()
        self.note.add_class("danger-working")
        self.bar = widgets.IntProgress(value=0, min=0, max=1, bar_style="info",
                                       layout=widgets.Layout(width="260px"))
        self.bar.add_class("danger-progress")
        self.widget = widgets.VBox([self.note, self.bar],
                                   layout=widgets.Layout(display="none"))
        self._maps: dict[tuple[GameState, Rules, str], tuple[GameState, RiskMap]] = {}

    def reselects(self, board: Board, picked: Point, point: Point) -> bool:
        """Whether a click on ``point`` picks another explorer rather than aiming."""
        state = self.game(board)
        unit = state.unit_at(point) if state is not None else None
        return point != picked and unit is not None and unit.side == "explorer"

    def _progress(self, done: int, total: int) -> None:
        self.bar.max, self.bar.value = total, done

    def risk(self, state: GameState, rules: Rules, uid: str, who: str
             ) -> tuple[GameState, RiskMap]:
        """The explorer's turn state and its risk map (computed once, a bar shown meanwhile)."""
        key = (state, rules, uid)
        if key not in self._maps:
            turn = start_turn(state, uid, rules, who)
            self.note.value = f"<i>Working: the monster phase for each space {who} can reach…</i>"
            self.bar.value = 0
            self.widget.layout.display = None
            try:
                found = risk_map(turn, rules, uid, self._progress)
            finally:
                self.widget.layout.display = "none"
            self._maps = {key: (turn, found)}
        return self._maps[key]

    def __call__(self, board: Board, rules: Rules, pick: Pick) -> Highlights:
        """Rules: manual p34 (reach), p10-17 and p24 (the monster phase), p16 (choices)."""
        state = self.game(board)
        picked = ((pick.selected, "selected"),)
        if state is None:
            return Highlights(picked, title="Danger", verdict=(self.no_game,))
        unit = state.unit_at(pick.selected)
        if unit is None or unit.side != "explorer":
            return Highlights(picked, title="Danger: pick an explorer", verdict=(DANGER_HINT,))
        who = _who(board, state, unit.id)
        if self.slider and pick.stamina < unit.stamina:
            state = state.update_unit(unit.id, stamina=pick.stamina)
        try:
            turn, found = self.risk(state, rules, unit.id, who)
        except RulesError as exc:
            return Highlights(picked, title=f"Danger for {who}",
                              verdict=(str(exc).partition(": ")[2] or str(exc),))
        spaces, labels = danger_highlights(found, unit.id, pick.selected, pick.target)
        title = f"Danger for {who}"
        if pick.target is None or pick.target not in found:
            ahead = "" if pick.target is None else \
                f"{who} cannot end its move on {space_name(pick.target)}. "
            stamina = state.unit(unit.id).stamina
            return Highlights(spaces, labels=labels, title=title, verdict=(
                f"{ahead}With {stamina} stamina left, {who} can end its move on {len(found)} "
                f"space{'s' if len(found) != 1 else ''}, its own included (manual p34). Click "
                "one of them for its breakdown.",))
        at = standing_at(turn, unit.id, pick.target)
        verdict = breakdown_lines(board, at, found[pick.target], unit.id, pick.target,
                                  threats(at, rules, unit.id), who)
        return Highlights(spaces, labels=labels, title=title, verdict=tuple(verdict))
