"""The round's phases and the units' sides are ``str`` enums: the state holds the enum, the
old string comparisons still hold, and saves and answers write their plain words."""

import json

import pytest
from engine_cases import open_map

from machina_nb.rules.cards.units import Side, UnitCard
from machina_nb.rules.engine.phases import PHASE_ORDER
from machina_nb.rules.engine.saves import from_json, to_json
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.state import PHASES, PhaseName
from machina_nb.rules.errors import RulesError

KIM = UnitCard("kim", "Kim", "explorer", health=3, stamina=3)
GHOUL = UnitCard("ghoul", "Ghoul", "monster", health=2, stamina=2)


def _state(**fields):
    return scenario(open_map(3, 1, {0: "K.G"}), {"K": KIM, "G": GHOUL}, **fields)


def test_manual_p10_the_phase_is_an_enum_that_still_equals_its_word():
    state = _state(phase="spawn")
    assert state.phase is PhaseName.SPAWN
    assert state.phase == "spawn" and f"{state.phase}" == "spawn"
    assert PHASES == ("explorer", "spawn", "horror", "monster")
    assert [p.name for p in PHASE_ORDER] == list(PhaseName)


def test_manual_p18_a_side_is_an_enum_that_still_equals_its_word():
    state = _state()
    kim, ghoul = state.unit("kim"), state.unit(state.queue[0])
    assert kim.side is Side.EXPLORER and ghoul.side is Side.MONSTER
    assert kim.side == "explorer" and KIM.side is Side.EXPLORER


def test_a_save_writes_phase_and_side_as_their_words():
    state = _state(phase="horror")
    body = json.loads(to_json(state))["state"]
    assert body["phase"] == "horror"
    assert {u["side"] for u in body["units"]} == {"explorer", "monster"}
    again = from_json(to_json(state))
    assert again == state and again.phase is PhaseName.HORROR


@pytest.mark.parametrize("field, value", [("phase", "dusk"), ("phase", 3)])
def test_an_unknown_phase_is_refused_naming_it(field, value):
    with pytest.raises(RulesError, match="phase"):
        _state(**{field: value})


def test_an_unknown_side_is_refused_naming_it():
    with pytest.raises(RulesError, match="side"):
        UnitCard("x", "X", "neutral")
