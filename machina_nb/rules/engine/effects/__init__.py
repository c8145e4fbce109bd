"""Resolving effects: the engine's shared state changes, one subject per module.

Each works on a :class:`~machina_nb.rules.engine.resolution.Resolution` (the state being
built, the events so far, the rules, the dice and the players' choices) and emits an
:class:`~machina_nb.rules.engine.resolution.Event` citing its rule. The public engine API
(:mod:`machina_nb.rules.engine.actions`) stays pure: it builds a Resolution from a frozen
state and returns the final state and events. This package gathers the names the rest of
the engine uses:

- :mod:`.threat`: monster threat and level, level 5;
- :mod:`.combat`: damage, death, attacks, exploding barrels;
- :mod:`.spawning`: spawning monsters;
- :mod:`.events`: horror and explorer events, markers and lasting effects;
- :mod:`.chapters`: the next chapter, lighting chapter spaces, resetting ratings;
- :mod:`.conditions`: conditionals, effect rolls, counted conditions;
- :mod:`.movement`: move, teleport, switch, push and pull;
- :mod:`.map_spaces`: destroying and refreshing spaces, the exit token, doors, traps.
"""

from __future__ import annotations

from machina_nb.rules.engine.effects.threat import (threat_up, threat_down, remove_half,
                                                    level5_loss, threat_effect)
from machina_nb.rules.engine.effects.combat import (PAY_WITH, lose_health, destroy_unit,
                                                    roll_modifier, attack, spend_essence, strike,
                                                    explode_barrel, attack_effect, restore_effect,
                                                    lose_health_effect, banish_effect)
from machina_nb.rules.engine.effects.spawning import (SPAWN_LIMIT, monsters_on_tile, spawn_spaces,
                                                      spawn_monster, spawn_effect)
from machina_nb.rules.engine.effects.events import (invoke_horror_event, reinvoke_horror_event,
                                                    reinvoke_explorer_event, shuffle_event_deck,
                                                    invoke_explorer_event, return_markers,
                                                    invoke_explorer_event_effect,
                                                    reinvoke_horror_event_effect,
                                                    shuffle_event_deck_effect,
                                                    reinvoke_explorer_event_effect, lasting_effect)
from machina_nb.rules.engine.effects.chapters import (explorers_counted, reset_ratings,
                                                      next_chapter, light_chapter,
                                                      light_chapter_effect, next_chapter_effect)
from machina_nb.rules.engine.effects.conditions import (conditional_effect, effect_roll_effect,
                                                        count_effect)
from machina_nb.rules.engine.effects.movement import (move_effect, teleport_effect, switch_effect,
                                                      push_effect)
from machina_nb.rules.engine.effects.map_spaces import (destroy_map_space, destroyed_tokens,
                                                        refresh_space, edge_spaces,
                                                        place_exit_token, remove_exit_token,
                                                        set_door, close_target_door, trigger_traps,
                                                        destroy_target_effect,
                                                        refresh_space_effect,
                                                        place_exit_token_effect, close_door_effect,
                                                        trigger_traps_effect)

__all__ = [
    "threat_up", "threat_down", "remove_half", "level5_loss", "threat_effect", "PAY_WITH",
    "lose_health", "destroy_unit", "roll_modifier", "attack", "spend_essence", "strike",
    "explode_barrel", "attack_effect", "restore_effect", "lose_health_effect", "banish_effect",
    "SPAWN_LIMIT", "monsters_on_tile", "spawn_spaces", "spawn_monster", "spawn_effect",
    "invoke_horror_event", "reinvoke_horror_event", "reinvoke_explorer_event",
    "shuffle_event_deck", "invoke_explorer_event", "return_markers",
    "invoke_explorer_event_effect", "reinvoke_horror_event_effect", "shuffle_event_deck_effect",
    "reinvoke_explorer_event_effect", "lasting_effect", "explorers_counted", "reset_ratings",
    "next_chapter", "light_chapter", "light_chapter_effect", "next_chapter_effect",
    "conditional_effect", "effect_roll_effect", "count_effect", "move_effect",
    "teleport_effect", "switch_effect", "push_effect", "destroy_map_space", "destroyed_tokens",
    "refresh_space", "edge_spaces", "place_exit_token", "remove_exit_token", "set_door",
    "close_target_door", "trigger_traps", "destroy_target_effect", "refresh_space_effect",
    "place_exit_token_effect", "close_door_effect", "trigger_traps_effect",
]
