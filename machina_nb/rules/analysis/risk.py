"""Exact risk: the rest of the round up to the end of the Monster phase as a distribution.

From a position, the explorers still to act end their turns without acting, the Spawn and
Horror phases run as the state's ratings say (skipped without them; decks in their order),
then every monster in the queue takes its mindless turn. Every die is left open: the engine
raises a chance point, and each of its outcomes is played on. An attack's dice are summed
before they are used, so one pool is played once per total, not once per face sequence (the
slow reference in the tests plays every sequence and agrees). Equal states reached by
different rolls are merged, and each state is solved once.

Where the players choose (a tie, a spawn space, a target, the order of spawn rolls) the
explorers take the option that gives the least chance that any explorer is destroyed, then
the least expected health lost; the worst option for them is solved beside it.

Once an explorer is destroyed the monsters are scheming and the fallen explorers' players
move them (and an explorer moves a monster it controls): the phase is no longer the rules'
alone, so the search stops there and counts the explorers' health at that moment (the answer
says how likely that is).

Limits: at most :data:`MAX_MONSTERS` monsters in the queue and :data:`MAX_EXPLORERS`
explorers on the map (refused at once), and :data:`MAX_STATES` distinct states (refused when
reached).

Rules: manual p10 (the round), p12 (explorer turns end), p13 (spawn), p14 (horror), p15-17
(the monster phase, mindless monsters, ties), p24 (attack rolls), p15 (scheming), p3.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from machina_nb.rules.engine.actions import (
    Action,
    Choose,
    EndTurn,
    MonsterAct,
    RollHorror,
    RollSpawn,
    StartTurn,
    apply,
)
from machina_nb.rules.engine.chance import FACES, Dice, ScriptedDice, outcomes
from machina_nb.rules.engine.phases import current_monster, spawn_rollers
from machina_nb.rules.engine.state import GameState
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

__all__ = ["MAX_MONSTERS", "MAX_EXPLORERS", "MAX_STATES", "SolvedPhase", "Summary", "monster_phase",
           "check_limits", "summary_of"]

MAX_MONSTERS = 4
"""The most monsters in the queue a monster phase is computed for."""

MAX_EXPLORERS = 4
"""The most explorers on the map a monster phase is computed for."""

MAX_STATES = 20000
"""The most distinct states one monster phase may visit before the question is refused."""

Summary = tuple[tuple[int, ...], int, int, bool]
"""How a branch ends: each explorer's health (0 = destroyed), threat, level, and whether it
stopped early because the monsters became scheming."""

Dist = dict[Summary, Fraction]


@dataclass(frozen=True)
class SolvedPhase:
    """A solved phase: ``explorers`` (ids, in seating order) and their ``start`` health; the
    distribution of how it ends for the explorers' best choices (``best``) and their worst
    (``worst``); the ``choices`` the best play made, as (what, chosen, options) triples; and
    ``states``, how many distinct states were solved."""

    explorers: tuple[str, ...]
    start: tuple[int, ...]
    best: Dist
    worst: Dist
    choices: tuple[tuple[str, Any, tuple[Any, ...]], ...]
    states: int

    def destroyed(self, dist: Dist, i: int) -> Fraction:
        """The chance explorer ``i`` ends destroyed."""
        return sum((p for s, p in dist.items() if s[0][i] == 0), Fraction(0))

    def any_destroyed(self, dist: Dist) -> Fraction:
        """The chance at least one explorer is destroyed."""
        return sum((p for s, p in dist.items() if 0 in s[0]), Fraction(0))

    def health_lost(self, dist: Dist, i: int | None = None) -> Fraction:
        """The expected health lost by explorer ``i`` (or by all of them together)."""
        who = range(len(self.start)) if i is None else (i,)
        return sum((p * sum(self.start[j] - s[0][j] for j in who) for s, p in dist.items()),
                   Fraction(0))

    def health(self, dist: Dist, i: int) -> dict[int, Fraction]:
        """The distribution of explorer ``i``'s health at the end, highest first."""
        out: dict[int, Fraction] = {}
        for s, p in dist.items():
            out[s[0][i]] = out.get(s[0][i], Fraction(0)) + p
        return dict(sorted(out.items(), reverse=True))

    def marginal(self, dist: Dist, field: int) -> dict[int, Fraction]:
        """The distribution of threat (``field`` 1) or level (2) at the end."""
        out: dict[int, Fraction] = {}
        for s, p in dist.items():
            v = s[1] if field == 1 else s[2]
            out[v] = out.get(v, Fraction(0)) + p
        return dict(sorted(out.items()))

    def stopped(self, dist: Dist) -> Fraction:
        """The chance the search stopped early: an explorer fell and the monsters turned
        scheming."""
        return sum((p for s, p in dist.items() if s[3]), Fraction(0))


def check_limits(state: GameState) -> None:
    """Refuse at once a position beyond the documented limits, naming the limit."""
    if len(state.queue) > MAX_MONSTERS:
        raise RulesError("monsters", f"{len(state.queue)} monsters in the queue: the monster "
                         f"phase is computed for at most {MAX_MONSTERS}")
    if len(state.explorers_on_map) > MAX_EXPLORERS:
        raise RulesError("explorers", f"{len(state.explorers_on_map)} explorers on the map: "
                         f"the monster phase is computed for at most {MAX_EXPLORERS}")


# --- open dice, one pool at a time ------------------------------------------------------------

class _Stop(Exception):
    """The probe has seen the next chance point (a pool, or a single die) and stops."""


class _Probe(Dice):
    """After the scripted results: records the next chance point. Consecutive attack dice of
    one reason form a pool (high dice first, then low); they get a stand-in face so the pool's
    size is known, and the run stops at the next other roll. A single die stops at once."""

    def __init__(self) -> None:
        super().__init__()
        self.pool: list[str] = []
        self.reason = ""
        self.single: str | None = None
        self.stopped = False

    def _roll(self, die: str, reason: str) -> int:
        if die in ("high", "low"):
            fresh = not self.pool
            joins = not fresh and reason == self.reason and not (
                self.pool[-1] == "low" and die == "high")
            if fresh or joins:
                self.pool.append(die)
                self.reason = reason
                return min(FACES[die])
        if not self.pool:
            self.single = die
        raise _Stop

    def _permutation(self, n: int, reason: str) -> list[int]:
        return list(range(n))


def pool_totals(pool: tuple[str, ...]) -> dict[int, tuple[Fraction, tuple[int, ...]]]:
    """Each total of a pool of dice with its chance and one face sequence that rolls it.

    Rules: manual p24 (the attack roll: the dice are summed).
    """
    totals: dict[int, tuple[Fraction, tuple[int, ...]]] = {0: (Fraction(1), ())}
    for die in pool:
        nxt: dict[int, tuple[Fraction, tuple[int, ...]]] = {}
        for total, (p, faces) in totals.items():
            for value, q in outcomes(die):
                was = nxt.get(total + value)
                nxt[total + value] = ((was[0] if was else 0) + p * q,
                                      was[1] if was else faces + (value,))
        totals = nxt
    return totals


def action_outcomes(state: GameState, action: Action, rules: Rules,
                    prefix: tuple[int, ...] = ()) -> Iterator[tuple[Fraction, GameState]]:
    """Each state ``action`` can lead to with its chance (not yet merged), every die open; an
    attack pool is played once per total.

    Rules: manual p4-5 (dice), p24 (attack rolls).
    """
    probe = _Probe()
    after = state
    try:
        after, _ = apply(state, action, rules, ScriptedDice(prefix, then=probe))
    except _Stop:
        probe.stopped = True
    branches: list[tuple[Fraction, tuple[int, ...]]]
    if probe.pool:
        branches = [(p, faces) for p, faces in pool_totals(tuple(probe.pool)).values()]
    elif probe.single is not None:
        branches = [(p, (v,)) for v, p in outcomes(probe.single)]
    else:
        yield Fraction(1), after
        return
    for p, faces in branches:
        if probe.pool and not probe.stopped and faces == tuple(min(FACES[d]) for d in probe.pool):
            yield p, after          # the probe's own run rolled this total already
            continue
        for q, s in action_outcomes(state, action, rules, prefix + faces):
            yield p * q, s


# --- the graph of states ----------------------------------------------------------------------

class _Key:
    """A state with its hash computed once from the fields a phase changes; equal only when the
    states are equal."""

    __slots__ = ("state", "hash")

    def __init__(self, state: GameState):
        self.state = state
        self.hash = hash((state.round, state.phase, state.active, state.done, state.dead,
                          state.monster_turn, state.threat, state.level, state.spawn_rating,
                          state.horror_rating, state.borders, state.destroyed,
                          tuple((u.id, u.position, u.health, u.stamina) for u in state.units)))

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Key) and (other.state is self.state or
                                            other.state == self.state)


Children = tuple[tuple[Fraction, _Key], ...]
End = tuple[str, Summary]
Chance = tuple[str, Children]
Pick = tuple[str, str, tuple[tuple[Any, Children], ...]]
Node = End | Chance | Pick


def summary_of(state: GameState, explorers: tuple[str, ...], stopped: bool) -> Summary:
    """Each explorer's health (0 once destroyed), threat, level, and the early stop."""
    health = tuple(state.unit(e).health if state.has_unit(e) and e not in state.dead else 0
                   for e in explorers)
    return health, state.threat, state.level, stopped


def _next(state: GameState, rules: Rules, first_round: int
          ) -> tuple[str, Any] | None:
    """What comes next: ("act", action), ("order", actions the players order), ("stop", None)
    when the monsters turn scheming, or None at the end of the phase.

    Rules: manual p12 (explorers end their turns), p13 (spawn rolls), p14 (the horror roll),
    p15 (the queue; scheming and controlled monsters are moved by the players).
    """
    if state.over or state.round != first_round:
        return None
    if state.phase == "explorer":
        if state.active is not None:
            return "act", EndTurn(state.active)
        waiting = [e for e in state.explorers_on_map if e.id not in state.done]
        return ("act", StartTurn(waiting[0].id)) if waiting else None
    if state.phase == "spawn":
        rollers = spawn_rollers(state, rules)
        if len(rollers) > 1:
            return "order", tuple(RollSpawn(e.id) for e in rollers)
        return ("act", RollSpawn(rollers[0].id)) if rollers else None
    if state.phase == "horror":
        return "act", RollHorror()
    m = current_monster(state)
    if m is None:
        return None
    return ("stop", None) if state.player_driven(m) else ("act", MonsterAct(m))


class _Graph:
    """The states of the phase, each expanded once (memoised on the state's value)."""

    def __init__(self, rules: Rules, explorers: tuple[str, ...], first_round: int):
        self.rules, self.explorers, self.first_round = rules, explorers, first_round
        self.nodes: dict[_Key, Node] = {}

    def merged(self, pairs: Iterator[tuple[Fraction, GameState]]) -> Children:
        out: dict[_Key, Fraction] = {}
        for p, s in pairs:
            k = _Key(s)
            out[k] = out.get(k, Fraction(0)) + p
        return tuple((p, k) for k, p in out.items())

    def expand(self, root: GameState) -> _Key:
        """Expand every state reachable from ``root`` (iteratively); returns the root's key."""
        top = _Key(root)
        todo = [top]
        while todo:
            key = todo.pop()
            if key in self.nodes:
                continue
            if len(self.nodes) >= MAX_STATES:
                raise RulesError("states", f"the monster phase reaches more than {MAX_STATES} "
                                 "distinct states: too many to compute exactly")
            node = self._node(key.state)
            self.nodes[key] = node
            todo += [k for _, k in _children(node)]
        return top

    def _node(self, state: GameState) -> Node:
        """One state's node: its end, its chance outcomes, or the players' options."""
        if state.decision is not None:
            options = tuple((o, self.merged(action_outcomes(state, Choose(option=o), self.rules)))
                            for o in state.decision.options)
            return "pick", state.decision.what, options
        nxt = _next(state, self.rules, self.first_round)
        if nxt is None or nxt[0] == "stop":
            return "end", summary_of(state, self.explorers, nxt is not None)
        if nxt[0] == "order":
            options = tuple((a.actor, self.merged(action_outcomes(state, a, self.rules)))
                            for a in nxt[1])
            return "pick", "the explorer who rolls for spawn next", options
        return "chance", self.merged(action_outcomes(state, nxt[1], self.rules))



def _children(node: Node) -> Children:
    """Every child of a node, over all its options."""
    if node[0] == "chance":
        return node[1]  # type: ignore[return-value]
    if node[0] == "pick":
        return tuple(c for _, kids in node[2] for c in kids)  # type: ignore[misc]
    return ()


# --- solving: the explorers' best choices and their worst -------------------------------------

def _score(dist: Dist, start: tuple[int, ...]) -> tuple[Fraction, Fraction]:
    """What the explorers minimise: the chance any is destroyed, then expected health lost."""
    anyone = sum((p for s, p in dist.items() if 0 in s[0]), Fraction(0))
    lost = sum((p * (sum(start) - sum(s[0])) for s, p in dist.items()), Fraction(0))
    return anyone, lost


class _Solver:
    """Each node's distribution of ends, the players choosing by ``better``; memoised."""

    def __init__(self, graph: _Graph, start: tuple[int, ...],
                 better: Callable[[tuple[Fraction, Fraction], tuple[Fraction, Fraction]], bool]):
        self.graph, self.start, self.better = graph, start, better
        self.memo: dict[_Key, Dist] = {}
        self.chosen: dict[_Key, int] = {}

    def mix(self, children: Children) -> Dist:
        out: Dist = {}
        for p, k in children:
            for s, q in self.solve(k).items():
                out[s] = out.get(s, Fraction(0)) + p * q
        return out

    def solve(self, key: _Key) -> Dist:
        if key in self.memo:
            return self.memo[key]
        node = self.graph.nodes[key]
        if node[0] == "end":
            dist: Dist = {node[1]: Fraction(1)}  # type: ignore[dict-item]
        elif node[0] == "chance":
            dist = self.mix(node[1])  # type: ignore[arg-type]
        else:
            best, dist = 0, {}
            for i, (_, kids) in enumerate(node[2]):  # type: ignore[misc]
                d = self.mix(kids)
                if i == 0 or self.better(_score(d, self.start), _score(dist, self.start)):
                    best, dist = i, d
            self.chosen[key] = best
        self.memo[key] = dist
        return dist

    def choices(self, root: _Key) -> tuple[tuple[str, Any, tuple[Any, ...]], ...]:
        """The choices made on the way, in the order first met, each once."""
        seen, todo = {root}, [root]
        out: list[tuple[str, Any, tuple[Any, ...]]] = []
        while todo:
            key = todo.pop(0)
            node = self.graph.nodes[key]
            if node[0] == "pick":
                options = tuple(_named(key.state, o) for o, _ in node[2])  # type: ignore[misc]
                pick = options[self.chosen[key]]
                what = str(node[1])
                if len(options) > 1 and (what, pick, options) not in out:
                    out.append((what, pick, options))
                kids = node[2][self.chosen[key]][1]  # type: ignore[misc]
            else:
                kids = _children(node)
            for p, k in kids:
                if p and k not in seen:
                    seen.add(k)
                    todo.append(k)
        return tuple(out)


def _named(state: GameState, option: Any) -> Any:
    """An option that is a space with a unit on it, as that unit's id."""
    if isinstance(option, tuple) and len(option) == 2 and all(isinstance(v, int) for v in option):
        unit = state.unit_at(option)
        return unit.id if unit is not None else option
    return option


def monster_phase(state: GameState, rules: Rules) -> SolvedPhase:
    """The rest of the round from ``state`` up to the end of the Monster phase, exactly.

    Rules: manual p10 (the round), p12-15, p16 (the explorers resolve ties), p24 (attacks).
    """
    check_limits(state)
    explorers = tuple(e.id for e in state.explorers_on_map)
    start = tuple(state.unit(e).health for e in explorers)
    graph = _Graph(rules, explorers, state.round)
    root = graph.expand(state)
    best = _Solver(graph, start, lambda a, b: a < b)
    worst = _Solver(graph, start, lambda a, b: a > b)
    return SolvedPhase(explorers, start, best.solve(root), worst.solve(root), best.choices(root),
                 len(graph.nodes))
