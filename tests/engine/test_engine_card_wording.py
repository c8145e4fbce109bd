"""Card wording the engine reads: a heal on any explorer of the user's tile (manual p21-22,
Lorrai), a unit card's «enters play» written in content (manual p20), and "push N" versus
"push up to N" (manual p25; ruling D17)."""

from dataclasses import replace

import pytest
from engine_cases import CHAPTER, decision, explorer, monster, open_map

from machina_nb.rules.cards.abilities import Ability, Cost, Effect, Targeting, effect_from_record
from machina_nb.rules.cards.units import content_cards, load_all_units, load_units
from machina_nb.rules.engine.actions import PlayAbility, RollSpawn, apply, legal_actions
from machina_nb.rules.engine.chance import ScriptedDice
from machina_nb.rules.engine.saves import from_json, to_json
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.state import Deck
from machina_nb.rules.errors import ContentError, RulesError
from machina_nb.rules.rulings import Rules

RULES = Rules()
CARDS = content_cards()
LORRAI, HERALD = CARDS["lorrai"], CARDS["sample_herald"]
MEND = next(i for i, a in enumerate(LORRAI.abilities) if a.name == "mend")


def turn(state, who):
    return replace(state, phase="explorer", active=who, turns=(who,))


# --- Lorrai's mend: any explorer on her map tile (manual p21-22) ------------------------------

def mend_state(active="lorrai"):
    """Lorrai and Kim on tile 0 (x 0-4), Hank on tile 1; Kim and Hank wounded."""
    state = scenario(open_map(6, 1, {0: "L.K..H"}),
                     {"L": (LORRAI, {"essence": 2}), "K": (explorer("kim"), {"health": 3}),
                      "H": (explorer("hank"), {"health": 3})}, tile_size=5)
    return turn(state, active)


def test_manual_p21_mend_reads_a_chosen_explorer_on_her_tile():
    assert LORRAI.abilities[MEND].cost == Cost(essence=1)
    assert LORRAI.abilities[MEND].effects == (
        Effect("restore_health", scope="any_explorer_on_tile", amount=1),)


def test_manual_p22_mend_offers_the_explorers_on_her_tile_only():
    state = mend_state()
    info = decision(state, PlayAbility("lorrai", MEND), RULES)
    assert info.options == ("lorrai", "kim")          # hank is on another tile
    decision(state, PlayAbility("lorrai", MEND, choices=("hank",)), RULES)
    plays = [a for a in legal_actions(state, RULES)
             if isinstance(a, PlayAbility) and a.actor == "lorrai" and a.index == MEND]
    assert plays == [PlayAbility("lorrai", MEND)]          # she picks whom when she plays it


def test_manual_p22_mend_heals_the_chosen_explorer_and_not_one_on_another_tile():
    state = mend_state()
    after, events = apply(state, PlayAbility("lorrai", MEND, choices=("kim",)), RULES)
    assert after.unit("kim").health == 4 and after.unit("hank").health == 3
    assert after.unit("lorrai").essence == 1
    assert any("p23 (affected units)" in e.rule for e in events)
    assert from_json(to_json(after)) == after


def test_manual_p21_mend_costs_no_stamina_so_she_plays_it_in_kims_turn():
    state = mend_state(active="kim")
    plays = [a for a in legal_actions(state, RULES)
             if isinstance(a, PlayAbility) and a.actor == "lorrai"]
    assert {a.index for a in plays} == {MEND}                 # hex bolt costs stamina
    after, _ = apply(state, PlayAbility("lorrai", MEND, choices=("kim",)), RULES)
    assert after.unit("kim").health == 4 and after.active == "kim"
    with pytest.raises(RulesError, match="manual p12, p20"):
        apply(state, PlayAbility("lorrai", 0, (2, 0)), RULES)


# --- a unit card's «enters play» in content (manual p20) ------------------------------------

def test_manual_p20_the_herald_card_reads_its_enters_play_from_content():
    assert [dict(r.items) for r in load_all_units()["sample_herald"].enters_play] == [
        {"op": "lose_health", "scope": "explorers_on_tile", "amount": 1}]
    assert HERALD.enters_play == (Effect("lose_health", scope="explorers_on_tile", amount=1),)
    assert HERALD.invented and not CARDS["mi_go"].enters_play


def test_manual_p13_p20_a_spawned_herald_resolves_its_enters_play_on_its_tile():
    """Ann rolls on tile 0 (x 0-2); the Herald spawns there: Ann and Bo lose 1, Cy does not."""
    state = scenario(open_map(6, 1, {0: "AsB..C"}),
                     {"A": explorer("ann"), "B": explorer("bo"), "C": explorer("cy")},
                     tile_size=3, chapter=CHAPTER, monsters=Deck((HERALD,)))
    state = replace(state, phase="spawn", spawn_rating=3, done=())
    after, events = apply(state, RollSpawn("ann"), RULES, ScriptedDice([5]))
    assert after.queue == ("sample_herald-1",)
    assert [after.unit(u).health for u in ("ann", "bo", "cy")] == [4, 4, 5]
    kinds = [e.kind for e in events]
    assert "Sample Herald enters play" in events[kinds.index("spawn") + 1].text
    assert from_json(to_json(after)) == after


def units_file(tmp_path, enters_play):
    path = tmp_path / "units.toml"
    path.write_text('kind = "units"\n\n[unit.herald]\nname = "Herald"\nkind = "monster"\n'
                    'level = 2\narmor = 1\nwill = 2\nstamina = 3\nhealth = 2\ninvented = true\n'
                    'source = "ours"\n\n[unit.herald.enters_play]\n' + enters_play,
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("body, where, fragment", [
    ('text = "x"\neffects = [{ op = "hurl" }]\n', (16, 14), "unknown effect 'hurl'"),
    ('text = "x"\neffects = [{ op = "threat", amount = 1, size = 2 }]\n', (16, 41),
     "unknown key 'size' in an effect"),
    ('text = "x"\neffects = []\nwhen = "now"\n', (17, 8), "unknown key 'when'"),
    ('effects = []\n', (14, 1), "missing key 'text'"),
    ('text = "x"\neffects = ["threat"]\n', (16, 11), "a list of effect tables"),
])
def test_manual_p20_a_bad_enters_play_is_refused_at_file_line_col(tmp_path, body, where,
                                                                  fragment):
    path = units_file(tmp_path, body)
    with pytest.raises(ContentError) as info:
        load_units(path)
    assert (info.value.line, info.value.col) == where and fragment in info.value.message


def test_manual_p20_a_good_enters_play_loads(tmp_path):
    path = units_file(tmp_path, 'text = "Threat +1."\neffects = [{ op = "threat", amount = 1 }]\n')
    assert [dict(r.items) for r in load_units(path)["herald"].enters_play] == [
        {"op": "threat", "amount": 1}]


# --- push N versus push up to N (manual p25; ruling D17) ---------------------------------------

def shove_state(op, up_to, row, **more):
    shove = Ability("Shove", Cost(stamina=1), Targeting("melee" if op == "push" else "ranged",
                                                        4, "monster"),
                    (Effect(op, amount=2, up_to=up_to),))
    state = scenario(open_map(5, 1, {0: row}), {"A": explorer("a", abilities=(shove,)),
                                                "M": monster("m"), **more})
    return turn(state, "a")


@pytest.mark.parametrize("op, row, target, plain_end, ends", [
    ("push", "AM...", (1, 0), (3, 0), [(1, 0), (2, 0), (3, 0)]),
    ("pull", "A...M", (4, 0), (2, 0), [(2, 0), (3, 0), (4, 0)]),
])
def test_push_n_goes_the_whole_way_up_to_n_lets_the_players_choose(
        op, row, target, plain_end, ends):
    after, events = apply(shove_state(op, False, row), PlayAbility("a", 0, target), RULES)
    assert after.unit("m").position == plain_end and not any(e.kind == "choice" for e in events)
    state = shove_state(op, True, row)
    info = decision(state, PlayAbility("a", 0, target), RULES)
    options = info.options
    assert sorted(d.end for d in options) == ends and "up to 2" in info.what
    middle = next(d for d in options if d.end == (2 if op == "push" else 3, 0))
    after, _ = apply(state, PlayAbility("a", 0, target, choices=(middle,)), RULES)
    assert after.unit("m").position == middle.end
    plays = [a for a in legal_actions(state, RULES) if isinstance(a, PlayAbility)
             and a.target == target]
    assert plays == [PlayAbility("a", 0, target)]          # where it stops is asked in play


def test_push_n_stops_where_it_is_blocked():
    state = shove_state("push", False, "AM.B.", B=explorer("b"))
    after, events = apply(state, PlayAbility("a", 0, (1, 0)), RULES)
    assert after.unit("m").position == (2, 0) and any("blocked" in e.text for e in events)


def test_up_to_is_read_from_an_effect_table_and_only_for_push_or_pull():
    assert effect_from_record({"op": "pull", "amount": 3, "up_to": True}) == Effect(
        "pull", amount=3, up_to=True)
    with pytest.raises(RulesError) as info:
        Effect("move", amount=2, up_to=True)
    assert info.value.argument == "up_to"
    with pytest.raises(RulesError):
        Effect("push", amount=2, up_to="yes")
