"""Events and chapters as content (content/events, content/chapters): they load, cite their
source, and act in the engine as the manual describes (manual p14, p22, p26, p28-29, p37)."""

from engine_cases import explorer, monster, open_map
from test_engine_actions import SHOVE, turn

from machina_nb.rules.cards.events import load_all_chapters, load_all_events
from machina_nb.rules.engine.actions import PlayAbility, apply
from machina_nb.rules.engine.chance import ScriptedDice
from machina_nb.rules.engine.resolution import resolve
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.rulings import Rules
from machina_nb.views.app import demo_layout
from machina_nb.views.stepper import demo_game

RULES = Rules()
EVENTS, CHAPTERS = load_all_events(), load_all_chapters()


def test_every_event_and_chapter_loads_and_cites_its_source():
    assert {e.kind for e in EVENTS.values()} == {"horror", "explorer"}
    assert any(e.binding for e in EVENTS.values()) and any(c.blocking for c in CHAPTERS.values())
    assert CHAPTERS["the_calm"].horror_rating is None          # no horror phase (manual p14)


def test_manual_p22_shivers_attacks_every_explorer_on_every_tile_twice():
    """No owner, no activating unit: every explorer on every tile is attacked, twice; each
    attack is one roll applied to all of them."""
    state = scenario(open_map(4, 1, {0: "A..B"}), {"A": explorer("a"), "B": explorer("b")})
    r = new_resolution(state, RULES, ScriptedDice([3, 2, 2, 2, 2]))
    resolve(r, EVENTS["shivers"].enters_play, None, None, "Shivers")
    rolls = [e.text for e in r.events if e.kind == "roll"]
    assert rolls == ["Shivers: 1 high + 2 low dice [3, 2, 2] -> total 7 (physical, against armor)",
                     "Shivers: 0 high + 2 low dice [2, 2] -> total 4 (physical, against armor)"]
    assert (r.state.unit("a").health, r.state.unit("b").health) == (3, 3)   # hit twice each


def test_manual_p26_the_blood_oath_counts_kills_and_resolves_at_the_third():
    oath = EVENTS["blood_oath"]
    state = scenario(open_map(4, 2, {0: "PG.o", 1: "h..."}),
                     {"P": explorer("phillip", abilities=(SHOVE,)), "G": monster("ghoul")},
                     threat=4, bound=(("phillip", oath),), counts=(("blood_oath", 2),))
    after, _ = apply(turn(state, "phillip"), PlayAbility("phillip", 0, (1, 0)), RULES)
    assert not after.has_unit("ghoul")                        # pushed into the pit: a kill
    assert after.lit == ((0, 1),) and after.threat == 2 and after.bound == ()
    assert after.explorer_events.destroyed[0] == oath


def test_manual_p8_the_demo_game_deals_the_content_decks():
    state = demo_game(demo_layout())
    assert state.chapter == CHAPTERS["the_descent"]
    assert {c.id for c in state.horror_events.cards} == {k for k, e in EVENTS.items()
                                                          if e.kind == "horror"}
    assert {c.id for c in state.explorer_events.cards} == {k for k, e in EVENTS.items()
                                                            if e.kind == "explorer"}
    assert state.items.deck("apparel")
