"""The ``machina`` command line: validate prints file:line:col and fails; tiles, show, rules work.

Most tests run ``cli.main`` in this process (``cli_runs.machina``); the last ones run both
entry points, ``python -m machina_nb`` and the console script, end to end.
"""

import json
import re
from pathlib import Path

import pytest
from cli_runs import ENTRY_POINTS, machina, machina_process

from machina_nb.rules.board import tiles


@pytest.mark.parametrize("name, position", [
    ("ragged.map", "3:4"),
    ("tile_two_directions.toml", "28:12"),
    ("units_attribute_12.toml", "21:11"),
    ("example_unknown_preset.toml", "5:9"),
    ("rulings_unknown_reading.toml", "26:13"),
])
def test_validate_prints_file_line_col_and_exits_non_zero(name, position):
    path = f"tests/bad_content/{name}"
    result = machina("validate", path)
    assert result.returncode != 0
    assert f"{path}:{position}: " in result.stderr


def test_validate_passes_good_files_and_fails_if_any_is_bad():
    good = ["content/tiles/t01.toml", "content/units/core.toml",
            "content/examples/p22_door_adjacency.toml"]
    result = machina("validate", *good)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count(": ok") == 3
    result = machina("validate", good[0], "tests/bad_content/empty.map")
    assert result.returncode != 0
    assert "content/tiles/t01.toml: ok" in result.stdout
    assert "tests/bad_content/empty.map:1:1: empty map" in result.stderr


def test_validate_a_missing_file_names_it():
    result = machina("validate", "content/tiles/t99.toml")
    assert result.returncode != 0
    assert "content/tiles/t99.toml:1:1: cannot read" in result.stderr


def test_tiles_lists_all_ten():
    result = machina("tiles")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == [f"t{n:02}" for n in range(1, 11)]
    assert "t01a Gatehouse" in result.stdout


def test_show_prints_a_tile_side_as_map_text():
    result = machina("show", "t01a")
    assert result.returncode == 0
    gatehouse = tiles.load_tiles()["t01"].side("a")
    assert result.stdout.startswith("t01a: Gatehouse\n")
    assert gatehouse.layout.to_text() in result.stdout
    assert "t01b" not in result.stdout


def test_show_an_unknown_tile_names_the_argument():
    result = machina("show", "t77a")
    assert result.returncode != 0
    assert "tile: unknown tile or file 't77a'" in result.stderr


def test_rules_diff_lists_what_the_3_5_update_changes():
    result = machina("rules", "--diff", "v3_5")
    assert result.returncode == 0
    assert "spawn.procedure" in result.stdout and "v3_5: v3_5" in result.stdout
    assert "los.vertex" not in result.stdout


def test_show_prints_an_example_board_and_refuses_a_file_without_a_map():
    result = machina("show", "content/examples/p22_door_adjacency.toml")
    assert result.returncode == 0
    assert result.stdout.splitlines()[5] == "|LdH|"
    result = machina("show", "content/units/core.toml")
    assert result.returncode != 0
    assert "holds no map" in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
@pytest.mark.parametrize("args", [
    ("validate", "content/tiles/t01.toml", "content/units/core.toml",
     "tests/bad_content/ragged.map", "tests/bad_content/units_attribute_12.toml"),
    ("show", "t01a"),
    ("show", "t77a"),
    ("odds", "1H1L", "vs", "3"),
    ("odds", "1Q"),
])
def test_each_entry_point_answers_as_the_command_in_this_process(entry, args):
    """The console script and ``python -m machina_nb`` end to end: the same exit code and
    the same text as ``cli.main`` run here (what the other tests check), no traceback."""
    command = ENTRY_POINTS[entry]
    assert Path(command[0]).exists(), f"{entry} missing at {command[0]}"
    there, here = machina_process(command, *args), machina(*args)
    assert (there.returncode, there.stdout, there.stderr) == \
        (here.returncode, here.stdout, here.stderr)
    assert "Traceback" not in there.stderr


def test_ask_names_spaces_as_the_board_labels_them_and_json_keeps_the_pairs():
    """A person reads "B2" and "spawns on F3" as the app says them; JSON keeps (x, y)."""
    shown = machina("ask", "content/situations/beckon_no_room.toml")
    assert shown.returncode == 0
    assert "Beckoner (sample) (B): B2; Kim (K): E2" in shown.stdout and "spawns on F3" in shown.stdout
    assert not re.search(r"\(-?\d+, -?\d+\)", shown.stdout)
    data = json.loads(machina("ask", "content/situations/beckon_no_room.toml", "--json").stdout)
    assert data["answers"]["the_call"]["positions"]["B"] == "(1, 1)"
