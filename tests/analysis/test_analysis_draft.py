"""The analysis board's editor as values (rules/analysis/draft.py) and the questions about a
unit or a space (ask.questions_about): every edit round-trips through the situation file the
strict loader reads; illegal edits are refused and change nothing."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from machina_nb.rules.analysis.ask import MARK_ROLES, ask, questions_about
from machina_nb.rules.analysis.draft import (
    BORDER_KINDS,
    SPACE_KINDS,
    draft_of_example,
    draft_of_situation,
    draft_of_tile,
    empty_draft,
    move,
    paint,
    place,
    remove,
    rules_parts,
    set_border,
    set_items,
    set_values,
    to_situation,
    to_toml,
    with_choice,
    with_questions,
    with_roll,
    with_rules,
)
from machina_nb.rules.analysis.sensitivity import sensitivity
from machina_nb.rules.analysis.situation import load_situation, load_situations, situation_from_text
from machina_nb.rules.board.maptext import BorderKind, SpaceKind
from machina_nb.rules.board.tiles import load_tiles
from machina_nb.rules.cards.examples import load_example
from machina_nb.rules.content import content_root
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

FOLDER = content_root() / "situations"


def test_every_shipped_situation_round_trips_through_the_editor():
    for sid, s in load_situations().items():
        again = situation_from_text(to_toml(draft_of_situation(s)), "again")
        assert replace(again, path="") == replace(s, path=""), sid


def test_every_tile_side_and_worked_example_starts_a_board_that_loads():
    for tile in load_tiles().values():
        for side in tile.sides:
            d = draft_of_tile(side.key)
            assert to_situation(d).layout.spaces == side.layout.spaces
    for path in sorted((content_root() / "examples").glob("*.toml")):
        example = load_example(path)
        s = to_situation(draft_of_example(example))
        assert {u.letter: u.position for u in s.units} == dict(example.board.units), path.stem
        assert s.rules() == example.rules()


CARDS = ["sarall", "mi_go", "kim", "lorrai", "phillip", "hank"]
EDITS = st.lists(st.tuples(st.sampled_from(["paint", "border", "place", "move", "remove",
                                            "values"]),
                           st.integers(0, 5), st.integers(0, 3), st.integers(0, 20)),
                 max_size=25)


def _edit(d, what, x, y, n):
    if what == "paint":
        return paint(d, (x, y), SPACE_KINDS[n % len(SPACE_KINDS)])
    if what == "border":
        other = (x + 1, y) if n % 2 else (x, y + 1)
        return set_border(d, (x, y), other, BORDER_KINDS[n % len(BORDER_KINDS)])
    if what == "place":
        return place(d, CARDS[n % len(CARDS)], (x, y))
    if not d.units:
        return d
    unit = d.units[n % len(d.units)]
    if what == "move":
        return move(d, unit.letter, (x, y))
    if what == "remove":
        return remove(d, unit.letter)
    return set_values(d, unit.letter, health=n % 3)


@settings(max_examples=60, deadline=None)
@given(EDITS)
def test_any_edits_give_a_file_the_strict_loader_reads_back_to_the_same_board(edits):
    d = empty_draft(6, 4)
    for what, x, y, n in edits:
        try:
            d = _edit(d, what, x, y, n)
        except RulesError:
            continue  # refused: the draft is unchanged
    s = to_situation(d)
    assert draft_of_situation(s) == d
    assert {u.letter: u.position for u in s.units} == {u.letter: u.position for u in d.units}


def test_manual_p22_one_unit_per_space_an_edit_refused_changes_nothing():
    d = place(empty_draft(3, 3), "sarall", (1, 1))
    with pytest.raises(RulesError, match="one unit per space"):
        place(d, "kim", (1, 1))
    with pytest.raises(RulesError, match="one unit per space"):
        move(place(d, "kim", (0, 0)), "K", (1, 1))
    assert [u.letter for u in d.units] == ["S"]


def test_manual_p36_no_unit_on_a_destroyed_space():
    d = place(empty_draft(3, 3), "sarall", (1, 1))
    with pytest.raises(RulesError, match="no unit can stand"):
        paint(d, (1, 1), SpaceKind.DESTROYED)
    d = paint(d, (0, 0), SpaceKind.UNIDENTIFIABLE)
    with pytest.raises(RulesError, match="no unit can stand"):
        place(d, "kim", (0, 0))


def test_manual_p18_values_stay_within_the_card():
    d = place(empty_draft(3, 3), "phillip", (0, 0))
    top = d.units[0].value("health")
    assert set_values(d, "P", health=top - 1).units[0].value("health") == top - 1
    assert set_values(set_values(d, "P", health=1), "P", health=top) == d   # back to the card
    with pytest.raises(RulesError, match="health must be a whole number 0-"):
        set_values(d, "P", health=top + 1)
    with pytest.raises(RulesError, match="only explorers hold items"):
        set_items(place(d, "sarall", (1, 1)), "S", ["hobnailed_boots"])


def test_manual_p22_a_border_lies_between_two_spaces_that_share_a_side():
    d = set_border(empty_draft(3, 2), (0, 0), (1, 0), BorderKind.DOOR_CLOSED)
    assert to_situation(d).layout.border((0, 0), (1, 0)) is BorderKind.DOOR_CLOSED
    with pytest.raises(RulesError, match="not side by side"):
        set_border(d, (0, 0), (1, 1), BorderKind.WALL)
    with pytest.raises(RulesError, match="open, a wall or a door"):
        set_border(d, (0, 0), (0, 1), BorderKind.EDGE)


def test_removing_a_unit_drops_its_questions_and_its_turn():
    s = load_situation(FOLDER / "sarall_door.toml")
    d = remove(draft_of_situation(s), "S")
    assert d.turn == ("monster", None)
    assert all("S" not in dict(q.record.items).values() for q in d.questions)
    to_situation(d)   # still loads


def test_the_file_names_the_rules_in_force():
    rules = Rules.preset("v3_5").replace({"los.vertex": "touch_ok"})
    assert rules_parts(rules) == ("v3_5", (("los.vertex", "touch_ok"),))
    d = with_rules(empty_draft(2, 2), rules)
    assert to_situation(d).rules() == rules


def test_manual_p15_17_a_monster_is_asked_about_its_whole_turn_and_its_attacks():
    s = load_situation(FOLDER / "sarall_door.toml")
    d = with_questions(replace(draft_of_situation(s), questions=()), ())
    bare = to_situation(d)
    kinds = [q.ask for q in questions_about(bare, "S")]
    assert kinds.count("sight") == 2 and "monster_turn" in kinds and "attack_odds" in kinds
    assert "spawn" in [q.ask for q in questions_about(bare, "P")]
    space = questions_about(bare, (2, 1))
    assert [q.ask for q in space].count("sight") == 3
    # a question the situation already asks is not asked twice
    assert not any(q.ask == "monster_turn" for q in questions_about(s, "S"))


def table_night():
    """Sarall in a corner, a wall in the top row, Phillip and Lorrai at the far side."""
    d = set_border(empty_draft(6, 3), (2, 0), (2, 1), BorderKind.WALL)
    for card, where in (("sarall", (0, 0)), ("phillip", (5, 0)), ("lorrai", (5, 2))):
        d = place(d, card, where)
    return with_questions(d, questions_about(to_situation(d), "S"))


def test_manual_p16_the_turn_is_marked_step_by_step_and_changes_when_a_door_closes():
    d = table_night()
    turn = next(a for a in ask(to_situation(d)) if a.kind == "monster_turn")
    roles = [role for _, role in turn.marks]
    assert roles[0] == "asked" and roles[-1] == "end" and set(roles) <= set(MARK_ROLES)
    steps = [p for p, role in turn.marks if role == "step"]
    assert len(steps) == len(turn.value["steps"]) - 1 == 4     # every move, then "ends its turn"
    closed = to_situation(set_border(d, (1, 0), (2, 0), BorderKind.DOOR_CLOSED))
    blocked = next(a for a in ask(closed) if a.kind == "monster_turn")
    # manual p36: destroying a door costs 4; with 3 stamina left Sarall stops at the door
    assert blocked.value["steps"] == ["moves to (1, 0)", "ends its turn"]
    before = [f.switch for f in sensitivity(to_situation(d))]
    after = [f.switch for f in sensitivity(closed)]
    assert "path.door_cost" in after and "path.door_cost" not in before


def test_manual_p16_the_players_choice_lets_the_turn_go_on():
    s = load_situation(FOLDER / "hall_20x20.toml")
    turn = next(a for a in ask(s) if a.kind == "monster_turn")
    assert turn.options == ((10, 14), (10, 15), (10, 16))
    q = next(q for q in s.questions if q.ask == "monster_turn")
    d = draft_of_situation(s)
    d = with_questions(d, [with_choice(q, (10, 15)) if x is q else x for x in d.questions])
    went_on = next(a for a in ask(to_situation(d)) if a.kind == "monster_turn")
    assert went_on.value["end"] == "(10, 15)" and not went_on.options


def test_sensitivity_reports_its_progress_to_the_end():
    s = load_situation(FOLDER / "sight_corner.toml")
    seen = []
    found = sensitivity(s, progress=lambda done, total: seen.append((done, total)))
    assert [f.switch for f in found] == ["los.vertex"]
    assert seen[0][0] == 0 and seen[-1][0] == seen[-1][1] == len(seen) - 1


def test_manual_p24_the_turn_waits_for_each_die_and_goes_on_with_the_roll_given():
    d = place(place(empty_draft(5, 2), "sarall", (0, 0)), "phillip", (1, 0))
    d = with_questions(d, questions_about(to_situation(d), "S"))
    q = next(q for q in d.questions if q.ask == "monster_turn")
    waiting = next(a for a in ask(to_situation(d)) if a.name == q.name)
    die, outcomes = waiting.rolls
    assert die == "high" and sum(p for _, p in outcomes) == 1
    assert waiting.value["steps"][-1].endswith("waits for the high roll")
    q = with_roll(with_roll(q, 3), 2)
    d = with_questions(d, [q if x.name == q.name else x for x in d.questions])
    done = next(a for a in ask(to_situation(d)) if a.name == q.name)
    assert "phillip is hit" in done.value["steps"][0] and not done.rolls
    assert "phillip loses 1 health" in done.value["steps"][0]
