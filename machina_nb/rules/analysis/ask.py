"""Ask: the one place that answers a situation's questions at the rules in force.

Each answer is an :class:`Answer`: a plain ``value`` (strings, numbers, lists and
tables of them; exact chances as strings like ``"5/9"``) that compares equal under
two readings exactly when the rules give the same answer, and ``why``: the
explanation with its citations, which may name the readings and is not compared.
The views, the notebooks and the command line all ask through :func:`ask`.

>>> from machina_nb.rules.content import content_root
>>> from machina_nb.rules.analysis.situation import load_situation
>>> s = load_situation(content_root() / "situations" / "sight_corner.toml")
>>> ask(s)[0].value
'blocked'
>>> ask(s, s.rules().replace({"los.vertex": "touch_ok"}))[0].value
'visible'

Rules: manual p15-17 (the mindless monster), p13 (spawn placement), p22 (sight,
adjacency, nearest, closest), p23 (targeting), p24 (attack odds), p34 (move).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

from machina_nb.rules.analysis.action_words import contribution_words, inventory_words
from machina_nb.rules.analysis.attack_odds import (
    attack_odds,
    attack_pools,
    attack_sources,
)
from machina_nb.rules.analysis.monster_turn import MAX_TURN_STEPS, monster_turn
from machina_nb.rules.analysis.notation import NotationError
from machina_nb.rules.analysis.phrases import field_words, reader_names, reader_words
from machina_nb.rules.analysis.play import play
from machina_nb.rules.analysis.questions import QUESTION_KINDS, SPACE_WORDS, Question
from machina_nb.rules.analysis.risk_answer import monster_phase_answer, risk_map_answer
from machina_nb.rules.analysis.situation import Situation, SituationUnit
from machina_nb.rules.analysis.step_text import write_action
from machina_nb.rules.board import distance, placement, sight
from machina_nb.rules.board.distance import Mover
from machina_nb.rules.board.maptext import Point
from machina_nb.rules.cards.items import ITEM_TYPES
from machina_nb.rules.cards.records import Record
from machina_nb.rules.cards.units import unit_card
from machina_nb.rules.engine.actions import Move, UseInventory, legal_actions
from machina_nb.rules.engine.game import new_game
from machina_nb.rules.engine.phases import current_monster
from machina_nb.rules.engine.state import GameState, Unit
from machina_nb.rules.errors import RulesError
from machina_nb.rules.numbers import fraction_words, percent_words
from machina_nb.rules.odds import processes
from machina_nb.rules.rulings import Rules

__all__ = ["Answer", "ask", "answer", "show_value", "MAX_TURN_STEPS", "MARK_ROLES",
           "questions_about"]

MARK_ROLES = {
    "asked": "the unit or space the question is about",
    "target": "the unit or space it aims at",
    "visible": "in sight",
    "blocked": "out of sight",
    "reach": "a space it can end a move on",
    "tied": "nearest or closest (every tie)",
    "candidate": "another unit it measured",
    "step": "a space the monster moves to, in order",
    "end": "where the monster's turn ends",
    "spawn": "where a spawned monster may be placed",
}
"""What an answer's marks on the board mean (a view draws them; :attr:`Answer.marks`)."""


@dataclass(frozen=True)
class Answer:
    """One question's answer: the compared ``value``, the explanation ``why``, ``marks`` (the
    spaces the answer is about, in order, each with a role of :data:`MARK_ROLES`) and
    ``options``: where a monster's turn stops for the players' choice, what they may choose
    (unit ids or spaces; add one to the question's ``choices`` to go on); ``rolls``: where it
    waits for a die, ``(die, ((value, chance), ...))`` (add a value to its ``dice``)."""

    name: str
    kind: str
    value: Any
    why: tuple[str, ...] = ()
    marks: tuple[tuple[Point, str], ...] = ()
    options: tuple[Any, ...] = ()
    rolls: tuple[Any, ...] = ()


def ask(situation: Situation, rules: Rules | None = None) -> tuple[Answer, ...]:
    """Every question of ``situation`` answered at ``rules`` (default: the situation's own)."""
    rules = situation.rules() if rules is None else rules
    state = situation.state_at(rules)
    return tuple(answer(situation, q, rules, state) for q in situation.questions)


def answer(situation: Situation, question: Question, rules: Rules,
           state: GameState | None = None) -> Answer:
    """One question answered at ``rules``."""
    state = situation.state_at(rules) if state is None else state
    got = _KINDS[question.ask](situation, question, rules, state)
    value, why, marks, options, rolls = got + ((), (), ())[len(got) - 2:]
    names = reader_names(situation, (state,))
    return Answer(question.name, question.ask, value,
                  tuple(reader_words(situation, str(w), names) for w in why), tuple(marks),
                  tuple(options), tuple(rolls))


def show_value(value: Any) -> str:
    """A value as plain words on one line: lists joined by commas, tables as ``key: value``."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return "; ".join(f"{_key_words(k)}: {show_value(v)}"
                         for k, v in value.items()) or "nothing"
    if isinstance(value, (list, tuple)):
        return ", ".join(show_value(v) for v in value) or "none"
    return str(value)


def _key_words(key: Any) -> str:
    """A table's key: a report field in words (``stamina_left`` -> ``stamina left``)."""
    return field_words(key) if isinstance(key, str) and _FIELD.fullmatch(key) else str(key)


_FIELD = re.compile(r"[a-z]+(_[a-z]+)+")


# --- the questions about a unit or a space -------------------------------------------------------

def questions_about(situation: Situation, pick: str | Point) -> tuple[Question, ...]:
    """What a player asks about a unit (its letter) or a space (``(x, y)``), as questions.

    About a unit: whether it sees each other unit, whether each of its targeting abilities
    (from every source: card, items, events, chapter) may target each unit it may aim at, its reach, the nearest and closest units of the
    other side, a mindless monster's whole turn, the odds of its attacks and, for an
    explorer, where a monster it spawns would go. About a space: whether it sees each unit
    and the nearest and closest explorers and monsters.
    Rules: manual p13 (spawn), p15-17 (the mindless turn), p20-21 (ability sources), p22-24
    (sight, targeting, nearest, closest, attacks), p34 (move).
    """
    state = situation.base
    placed = [u for u in situation.units if state.unit(u.id).position is not None]
    asked = {_signature(q) for q in situation.questions}
    found = _about_unit(situation, state, pick, placed) if isinstance(pick, str) else \
        _about_space(state, pick, placed)
    return tuple(q for q in found if _signature(q) not in asked)


def _signature(q: Question) -> tuple[Any, ...]:
    """What a question asks, whatever its name (``among`` defaults to the explorers)."""
    keys = dict(q.record.items)
    keys.pop("name", None)
    if q.ask in ("nearest", "closest"):
        keys.setdefault("among", "explorers")
    return q.ask, tuple(sorted(keys.items(), key=lambda kv: kv[0]))


def _about_space(state: GameState, pick: Point, placed: Iterable[SituationUnit]
                 ) -> tuple[Question, ...]:
    x, y = pick
    here = f"{x}_{y}"
    out = [_question(f"sight_{here}_to_{u.letter.lower()}", "sight",
                     **{"from": [x, y], "to": u.letter}) for u in placed if u.position != (x, y)]
    for among in ("explorers", "monsters"):
        if any(state.unit(u.id).side == among[:-1] for u in placed if u.position != (x, y)):
            for kind in ("nearest", "closest"):
                out.append(_question(f"{kind}_{among}_to_{here}", kind,
                                     **{"from": [x, y], "among": among}))
    return tuple(out)


def _about_unit(situation: Situation, state: GameState, letter: str,
                placed: Iterable[SituationUnit]) -> tuple[Question, ...]:
    me = state.unit(situation.unit_id(letter))
    rules = situation.rules()
    held = tuple(a for _, a in attack_sources(situation.state_at(rules), me, rules))
    low = letter.lower()
    others = [u for u in placed if u.letter != letter]
    out = [_question(f"{low}_sees_{u.letter.lower()}", "sight",
                     **{"from": letter, "to": u.letter}) for u in others]
    for ability in held:
        aim = ability.targeting
        if aim.kind not in ("melee", "ranged", "ranged_through"):
            continue
        slug = re.sub(r"[^a-z0-9]+", "_", ability.name.lower()).strip("_")
        for u in others:
            if aim.target in (state.unit(u.id).side, "unit"):
                reach = {"range": aim.range} if aim.kind != "melee" else {}
                out.append(_question(f"{low}_{slug}_on_{u.letter.lower()}", "target",
                                     **{"from": letter, "to": u.letter, "icon": aim.kind},
                                     **reach))
    out.append(_question(f"{low}_reach", "reach", unit=letter))
    among = "explorers" if me.side == "monster" else "monsters"
    if any(state.unit(u.id).side != me.side for u in others):
        out += [_question(f"{kind}_{among}_to_{low}", kind, **{"from": letter, "among": among})
                for kind in ("nearest", "closest")]
    if me.side == "monster" and me.behaviour is None:
        out.append(_question(f"{low}_turn", "monster_turn", monster=letter))
    if any(attack_pools(a) for a in held):
        out.append(_question(f"{low}_attack_odds", "attack_odds", attacker=letter))
    if me.side == "explorer":
        out.append(_question(f"spawn_near_{low}", "spawn", explorer=letter))
    return tuple(out)


def _question(name: str, kind: str, **keys: Any) -> Question:
    return Question(name, kind, Record.of({"name": name, "ask": kind, **keys}))


# --- helpers ---------------------------------------------------------------------------------

def _point(p: Point) -> str:
    return f"({p[0]}, {p[1]})"


def _where(situation: Situation, state: GameState, ref: Any) -> Point:
    """A letter's current position, or an ``[x, y]`` of the question."""
    if isinstance(ref, (tuple, list)):
        return (ref[0], ref[1])
    return cast(Point, state.unit(situation.unit_id(ref)).position)


def _name(situation: Situation, state: GameState, p: Point) -> str:
    """A space as the letter of the unit on it, or its coordinates."""
    unit = state.unit_at(p)
    letter = situation.letter_of(unit.id) if unit else None
    return letter or _point(p)


def _ethereal(state: GameState) -> tuple[str, ...]:
    return tuple(u.id for u in state.units if u.ethereal and u.position is not None)


# --- the question kinds -------------------------------------------------------------------------

def _sight(situation: Situation, q: Question, rules: Rules, state: GameState
        ) -> tuple[Any, ...]:
    """Rules: manual p22 (line of sight); switches los.vertex, los.space_squeeze."""
    a, b = _where(situation, state, q.get("from")), _where(situation, state, q.get("to"))
    seen = sight.line_of_sight(state.board(), a, b, rules)
    verdict = "visible" if seen.visible else "blocked"
    return verdict, [seen.explain()], ((a, "asked"), (b, verdict))


def _target(situation: Situation, q: Question, rules: Rules, state: GameState
        ) -> tuple[Any, ...]:
    """Rules: manual p20 (legal target), p22-23 (melee, ranged, ranged through), p25."""
    a, b = _where(situation, state, q.get("from")), _where(situation, state, q.get("to"))
    icon, reach = q.get("icon", "melee"), q.get("range", 0)
    verdict = sight.can_target(state.board(), a, b, rules, icon, reach, _ethereal(state))
    return (("legal" if verdict.legal else "not legal"), [f"{icon} {reach}: {verdict.reason}"],
            ((a, "asked"), (b, "visible" if verdict.legal else "blocked")))


def _adjacent(situation: Situation, q: Question, rules: Rules, state: GameState
        ) -> tuple[Any, ...]:
    """Rules: manual p22 (adjacent: no barrier between, diagonals by line of sight)."""
    a, b = _where(situation, state, q.get("from")), _where(situation, state, q.get("to"))
    near = sight.adjacent(state.board(), a, b, rules)
    return ("adjacent" if near else "not adjacent"), [f"{_point(a)} and {_point(b)} "
                                                     "(manual p22: adjacency)"]


def _reach(situation: Situation, q: Question, rules: Rules, state: GameState
        ) -> tuple[Any, ...]:
    """Rules: manual p34 (move: 1 stamina per space; a move-through effect), p25 (ethereal),
    p35 (pits); switch pit.voluntary_entry."""
    unit = state.unit(situation.unit_id(q.get("unit")))
    stamina = q.get("stamina", unit.stamina)
    mover = Mover(unit=unit.id, mindless=unit.side == "monster" and unit.behaviour is None,
                  ethereal=unit.ethereal, move_through=q.get("move_through", False))
    spaces = distance.reach(state.board(), cast(Point, unit.position), stamina, rules, mover,
                            _ethereal(state))
    ends = [_point(p) for p in spaces if p != unit.position]
    marks = ((unit.position, "asked"),) + tuple((p, "reach") for p in spaces
                                                 if p != unit.position)
    return ends, [f"{unit.id} with {stamina} stamina can end on {len(ends)} other "
                  "spaces (manual p34: 1 stamina per space)"], marks


def _among(situation: Situation, q: Question, state: GameState, source: Point) -> list[Point]:
    among = q.get("among", "explorers")
    units: Iterable[Unit]
    if among == "explorers":
        units = state.explorers_on_map
    elif among == "monsters":
        units = state.monsters_in_play
    else:
        units = [state.unit(situation.unit_id(letter)) for letter in among]
    return [u.position for u in units if u.position is not None and u.position != source]


def _ranking(situation: Situation, q: Question, rules: Rules, state: GameState,
             closest: bool) -> tuple[Any, ...]:
    """Rules: manual p22 (nearest counts directly; closest walks, closed doors open), p16 (ties)."""
    source = _where(situation, state, q.get("from"))
    goals = _among(situation, q, state, source)
    if closest:
        immobile = tuple(u.id for u in state.units if u.immobile and u.position is not None)
        ranked = distance.closest(state.closest_board(), source, goals, rules, immobile)
    else:
        ranked = distance.nearest(state.board(), source, goals, rules)
    tied = [_name(situation, state, p) for p in ranked.candidates]
    value = {"distance": str(ranked.distance) if ranked.distance is not None else "unreachable",
             "tied": tied}
    why = [f"{_name(situation, state, p)}: {d}" for p, d in ranked.distances]
    why.append(f"{ranked.rule}; {ranked.reading}; every tie is the players' choice "
               "(manual p16)")
    marks = ((source, "asked"),) + tuple(
        (p, "tied" if p in ranked.candidates else "candidate") for p, _ in ranked.distances)
    return value, why, marks


def _nearest(situation: Situation, q: Question, rules: Rules, state: GameState
        ) -> tuple[Any, ...]:
    """Rules: manual p22 (nearest); switch nearest.metric."""
    return _ranking(situation, q, rules, state, False)


def _closest(situation: Situation, q: Question, rules: Rules, state: GameState
        ) -> tuple[Any, ...]:
    """Rules: manual p22 (closest); switches closest.pits, closest.immobile_units."""
    return _ranking(situation, q, rules, state, True)


def _spawn(situation: Situation, q: Question, rules: Rules, state: GameState
        ) -> tuple[Any, ...]:
    """Rules: manual p13 (spawn: the nearest spawn space, then the nearest free space); p22."""
    where = _where(situation, state, q.get("explorer"))
    placed = placement.spawn_placement(state.board(), where, rules)
    value = [_point(p) for p in placed.candidates]
    why = [f"nearest spawn spaces: {', '.join(map(_point, placed.targets)) or 'none'}"
           + ("; taken, so the nearest free space instead" if placed.fallback else ""),
           "; ".join(placed.rules)]
    return value, why, ((where, "asked"),) + tuple((p, "spawn") for p in placed.candidates)


def _rounds(situation: Situation, q: Question, rules: Rules, state: GameState
        ) -> tuple[Any, ...]:
    """Rules: manual p13 (spawn phase), p14 (horror phase, threat), 3.5 §Spawn Phase (the odds
    core's exact process over rounds)."""
    explorers = q.get("explorers", max(1, state.starting_explorers))
    alive = q.get("alive", explorers)
    in_play = q.get("in_play", alive)
    full = tuple(i < q.get("full", 0) for i in range(in_play))
    try:
        setup = processes.Setup(
            (processes.ChapterRatings(q.get("spawn_rating", 6), q.get("horror_rating"),
                               q.get("blocking", True)),),
            processes.Party(explorers, alive, in_play, full),
            threat_positions=q.get("threat_positions", 5), threat=q.get("threat", 1),
            level=q.get("level", 1))
    except RulesError as exc:
        raise RulesError(q.name, f"question {q.name}: {exc}") from None
    result = processes.play_rounds(setup, rules, q.get("rounds"))
    fields = q.get("fields", ("spawned", "threat", "level"))
    value = {}
    for field in fields:
        dist = processes.marginal(result, field)
        value[field] = {("never" if k is None else str(k)): fraction_words(p) for k, p in dist.items()}
    why = [f"{field} after {q.get('rounds')} round(s): " + ", ".join(
        f"{k}: {p} = {percent_words(Fraction(p))}" for k, p in value[field].items()) for field in fields]
    return value, why + ["manual p13-14; 3.5 §Spawn Phase (exact distribution over the rounds)"]


def _trigger(situation: Situation, state: GameState, t: Any) -> str:
    """What a pushed unit set off, in words (manual p25, p35, p37)."""
    text = f", sets off the {t.what.replace('_', ' ')} at {_point(t.space)}"
    if t.what == "trap_lever":
        who = situation.letter_of(t.activator) if t.activator else None
        text += f" (activator: {who or t.activator or 'none'}"
        text += ", the players may decline)" if t.optional else ")"
    return text


def _push(situation: Situation, q: Question, rules: Rules, state: GameState
        ) -> tuple[Any, ...]:
    """Rules: manual p25 (push and pull: away from or toward the source, step by step), p35."""
    source = _where(situation, state, q.get("pusher"))
    unit = state.unit(situation.unit_id(q.get("unit")))
    at_source = state.unit_at(source)
    by = at_source.id if at_source else None
    immobile = tuple(u.id for u in state.units if u.immobile and u.position is not None)
    move = placement.pull if q.get("pull", False) else placement.push
    results = move(state.board(), cast(Point, unit.position), source, q.get("distance"), rules, by=by,
                   immobile=immobile)
    value = [f"ends on {_point(d.end)}" + (", destroyed" if d.destroyed else "")
             + "".join(_trigger(situation, state, t) for t in d.triggers) for d in results]
    return value, [d.explain() for d in results]


def _actions(situation: Situation, q: Question, rules: Rules, state: GameState
        ) -> tuple[Any, ...]:
    """Rules: manual p12 (explorer actions and their stamina), p36-37 (action spaces), p15 (a
    scheming monster's turn: the players' actions)."""
    who = situation.unit_id(q.get("unit")) if q.get("unit") else \
        state.active or current_monster(state)
    if who is None:
        return [], ["no unit is taking its turn ([turn] names none)"]
    listed, moves = set(), 0
    for action in legal_actions(state, rules):
        if action.actor != who:
            continue
        if isinstance(action, Move):
            moves += 1
            continue
        listed.add(_action_words(situation, action, state, rules))
    why = [f"also {moves} move{'' if moves == 1 else 's'} (manual p34)",
           "manual p12 (explorer actions)"]
    return sorted(listed), why


def _action_words(situation: Situation, action: Any, state: GameState, rules: Rules) -> str:
    """An action as the step of the one notation without its actor
    (:func:`step_text.write_action`: abilities by name, spaces as ``(x, y)``, contributors by
    letter), *use inventory* in words, or for an action the notation has no line for, its
    kind and what it names."""
    if isinstance(action, UseInventory):
        return inventory_words(state, action)
    letters = {u.id: u.letter for u in situation.units}
    try:
        step = write_action(action, state, rules, letters)
    except (NotationError, RulesError):
        step = ""
    if step.startswith(letters.get(action.actor, "\0") + " "):
        said = step.split(" ", 1)[1]
        return "ends the turn" if said == "ends" else said
    parts = [re.sub(r"(?<!^)(?=[A-Z])", " ", type(action).__name__).lower()]
    for key, v in vars(action).items():
        if key in ("actor", "choices", "contributions") or v in ((), None, "", 0, False):
            continue
        if isinstance(v, str):
            v = situation.letter_of(v) or v
        elif isinstance(v, tuple) and len(v) == 2 and all(isinstance(c, int) for c in v):
            v = _point(v)
        elif isinstance(v, tuple):
            v = " and ".join(map(str, v))
        parts.append(f"{key} {v}")
    return " ".join(map(str, parts)) + contribution_words(state, action)


def _teleport(situation: Situation, q: Question, rules: Rules, state: GameState
        ) -> tuple[Any, ...]:
    """Rules: manual p25 (teleport within X; teleport to a kind of space on the unit's tile),
    p22 (nearest); switch teleport.destroyed_kind."""
    unit = state.unit(situation.unit_id(q.get("unit")))
    board = state.board()
    if q.get("space") is not None:
        placed = placement.teleport_to(board, cast(Point, unit.position), SPACE_WORDS[q.get("space")], rules)
    else:
        placed = placement.teleport_within(board, cast(Point, unit.position), q.get("distance", 1), rules)
    value = [_point(p) for p in placed.candidates]
    why = [f"nearest {q.get('space') or 'free'} spaces: "
           f"{', '.join(map(_point, placed.targets)) or 'none'}"
           + ("; taken or impassable, so the nearest free space instead" if placed.fallback
              else ""), "; ".join(placed.rules)]
    return value, why, ((unit.position, "asked"),) + tuple((p, "spawn") for p in
                                                            placed.candidates)


def _play(situation: Situation, q: Question, rules: Rules, state: GameState
        ) -> tuple[Any, ...]:
    """Rules: the pages each step's events cite (manual p10-37); manual p16 (choices)."""
    return play(situation, q, rules, state)


def _setup(situation: Situation, q: Question, rules: Rules, state: GameState
        ) -> tuple[Any, ...]:
    """Rules: manual p8 (setup: the event decks, the item decks, the explorers' values), p18
    (essence), p30 and p33 (item levels); 3.5 (event deck preparation); switches
    setup.event_decks, essence.max and item.printed_number."""
    cards = situation.cards.events()
    seated = [u for u in situation.units if state.unit(u.id).side == "explorer"]
    explorers = [(unit_card(situation.cards.units()[u.card]), u.position) for u in seated]
    decks = {}
    for kind in ("horror", "explorer"):
        own = [cards[c] for c in q.get(f"scenario_{kind}_events", ())]
        decks[kind] = (own, [c for c in cards.values() if c.kind == kind and c not in own])
    items = tuple(situation.cards.items()[i] for i in q.get("items", ()))
    game = new_game(situation.layout, explorers, rules=rules, horror_events=decks["horror"][1],
                    scenario_horror_events=decks["horror"][0],
                    explorer_events=decks["explorer"][1],
                    scenario_explorer_events=decks["explorer"][0], items=items)
    value = {"horror_events": len(game.horror_events.cards),
             "explorer_events": len(game.explorer_events.cards),
             "essence_maximum": {su.letter: u.max_essence
                                 for su, u in zip(seated, game.explorers)}}
    why = [f"{kind} events: the scenario brings {len(own)}, the core deck holds {len(core)}; "
           f"{len(getattr(game, kind + '_events').cards)} in the deck after setup (manual p8; "
           "3.5 deck preparation)" for kind, (own, core) in decks.items()]
    why.append("essence maximum: 9, or the value printed on the card where it prints one "
               "(manual p18)")
    if items:
        value["item_decks"] = {kind: sorted(c.name for c in getattr(game.items, kind))
                               for kind in ITEM_TYPES + ("reserve",)}
        why.append("item decks: the level 1 cards form the four decks, the other levels wait "
                   "in the reserve until a chapter adds their level (manual p8, p30, p33)")
        printed = "is its level" if rules.reads("item.printed_number", "level") else \
            "is not its level (level 1, as for every card whose level is not given)"
        why += [f"{c.name}: the {c.level} printed before its name {printed} (manual p30; "
                "switch item.printed_number)" for c in items if c.level_printed]
    return value, why


_KINDS = {"teleport": _teleport, "play": _play, "setup": _setup, "actions": _actions, "push": _push, "rounds": _rounds, "sight": _sight, "target": _target, "adjacent": _adjacent, "reach": _reach,
          "nearest": _nearest, "closest": _closest, "spawn": _spawn,
          "attack_odds": attack_odds, "monster_turn": monster_turn,
          "monster_phase": monster_phase_answer, "risk_map": risk_map_answer}

if set(_KINDS) != set(QUESTION_KINDS):
    raise RulesError("ask", "every question kind needs an answer here")
