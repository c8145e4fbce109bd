"""The effect vocabulary's one table: each effect name a card may print, and its handler.

:data:`EFFECT_HANDLERS` covers every name of
:data:`machina_nb.rules.cards.abilities.EFFECT_OPS` (a test holds them equal), so adding
an effect to the vocabulary is adding one handler and one row here.
:func:`new_resolution` starts a :class:`~machina_nb.rules.engine.resolution.Resolution`
that resolves effects through this table.

>>> from machina_nb.rules.cards.abilities import EFFECT_OPS
>>> sorted(EFFECT_HANDLERS) == sorted(EFFECT_OPS)
True

Rules: manual p20-28 (abilities and effects), p35-37 (map spaces).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping, Sequence

from machina_nb.rules.cards.abilities import LASTING_OPS
from machina_nb.rules.engine import effects as fx
from machina_nb.rules.engine.cardeffects import card_effect
from machina_nb.rules.engine.chance import Dice
from machina_nb.rules.engine.chapters import (enter_endgame_effect, game_end_effect,
                                              place_entry_token_effect, reset_ratings_effect)
from machina_nb.rules.engine.inventory import add_item_level_effect
from machina_nb.rules.engine.phases import start_new_round_effect
from machina_nb.rules.engine.resolution import Handler, Resolution
from machina_nb.rules.engine.state import GameState
from machina_nb.rules.rulings import Rules

__all__ = ["EFFECT_HANDLERS", "new_resolution"]

EFFECT_HANDLERS: Mapping[str, Handler] = MappingProxyType({
    "attack": fx.attack_effect,
    "destroy_target": fx.destroy_target_effect,
    "restore_health": fx.restore_effect,
    "restore_essence": fx.restore_effect,
    "restore_stamina": fx.restore_effect,
    "lose_health": fx.lose_health_effect,
    "move": fx.move_effect,
    "teleport": fx.teleport_effect,
    "switch": fx.switch_effect,
    "push": fx.push_effect,
    "pull": fx.push_effect,
    "trigger_traps": fx.trigger_traps_effect,
    "place_exit_token": fx.place_exit_token_effect,
    "place_entry_token": place_entry_token_effect,
    "start_new_round": start_new_round_effect,
    "close_door": fx.close_door_effect,
    "refresh_space": fx.refresh_space_effect,
    "banish": fx.banish_effect,
    "threat": fx.threat_effect,
    "light_chapter": fx.light_chapter_effect,
    "spawn": fx.spawn_effect,
    **{op: fx.lasting_effect for op in LASTING_OPS},
    "conditional": fx.conditional_effect,
    "effect_roll": fx.effect_roll_effect,
    "invoke_explorer_event": fx.invoke_explorer_event_effect,
    "reinvoke_horror_event": fx.reinvoke_horror_event_effect,
    "reinvoke_explorer_event": fx.reinvoke_explorer_event_effect,
    "shuffle_event_deck": fx.shuffle_event_deck_effect,
    "count": fx.count_effect,
    "next_chapter": fx.next_chapter_effect,
    "add_item_level": add_item_level_effect,
    "reset_ratings": reset_ratings_effect,
    "enter_endgame": enter_endgame_effect,
    "victory": game_end_effect,
    "defeat": game_end_effect,
    "take": card_effect,
    "treat_space": card_effect,
    "destroy_card": card_effect,
    "destroy_bound_event": card_effect,
})
"""Each effect name of the card vocabulary and the function that resolves it."""


def new_resolution(state: GameState, rules: Rules, dice: Dice, choices: Sequence[Any] = (),
                   actor: str | None = None) -> Resolution:
    """A resolution of ``state`` whose effects resolve through :data:`EFFECT_HANDLERS`."""
    return Resolution(state, rules, dice, choices, actor, handlers=EFFECT_HANDLERS)
