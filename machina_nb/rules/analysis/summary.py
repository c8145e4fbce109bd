"""What changed between two moments of a game, in sentences: the summary that closes a phase
or a round in a teaching log.

>>> from dataclasses import replace
>>> from machina_nb.rules.analysis.situation import load_situation
>>> from machina_nb.rules.content import content_root
>>> before = load_situation(content_root() / "situations" / "sight_corner.toml").base
>>> changes(before, replace(before, threat=3, spawn_rating=5), str)
('threat 1 → 3', 'spawn rating none → 5')
>>> changes(before, before, str)
()
"""

from __future__ import annotations

from collections.abc import Callable

from machina_nb.rules.board.labels import space_name
from machina_nb.rules.engine.state import GameState

__all__ = ["changes", "phase_title"]

_TRACKS = (("threat", "threat"), ("level", "level"), ("spawn_rating", "spawn rating"),
           ("horror_rating", "horror rating"))


def phase_title(state: GameState) -> str:
    """``Round 2 · spawn phase``: where a game stands, as a heading."""
    return f"Round {state.round} · {state.phase} phase"


def changes(before: GameState, after: GameState, name: Callable[[str], str]) -> tuple[str, ...]:
    """Each change from ``before`` to ``after`` a player would note down, in a few words: the
    units that came into play and where, the units destroyed, health lost or healed, the
    tracks (threat, level, the spawn and horror ratings) and the chapter. ``name`` says a
    unit id as the players call the unit.

    The sentences report the state; the rules that made them are cited by the events.
    """
    out = [*_units(before, after, name)]
    for field, words in _TRACKS:
        old, new = getattr(before, field), getattr(after, field)
        if old != new:
            out.append(f"{words} {_value(old)} → {_value(new)}")
    old_chapter, new_chapter = before.chapter, after.chapter
    if old_chapter != new_chapter:
        out.append(f"the chapter is now {new_chapter.name}")
    if after.over and not before.over:
        out.append(f"the game is over: {after.over}")
    return tuple(out)


def _value(value: int | None) -> str:
    return "none" if value is None else str(value)


def _units(before: GameState, after: GameState, name: Callable[[str], str]) -> list[str]:
    old = {u.id: u for u in before.units}
    new = {u.id: u for u in after.units}
    came = [f"{name(uid)} came into play on {space_name(u.position)}"
            for uid, u in new.items() if uid not in old and u.position is not None]
    gone = [f"{name(uid)} was destroyed" for uid in old if uid not in new]
    health = []
    for uid, u in new.items():
        if uid in old and u.health != old[uid].health:
            delta = u.health - old[uid].health
            verb = "lost" if delta < 0 else "gained"
            health.append(f"{name(uid)} {verb} {abs(delta)} health ({old[uid].health} → "
                          f"{u.health})")
    return came + gone + health
