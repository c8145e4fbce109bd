"""The Round tab's words: units by name, actions as sentences, citations a reader can follow,
and the log of a game so far, one line per action with a summary closing each phase.

The words come from the phrasebook (:mod:`machina_nb.rules.engine.phrases`) and the board's
space labels; nothing here decides a rule.
"""

from __future__ import annotations

import html
import re

from machina_nb.rules.analysis.action_words import (
    contribution_words,
    inventory_words,
    trade_words,
)
from machina_nb.rules.analysis.summary import changes, phase_title
from machina_nb.rules.board.labels import corner_name, point_name, space_name
from machina_nb.rules.board.placement import Displacement
from machina_nb.rules.engine.actions import (
    Action,
    Activate,
    ChapterSpace,
    Choose,
    Door,
    EndTurn,
    Exit,
    Explore,
    MonsterAct,
    Move,
    PlayAbility,
    RollHorror,
    RollSpawn,
    SealSpawn,
    StartTurn,
    Trade,
    UseInventory,
    explorer_abilities,
)
from machina_nb.rules.engine.game import History, Step
from machina_nb.rules.engine.monsters import monster_abilities
from machina_nb.rules.engine.phrases import Reason, dice_words, say
from machina_nb.rules.engine.resolution import Event, Kind
from machina_nb.rules.engine.state import GameState
from machina_nb.rules.rulings import Rules
from machina_nb.rules.rulings_words import cite_words
from machina_nb.views.board import plain_text
from machina_nb.views.reference import manual_links

__all__ = ["unit_name", "event_words", "plain_event", "choice_words", "ability_name",
           "target_words", "action_text", "plain_cite", "cites_once", "events_html"]


def unit_name(state: GameState, unit_id: str) -> str:
    """A unit as the players call it: its card name, with its number for a monster
    (``Mi-Go 1``); ``the players`` for the players' own rolls."""
    if unit_id == "players":
        return "the players"
    number = unit_id.rsplit("-", 1)[1] if "-" in unit_id else ""
    if state.has_unit(unit_id):
        name = state.unit(unit_id).name
    else:
        name = unit_id.rsplit("-", 1)[0].replace("_", " ").title() if number.isdigit() \
            else unit_id.replace("_", " ").title()
    return f"{name} {number}" if number.isdigit() else name


def event_words(state: GameState, event: Event | Reason) -> str:
    """An event as the board shows things, said by the phrasebook: spaces ``C6``, units by
    name, points between spaces in words."""
    names = {unit_id: unit_name(state, unit_id) for unit_id in event.who}
    text = say(event, names, space=point_name, point=corner_name, dice=dice_words,
               word=lambda name: name.replace("_", " "))
    return cite_words(text.replace("->", "→").replace(">=", "≥").replace("<=", "≤"))


def plain_event(state: GameState, text: str) -> str:
    """An engine text as the board shows things: spaces named ``C6``, units by name."""
    text = re.sub(r"\((\w+-\d+)\)", "", text)  # a new unit's id after its name
    return plain_text(text, {u.id: unit_name(state, u.id) for u in state.units})


def choice_words(state: GameState, value) -> str:
    if isinstance(value, Displacement):
        return f"{space_name(value.end)} (the move ends there)"
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return space_name(value)
    if isinstance(value, str) and state.has_unit(value):
        return unit_name(state, value)
    if isinstance(value, tuple):
        return " and ".join(choice_words(state, v) for v in value)
    return str(value).replace("_", " ")


def ability_name(state: GameState, rules: Rules, unit_id: str, index: int) -> str:
    """The name of a unit's ability ``index`` as :class:`PlayAbility` counts them, or
    ``ability {index}`` when there is none (manual p20: ability sources)."""
    if state.has_unit(unit_id):
        u = state.unit(unit_id)
        abilities = explorer_abilities(state, u) if u.side == "explorer" else \
            tuple(a for _, a in monster_abilities(state, u, rules))
        if 0 <= index < len(abilities):
            return abilities[index].name.replace("_", " ")
    return f"ability {index}"


def target_words(target) -> str:
    if target is None:
        return ""
    if isinstance(target[0], tuple):
        return " on " + " and ".join(space_name(t) for t in target)
    return f" on {space_name(target)}"


_DOOR_VERBS = {"open": "opens", "close": "closes", "destroy": "destroys"}


def action_text(state: GameState, rules: Rules, action: Action) -> str:
    """An action as a sentence with names: ``Mi-Go 1 acts``, ``Phillip steps to C6``; a played
    ability is named (manual p20); the answers given ahead to its choices follow."""
    if isinstance(action, Choose):
        what = plain_text(state.decision.what) if state.decision is not None else "the option"
        return f"the players choose {choice_words(state, action.option)} for {what}"
    who = unit_name(state, action.actor)
    if isinstance(action, PlayAbility):
        text = (f"{who} plays {ability_name(state, rules, action.actor, action.index)}"
                f"{target_words(action.target)}"
                + (f", ready to spend up to {action.essence} essence" if action.essence else ""))
    elif isinstance(action, UseInventory):
        text = f"{who}: {inventory_words(state, action)}"
    elif isinstance(action, Trade):
        text = f"{who}: {trade_words(state, action)}"
    else:
        text = _plain_action(state, action, who)
    text += contribution_words(state, action)
    if action.choices:
        text += " — choosing " + ", then ".join(choice_words(state, c) for c in action.choices)
    return text


def _plain_action(state: GameState, action: Action, who: str) -> str:
    """Every action kind but an ability, as a sentence."""
    if isinstance(action, Move):
        return f"{who} steps to {space_name(action.to)}"
    if isinstance(action, Door):
        return (f"{who} {_DOOR_VERBS.get(action.op, action.op)} the door between "
                f"{space_name(action.a)} and {space_name(action.b)}")
    if isinstance(action, (Activate, ChapterSpace, SealSpawn)):
        verb = {Activate: "activates the space", ChapterSpace: "activates the chapter space",
                SealSpawn: "seals the spawn space"}[type(action)]
        option = getattr(action, "option", "")
        return f"{who} {verb} {space_name(action.space)}" + (f" ({option})" if option else "")
    return {StartTurn: f"{who} starts their turn", EndTurn: f"{who} ends their turn",
            Exit: f"{who} leaves the map by the exit", RollSpawn: f"{who} makes the spawn roll",
            RollHorror: "the players make the horror roll", MonsterAct: f"{who} acts",
            UseInventory: f"{who} uses the inventory", Explore: f"{who} explores",
            Trade: f"{who} trades"}.get(type(action), f"{who}: {type(action).__name__.lower()}")


def _esc(value) -> str:
    return html.escape(str(value))


_SPEC = re.compile(r"(?:[;,]\s*)?\bspec\s+§?[A-Z][\w.-]*(?:,\s*[A-Z]\d[\w.-]*)*")


def plain_cite(rule: str) -> str:
    """A citation as the reader can follow it: the manual's pages and the rulings in words,
    without the references to the project's specification (a document the user does not
    have)."""
    return cite_words(_SPEC.sub("", rule).strip(" ;,"))


def cites_once(rules) -> list[str]:
    """The citations of ``rules`` as the reader can follow them, each once, in the order first
    cited; a bare page is left out where the same page is cited with its topic.

    >>> cites_once(["manual p24 (attack)", "manual p24", "manual p18 (health)", "manual p24"])
    ['manual p24 (attack)', 'manual p18 (health)']
    """
    found = list(dict.fromkeys(c for c in map(plain_cite, rules) if c))
    return [c for c in found if not any(d.startswith(c + " (") for d in found)]


def _cites(rules: list[str]) -> str:
    """Each rule once, in the order first cited."""
    return "; ".join(cites_once(rules))


#: The log is a list without numbers or bullets: headings for the phases, the actions under
#: them a little indented, each on its own line.
_LOG_STYLE = "list-style: none; padding-left: 0; margin: 0"

#: Events that only say again what the action's own sentence says.
_ECHOES = {StartTurn: "turn_begins", EndTurn: "turn_ends"}


def _said(state: GameState, step: Step) -> tuple[list[str], list[str]]:
    """What an action caused, in words, and the mindless monster's reasons apart: leaving out
    what the action's sentence already says (the turn it begins or ends, the choice it makes)
    and the phase it opens (a heading says so)."""
    echo = _ECHOES.get(type(step.action))
    said: list[str] = []
    reasons: list[str] = []
    for event in step.events:
        if event.phrase == echo or (isinstance(step.action, Choose) and event.kind == Kind.CHOICE):
            continue
        if event.kind == Kind.PHASE and event.text.endswith("phase begins"):
            continue
        (reasons if event.kind == Kind.REASON else said).append(event_words(state, event))
    return list(dict.fromkeys(said)), reasons


def _line(state: GameState, rules: Rules, step: Step) -> str:
    """One action on one line: its sentence (for a monster's action, what it did), its dice,
    what it caused and the rules cited; a mindless monster's reasons folded beneath."""
    faces = tuple(r for r in step.rolls if isinstance(r, int))     # not a shuffle's order
    dice = f", {dice_words(faces)}" if faces else ""
    said, reasons = _said(state, step)
    head = action_text(state, rules, step.action)
    if isinstance(step.action, MonsterAct) and said:
        head, said = said[0], said[1:]
    cites = _cites([e.rule for e in step.events])
    why = ("<details class='log-why'><summary>why</summary><ol>"
           + "".join(f"<li>{_esc(r)}</li>" for r in reasons) + "</ol></details>") if reasons else ""
    return (f"<li class='log-action' style='margin-left: 1em'><b>{_esc(head)}</b>{_esc(dice)}"
            + (f": {_esc('; '.join(said))}" if said else "")
            + (f" <span class='cite'>({manual_links(cites)})</span>" if cites else "") + why
            + "</li>")


def _summary(start: GameState, end: GameState, what: str) -> str:
    """The line that closes a phase or a round: what changed over it."""
    said = changes(start, end, lambda uid: unit_name(end if end.has_unit(uid) else start, uid))
    return (f"<li class='log-summary' style='margin-left: 1em'><i>{_esc(what)}:</i> "
            f"{_esc('; '.join(said) if said else 'nothing changed on the board or the tracks')}"
            "</li>")


def events_html(history: History) -> str:
    """The log so far as HTML, newest last: a heading for each phase, one line per action
    (its sentence, dice, what it caused and the rules it cites, each once), and a summary
    closing each phase and each round (what came into play, was destroyed, health and the
    tracks)."""
    state = history.initial
    steps = history.steps[:history.position]
    items = [f"<li class='log-phase'><b>{_esc(phase_title(state))}</b></li>"] if steps else []
    phase_start = round_start = state
    for step in steps:
        items.append(_line(state, history.rules, step))
        after = step.state
        if (after.round, after.phase) != (state.round, state.phase) or after.over:
            items.append(_summary(phase_start, after, f"End of the {state.phase} phase"))
            phase_start = after
        if after.round != state.round or (after.over and not state.over):
            items.append(_summary(round_start, after, f"Round {state.round} in all"))
            round_start = after
        if (after.round, after.phase) != (state.round, state.phase) and not after.over:
            items.append(f"<li class='log-phase'><b>{_esc(phase_title(after))}</b></li>")
        state = after
    return (f"<ul class='event-items' style='{_LOG_STYLE}'>" + "".join(items) + "</ul>") if items \
        else \
        "<i>No actions yet.</i>"
