"""An answer's value in words: units by name, spaces by label, chances beside percentages."""

import re

from machina_nb.rules.analysis.answer_words import answer_words, value_words
from machina_nb.rules.analysis.ask import ask
from machina_nb.rules.analysis.situation import (
    load_situation,
    load_situations,
    situation_from_text,
)
from machina_nb.rules.content import content_root

FOLDER = content_root() / "situations"

_RAW = re.compile(r"\(-?\d+, -?\d+\)|\bNone\b|[{}\[\]]|\b[a-z]+_[a-z_]+\b|\w+=\w+")
"""What a reader should never meet: an (x, y) pair, None, a repr's brackets, a snake id,
a name=value pair."""


def _answers(name):
    s = load_situation(FOLDER / f"{name}.toml")
    return s, {a.name: a for a in ask(s)}


def test_every_shipped_answer_in_words_has_no_raw_values_and_no_letter_alone():
    for s in load_situations().values():
        alone = re.compile(r"(?<![\w(-])(" + "|".join(u.letter for u in s.units) + r")(?![\w)-])")
        for a in ask(s):
            words = answer_words(s, a)
            assert not _RAW.findall(words), (s.id, a.name, words)
            assert not alone.findall(words), (s.id, a.name, words)


def test_a_monster_turn_names_the_units_and_its_hit_chance_as_a_percentage():
    s, answers = _answers("fallen_mid_turn")
    words = answer_words(s, answers["mi_go_turn"])
    assert words.startswith("steps: plays probe on Kim (K) (hit chance 1, 100.0%); ")
    assert "Kim (K) is hit" in words and "the players move Mi-Go (M) from here" in words
    assert words.endswith("; end: A1; stamina left: 3")


def test_a_played_turn_names_each_unit_before_its_space():
    s, answers = _answers("fallen_mid_turn")
    assert value_words(s, answers["turn_played"].value["positions"]) == \
        "Mi-Go (M): C1; Kim (K): destroyed; Phillip (P): E1"


def test_attack_odds_and_a_tie_read_as_sentences():
    s, answers = _answers("sarall_door")
    assert answer_words(s, answers["sarall_odds"]) == \
        "rend on Phillip (P): 5/6 (83.3%); rend on Lorrai (L): 5/6 (83.3%)"
    assert answer_words(s, answers["closest_explorer"]) == \
        "Lorrai (L) and Phillip (P), at distance 4 spaces (a tie: the players choose)"


def test_a_unit_drawn_as_a_column_letter_leaves_space_labels_alone():
    s = situation_from_text('kind = "situation"\nid = "a"\ntitle = "A"\n'
                            "map = '''\n+-+-+\n|A .|\n+-+-+\n'''\n\n[unit.A]\ncard = \"kim\"\n")
    assert value_words(s, ["moves to (0, 0)", "on A", {"A": "(1, 0)"}]) == \
        "moves to A1, on Kim (A), Kim (A): B1"


def test_a_straight_line_distance_reads_as_a_decimal_beside_its_exact_root():
    s, _ = _answers("nearest_metric")
    rules = s.rules().replace({"nearest.metric": "euclidean"})
    a = next(a for a in ask(s, rules) if a.kind == "nearest")
    assert answer_words(s, a) == "Hank (H), at distance 2.83 spaces (exactly 2√2)"
