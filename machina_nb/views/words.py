"""Rules and questions in plain words, shared by every tab that shows situations.

``rules_words`` names the rules in force ("manual 1.0; changed: a corner never blocks sight");
``question_words`` turns a situation's question into a sentence with the units' names
("Can Kim (K) see Lorrai (L)?"), spaces as the board labels them (made in the rules core,
:mod:`machina_nb.rules.analysis.phrases`, which the exports share).
"""

from __future__ import annotations

from collections.abc import Mapping

from machina_nb.rules.analysis.phrases import question_words, unit_names, unit_words
from machina_nb.rules.rulings import PRESETS, Rules
from machina_nb.rules.rulings_words import changes_words

__all__ = ["PRESET_WORDS", "rules_words", "unit_names", "unit_words", "question_words"]

#: Each preset in plain words.
PRESET_WORDS: Mapping[str, str] = {
    "manual": "manual 1.0",
    "v3_5": "manual 1.0 with the 3.5 update",
    "player_aid": "manual 1.0 with the player aid's readings",
}
if set(PRESET_WORDS) != set(PRESETS):
    raise ValueError("PRESET_WORDS must name every preset of machina_nb.rules.rulings")


def rules_words(preset: str, rules: Rules) -> str:
    """``rules`` as ``preset`` plus the readings that differ from it, each by its label:
    ``manual 1.0; changed: a corner never blocks sight``."""
    changed = changes_words(Rules.preset(preset), rules)
    return PRESET_WORDS[preset] + (f"; changed: {'; '.join(changed)}" if changed else "")

