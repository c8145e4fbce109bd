"""Contributing explorers: every way the explorers may share an essence cost is a legal action
the engine offers, and only those (manual p19; switch contribution.chain).

The oracle is brute force: every amount each other explorer might pay, checked one by one.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import product

import pytest
from engine_cases import CHAPTER, NEXT_CHAPTER, explorer, open_map

from machina_nb.rules.analysis.ask import ask
from machina_nb.rules.analysis.situation import load_situations, situation_from_text
from machina_nb.rules.analysis.step_text import read_action, write_action
from machina_nb.rules.engine.actions import (
    ChapterSpace,
    SealSpawn,
    apply,
    check,
    contributors,
    essence_splits,
    legal_actions,
)
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.state import Deck
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

RULES = Rules()
READINGS = ("through_contributors", "any_explorer")

# Phillip activates the chapter space h; Kim is next to it, Hank next to Phillip, Lorrai next
# to Hank only (the manual's p19 picture).
B8 = open_map(5, 4, {0: "....K", 1: "..Ph.", 2: ".H...", 3: "L...."})


def b8_state(essence):
    legend = {"P": explorer("phillip", stamina=6), "K": explorer("kim"), "H": explorer("hank"),
              "L": explorer("lorrai")}
    state = scenario(B8, legend, chapter=CHAPTER, chapters=Deck((NEXT_CHAPTER,)))
    state = replace(state, phase="explorer", active="phillip", turns=("phillip",))
    for who, n in essence.items():
        state = state.update_unit(who, essence=n)
    return state


def _legal(state, action, rules):
    try:
        check(state, action, rules)
    except RulesError:
        return False
    return True


def _brute_force(state, rules, make, others):
    """Every split of amounts 0-3 by ``others`` (seating order, payers only) the rules allow."""
    found = set()
    for amounts in product(range(4), repeat=len(others)):
        split = tuple((who, n) for who, n in zip(others, amounts) if n)
        if _legal(state, make(split), rules):
            found.add(split)
    return found


@pytest.mark.parametrize("reading", READINGS)
def test_manual_p19_every_payable_split_of_the_chapter_space_is_offered(reading):
    rules = RULES.replace({"contribution.chain": reading})
    state = b8_state({"phillip": 1, "kim": 2, "hank": 1, "lorrai": 2})
    others = [e.id for e in state.explorers_on_map if e.id != "phillip"]
    oracle = _brute_force(state, rules, lambda c: ChapterSpace("phillip", (3, 1), c), others)
    offered = [a.contributions for a in legal_actions(state, rules)
               if isinstance(a, ChapterSpace)]
    assert len(offered) == len(set(offered))            # each split once
    assert set(offered) == oracle
    assert () not in oracle                             # Phillip cannot pay 3 alone
    lorrai_alone = (("lorrai", 2),)                     # Lorrai is linked only through Hank
    assert (lorrai_alone in oracle) == (reading == "any_explorer")


def test_manual_p19_the_actor_alone_comes_first_then_the_least_help():
    state = b8_state({"phillip": 3, "kim": 1, "hank": 1, "lorrai": 0})
    splits = essence_splits(state, RULES, "phillip", 3, (3, 1))
    assert splits[0] == ()
    given = [sum(n for _, n in s) for s in splits]
    assert given == sorted(given)
    assert set(splits) == {(), (("kim", 1),), (("hank", 1),), (("kim", 1), ("hank", 1))}


def test_manual_p19_a_link_who_pays_nothing_breaks_the_chain_by_default():
    state = b8_state({"phillip": 1, "kim": 0, "hank": 0, "lorrai": 3})
    action = ChapterSpace("phillip", (3, 1), (("lorrai", 2),))
    with pytest.raises(RulesError, match="contribution.chain"):
        check(state, action, RULES)
    after, _ = apply(state, action, RULES.replace({"contribution.chain": "any_explorer"}))
    assert after.unit("lorrai").essence == 1 and after.unit("phillip").essence == 0
    assert set(contributors(state, RULES, "phillip", (3, 1))) == {"kim", "hank", "lorrai"}


def test_manual_p19_a_contributor_pays_at_least_one_and_is_named_once():
    state = b8_state({"phillip": 1, "kim": 3, "hank": 1, "lorrai": 0})
    for given in ((("kim", 0),), (("kim", 1), ("kim", 1))):
        with pytest.raises(RulesError, match="manual p19"):
            check(state, ChapterSpace("phillip", (3, 1), given), RULES)


def test_manual_p19_the_actor_pays_only_what_the_others_left():
    state = b8_state({"phillip": 1, "kim": 2, "hank": 0, "lorrai": 0})
    _, events = apply(state, ChapterSpace("phillip", (3, 1), (("kim", 2),)), RULES)
    paid = next(e for e in events if e.kind == "pay")
    assert paid.amounts == (3, 1)


def test_manual_p19_kim_may_seal_only_with_phillips_essence():
    """Kim holds 2 essence, the seal costs 4; Phillip, next to the spawn space, holds 3."""
    s = load_situations()["shared_seal"]
    rules = s.rules()
    state = s.state_at(rules)
    seals = [a for a in legal_actions(state, rules) if isinstance(a, SealSpawn)]
    assert [a.contributions for a in seals] == [(("phillip", 2),), (("phillip", 3),)]
    with pytest.raises(RulesError, match="after contributions"):
        check(state, replace(seals[0], contributions=()), rules)
    for seal in seals:
        after, _ = apply(state, seal, rules)
        given = seal.contributions[0][1]
        assert after.unit("phillip").essence == 3 - given
        assert after.unit("kim").essence == 2 - (4 - given)


def test_manual_p19_no_essence_no_contributors():
    """An action that costs no essence takes no contributions (an action space, a lit chapter
    space): there is nothing to share."""
    state = b8_state({"phillip": 3, "kim": 3, "hank": 0, "lorrai": 0})
    state = replace(state, lit=((3, 1),))
    with pytest.raises(RulesError, match="nothing to contribute to"):
        check(state, ChapterSpace("phillip", (3, 1), (("kim", 1),)), RULES)
    assert [a.contributions for a in legal_actions(state, RULES)
            if isinstance(a, ChapterSpace)] == [()]


MEND = '''
kind = "situation"
id = "shared_mend"
title = "Lorrai mends with Kim's essence"
map = \'\'\'
+-+-+-+-+
|L K . P|
+-+-+-+-+
\'\'\'

[unit.L]
card = "lorrai"
essence = 0
health = 3

[unit.K]
card = "kim"
essence = 2

[unit.P]
card = "phillip"
essence = 2

[turn]
phase = "explorer"
active = "P"
'''


def test_manual_p19_an_ability_outside_its_turn_is_paid_by_an_adjacent_explorer():
    """Lorrai's mend costs 1 essence and no stamina, so she may play it on Phillip's turn
    (manual p12, p20); she holds none, and Kim next to her pays it. Phillip, two spaces away,
    may not."""
    s = situation_from_text(MEND, "shared_mend.toml")
    rules = s.rules()
    state = s.state_at(rules)
    mends = [a for a in legal_actions(state, rules) if a.actor == "lorrai"]
    assert [a.contributions for a in mends] == [(("kim", 1),)]
    letters = {u.id: u.letter for u in s.units}
    text = write_action(mends[0], state, rules, letters)
    assert text == "L plays mend with K contributing 1"
    assert read_action(text, state, rules, letters) == mends[0]


def _answers(sid, rules=None):
    s = load_situations()[sid]
    return {a.name: a for a in ask(s, rules)}


def test_manual_p19_the_actions_answer_names_each_split_in_words():
    value = _answers("shared_seal")["kim_may"].value
    assert [a for a in value if a.startswith("activates (1, 0)")] == [
        "activates (1, 0) with P contributing 2",
        "activates (1, 0) with P contributing 3"]


def test_contribution_chain_readings_differ_on_the_shipped_situation():
    loose = Rules.preset("manual").replace({"contribution.chain": "any_explorer"})
    strict, other = _answers("contributor_chain"), _answers("contributor_chain", loose)
    assert not any(a.startswith("activates (3, 0)") for a in strict["kim_may"].value)
    assert "activates (3, 0) with H contributing 2" in other["kim_may"].value
    assert "refused" in str(strict["through_phillip"].value)
    assert "refused" not in str(other["through_phillip"].value)


def test_manual_p32_the_actions_answer_says_use_inventory_in_words():
    value = _answers("inventory_steps")["kim_may"].value
    assert "use inventory: unequip all" in value
    assert "use Phillip's inventory: unequip all then equip Circular Saw" in value
    assert any(a.startswith("use inventory: unequip all then equip Teleportabulus then upgrade "
                            "Teleportabulus with Puncturing Revolver") for a in value)
