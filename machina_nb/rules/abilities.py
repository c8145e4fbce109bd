"""Card abilities as data: a cost, a targeting icon and effects from a fixed vocabulary.

An :class:`Ability` is what a unit card, item, event or chapter prints: a
:class:`Cost` (stamina, essence, health, a marker, destroying something), a
:class:`Targeting` icon (none, melee, ranged X, ranged-through X) with the kind
of thing it may target, and a tuple of :class:`Effect` resolved in printed
order. Effects name an operation from :data:`EFFECT_OPS`; the engine
(:mod:`machina_nb.rules.actions`) resolves them. Nothing here executes.

>>> claw = Ability("Claw", Cost(stamina=3), Targeting("melee"),
...                (Effect("attack", high=1, low=1),))
>>> claw.cost.stamina, claw.targeting.kind, claw.effects[0].op
(3, 'melee', 'attack')

Rules: manual p20-21 (abilities), p23 (targeting), p24-27 (effects); spec §A20.
"""

from __future__ import annotations

from dataclasses import dataclass

from machina_nb.rules.errors import RulesError

__all__ = [
    "Cost", "Targeting", "Effect", "Ability", "EFFECT_OPS", "TARGETING_KINDS", "TARGET_KINDS",
    "SCOPES", "CONDITIONS",
]

TARGETING_KINDS = ("none", "melee", "ranged", "ranged_through")
"""The targeting icons (manual p23): none = the activating unit or its tile's scope."""

TARGET_KINDS = ("explorer", "monster", "unit", "chest", "event", "lever", "chapter", "space")
"""What a targeted ability may be played on; monsters default to explorers (manual p16)."""

SCOPES = ("target", "self", "explorers_on_tile", "monsters_on_tile", "units_adjacent",
          "explorers_all_tiles", "monsters_all_tiles")
"""Whom an effect lands on (manual p21-23: map-tile scope; p23 table of affected units)."""

CONDITIONS = ("any_monster_wounded_on_tile", "target_wounded", "hit")
"""Conditions a conditional effect may test (manual p26: conditionals)."""

EFFECT_OPS = (
    "attack",           # roll high/low dice (arcane?) against each unit in scope (p24)
    "destroy_target",   # put a destroyed token on the targeted space / destroy the target (p35)
    "restore_health",   # +amount health, capped at max (p18)
    "lose_health",      # -amount health (p18)
    "restore_essence",  # +amount essence (p18)
    "restore_stamina",  # +amount stamina (p18)
    "move",             # move up to amount spaces; mindless monsters toward their closest (p23)
    "push",             # push the target amount spaces away (p25)
    "pull",             # pull the target amount spaces toward the user (p25)
    "teleport",         # teleport within amount spaces, where the players choose (p25)
    "switch",           # the user and the target trade places (p25)
    "trigger_traps",    # trigger traps, activated by the user (p37)
    "start_new_round",  # a fresh explorer phase at once (p28)
    "place_exit_token",   # the activating explorer puts the exit token on an edge (p28)
    "place_entry_token",  # explorers off the map come back at the entry token (p28)
    "banish",           # banish the target monster (p19)
    "refresh_space",    # remove tokens from the targeted space, per refresh.removes (p35)
    "threat",           # change monster threat by amount (p14)
    "light_chapter",    # light the nearest unlit chapter space on the tile (p36)
    "spawn",            # spawn monster (p13)
    "incapacitate",     # lasting: the target cannot play its first ability (p17 Example E)
    "control",          # lasting: the user decides the target monster's turn (p25)
    "roll_modifier",    # lasting: the target's attack rolls change by amount (p21, p27)
    "stamina_modifier",  # lasting: the target's maximum stamina changes by amount (p12, p27)
    "conditional",      # if condition: then, otherwise: otherwise (p26)
    "effect_roll",      # d10 >= amount: then, otherwise: otherwise (p26)
    "invoke_explorer_event",  # p37
    "reinvoke_horror_event",  # p14
    "count",            # counted condition: +1 token; at amount tokens resolve then (p26)
    "next_chapter",     # go to the next chapter (p28)
    "destroy_bound_event",  # destroy the binding event named by key (p26)
    "add_item_level",   # halve each item deck, shuffle in item level amount (p28, p33)
)
"""The fixed effect vocabulary (manual p24-28, p35-37; spec §A20)."""


@dataclass(frozen=True)
class Cost:
    """What playing an ability costs, paid before it resolves (manual p20, p26).

    ``health`` may be paid with essence instead, one for one (manual p18).
    ``destroy`` names a kind of adjacent action space that must be destroyed as
    part of the cost (manual p23: advanced examples).
    Rules: manual p20 (active abilities: cost), p23, p26.
    """

    stamina: int = 0
    essence: int = 0
    health: int = 0
    destroy: str | None = None

    def __post_init__(self):
        for name in ("stamina", "essence", "health"):
            value = getattr(self, name)
            if not isinstance(value, int) or not 0 <= value <= 9:
                raise RulesError(name, f"a cost is a whole number 0-9, got {value!r}")


def _one_of(argument: str, value: str, allowed, what: str) -> None:
    if value not in allowed:
        raise RulesError(argument, f"unknown {what} {value!r}; expected one of "
                         f"{', '.join(allowed)}")


@dataclass(frozen=True)
class Targeting:
    """A targeting icon and what it may be played on (manual p22-23).

    Rules: manual p23 (melee, ranged, ranged through), p16 (monsters target explorers
    unless the ability says otherwise).
    """

    kind: str = "none"
    range: int = 0
    target: str = "explorer"

    def __post_init__(self):
        _one_of("kind", self.kind, TARGETING_KINDS, "targeting")
        _one_of("target", self.target, TARGET_KINDS, "target kind")
        if not isinstance(self.range, int) or not 0 <= self.range <= 20:
            raise RulesError("range", f"range is a whole number 0-20, got {self.range!r}")


@dataclass(frozen=True)
class Effect:
    """One effect from the fixed vocabulary :data:`EFFECT_OPS`, with its parameters.

    ``high``/``low``/``arcane`` describe an attack roll; ``amount`` the size of a
    change (health, threat, push distance, effect-roll threshold, count);
    ``scope`` whom it lands on (:data:`SCOPES`); ``then``/``otherwise`` the
    branches of a conditional, effect roll or counted condition; ``stacks`` the
    lasting-effect stack limit.
    Rules: manual p24-27 (effects), p21-22 (map-tile scope).
    """

    op: str
    scope: str = "target"
    high: int = 0
    low: int = 0
    arcane: bool = False
    amount: int = 0
    condition: str | None = None
    then: tuple["Effect", ...] = ()
    otherwise: tuple["Effect", ...] = ()
    stacks: int = 1
    key: str | None = None

    def __post_init__(self):
        _one_of("op", self.op, EFFECT_OPS, "effect")
        _one_of("scope", self.scope, SCOPES, "scope")
        if self.condition is not None:
            _one_of("condition", self.condition, CONDITIONS, "condition")
        if self.op == "conditional" and self.condition is None:
            raise RulesError("condition", "a conditional effect needs a condition (manual p26)")
        object.__setattr__(self, "then", tuple(self.then))
        object.__setattr__(self, "otherwise", tuple(self.otherwise))


@dataclass(frozen=True)
class Ability:
    """An active ability: name, cost, targeting, effects; ``once_per_turn`` as printed.

    Rules: manual p20-21 (ability types), p16 (monsters try abilities in card order).
    """

    name: str
    cost: Cost = Cost()
    targeting: Targeting = Targeting()
    effects: tuple[Effect, ...] = ()
    once_per_turn: bool = False

    def __post_init__(self):
        object.__setattr__(self, "effects", tuple(self.effects))

    @property
    def attacks(self) -> bool:
        """Whether the ability makes an attack (manual p23: melee/ranged weapon)."""
        return any(e.op == "attack" for e in _walk(self.effects))


def _walk(effects):
    for e in effects:
        yield e
        yield from _walk(e.then)
        yield from _walk(e.otherwise)
