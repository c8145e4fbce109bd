"""Readings about whom an ability reaches: which explorer a mindless monster aims its ability
at (manual p16), who activates the traps a new chapter sets off (manual p21, p28, p37), and
what the later effects of an ability do once its attack has destroyed the target (manual p26,
a reading of the text, not a switch)."""

import pytest
from engine_cases import CLAW, explorer, monster, open_map

from machina_nb.rules.analysis.ask import ask
from machina_nb.rules.analysis.situation import load_situation
from machina_nb.rules.board.maptext import SpaceKind
from machina_nb.rules.cards.abilities import Ability, Cost, Effect, Targeting
from machina_nb.rules.cards.events import Chapter
from machina_nb.rules.content import content_root
from machina_nb.rules.engine.actions import ChapterSpace, MonsterAct, PlayAbility, apply
from machina_nb.rules.engine.chance import ScriptedDice
from machina_nb.rules.engine.monsters import mindless_step
from machina_nb.rules.engine.plans import PlannedAbility
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.state import Deck, MonsterTurn
from machina_nb.rules.rulings import Rules

RULES = Rules()
SITUATIONS = content_root() / "situations"


# --- whom a mindless monster's ability aims at (manual p16) ---------------------------------

def _between():
    """A ghoul between Ann and Bo, both one space away; Bo has less health, so he is its
    target (manual p16: ties go to the lowest health)."""
    return scenario(open_map(3, 1, {0: "AGB"}), {"A": explorer("ann"),
                                                 "B": (explorer("bo"), {"health": 2}),
                                                 "G": monster("ghoul")},
                    phase="monster", monster_turn=MonsterTurn("ghoul"))


@pytest.mark.parametrize("reading", ["players_choose", "current_target"])
def test_manual_p16_whom_a_mindless_monster_aims_its_ability_at(reading):
    state = _between()
    plan = mindless_step(state, RULES.replace({"mindless.ability_target": reading}), "ghoul")
    assert plan.target == "bo"
    if reading == "players_choose":
        assert plan.options == ((0, 0), (2, 0)) and plan.action is None or \
            plan.action.kind != "ability"
    else:
        assert not plan.options and plan.action == PlannedAbility(0, (2, 0))


def test_manual_p16_the_players_answer_the_aim_under_the_literal_reading():
    state = _between()
    after, _ = apply(state, MonsterAct("ghoul", choices=((0, 0),)), RULES,
                     ScriptedDice((2, 2)))
    assert after.unit("ann").health == 4 and after.unit("bo").health == 2


def test_manual_p16_an_ability_that_cannot_reach_its_target_waits_under_current_target():
    """Bo, weaker, is behind a closed door, as close as Ann (closest ignores closed doors), so
    he is the ghoul's target; its claw reaches only Ann (manual p22: a door is a barrier).
    players_choose: it claws Ann. current_target: it does not; it breaks the door instead."""
    state = scenario("+-+-+-+\n|A GDB|\n+-+-+-+\n",
                     {"A": explorer("ann"), "B": (explorer("bo"), {"health": 1}),
                      "G": monster("ghoul", stamina=6, abilities=(CLAW,))},
                     phase="monster", monster_turn=MonsterTurn("ghoul"))
    literal = mindless_step(state, RULES, "ghoul")
    other = mindless_step(state, RULES.replace({"mindless.ability_target": "current_target"}),
                          "ghoul")
    assert literal.target == "bo" and literal.action == PlannedAbility(0, (0, 0))
    assert other.target == "bo" and other.action.kind != "ability"


def test_the_shipped_situation_shows_both_aims():
    s = load_situation(SITUATIONS / "ability_target.toml")
    literal = ask(s)[0].value["steps"]
    aimed = ask(s, s.rules().replace({"mindless.ability_target": "current_target"}))[0].value
    assert literal == ["the players choose the target of probe: L, P"]
    assert aimed["steps"][0].startswith("plays probe on P")


# --- who activates the traps a new chapter triggers (manual p21, p37) -------------------------

SNARE = Chapter("snare", "Snare", spawn_rating=6, horror_rating=4,
                enters_play=(Effect("trigger_traps"),))
NOW = Chapter("now", "Now", spawn_rating=6, horror_rating=4)


@pytest.mark.parametrize("reading, far_health", [("none", 1), ("flipping_explorer", 2)])
def test_manual_p21_p37_who_activates_the_traps_of_a_new_chapter(reading, far_health):
    """Kim flips the chapter from the western tile; a ghoul waits on a trapped space of each
    tile. none: every tile's trapped spaces are attacked; flipping_explorer: only Kim's."""
    state = scenario(open_map(6, 1, {0: "KhN.F."}),
                     {"K": explorer("kim"), "N": monster("near", armor=0),
                      "F": monster("far", armor=0)},
                     spaces={"N": SpaceKind.TRAPPED, "F": SpaceKind.TRAPPED}, tile_size=3,
                     chapter=NOW, chapters=Deck((SNARE,)), lit=((1, 0),), active="kim",
                     turns=("kim",))
    rules = RULES.replace({"traps.chapter_activator": reading})
    after, _ = apply(state, ChapterSpace("kim", (1, 0)), rules, ScriptedDice((1, 1, 1) * 2))
    assert after.chapter.name == "Snare"
    assert after.unit("near").health == 1 and after.unit("far").health == far_health


def test_the_shipped_situation_shows_both_activators():
    s = load_situation(SITUATIONS / "snare_chapter.toml")
    literal = ask(s)[0].value["health"]
    flipped = ask(s, s.rules().replace({"traps.chapter_activator": "flipping_explorer"}))[0]
    assert literal == {"K": 5, "A": 1, "B": 1}
    assert flipped.value["health"] == {"K": 5, "A": 1, "B": 2}


# --- later effects after the attack destroys the target (manual p26) --------------------------

DRAIN = Ability("Drain", Cost(stamina=1), Targeting("melee", 0, "monster"),
                (Effect("attack", scope="target", high=1),
                 Effect("roll_modifier", scope="target", amount=-1),
                 Effect("restore_essence", scope="self", amount=2)))


def test_manual_p26_later_effects_resolve_though_the_attack_destroyed_the_target():
    """Effects resolve in printed order, hit or miss (manual p26); the destroyed target is out
    of play (manual p19), so an effect on it finds no unit, and the others still resolve."""
    state = scenario(open_map(2, 1, {0: "KG"}),
                     {"K": (explorer("kim", abilities=(DRAIN,)), {"essence": 0}),
                      "G": monster("ghoul", health=1, armor=0)},
                     active="kim", turns=("kim",))
    after, events = apply(state, PlayAbility("kim", 0, (1, 0)), RULES, ScriptedDice((3,)))
    assert not after.has_unit("ghoul")
    assert not after.lasting                       # nobody left to carry the modifier
    assert after.unit("kim").essence == 1 + 2       # the kill's essence, then the self effect
