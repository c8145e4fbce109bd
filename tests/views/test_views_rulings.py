"""The Rulings tab without a browser: the rulings as questions by topic, found by a word; every
shipped situation of a ruling answered under the reading in force and the one compared, boards
and answers together, readings by their plain labels; "compare" changes only what is shown,
"use this reading everywhere" changes the rules in force and says so; a ruling with no
situation says why.

The answers come from the rules core (``machina_nb.rules.analysis.ask``); these tests check
what the panel shows of them, with the situations' expected answers where a rule is at stake.
"""

import html
import re
import shutil

import pytest

from machina_nb.rules.analysis.situation import load_situations
from machina_nb.rules.content import content_root
from machina_nb.rules.rulings import SWITCHES, Rules
from machina_nb.rules.rulings_words import label, question
from machina_nb.views.rulings import RulingsPanel
from machina_nb.views.rulings_peers import PEER_BOARDS
from machina_nb.views.words import PRESET_WORDS, rules_words

SITUATIONS = load_situations()
SHOWN = sorted({name for s in SITUATIONS.values() for name in s.shows})
# What a newcomer must never read: a dataclass repr, a dict literal, None, Python's power sign.
FORBIDDEN = re.compile(r"\b[A-Z]\w*\(\w+=|\{\s*['\"]|\bNone\b|\*\*|\b[a-z0-9_]+\.[a-z0-9_]+ = "
                       r"|\bswitch(?:es)? [a-z0-9_]+\.[a-z]")
# Colours that need no legend entry: the grid between spaces, the ring of a unit (the legend
# shows each unit in it) and the axis labels.
NEUTRAL = {"#c8c0ad", "#212121", "#444444"}


def visible(html_text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", html_text))


def sides(panel, side: str) -> list[str]:
    """The text of each situation's side ``a`` or ``b``."""
    return [visible(cell) for cell in re.findall(
        rf"<td class='rulings-side-{side}'.*?</td>", panel.shown.value, flags=re.S)]


@pytest.fixture(scope="module")
def panel():
    return RulingsPanel()


def test_manual_p22_sight_corner_is_blocked_in_force_and_visible_under_touch_ok(panel):
    panel.switch.value = "los.vertex"
    assert panel.rules["los.vertex"] == "separating"
    assert panel.compare.value == "touch_ok"  # the reading whose answer differs
    (door, corner), (door_b, corner_b) = sides(panel, "a"), sides(panel, "b")
    assert "a corner blocks only when its walls cut the line off (in force)" in corner
    assert "blocked" in corner
    assert "a corner never blocks sight (compared)" in corner_b and "visible" in corner_b
    assert "≠ Can Kim (K) see Lorrai (L)?" in corner and panel.shown.value.count("<svg") == 4
    # the door example of manual p22 with both doors closed: the doors meet at one corner
    assert "Are Lorrai (L) and Phillip (P) adjacent?" in door and "not adjacent" in door
    assert "not adjacent" not in door_b and "adjacent" in door_b


def test_manual_p22_nearest_metric_is_compared_with_a_reading_that_answers_differently(panel):
    """The defect: nearest.metric was compared with a reading giving the same answer."""
    panel.switch.value = "nearest.metric"
    assert panel.rules["nearest.metric"] == "chebyshev"
    assert panel.compare.value == "manhattan"  # differs in all three situations
    cases = re.findall(r"<div class='rulings-case'.*?(?=<div class='rulings-case'|$)",
                       panel.shown.value, flags=re.S)
    assert len(cases) == len([s for s in SITUATIONS.values() if "nearest.metric" in s.shows])
    assert all("data-differs='yes'" in case for case in cases)
    assert "sqrt" not in panel.shown.value


@pytest.mark.parametrize("switch", SHOWN)
def test_every_switch_with_a_situation_shows_it_under_both_readings_in_plain_words(panel, switch):
    panel.switch.value = switch
    shown = [s for s in SITUATIONS.values() if switch in s.shows]
    assert panel.shown.value.count("class='rulings-case'") == len(shown)
    assert len(sides(panel, "a")) == len(sides(panel, "b")) == len(shown)
    drawn = [s for s in shown if any(q.ask != "rounds" for q in s.questions)]
    assert panel.shown.value.count("<svg") == 2 * len(drawn)
    assert panel.compare.value != panel.rules[switch]
    text = visible(panel.shown.value + panel.about.value)
    assert not FORBIDDEN.search(text), FORBIDDEN.search(text)
    assert "data-differs='yes'" in panel.shown.value  # its situations are chosen to differ
    for case in re.findall(r"<div class='rulings-case'.*?(?=<div class='rulings-case'|$)",
                           panel.shown.value, flags=re.S):
        drawn_colours = set(re.findall(r"(?:fill|stroke)='(#[0-9A-Fa-f]{6})'", case))
        explained = set(re.findall(r"data-colour='(#[0-9A-Fa-f]{6})'", case))
        assert drawn_colours - NEUTRAL <= explained, drawn_colours - NEUTRAL - explained


def test_compare_changes_what_is_shown_and_nothing_else():
    panel = RulingsPanel(switch="los.vertex")
    panel.compare.value = "any_two"
    assert panel.rules == Rules() and "any corner where two walls meet blocks sight (compared)" \
        in sides(panel, "b")[1]
    assert panel.notice.value == ""


def test_use_this_reading_everywhere_puts_it_in_force_and_says_what_changed():
    panel = RulingsPanel(switch="los.vertex")
    seen = []
    panel.observe(lambda change: seen.append(change["new"]), "rules")
    panel.compare.value = "touch_ok"
    panel.use.click()
    assert panel.rules == Rules().replace({"los.vertex": "touch_ok"}) and seen == [panel.rules]
    assert "Now in force everywhere:" in panel.notice.value
    assert "a corner never blocks sight" in panel.notice.value
    assert panel.compare.value == "separating"       # the same button puts it back
    assert [r for _, r in panel.compare.options] == ["separating", "any_two"]
    door, corner = sides(panel, "a")
    assert "a corner never blocks sight (in force)" in corner and "visible" in corner
    panel.use.click()
    assert panel.rules == Rules()


def test_rules_assigned_from_outside_are_shown_as_in_force():
    panel = RulingsPanel(switch="spawn.procedure")
    panel.rules = Rules.preset("v3_5")
    assert panel.compare.value == "v1_0"
    assert "the 3.5 update's spawn phase (in force)" in sides(panel, "a")[0]


def test_the_boards_and_the_answers_change_in_one_assignment():
    """The defect: the verdicts changed 1-2 s before the boards. Both are one HTML value now."""
    panel = RulingsPanel(switch="los.vertex")
    assigned = []
    panel.shown.observe(lambda change: assigned.append(change["new"]), "value")
    panel.compare.value = "any_two"
    panel.use.click()
    assert len(assigned) == 2
    assert "<svg" in assigned[-1] and "any corner where two walls meet blocks sight (in force)" \
        in assigned[-1]


def test_a_switch_without_a_situation_says_so_in_a_sentence():
    panel = RulingsPanel(switch="los.vertex", situations={})
    assert "<svg" not in panel.shown.value
    assert "No shipped situation shows this ruling yet" in panel.shown.value
    assert "(no board)" in dict((v, k) for k, v in panel.switch.options)["los.vertex"]


def test_the_questions_are_grouped_by_topic_and_found_by_a_word_a_label_or_a_name():
    panel = RulingsPanel(switch="los.vertex")
    shown = [text for text, _ in panel.switch.options]
    assert len(shown) == len(SWITCHES) and shown[0].startswith("Sight: ")
    topics = [text.split(":")[0] for text in shown]
    assert topics == sorted(topics, key=topics.index)     # each topic in one run
    panel.search.value = "rubble"
    assert set(v for _, v in panel.switch.options) >= {"los.space_squeeze"}
    assert "found" in panel.found_count.value
    panel.search.value = "never blocks sight"               # a reading's label
    assert [v for _, v in panel.switch.options] == ["los.vertex"]
    panel.search.value = "retarget.on_tie"                  # the id, for those who know it
    assert panel.switch.value == "retarget.on_tie"
    assert question("retarget.on_tie") in panel.about.value
    panel.search.value = "zebra"
    assert panel.switch.value is None and "No question" in panel.found_count.value
    panel.search.value = ""
    panel.topic.value = "traps"
    assert all(text.startswith("Traps and barrels: ") for text, _ in panel.switch.options)


@pytest.mark.parametrize("switch", PEER_BOARDS)
def test_the_mansions_rulings_show_the_other_games_map_under_both_readings(switch):
    panel = RulingsPanel(switch=switch)
    assert panel.shown.value.count("<svg") == 2
    assert "data-differs='yes'" in panel.shown.value
    a, b = sides(panel, "a")[0], sides(panel, "b")[0]
    assert label(switch, panel.rules[switch]) in a and label(switch, panel.compare.value) in b


def test_a_new_situation_file_is_shown_with_no_change_to_the_code(tmp_path):
    source = content_root() / "situations" / "sight_corner.toml"
    text = source.read_text(encoding="utf-8").replace('id = "sight_corner"', 'id = "my_corner"')
    text = text.replace('shows = ["los.vertex"]', 'shows = ["los.vertex", "traps.secondary"]')
    (tmp_path / "my_corner.toml").write_text(text, encoding="utf-8")
    shutil.copy(source, tmp_path / "sight_corner.toml")
    panel = RulingsPanel(switch="traps.secondary", situations=load_situations(tmp_path))
    assert "data-situation='my_corner'" in panel.shown.value
    assert "Here both readings give the same answers" in panel.shown.value
    panel.switch.value = "los.vertex"
    assert panel.shown.value.count("class='rulings-case'") == 2


def test_the_panel_shows_question_readings_and_sources_from_content(panel):
    panel.switch.value = "los.vertex"
    assert "manual p22 (line of sight)" in panel.about.value and "spec" not in panel.about.value
    for reading in SWITCHES["los.vertex"].readings:
        assert f"<b>{label('los.vertex', reading)}</b>" in panel.about.value
    panel.switch.value = "arkham.reveal_another"    # a peer game's summary, by its title
    assert "Arkham summary (Skills and skill tests)" in panel.about.value
    assert ".txt" not in panel.about.value


def test_rules_in_words_name_the_preset_and_every_flipped_switch():
    assert rules_words("manual", Rules()) == "manual 1.0"
    assert rules_words("manual", Rules().replace({"los.vertex": "any_two"})) == \
        "manual 1.0; changed: any corner where two walls meet blocks sight"
    assert rules_words("v3_5", Rules.preset("v3_5")) == PRESET_WORDS["v3_5"]
