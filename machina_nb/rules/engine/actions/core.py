"""The core of the state machine: the :class:`Action` base, the shared checks and payment,
:func:`check` and :func:`apply`.

Every kind of action is a subclass of :class:`Action` in the module of its subject
(:mod:`.movement`, :mod:`.maptiles`, :mod:`.spaces`, :mod:`.abilities`, :mod:`.items`,
:mod:`.turns`), its check, its legal instances and its resolution side by side;
:mod:`.kinds` lists them in the documented order. :class:`Choose` lives here because
:func:`apply` resumes the decision it answers.

Rules: manual p12 (explorer actions and costs), p16 (the players choose), p18-19 (essence,
contributing explorers).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace
from itertools import product
from typing import Any, ClassVar, NoReturn, Sequence, cast

from machina_nb.rules.board.graph import pair
from machina_nb.rules.board.maptext import Point
from machina_nb.rules.board.terrain import adjacent
from machina_nb.rules.engine.chance import Dice, OpenDice
from machina_nb.rules.engine.phases import advance, current_monster
from machina_nb.rules.engine.resolution import Event, NeedChoice, Resolution
from machina_nb.rules.engine.state import Decision, GameState, PhaseName, Side, Unit
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.cite import Cite
from machina_nb.rules.errors import BadArgument, IllegalAction, RulesError
from machina_nb.rules.rulings import Rules, check_rules

__all__ = ["ActionCost", "Action", "Choose", "check", "apply", "contributors", "essence_splits",
           "with_splits", "check_state", "check_budget", "check_optional_space",
           "check_contributions"]


@dataclass(frozen=True)
class ActionCost:
    """What an action costs its actor: ``stamina``, and ``essence`` that contributing
    explorers may share (manual p19). Each cost constant cites its page where it is declared.

    An ability's printed cost (:class:`machina_nb.rules.cards.abilities.Cost`) has the same
    two fields, so the payment helpers take either.
    Rules: manual p12 (explorer actions and costs), p18-19 (essence).
    """

    stamina: int
    essence: int = 0


@dataclass(frozen=True)
class Action:
    """An action by ``actor`` (a unit id, or ``players`` for the horror roll).

    ``choices`` answer, in order, the choices its resolution raises (a tied
    spawn space, a target, where a slide goes...): each is used where it fits.
    Each kind owns its rule: :meth:`verify` refuses it when illegal now, :meth:`perform`
    resolves it, and :meth:`options` lists its legal instances for a unit (what
    :func:`legal_actions` offers). An action taken on its actor's turn (the default)
    implements ``_verify`` and ``_perform`` for that unit.
    Rules: manual p12 (explorer actions), p16 (the explorers resolve ambiguities).
    """

    actor: str
    choices: tuple[Any, ...] = field(default=(), kw_only=True)

    closes_item_window: ClassVar[bool] = True
    """Taking it ends the free inventory steps after a workbench or recharge (manual p33, p37)."""

    def check_arguments(self) -> None:
        """Raise :class:`BadArgument` naming the field if a field is not of its kind (the
        actor's id not text, a space not two whole numbers...); each kind adds its fields."""
        if not isinstance(self.actor, str):
            raise BadArgument("actor", f"expected a unit's id, got {_kind(self.actor)}")
        if not isinstance(self.choices, (tuple, list)):
            raise BadArgument("choices", f"expected a list of answers, got {_kind(self.choices)}")

    def verify(self, state: GameState, rules: Rules) -> None:
        """Raise :class:`IllegalAction` (a :class:`RulesError`) naming the broken rule if this
        action is illegal now.

        Rules: manual p12 (explorer turns), p15 (queue).
        """
        self._verify(state, rules, _require_turn(state, self))

    def perform(self, r: Resolution) -> None:
        """Resolve this (checked) action into ``r``."""
        if r.state.item_window is not None and self.closes_item_window:
            r.set(item_window=None)     # the free inventory steps end with any other action
        self._perform(r, r.state.unit(self.actor))

    def _verify(self, state: GameState, rules: Rules, u: Unit) -> None:
        raise BadArgument("action", f"unknown action {type(self).__name__}")

    def _perform(self, r: Resolution, u: Unit) -> None:
        raise BadArgument("action", f"unknown action {type(self).__name__}")

    @classmethod
    def options(cls, state: GameState, rules: Rules, u: Unit) -> list[Action]:
        """The legal instances of this kind for ``u`` on its turn, in the documented order."""
        return []


@dataclass(frozen=True)
class Choose(Action):
    """The players answer the decision the game waits on with ``option`` (manual p16); its
    ``choices``, like any action's, answer the choices that come after it.

    Legal only while the state carries a :class:`~machina_nb.rules.engine.state.Decision`,
    and then the only legal kind of action.
    """

    actor: str = "players"
    option: object = None

    def verify(self, state: GameState, rules: Rules) -> None:
        """One of the options of the decision the game waits on (manual p16)."""
        decision = state.decision
        if decision is None:
            _fail("action", "there is no choice to make now", "manual p16")
        if self.option not in decision.options:
            _fail("option", f"{self.option!r} is not one of the options for {decision.what}",
                  decision.rule)

    def perform(self, r: Resolution) -> None:
        """Never resolved on its own: :func:`apply` resumes the decision's action."""
        raise BadArgument("action", "a choice resumes the action that asked for it")


def _kind(value: object) -> str:
    return "nothing" if value is None else f"a {type(value).__name__}"


def check_state(state: object, rules: object) -> None:
    """Refuse a ``state`` that is not a :class:`GameState` or ``rules`` not a :class:`Rules`."""
    if not isinstance(state, GameState):
        raise BadArgument("state", f"expected a game state (new_game(...)), got {_kind(state)}")
    check_rules(rules)


def check_budget(value: object, argument: str = "essence") -> None:
    """Refuse an essence budget that is not a whole number 0-9 (an explorer holds at most 9)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 9:
        raise BadArgument(argument, f"expected an essence budget 0-9, got {value!r:.40}")


def check_optional_space(value: object, argument: str) -> None:
    """Refuse ``value`` unless it is None or an (x, y) space of two whole numbers."""
    if value is not None:
        pair(value, argument)


def check_contributions(value: object) -> None:
    """Refuse contributions that are not a list of (explorer id, whole amount) pairs."""
    if not isinstance(value, (tuple, list)) or not all(
            isinstance(c, (tuple, list)) and len(c) == 2 and isinstance(c[0], str)
            and isinstance(c[1], int) and not isinstance(c[1], bool) for c in value):
        raise BadArgument("contributions", f"expected a list of (explorer id, essence) pairs, "
                          f"got {value!r:.40}")


def _fail(argument: str, message: str, rule: str | Cite) -> NoReturn:
    raise IllegalAction(argument, message, rule if isinstance(rule, Cite) else Cite.parse(rule))


def _require_turn(state: GameState, action: Action) -> Unit:
    if state.over:
        _fail("action", f"the game is over ({state.over})", "manual p3")
    u = state.unit(action.actor) if state.has_unit(action.actor) else \
        _fail("actor", f"no unit {action.actor!r} in play", "manual p12")
    if u.side == Side.EXPLORER:
        if state.phase != PhaseName.EXPLORER or state.active != u.id:
            _fail("actor", f"it is not {u.id}'s turn", "manual p12 (explorer turns)")
    else:
        if state.phase != PhaseName.MONSTER or current_monster(state) != u.id:
            _fail("actor", f"it is not {u.id}'s turn", "manual p15 (queue)")
        if not state.player_driven(u.id):
            _fail("actor", f"{u.id} is mindless: step it with MonsterAct",
                  "manual p15-16 (mindless)")
    return u


def contributors(state: GameState, rules: Rules, actor: str,
                 target: Point | None) -> tuple[str, ...]:
    """Explorers who may pay part of an essence cost, in seating order (manual p19).

    A breadth-first search over explorer-explorer adjacency, seeded by the
    activating explorer and every explorer adjacent to the target space.
    Rules: manual p19 (contributing explorers).
    """
    board = state.static_board()
    explorers = state.explorers_on_map
    me = state.unit(actor)
    seeds = {me.id} | {e.id for e in explorers if target is not None and e.id != me.id and
                       adjacent(board, cast(Point, e.position), target, rules)}
    seen, frontier = set(seeds), deque(seeds)
    while frontier:
        a = state.unit(frontier.popleft())
        for e in explorers:
            if e.id not in seen and adjacent(board, cast(Point, a.position),
                                             cast(Point, e.position), rules):
                seen.add(e.id)
                frontier.append(e.id)
    return tuple(e.id for e in explorers if e.id in seen and e.id != actor)


def _chain_holds(state: GameState, rules: Rules, actor: str, target: Point | None,
                 payers: Sequence[str]) -> bool:
    """Whether every explorer in ``payers`` is adjacent to the target space, to ``actor`` or
    to another of ``payers`` who is (switch ``contribution.chain``: ``through_contributors``,
    the default; ``any_explorer`` lets an explorer who pays nothing link the chain, which
    :func:`contributors` already checks).

    Rules: manual p19 (contributing explorers); switch contribution.chain.
    """
    if rules["contribution.chain"] == "any_explorer":
        return True
    board = state.static_board()
    me = state.unit(actor)

    def near(a: Point | None, b: Point | None) -> bool:
        return a is not None and b is not None and adjacent(board, a, b, rules)
    left = {who: state.unit(who).position for who in payers}
    linked = [me.position] + ([target] if target is not None else [])
    grown = True
    while grown and left:
        grown = False
        for who, at in list(left.items()):
            if any(near(at, p) for p in linked):
                linked.append(left.pop(who))
                grown = True
    return not left


def essence_splits(state: GameState, rules: Rules, actor: str, essence: int,
                   target: Point | None) -> tuple[tuple[tuple[str, int], ...], ...]:
    """Every way the explorers may pay an essence cost of ``essence`` for ``actor``: each a
    tuple of (contributor, amount) pairs naming only those who pay, in seating order, the
    actor paying the rest from their own essence. The actor alone (``()``) comes first when
    they can pay it, then the splits by the essence contributed, least first.

    With ``k`` explorers who may contribute (at most 3: four explorers play) there are at
    most C(essence + k, k) splits: 35 for sealing a spawn space with 4 essence. A cost of
    no essence, or a monster's, has the one split ``()``.
    Rules: manual p19 (contributing explorers; the activating explorer need pay none of it);
    switch contribution.chain.
    """
    me = state.unit(actor)
    if essence <= 0 or me.side != "explorer":
        return ((),)
    helpers = contributors(state, rules, actor, target)
    ranges = [range(min(state.unit(h).essence, essence) + 1) for h in helpers]
    found: list[tuple[int, tuple[tuple[str, int], ...]]] = []
    for amounts in product(*ranges):
        given = sum(amounts)
        if given > essence or me.essence < essence - given:
            continue
        split = tuple((h, n) for h, n in zip(helpers, amounts) if n)
        if _chain_holds(state, rules, actor, target, [h for h, _ in split]):
            found.append((given, split))
    return tuple(split for _, split in sorted(found, key=lambda f: f[0]))


def with_splits(state: GameState, rules: Rules, action: Action, essence: int,
                target: Point | None) -> list[Action]:
    """``action`` (which has a ``contributions`` field) once for each of
    :func:`essence_splits`, or none when it is illegal now.

    The splits differ only in who pays the essence and each is payable, so one check
    of the first decides them all.
    Rules: manual p19 (contributing explorers).
    """
    splits = essence_splits(state, rules, action.actor, essence, target)
    if not splits or not _if_legal(state, rules,
                                  replace(action, contributions=splits[0])):  # type: ignore[call-arg]
        return []
    return [replace(action, contributions=split) for split in splits]  # type: ignore[call-arg]


def _pay_check(state: GameState, rules: Rules, u: Unit, cost: ActionCost,
               contributions: Sequence[tuple[str, int]], target: Point | None,
               rule: str) -> None:
    """Refuse an action ``u`` cannot pay: its stamina, and the essence left after the
    contributions, each from an eligible contributor (``rule`` names the cost's page).

    Rules: manual p12 (costs), p19 (contributing explorers).
    """
    stamina, essence = cost.stamina, cost.essence
    if u.stamina < stamina:
        _fail("actor", f"{u.id} has {u.stamina} stamina, needs {stamina}", rule)
    if essence == 0 and contributions:
        _fail("contributions", "nothing to contribute to", "manual p19")
    given = 0
    if contributions:
        allowed = contributors(state, rules, u.id, target)
        for who, amount in contributions:
            if who not in allowed:
                _fail("contributions", f"{who} is not adjacent to the target space, to "
                      f"{u.id} or to another contributor", "manual p19 (contributing explorers)")
            if amount < 1 or state.unit(who).essence < amount:
                _fail("contributions", f"{who} cannot pay {amount} essence (a contributor "
                      "pays at least 1)", "manual p19")
            given += amount
        payers = [who for who, _ in contributions]
        if len(set(payers)) != len(payers):
            _fail("contributions", "each contributor is named once", "manual p19")
        if not _chain_holds(state, rules, u.id, target, payers):
            _fail("contributions", f"each contributor must be adjacent to the target space, to "
                  f"{u.id} or to another explorer who contributes",
                  "manual p19 (contributing explorers); switch contribution.chain")
    if given > essence:
        _fail("contributions", f"contributions {given} exceed the cost {essence}", "manual p19")
    if u.essence < essence - given:
        _fail("actor", f"{u.id} has {u.essence} essence, needs {essence - given} "
              f"(after contributions)", rule)


def _pay(r: Resolution, u: Unit, cost: ActionCost,
         contributions: Sequence[tuple[str, int]], why: str, rule: str) -> None:
    """``u`` pays ``cost`` for ``why``, the contributors first (``rule`` names the cost's page).

    Rules: manual p12 (costs), p19 (contributing explorers).
    """
    stamina, essence = cost.stamina, cost.essence
    given = 0
    for who, amount in contributions:
        if amount:
            c = r.state.unit(who)
            r.state = r.state.update_unit(who, essence=c.essence - amount)
            r.emit("essence", "contributes", "manual p19 (contributing explorers)", who=(who,),
                   amounts=(amount,), cause=why)
            given += amount
    me = r.state.unit(u.id)
    r.state = r.state.update_unit(u.id, stamina=me.stamina - stamina,
                                  essence=me.essence - (essence - given))
    own = essence - given       # what the contributors left to the actor (manual p19)
    r.emit("pay", "pays_essence" if own else "pays", rule, who=(u.id,),
           amounts=(stamina, own) if own else (stamina,), cause=why)


def _if_legal(state: GameState, rules: Rules, action: Action) -> list[Action]:
    try:
        check(state, action, rules)
    except RulesError:
        return []
    return [action]


def check(state: GameState, action: Action, rules: Rules) -> None:
    """Raise :class:`RulesError` naming the broken rule if ``action`` is illegal now.

    Rules: manual p3 (the game's end), p12 (explorer actions and costs).
    """
    check_state(state, rules)
    if not isinstance(action, Action):
        raise BadArgument("action", f"expected an Action, got {type(action).__name__}")
    action.check_arguments()
    if state.over:
        _fail("action", f"the game is over ({state.over})", "manual p3")
    if state.decision is not None and not isinstance(action, Choose):
        _fail("action", f"the players must first choose {state.decision.what}",
              state.decision.rule)
    action.verify(state, rules)


def apply(state: GameState, action: Action, rules: Rules,
          dice: Dice | None = None) -> tuple[GameState, tuple[Event, ...]]:
    """The state after ``action`` and the events it caused, each citing its rule.

    Illegal actions raise :class:`RulesError` naming the rule; an open roll raises
    :class:`~machina_nb.rules.engine.chance.ChanceNode` (``state`` is immutable, so it is
    unchanged in both cases). When the players must choose and ``action.choices`` holds
    no answer, the result is the state before the action carrying the
    :class:`~machina_nb.rules.engine.state.Decision`, with the events so far; a
    :class:`Choose` then resumes the action with the same die results.
    Rules: manual p10-37 (see the module docstring), p16 (the players choose).
    """
    check(state, action, rules)
    dice = dice if dice is not None else OpenDice()
    if isinstance(action, Choose):
        decision = cast(Decision, state.decision)
        chosen = replace(decision.action, choices=decision.action.choices + (action.option,)
                         + action.choices)
        return _resolve(replace(state, decision=None), chosen, rules,
                        _Resume(decision.rolls, dice), decision.reported)
    return _resolve(state, action, rules, dice, 0)


def _resolve(state: GameState, action: Action, rules: Rules, dice: Dice,
             reported: int) -> tuple[GameState, tuple[Event, ...]]:
    """Resolve a checked action, then the phases; pause at an unanswered choice (p16)."""
    start = len(dice.record)
    r = new_resolution(state, rules, dice, action.choices, action.actor)
    try:
        action.perform(r)
        advance(r)
    except NeedChoice as need:
        decision = Decision(need.what, need.options, need.rule, action,
                            tuple(dice.record[start:]), len(r.events))
        return replace(state, decision=decision), tuple(r.events[reported:])
    return r.state, tuple(r.events[reported:])


class _Resume(Dice):
    """The die results of a paused resolution again, in order, then the caller's dice (which
    record the new results, so a history can replay the choice)."""

    def __init__(self, rolls: tuple[int | tuple[int, ...], ...], then: Dice) -> None:
        super().__init__()
        self.script: list[Any] = list(rolls)
        self.then = then

    def _roll(self, die: str, reason: str) -> int:
        return cast(int, self.script.pop(0)) if self.script else self.then.roll(die, reason)

    def _permutation(self, n: int, reason: str) -> list[int]:
        if self.script:
            return list(self.script.pop(0))
        order = self.then._permutation(n, reason)
        self.then.record.append(tuple(order))
        return order
