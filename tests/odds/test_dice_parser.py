"""The dice-expression parser: good expressions, clear errors, nothing evaluated."""

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from machina_nb.rules.errors import RulesError
from machina_nb.rules.odds.dice import Pool, parse_dice


@pytest.mark.parametrize("text, high, low, modifier, arcane", [
    ("1H2L", 1, 2, 0, False),
    ("3H arcane", 3, 0, 0, True),
    ("2H+1L+1", 2, 1, 1, False),
    ("2h + 1l - 1", 2, 1, -1, False),
    ("H", 1, 0, 0, False),
    ("HL", 1, 1, 0, False),
    ("1L 1H physical", 1, 1, 0, False),
    ("  3L  ", 0, 3, 0, False),
    ("1H+1H", 2, 0, 0, False),
    ("2H2L-3 ARCANE", 2, 2, -3, True),
])
def test_manual_p24_dice_expressions(text, high, low, modifier, arcane):
    expression = parse_dice(text)
    assert expression.pool == Pool.attack(high, low)
    assert (expression.modifier, expression.arcane) == (modifier, arcane)


def test_printed_expression_parses_back_to_itself():
    expression = parse_dice("2h + 1l - 1 arcane")
    assert str(expression) == "2H+1L-1 arcane"
    assert parse_dice(str(expression)) == expression


@pytest.mark.parametrize("text, fragment", [
    ("0H0L", "no dice"),
    ("-1H", "negative"),
    ("2H-1L", "negative"),
    ("1X", "unknown letter 'X' at position 2"),
    ("1H foo", "unknown word 'foo' at position 4"),
    ("", "empty"),
    ("2H+", "position 3"),
    ("1H 3", "needs a + or - sign"),
    ("1H arcane 2", "nothing may follow"),
    ("99999H", "too large"),
    ("41H", "at most"),
    ("__import__('os')", "position 1"),
    ("1H; rm -rf /", "position 3"),
])
def test_bad_expressions_name_the_argument_and_the_position(text, fragment):
    with pytest.raises(RulesError) as info:
        parse_dice(text, argument="pool")
    assert info.value.argument == "pool"
    assert fragment in str(info.value)


def test_non_text_is_refused():
    with pytest.raises(RulesError):
        parse_dice(3)


@settings(max_examples=400, deadline=1000)
@given(st.text(max_size=40))
def test_the_parser_survives_arbitrary_text(text):
    try:
        expression = parse_dice(text)
    except RulesError:
        return
    assert expression.pool.size > 0


@settings(max_examples=300, deadline=1000)
@given(st.text(alphabet="0123456789hHlL+- arcnpysi", max_size=30))
def test_the_parser_survives_near_miss_text(text):
    with contextlib.suppress(RulesError):
        parse_dice(text)
