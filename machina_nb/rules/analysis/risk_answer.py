"""The ``monster_phase`` and ``risk_map`` questions: exact risk in words and plain values.

``monster_phase`` answers, for the rest of the round up to the end of the Monster phase
(:mod:`machina_nb.rules.analysis.risk`), each explorer's health distribution at the end
(0 = destroyed), the chance each is destroyed, the chance any is, the expected health lost,
the threat and level distributions when the Horror phase runs, the choices the explorers make
and the worst case beside them. ``risk_map`` answers it once for every space the explorer
whose turn it is can end its move on now.

Values are keyed by unit letter and space ``(x, y)``, chances as exact fractions in strings.

Rules: manual p10-17 (the round up to the end of the Monster phase), p16 (ties), p24
(attacks), p34 (move: 1 stamina per space).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, cast

from machina_nb.rules.analysis.play import option_words, point_words
from machina_nb.rules.analysis.questions import Question
from machina_nb.rules.analysis.risk import MAX_STATES, SolvedPhase, check_limits, monster_phase
from machina_nb.rules.analysis.situation import Situation
from machina_nb.rules.board import distance
from machina_nb.rules.board.distance import Mover
from machina_nb.rules.board.labels import column_name, space_name
from machina_nb.rules.board.maptext import Point
from machina_nb.rules.engine.actions import StartTurn, apply
from machina_nb.rules.engine.state import GameState
from machina_nb.rules.errors import RulesError
from machina_nb.rules.numbers import chance_words, fraction_words, whole_percent
from machina_nb.rules.rulings import Rules

__all__ = ["monster_phase_answer", "risk_map_answer", "reach_spaces", "standing_at",
           "MAX_MAP_SPACES", "risk_map", "whose_turn", "start_turn", "risk_board",
           "choice_phrase", "CHOICE_REASON", "ranked_spaces"]

MAX_MAP_SPACES = 200
"""The most spaces a risk map computes (the explorer's reach, its own space included)."""


def unit_words(situation: Situation, uid: str) -> str:
    """A unit as its card's name and letter: "Kim (K)"."""
    letter = situation.letter_of(uid)
    card = next((u.card for u in situation.units if u.id == uid), None)
    cards = situation.cards.units()
    name = cards[card].name if card is not None and card in cards else uid
    return f"{name} ({letter})" if letter else name


def _letter(situation: Situation, uid: str) -> str:
    return situation.letter_of(uid) or uid


def phase_value(situation: Situation, phase: SolvedPhase, horror: bool) -> dict[str, Any]:
    """The phase's answer as plain values: chances as fractions in strings."""
    best, worst = phase.best, phase.worst
    letters = [_letter(situation, e) for e in phase.explorers]
    value: dict[str, Any] = {
        "destroyed": {x: fraction_words(phase.destroyed(best, i)) for i, x in enumerate(letters)},
        "health": {x: {str(h): fraction_words(p) for h, p in phase.health(best, i).items()}
                   for i, x in enumerate(letters)},
        "any_destroyed": fraction_words(phase.any_destroyed(best)),
        "health_lost": {x: fraction_words(phase.health_lost(best, i))
                        for i, x in enumerate(letters)},
        "choices": [_choice_words(situation, c) for c in phase.choices],
        "worst": {"destroyed": {x: fraction_words(phase.destroyed(worst, i))
                                for i, x in enumerate(letters)},
                  "any_destroyed": fraction_words(phase.any_destroyed(worst)),
                  "health_lost": fraction_words(phase.health_lost(worst))},
    }
    if horror:
        value["threat"] = {str(k): fraction_words(p) for k, p in phase.marginal(best, 1).items()}
        value["level"] = {str(k): fraction_words(p) for k, p in phase.marginal(best, 2).items()}
    return value


CHOICE_REASON = ("manual p16: the least chance that any explorer is destroyed, then the least "
                 "health lost")
"""Why the explorers choose as the answer says they do."""


def choice_phrase(choice: tuple[str, Any, tuple[Any, ...]], name: Callable[[Any], str]) -> str:
    """A choice the explorers were assumed to make, ``name`` saying each option:
    ``target: A (rather than B)``.

    >>> choice_phrase(("target (manual p16)", "A", ("A", "B")), str)
    'target: A (rather than B)'
    >>> choice_phrase(("the spawn space", (1, 0), ((1, 0), (2, 0))), str)
    'spawn space: (1, 0) (rather than (2, 0))'
    """
    what, pick, options = choice
    others = ", ".join(name(o) for o in options if o != pick)
    return f"{what.split(' (')[0].removeprefix('the ')}: {name(pick)} (rather than {others})"


def _choice_words(situation: Situation, choice: tuple[str, Any, tuple[Any, ...]]) -> str:
    return choice_phrase(choice, lambda o: option_words(situation, o))


def phase_why(situation: Situation, phase: SolvedPhase, horror: bool) -> list[str]:
    """The phase's answer in sentences."""
    best, worst = phase.best, phase.worst
    why = []
    for i, e in enumerate(phase.explorers):
        health = ", ".join(f"{h}: {chance_words(p)}" for h, p in phase.health(best, i).items())
        why.append(f"{unit_words(situation, e)}: destroyed "
                   f"{chance_words(phase.destroyed(best, i))}; "
                   f"health at the end {health}; expected health lost "
                   f"{fraction_words(phase.health_lost(best, i))}")
    why.append(f"any explorer destroyed: {chance_words(phase.any_destroyed(best))}")
    why += [f"the explorers choose the {_choice_words(situation, c)} ({CHOICE_REASON})"
            for c in phase.choices]
    why.append(f"the worst choices for the explorers: any explorer destroyed "
               f"{chance_words(phase.any_destroyed(worst))}, expected health lost "
               f"{fraction_words(phase.health_lost(worst))}")
    if horror:
        why.append("threat at the end: " + ", ".join(
            f"{k}: {chance_words(p)}" for k, p in phase.marginal(best, 1).items()))
    stopped = phase.stopped(best)
    if stopped:
        why.append(f"{chance_words(stopped)}: the players move a monster before the phase ends (an "
                   "explorer has fallen and the monsters are scheming, manual p15, or an "
                   "explorer controls it, p25); the health counted is the health at that moment")
    why.append(f"every die open, {phase.states} distinct states solved (at most {MAX_STATES}); "
               "manual p12-17, p24")
    return why


def _horror_runs(state: GameState) -> bool:
    """Whether a Horror phase is still to come this round with a horror rating."""
    return state.horror_rating is not None and state.phase in ("explorer", "spawn", "horror")


def monster_phase_answer(situation: Situation, q: Question, rules: Rules, state: GameState
                         ) -> tuple[Any, ...]:
    """Rules: manual p10-17 (the rest of the round to the end of the Monster phase), p16
    (the explorers choose), p24 (attacks), p15 (scheming)."""
    try:
        phase = monster_phase(state, rules)
    except RulesError as exc:
        raise RulesError(q.name, f"question {q.name}: {exc}") from None
    horror = _horror_runs(state)
    marks = tuple((cast(Point, state.unit(e).position), "asked") for e in phase.explorers)
    return phase_value(situation, phase, horror), phase_why(situation, phase, horror), marks


def reach_spaces(state: GameState, rules: Rules, uid: str) -> tuple[Point, ...]:
    """Every space the explorer can end a move on now with its current stamina, its own first.

    Rules: manual p34 (move: 1 stamina per space), p25 (ethereal), p35 (pits).
    """
    unit = state.unit(uid)
    ethereal = tuple(u.id for u in state.units if u.ethereal and u.position is not None)
    mover = Mover(unit=unit.id, mindless=False, ethereal=unit.ethereal)
    here = cast(Point, unit.position)
    found = distance.reach(state.board(), here, unit.stamina, rules, mover, ethereal)
    return (here,) + tuple(p for p in found if p != here)


def standing_at(state: GameState, uid: str, space: Point) -> GameState:
    """The state with the explorer standing on ``space`` (its move made, nothing set off)."""
    return state.update_unit(uid, position=space)


def whose_turn(situation: Situation, letter: str, state: GameState, rules: Rules
               ) -> tuple[str, GameState]:
    """The explorer ``letter`` and the state with its turn going on: the active explorer, or
    one who has not acted yet between turns of the explorer phase (its turn starts).

    Rules: manual p12 (explorers take their turns in the order they like).
    """
    uid = situation.unit_id(letter)
    try:
        return uid, start_turn(state, uid, rules, letter)
    except RulesError as exc:
        raise RulesError(exc.argument, f"{str(exc).partition(': ')[2]} ([turn] names the "
                         "active explorer)") from None


def start_turn(state: GameState, uid: str, rules: Rules, who: str) -> GameState:
    """The state with explorer ``uid`` taking its turn: as it is if its turn is going on, else
    with its turn started between turns of the explorer phase; refused in one line naming
    ``who`` otherwise.

    Rules: manual p12 (explorers take their turns in the order they like).
    """
    if state.phase == "explorer" and state.active is None and uid not in state.done and \
            state.unit(uid).side == "explorer" and state.unit(uid).position is not None:
        state, _ = apply(state, StartTurn(uid), rules)
    if state.unit(uid).side != "explorer" or state.phase != "explorer" or \
            state.active != uid:
        raise RulesError("unit", f"a risk map is for the explorer whose turn it is; {who} "
                         "is not taking its turn and cannot start one")
    return state


def risk_map(state: GameState, rules: Rules, uid: str,
             progress: Callable[[int, int], None] | None = None) -> dict[Point, SolvedPhase]:
    """The monster phase with the explorer standing on each space of its reach."""
    check_limits(state)
    spaces = reach_spaces(state, rules, uid)
    if len(spaces) > MAX_MAP_SPACES:
        raise RulesError("unit", f"{len(spaces)} spaces in reach: a risk map computes at most "
                         f"{MAX_MAP_SPACES}")
    out = {}
    for n, p in enumerate(spaces):
        out[p] = monster_phase(standing_at(state, uid, p), rules)
        if progress is not None:
            progress(n + 1, len(spaces))
    return out


def risk_map_answer(situation: Situation, q: Question, rules: Rules, state: GameState
                    ) -> tuple[Any, ...]:
    """Rules: manual p34 (the spaces it can end a move on), p10-17 and p24 (the monster phase
    with it standing there), p16 (the explorers choose)."""
    try:
        uid, state = whose_turn(situation, q.get("unit"), state, rules)
        found = risk_map(state, rules, uid)
    except RulesError as exc:
        raise RulesError(q.name, f"question {q.name}: {exc}") from None
    i = {p: phase.explorers.index(uid) for p, phase in found.items()}
    spaces = {point_words(p): {"destroyed": fraction_words(ph.destroyed(ph.best, i[p])),
                               "health_lost": fraction_words(ph.health_lost(ph.best, i[p])),
                               "any_destroyed": fraction_words(ph.any_destroyed(ph.best))}
              for p, ph in found.items()}
    ranked = sorted(found, key=lambda p: (found[p].destroyed(found[p].best, i[p]),
                                          found[p].health_lost(found[p].best, i[p]), p))
    who = unit_words(situation, uid)
    why = [f"{who} can end its move on {len(found)} spaces, its own included (manual p34)"]
    for p in ranked[:5]:
        ph = found[p]
        why.append(f"{point_words(p)}: destroyed {chance_words(ph.destroyed(ph.best, i[p]))}, "
                   f"expected health lost {fraction_words(ph.health_lost(ph.best, i[p]))}")
    if len(ranked) > 5:
        why.append(f"... and {len(ranked) - 5} more spaces (the safest are listed first)")
    why.append("each space: the rest of the round to the end of the Monster phase with every "
               "die open, the explorers choosing as safely as they can (manual p12-17, p24)")
    here = cast(Point, state.unit(uid).position)
    marks = ((here, "asked"),) + tuple((p, "reach") for p in found if p != here)
    return {"spaces": spaces}, why, marks


def ranked_spaces(found: dict[Point, SolvedPhase], uid: str
                  ) -> list[tuple[Point, Fraction, Fraction]]:
    """Each space of a risk map with the chance the explorer is destroyed there and its
    expected health lost, safest first: the least chance of destruction, then the least
    health lost, then the space's order (column, row)."""
    rows = []
    for p, ph in found.items():
        i = ph.explorers.index(uid)
        rows.append((p, ph.destroyed(ph.best, i), ph.health_lost(ph.best, i)))
    return sorted(rows, key=lambda r: (r[1], r[2], r[0]))


def risk_board(situation: Situation, rules: Rules, letter: str,
               progress: Callable[[int, int], None] | None = None, labels: bool = False
               ) -> tuple[list[str], list[tuple[str, Fraction, Fraction]]]:
    """The board with the chance the explorer is destroyed on each space it can end on (a
    whole percentage; units by letter, other spaces ``.``), and each space's destroyed chance
    and expected health lost, safest first. With ``labels`` the board has its column letters
    above and its row numbers beside it, and spaces are named as they label them (``D1``);
    else spaces are written ``(x, y)``.

    Rules: manual p34 (reach), p10-17 and p24 (the monster phase), p16 (the explorers choose).
    """
    uid, state = whose_turn(situation, letter, situation.state_at(rules), rules)
    rows = ranked_spaces(risk_map(state, rules, uid, progress), uid)
    chance = {p: d for p, d, _ in rows}
    layout = situation.layout
    grid = ["    " + " ".join(f"{column_name(x):>3}" for x in range(layout.width))] \
        if labels else []
    for y in range(layout.height):
        cells = [f"{y + 1:>3}"] if labels else []
        for x in range(layout.width):
            unit = state.unit_at((x, y))
            if (x, y) in chance:
                cells.append(f"{whole_percent(chance[(x, y)]):>3}")
            elif unit is not None:
                cells.append(f"{situation.letter_of(unit.id) or '?':>3}")
            else:
                cells.append("  .")
        grid.append(" ".join(cells))
    name = space_name if labels else point_words
    return grid, [(name(p), d, lost) for p, d, lost in rows]
