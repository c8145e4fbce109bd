"""Spawning monsters: the spawn limit, spawn spaces, placing a new monster, a card's spawn.

Rules: manual p13 (spawn monster), p15 (queue), p21-22 (map-tile scope), p36 (spawn spaces).
"""

from __future__ import annotations

from dataclasses import replace

from typing import Any, cast

from machina_nb.rules.board import placement
from machina_nb.rules.board.maptext import Point, SpaceKind
from machina_nb.rules.cards.abilities import Effect
from machina_nb.rules.cards.units import UnitCard
from machina_nb.rules.cite import Cite
from machina_nb.rules.engine.effects.threat import threat_up
from machina_nb.rules.engine.resolution import Resolution, EffectStep, resolve
from machina_nb.rules.engine.state import Deck, GameState, PhaseName, Unit

__all__ = [
    "SPAWN_LIMIT", "monsters_on_tile", "spawn_spaces", "spawn_monster", "spawn_effect",
]

SPAWNS = Cite.parse("manual p13 (spawn monster), p15 (queue)")
"""The rule of a monster spawning: its space, then the end of the queue."""


# --- spawn ------------------------------------------------------------------------------------

SPAWN_LIMIT = 4
"""Monsters on a tile at which a spawn becomes a threat increase (manual p13)."""


def monsters_on_tile(state: GameState, tile: str | Point | None) -> int:
    """How many monsters stand on a map tile (manual p13: spawn limit)."""
    return sum(1 for u in state.monsters_in_play
               if state.tile_of(cast(Point, u.position)) == tile)


def spawn_spaces(state: GameState, tile: str | Point | None) -> tuple[Point, ...]:
    """Non-destroyed spawn spaces of a map tile (manual p13, p36)."""
    return tuple(p for p in state.map.spaces(SpaceKind.SPAWN)
                 if p not in state.destroyed and state.tile_of(p) == tile)


def spawn_monster(r: Resolution, origin: Point, limit: bool, why: str) -> str | None:
    """Spawn a monster on ``origin``'s tile at the nearest spawn space (manual p13).

    With ``limit`` a tile already holding 4 monsters gives threat +1 instead.
    An empty deck reshuffles the destroyed monsters; with none, threat +1.
    The card joins the end of the queue; an occupied spawn space falls back
    to the nearest free passable space, the explorers choosing ties. Then the
    monster's «enters play» resolves (its card's ``enters_play``).
    Rules: manual p13 (spawn monster); rulings C-7, D18.
    """
    s = r.state
    tile = s.tile_of(origin)
    if limit and monsters_on_tile(s, tile) >= SPAWN_LIMIT:
        threat_up(r, 1, f"{why}: {SPAWN_LIMIT} monsters already on the tile")
        return None
    deck = s.monsters
    if not deck.cards:
        if not deck.destroyed:
            threat_up(r, 1, f"{why}: no monster cards left")
            return None
        deck = Deck(r.dice.shuffle(deck.destroyed, "destroyed monsters into a new deck"), ())
        r.emit("deck", "monster_deck_refilled", "manual p13")
    where = placement.spawn_placement(s.unit_board(), origin, r.rules)
    if not where.candidates:
        r.emit("spawn", "no_spawn_space", "manual p13; rulings D18, D42", cause=why)
        return None
    space = r.choose(where.candidates, "the spawn space" + (" (fallback)" if where.fallback
                                                            else ""), "; ".join(where.rules))
    card: UnitCard = deck.cards[0]
    uid = f"{card.id}-{s.next_id}"
    monster = replace(Unit.from_card(card, uid, space), origin=card)
    done = s.done + ((uid,) if s.phase == PhaseName.MONSTER
                     and r.rules["queue.mid_phase_spawn"] == "next_round" else ())
    r.set(units=s.units + (monster,), queue=s.queue + (uid,), next_id=s.next_id + 1,
          monsters=Deck(deck.cards[1:], deck.destroyed), done=done)
    r.emit("spawn", "spawns", SPAWNS, cause=why, card=card.name, who=(uid,), where=(space,))
    if monster.enters_play:
        resolve(r, monster.enters_play, r.state.unit(uid), None, f"{card.name} enters play")
    return uid


def _spawn_effect(r: Resolution, user: Unit | None, why: str) -> None:
    """A card's "spawn a monster": where, per ``spawn.card_origin`` (switch spawn.card_origin; manual p13).

    ``nearest_to_activating_explorer``: near the activating unit, or on a tile
    the explorers choose (by one of its explorers) when there is none;
    ``players_choose_tile``: always the explorers' choice; ``all_tiles_each``:
    with no activating unit, one monster on every tile with an explorer.
    Rules: manual p13 (spawn monster), p21-22 (map-tile scope); switch spawn.card_origin.
    """
    limit = r.rules["spawn.limit_scope"] == "all_spawns"
    reading = r.rules["spawn.card_origin"]
    explorers = [cast(Point, x.position) for x in r.state.explorers_on_map]
    if user is not None and user.position is not None and reading != "players_choose_tile":
        spawn_monster(r, user.position, limit, why)
    elif reading == "all_tiles_each" and user is None:
        by_tile: dict[Any, Point] = {}
        for p in explorers:
            by_tile.setdefault(r.state.tile_of(p), p)
        for tile in sorted(by_tile):
            spawn_monster(r, by_tile[tile], limit, why)
    elif explorers:
        origin = r.choose(sorted(explorers), "an explorer whose tile gets the monster",
                          "switch spawn.card_origin")
        spawn_monster(r, origin, limit, why)

# --- the handler of the spawn effect (the table is vocabulary.EFFECT_HANDLERS) ----------------

def spawn_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """A card's "spawn a monster" (manual p13; switch spawn.card_origin)."""
    _spawn_effect(r, step.user, step.label)
