"""Every question answers every legal position: generated situations (boards, units, items,
phases, fallen explorers, decks and events) with one question of every kind each. A question
answers with plain values, or refuses in one line saying why it does not apply; nothing else
escapes (no crash, and so no exit 3 from the command line). ``make fuzz`` runs it longer
(``MACHINA_FUZZ`` examples)."""

from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from situation_strategies import questions, situations

from machina_nb.rules.analysis.ask import answer, questions_about
from machina_nb.rules.analysis.questions import QUESTION_KINDS
from machina_nb.rules.analysis.situation import situation_from_text
from machina_nb.rules.errors import ContentError, RulesError

EXAMPLES = int(os.environ.get("MACHINA_FUZZ", "4" if os.environ.get("MACHINA_QUICK") else "30"))
"""Generated situations per run: a few in the suite, thousands under ``make fuzz``."""


@st.composite
def cases(draw):
    text, explorers, monsters, size = draw(situations())
    return text + draw(questions(explorers, monsters, size))


def _load(text):
    try:
        return situation_from_text(text, "fuzz.toml")
    except ContentError as exc:     # only the items may not fit together (manual p31)
        assert "items do not fit" in str(exc), f"{exc}\n{text}"
        assume(False)


SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                    derandomize=not os.environ.get("MACHINA_FUZZ"),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


def _answers_or_says_why(s, questions, text):
    """Each question answers with plain values, or refuses in one line naming the question's
    key or the question; nothing else escapes."""
    rules = s.rules()
    state = s.state_at(rules)
    for q in questions:
        try:
            got = answer(s, q, rules, state)
        except RulesError as exc:
            message = str(exc)
            assert message and "\n" not in message and "Traceback" not in message, text
            assert exc.argument in (q.name,) + QUESTION_KINDS[q.ask], f"{message}\n{text}"
            continue
        json.dumps(got.value)                        # plain values only
        assert all(isinstance(line, str) for line in got.why)


@SETTINGS
@given(cases())
def test_every_question_kind_answers_every_legal_situation_or_says_why_not(text):
    s = _load(text)
    assert {q.ask for q in s.questions} == set(QUESTION_KINDS)
    _answers_or_says_why(s, s.questions, text)


@SETTINGS
@given(situations(), st.data())
def test_every_question_a_click_asks_answers(made, data):
    """What the Analysis board asks about a clicked unit or space answers too."""
    text, explorers, monsters, (w, h) = made
    s = _load(text)
    pick = data.draw(st.one_of(st.sampled_from(explorers + monsters),
                               st.tuples(st.integers(0, w - 1), st.integers(0, h - 1))))
    _answers_or_says_why(s, questions_about(s, pick), text)
