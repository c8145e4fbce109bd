"""Rules and questions in plain words, shared by every tab that shows situations.

``rules_words`` names the rules in force ("manual 1.0; los.vertex = any_two");
``question_words`` turns a situation's question into a sentence with the units' names
("Can Kim (K) see Lorrai (L)?"), spaces as the board labels them (made in the rules core,
:mod:`machina_nb.rules.analysis.phrases`, which the exports share).
"""

from __future__ import annotations

import re
from typing import Mapping

from machina_nb.rules.analysis.phrases import question_words, unit_names, unit_words
from machina_nb.rules.rulings import PRESETS, Rules

__all__ = ["PRESET_WORDS", "SOURCE_TITLES", "source_words", "rules_words", "unit_names", "unit_words", "question_words"]

#: Each preset in plain words.
PRESET_WORDS: Mapping[str, str] = {
    "manual": "manual 1.0",
    "v3_5": "manual 1.0 with the 3.5 update",
    "player_aid": "manual 1.0 with the player aid's readings",
}
if set(PRESET_WORDS) != set(PRESETS):
    raise ValueError("PRESET_WORDS must name every preset of machina_nb.rules.rulings")

#: The peer games' rule summaries by their titles: the rules cite the files, which a reader of
#: the app does not have.
SOURCE_TITLES: Mapping[str, str] = {
    "002_fdb2e90db6cbc320": "Mansions of Madness rules summary",
    "004_160861af6abd31e8": "Arkham Horror LCG rules summary",
}
_SOURCE_FILE = re.compile(r"\b(?:Arkham LCG|Mansions) summary (\d{3}_[0-9a-f]{16})\.txt")


def source_words(text: str) -> str:
    """A citation with each peer game's summary named by its title, not its file.

    >>> source_words("manual p22; Mansions summary 002_fdb2e90db6cbc320.txt (Line of Sight)")
    'manual p22; Mansions of Madness rules summary (Line of Sight)'
    """
    return _SOURCE_FILE.sub(lambda m: SOURCE_TITLES.get(m[1], m[0]), text)


def rules_words(preset: str, rules: Rules) -> str:
    """``rules`` as ``preset`` plus the switches that differ from it, in words:
    ``manual 1.0; los.vertex = any_two``."""
    flips = [f"{name} = {mine}" for name, _, mine in Rules.preset(preset).differences(rules)]
    return "; ".join([PRESET_WORDS[preset], *flips])
