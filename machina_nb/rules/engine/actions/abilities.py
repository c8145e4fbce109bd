"""Playing abilities: :class:`PlayAbility` (on the actor's turn, or outside it when it costs
no stamina), its check, legal instances and resolution side by side, with the abilities a
unit has (:func:`explorer_abilities`) and their targets (:func:`second_targets`,
:func:`play_targets`).

Rules: manual p12 (explorer turns), p18-19 (essence), p20-21 (abilities, costs, targets),
p23 (two targets, destroy costs), p26-27 (costs, markers).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence, cast

from machina_nb.rules.board.maptext import Point
from machina_nb.rules.cards.abilities import Ability
from machina_nb.rules.engine.actions.core import (Action, ActionCost, _fail, _pay, _pay_check,
                                                 check_budget, check_contributions,
                                                 check_optional_space, with_splits)
from machina_nb.rules.engine.cardplay import (explorer_cards, explorer_sources, marker_holder, marker_on,
                                              usable_items)
from machina_nb.rules.engine.effects import lose_health
from machina_nb.rules.engine.holdings import consume, destroy_card
from machina_nb.rules.engine.monsters import monster_abilities
from machina_nb.rules.engine.resolution import Resolution, resolve
from machina_nb.rules.engine.state import GameState, Lasting, Side, Unit
from machina_nb.rules.engine.targets import ability_targets, card_key, destroy_options, unpaid_cost
from machina_nb.rules.engine.triggers import return_marker
from machina_nb.rules.errors import BadArgument
from machina_nb.rules.rulings import Rules

__all__ = ["PlayAbility", "explorer_abilities", "second_targets", "play_targets"]


@dataclass(frozen=True)
class PlayAbility(Action):
    """Play ability ``index`` of :func:`explorer_abilities` (or a monster's) on ``target``.

    ``target`` is one space, or a pair of spaces for an ability with two targets
    (the same space may come twice, manual p23). ``essence`` is the most the
    actor will spend after seeing an attack roll (manual p18). ``destroy`` names
    the adjacent space a destroy cost destroys (manual p23, p26).
    """

    index: int = 0
    target: Point | tuple[Point, Point] | None = None
    essence: int = 0
    contributions: tuple[tuple[str, int], ...] = ()
    destroy: Point | None = None

    def check_arguments(self) -> None:
        super().check_arguments()
        if isinstance(self.index, bool) or not isinstance(self.index, int):
            raise BadArgument("index", f"expected the number of an ability (0, 1, ...), got "
                              f"{self.index!r:.40}")
        target = self.target
        if isinstance(target, (tuple, list)) and target and all(
                isinstance(t, (tuple, list)) for t in target):     # spaces: the rules count them
            for t in target:
                check_optional_space(t, "target")
        else:
            check_optional_space(target, "target")
        check_budget(self.essence)
        check_optional_space(self.destroy, "destroy")
        check_contributions(self.contributions)

    def verify(self, state: GameState, rules: Rules) -> None:
        """On the actor's turn, or outside it an ability that costs no stamina (p12, p20).

        Rules: manual p12 (explorer turns), p20 (abilities outside the turn).
        """
        if state.has_unit(self.actor) and state.unit(self.actor).side == Side.EXPLORER \
                and state.active != self.actor:
            u = state.unit(self.actor)
            abilities = explorer_abilities(state, u)
            if not 0 <= self.index < len(abilities) or abilities[self.index].cost.stamina:
                _fail("actor", f"outside their turn {u.id} may play only abilities that cost "
                      "no stamina", "manual p12, p20")
            _check_ability(state, u, self, rules)
            return
        super().verify(state, rules)

    def _verify(self, state: GameState, rules: Rules, u: Unit) -> None:
        _check_ability(state, u, self, rules)

    def _perform(self, r: Resolution, u: Unit) -> None:
        r.essence = self.essence
        _play(r, u, self.index, self.target, self.essence, self.contributions, self.destroy)

    @classmethod
    def options(cls, state: GameState, rules: Rules, u: Unit) -> list[Action]:
        return _abilities_for(state, rules, u, free_only=False)


def _abilities_for(state: GameState, rules: Rules, u: Unit, free_only: bool) -> list[Action]:
    """The legal plays of ``u``'s active abilities, by ability, then target (and second
    target, and the space a destroy cost names), then each way the explorers may share an
    essence cost; ``free_only`` keeps those that cost no stamina, which an explorer may play
    outside their turn.

    Rules: manual p12, p20 (abilities outside the turn), p23 (two targets, destroy costs),
    p19 (contributing explorers).
    """
    out: list[Action] = []
    for i, ability in enumerate(_abilities(state, u, rules)):
        if ability.kind != "active" or (free_only and ability.cost.stamina):
            continue
        targets = ability_targets(state, rules, u, ability)
        plays: tuple[Point | tuple[Point, Point] | None, ...] = \
            (None,) if targets is None else targets
        seconds = second_targets(state, rules, u, ability) if targets else None
        if seconds is not None:
            plays = tuple((t, s) for t in cast(tuple[Point, ...], targets) for s in seconds)      # the same twice too
        destroys = (None,) if not ability.cost.destroys_space else \
            destroy_options(state, rules, u, cast(str, ability.cost.destroy))
        for t in plays:
            points = play_targets(t)
            for d in destroys:
                out += with_splits(state, rules, PlayAbility(u.id, i, t, destroy=d),
                                   ability.cost.essence, points[0] if points else None)
    return out


def _check_ability(state: GameState, u: Unit, action: PlayAbility, rules: Rules) -> None:
    abilities = _abilities(state, u, rules)
    if not 0 <= action.index < len(abilities):
        _fail("index", f"{u.id} has no ability {action.index}", "manual p20")
    ability = abilities[action.index]
    if ability.kind != "active":
        _fail("index", f"{ability.name} is a {ability.kind} ability: it is never played",
              "manual p20 (ability types)")
    points = play_targets(action.target)
    targets = ability_targets(state, rules, u, ability)
    if targets is not None and (not points or points[0] not in targets):
        _fail("target", f"{action.target} is not a legal target of {ability.name}",
              "manual p20 (legal target), p23")
    if targets is None and points:
        _fail("target", f"{ability.name} takes no target", "manual p20")
    seconds = second_targets(state, rules, u, ability)
    if seconds is not None and (len(points) != 2 or points[1] not in seconds):
        _fail("target", f"{ability.name} needs two legal targets (the same one may come "
              f"twice), got {action.target}", "manual p23 (two targets)")
    if seconds is None and len(points) > 1:
        _fail("target", f"{ability.name} takes one target", "manual p20, p23")
    if ability.cost.health > u.health:
        _fail("actor", f"{u.id} cannot pay {ability.cost.health} health", "manual p20")
    _check_destroy_and_marker(state, rules, u, action, ability)
    target = points[0] if points else None
    _pay_check(state, rules, u, _price(ability), action.contributions, target,
               "manual p20 (cost)")


def _check_destroy_and_marker(state: GameState, rules: Rules, u: Unit, action: PlayAbility,
                              ability: Ability) -> None:
    """The destroy and marker parts of a cost are checked before anything resolves (p23, p26)."""
    cost = ability.cost
    if cost.destroys_space:
        if action.destroy is None:
            _fail("destroy", f"{ability.name} costs destroying an adjacent {cost.destroy} "
                  "space: name it", "manual p23 (advanced examples), p26 (cost)")
        if tuple(action.destroy) not in destroy_options(state, rules, u,
                                                        cast(str, cost.destroy)):
            _fail("destroy", f"{action.destroy} is not an adjacent {cost.destroy} space left to "
                  "destroy; another effect's destruction does not pay the cost",
                  "manual p23, p26 (cost, not condition)")
    elif action.destroy is not None:
        _fail("destroy", f"{ability.name} destroys no space as its cost", "manual p20 (cost)")
    problem = unpaid_cost(state, rules, u, action.index, ability)
    if problem is not None:
        _fail("index", *problem)


def _play(r: Resolution, u: Unit, index: int, target: Point | tuple[Point, Point] | None,
          essence: int,
          contributions: Sequence[tuple[str, int]], destroy: Point | None = None) -> None:
    ability = _abilities(r.state, u, r.rules)[index]
    key = card_key(r.state, u, index, ability)
    card = next((c for c in usable_items(r.state, u.id) if f"item:{c.id}" == key), None)
    points = play_targets(target)
    _pay(r, u, _price(ability), contributions,
         f"{ability.name}", "manual p20 (cost)")
    if ability.cost.health:
        lose_health(r, u.id, ability.cost.health, None, f"the cost of {ability.name}")
    _pay_destroy_and_marker(r, u, ability, key, destroy,
                            card is not None and card.type == "consumable")
    if r.state.monster_turn and r.state.monster_turn.monster == u.id:
        turn = r.state.monster_turn
        r.set(monster_turn=replace(turn, played=turn.played + (ability.name,)))
    r.emit("ability", ("plays", "plays_on", "plays_on_two")[min(len(points), 2)],
           "manual p20-21" + (", p23 (two targets)" if len(points) > 1 else ""),
           who=(u.id,), where=tuple(points[:2]), words=(ability.name,))
    user = r.state.unit(u.id) if r.state.has_unit(u.id) else None
    previous, r.card = r.card, key
    before = set(r.state.lasting)
    resolve(r, ability.effects, user, points[0] if points else None, ability.name, essence,
            points[1] if len(points) > 1 else None)
    r.card = previous
    if card is not None and card.type == "consumable" and r.state.has_unit(u.id):
        consume(r, u.id, card, marked=any(e.holder == u.id for e in r.state.lasting
                                              if e not in before))


def _price(ability: Ability) -> ActionCost:
    """The stamina and essence of an ability's printed cost (manual p20: cost)."""
    return ActionCost(stamina=ability.cost.stamina, essence=ability.cost.essence)


def _pay_destroy_and_marker(r: Resolution, u: Unit, ability: Ability, key: str,
                            destroy: Point | None, consumable: bool = False) -> None:
    """Pay a destroy cost (the named adjacent space, or the card) and a marker cost (p23, p27).
    A consumable's own card is destroyed after resolving (:func:`inv.consume`), so that a
    lasting effect it starts keeps it waiting for the marker (manual p27, p30)."""
    cost = ability.cost
    if cost.destroys_space:
        if destroy is None:
            destroy = r.choose(destroy_options(r.state, r.rules, u, cast(str, cost.destroy)),
                               f"the {cost.destroy} space {ability.name} destroys",
                               "manual p23 (cost)")
        space = tuple(destroy)
        r.set(destroyed=r.state.destroyed + (space,))
        r.emit("pay", "pays_space", "manual p23 (advanced examples), p26 (cost)", who=(u.id,),
               where=(space,), words=(str(cost.destroy), ability.name))
    if cost.destroy == "card" and not consumable:
        destroy_card(r, key, f"the cost of {ability.name}")
    if cost.marker:
        return_marker(r, cast(Lasting, marker_on(r.state, marker_holder(u), key)),
                      f"the cost of {ability.name}")


def explorer_abilities(state: GameState, unit: Unit) -> tuple[Ability, ...]:
    """An explorer's abilities: card, bound events, current explorer event, chapter,
    equipped items and held consumables.

    Passive and triggered abilities keep their place in the list but are never
    played (manual p20). Monsters use :func:`machina_nb.rules.engine.monsters.monster_abilities`.
    Rules: manual p20 (sources of active abilities), p31, p33 (items).
    """
    return tuple(a for _, abilities in explorer_cards(state, unit) for a in abilities)


def _abilities(state: GameState, unit: Unit, rules: Rules) -> tuple[Ability, ...]:
    if unit.side == Side.EXPLORER:
        return explorer_abilities(state, unit)
    return tuple(a for _, a in monster_abilities(state, unit, rules))


def second_targets(state: GameState, rules: Rules, unit: Unit,
                   ability: Ability) -> tuple[Point, ...] | None:
    """Legal second targets of a two-target ability (same icon and range), sorted; None when
    it asks for one target or none. The first target may be named again (manual p23).

    Rules: manual p23 (two targets).
    """
    t = ability.targeting
    if t.second is None:
        return None
    return ability_targets(state, rules, unit, replace(ability, targeting=replace(
        t, target=t.second, second=None)))


def play_targets(target: Any) -> tuple[Point, ...]:
    """A :class:`PlayAbility` target as a tuple of spaces: () for none, one space, or two.

    Rules: manual p20 (targets), p23 (two targets).
    """
    if target is None:
        return ()
    try:
        if len(target) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                    for v in target):
            return (tuple(target),)
        points = tuple(tuple(p) for p in target)
        if all(len(p) == 2 for p in points):
            return points
    except TypeError:
        pass
    raise BadArgument("target", f"expected a space (x, y) or a pair of spaces, got {target!r}")
