"""Card data you can trust: every effect a shipped card's text names is in its data, or the card
is listed as kept in words (docs/RULES_INDEX.md) with its reason; Hank's blow incapacitates
(manual p17, Example E) and the destroyed Mi-Go's attacker invokes an explorer event (p24)."""

from __future__ import annotations

import re
import tomllib
from dataclasses import replace

from engine_cases import CARDS, WHISPER, explorer, monster, open_map
from test_monsters import monster_phase, run_turn

from machina_nb.rules.cards.abilities import Ability, Effect
from machina_nb.rules.content import content_root
from machina_nb.rules.engine.actions import PlayAbility, apply
from machina_nb.rules.engine.chance import ScriptedDice
from machina_nb.rules.engine.effects.combat import destroy_unit
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.state import Deck
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.rulings import Rules

RULES = Rules()
ROOT = content_root().parent

# --- the text against the data ----------------------------------------------------------------

NAMED = (
    (r"\battack(?!s? rolls)\b", ("attack",)),
    (r"incapacitat", ("incapacitate",)),
    (r"\brestores? \d+ health", ("restore_health",)),
    (r"\brestores? \d+ stamina", ("restore_stamina",)),
    (r"\brestores? \d+ essence", ("restore_essence",)),
    (r"\blose[s]? \d+ health", ("lose_health", "cost:health")),
    (r"\bpush", ("push",)),
    (r"\bteleport", ("teleport",)),
    (r"\bmoves? (up to )?\d+ spaces?", ("move",)),
    (r"\bthrough obstacles", ("move_through", "through_obstacles")),
    (r"\bspawns?\b", ("spawn",)),
    (r"\btake the (?!marker)", ("take",)),
    (r"\bclose a door", ("close_door",)),
    (r"\brefresh", ("refresh_space",)),
    (r"\bbanish", ("banish",)),
    (r"\bdestroy (the target|an adjacent)", ("destroy_target", "cost:destroy")),
    (r"\bwhen destroyed", ("trigger:destroyed",)),
    (r"\binvokes? an explorer event", ("invoke_explorer_event",)),
    (r"\brolls are \d+ (lower|higher)", ("roll_modifier",)),
    (r"\bwhile (equipped|held)[^.]*\b(armor|will) \+", ("bonuses",)),
    (r"\b(will is|gains) \d+", ("attribute_modifier",)),
    (r"\btarget ethereal", ("target_ethereal",)),
    (r"\breinvoke", ("reinvoke_horror_event", "reinvoke_explorer_event")),
    (r"\bmaximum stamina is \d+ lower", ("stamina_modifier",)),
    (r"\bshuffle the horror event deck", ("shuffle_event_deck",)),
    (r"\bcount token", ("count",)),
    (r"\bexit token", ("place_exit_token",)),
    (r"\bentry token", ("place_entry_token",)),
    (r"\bnext chapter", ("next_chapter",)),
    (r"\bnot modelled", ("never",)),
)
"""What a card's text names (a pattern of our card wording) and the data that plays it: an
effect op, or ``cost:`` a cost, ``trigger:`` a trigger, ``bonuses`` an item's bonuses,
``through_obstacles`` an augment's flag. "not modelled" is a card saying it is kept in words."""

KINDS = {"units": "unit", "items": "item", "events": "event", "chapters": "chapter"}


def _shipped_cards():
    """(name, texts, what its data plays) for every shipped card, read from content/."""
    for folder, kind in KINDS.items():
        for path in sorted((content_root() / folder).glob("*.toml")):
            for card in tomllib.loads(path.read_text(encoding="utf-8"))[kind].values():
                texts = [card.get("text", "")]
                plays = _plays(card)
                if isinstance(card.get("enters_play"), dict):
                    texts.append(card["enters_play"].get("text", ""))
                for ability in card.get("abilities", {}).values():
                    texts.append(ability.get("text", ""))
                    plays |= _plays(ability)
                yield card["name"], " ".join(texts), plays


def _plays(table) -> set[str]:
    found = set()
    effects = list(table.get("effects", ())) + list(table.get("on_kill", ()))
    entering = table.get("enters_play", ())
    effects += list(entering.get("effects", ()) if isinstance(entering, dict) else entering)
    while effects:
        effect = effects.pop()
        found.add(effect["op"])
        effects += list(effect.get("then", ())) + list(effect.get("otherwise", ()))
    if "attack" in table:
        found.add("attack")
    if table.get("target") in ("chest", "event", "lever") and not table.get("effects"):
        found.add("destroy_target")           # a space target alone is destroyed (manual p35)
    found |= {f"cost:{key}" for key in table.get("cost", {})}
    if table.get("trigger"):
        found.add(f"trigger:{table['trigger']}")
    found |= {key for key in ("bonuses", "through_obstacles") if table.get(key)}
    return found


def _unplayed(text: str, plays: set[str]) -> list[str]:
    return [pattern for pattern, wanted in NAMED
            if re.search(pattern, text, re.IGNORECASE) and not plays & set(wanted)]


def _kept_in_words() -> dict[str, str]:
    """The cards docs/RULES_INDEX.md lists as kept in words, with their reasons."""
    text = (ROOT / "docs" / "RULES_INDEX.md").read_text(encoding="utf-8")
    section = text.split("## Card texts kept in words", 1)[1].split("\n## ", 1)[0]
    return dict(re.findall(r"^- \*\*(.+?)\*\* \(manual p\d+[^)]*\): (.+)$", section, re.M))


def test_every_effect_a_card_text_names_is_in_its_data_or_the_card_is_listed():
    """Each shipped card whose text names an effect its data does not play is listed as kept
    in words, with a reason; each card listed really has such a text (the list stays true)."""
    unplayed = {name: _unplayed(text, plays) for name, text, plays in _shipped_cards()}
    unplayed = {name: found for name, found in unplayed.items() if found}
    listed = _kept_in_words()
    assert sorted(unplayed) == sorted(listed), unplayed
    assert all(len(reason) > 20 for reason in listed.values())


def test_the_text_check_catches_a_named_effect_the_data_lacks():
    assert _unplayed("Attack the target; the target is incapacitated.", {"attack"}) == \
        [r"incapacitat"]
    assert _unplayed("When destroyed, its attacker invokes an explorer event.", set()) == \
        [r"\bwhen destroyed", r"\binvokes? an explorer event"]


# --- Hank's blow (manual p17, Example E) ---------------------------------------------------------

def example_e():
    state = scenario(open_map(3, 1, {0: "KH."}), {"H": CARDS["hank"], "K": CARDS["kthun"]})
    return replace(state, phase="explorer", active="hank", turns=("hank",))


def test_manual_p17_example_e_hanks_blow_incapacitates_kthun_even_when_it_misses():
    after, events = apply(example_e(), PlayAbility("hank", 0, (0, 0)), RULES,
                          ScriptedDice([0, 0]))
    assert any(e.kind == "miss" for e in events)
    assert [(e.op, e.target) for e in after.lasting] == [("incapacitate", "kthun")]
    state, events, taken = run_turn(monster_phase(after, "kthun"), dice=(3, 2))
    assert taken == [] and state.unit("hank").health == CARDS["hank"].health
    assert any("incapacitated" in e.text for e in events)


def test_manual_p17_without_the_blow_kthun_smites():
    state, _, taken = run_turn(monster_phase(example_e(), "kthun"), dice=(3, 2))
    assert len(taken) == 1 and state.unit("hank").health < CARDS["hank"].health


# --- the Mi-Go's harvest (manual p24) -----------------------------------------------------------

def mi_go(deck=(WHISPER,)):
    state = scenario(open_map(2, 1, {0: "HM"}), {"H": CARDS["hank"],
                                                 "M": (CARDS["mi_go"], {"health": 1})},
                     explorer_events=Deck(deck, ()))
    return replace(state, phase="explorer", active="hank", turns=("hank",))


def test_manual_p24_the_destroyed_mi_gos_attacker_invokes_an_explorer_event():
    after, events = apply(mi_go(), PlayAbility("hank", 0, (1, 0)), RULES, ScriptedDice([2, 1]))
    assert not after.has_unit("mi_go")
    assert after.explorer_events.destroyed == (WHISPER,)        # now the current event
    assert after.unit("hank").essence == 2                      # the whisper, and the kill
    kinds = [e.phrase for e in events]
    assert kinds.index("when_destroyed") < len(kinds) - 1
    assert any("harvested triggers" in e.text for e in events)


def test_manual_p19_a_banished_mi_go_is_not_destroyed_and_invokes_nothing():
    r = new_resolution(mi_go(), RULES, ScriptedDice([]))
    destroy_unit(r, "mi_go", "hank", "banished", banish=True)
    assert r.state.explorer_events.cards == (WHISPER,)
    assert not any(e.phrase == "when_destroyed" for e in r.events)


def test_manual_p26_an_explorers_when_destroyed_ability_resolves_for_its_destroyer():
    """A «when destroyed» ability on an explorer's card: the monster that destroyed her is its
    activating unit (manual p26 triggered conditions, p19 death)."""
    last_word = Ability("Last word", kind="triggered", trigger="destroyed",
                        effects=(Effect("lose_health", scope="self", amount=1),))
    hers = explorer("vera", health=1, abilities=(last_word,))
    state = scenario(open_map(3, 1, {0: "VMK"}), {"V": hers, "K": CARDS["kim"],
                                                  "M": (monster("ghoul", health=3), {})})
    r = new_resolution(state, RULES, ScriptedDice([]))
    destroy_unit(r, "vera", "ghoul", "claw")
    assert r.state.unit("ghoul").health == 2 and "vera" in r.state.dead
