"""The fast paths of the monster's planning give the answers of the plain ones (manual p15-17, p22, p34).

Each fast path (step lists shared between tables, one backwards search for every walking
distance, searches kept per question, plans found again by the state object) is checked
against the plain computation it replaces, on generated boards and monster phases.
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from dataclasses import replace

from engine_cases import CLAW, explorer, monster
from hypothesis import given, settings
from hypothesis import strategies as st
from test_board_properties import boards, movement_rulings
from test_sight import board_of

from machina_nb.rules.board.distance import (
    GrowingDistances,
    Mover,
    closest,
    closest_distances_from,
    closest_steps,
    closest_view,
    nearest_by_walking,
    step_lists,
    steps,
    walking_distance,
    walking_distances,
)
from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.maptext import SpaceKind, parse_map
from machina_nb.rules.engine import monsters
from machina_nb.rules.engine.actions import apply, legal_actions
from machina_nb.rules.engine.chance import SeededDice
from machina_nb.rules.engine.phases import current_monster
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.state import MonsterTurn
from machina_nb.rules.rulings import Rules

closest_rulings = st.builds(
    lambda d, q, p, i: Rules().replace({"move.diagonal": d, "move.squeeze": q,
                                        "closest.pits": p, "closest.immobile_units": i}),
    st.sampled_from(["follow_los", "no_corner_cut", "one_L_open"]),
    st.sampled_from(["allowed", "blocked_if_both", "blocked_if_either"]),
    st.sampled_from(["count_through", "avoid"]),
    st.sampled_from(["obstacle", "ignore", "rubble"]),
)


# --- the board: tables and searches -------------------------------------------------------------


@st.composite
def roomy_texts(draw, largest: int = 8) -> str:
    """Map text mostly of floor and open borders, with rubble, chests, pits, traps, walls and
    doors here and there: room for paths with ties."""
    w, h = draw(st.integers(3, largest)), draw(st.integers(3, largest))
    cells = draw(st.lists(st.sampled_from("........rcot"), min_size=w * h, max_size=w * h))
    walls = draw(st.lists(st.sampled_from("     |dD"), min_size=2 * w * h, max_size=2 * w * h))
    text = "+" + "-+" * w + "\n"
    for y in range(h):
        text += "|" + "".join(cells[y * w + x] + ("|" if x == w - 1 else walls[y * w + x])
                              for x in range(w)) + "\n"
        ends = "".join(walls[w * h + y * w + x].replace("|", "-") + "+" for x in range(w))
        text += ("+" + ends if y < h - 1 else "+" + "-+" * w) + "\n"
    return text


@settings(max_examples=100, deadline=None)
@given(boards(), closest_rulings, st.data())
def test_manual_p22_closest_tables_equal_the_closest_view_and_ranking(board, rules, data):
    view, lists = closest_view(board, rules), closest_steps(board, rules)
    for p in board:
        assert lists[p] == (tuple(sorted(view[p])) if p in view else ())
    start = data.draw(st.sampled_from(sorted(board)))
    ranking = closest(board, start, sorted(board), rules, {"U0"})
    assert closest_distances_from(board, start, rules, {"U0"}) == dict(ranking.distances)


@settings(max_examples=100, deadline=None)
@given(st.one_of(boards(), roomy_texts(10).map(board_of)), closest_rulings, st.data())
def test_manual_p22_distances_searched_as_far_as_asked_equal_the_whole_search(board, rules, data):
    """Asking for some spaces first, in any order, or for every space up to a depth, gives the
    distances of the search over the whole board (manual p22)."""
    start = data.draw(st.sampled_from(sorted(board)))
    whole = dict(closest(board, start, sorted(board), rules, {"U0"}).distances)
    growing = closest_distances_from(board, start, rules, {"U0"})
    for p in data.draw(st.lists(st.sampled_from(sorted(board)), max_size=6)):
        assert growing.get(p) == whole.get(p) and (p in growing) is (p in whole)
    depth = data.draw(st.integers(0, 12))
    near = growing.within(depth)
    assert all(near.get(p) == d for p, d in whole.items() if d <= depth)
    assert all(whole[p] == d for p, d in near.items())
    assert dict(growing) == whole and list(growing) == sorted(whole)


@settings(max_examples=100, deadline=None)
@given(boards(), movement_rulings, st.booleans(), st.data())
def test_manual_p34_step_lists_equal_steps_from_each_space(board, rules, mindless, data):
    units = sorted(board.units())
    mover = Mover(unit=data.draw(st.sampled_from(units)) if units else None, mindless=mindless,
                  ethereal=data.draw(st.booleans()))
    each = step_lists(board, rules, mover, {"U1"})
    for p in board:
        assert each(p) == steps(board, p, rules, mover, {"U1"})


@settings(max_examples=150, deadline=None)
@given(boards(), movement_rulings, st.booleans(), st.data())
def test_manual_p16_walking_distances_found_at_once_equal_each_walk(board, rules, mindless, data):
    """One backwards search from the target's free neighbours gives every start's walking
    distance; with ``until``, exactly the starts as near as ``until`` (switch closer.metric)."""
    rules = rules.replace({"pit.voluntary_entry": data.draw(st.sampled_from(
        ["move_through_survives", "always_destroy"]))})
    units = sorted(board.units())
    mover = Mover(unit=data.draw(st.sampled_from(units)) if units else None, mindless=mindless,
                  ethereal=data.draw(st.booleans()))
    target = data.draw(st.sampled_from(sorted(board)))
    until = data.draw(st.none() | st.sampled_from(sorted(board)))
    each = {p: walking_distance(board, p, target, rules, mover, {"U1"}) for p in board}
    each = {p: w for p, w in each.items() if w is not None}
    if until in each:
        each = {p: w for p, w in each.items() if w <= each[until]}
    assert dict(walking_distances(board, target, rules, mover, {"U1"}, until)) == each


@settings(max_examples=200, deadline=None)
@given(st.one_of(boards(), roomy_texts(10).map(board_of)), closest_rulings,
       st.sampled_from(["plan", "open", "avoid"]), st.integers(0, 6), st.data())
def test_manual_p16_reach_breadth_first_equals_cheapest_first(board, rules, doors, budget, data):
    """With every step at 1 stamina, the layer-by-layer search keeps the costs and the parents
    (the path established) of the cheapest-first search (manual p16; switch path.door_cost)."""
    terrain = Board(board.terrain)
    start = data.draw(st.sampled_from(sorted(board)))
    blocked = frozenset(data.draw(st.lists(st.sampled_from(sorted(board)), max_size=4))) - {start}
    args = (terrain, rules, start, blocked, doors, 1, budget)
    assert monsters._breadth_first(*args) == monsters._cheapest_first(*args)


# --- the monster phase: the plan with and without the fast paths ---------------------------------

PLAN_SWITCHES = {
    "closer.metric": ["closest_distance", "true_path_length"],
    "path.units": ["obstacles", "ignored"],
    "mindless.blocked": ["strict", "replan_first"],
    "path.door_cost": ["free", "budgeted", "unaffordable_replan"],
    "move.diagonal": ["follow_los", "no_corner_cut", "one_L_open"],
    "move.squeeze": ["allowed", "blocked_if_both", "blocked_if_either"],
    "closest.immobile_units": ["obstacle", "ignore", "rubble"],
    "closest.pits": ["count_through", "avoid"],
    "mindless.movement": ["plan_full_budget", "greedy_step"],
    "replan.budget": ["remaining_stamina", "max_stamina"],
    "facing.orthogonal": ["tiebreak_only", "prefer_if_reachable"],
}
plan_rulings = st.fixed_dictionaries({k: st.sampled_from(v) for k, v in PLAN_SWITCHES.items()}
                                     ).map(lambda readings: Rules().replace(readings))


@st.composite
def monster_phases(draw):
    """A small map with two explorers and up to three monsters (one may be immobile), at the
    start of the monster phase."""
    text = draw(roomy_texts())
    layout = parse_map(text)
    floor = sorted((x, y) for y in range(layout.height) for x in range(layout.width)
                   if layout.space(x, y) is SpaceKind.FLOOR)
    letters = "EFMNO"[:min(len(floor), 2 + draw(st.integers(1, 3)))]
    if len(letters) < 3:
        letters = ""
    places = draw(st.permutations(floor))[:len(letters)]
    lines = text.splitlines()
    for letter, (x, y) in zip(letters, places):
        row = lines[1 + 2 * y]
        lines[1 + 2 * y] = row[:1 + 2 * x] + letter + row[2 + 2 * x:]
    legend = {"E": explorer("e", health=9), "F": explorer("f", health=draw(st.integers(1, 9)))}
    for i, letter in enumerate(letters[2:]):
        legend[letter] = monster(f"m{i}", stamina=draw(st.integers(1, 6)), abilities=(CLAW,),
                                 immobile=i == 2 and draw(st.booleans()))
    legend = {k: v for k, v in legend.items() if k in letters}
    if not legend:
        return None
    state = scenario("\n".join(lines) + "\n", legend)
    return replace(state, phase="monster", done=(), monster_turn=MonsterTurn(state.queue[0]))


def forward_walking_scores(state, rules, m, tpos, scored):
    """The plain reading of ``true_path_length``: the start's walking distance, then a walk
    from every end point, nearest by closest distance first (manual p16)."""
    board, mover = state.unit_board(), Mover(unit=m.id, mindless=True)
    start = walking_distance(board, m.position, tpos, rules, mover)
    best, tied = nearest_by_walking(board, [q for *_, q in sorted(scored)], tpos, rules, mover,
                                    within=None if start is None else start - 1)
    cost = {q: c for _, c, q in scored}
    return [(best, cost[q], q) for q in tied], start


@contextmanager
def plain_planning():
    """Plan with every search made afresh: no searches kept per question, walks one by one,
    cheapest first, and every distance map searched to its end."""
    kept = monsters._reachable, monsters._walking_scores, GrowingDistances.within
    monsters._reachable, monsters._walking_scores = monsters._cheapest_first, \
        forward_walking_scores
    GrowingDistances.within = lambda self, depth: dict(self)
    try:
        yield
    finally:
        monsters._reachable, monsters._walking_scores, GrowingDistances.within = kept


@settings(max_examples=100, deadline=None)
@given(monster_phases(), plan_rulings, st.integers(0, 2**16))
def test_manual_p16_the_fast_plan_equals_the_plan_made_afresh(state, rules, seed):
    """Every plan of a monster phase (manual p15-17) is the plan computed without the kept
    searches and without the cache of plans, at every step."""
    if state is None:
        return
    dice, rng = SeededDice(seed), random.Random(seed)
    for _ in range(40):
        if state.phase != "monster":
            break
        m = current_monster(state)
        if m is not None and not state.player_driven(m):
            fast = monsters.mindless_step(state, rules, m)
            with plain_planning():
                plain = monsters._plan(state, rules, m, ())
            assert fast == plain
            assert monsters.mindless_step(state, rules, m) is fast   # found again, not redone
        actions = legal_actions(state, rules)
        if not actions:
            break
        state, _ = apply(state, rng.choice(actions), rules, dice)
