"""Ruling sensitivity: which switches' other readings change a situation's answers.

Asking every question under every reading of every switch is slow, so each
question is first asked once under *traced* rules that note every switch the
rules core reads while answering it. A switch the answer never read cannot
change it; only the switches read are flipped, and only the questions that read
them are asked again. ``tests/test_analysis.py`` checks this against asking
under every reading of every switch.

>>> from machina_nb.rules.content import content_root
>>> from machina_nb.rules.analysis.situation import load_situation
>>> s = load_situation(content_root() / "situations" / "sight_corner.toml")
>>> [f.switch for f in sensitivity(s)]
['los.vertex']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from machina_nb.rules.analysis.ask import Answer, answer
from machina_nb.rules.analysis.situation import Situation
from machina_nb.rules.rulings import SWITCHES, Rules

__all__ = ["Sensitive", "sensitivity", "switches_read", "brute_sensitivity"]


@dataclass(frozen=True)
class Sensitive:
    """A switch whose readings give different answers: each reading's answers by question.

    ``answers`` lists ``(reading, ((question, value), ...))`` for every reading of
    the switch, the one in force first; ``changed`` names the questions whose
    answer differs under some reading.
    """

    switch: str
    in_force: str
    answers: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]
    changed: tuple[str, ...]


class _Traced(Rules):
    """Rules that note which switches are read; equal to no other rules, so no cache hides a read."""

    __slots__ = ("_seen",)
    _seen: set[str]

    def __init__(self, base: Rules) -> None:
        super().__init__({name: base[name] for name in SWITCHES}, base.name)
        object.__setattr__(self, "_seen", set())

    def __getitem__(self, key: str) -> str:
        self._seen.add(key)
        return super().__getitem__(key)

    def reads(self, switch: str, reading: str) -> bool:
        self._seen.add(switch)
        return super().reads(switch, reading)

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return id(self)


def switches_read(situation: Situation, rules: Rules) -> tuple[tuple[Answer, frozenset[str]], ...]:
    """Each question's answer at ``rules`` and the switches read to give it."""
    out = []
    state = situation.state_at(rules)
    for q in situation.questions:
        traced = _Traced(rules)
        got = answer(situation, q, traced, state)
        out.append((got, frozenset(traced._seen)))
    return tuple(out)


def sensitivity(situation: Situation, rules: Rules | None = None,
                progress: Callable[[int, int], None] | None = None) -> tuple[Sensitive, ...]:
    """The switches whose other readings change any answer, in declaration order; empty if none.

    ``progress``, when given, is called with ``(switches tried, switches to try)`` after the
    first pass and after each switch read (a view's progress bar).
    """
    rules = situation.rules() if rules is None else rules
    base = switches_read(situation, rules)
    read = [name for name, switch in SWITCHES.items() if len(switch.readings) > 1
            and any(name in seen for _, seen in base)]
    found = []
    for done, name in enumerate(read):
        if progress is not None:
            progress(done, len(read))
        switch = SWITCHES[name]
        asked = [(got, q) for (got, seen), q in zip(base, situation.questions) if name in seen]
        per_reading, changed = [], set()
        for reading in (rules[name],) + tuple(r for r in switch.readings if r != rules[name]):
            other = rules.replace({name: reading})
            state = situation.state_at(other)
            values = []
            for got, q in asked:
                value = got.value if reading == rules[name] else \
                    answer(situation, q, other, state).value
                if value != got.value:
                    changed.add(q.name)
                values.append((q.name, value))
            per_reading.append((reading, tuple(values)))
        if changed:
            found.append(Sensitive(name, rules[name], tuple(per_reading),
                                   tuple(q.name for q in situation.questions if q.name in changed)))
    if progress is not None:
        progress(len(read), len(read))
    return tuple(found)


def brute_sensitivity(situation: Situation, rules: Rules | None = None) -> tuple[str, ...]:
    """The sensitive switches found the slow way: every question under every reading (an oracle)."""
    rules = situation.rules() if rules is None else rules
    base = [a.value for a in _ask_all(situation, rules)]
    out = []
    for name, switch in SWITCHES.items():
        for reading in switch.readings:
            if reading != rules[name] and \
                    [a.value for a in _ask_all(situation, rules.replace({name: reading}))] != base:
                out.append(name)
                break
    return tuple(out)


def _ask_all(situation: Situation, rules: Rules) -> list[Answer]:
    state = situation.state_at(rules)
    return [answer(situation, q, rules, state) for q in situation.questions]
