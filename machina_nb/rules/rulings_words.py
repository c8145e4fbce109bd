"""The phrasebook of the rulings: every switch as a plain question, every reading as a short
plain label, and the rules in force said in those words.

The words are data (``plain_question``, ``topic`` and ``[labels]`` of each ruling in
``content/rulings``, checked by :func:`machina_nb.rules.rulings.load_rulings`); this module
only looks them up, so every reader (the app, the command line, an export) says a ruling the
same way. Switch names and reading ids are for code; a person reads these.

>>> question("los.vertex")
'Does a corner where walls meet block sight?'
>>> label("los.vertex", "touch_ok")
'a corner never blocks sight'
>>> topic("los.vertex"), topic_title("los.vertex")
('sight', 'Sight')
>>> changes_words(Rules(), Rules().replace({"los.vertex": "touch_ok"}))
['a corner never blocks sight']
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache

from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import SWITCHES, TOPICS, Rules, Ruling, check_rules, load_rulings

__all__ = ["question", "label", "topic", "topic_title", "labels", "in_force_label",
           "changes_words", "find_switches", "cite_words"]


@cache
def _rulings() -> Mapping[str, Ruling]:
    """The shipped rulings, read once."""
    return load_rulings()


def _ruling(switch: str) -> Ruling:
    if not isinstance(switch, str) or switch not in SWITCHES:
        raise RulesError("switch", f"unknown switch {switch!r}")
    return _rulings()[switch]


def question(switch: str) -> str:
    """The switch's question in plain words ("Does a corner where walls meet block sight?")."""
    return _ruling(switch).plain_question


def label(switch: str, reading: str) -> str:
    """A reading of ``switch`` as a short plain label ("a corner never blocks sight")."""
    labels = _ruling(switch).labels
    if not isinstance(reading, str) or reading not in labels:
        raise RulesError("reading", f"unknown reading {reading!r} of {switch}; expected one of: "
                         f"{', '.join(labels)}")
    return labels[reading]


def labels(switch: str) -> dict[str, str]:
    """Every reading of ``switch`` (declaration order, the default first) -> its label."""
    return {r: label(switch, r) for r in SWITCHES[_ruling(switch).name].readings}


def topic(switch: str) -> str:
    """What the switch is about: a key of :data:`~machina_nb.rules.rulings.TOPICS` ("sight")."""
    return _ruling(switch).topic


def topic_title(switch: str) -> str:
    """The heading of the switch's topic ("Sight")."""
    return TOPICS[topic(switch)]


def in_force_label(switch: str, rules: Rules) -> str:
    """The label of the reading of ``switch`` that ``rules`` take."""
    return label(switch, check_rules(rules)[switch])


def changes_words(base: Rules, rules: Rules) -> list[str]:
    """The label of each reading ``rules`` take that ``base`` does not, in declaration order."""
    return [label(name, mine) for name, _, mine in check_rules(base, "base").differences(rules)]


def find_switches(words: str) -> list[str]:
    """The switches whose question, a reading's label, its topic or its name contain every word
    of ``words`` (any case); every switch for empty ``words``. Declaration order."""
    wanted = str(words).casefold().split()
    found = []
    for name in SWITCHES:
        ruling = _ruling(name)
        text = " ".join([ruling.plain_question, *ruling.labels.values(), TOPICS[ruling.topic],
                         name, name.replace("_", " ").replace(".", " ")]).casefold()
        if all(w in text for w in wanted):
            found.append(name)
    return found


_PAIR = re.compile(r"\b([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)?) ?= ?([A-Za-z0-9_]+)")
_CITED = re.compile(r"\bswitch(?:es)? ([^;]+)")
_RULING_ID = re.compile(r"\brulings? ([A-Z]-?[0-9]+(?:, [A-Z]-?[0-9]+)*)\b")


@cache
def _by_id() -> Mapping[str, str]:
    """Each ruling ID the shipped rulings carry, and the first switch that carries it."""
    found: dict[str, str] = {}
    for name, ruling in _rulings().items():
        for rid in ruling.ids:
            found.setdefault(rid, name)
    return found
_CITED_NAME = re.compile(r"\b([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)?)"
                         r"(?: \((?:[a-z0-9_.]+ = )?([A-Za-z0-9_]+)\)|: ([A-Za-z0-9_]+))?")


def cite_words(text: str) -> str:
    """A citation with each switch it names said in words: a switch with its reading (also
    written ``switch=reading``) as that reading's label, a switch alone as its question.

    >>> cite_words("manual p37; switch cost.event_space")
    'manual p37; ruling: How much stamina does an event space cost?'
    >>> cite_words("manual p18-19; switch essence.kill_credit (turn_owner)")
    'manual p18-19; ruling: kill essence to the explorer whose turn it is'
    >>> cite_words("switch threat.floor (threat.floor = seal_only)")
    'ruling: only sealing stops at the first position'
    >>> cite_words("manual p22; switches los.vertex: separating, los.space_squeeze: blocked")
    'manual p22; rulings: a corner blocks only when its walls cut the line off, two touching rubble spaces block sight'
    >>> cite_words("(Mansions summary; mansions.dot_inset=corner)")
    '(Mansions summary; sight dots on the corners)'
    >>> cite_words("manual p22 (occupied destination); ruling D18")
    'manual p22 (occupied destination); ruling: Must the space used instead of a taken spawn space be passable?'
    >>> cite_words("manual p15; ruling: Does a monster switch to an explorer who is just as close?")
    'manual p15; ruling: Does a monster switch to an explorer who is just as close?'
    >>> cite_words("manual p13; rulings D18, D42")
    'manual p13; rulings: Must the space used instead of a taken spawn space be passable? and Does an explorer on a tile without spawn spaces roll?'
    """
    def pair(m: re.Match[str]) -> str:
        name, reading = m[1], m[2]
        return label(name, reading) if name in SWITCHES and \
            reading in SWITCHES[name].readings else m[0]

    def named(m: re.Match[str]) -> str:
        name, reading = m[1], m[2] or m[3]
        if name not in SWITCHES:
            return m[0]
        if reading in SWITCHES[name].readings:
            return label(name, reading)
        return question(name) + (f" ({reading})" if reading else "")

    def cited(m: re.Match[str]) -> str:
        first = _CITED_NAME.match(m[1])
        if first is None or first[1] not in SWITCHES:
            return m[0]     # the word "switch" in a sentence, not a switch cited
        return ("rulings: " if m[0].startswith("switches") else "ruling: ") + \
            _CITED_NAME.sub(named, m[1])
    def by_id(m: re.Match[str]) -> str:
        found = [_by_id().get(rid) for rid in m[1].split(", ")]
        if not all(found):
            return m[0]
        said = list(dict.fromkeys(question(str(name)) for name in found))
        return ("rulings: " if len(said) > 1 else "ruling: ") + " and ".join(said)
    return _RULING_ID.sub(by_id, _PAIR.sub(pair, _CITED.sub(cited, str(text))))
