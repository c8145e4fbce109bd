"""``machina odds`` and ``machina spawn``: exact fractions, decimals and the citation."""

import sys

import pytest

from machina_nb.cli import main


def run(capsys, *argv):
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_odds_mi_go_with_essence_manual_p24(capsys):
    status, out, _ = run(capsys, "odds", "1H1L", "vs", "3", "--essence", "1")
    assert status == 0
    assert "hits: 5/6 (83.3%)" in out and "Rules: manual p24" in out


def test_odds_kill_within_attacks(capsys):
    _, out, _ = run(capsys, "odds", "1H1L", "vs", "3", "--attacks", "3", "--health", "2",
                    "--essence", "2")
    assert "11275/11664" in out


def test_odds_several_blockers_and_arcane(capsys):
    _, out, _ = run(capsys, "odds", "3H", "--arcane", "--blockers", "2,3,4")
    status, _, err = run(capsys, "odds", "3H", "vs", "2", "--blockers", "2,3")
    assert status == 2 and "blockers:" in err
    assert "arcane" in out and "will 2, 3, 4" in out and "13/18" in out


def test_odds_without_defense_prints_each_total_and_with_derive_the_generating_function(capsys):
    _, out, _ = run(capsys, "odds", "2H+1L+1")
    assert out.startswith("2H+1L: totals") and "4 or more: 2/3" in out and "G(z)" not in out
    _, out, _ = run(capsys, "odds", "2H+1L+1", "--derive")
    assert out.startswith("generating function G(z) = ")


@pytest.mark.parametrize("argv, argument", [
    (["odds", "0H0L", "vs", "3"], "dice:"),
    (["odds", "--", "-1H", "vs", "3"], "dice:"),
    (["odds", "1Q", "vs", "3"], "dice:"),
    (["odds", "1H", "vs", "12"], "defense:"),
    (["odds", "1H", "vs", "3", "--essence", "-1"], "essence:"),
    (["spawn", "--rating", "6", "--rounds", "0"], "rounds:"),
    (["odds", "1H", "vs", "3", "--mod", "1000"], "modifier:"),
    (["odds", "1H+1000", "vs", "3"], "dice:"),
    (["odds", "1H", "vs", "3", "--attacks", "0"], "attacks:"),
    (["odds", "1H", "vs", "3", "--attacks", "-2"], "attacks:"),
    (["odds", "1H", "--attacks", "2"], "attacks:"),
    (["odds", "1H", "--blockers", "3,4", "--attacks", "2"], "attacks:"),
    (["odds", "1H", "--blockers="], "blockers:"),
    (["odds", "1H", "--blockers", " "], "blockers:"),
    (["odds", "1H", "vs", "3", "--health", "3"], "health:"),
    (["spawn", "--rating", "6", "--full", "2"], "full:"),
    (["spawn", "--rating", "6", "--explorers", "2", "--full", "3"], "full:"),
    (["spawn", "--rating", "6", "--full", "-1"], "full:"),
])
def test_bad_input_is_refused_naming_the_argument(capsys, argv, argument):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and argument in err


def test_spawn_3_5_shows_distribution_progress_and_long_run(capsys, monkeypatch):
    argv = ("spawn", "--rating", "6", "--explorers", "2", "--rounds", "4", "--rules", "v3_5")
    status, out, err = run(capsys, *argv)
    assert status == 0
    assert "monsters spawned: 5.20 (exactly 26/5) on average" in out  # one whole 3.5 cycle
    assert "spawn rolls per round in the long run: 1.30 (exactly 13/10)" in out
    assert "3.5 update (spawn phase)" in out
    assert "round" not in err           # no counter into a pipe or a log
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    _, again, err = run(capsys, *argv)
    assert again == out and "round 4/4" in err


def test_spawn_1_0_with_horror(capsys):
    _, out, _ = run(capsys, "spawn", "--rating", "6", "--horror", "4", "--rounds", "1")
    assert "horror events invoked:" in out and "2/5" in out


def test_a_ruling_can_be_flipped_from_the_command_line(capsys):
    _, default, _ = run(capsys, "odds", "1H-1", "vs", "0")
    _, clamped, _ = run(capsys, "odds", "1H-1", "vs", "0", "--set", "roll.floor=clamp0")
    assert "hits: 5/6" in default and "hits: 1 (100.0%)\n" in clamped
    assert "some rulings changed" in clamped and "ruling: an attack total never goes below 0" in clamped
    status, _, err = run(capsys, "odds", "1H", "vs", "0", "--set", "roll.floor")
    assert status == 2 and "set:" in err
    status, _, err = run(capsys, "odds", "1H", "vs", "0", "--set", "roll.floor=maybe")
    assert status == 2 and "roll.floor:" in err
