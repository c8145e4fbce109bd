"""The exact monster phase and the risk map, checked three ways: a slow reference that plays
every die sequence one die at a time (no totals, no merging, no memo) agrees exactly; a seeded
run of the engine agrees within a stated bound; every risk-map entry equals the monster phase
asked of a situation with the explorer drawn on that space."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from machina_nb.cli import main
from machina_nb.rules.analysis.ask import ask
from machina_nb.rules.analysis.risk import MAX_MONSTERS, monster_phase, pool_totals
from machina_nb.rules.analysis.risk_answer import reach_spaces, risk_map, standing_at, whose_turn
from machina_nb.rules.analysis.situation import load_situation, situation_from_text
from machina_nb.rules.content import content_root
from machina_nb.rules.engine.actions import (
    Choose,
    EndTurn,
    MonsterAct,
    RollHorror,
    RollSpawn,
    StartTurn,
    apply,
)
from machina_nb.rules.engine.chance import ChanceNode, ScriptedDice, SeededDice
from machina_nb.rules.engine.phases import current_monster, spawn_rollers
from machina_nb.rules.errors import RulesError

SITUATIONS = content_root() / "situations"


def _load(name):
    s = load_situation(SITUATIONS / f"{name}.toml")
    return s, s.rules(), s.state_at(s.rules())


# --- the slow reference ---------------------------------------------------------------------

def _next_action(state, rules, first_round):
    if state.over or state.round != first_round:
        return None
    if state.phase == "explorer":
        if state.active:
            return [EndTurn(state.active)]
        rest = [e for e in state.explorers_on_map if e.id not in state.done]
        return [StartTurn(rest[0].id)] if rest else None
    if state.phase == "spawn":
        return [RollSpawn(e.id) for e in spawn_rollers(state, rules)] or None
    if state.phase == "horror":
        return [RollHorror()]
    m = current_monster(state)
    if m is None or state.player_driven(m):
        return None
    return [MonsterAct(m)]


def _score(dist, start):
    anyone = sum((p for h, p in dist.items() if 0 in h), Fraction(0))
    lost = sum((p * (sum(start) - sum(h)) for h, p in dist.items()), Fraction(0))
    return anyone, lost


def _reference(state, rules, explorers, start, first, sign):
    """Every die sequence played one die at a time; the players pick by ``sign``."""
    def play(s, action, prefix=()):
        try:
            after, _ = apply(s, action, rules, ScriptedDice(prefix))
        except ChanceNode as node:
            out = {}
            for v, p in node.outcomes:
                for h, q in play(s, action, prefix + (v,)).items():
                    out[h] = out.get(h, 0) + p * q
            return out
        return walk(after)

    def pick(dists):
        return min(dists, key=lambda d: tuple(sign * x for x in _score(d, start)))

    def walk(s):
        if s.decision is not None:
            return pick([play(s, Choose(option=o)) for o in s.decision.options])
        actions = _next_action(s, rules, first)
        if actions is None:
            health = tuple(s.unit(e).health if s.has_unit(e) and e not in s.dead else 0
                           for e in explorers)
            return {health: Fraction(1)}
        return pick([play(s, a) for a in actions])

    return walk(state)


def _healths(dist):
    out = {}
    for summary, p in dist.items():
        out[summary[0]] = out.get(summary[0], 0) + p
    return out


@pytest.mark.parametrize("name", ["risk_tie", "fallen_mid_turn"])
def test_the_reference_playing_every_die_sequence_agrees_exactly(name):
    s, rules, state = _load(name)
    phase = monster_phase(state, rules)
    for sign, got in ((1, phase.best), (-1, phase.worst)):
        want = _reference(state, rules, phase.explorers, phase.start, state.round, sign)
        assert _healths(got) == want


def test_a_tie_the_players_choose_keeps_the_wounded_explorer_alive():
    s, rules, state = _load("risk_tie")
    phase = monster_phase(state, rules)
    kim = phase.explorers.index(s.unit_id("K"))
    assert phase.destroyed(phase.best, kim) == 0
    assert phase.destroyed(phase.worst, kim) == Fraction(35, 36)
    assert [(what.split(" (")[0], pick) for what, pick, _ in phase.choices] == \
        [("target of probe", s.unit_id("P"))]


def test_a_monster_destroys_an_explorer_mid_phase_and_the_search_stops_there():
    s, rules, state = _load("fallen_mid_turn")
    phase = monster_phase(state, rules)
    kim, phillip = (phase.explorers.index(s.unit_id(x)) for x in "KP")
    assert phase.destroyed(phase.best, kim) == 1
    assert phase.health(phase.best, phillip) == {6: 1}
    assert phase.stopped(phase.best) == 1


def test_the_reference_agrees_where_the_players_choose_after_each_roll():
    """Kim on E1 of safe_to_stand: tied with Phillip, she is the Mi-Go's target (least
    health); it stands next to both and the players choose whom each attack strikes, the
    second choice depending on the first roll (manual p16)."""
    s, rules, state = _load("safe_to_stand")
    kim, state = whose_turn(s, "K", state, rules)
    on_e1 = standing_at(state, kim, (4, 0))
    phase = monster_phase(on_e1, rules)
    assert len(phase.choices) == 2
    for sign, got in ((1, phase.best), (-1, phase.worst)):
        want = _reference(on_e1, rules, phase.explorers, phase.start, on_e1.round, sign)
        assert _healths(got) == want
    k = phase.explorers.index(kim)
    assert phase.destroyed(phase.best, k) == 0 and phase.health_lost(phase.best, k) == \
        Fraction(35, 36)
    assert phase.destroyed(phase.worst, k) == Fraction(25, 36)


def test_a_pool_is_played_once_per_total():
    totals = pool_totals(("high", "low"))
    assert sum(p for p, _ in totals.values()) == 1
    assert all(sum(faces) == t for t, (_, faces) in totals.items())
    assert totals[0][0] == Fraction(1, 36)


# --- the seeded run -------------------------------------------------------------------------

def _seeded_run(state, rules, seed, choose=lambda options: options[0]):
    s, dice = state, SeededDice(seed)
    while True:
        actions = _next_action(s, rules, state.round)
        if s.decision is not None:
            s, _ = apply(s, Choose(option=choose(s.decision.options)), rules, dice)
            continue
        if actions is None:
            return s
        s, _ = apply(s, actions[0], rules, dice)


RUNS = 300
"""Seeded runs; the exact chance must lie within 5 standard errors of the runs' share (a
false alarm about once in 1.7 million runs of this test)."""


@pytest.mark.slow
def test_seeded_runs_of_the_engine_agree_within_five_standard_errors():
    s, rules, state = _load("risk_map")
    kim = s.unit_id("K")
    moved = state.update_unit(kim, position=(4, 1))
    phase = monster_phase(moved, rules)
    assert not phase.choices                # no choice: every run follows the same rules
    exact = phase.destroyed(phase.best, phase.explorers.index(kim))
    dead = sum(kim in _seeded_run(moved, rules, seed).dead for seed in range(RUNS))
    bound = 5 * (float(exact * (1 - exact)) / RUNS) ** 0.5 + 1 / RUNS
    assert abs(dead / RUNS - float(exact)) <= bound


def _within_bound(runs_share, exact):
    return abs(runs_share - float(exact)) <= 5 * (float(exact * (1 - exact)) / RUNS) ** 0.5 \
        + 1 / RUNS


@pytest.mark.slow
def test_seeded_runs_agree_where_the_players_choose_and_a_kill_ends_the_phase_early():
    """risk_tie: the players choose the Mi-Go's target. Runs that always give it Kim (the
    worst choice) agree with the worst case; her fall mid-turn ends the search, as it ends the
    rules' part of the phase (manual p15). Runs that give it Phillip agree with the best."""
    s, rules, state = _load("risk_tie")
    kim, phillip = s.unit_id("K"), s.unit_id("P")
    phase = monster_phase(state, rules)
    k = phase.explorers.index(kim)
    for wanted, dist in ((kim, phase.worst), (phillip, phase.best)):
        mark = (wanted, state.unit(wanted).position)     # a target: by unit or by space
        ends = [_seeded_run(state, rules, seed, lambda options, m=mark:
                            next(o for o in options if o in m)) for seed in range(RUNS)]
        dead = sum(kim in end.dead for end in ends)
        assert _within_bound(dead / RUNS, phase.destroyed(dist, k))
        if wanted == kim:
            assert all(end.phase == "monster" for end in ends if kim in end.dead)
            assert 0 < phase.stopped(dist) == phase.destroyed(dist, k)


# --- the risk map against the monster phase -------------------------------------------------

def _with_kim_on(space, name="risk_map"):
    text = (SITUATIONS / f"{name}.toml").read_text()
    head, rest = text.split("map = '''\n", 1)
    board, tail = rest.split("'''", 1)
    rows = board.split("\n")
    rows = [r.replace("K", ".") for r in rows]
    x, y = space
    row = rows[1 + 2 * y]
    rows[1 + 2 * y] = row[:1 + 2 * x] + "K" + row[2 + 2 * x:]
    return situation_from_text(head + "map = '''\n" + "\n".join(rows) + "'''" + tail)


@pytest.mark.parametrize("name", ["risk_map", "safe_to_stand"])
def test_every_risk_map_entry_equals_the_monster_phase_with_the_explorer_drawn_there(name):
    """Every space: the map's entry equals the monster phase asked of the situation redrawn
    with Kim there, ties the players choose (safe_to_stand, E1) and a fall that ends the phase
    early (risk_map, column E: the Mi-Go kills her before the Sarall acts) included."""
    s, rules, state = _load(name)
    kim = s.unit_id("K")
    uid, turn = whose_turn(s, "K", state, rules)
    found = risk_map(turn, rules, kim)
    assert set(found) == set(reach_spaces(turn, rules, kim))
    assert any(ph.choices for ph in found.values()) or name == "risk_map"
    assert any(ph.stopped(ph.best) for ph in found.values()) or name == "safe_to_stand"
    answers = {a.name: a.value for a in ask(s)}["kim_risk_map"]["spaces"]
    assert len(answers) == len(found)
    for space in found:
        there = _with_kim_on(space, name)
        value = {a.name: a.value for a in ask(there)}["phase_risk"]
        entry = answers[f"({space[0]}, {space[1]})"]
        assert entry["destroyed"] == value["destroyed"]["K"]
        assert entry["health_lost"] == value["health_lost"]["K"]
        assert entry["any_destroyed"] == value["any_destroyed"]


def test_the_map_ranks_spaces_next_to_the_monsters_as_dangerous():
    s, rules, state = _load("risk_map")
    value = {a.name: a.value for a in ask(s)}["kim_risk_map"]["spaces"]
    assert value["(1, 1)"]["destroyed"] == "0"
    assert Fraction(value["(4, 1)"]["destroyed"]) > Fraction(1, 2)


# --- limits -----------------------------------------------------------------------------------

def test_beyond_the_monster_limit_the_question_is_refused_at_once_naming_the_limit():
    letters = "MNOPQ"[:MAX_MONSTERS + 1]
    border = "+" + "-+" * (len(letters) + 1)
    text = ("kind = 'situation'\nid = 'crowd'\ntitle = 't'\nmap = \'\'\'\n" + border + "\n|K "
            + " ".join(letters) + "|\n" + border + "\n\'\'\'\n[unit.K]\ncard = 'kim'\n"
            + "".join(f"[unit.{x}]\ncard = 'sarall'\n" for x in letters)
            + "[turn]\nphase = 'monster'\nactive = 'M'\n"
            + "[[question]]\nname = 'phase'\nask = 'monster_phase'\n")
    s = situation_from_text(text)
    with pytest.raises(RulesError, match=f"at most {MAX_MONSTERS}") as err:
        ask(s)
    assert err.value.argument == "phase"
    assert "\n" not in str(err.value)


def test_a_risk_map_is_for_the_explorer_whose_turn_it_is():
    s, rules, state = _load("risk_map")
    text = (SITUATIONS / "risk_map.toml").read_text().replace('unit = "K"', 'unit = "P"')
    with pytest.raises(RulesError, match="whose turn it is"):
        ask(situation_from_text(text))


# --- the command line -------------------------------------------------------------------------

def test_the_risk_command_prints_the_board_and_the_spaces_and_refuses_in_one_line(capsys):
    path = str(SITUATIONS / "risk_map.toml")
    assert main(["risk", path, "--unit", "K", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    answers = {a.name: a.value for a in ask(load_situation(path))}["kim_risk_map"]["spaces"]
    assert {k: v["destroyed"] for k, v in data["spaces"].items()} == \
        {k: v["destroyed"] for k, v in answers.items()}
    assert main(["risk", path, "--unit", "K"]) == 0
    out = capsys.readouterr().out
    assert " 69 " in out and "D2: destroyed 25/36 (69.4%)" in out
    assert main(["risk", path, "--unit", "P"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "whose turn it is" in err
