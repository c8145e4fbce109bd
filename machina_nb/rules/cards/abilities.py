"""Card abilities as data: a cost, a targeting icon and effects from a fixed vocabulary.

An :class:`Ability` is what a unit card, item, event or chapter prints: a
:class:`Cost` (stamina, essence, health, a marker, destroying something), a
:class:`Targeting` icon (none, melee, ranged X, ranged-through X) with the kind
of thing it may target (and of a second target), and a tuple of :class:`Effect`
resolved in printed order. Effects name an operation from :data:`EFFECT_OPS`
and land on a scope from :data:`SCOPES`; the engine (:mod:`machina_nb.rules.engine.actions`)
resolves them. Abilities are active (played for their cost), passive (acting
while their card is in play, :mod:`machina_nb.rules.engine.cardplay`) or triggered
(:mod:`machina_nb.rules.engine.triggers`). Nothing here executes.

>>> claw = Ability("Claw", Cost(stamina=3), Targeting("melee"),
...                (Effect("attack", high=1, low=1),))
>>> claw.cost.stamina, claw.targeting.kind, claw.effects[0].op
(3, 'melee', 'attack')
>>> Ability("Alternate", Cost(stamina=2), Targeting("ranged", 3, "unit", second="unit"),
...         (Effect("attribute_modifier", scope="second_target", amount=-1,
...                 attributes=("armor",)),)).targeting.second
'unit'

Rules: manual p20-21 (abilities), p23 (targeting, two targets), p24-27 (effects, markers).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from machina_nb.rules.cards.records import Record
from machina_nb.rules.content import did_you_mean, shown
from machina_nb.rules.errors import RulesError

__all__ = [
    "Cost", "Targeting", "Effect", "Ability", "EFFECT_OPS", "TARGETING_KINDS", "TARGET_KINDS",
    "SCOPES", "CONDITIONS", "ABILITY_KINDS", "TRIGGERS", "DESTROY_COSTS", "LASTING_OPS",
    "PASSIVE_OPS", "PASSIVE_SCOPES", "CHOSEN_SCOPES", "MODIFIED_ATTRIBUTES", "TREAT_KINDS",
    "MAX_EFFECT_DICE", "MAX_AMOUNT", "MAX_STACKS", "MAX_RANGE", "MAX_NESTING", "MAX_EFFECTS",
    "ABILITY_KEYS", "ATTACK_KEYS", "COST_KEYS", "effect_from_record", "ability_from_record",
]

TARGETING_KINDS = ("none", "melee", "ranged", "ranged_through")
"""The targeting icons (manual p23): none = the activating unit or its tile's scope."""

TARGET_KINDS = ("explorer", "monster", "unit", "chest", "event", "lever", "chapter", "space")
"""What a targeted ability may be played on; monsters default to explorers (manual p16)."""

SCOPES = ("target", "self", "explorers_on_tile", "monsters_on_tile", "units_adjacent",
          "explorers_all_tiles", "monsters_all_tiles", "second_target", "nearest_monster",
          "any_monster", "any_monster_any_tile", "any_monster_adjacent_target",
          "any_explorer_on_tile")
"""Whom an effect lands on (manual p21-23: map-tile scope; p23 table of affected units).

``second_target`` is the second target of a two-target ability (manual p23);
``nearest_monster`` the nearest monster on the user's tile by a direct count,
``any_monster`` one monster of the players' choice on the user's tile (or on
any tile: ``any_monster_any_tile``), ``any_monster_adjacent_target`` one monster
of their choice next to the targeted space (manual p23, both tables);
``any_explorer_on_tile`` one explorer of their choice on the user's tile, the user
included (manual p21-22: Lorrai's map-tile heal)."""

CHOSEN_SCOPES = ("nearest_monster", "any_monster", "any_monster_any_tile",
                 "any_monster_adjacent_target", "any_explorer_on_tile")
"""Scopes that land on one unit the players pick among the candidates (manual p16, p21-23)."""

PASSIVE_SCOPES = ("self", "explorers_on_tile", "monsters_on_tile", "explorers_all_tiles",
                  "monsters_all_tiles")
"""Scopes a passive ability may have: its owner, or the owner's tile / every tile (p21-22)."""

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
    "push",             # push the target amount spaces away; up_to: 0..amount (p25)
    "pull",             # pull the target amount spaces toward the user; up_to: 0..amount (p25)
    "teleport",         # teleport within amount spaces, where the players choose (p25)
    "switch",           # the user and the target trade places (p25)
    "trigger_traps",    # trigger traps, activated by the user (p37)
    "start_new_round",  # a fresh explorer phase at once (p28)
    "place_exit_token",   # the activating explorer puts the exit token on an edge (p28)
    "place_entry_token",  # explorers off the map come back at the entry token (p28)
    "banish",           # banish the target monster (p19)
    "refresh_space",    # remove tokens from the targeted space, per refresh.removes (p35)
    "close_door",       # close an open door on a border of the targeted space (p22)
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
    "attribute_modifier",  # lasting or passive: armor and/or will (attributes) change by amount
    "target_ethereal",  # lasting or passive: the units in scope may target ethereal units (p22)
    "reinvoke_explorer_event",  # the current explorer event's «enters play» again (p37)
    "treat_space",      # the targeted space is treated as (also: too) the kind named by key (p35)
    "take",             # search for the card named by key, shuffle, put it on top; then (p25)
    "destroy_card",     # destroy the card the ability is on (a bound event, an item) (p20, p26)
    "add_item_level",   # halve each item deck, shuffle in item level amount (p28, p33)
    "shuffle_event_deck",  # the destroyed events of key (horror, explorer) back into the deck (p14, p37)
    "reset_ratings",    # the sliders back to the chapter's defaults; key: spawn or horror (p28)
    "enter_endgame",    # the endgame tile (key) and cards into play, explorers at its entry (p28)
    "victory",          # the current chapter flips: every surviving explorer wins (p3, p28)
    "defeat",           # the endgame's defeat condition is met: the game is lost (p3, p28)
    "move_through",     # lasting or passive: the units in scope move through obstacles (p30, p34)
)
"""The fixed effect vocabulary (manual p24-28, p35-37)."""

LASTING_OPS = ("incapacitate", "control", "roll_modifier", "stamina_modifier",
               "attribute_modifier", "target_ethereal", "move_through")
"""Effects that last the round and hold a marker (manual p27)."""

PASSIVE_OPS = ("roll_modifier", "attribute_modifier", "target_ethereal", "move_through")
"""Effects a passive ability may have: they act while its card is in play (manual p20, p22)."""

MODIFIED_ATTRIBUTES = ("armor", "will")
"""Attributes an ``attribute_modifier`` may change (manual p19, p23 Force Alternator)."""

TREAT_KINDS = ("floor", "trapped", "pit", "spawn", "rubble", "barrel", "chest", "event",
               "workbench", "recharge", "lever", "chapter")
"""Kinds a ``treat_space`` effect may make a space (manual p35: treat map space)."""

ABILITY_KINDS = ("active", "passive", "triggered")
"""Ability types (manual p20): played for a cost, acting while in play, or firing on an event."""

TRIGGERS = ("hit", "kill", "explorer_phase", "horror_event", "destroyed")
"""When a triggered ability fires (manual p26-27): its owner hits or kills a unit (on a card
without an owner: any unit), the Explorer phase begins (the Stygian Pendant with its marker
cost, p27), a horror event is invoked (Hobnailed Boots, p30), or the unit whose card it is
is destroyed (its destroyer resolves it: the Mi-Go, p24)."""

DESTROY_COSTS = ("event", "lever", "chest", "card")
"""What a cost may destroy: an adjacent action space of that kind, or the ability's own card
(manual p23 advanced examples, p26 cost versus condition, p20 destroy icon)."""


MAX_EFFECT_DICE = 9
"""The most dice of one kind (high or low) an effect rolls: a card prints one digit (p24)."""

MAX_AMOUNT = 10
"""``amount`` lies in -10..10: changes of 0-9 attributes, threat, distances, the d10
threshold of an effect roll (manual p18, p14, p25, p26)."""

COUNTED_OPS = ("restore_health", "lose_health", "restore_essence", "restore_stamina", "move",
               "push", "pull", "teleport", "effect_roll", "count", "add_item_level")
"""Effects whose ``amount`` counts something (points, spaces, a d10 threshold, tokens, an item
level): never below 0; a change that may go either way (threat, a modifier) may be negative."""

MAX_STACKS = 9
"""How many times a lasting effect may stack, at most (manual p27)."""

MAX_RANGE = 20
"""The largest X of ranged X (a 2x2 play area is 20 spaces across, manual p23, p34)."""

MAX_NESTING = 4
"""How deeply ``then`` / ``otherwise`` branches may nest (manual p26)."""

MAX_EFFECTS = 16
"""The most effects one list (an ability, a branch, «enters play») may hold."""


def _whole(argument: str, value: Any, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(argument, f"'{argument}' must be a whole number {low}..{high}, got "
                         f"{shown(value)}")
    if not low <= value <= high:
        raise RulesError(argument, f"'{argument}' {shown(value)} out of range {low}..{high}")
    return value


def _flag(argument: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise RulesError(argument, f"'{argument}' must be true or false, got {shown(value)}")
    return value


@dataclass(frozen=True)
class Cost:
    """What playing an ability costs, paid before it resolves (manual p20, p26).

    ``health`` may be paid with essence instead, one for one (manual p18).
    ``destroy`` names what must be destroyed as part of the cost
    (:data:`DESTROY_COSTS`): an adjacent event space, trap lever or chest the
    player names, or ``card``, the ability's own card (manual p23: advanced
    examples; p26: the result of another effect never pays it). ``marker``:
    return the player's marker from this card (manual p27: Circular Saw).
    Rules: manual p20 (active abilities: cost), p23, p26, p27.
    """

    stamina: int = 0
    essence: int = 0
    health: int = 0
    destroy: str | None = None
    marker: bool = False

    def __post_init__(self) -> None:
        for name in ("stamina", "essence", "health"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 9:
                raise RulesError(name, f"a cost is a whole number 0-9, got {value!r}")
        if self.destroy is not None:
            _one_of("destroy", self.destroy, DESTROY_COSTS, "destroy cost")
        _flag("marker", self.marker)

    @property
    def destroys_space(self) -> bool:
        """Whether the cost destroys an adjacent space the player names (manual p23)."""
        return self.destroy is not None and self.destroy != "card"


def _one_of(argument: str, value: object, allowed: Collection[str], what: str) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise RulesError(argument, f"unknown {what} {shown(value)}{did_you_mean(value, allowed)}; "
                         f"expected one of {', '.join(allowed)}")


@dataclass(frozen=True)
class Targeting:
    """A targeting icon and what it may be played on (manual p22-23).

    ``second`` is the kind of a second target, with the same icon and range, for
    abilities that ask for two; the same unit may be named both times (manual p23).
    Rules: manual p23 (melee, ranged, ranged through, two targets), p16 (monsters target
    explorers unless the ability says otherwise).
    """

    kind: str = "none"
    range: int = 0
    target: str = "explorer"
    second: str | None = None

    def __post_init__(self) -> None:
        _one_of("kind", self.kind, TARGETING_KINDS, "targeting")
        _one_of("target", self.target, TARGET_KINDS, "target kind")
        if self.second is not None:
            _one_of("second", self.second, TARGET_KINDS, "target kind")
            if self.kind == "none":
                raise RulesError("second", "a second target needs a targeting icon (manual p23)")
        _whole("range", self.range, 0, MAX_RANGE)
        if self.kind in ("ranged", "ranged_through") and self.range < 1:
            raise RulesError("range", f"a {self.kind} icon needs its range X, 1..{MAX_RANGE} "
                             "(manual p23)")


@dataclass(frozen=True)
class Effect:
    """One effect from the fixed vocabulary :data:`EFFECT_OPS`, with its parameters.

    ``high``/``low``/``arcane`` describe an attack roll; ``amount`` the size of a
    change (health, threat, push distance, effect-roll threshold, count);
    ``scope`` whom it lands on (:data:`SCOPES`); ``then``/``otherwise`` the
    branches of a conditional, effect roll or counted condition; ``stacks`` the
    lasting-effect stack limit; ``attributes`` those an ``attribute_modifier``
    changes (:data:`MODIFIED_ATTRIBUTES`); ``also``: a ``treat_space`` keeps the space's
    kind and adds the features of ``key`` (a chest also an exploding barrel, p35);
    ``up_to``: a push or pull worded "up to N" — the players choose the distance
    0..N — where a plain "push N" goes as far as it can (switch push.blocked).
    Rules: manual p24-27 (effects), p21-22 (map-tile scope), p25 (push, pull), p35 (treat
    map space); switch push.blocked.
    """

    op: str
    scope: str = "target"
    high: int = 0
    low: int = 0
    arcane: bool = False
    amount: int = 0
    condition: str | None = None
    then: tuple[Effect, ...] = ()
    otherwise: tuple[Effect, ...] = ()
    stacks: int = 1
    key: str | None = None
    attributes: tuple[str, ...] = ()
    also: bool = False
    up_to: bool = False

    def __post_init__(self) -> None:
        _one_of("op", self.op, EFFECT_OPS, "effect")
        _one_of("scope", self.scope, SCOPES, "scope")
        _whole("high", self.high, 0, MAX_EFFECT_DICE)
        _whole("low", self.low, 0, MAX_EFFECT_DICE)
        _whole("amount", self.amount, -MAX_AMOUNT, MAX_AMOUNT)
        if self.op in COUNTED_OPS and self.amount < 0:
            raise RulesError("amount", f"'amount' of {self.op} counts something: 0..{MAX_AMOUNT}, "
                             f"got {self.amount}")
        _whole("stacks", self.stacks, 1, MAX_STACKS)
        for flag in ("arcane", "also", "up_to"):
            _flag(flag, getattr(self, flag))
        if self.key is not None and not (isinstance(self.key, str) and 0 < len(self.key) <= 64):
            raise RulesError("key", f"'key' must be a name of 1-64 characters, got "
                             f"{shown(self.key)}")
        for branch in ("then", "otherwise"):
            value = getattr(self, branch)
            if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list)) or \
                    len(value) > MAX_EFFECTS or not all(isinstance(e, Effect) for e in value):
                raise RulesError(branch, f"expected a list of at most {MAX_EFFECTS} effects, "
                                 f"got {shown(value)}")
        if isinstance(self.attributes, (str, bytes)) or not isinstance(self.attributes,
                                                                      (tuple, list)):
            raise RulesError("attributes", f"expected a list such as [\"armor\"], got "
                             f"{shown(self.attributes)}")
        if self.condition is not None:
            _one_of("condition", self.condition, CONDITIONS, "condition")
        if self.op == "conditional" and self.condition is None:
            raise RulesError("condition", "a conditional effect needs a condition (manual p26)")
        object.__setattr__(self, "then", tuple(self.then))
        object.__setattr__(self, "otherwise", tuple(self.otherwise))
        object.__setattr__(self, "attributes", tuple(self.attributes))
        for name in self.attributes:
            _one_of("attributes", name, MODIFIED_ATTRIBUTES, "attribute")
        if self.op == "attribute_modifier" and not self.attributes:
            raise RulesError("attributes", "an attribute_modifier names armor and/or will "
                             "(manual p23)")
        if self.op == "treat_space":
            _one_of("key", self.key, TREAT_KINDS, "space kind")
        elif self.also:
            raise RulesError("also", "only treat_space keeps a space's kind 'also' (manual p35)")
        if self.up_to is not False and (self.up_to is not True or self.op not in ("push", "pull")):
            raise RulesError("up_to", "only a push or a pull may read 'up to N' (true or false; "
                             "switch push.blocked)")
        if self.op == "take" and not self.key:
            raise RulesError("key", "take names the card to search for (manual p25)")
        if self.op == "shuffle_event_deck":
            _one_of("key", self.key, ("horror", "explorer"), "event deck")
        if self.op == "reset_ratings" and self.key not in (None, "spawn", "horror"):
            raise RulesError("key", "reset_ratings resets both sliders, or the one named by "
                             "key: spawn or horror (manual p28)")


@dataclass(frozen=True)
class Ability:
    """An ability: name, cost, targeting, effects; ``once_per_turn`` as printed.

    ``kind`` (:data:`ABILITY_KINDS`): ``active`` abilities are played for their
    cost; ``passive`` ones have no cost and act while their card is in play
    (their effects are :data:`PASSIVE_OPS` over :data:`PASSIVE_SCOPES`);
    ``triggered`` ones resolve every time ``trigger`` (:data:`TRIGGERS`) happens
    to their owner, paying a marker cost when they have one (manual p27).
    Rules: manual p20-21 (ability types), p26-27 (triggered conditions, marker removal),
    p16 (monsters try abilities in card order).
    """

    name: str
    cost: Cost = Cost()
    targeting: Targeting = Targeting()
    effects: tuple[Effect, ...] = ()
    once_per_turn: bool = False
    kind: str = "active"
    trigger: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise RulesError("name", f"expected the ability's name, got {shown(self.name)}")
        for part, kind in (("cost", Cost), ("targeting", Targeting)):
            if not isinstance(getattr(self, part), kind):
                raise RulesError(part, f"expected a {kind.__name__}, got "
                                 f"{shown(getattr(self, part))}")
        if isinstance(self.effects, (str, bytes)) or not isinstance(self.effects, (tuple, list)) \
                or not all(isinstance(e, Effect) for e in self.effects):
            raise RulesError("effects", f"expected a list of effects, got {shown(self.effects)}")
        object.__setattr__(self, "effects", tuple(self.effects))
        _flag("once_per_turn", self.once_per_turn)
        _one_of("kind", self.kind, ABILITY_KINDS, "ability kind")
        if (self.kind == "triggered") != (self.trigger is not None):
            raise RulesError("trigger", "a triggered ability, and only one, names its trigger "
                             "(manual p26)")
        if self.trigger is not None:
            _one_of("trigger", self.trigger, TRIGGERS, "trigger")
        if self.kind != "active" and (self.targeting.kind != "none" or self.cost.stamina or
                                      self.cost.essence or self.cost.health or
                                      self.cost.destroy):
            raise RulesError("kind", f"a {self.kind} ability has no target and no cost other "
                             "than a marker (manual p20, p27)")
        if self.kind == "passive":
            if self.cost.marker:
                raise RulesError("cost", "a passive ability has no cost (manual p20)")
            for e in self.effects:
                _one_of("effects", e.op, PASSIVE_OPS, "passive effect")
                _one_of("scope", e.scope, PASSIVE_SCOPES, "passive scope")

    @property
    def attacks(self) -> bool:
        """Whether the ability makes an attack (manual p23: melee/ranged weapon)."""
        return any(e.op == "attack" for e in _walk(self.effects))


def _walk(effects: Iterable[Effect]) -> Iterator[Effect]:
    for e in effects:
        yield e
        yield from _walk(e.then)
        yield from _walk(e.otherwise)


_ICONS = ("melee", "ranged", "ranged_through")


_EFFECT_KEYS = ("op", "scope", "high", "low", "arcane", "amount", "condition", "then",
                "otherwise", "stacks", "key", "attributes", "also", "up_to")


COST_KEYS = ("stamina", "essence", "health", "destroy", "marker")
"""Keys of an ability record's ``cost`` table (manual p20, p23, p27)."""

ABILITY_KEYS = ("text", "source", "cost", "target", "target_kind", "second", "range", "attack",
                "effects", "once_per_turn", "override", "kind", "trigger", "passive", "assumed")
"""Keys of an ability table (content/README.md); any other key is an error."""

ATTACK_KEYS = ("kind", "high", "low", "affects")
"""Keys of an ability's ``attack`` table (manual p24)."""


def _table(argument: str, value: Any, keys: Collection[str], what: str) -> dict[str, Any]:
    """A TOML table (or Record) as a dict whose keys are all in ``keys``; else RulesError."""
    if isinstance(value, Record):
        value = dict(value.items)
    if not isinstance(value, Mapping):
        raise RulesError(argument, f"{what} must be a table {{ ... }}, got {shown(value)}")
    for key in value:
        if key not in keys:
            raise RulesError(key, f"unknown key {shown(key)} in {what}{did_you_mean(key, keys)};"
                             f" expected {', '.join(keys)}")
    return dict(value)


def effects_from_records(records: Any, argument: str = "effects",
                         depth: int = 0) -> tuple[Effect, ...]:
    """A list of effect tables as :class:`Effect` values, checked; else RulesError.

    Rules: manual p24-27 (effects).
    """
    if isinstance(records, (str, bytes, Mapping, Record)) or not isinstance(records,
                                                                            (list, tuple)):
        raise RulesError(argument, f"'{argument}' must be a list of effect tables "
                         f"{{ op = ... }}, got {shown(records)}")
    if len(records) > MAX_EFFECTS:
        raise RulesError(argument, f"at most {MAX_EFFECTS} effects in one list, got "
                         f"{len(records)}")
    return tuple(effect_from_record(r, depth) for r in records)


def effect_from_record(record: Mapping[str, Any] | Record, depth: int = 0) -> Effect:
    """One effect table (``op = "attack"``, ``high = 1`` ...) as an :class:`Effect`; every key,
    type and number checked, else :class:`RulesError` naming the key.

    Rules: manual p24-27 (effects, branches nest at most :data:`MAX_NESTING` deep).
    """
    items = _table("effects", record, _EFFECT_KEYS, "an effect")
    if "op" not in items:
        raise RulesError("effects", f"an effect needs its op, one of {', '.join(EFFECT_OPS)}")
    for branch in ("then", "otherwise"):
        if branch in items:
            if depth >= MAX_NESTING:
                raise RulesError(branch, f"branches nest at most {MAX_NESTING} deep")
            items[branch] = effects_from_records(items[branch], branch, depth + 1)
    if "attributes" in items:
        attributes = items["attributes"]
        if isinstance(attributes, (str, bytes)) or not isinstance(attributes, (list, tuple)):
            raise RulesError("attributes", f"'attributes' must be a list such as [\"armor\"], "
                             f"got {shown(attributes)}")
    if "condition" in items and not isinstance(items["condition"], str):
        raise RulesError("condition", f"expected a condition name, got {shown(items['condition'])}")
    return Effect(**items)


def _cost(name: str, record: Record) -> Cost:
    cost = _table("cost", record.get("cost") or Record(()), COST_KEYS,
                  f"the cost of ability {name}")
    return Cost(cost.get("stamina", 0), cost.get("essence", 0), cost.get("health", 0),
                cost.get("destroy"), cost.get("marker", False))


def _targeting(name: str, record: Record, side: str) -> tuple[Targeting, list[Effect]]:
    target = record.get("target")
    kind = record.get("target_kind")
    if kind is not None and target not in _ICONS:
        raise RulesError("target_kind", f"ability {name}: only a melee or ranged icon takes a "
                         "target_kind")
    if "range" in record and target not in ("ranged", "ranged_through"):
        raise RulesError("range", f"ability {name}: only a ranged icon has a range (manual p23)")
    if target is None:
        if "second" in record:
            raise RulesError("second", "a second target needs a targeting icon (manual p23)")
        return Targeting(), []
    if target in _ICONS:
        if target != "melee" and "range" not in record:
            raise RulesError("target", f"ability {name}: a {target} icon needs its range "
                             f"(range = X, 1..{MAX_RANGE}; manual p23)")
        default = "explorer" if side == "monster" else "unit"
        return Targeting(target, record.get("range", 0), default if kind is None else kind,
                         record.get("second")), []
    if isinstance(target, str) and target in TARGET_KINDS:
        extra = [Effect("destroy_target")] if target in ("chest", "event", "lever") and \
            not record.get("effects") else []
        return Targeting("melee", 0, target, record.get("second")), extra
    choices = (*_ICONS, *TARGET_KINDS)
    raise RulesError("target", f"ability {name}: unknown target {shown(target)}"
                     f"{did_you_mean(target, choices)}; expected one of {', '.join(choices)}")


def _attack(record: Record, targeting: Targeting) -> Effect:
    attack = _table("attack", record["attack"], ATTACK_KEYS, "an attack")
    kind = attack.get("kind", "physical")
    _one_of("kind", kind, ("physical", "arcane"), "attack kind")
    scope = attack.get("affects", "target" if targeting.kind != "none" else "self")
    return Effect("attack", scope=scope, high=attack.get("high", 0), low=attack.get("low", 0),
                  arcane=kind == "arcane")


def _assumed(name: str, items: dict[str, Any]) -> None:
    """``assumed``: a table naming keys of this ability whose values are ours, each with why."""
    if "assumed" not in items:
        return
    assumed = items["assumed"]
    assumed = dict(assumed.items) if isinstance(assumed, Record) else assumed
    if not isinstance(assumed, Mapping) or not assumed:
        raise RulesError("assumed", f"ability {name}: 'assumed' is a table {{ key = \"why\" }} "
                         f"of the values that are ours, got {shown(assumed)}")
    for key, why in assumed.items():
        if key not in items or key == "assumed":
            raise RulesError("assumed", f"ability {name}: 'assumed' names {shown(key)}, which "
                             "the ability does not set")
        if not isinstance(why, str) or not why.strip():
            raise RulesError("assumed", f"ability {name}: say why {key!r} is assumed, in words")


def ability_from_record(name: str, record: Record, side: str) -> Ability | None:
    """An engine :class:`Ability` from an ability record (keys :data:`ABILITY_KEYS`), or
    None for a behaviour override or a passive written in words only; an unknown key, a
    wrong type or a number out of range raises :class:`RulesError` naming its key
    (manual p20-27).

    Rules: manual p20-21 (abilities), p23 (targeting, two targets), p26-27 (costs, triggers).
    """
    items = _table("ability", record, ABILITY_KEYS, f"ability {name}")
    for flag in ("passive", "override", "once_per_turn"):
        if flag in items:
            _flag(flag, items[flag])
    if "effects" in items and "attack" in items:
        raise RulesError("attack", f"ability {name}: give either 'attack' or 'effects', not both")
    record = record if isinstance(record, Record) else Record.of(items)
    if items.get("passive") or items.get("override"):
        return None
    cost = _cost(name, record)
    targeting, effects = _targeting(name, record, side)
    _assumed(name, items)
    if "effects" in items:
        effects += list(effects_from_records(record["effects"]))
    elif "attack" in items:
        effects.append(_attack(record, targeting))
    return Ability(name, cost, targeting, tuple(effects), items.get("once_per_turn", False),
                   items.get("kind", "active"), items.get("trigger"))
