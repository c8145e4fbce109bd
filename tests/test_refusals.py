"""A refusal says whether the argument was bad or the action illegal; both stay RulesError."""

import pytest
from engine_cases import CHAPTER, explorer

from machina_nb.rules.board.maptext import parse_map
from machina_nb.rules.engine.actions import EndTurn, apply
from machina_nb.rules.engine.chance import outcomes
from machina_nb.rules.engine.cite import Cite
from machina_nb.rules.engine.game import new_game
from machina_nb.rules.errors import BadArgument, IllegalAction, RulesError
from machina_nb.rules.rulings import Rules


def test_bad_argument_and_illegal_action_are_both_refusals():
    assert issubclass(BadArgument, RulesError) and issubclass(IllegalAction, RulesError)
    with pytest.raises(BadArgument, match="die"):
        outcomes("no such die")


def test_an_action_out_of_turn_is_illegal_and_carries_its_rule():
    game = new_game(parse_map("+-+-+\n|. .|\n+-+-+\n"),
                    [(explorer("ann"), (0, 0)), (explorer("bo"), (1, 0))], (CHAPTER,))
    other = "bo" if game.active != "bo" else "ann"
    with pytest.raises(IllegalAction) as refused:
        apply(game, EndTurn(other), Rules())
    assert isinstance(refused.value.cite, Cite) and str(refused.value.cite) in str(refused.value)
