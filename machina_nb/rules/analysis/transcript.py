"""A game written as text: each action in the one action notation, the dice it used, and the
events it caused with their rules. Golden playthroughs are such texts, diffed line by line.

The actions are written by :func:`~machina_nb.rules.analysis.step_text.write_action`, so a
transcript's action lines read back with
:func:`~machina_nb.rules.analysis.step_text.read_action`. Units are named by letters, given in
order of coming into play (explorers in seating order, then monsters as they spawn); the first
line says which letter is which unit. An action answered ahead is written without its answers
(the events say what was chosen); the actions the notation has no line for (a decision's
answer, an inventory change) are said in words.

>>> from machina_nb.rules.board.maptext import parse_map
>>> from machina_nb.rules.cards.units import UnitCard
>>> from machina_nb.rules.engine.actions import Move, StartTurn
>>> from machina_nb.rules.engine.game import History, new_game
>>> phillip = UnitCard("phillip", "Phillip", "explorer", armor=2, will=2, health=5, stamina=4)
>>> game = History.start(new_game(parse_map("+-+-+\\n|. .|\\n+-+-+\\n"), [(phillip, (0, 0))]))
>>> game = game.apply(StartTurn("phillip")).apply(Move("phillip", (1, 0)))
>>> print(transcript(game), end="")
units: A phillip
[round 1, explorer] A starts
    turn: phillip begins their turn  [manual p12]
[round 1, explorer] A moves to (1, 0)
    move: phillip moves (0, 0) -> (1, 0) (1 stamina)  [manual p34 (move)]
"""

from __future__ import annotations

from dataclasses import replace
from string import ascii_uppercase

from machina_nb.rules.analysis.notation import NotationError
from machina_nb.rules.analysis.step_text import write_action
from machina_nb.rules.engine.actions import Action, Choose, UseInventory
from machina_nb.rules.engine.game import History
from machina_nb.rules.engine.state import GameState
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

__all__ = ["transcript", "unit_letters"]


def unit_letters(history: History) -> dict[str, str]:
    """A letter for every unit that comes into play in ``history``, in order of coming into
    play; more units than letters is refused, naming ``history``."""
    ids: dict[str, None] = {}
    for state in (history.initial, *(s.state for s in history.steps[:history.position])):
        ids.update((u.id, None) for u in state.units)
    if len(ids) > len(ascii_uppercase):
        raise RulesError("history", f"{len(ids)} units came into play; the notation names "
                                    f"at most {len(ascii_uppercase)}")
    return dict(zip(ids, ascii_uppercase))


def transcript(history: History) -> str:
    """The game so far as text: which letter is which unit, then each action in the notation,
    the dice it used, and its events with their rules."""
    letters = unit_letters(history)
    lines = ["units: " + ", ".join(f"{letter} {uid}" for uid, letter in letters.items())]
    state = history.initial
    for step in history.steps[:history.position]:
        lines.append(f"[round {state.round}, {state.phase}] "
                     f"{action_line(step.action, state, history.rules, letters)}"
                     + (f"  dice {list(step.rolls)}" if step.rolls else ""))
        lines += [f"    {e.kind}: {e.text}  [{e.rule}]" for e in step.events]
        state = step.state
    return "\n".join(lines) + "\n"


def action_line(action: Action, state: GameState, rules: Rules, letters: dict[str, str]) -> str:
    """``action`` (taken in ``state``) as the transcript writes it: its step of the notation,
    without the answers given ahead; in words when the notation has no line for it."""
    if isinstance(action, Choose):
        return "the players choose"
    if isinstance(action, UseInventory):
        return f"{letters[action.actor]} uses an inventory"
    try:
        return write_action(replace(action, choices=()), state, rules, letters)
    except NotationError as error:
        return f"{letters.get(action.actor, action.actor)} takes an action the notation has " \
               f"no line for ({error})"
