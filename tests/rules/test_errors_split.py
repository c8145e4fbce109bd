"""Refusals split in two: a bad argument and an illegal action, both still RulesError."""

from dataclasses import replace

import pytest
from engine_cases import explorer, open_map

from machina_nb.rules.checks import integer
from machina_nb.rules.cite import Cite
from machina_nb.rules.engine.actions import EndTurn, check
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.errors import BadArgument, IllegalAction, RulesError
from machina_nb.rules.rulings import Rules


def _state():
    state = scenario(open_map(2, 1, {0: "A."}), {"A": explorer("a")})
    return replace(state, phase="explorer", active="a", turns=("a",))


def test_manual_p12_an_absent_actor_is_an_illegal_action_citing_its_rule():
    with pytest.raises(IllegalAction) as info:
        check(_state(), EndTurn("zz"), Rules())
    assert isinstance(info.value, RulesError) and info.value.argument == "actor"
    assert info.value.cite == Cite("manual", ("p12",))
    assert str(info.value) == "actor: no unit 'zz' in play (manual p12)"


def test_a_value_of_the_wrong_kind_is_a_bad_argument():
    with pytest.raises(BadArgument) as info:
        integer("amount", "three")
    assert isinstance(info.value, RulesError) and info.value.argument == "amount"
    with pytest.raises(BadArgument):
        check(_state(), "end turn", Rules())
