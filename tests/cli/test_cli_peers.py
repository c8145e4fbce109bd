"""``machina arkham test``, ``machina mansions test`` and ``machina mansions sight``: their
contract (exact fraction strings in JSON; bad input is one line on stderr and exit status 2)."""

import json

import pytest
from cli_runs import machina as run

MAP = "content/peers/side_by_side.map"


def as_json(*args):
    result = run(*args, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_arkham_test_json_gives_the_exact_fraction_string():
    data = as_json("arkham", "test", "--skill", "3", "--difficulty", "3", "--bag",
                   "+1,0,0,-1,-1,-2,skull,auto_fail,elder_sign", "--values", "skull=-2",
                   "--elder-sign", "1")
    assert data["p_success"] == "4/9" and data["p_auto_fail"] == "1/9"
    data = as_json("arkham", "test", "--skill", "3", "--difficulty", "2", "--bag", "+1,0,-1,-2",
                   "--commit", "1")
    assert data["p_success"] == "1"
    data = as_json("arkham", "test", "--skill", "0", "--difficulty", "5", "--bag", "0,auto_fail")
    assert data["p_success"] == "0"


def test_arkham_readings_from_the_command_line():
    data = as_json("arkham", "test", "--skill", "3", "--difficulty", "3", "--bag", "-1,+1,cultist",
                   "--values", "cultist=0", "--reveals-another", "cultist",
                   "--set", "arkham.reveal_another=chain_marked")
    assert data["p_success"] == "1/2"


def test_arkham_test_plain_text_cites_the_summary():
    result = run("arkham", "test", "--skill", "2", "--difficulty", "3", "--bag", "+1,0,-1")
    assert result.returncode == 0
    assert "1/3" in result.stdout and "Skills and skill tests" in result.stdout


def test_mansions_test_json():
    assert as_json("mansions", "test", "--attribute", "3", "--luck", "4",
                   "--skill-point")["p_pass"] == "7/10"
    assert as_json("mansions", "test", "--attribute", "4", "--modifier", "-9")["p_pass"] == "1/10"
    assert as_json("mansions", "test", "--attribute", "12")["p_pass"] == "9/10"


def test_mansions_sight_json_gives_the_clear_line_or_null():
    data = as_json("mansions", "sight", MAP, "--from", "0,0", "--to", "2,1")
    assert data["visible"] is True and len(data["line"]) == 2
    assert all("/" in c or c.isdigit() for dot in data["line"] for c in dot)
    data = as_json("mansions", "sight", MAP, "--from", "2,1", "--to", "3,1")
    assert data["visible"] is False and data["line"] is None
    assert "door" in data["explain"]


@pytest.mark.parametrize("args, says", [
    (["arkham", "test", "--skill", "3", "--bag", "0"], "--difficulty"),
    (["arkham", "test", "--skill", "x", "--difficulty", "2", "--bag", "0"], "--skill"),
    (["arkham", "test", "--skill", "3", "--difficulty", "2", "--bag", "0,banana"], "banana"),
    (["arkham", "test", "--skill", "3", "--difficulty", "2", "--bag", "skull"], "values"),
    (["arkham", "test", "--skill", "3", "--difficulty", "2", "--bag", "0", "--bogus"], "--bogus"),
    (["arkham", "test", "--skill", "3", "--difficulty", "2", "--bag", "0", "--set", "x=y"],
     "unknown switch"),
    (["arkham"], "COMMAND"),
    (["mansions", "test", "--attribute", "3", "--skill-point"], "--luck"),
    (["mansions", "test", "--attribute", "3", "--luck", "2", "--skill-point", "--tested", "luck"],
     "never adds Luck"),
    (["mansions", "sight", MAP, "--from", "0,0", "--to", "9,9"], "to"),
    (["mansions", "sight", MAP, "--from", "0;0", "--to", "1,1"], "from"),
    (["mansions", "sight", "no/such.map", "--from", "0,0", "--to", "1,1"], "no/such.map:1:1"),
    (["mansions", "sight", "tests/bad_content/ragged.map", "--from", "0,0", "--to", "1,1"],
     "tests/bad_content/ragged.map:3:4"),
])
def test_bad_input_is_one_line_and_exit_2(args, says):
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert says in result.stderr
