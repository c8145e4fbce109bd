"""Quiz questions: a situation on a small board, a question, and the answer the rules compute.

A question is data (``content/quiz/*.toml``, format in content/README.md): a map text
with lettered units, what is asked and about whom. The answer is never typed in: the
rules core computes it under the rulings in force (:func:`answer`), with the
explanation and the rule to read; a question may fix a preset or some readings of its
own (``preset``, ``rulings``: "under the 3.5 rules, ..."). Answers are a click on the
board (a set of spaces: every tie counts), yes or no, or one of a few exact chances. A
``safest_space`` question takes its board, units and turn from a shipped situation
(``content/situations``) and asks where the explorer whose turn it is should end its move.

>>> q = load_quiz_file(content_root() / "quiz" / "sight.toml")[0]
>>> a = answer(q, Rules())
>>> a.form, sorted(a.correct), check(q, Rules(), "yes") == ("yes" in a.correct)
('yes_no', ['yes'], True)

Rules: manual p13 (spawn), p15-16 (the mindless monster's target and path), p22 (sight,
adjacent, nearest, closest), p24 (attack), p31-32 (upgrades and augments), p34 (move),
p10-17 (the round to the end of the Monster phase, for the safest space).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from machina_nb.rules.analysis.risk_answer import ranked_spaces, risk_map, whose_turn
from machina_nb.rules.analysis.situation import Situation, situation_from_text
from machina_nb.rules.board import distance, placement, sight
from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.labels import space_name
from machina_nb.rules.board.maptext import Point, SpaceKind, parse_map
from machina_nb.rules.cards.items import Inventory, attach, equip_main, load_all_items
from machina_nb.rules.content import TomlFile, content_root, expect_kind, read_toml, require
from machina_nb.rules.errors import ContentError, RulesError
from machina_nb.rules.numbers import fraction_words, percent_words
from machina_nb.rules.odds.attacks import hit_chance
from machina_nb.rules.odds.dice import parse_dice
from machina_nb.rules.odds.processes import spawn_chain
from machina_nb.rules.rulings import PRESETS, Rules

__all__ = ["ASKS", "TOPICS", "QuizQuestion", "QuizAnswer", "load_quiz_file", "load_quiz", "answer",
           "check", "parse_space", "board_of", "question_rules", "pick", "has_board",
           "situation_of"]

#: What a question may ask, and the keys each needs beyond the common ones.
ASKS: Mapping[str, tuple[str, ...]] = {
    "sight": ("from", "to"),
    "adjacent": ("from", "to"),
    "reach": ("from", "space", "stamina"),
    "nearest": ("from",),
    "closest": ("from",),
    "monster_target": ("from",),
    "monster_step": ("from",),
    "hit": ("pool", "defense"),
    "spawn": ("from",),
    "spawn_rounds": ("rating", "players", "rounds"),
    "attach": ("host", "item", "how"),
    "safest_space": ("situation", "from"),
}

#: The topics a question belongs to (the quiz covers each).
TOPICS = ("sight", "movement", "closest", "mindless turn", "attacks", "spawn", "items")

_COMMON = ("id", "topic", "ask", "prompt")
_OPTIONAL = ("board", "units", "explorers", "essence", "note", "preset", "rulings")
_BOARDLESS = ("hit", "spawn_rounds", "attach")
_FROM_SITUATION = ("safest_space",)
_SPACE = re.compile(r"^([A-Z]+)([1-9][0-9]*)$")


@dataclass(frozen=True)
class QuizQuestion:
    """One quiz question: ``ask`` (a key of :data:`ASKS`), the ``prompt`` shown, the ``board``
    (map text, units as letters), ``names`` of the units by letter, the ``explorers`` among
    them, and the parameters of ``ask`` (``source``, ``to``, ``space``, ``stamina``,
    ``pool``, ``defense``, ``essence``; ``rating``, ``players``, ``rounds``; ``host``,
    ``item``, ``how``); ``note`` is the author's extra explanation; ``preset`` and
    ``rulings`` (switch, reading pairs) fix the rules the question is asked under;
    ``situation`` is the id of the shipped situation a question takes its board, units and
    turn from (its ``board`` stays empty)."""

    id: str
    topic: str
    ask: str
    prompt: str
    board: str = ""
    names: tuple[tuple[str, str], ...] = ()
    explorers: tuple[str, ...] = ()
    source: str = ""
    to: str = ""
    space: Point | None = None
    stamina: int = 0
    pool: str = ""
    defense: int = 0
    essence: int = 0
    rating: int = 0
    players: int = 0
    rounds: int = 0
    host: str = ""
    item: str = ""
    how: str = ""
    note: str = ""
    preset: str = ""
    rulings: tuple[tuple[str, str], ...] = ()
    situation: str = ""
    where: str = ""


@dataclass(frozen=True)
class QuizAnswer:
    """The rules' answer: its ``form`` (``space``: click every correct space; ``yes_no``;
    ``choice``: one of ``options``), the ``correct`` replies, the ``explanation`` and the
    ``rule`` to read."""

    form: str
    correct: frozenset[Any]
    explanation: str
    rule: str
    options: tuple[str, ...] = ()


def parse_space(text: str) -> Point:
    """A space as the board labels it, ``C6`` -> ``(2, 5)`` (column letters, row from 1).

    >>> parse_space("C6"), parse_space("AA1")
    ((2, 5), (26, 0))
    """
    m = _SPACE.match(text)
    if not m:
        raise RulesError("space", f"expected a space such as C6 (column letters, row number); "
                         f"got {text!r}")
    column = 0
    for letter in m[1]:
        column = column * 26 + ord(letter) - ord("A") + 1
    return column - 1, int(m[2]) - 1


def has_board(question: QuizQuestion) -> bool:
    """Whether the question is asked on a board (its own map text or its situation's)."""
    return bool(question.board or question.situation)


def _situation_path(name: str) -> Path:
    return content_root() / "situations" / f"{name}.toml"


@lru_cache(maxsize=32)
def _situation_from(text: str, path: str) -> Situation:
    return situation_from_text(text, path)


def situation_of(question: QuizQuestion) -> Situation:
    """The shipped situation a ``safest_space`` question is asked on (``content/situations``)."""
    path = _situation_path(question.situation)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        raise RulesError("situation", f"no situation {question.situation!r} in "
                         "content/situations") from None
    return _situation_from(text, str(path))


def board_of(question: QuizQuestion) -> Board:
    """The question's board: its map text with every unit letter standing on floor, or its
    situation's board with the units on it."""
    if question.situation:
        return Board.from_layout(situation_of(question).layout)
    legend = {letter: SpaceKind.FLOOR for letter, _ in question.names}
    return Board.from_layout(parse_map(question.board, path=question.id, legend=legend))


# --- answers ---------------------------------------------------------------------------------


def _at(board: Board, letter: str) -> Point:
    return board.units()[letter]


def _yes(value: bool) -> frozenset[str]:
    return frozenset({"yes" if value else "no"})


def _sight(q: QuizQuestion, board: Board, rules: Rules) -> QuizAnswer:
    line = sight.line_of_sight(board, _at(board, q.source), _at(board, q.to), rules)
    return QuizAnswer("yes_no", _yes(line.visible), line.explain(),
                  "manual p22 (line of sight); switches los.vertex, los.space_squeeze")


def _adjacent(q: QuizQuestion, board: Board, rules: Rules) -> QuizAnswer:
    a, b = _at(board, q.source), _at(board, q.to)
    yes = sight.adjacent(board, a, b, rules)
    why = (f"{a} and {b} are {'adjacent: a melee attack reaches' if yes else 'not adjacent'}; "
           "a wall or a closed door between them, or a corner they only share across walls, "
           "keeps them apart")
    return QuizAnswer("yes_no", _yes(yes), why, "manual p22 (adjacent), p23 (melee)")


def _reach(q: QuizQuestion, board: Board, rules: Rules) -> QuizAnswer:
    a = _at(board, q.source)
    costs = distance.reach(board, a, q.stamina, rules, distance.Mover(unit=board.unit_at(a)))
    best = distance.shortest_paths(board, a, cast(Point, q.space), rules,
                                   distance.Mover(unit=board.unit_at(a))).cost
    why = (f"the cheapest way from {a} to {q.space} costs {best} stamina"
           if best is not None else f"no way leads from {a} to {q.space}")
    return QuizAnswer("yes_no", _yes(q.space in costs), f"{why}; the unit has {q.stamina}",
                  "manual p34 (move: 1 stamina a space); switches move.diagonal, move.squeeze")


def _ranking(q: QuizQuestion, board: Board, rules: Rules, measure: str) -> QuizAnswer:
    a = _at(board, q.source)
    goals = [p for letter, p in board.units().items() if p != a
             and (letter in q.explorers or not q.explorers)]
    ranking = (distance.nearest if measure == "nearest" else distance.closest)(
        board, a, goals, rules)
    names: dict[Any, Any] = dict(q.names)
    every = "; ".join(f"{names.get(board.unit_at(p), board.unit_at(p))} {d}"
                      for p, d in ranking.distances)
    return QuizAnswer("space", frozenset(ranking.candidates),
                  f"{measure} distances from {a}: {every} (read under {ranking.reading})",
                  ranking.rule)


def _monster_target(q: QuizQuestion, board: Board, rules: Rules) -> QuizAnswer:
    shown = _ranking(q, board, rules, "closest")
    return QuizAnswer("space", shown.correct, "the monster targets the closest explorer (every tie "
                  "is the players' choice); " + shown.explanation,
                  "manual p15 (target), p22 (closest: closed doors count as open)")


def _monster_step(q: QuizQuestion, board: Board, rules: Rules) -> QuizAnswer:
    a = _at(board, q.source)
    target = _ranking(q, board, rules, "closest")
    steps: set[Point] = set()
    for goal in target.correct:
        paths = distance.closest_paths(board, a, goal, rules)
        steps |= {node for node, preds in paths.predecessors if a in preds}
    where = ", ".join(str(p) for p in sorted(target.correct))
    return QuizAnswer("space", frozenset(steps),
                  f"its first step lies on a shortest path to its target ({where}); every "
                  "tied first step counts, the players choose", "manual p16 (the monster moves "
                  "along a shortest path toward its target)")


def _hit(q: QuizQuestion, _board: Board | None, rules: Rules) -> QuizAnswer:
    pool = parse_dice(q.pool).pool
    right = hit_chance(pool, q.defense, rules, essence=q.essence)
    wrong = {hit_chance(pool, d, rules, essence=q.essence) for d in (q.defense - 1, q.defense + 1)
             if 0 <= d <= 9} | {hit_chance(pool, q.defense, rules, essence=q.essence + 1)}
    options = sorted({right} | (wrong - {right}), reverse=True)[:4]
    return QuizAnswer("choice", frozenset({str(right)}),
                  f"{q.pool} against {q.defense}"
                  + (f" with up to {q.essence} essence" if q.essence else "")
                  + f" hits with chance {right}: the dice total must reach the defense"
                  + (", essence added after the roll" if q.essence else ""),
                  "manual p24 (attack)" + (", p18 (essence)" if q.essence else ""),
                  tuple(str(p) for p in options))


def _spawn(q: QuizQuestion, board: Board, rules: Rules) -> QuizAnswer:
    found = placement.spawn_placement(board, _at(board, q.source), rules)
    targets = ", ".join(str(p) for p in found.targets) or "none"
    why = (f"the nearest spawn spaces to the explorer: {targets}"
           + ("; one is taken, so the nearest free space next to it is used" if found.fallback
              else "") + (f" ({found.reading})" if found.reading else ""))
    return QuizAnswer("space", frozenset(found.candidates), why,
                  "manual p13 (spawn: the spawn space nearest the explorer; a taken one "
                  "sends the monster beside it), p22 (nearest)")


def _some_spawn(q: QuizQuestion, rating: int, rounds: int, rules: Rules) -> Fraction:
    return 1 - spawn_chain(rating, q.players, rounds, rules).get(0, Fraction(0))


def _spawn_rounds(q: QuizQuestion, _board: Board | None, rules: Rules) -> QuizAnswer:
    right = _some_spawn(q, q.rating, q.rounds, rules)
    others = {_some_spawn(q, r, n, rules) for r, n in ((q.rating - 1, q.rounds),
              (q.rating + 1, q.rounds), (q.rating, q.rounds + 1)) if 1 <= r <= 9}
    options = sorted({right} | (others - {right}), reverse=True)[:4]
    turns = "round" if q.rounds == 1 else f"{q.rounds} rounds"
    return QuizAnswer("choice", frozenset({str(right)}),
                  f"with spawn rating {q.rating} and {q.players} explorer"
                  f"{'s' if q.players > 1 else ''} rolling, at least one monster spawns in "
                  f"the first {turns} with chance {right} (each roll spawns on the rating or "
                  + ("more; the rating, adjusted for the explorers, does not move with the "
                     "rolls" if rules.reads("spawn.procedure", "v3_5") else
                     "more; a failed roll lowers the rating, a spawn resets it") + ")",
                  "manual p13 (spawn phase); 3.5 update (spawn phase)",
                  tuple(str(p) for p in options))


def _attach(q: QuizQuestion, _board: Board | None, rules: Rules) -> QuizAnswer:
    cards = load_all_items()
    for key in ("host", "item"):
        if getattr(q, key) not in cards:
            raise RulesError(key, f"unknown item {getattr(q, key)!r}")
    host, item = cards[q.host], cards[q.item]
    held = equip_main(Inventory("explorer", unequipped=(host, item)), host.id)
    try:
        attach(held, host.id, item.id, q.how)
    except RulesError as refusal:
        return QuizAnswer("yes_no", _yes(False), str(refusal).split(": ", 1)[-1],
                      "manual p31 (upgrades, augments, wrong combinations), p32")
    return QuizAnswer("yes_no", _yes(True), f"{item.name} fits as the {q.how} of {host.name}: "
                  + ("same type, matching symbols" if q.how == "upgrade" else
                     "its augment symbol matches the slot"),
                  "manual p31 (upgrades, augments, wrong combinations), p32")


@lru_cache(maxsize=64)
def _risk_rows(situation: Situation, letter: str, rules: Rules
               ) -> tuple[tuple[Point, Fraction, Fraction], ...]:
    uid, state = whose_turn(situation, letter, situation.state_at(rules), rules)
    return tuple(ranked_spaces(risk_map(state, rules, uid), uid))


def _space_risk(p: Point, destroyed: Fraction, lost: Fraction) -> str:
    return (f"{space_name(p)} (destroyed {fraction_words(destroyed)}, "
            f"{percent_words(destroyed)}; expected health lost {fraction_words(lost)})")


def _safest_space(q: QuizQuestion, _board: Board, rules: Rules) -> QuizAnswer:
    """The spaces the explorer can end its move on with the least chance it is destroyed by
    the end of the Monster phase, then the least expected health lost (every tie counts).

    Rules: manual p34 (its reach), p10-17 and p24 (the round to the end of the Monster phase,
    every die open), p16 (the explorers choose where the rules let them).
    """
    rows = _risk_rows(situation_of(q), q.source, rules)
    least = rows[0][1:]
    best = [p for p, destroyed, lost in rows if (destroyed, lost) == least]
    others = [row for row in rows if row[1:] != least]
    name = dict(q.names).get(q.source, q.source)
    why = (f"{name} can end a move on {len(rows)} spaces; on each, the rest of the round is "
           "played to the end of the Monster phase with every die open. Safest: "
           + ", ".join(space_name(p) for p in best) + f" (destroyed {fraction_words(least[0])}, "
           f"{percent_words(least[0])}; expected health lost {fraction_words(least[1])})")
    if others:
        why += (f"; next: {_space_risk(*others[0])}"
                + (f"; most dangerous: {_space_risk(*rows[-1])}"
                   if rows[-1][1:] != others[0][1:] else ""))
    return QuizAnswer("space", frozenset(best), why, "manual p34 (move), p15-16 (the mindless "
                      "monster), p24 (attack): the whole Monster phase, exactly")


_ANSWERS = {"sight": _sight, "adjacent": _adjacent, "reach": _reach,
            "nearest": lambda q, b, r: _ranking(q, b, r, "nearest"),
            "closest": lambda q, b, r: _ranking(q, b, r, "closest"),
            "monster_target": _monster_target, "monster_step": _monster_step,
            "hit": _hit, "spawn": _spawn, "spawn_rounds": _spawn_rounds, "attach": _attach,
            "safest_space": _safest_space}


def question_rules(question: QuizQuestion, rules: Rules) -> Rules:
    """The rules ``question`` is asked under: ``rules`` (those in force), or its own preset,
    with its own readings on top."""
    base = Rules.preset(question.preset) if question.preset else rules
    return base.replace(dict(question.rulings)) if question.rulings else base


def answer(question: QuizQuestion, rules: Rules) -> QuizAnswer:
    """The rules' answer to ``question`` under ``rules`` (or the preset and readings the
    question fixes), with its explanation and rule.

    Rules: manual p13, p15-16, p22, p24, p31-32, p34 (per question; see each answer's ``rule``).
    """
    board = board_of(question) if has_board(question) else None
    # the board is None only for the questions that read none
    return _ANSWERS[question.ask](question, cast(Board, board), question_rules(question, rules))


def pick(questions: tuple[QuizQuestion, ...], *ids: str) -> tuple[QuizQuestion, ...]:
    """The questions with these ids, in the order given; an unknown id is an error naming it
    and the ids there are."""
    by_id = {q.id: q for q in questions}
    for i in ids:
        if i not in by_id:
            raise RulesError("ids", f"no quiz question {i!r}; there are {', '.join(by_id)}")
    return tuple(by_id[i] for i in ids)


def check(question: QuizQuestion, rules: Rules, reply: object) -> bool:
    """Whether ``reply`` is right: a space (any of the correct ones), ``yes``/``no``, or a
    chance's text."""
    return reply in answer(question, rules).correct


# --- loading ---------------------------------------------------------------------------------


def _question(toml: TomlFile, table: Mapping[str, Any], n: int) -> QuizQuestion:
    def need(key: str, kind: type | tuple[type, ...], what: str) -> Any:
        return require(toml, table, "question", key, kind, what, n)

    ask = need("ask", str, "what is asked")
    if ask not in ASKS:
        raise toml.error("question", "ask", f"unknown ask {ask!r}; expected one of "
                         f"{', '.join(ASKS)}", n)
    for key in table:
        if key not in (*_COMMON, *_OPTIONAL, *ASKS[ask]):
            raise toml.error("question", key, f"unknown key {key!r} for ask = {ask!r}; "
                             f"expected {', '.join((*_COMMON, *_OPTIONAL, *ASKS[ask]))}", n)
    for key in ASKS[ask]:
        if key not in table:
            raise toml.error("question", None, f"missing key {key!r}: ask = {ask!r} needs "
                             f"{', '.join(ASKS[ask])}", n)
    for key, high in (("stamina", 12), ("defense", 9), ("essence", 9)):
        if key in table:
            require(toml, table, "question", key, int, f"a whole number 0-{high}", n,
                    low=0, high=high)
    topic = need("topic", str, "a topic")
    if topic not in TOPICS:
        raise toml.error("question", "topic", f"unknown topic {topic!r}; expected one of "
                         f"{', '.join(TOPICS)}", n)
    fields: dict[str, Any] = {"id": need("id", str, "a question id"), "topic": topic,
                              "ask": ask, "prompt": need("prompt", str, "the question shown"),
                              "where": f"{toml.path}:{toml.where('question', None, n)[0]}"}
    if ask in _FROM_SITUATION:
        fields.update(_situation_fields(toml, table, n))
    elif ask not in _BOARDLESS:
        fields["board"] = need("board", str, "a map text")
        units = need("units", dict, "the units' names by letter, {A = \"Phillip\"}")
        fields["names"] = tuple((k, str(v)) for k, v in units.items())
    for key, kind, what in (("from", str, "a unit letter"), ("to", str, "a unit letter"),
                            ("stamina", int, "a stamina 0-12"), ("pool", str, "dice, e.g. 1H1L"),
                            ("defense", int, "a defense 0-9"), ("essence", int, "essence 0-9"),
                            ("note", str, "text"), ("explorers", list, "unit letters"),
                            ("rating", int, "a rating 1-9"), ("players", int, "explorers 1-4"),
                            ("rounds", int, "rounds 1-5"), ("host", str, "an item id"),
                            ("item", str, "an item id"), ("how", str, "upgrade or augment")):
        if key in table:
            value = need(key, kind, what)
            fields["source" if key == "from" else key] = tuple(value) if kind is list else value
    for key, low, high in (("rating", 1, 9), ("players", 1, 4), ("rounds", 1, 5)):
        if key in table:
            require(toml, table, "question", key, int, f"a whole number {low}-{high}", n,
                    low=low, high=high)
    if "how" in table:
        require(toml, table, "question", "how", str, "upgrade or augment", n,
                choices=("upgrade", "augment"))
    if "preset" in table:
        fields["preset"] = require(toml, table, "question", "preset", str, "a rules preset", n,
                                   choices=tuple(PRESETS))
    if "rulings" in table:
        readings = need("rulings", dict, "readings, {\"nearest.metric\" = \"manhattan\"}")
        fields["rulings"] = tuple((str(k), str(v)) for k, v in readings.items())
    if "space" in table:
        try:
            fields["space"] = parse_space(need("space", str, "a space such as C6"))
        except RulesError as error:
            raise toml.error("question", "space", str(error), n) from None
    return _checked(toml, QuizQuestion(**fields), n)


def _situation_fields(toml: TomlFile, table: Mapping[str, Any], n: int) -> dict[str, Any]:
    """A question on a shipped situation: its id, and the names of the units drawn on its map
    (the board and the units are the situation's, never the question's)."""
    for key in ("board", "units"):
        if key in table:
            raise toml.error("question", key, f"{key!r} comes from the situation; remove it", n)
    name = require(toml, table, "question", "situation", str, "a situation id", n)
    probe = QuizQuestion(id="", topic="", ask="", prompt="", situation=name)
    try:
        situation = situation_of(probe)
    except RulesError as error:
        raise toml.error("question", "situation", str(error).split(": ", 1)[-1], n) from None
    except ContentError as error:
        raise toml.error("question", "situation", f"situation {name!r} does not load: "
                         f"{error.message}", n) from None
    drawn = {letter for letter, _ in situation.layout.units}
    if drawn != {u.letter for u in situation.units}:
        raise toml.error("question", "situation", f"situation {name!r} places units off its "
                         "map text; a quiz needs every unit drawn on the map", n)
    cards = situation.cards.units()
    return {"situation": name, "names": tuple((u.letter, cards[u.card].name)
                                              for u in situation.units)}


def _checked(toml: TomlFile, q: QuizQuestion, n: int) -> QuizQuestion:
    """The question's board parses, its letters are on it, and the rules can answer it."""
    try:
        board = board_of(q) if has_board(q) else None
        if board is not None:
            letters = set(board.units())
            for key, letter in (("from", q.source), ("to", q.to),
                                *(("explorers", e) for e in q.explorers)):
                if (letter or key in ASKS[q.ask] or key == "explorers") and \
                        letter not in letters:
                    raise toml.error("question", key, f"unit {letter!r} is not on the board "
                                     f"(units: {', '.join(sorted(letters))})", n)
            if q.space is not None and q.space not in board:
                raise toml.error("question", "space", f"space {q.space} is off the board", n)
        if q.ask == "hit":
            parse_dice(q.pool)
        answer(q, Rules())
    except ContentError as error:
        if error.path == toml.path:
            raise
        raise toml.error("question", "board", f"bad board: {error.message}", n) from None
    except RulesError as error:
        raise toml.error("question", None, str(error), n) from None
    return q


def load_quiz_file(path: str | Path) -> tuple[QuizQuestion, ...]:
    """Every question of one quiz file (kind = "quiz", [[question]] tables), checked strictly:
    unknown or missing keys, bad boards and letters, an id used twice, or a question the rules
    cannot answer are errors at file:line:col."""
    toml = read_toml(path)
    expect_kind(toml, "quiz")
    for key in toml.data:
        if key not in ("kind", "question"):
            raise toml.error(None, key, f"unknown key {key!r}; a quiz file has 'kind' and "
                             "[[question]] tables")
    tables = require(toml, toml.data, None, "question", list, "[[question]] tables")
    questions = tuple(_question(toml, table, n) for n, table in enumerate(tables))
    for n, q in enumerate(questions):
        if q.id in (other.id for other in questions[:n]):
            raise toml.error("question", "id", f"duplicate question id {q.id!r}", n)
    return questions


def load_quiz(folder: Path | None = None) -> tuple[QuizQuestion, ...]:
    """Every question in ``content/quiz`` (or ``folder``), file by file; ids are unique."""
    questions: list[QuizQuestion] = []
    seen: set[str] = set()
    for path in sorted((folder or content_root() / "quiz").glob("*.toml")):
        for n, q in enumerate(load_quiz_file(path)):
            if q.id in seen:
                toml = read_toml(path)
                raise toml.error("question", "id", f"duplicate question id {q.id!r}", n)
            seen.add(q.id)
            questions.append(q)
    return tuple(questions)
