"""Every switch in plain words: a question, a topic and a short label for each reading, written
in content/rulings and said by one phrasebook (machina_nb.rules.rulings_words)."""

import doctest
import re

import pytest

from machina_nb.rules import rulings_words as words
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import SWITCHES, TOPICS, Rules, load_rulings

RULINGS = load_rulings()
NOT_PLAIN = re.compile(r"[_=]|\b[a-z0-9]+\.[a-z]")


@pytest.mark.parametrize("name", list(SWITCHES))
def test_every_switch_has_a_plain_question_a_topic_and_a_label_per_reading(name):
    ruling = RULINGS[name]
    assert ruling.plain_question.endswith("?") and not NOT_PLAIN.search(ruling.plain_question)
    assert ruling.topic in TOPICS
    assert set(ruling.labels) == set(SWITCHES[name].readings)
    labels = [label.casefold() for label in ruling.labels.values()]
    assert len(set(labels)) == len(labels), f"{name}: two readings share a label"
    for reading, label in ruling.labels.items():
        assert label.strip() and not NOT_PLAIN.search(label), (name, reading, label)


def test_every_topic_is_used_and_no_topic_holds_most_switches():
    used = {RULINGS[name].topic for name in SWITCHES}
    assert used == set(TOPICS)
    assert max(sum(RULINGS[n].topic == t for n in SWITCHES) for t in TOPICS) < len(SWITCHES) / 3


def test_the_phrasebook_says_questions_labels_and_topics():
    assert words.question("los.vertex") == "Does a corner where walls meet block sight?"
    assert words.label("los.vertex", "touch_ok") == "a corner never blocks sight"
    assert words.topic("los.vertex") == "sight" and words.topic_title("los.vertex") == "Sight"
    assert list(words.labels("move.squeeze")) == list(SWITCHES["move.squeeze"].readings)
    assert words.in_force_label("spawn.procedure", Rules.preset("v3_5")) == \
        "the 3.5 update's spawn phase"


def test_the_phrasebook_says_what_changed_from_a_preset():
    rules = Rules.preset("v3_5").replace({"los.vertex": "touch_ok"})
    assert words.changes_words(Rules.preset("v3_5"), rules) == ["a corner never blocks sight"]
    assert words.changes_words(rules, rules) == []


@pytest.mark.parametrize("call", [lambda: words.question("los.vertexx"),
                                  lambda: words.label("los.vertex", "sometimes"),
                                  lambda: words.label(None, "touch_ok"),
                                  lambda: words.topic(3)])
def test_the_phrasebook_refuses_unknown_switches_and_readings(call):
    with pytest.raises(RulesError):
        call()


def test_find_switches_by_a_word_of_the_question_a_label_a_topic_or_the_name():
    assert "los.vertex" in words.find_switches("corner")
    assert "los.vertex" in words.find_switches("never blocks")        # a label
    assert "los.vertex" in words.find_switches("los.vertex")          # the id
    assert "traps.secondary" in words.find_switches("LEVER")           # any case
    assert set(words.find_switches("sight")) >= {"los.vertex", "los.space_squeeze"}
    assert words.find_switches("") == list(SWITCHES)
    assert words.find_switches("zebra") == []


def test_the_phrasebook_examples_run():
    assert doctest.testmod(words).failed == 0


def test_citations_name_rulings_in_words_not_switch_names():
    said = words.cite_words("manual p15; switch retarget.on_tie")
    assert said == "manual p15; ruling: Does a monster switch to an explorer who is just as close?"
    said = words.cite_words("aid; switches monster.ability_sources and horror_bind.monster")
    assert "monster.ability_sources" not in said and said.startswith("aid; rulings: ")
    assert words.cite_words("manual p22 (line of sight)") == "manual p22 (line of sight)"
    assert words.cite_words("a.b = c and los.vertex=touch_ok") == \
        "a.b = c and a corner never blocks sight"           # only declared switches change


@pytest.mark.parametrize("name", sorted(SWITCHES))
def test_a_citation_said_in_words_is_said_the_same_when_said_again(name):
    """Words already said stay as they are: a question or label that contains the word
    "switch" (or "rulings D…") is not read as a citation a second time."""
    switch = SWITCHES[name]
    for cited in (f"manual p1; switch {name}", f"manual p1; switch {name} ({switch.default})",
                  f"manual p1; switches {name}: {switch.default}"):
        once = words.cite_words(cited)
        assert words.cite_words(once) == once, cited
