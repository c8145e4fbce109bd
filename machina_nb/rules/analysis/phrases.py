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

from collections.abc import Mapping

from machina_nb.rules.analysis.questions import Question
from machina_nb.rules.analysis.situation import Situation
from machina_nb.rules.board.labels import plain_text

__all__ = ["UnitRef", "unit_names", "unit_words", "question_words"]

UnitRef = str | list[int] | tuple[int, ...]
"""What a question names a unit by: its letter, or its space ``[x, y]``."""


def unit_names(situation: Situation, side: bool = False) -> dict[str, str]:
    """Each unit's letter -> its name (``Kim``; with ``side``: ``Kim (explorer)``)."""
    state = situation.base
    return {u.letter: state.unit(u.id).name + (f" ({state.unit(u.id).side})" if side else "")
            for u in situation.units}


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
    words = {
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
        "rounds": lambda: f"Over {q.get('rounds')} rounds (spawn rating "
                          f"{q.get('spawn_rating', 6)}, horror rating "
                          f"{q.get('horror_rating', 'none')}): what happens?",
    }
    return words.get(q.ask, lambda: q.name.replace("_", " ").capitalize() + "?")()
