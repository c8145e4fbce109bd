"""The round's phases: spawn (1.0 and 3.5), horror, threat and level, and their switches."""

from dataclasses import replace

import pytest
from engine_cases import CHAPTER, NEXT_CHAPTER, SHIVERS, SURGE, explorer, monster, open_map

from machina_nb.rules.board.maptext import parse_map
from machina_nb.rules.cards.events import Chapter
from machina_nb.rules.engine.actions import (
    EndTurn,
    RollHorror,
    RollSpawn,
    StartTurn,
    apply,
    legal_actions,
)
from machina_nb.rules.engine.chance import ScriptedDice
from machina_nb.rules.engine.effects import threat_up
from machina_nb.rules.engine.game import new_game
from machina_nb.rules.engine.phases import PHASE_ORDER, spawn_rollers
from machina_nb.rules.engine.resolution import NeedChoice
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.state import Deck, Lasting
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.odds.processes import adjusted_spawn_rating
from machina_nb.rules.rulings import Rules

RULES, V35 = Rules(), Rules.preset("v3_5")
GHOUL = monster("ghoul")


def spawn_state(rating=3, explorers="AB", rows=None, monsters=(), **fields):
    """Explorers on a 6x2 board with spawn spaces; the spawn phase about to roll."""
    rows = rows or {0: "As..sB", 1: "......"}
    rows = {y: "".join("." if c in "AB" and c not in explorers else c for c in row)
            for y, row in rows.items()}
    legend = {c: explorer(c.lower()) for c in explorers}
    for letter, card in monsters:
        legend[letter] = card
    state = scenario(open_map(6, 2, rows), legend, chapter=CHAPTER,
                     monsters=Deck((GHOUL,) * 6), **fields)
    return replace(state, phase="spawn", spawn_rating=rating, done=())


def test_manual_p10_the_four_phases_in_order():
    assert [p.name for p in PHASE_ORDER] == ["explorer", "spawn", "horror", "monster"]
    assert [p.next for p in PHASE_ORDER] == ["spawn", "horror", "monster", "explorer"]


# --- spawn phase 1.0 (manual p13) --------------------------------------------------------------

def test_manual_p13_success_spawns_at_the_nearest_spawn_space_and_resets():
    state, events = apply(spawn_state(), RollSpawn("a"), RULES, ScriptedDice([5]))
    ghoul = state.monsters_in_play[0]
    assert ghoul.position == (1, 0) and state.queue == (ghoul.id,)
    assert state.spawn_rating == CHAPTER.spawn_rating


def test_manual_p13_a_spawned_monster_resolves_its_enters_play():
    from machina_nb.rules.cards.abilities import Effect
    howler = replace(monster("howler"), enters_play=(Effect("threat", amount=1),))
    state = replace(spawn_state(), monsters=Deck((howler,)))
    after, events = apply(state, RollSpawn("a"), RULES, ScriptedDice([5]))
    assert after.queue == ("howler-1",) and after.threat == state.threat + 1
    kinds = [e.kind for e in events]
    assert kinds[kinds.index("spawn") + 1] == "threat"


def test_manual_p13_failure_lowers_the_shared_rating():
    state, _ = apply(spawn_state(), RollSpawn("a"), RULES, ScriptedDice([2]))
    assert state.spawn_rating == 2 and not state.queue


@pytest.mark.parametrize("reading, rating", [("none", 0), ("one", 1)])
def test_rating_floor(reading, rating):
    state, _ = apply(spawn_state(rating=1), RollSpawn("a"), RULES.replace({"rating.floor": reading}),
                     ScriptedDice([0]))
    assert state.spawn_rating == rating


@pytest.mark.parametrize("reading, rollers", [("players_choose", ("a", "b")),
                                              ("seating", ("a",)), ("turn_order", ("b",))])
def test_spawn_roll_order(reading, rollers):
    state = replace(spawn_state(), turns=("b", "a"))
    rules = RULES.replace({"spawn10.roll_order": reading})
    assert tuple(e.id for e in spawn_rollers(state, rules)) == rollers


FULL = [("W", monster("w1")), ("X", monster("w2")), ("Y", monster("w3")), ("Z", monster("w4"))]
FULL_ROWS = {0: "As..sB", 1: "WXYZ.."}


@pytest.mark.parametrize("reading, rating", [("yes", 6), ("no", 3)])
def test_success_at_the_limit_resets_or_not(reading, rating):
    state = spawn_state(rows=FULL_ROWS, monsters=FULL, threat=1)
    after, events = apply(state, RollSpawn("a"), RULES.replace({"spawn10.reset_on_limit": reading}),
                          ScriptedDice([5]))
    assert after.threat == 2 and len(after.queue) == 4 and after.spawn_rating == rating


def test_tile_with_every_spawn_space_destroyed_does_not_roll():
    state = spawn_state(destroyed=((1, 0), (4, 0)))
    assert spawn_rollers(state, RULES) == ()


@pytest.mark.parametrize("reading, rolls", [("skip", False), ("roll_anyway", True)])
def test_tile_without_spawn_spaces(reading, rolls):
    state = spawn_state(rows={0: "A....B", 1: "......"})
    assert bool(spawn_rollers(state, RULES.replace({"spawn.no_spawn_spaces": reading}))) is rolls


@pytest.mark.parametrize("reading, limited", [("all_spawns", True), ("phase_only", False),
                                              ("none", False)])
def test_spawn_limit_scope_for_card_spawns(reading, limited):
    from machina_nb.rules.engine.effects import spawn_monster
    state = spawn_state(rows=FULL_ROWS, monsters=FULL)
    r = new_resolution(state, RULES.replace({"spawn.limit_scope": reading}), ScriptedDice())
    spawn_monster(r, (0, 0), reading == "all_spawns", "a card")
    assert (len(r.state.queue) == 4) is limited


# --- spawn phase 3.5 (3.5 §Spawn Phase) ----------------------------------------

@pytest.mark.parametrize("default, expected", [(8, (8, 7, 6, 5)), (4, (4, 3, 3, 3)),
                                               (2, (2, 2, 2, 2))])
def test_3_5_faq_spawn_numbers(default, expected):
    assert tuple(adjusted_spawn_rating(default, n) for n in (1, 2, 3, 4)) == expected


def test_3_5_no_reset_and_no_decrease_then_one_decrease_at_the_end():
    state = spawn_state(rating=5)
    state, _ = apply(state, RollSpawn("a"), V35, ScriptedDice([7]))
    assert state.spawn_rating == 5 and len(state.queue) == 1
    state, events = apply(state, RollSpawn("b"), V35, ScriptedDice([1, 0]))
    assert state.phase == "horror" and state.spawn_rating == 4


@pytest.mark.parametrize("reading, rating", [("no", 2), ("yes", 4)])
def test_35_reset_on_success(reading, rating):
    state = spawn_state(rating=3, explorers="A")
    rules = V35.replace({"spawn35.reset_on_success": reading, "adjust35.when": "rating1_only"})
    state = replace(state, chapter=replace(CHAPTER, spawn_rating=5))
    after, _ = apply(state, RollSpawn("a"), rules, ScriptedDice([7, 0]))
    assert after.spawn_rating == rating


def begin_spawn(state, rules, dice=()):
    """Run the spawn phase's begin by ending the last explorer's turn."""
    state = replace(state, phase="explorer", active="a", done=())
    state = state.update_unit("b", position=None) if state.has_unit("b") else state
    return apply(state, EndTurn("a"), rules, ScriptedDice(dice))


@pytest.mark.parametrize("blocking, chapter", [(False, "chapter-2"), (True, "chapter-1")])
def test_3_5_rating_one_timer(blocking, chapter):
    state = spawn_state(rating=1, explorers="A", chapters=Deck((NEXT_CHAPTER,)), threat=1)
    state = replace(state, chapter=replace(CHAPTER, blocking=blocking))
    after, events = begin_spawn(state, V35, [0] * 10)
    assert after.chapter.id == chapter
    assert after.threat == 5 or after.level == 2       # +4: the printed horror rating


@pytest.mark.parametrize("reading, threat", [("default_printed", 5), ("current_slider", 3)])
def test_threat_amount(reading, threat):
    state = spawn_state(rating=1, explorers="A", chapters=Deck((NEXT_CHAPTER,)), threat=1,
                        threat_positions=9, horror_rating=2)
    after, _ = begin_spawn(state, V35.replace({"threat35.amount": reading}), [0] * 10)
    assert after.threat == threat


@pytest.mark.parametrize("reading, chapter, rating", [("zero", "chapter-2", 7),
                                                       ("skip_rule", "chapter-1", 0)])
def test_a_chapter_with_no_horror_rating(reading, chapter, rating):
    """3.5 rating-1 step in a non-blocking chapter without a horror rating: ``zero`` adds no
    threat and advances; ``skip_rule`` skips the step and the rating falls to 0 at the end."""
    state = spawn_state(rating=1, explorers="A", chapters=Deck((NEXT_CHAPTER,)), threat=2)
    state = replace(state, chapter=replace(CHAPTER, horror_rating=None), horror_rating=None)
    rules = V35.replace({"threat35.no_horror_rating": reading})
    after, events = begin_spawn(state, rules, [0] * 10)
    assert after.chapter.id == chapter and after.threat == 2
    assert any("threat35.no_horror_rating" in e.rule for e in events if e.kind == "timer")
    after, _ = apply(after, RollSpawn("a"), rules, ScriptedDice([0]))
    assert after.spawn_rating == rating


@pytest.mark.parametrize("reading, rating", [("every_reset", 7), ("rating1_only", 8)])
def test_adjustment_at_setup(reading, rating):
    layout = parse_map(open_map(2, 1))
    game = new_game(layout, [(explorer("a"), (0, 0)), (explorer("b"), (1, 0))],
                    chapters=(NEXT_CHAPTER,), rules=V35.replace({"adjust35.when": reading}))
    assert game.spawn_rating == rating


@pytest.mark.parametrize("reading, rating", [("alive_explorers", 7), ("starting_explorers", 6),
                                             ("explorers_in_play", 8)])
def test_which_explorers_count(reading, rating):
    """3 started, 2 alive, 1 on the map (B exited): a blocking chapter of rating 8 resets."""
    state = spawn_state(rating=1, explorers="AB", starting_explorers=3)
    state = replace(state, chapter=replace(NEXT_CHAPTER, blocking=True))
    after, _ = begin_spawn(state, V35.replace({"n35": reading}), [0] * 10)
    assert after.phase == "spawn" and after.spawn_rating == rating


@pytest.mark.parametrize("reading, token, monsters", [("remove_exit_token", None, 1),
                                                     ("keep_token", (5, 1), 1),
                                                     ("full_exit_procedure", None, 0)])
def test_timer_on_an_exit_chapter(reading, token, monsters):
    state = spawn_state(rating=1, explorers="A", chapters=Deck((NEXT_CHAPTER,)), exit_token=(5, 1),
                        rows={0: "As..s.", 1: "G....."}, monsters=[("G", monster("g"))])
    state = replace(state, chapter=replace(CHAPTER, blocking=True, places_exit=True))
    after, _ = begin_spawn(state, V35.replace({"timer35.exit_chapter": reading}), [0] * 10)
    assert after.chapter.id == "chapter-2"
    assert after.exit_token == token and len(after.queue) == monsters


# --- horror phase (manual p14) ---------------------------------------------------------------

def horror_state(rating=3, **fields):
    state = scenario(open_map(3, 1, {0: "A.G"}), {"A": explorer("a"), "G": monster("ghoul",
                                                                                 health=3)},
                     chapter=CHAPTER, horror_events=Deck((SURGE, SHIVERS)), **fields)
    return replace(state, phase="horror", horror_rating=rating,
                   units=tuple(replace(u, health=2) if u.id == "ghoul" else u
                               for u in state.units))


def test_manual_p14_horror_roll_invokes_an_event():
    after, events = apply(horror_state(), RollHorror(), RULES, ScriptedDice([3]))
    assert after.threat == 2 and after.horror_rating == 4
    assert after.horror_events.destroyed == (SURGE,) and after.unit("ghoul").health == 3


def test_manual_p14_horror_roll_failure_lowers_the_rating():
    after, _ = apply(horror_state(), RollHorror(), RULES, ScriptedDice([2]))
    assert after.horror_rating == 2 and after.threat == 1


@pytest.mark.parametrize("reading, current", [("place_then_resolve", True),
                                              ("resolve_then_place", False)])
def test_horror_invoke_order(reading, current):
    """A horror event that reinvokes 'the current horror event' sees itself or not."""
    from machina_nb.rules.cards.abilities import Effect
    from machina_nb.rules.cards.events import EventCard
    echo = EventCard("echo", "Echo", "horror", enters_play=(Effect("reinvoke_horror_event"),))
    state = replace(horror_state(), horror_events=Deck((echo,), (SURGE,)))
    after, events = apply(state, RollHorror(), RULES.replace({"horror.invoke_order": reading}),
                          ScriptedDice([9]))
    healed = after.unit("ghoul").health == 3
    assert healed is not current     # place first: Echo reinvokes itself, nothing heals


@pytest.mark.parametrize("reading, kept", [("return_anyway", 0), ("stay", 1)])
def test_markers_when_the_horror_phase_is_skipped(reading, kept):
    state = scenario(open_map(2, 1, {0: "AG"}), {"A": explorer("a"), "G": monster("ghoul")},
                     lasting=(Lasting("slime", "roll_modifier", "a", "horror", -1),))
    state = replace(state, phase="spawn", spawn_rating=None, horror_rating=None)
    state = replace(state, phase="explorer", active="a")
    after, _ = apply(state, EndTurn("a"), RULES.replace({"markers.skipped_horror_phase": reading}),
                     ScriptedDice([0] * 4))
    assert len(after.lasting) == kept


# --- threat and level (manual p14; 3.5; rulings C-8, D29, D30) ------------------------------------

def bump(state, rules, n):
    r = new_resolution(state, rules, ScriptedDice())
    threat_up(r, n, "test")
    return r.state


@pytest.mark.parametrize("reading, increments", [("on_reach", 4), ("on_increase_from_last", 5)])
def test_level_up_trigger(reading, increments):
    state = horror_state(monsters=Deck((GHOUL,) * 4))
    rules = RULES.replace({"threat.levelup": reading})
    assert bump(state, rules, increments - 1).level == 1
    assert bump(state, rules, increments).level == 2


@pytest.mark.parametrize("halve, rounding, left", [("yes", "floor", 3), ("yes", "ceil", 2),
                                                   ("no", "floor", 5)])
def test_level_up_halves_the_deck(halve, rounding, left):
    brute = monster("brute", level=2)
    state = horror_state(monsters=Deck((GHOUL,) * 3, (GHOUL,) * 2), reserve=(brute,))
    rules = RULES.replace({"level.halve": halve, "half.rounding": rounding})
    after = bump(state, rules, 4)
    assert after.level == 2 and len(after.monsters.cards) == left + 1
    assert brute in after.monsters.cards and after.reserve == ()


@pytest.mark.parametrize("choice, left", [("floor", 3), ("ceil", 2)])
def test_manual_p14_players_choose_the_rounding_at_the_level_up(choice, left):
    """Five monster cards, halved: under players_choose the explorers are asked (2 or 3 go)."""
    state = horror_state(monsters=Deck((GHOUL,) * 3, (GHOUL,) * 2))
    rules = RULES.replace({"half.rounding": "players_choose"})
    r = new_resolution(state, rules, ScriptedDice())
    with pytest.raises(NeedChoice) as info:
        threat_up(r, 4, "test")
    assert info.value.options == ("floor", "ceil") and "manual p14" in info.value.rule
    r = new_resolution(state, rules, ScriptedDice(), (choice,))
    threat_up(r, 4, "test")
    assert r.state.level == 2 and len(r.state.monsters.cards) == left


@pytest.mark.parametrize("reading, raised", [("yes", False), ("no", True)])
def test_manual_p14_level_five(reading, raised):
    state = replace(horror_state(), level=5)
    after = bump(state, RULES.replace({"level5_rule": reading}), 1)
    assert (after.threat == 2) is raised


def test_3_5_lists_changes_only_so_its_preset_keeps_level_5_and_the_card_spawn_limit():
    """The 3.5 update gives rule changes only (3.5 introduction). Its level-up section changes
    the trigger and deck steps and says nothing of level 5; its spawn phase writes the limit
    into the roll and leaves the spawn monster effect alone. Both manual rules stand (manual
    p13: the limit is the effect's first step; p14: the level-5 rule)."""
    from machina_nb.rules.cards.abilities import Effect
    from machina_nb.rules.engine.resolution import resolve
    assert V35["level5_rule"] == "yes" and V35["spawn.limit_scope"] == "all_spawns"
    state = replace(horror_state(), level=5)
    assert bump(state, V35, 1).threat == state.threat          # replaced by the level-5 rule
    state = spawn_state(rows=FULL_ROWS, monsters=FULL)
    r = new_resolution(state, V35, ScriptedDice())
    resolve(r, (Effect("spawn"),), state.unit("a"), None, "a card's spawn")
    assert len(r.state.queue) == 4 and r.state.threat == state.threat + 1


# --- the round, end to end --------------------------------------------------------------------

def test_manual_p10_a_round_walks_every_phase():
    state = spawn_state(rating=6, explorers="A")
    state = replace(state, phase="explorer", horror_rating=4, horror_events=Deck((SURGE,)))
    assert legal_actions(state, RULES) == (StartTurn("a"),)
    state, _ = apply(state, StartTurn("a"), RULES)
    state, _ = apply(state, EndTurn("a"), RULES)
    assert state.phase == "spawn" and legal_actions(state, RULES) == (RollSpawn("a"),)
    state, _ = apply(state, RollSpawn("a"), RULES, ScriptedDice([9]))
    assert state.phase == "horror"
    state, events = apply(state, RollHorror(), RULES, ScriptedDice([0]))
    assert state.phase == "monster"
    while state.phase == "monster":
        state, _ = apply(state, legal_actions(state, RULES)[0], RULES, ScriptedDice([0] * 9))
    assert state.phase == "explorer" and state.round == 2


def test_manual_p28_no_ratings_skip_spawn_and_horror():
    state = scenario(open_map(2, 1, {0: "A."}), {"A": explorer("a")},
                     chapter=Chapter("quiet", "Quiet", None, None))
    state = replace(state, active="a")
    state, events = apply(state, EndTurn("a"), RULES)
    assert state.phase == "explorer" and state.round == 2
    assert sum("skipped" in e.text for e in events) == 3


@pytest.mark.parametrize("reading, stamina", [("modified", 3), ("printed", 4)])
def test_stamina_reset_reads_lasting_stamina_modifiers(reading, stamina):
    """C-15: a horror event lowers every explorer's maximum stamina by 1 as a lasting effect
    (a horror marker, kept until the horror phase: manual p27). At the next explorer phase
    stamina resets to the maximum modified by active effects (manual p12) or as printed (aid)."""
    from machina_nb.rules.cards.abilities import Effect
    from machina_nb.rules.engine.phases import start_new_round
    from machina_nb.rules.engine.resolution import resolve
    slow = (Effect("stamina_modifier", scope="explorers_all_tiles", amount=-1),)
    state = scenario(open_map(2, 1, {0: "AG"}), {"A": explorer("a"), "G": monster("ghoul")})
    r = new_resolution(state, RULES.replace({"stamina.reset": reading}), ScriptedDice())
    resolve(r, slow, None, None, "Slow (horror event)")
    assert [(e.op, e.target, e.holder) for e in r.state.lasting] == [
        ("stamina_modifier", "a", "horror")]
    start_new_round(r, "test")
    assert r.state.unit("a").stamina == stamina and r.state.unit("a").max_stamina == 4
