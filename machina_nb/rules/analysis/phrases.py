"""A situation's questions and units in plain words, for the app and for every export.

``question_words`` turns a question into a sentence with the units' names ("Can Kim (K)
see Lorrai (L)?"), spaces as the board labels them; the Markdown and BBCode exports head
each answer with it, and the app shows it above each answer.

>>> from machina_nb.rules.content import content_root
>>> from machina_nb.rules.analysis.situation import load_situation
>>> s = load_situation(content_root() / "situations" / "sight_corner.toml")
>>> question_words(s, s.questions[0])
'Can Kim (K) see Lorrai (L)?'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from machina_nb.rules.analysis.questions import Question
from machina_nb.rules.analysis.situation import Situation
from machina_nb.rules.board.labels import plain_text
from machina_nb.rules.engine.state import GameState
from machina_nb.rules.rulings_words import cite_words

__all__ = ["UnitRef", "unit_names", "unit_words", "question_words", "reader_names",
           "reader_words", "field_words", "PRESET_WORDS", "rules_words"]

PRESET_WORDS = {"manual": "manual 1.0", "v3_5": "manual 1.0 with the 3.5 update",
                "player_aid": "manual 1.0 with the player aid's readings"}
"""Each preset as a reader names it."""

UnitRef = str | list[int] | tuple[int, ...]
"""What a question names a unit by: its letter, or its space ``[x, y]``."""


def unit_names(situation: Situation, side: bool = False) -> dict[str, str]:
    """Each unit's letter -> its name (``Kim``; with ``side``: ``Kim (explorer)``)."""
    state = situation.base
    return {u.letter: state.unit(u.id).name + (f" ({state.unit(u.id).side})" if side else "")
            for u in situation.units}


_NUMBERED = re.compile(r"(?<![\w-])([a-z][a-z_]*)-(\d+)(?![\w-])")
_ID_AFTER_NAME = re.compile(r" \([a-z][a-z_]*-(\d+)\)")
"""A new unit's id after its card's name (``Sarall (sarall-1)``): its number is kept."""
_QUOTED = re.compile(r"'([a-z][a-z0-9_]*)'")
_SNAKE = re.compile(r"(?<![\w.-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w.-])")


def reader_names(situation: Situation, states: Iterable[GameState] = ()) -> dict[str, str]:
    """Each unit's engine id -> its name as a reader calls it: a unit of the situation with
    its letter (``kim`` -> ``Kim (K)``), a unit that came later (``states``) by its card's
    name and number (``mi_go-1`` -> ``Mi-Go 1``)."""
    base = situation.base
    names = {u.id: f"{base.unit(u.id).name} ({u.letter})" for u in situation.units}
    for state in states:
        for unit in state.units:
            m = _NUMBERED.fullmatch(unit.id)
            names.setdefault(unit.id, f"{unit.name} {m[2]}" if m else unit.name)
    return names


def _numbered(situation: Situation, m: re.Match[str]) -> str:
    """A numbered unit that is not on the board any more, by its card's name and number."""
    card = situation.cards.units().get(m[1])
    return f"{card.name} {m[2]}" if card is not None else m[0]


def _card_name(situation: Situation, m: re.Match[str]) -> str:
    """A card's id in quotes (a choice the players made), as the card's name."""
    cards = situation.cards
    for kind in (cards.items(), cards.units(), cards.events(), cards.chapters()):
        card = kind.get(m[1])
        if card is not None:
            return str(card.name)
    return m[1].replace("_", " ")


def reader_words(situation: Situation, text: str,
                 names: Mapping[str, str] | None = None) -> str:
    """Text from the rules core as a reader reads it: units by name and letter
    (:func:`reader_names`; a numbered unit not among ``names`` by its card's name and number,
    ``Sarall 1``), spaces as the board labels them, each switch as its question and each
    reading as its label, a card chosen by its name, and the engine's other ids (an ability,
    an effect) as words.

    >>> from machina_nb.rules.content import content_root
    >>> from machina_nb.rules.analysis.situation import load_situation
    >>> s = load_situation(content_root() / "situations" / "shared_seal.toml")
    >>> reader_words(s, "kim seals (1, 0): monster threat 1 -> 1 [manual p36; switch "
    ...                 "threat.floor (threat.floor = clamp_one)]")
    'Kim (K) seals B1: monster threat 1 → 1 [manual p36; ruling: threat never drops below its first position]'
    >>> reader_words(s, "phillip plays lay_a_seal; Sarall (sarall-2) spawns; sarall-2 moves "
    ...                 "[manual p20-21]")
    'Phillip (P) plays lay a seal; Sarall 2 spawns; Sarall 2 moves [manual p20-21]'
    """
    names = reader_names(situation) if names is None else names
    text = _ID_AFTER_NAME.sub(r" \1", text)
    text = cite_words(plain_text(text, names))
    text = _NUMBERED.sub(lambda m: _numbered(situation, m), text)
    text = _QUOTED.sub(lambda m: _card_name(situation, m), text)
    return _SNAKE.sub(lambda m: m[0].replace("_", " "), text)


def rules_words(name: str) -> str:
    """A rules object's name in words: its preset (:data:`PRESET_WORDS`), and whether rulings
    were changed from it (a name ending in ``+``).

    >>> rules_words("v3_5"), rules_words("manual+")
    ('manual 1.0 with the 3.5 update', 'manual 1.0, some rulings changed')
    """
    base = name.rstrip("+")
    said = PRESET_WORDS.get(base, base.replace("_", " "))
    return said + (", some rulings changed" if name.endswith("+") else "")


def field_words(name: str) -> str:
    """A report field or a question kind as words (``stamina_left`` -> ``stamina left``)."""
    return name.replace("_", " ")


def _who(names: Mapping[str, str], ref: UnitRef) -> str:
    """A question's unit letter as ``Kim (K)``, or its ``[x, y]`` as the board labels it."""
    if isinstance(ref, (list, tuple)):
        return plain_text(f"({ref[0]}, {ref[1]})")
    return f"{names.get(ref, 'unit')} ({ref})"


def unit_words(situation: Situation, ref: UnitRef) -> str:
    """A unit letter of ``situation`` as ``Kim (K)``, or ``[x, y]`` as the board labels it."""
    return _who(unit_names(situation), ref)


def question_words(situation: Situation, q: Question,
                   names: Mapping[str, str] | None = None) -> str:
    """The question as a sentence (``Can Kim (K) see Lorrai (L)?``); ``names``: letter ->
    name (default: the situation's units)."""
    names = unit_names(situation) if names is None else names

    def who(key: str, default: str = "the unit taking its turn") -> str:
        ref = q.get(key)
        return default if ref is None else _who(names, ref)

    among = q.get("among", "explorers")
    among = among if isinstance(among, str) else " or ".join(among)
    shot = f"{q.get('icon', 'melee')}".replace("_", " ") + \
        (f" {q.get('range')}" if q.get("range") else "")
    pushed = "pulls" if q.get("pull", False) else "pushes"
    stamina = q.get("stamina")
    words: dict[str, Callable[[], str]] = {
        "sight": lambda: f"Can {who('from')} see {who('to')}?",
        "target": lambda: f"Can {who('from')} target {who('to')} ({shot})?",
        "adjacent": lambda: f"Are {who('from')} and {who('to')} adjacent?",
        "reach": lambda: f"Where can {who('unit')} end a move"
                         + (f" with {stamina} stamina?" if stamina is not None else "?"),
        "nearest": lambda: f"Which of the {among} is nearest to {who('from')} (counted "
                           "directly)?",
        "closest": lambda: f"Which of the {among} is closest to {who('from')} (walked, closed "
                           "doors open)?",
        "monster_turn": lambda: f"What does {who('monster')} do on its mindless turn, step by "
                                "step?",
        "attack_odds": lambda: f"What are {who('attacker')}'s chances to hit?",
        "spawn": lambda: f"Where does a monster spawn for {who('explorer')}?",
        "push": lambda: f"Where does {who('unit')} end when {who('pusher')} {pushed} it "
                        f"{q.get('distance')} spaces?",
        "actions": lambda: f"What may {who('unit')} do now?",
        "play": lambda: "What happens after " + "; then ".join(
            reader_words(situation, str(step)) for step in q.get("steps", ())) + "?",
        "teleport": lambda: f"Where may {who('unit')} teleport to?",
        "setup": lambda: "How is the game set up?",
        "monster_phase": lambda: "What can the monster phase do to the explorers?",
        "risk_map": lambda: f"Where is it safest for {who('unit')} to end its move?",
        "rounds": lambda: f"Over {q.get('rounds')} rounds (spawn rating "
                          f"{q.get('spawn_rating', 6)}, horror rating "
                          f"{q.get('horror_rating', 'none')}): what happens?",
    }
    return words.get(q.ask, lambda: q.name.replace("_", " ").capitalize() + "?")()
