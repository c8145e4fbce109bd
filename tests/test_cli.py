"""The ``machina`` command line: validate prints file:line:col and fails; tiles, show, rules work."""

import subprocess
import sys
from pathlib import Path

import pytest

from machina_nb.rules.board import tiles

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(__file__).parent / "bad_content"
MACHINA = Path(sys.executable).with_name("machina")
COMMANDS = {
    "python -m machina_nb": [sys.executable, "-m", "machina_nb"],
    "machina console script": [str(MACHINA)],
}


def run(command, *args):
    return subprocess.run([*command, *args], capture_output=True, text=True, cwd=ROOT, timeout=120)


@pytest.fixture(params=sorted(COMMANDS))
def machina(request):
    if request.param == "machina console script":
        assert MACHINA.exists(), f"console script missing at {MACHINA}"
    return COMMANDS[request.param]


@pytest.mark.parametrize("name, position", [
    ("ragged.map", "3:4"),
    ("tile_two_directions.toml", "28:12"),
    ("units_attribute_12.toml", "21:11"),
    ("example_unknown_preset.toml", "5:9"),
    ("rulings_unknown_reading.toml", "20:13"),
])
def test_validate_prints_file_line_col_and_exits_non_zero(machina, name, position):
    path = f"tests/bad_content/{name}"
    result = run(machina, "validate", path)
    assert result.returncode != 0
    assert f"{path}:{position}: " in result.stderr


def test_validate_passes_good_files_and_fails_if_any_is_bad(machina):
    good = ["content/tiles/t01.toml", "content/units/core.toml",
            "content/examples/p22_door_adjacency.toml"]
    result = run(machina, "validate", *good)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count(": ok") == 3
    result = run(machina, "validate", good[0], "tests/bad_content/empty.map")
    assert result.returncode != 0
    assert "content/tiles/t01.toml: ok" in result.stdout
    assert "tests/bad_content/empty.map:1:1: empty map" in result.stderr


def test_validate_a_missing_file_names_it(machina):
    result = run(machina, "validate", "content/tiles/t99.toml")
    assert result.returncode != 0
    assert "content/tiles/t99.toml:1:1: cannot read" in result.stderr


def test_tiles_lists_all_ten(machina):
    result = run(machina, "tiles")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == [f"t{n:02}" for n in range(1, 11)]
    assert "t01a Gatehouse" in result.stdout


def test_show_prints_a_tile_side_as_map_text(machina):
    result = run(machina, "show", "t01a")
    assert result.returncode == 0
    gatehouse = tiles.load_tiles()["t01"].side("a")
    assert result.stdout.startswith("t01a: Gatehouse\n")
    assert gatehouse.layout.to_text() in result.stdout
    assert "t01b" not in result.stdout


def test_show_an_unknown_tile_names_the_argument(machina):
    result = run(machina, "show", "t77a")
    assert result.returncode != 0
    assert "tile: unknown tile or file 't77a'" in result.stderr


def test_rules_diff_lists_what_the_3_5_update_changes(machina):
    result = run(machina, "rules", "--diff", "v3_5")
    assert result.returncode == 0
    assert "spawn.procedure" in result.stdout and "v3_5: v3_5" in result.stdout
    assert "los.vertex" not in result.stdout


def test_show_prints_an_example_board_and_refuses_a_file_without_a_map(machina):
    result = run(machina, "show", "content/examples/p22_door_adjacency.toml")
    assert result.returncode == 0
    assert result.stdout.splitlines()[5] == "|LdH|"
    result = run(machina, "show", "content/units/core.toml")
    assert result.returncode != 0
    assert "holds no map" in result.stderr
