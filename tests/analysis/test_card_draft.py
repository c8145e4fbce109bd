"""The card editor's values: a unit card typed field by field, its problems at the field, in
plain words, carried by the situation it is placed in (manual p18, p20-27)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from machina_nb.rules.analysis.ask import ask
from machina_nb.rules.analysis.card_draft import (
    AbilityDraft,
    CardDraft,
    EffectDraft,
    card_problems,
    card_words,
    with_card,
)
from machina_nb.rules.analysis.draft import (
    draft_of_situation,
    empty_draft,
    place,
    question,
    to_situation,
    to_toml,
    with_questions,
)
from machina_nb.rules.analysis.situation import situation_from_text
from machina_nb.rules.errors import RulesError

GNAW = AbilityDraft("gnaw", stamina=1, target="melee",
                    effects=(EffectDraft("attack", high=1, low=1),))
GHOUL = CardDraft("ghoul", "Ghoul", "monster",
                  stats=(("armor", 1), ("will", 1), ("stamina", 3), ("health", 2)),
                  abilities=(GNAW,))


def test_manual_p18_a_typed_card_has_its_problems_at_the_field():
    assert card_problems(GHOUL) == ()
    bad = replace(GHOUL, stats=GHOUL.stats + (("armor", 12),))
    assert card_problems(bad)[0][0] == "armor" and "0-9" in card_problems(bad)[0][1]
    assert card_problems(replace(GHOUL, id="mi_go"))[0][0] == "id"
    assert card_problems(replace(GHOUL, id="Ghoul!"))[0][0] == "id"
    wrong = replace(GNAW, effects=(EffectDraft("bite", high=1),))
    field, words = card_problems(replace(GHOUL, abilities=(wrong,)))[0]
    assert field == "ability gnaw effects" and "bite" in words
    far = replace(GNAW, target="ranged", range=0)
    assert card_problems(replace(GHOUL, abilities=(far,)))[0][0].startswith("ability gnaw")


def test_manual_p20_a_typed_card_in_plain_words():
    words = card_words(GHOUL)
    assert words[0] == "Ghoul: monster, level 1; armor 1, will 1, stamina 3, health 2."
    assert words[1] == ("gnaw: costs 1 stamina; targets an adjacent explorer; attack with 1 "
                        "high and 1 low dice.")
    harvest = AbilityDraft("harvest", kind="triggered", trigger="destroyed",
                           effects=(EffectDraft("invoke_explorer_event", scope="self"),))
    words = card_words(replace(GHOUL, abilities=(harvest,)))
    assert words[1] == ("harvest: when it is destroyed (its destroyer resolves it); itself: "
                        "invokes an explorer event.")
    assert "0-9" in card_words(replace(GHOUL, stats=(("armor", 12),)))[-1]


def test_a_typed_card_is_saved_into_the_situation_and_answers():
    """Type a card, place it, ask, write the file and read it back: the same answers."""
    draft = with_card(empty_draft(4, 1), GHOUL)
    draft = place(place(draft, "kim", (0, 0)), "ghoul", (3, 0))
    draft = with_questions(draft, [question("ghoul_turn", "monster_turn", monster="G")])
    first = ask(to_situation(draft))
    text = to_toml(draft)
    assert "[cards.unit.ghoul.abilities.gnaw]" in text
    again = situation_from_text(text, "saved.toml")
    assert [a.value for a in ask(again)] == [a.value for a in first]
    assert draft_of_situation(again).cards == draft.cards
    assert "plays gnaw on K" in first[0].value["steps"][-1]
    retyped = with_card(draft, replace(GHOUL, stats=GHOUL.stats + (("health", 3),)))
    assert retyped.cards.units()["ghoul"].health == 3 and len(retyped.cards.cards) == 1
    with pytest.raises(RulesError, match="armor"):
        with_card(draft, replace(GHOUL, stats=(("armor", 12),)))


def test_a_typed_card_comes_back_into_the_editor_fields():
    from machina_nb.rules.analysis.card_draft import card_draft_of
    draft = with_card(empty_draft(4, 1), GHOUL)
    typed = draft.cards.cards[0]
    again = card_draft_of(typed.id, typed.table)
    assert card_words(again) == card_words(GHOUL) and with_card(draft, again) == draft
    kthun = situation_from_text(
        (__import__("pathlib").Path(__file__).parents[2] / "content" / "situations" /
         "own_cards.toml").read_text(encoding="utf-8"), "own.toml").cards.cards[0]
    assert card_draft_of(kthun.id, kthun.table).abilities[0].name == "gnaw"
    with pytest.raises(RulesError, match="edit it in the file"):
        card_draft_of("x", replace(typed.table, items=typed.table.items + (("enters_play",
                                                                             ()),)))
