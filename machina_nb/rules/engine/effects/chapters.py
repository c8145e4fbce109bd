"""The chapter track as effects change it: the next chapter, lighting a chapter space, and
resetting the ratings (with the player-count adjustment).

Rules: manual p28-29 (chapters, reset ratings, the end), p36 (light chapter); 3.5 (spawn phase).
"""

from __future__ import annotations

from machina_nb.rules.board.maptext import SpaceKind
from machina_nb.rules.board.terrain import nearest_spaces
from machina_nb.rules.cards.abilities import Effect
from machina_nb.rules.cite import Cite
from machina_nb.rules.engine.resolution import Resolution, EffectStep, resolve
from machina_nb.rules.engine.state import Deck, GameState, Side, Unit
from machina_nb.rules.odds.processes import adjusted_spawn_rating
from machina_nb.rules.rulings import Rules

__all__ = [
    "explorers_counted", "reset_ratings", "next_chapter", "light_chapter",
    "light_chapter_effect", "next_chapter_effect", "chapter_key",
]


# --- ratings ----------------------------------------------------------------------------------

def explorers_counted(state: GameState, rules: Rules) -> int:
    """How many explorers the 3.5 player-count adjustment counts (switch n35; 3.5 §Spawn Phase)."""
    reading = rules["n35"]
    if reading == "starting_explorers":
        return max(1, state.starting_explorers)
    if reading == "explorers_in_play":
        return max(1, len(state.explorers_on_map))
    return max(1, len(state.explorers))


def reset_ratings(r: Resolution, spawn: bool = True, horror: bool = True,
                  adjust: bool = False) -> None:
    """Return the sliders to the chapter's defaults (3.5: with the player-count adjustment).

    ``adjust`` marks the 3.5 rating-1 reset; ``adjust35.when = every_reset``
    adjusts at every reset (switch adjust35.when).
    Rules: manual p28 (reset ratings); 3.5 §Spawn Phase; switches adjust35.when and n35.
    """
    s = r.state
    changes = {}
    if spawn:
        value = s.chapter.spawn_rating
        if value is not None and r.rules["spawn.procedure"] == "v3_5" and (
                adjust or r.rules["adjust35.when"] == "every_reset"):
            value = adjusted_spawn_rating(value, explorers_counted(s, r.rules))
        changes["spawn_rating"] = value
    if horror:
        changes["horror_rating"] = s.chapter.horror_rating
    r.set(**changes)
    r.emit("ratings", "ratings_reset_" + "_".join(
        f"{k.split('_')[0]}_{'none' if v is None else 'n'}" for k, v in changes.items()),
           "manual p28 (reset ratings)" + ("; 3.5 §Spawn Phase" if r.rules["spawn.procedure"]
                                           == "v3_5" else ""),
           amounts=tuple(v if v is not None else 0 for v in changes.values()))

# --- chapters ---------------------------------------------------------------------------------

def next_chapter(r: Resolution, why: str) -> None:
    """Flip the next chapter: resolve its «enters play», reset its ratings (manual p28).

    Rules: manual p28 (go to next chapter), p29 (progress).
    """
    s = r.state
    if not s.chapters.cards:
        r.set(over="won")
        r.emit("game", "game_won", Cite("manual", ("p28",), "The End"), cause=why)
        return
    chapter = s.chapters.cards[0]
    r.set(chapter=chapter, chapters=Deck(s.chapters.cards[1:], (s.chapter,) +
                                         s.chapters.destroyed))
    r.emit("chapter", "chapter_played", "manual p28", words=(repr(chapter.name),), cause=why)
    previous, r.card = r.card, chapter_key(chapter.id)
    try:
        resolve(r, chapter.enters_play, None, None, f"{chapter.name} enters play")
    finally:
        r.card = previous
    reset_ratings(r)


def chapter_key(chapter_id: str) -> str:
    """The key of a chapter card in play, as the engine names the card whose ability resolves."""
    return f"chapter:{chapter_id}"


def light_chapter(r: Resolution, explorer: Unit | None, why: str) -> None:
    """Put a light token on an untokened chapter space on the explorer's tile (manual p36).

    ``light_chapter.choice``: the nearest (1.0) or any on the tile (aid; switch light_chapter.choice); with none on the tile, ``light_chapter.no_target`` (switch light_chapter.no_target).
    Rules: manual p36 (light chapter).
    """
    s = r.state
    unlit = [p for p in s.map.spaces(SpaceKind.CHAPTER)
             if p not in s.lit and p not in s.destroyed]
    origin = explorer.position if explorer is not None and explorer.position else None
    here = [p for p in unlit if origin is None or s.tile_of(p) == s.tile_of(origin)]
    if not here and r.rules["light_chapter.no_target"] == "nearest_any_tile":
        here = unlit
    if not here:
        r.emit("light", "no_unlit_chapter_space", "manual p36; switch light_chapter.no_target",
               cause=why)
        return
    options = here if origin is None or r.rules["light_chapter.choice"] == "any_on_tile" \
        else nearest_spaces(s.static_board(), origin, here, r.rules)
    space = r.choose(sorted(options), "the chapter space to light", "manual p36; switch light_chapter.choice")
    r.set(lit=s.lit + (space,))
    r.emit("light", "lit", Cite("manual", ("p36",), "light chapter"), cause=why, where=(space,))

# --- handlers of chapter effects (the table is vocabulary.EFFECT_HANDLERS) --------------------

def light_chapter_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """Light a chapter space on the explorer's tile (manual p36)."""
    user = step.user
    light_chapter(r, user if user is not None and user.side == Side.EXPLORER else None,
                  step.label)


def next_chapter_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """Go to the next chapter (manual p28)."""
    next_chapter(r, step.label)
