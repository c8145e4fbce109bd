"""Fuzzing (hypothesis): mutated content files and random values thrown at the public API.

Whatever the input, a loader either returns a complete value or raises ``ContentError``;
a public function either answers or raises ``RulesError`` (``ContentError`` for map text).
No other exception escapes, and a mutated file that still loads kept every number within
its documented bounds.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from engine_cases import explorer, open_map
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.maptext import parse_map
from machina_nb.rules.cards import catalog
from machina_nb.rules.cards.abilities import (
    MAX_AMOUNT,
    MAX_EFFECT_DICE,
    Effect,
    Targeting,
    ability_from_record,
    effect_from_record,
)
from machina_nb.rules.cards.records import Record
from machina_nb.rules.cards.units import UnitEntry as ContentUnit
from machina_nb.rules.content import content_root
from machina_nb.rules.engine.game import new_game
from machina_nb.rules.engine.saves import from_json, to_json
from machina_nb.rules.errors import ContentError, RulesError
from machina_nb.rules.odds import attacks
from machina_nb.rules.odds.dice import Pool, parse_dice
from machina_nb.rules.rulings import Rules

CONTENT = content_root()
FILES = sorted(str(p.relative_to(CONTENT)) for p in CONTENT.glob("*/*.toml"))

# Values a careless or hostile user might type in place of any TOML value.
JUNK = st.sampled_from([
    "0", "-1", "-3", "10", "99", "10000000", "9" * 400, "1.5", "-0.0", "inf", "nan", "true",
    "false", '""', '"no"', '"yes"', '"arcanee"', '"melee"', '"ranged"', "[]", "[1, 2]",
    '["a"]', "[[1]]", "{}", "{ a = 1 }", '{ op = "attack" }', "1979-05-27", '"\\u0000"',
])


def _values(text: str) -> list[tuple[int, int]]:
    """Spans (start, end) of the simple values after ``key =`` on single lines."""
    spans = []
    offset = 0
    for line in text.splitlines(keepends=True):
        head, sep, rest = line.partition(" = ")
        if sep and not head.lstrip().startswith("#") and not rest.startswith(("'''", '"""')):
            value = rest.rstrip("\n")
            if value and value[0] not in "[{" and "#" not in value:
                start = offset + len(head) + len(sep)
                spans.append((start, start + len(value)))
        offset += len(line)
    return spans


@st.composite
def mutated(draw):
    """A shipped content file with one value replaced, one key misspelt or one line dropped."""
    name = draw(st.sampled_from(FILES))
    text = (CONTENT / name).read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    inline = [i for i, line in enumerate(lines) if "= {" in line or "= [{" in line]
    how = draw(st.sampled_from(["value", "key", "drop", "inline"] if inline else
                               ["value", "key", "drop"]))
    if how == "value":
        spans = _values(text)
        start, end = draw(st.sampled_from(spans))
        text = text[:start] + draw(JUNK) + text[end:]
    elif how == "key":
        keyed = [i for i, line in enumerate(lines) if " = " in line and line[0].isalpha()]
        i = draw(st.sampled_from(keyed))
        key, sep, rest = lines[i].partition(" = ")
        j = draw(st.integers(0, len(key) - 1))
        lines[i] = key[:j] + draw(st.sampled_from(["x", "", key[j] * 2])) + key[j + 1:] + sep + rest
        text = "".join(lines)
    elif how == "drop":
        i = draw(st.integers(0, len(lines) - 1))
        text = "".join(lines[:i] + lines[i + 1:])
    else:
        i = draw(st.sampled_from(inline))
        for word in ("high = ", "low = ", "amount = ", "stamina = ", "essence = ", "op = ",
                     "scope = ", "kind = "):
            if word in lines[i]:
                start = lines[i].index(word) + len(word)
                end = start
                while end < len(lines[i]) and lines[i][end] not in ",}":
                    end += 1
                lines[i] = lines[i][:start] + draw(JUNK) + lines[i][end:]
                break
        text = "".join(lines)
    return name, text


def _bounded(loaded) -> None:
    """Every effect a loaded card file holds keeps its numbers within the documented bounds."""
    values = loaded.values() if isinstance(loaded, dict) else ()
    for card in values:
        abilities = getattr(card, "abilities", ())
        for ability in abilities:
            if isinstance(card, ContentUnit):
                continue          # content units keep raw records; the engine cards check them
            for effect in ability.effects:
                assert 0 <= effect.high <= MAX_EFFECT_DICE and 0 <= effect.low <= MAX_EFFECT_DICE
                assert -MAX_AMOUNT <= effect.amount <= MAX_AMOUNT


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_a_mutated_content_file_loads_whole_or_is_refused_at_file_line_col(tmp_path_factory,
                                                                          case):
    name, text = case
    path = tmp_path_factory.mktemp("fuzz") / Path(name).name
    path.write_text(text, encoding="utf-8")
    try:
        loaded = catalog.validate(path)
    except ContentError as error:
        assert error.line >= 1 and error.col >= 1 and "\n" not in error.message
        return
    _bounded(loaded)


ANYTHING = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(-10 ** 30, 10 ** 30)
    | st.floats(allow_nan=True) | st.text(max_size=12) | st.binary(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8)

BOARD = Board.from_layout(parse_map(open_map(3, 3)))
POOL = parse_dice("1H1L").pool
RULES = Rules()
STATE_TEXT = to_json(new_game(parse_map(open_map(3, 2)), [(explorer("kim"), (0, 0))]))

CALLS = {
    "Board.require": lambda a, b: BOARD.require(a),
    "Board.border": lambda a, b: BOARD.border(a, b),
    "Board.space": lambda a, b: BOARD.space(a),
    "Layout.space": lambda a, b: parse_map(open_map(2, 2)).space(a, b),
    "Layout.rotated": lambda a, b: parse_map(open_map(2, 2)).rotated(a),
    "parse_map": lambda a, b: parse_map(a),
    "parse_map legend": lambda a, b: parse_map(open_map(1, 1), legend=a),
    "parse_dice": lambda a, b: parse_dice(a),
    "Pool.attack": lambda a, b: Pool.attack(a, b),
    "Pool.of": lambda a, b: Pool.of(a),
    "hit_chance": lambda a, b: attacks.hit_chance(POOL, a, RULES, essence=b),
    "hit_chance rules": lambda a, b: attacks.hit_chance(POOL, 3, a),
    "hit_chance pool": lambda a, b: attacks.hit_chance(a, 3, RULES),
    "kill_chance": lambda a, b: attacks.kill_chance(POOL, 3, a, b, RULES),
    "blockers_outcome": lambda a, b: attacks.blockers_outcome(POOL, a, RULES, essence=b),
    "trap_damage": lambda a, b: attacks.trap_damage(3, RULES, a, b),
    "Rules": lambda a, b: Rules(a),
    "Rules.preset": lambda a, b: Rules.preset(a),
    "Rules.replace": lambda a, b: RULES.replace({"roll.floor": a}),
    "Rules.replace map": lambda a, b: RULES.replace(a),
    "Rules[]": lambda a, b: RULES[a],
    "effect_from_record": lambda a, b: effect_from_record(a),
    "effect_from_record op": lambda a, b: effect_from_record({"op": "attack", "high": a,
                                                              "low": b}),
    "Effect": lambda a, b: Effect("threat", amount=a, key=b),
    "Targeting": lambda a, b: Targeting("ranged", a),
    "ability_from_record": lambda a, b: ability_from_record(
        "x", Record.of({"text": "t", "cost": a}) if isinstance(a, dict) else a, "explorer"),
    "ability_from_record range": lambda a, b: ability_from_record(
        "x", Record.of({"text": "t", "target": "ranged", "range": a}), "explorer"),
    "from_json": lambda a, b: from_json(a),
    "from_json field": lambda a, b: from_json(STATE_TEXT.replace('"round": 1', '"round": '
                                                                 + json.dumps(a, default=str))),
}


@pytest.mark.parametrize("name", sorted(CALLS))
@settings(max_examples=60, deadline=None)
@given(a=ANYTHING, b=ANYTHING)
def test_random_values_at_public_functions_answer_or_raise_the_librarys_error(name, a, b):
    with contextlib.suppress(RulesError, ContentError):
        CALLS[name](a, b)
