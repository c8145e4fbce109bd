"""The front door: the facade in ``machina_nb`` and what its values show in a notebook."""

import re
from fractions import Fraction

import pytest

import machina_nb
import machina_nb.rules.content
from machina_nb import Board, Rules, RulesError, hit_chance, parse_map, pool
from machina_nb.rules.odds.dice import Pool
from machina_nb.rules.rulings_words import label, question


def test_the_facade_lists_what_it_exports():
    assert set(machina_nb.__all__) >= {"Board", "Rules", "parse_map", "pool", "hit_chance",
                                       "kill_chance", "line_of_sight", "closest", "nearest",
                                       "reach", "load_situation", "ask"}
    assert all(hasattr(machina_nb, name) for name in machina_nb.__all__)


def test_the_facade_answers_as_the_rules_core():
    assert pool("2H 1L") == Pool.attack(high=2, low=1)
    assert hit_chance("1H1L", 3) == hit_chance(pool("1H1L"), 3, rules=Rules()) == Fraction(5, 9)
    board = Board.from_layout(parse_map("+-+-+\n|. .|\n+-+-+\n"))
    assert machina_nb.reach(board, (0, 0), 1) == {(0, 0): 0, (1, 0): 1}


def _cells(table: str) -> list[list[str]]:
    return [re.findall(r"<td>(.*?)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", table)
            if "<td>" in row]


def test_a_pool_shows_its_sum_as_percentages_beside_exact_fractions():
    shown = pool("1H1L")._repr_html_()
    assert "<caption>The sum of 1H+1L</caption>" in shown
    rows = _cells(shown)
    dist = pool("1H1L").distribution()
    assert [int(r[0]) for r in rows] == list(dist.pmf())
    for total, exact_pct, exact, least_pct, least in rows:
        assert Fraction(exact) == dist.probability(int(total))
        assert Fraction(least) == dist.at_least(int(total))
        assert exact_pct == f"{float(Fraction(exact)) * 100:.1f}%"
        assert least_pct == f"{float(Fraction(least)) * 100:.1f}%"
    assert sum(Fraction(r[2]) for r in rows) == 1
    assert _cells(dist._repr_html_()) == rows


def test_the_manual_rules_say_so():
    assert "the manual 1.0 readings" in Rules()._repr_html_().lower()


def test_changed_rules_show_each_difference_by_its_plain_words():
    rules = Rules().replace({"los.vertex": "touch_ok"})
    shown = rules._repr_html_()
    assert question("los.vertex") in shown and label("los.vertex", "touch_ok") in shown
    assert "los.vertex" not in shown and "touch_ok" not in shown
    preset = Rules.preset("v3_5")
    assert preset._repr_html_().count("<li>") == len(Rules().differences(preset))


# --- the strict door: every facade function x every argument x {None, wrong type, out of range}

_BOARD = Board.from_layout(parse_map("+-+-+\n|. .|\n+-+-+\n"))
_SITUATION_FILE = next((machina_nb.rules.content.content_root() / "situations").glob("*.toml"))
_NONE = object()   # "no out-of-range value for this argument"

# function -> the valid arguments, then for each argument: (wrong type, out of range)
_DOOR = {
    machina_nb.parse_map: ({"text": "+-+\n|.|\n+-+\n", "legend": {}, "path": "room.map"}, {
        "text": (b"+-+", _NONE), "legend": (5, {"K": "floor"}), "path": (5, _NONE)}),
    machina_nb.pool: ({"text": "1H1L"}, {"text": (5, "99H")}),
    machina_nb.hit_chance: ({"pool": "1H1L", "defense": 3, "rules": Rules(), "modifier": 0,
                             "essence": 0}, {
        "pool": (5, "0H"), "defense": ("3", 12), "rules": ({"roll.floor": "clamp0"}, _NONE),
        "modifier": ("1", 1000), "essence": ("1", -1)}),
    machina_nb.kill_chance: ({"pool": "1H1L", "defense": 3, "health": 1, "attacks": 2,
                              "rules": Rules(), "modifier": 0, "essence": 0}, {
        "pool": (5, "50L"), "defense": (3.0, -1), "health": ("1", 0), "attacks": ("1", 0),
        "rules": ("manual", _NONE), "modifier": (1.5, -1000), "essence": ("1", -1)}),
    machina_nb.line_of_sight: ({"board": _BOARD, "a": (0, 0), "b": (1, 0), "rules": Rules()}, {
        "board": ("+-+", _NONE), "a": ("a1", (9, 9)), "b": (3, (-1, 0)), "rules": (5, _NONE)}),
    machina_nb.nearest: ({"board": _BOARD, "start": (0, 0), "goals": [(1, 0)],
                          "rules": Rules()}, {
        "board": (5, _NONE), "start": ("0,0", (5, 5)), "goals": (5, [(7, 7)]),
        "rules": ({}, _NONE)}),
    machina_nb.closest: ({"board": _BOARD, "start": (0, 0), "goals": [(1, 0)], "rules": Rules(),
                          "immobile": ()}, {
        "board": (5, _NONE), "start": ("0,0", (5, 5)), "goals": (5, [(7, 7)]),
        "rules": ({}, _NONE), "immobile": (5, ["nobody"])}),
    machina_nb.reach: ({"board": _BOARD, "start": (0, 0), "stamina": 1, "rules": Rules()}, {
        "board": (5, _NONE), "start": ([0], (5, 5)), "stamina": ("1", -1),
        "rules": ([], _NONE)}),
    machina_nb.load_situation: ({"path": _SITUATION_FILE}, {"path": (5, "no/such/file.toml")}),
    machina_nb.ask: ({"situation": machina_nb.load_situation(_SITUATION_FILE), "rules": None}, {
        "situation": ("file.toml", _NONE), "rules": ({}, _NONE)}),
}
_OPTIONAL_NONE = {"rules", "legend"}   # None means the default there

_CASES = [pytest.param(function, argument, bad, id=f"{function.__name__}-{argument}-{kind}")
          for function, (_, arguments) in _DOOR.items()
          for argument, (wrong, out) in arguments.items()
          for kind, bad in (("None", None), ("wrong type", wrong), ("out of range", out))
          if bad is not _NONE and not (bad is None and argument in _OPTIONAL_NONE)]


def test_the_door_checks_every_argument_of_every_facade_function():
    assert {f.__name__ for f in _DOOR} == set(machina_nb.__all__) - {"Board", "Rules",
                                                                    "RulesError", "Pool"}
    assert len(_CASES) >= 60


@pytest.mark.parametrize("function, argument, bad", _CASES)
def test_a_bad_argument_is_refused_in_one_line_naming_it(function, argument, bad):
    valid = _DOOR[function][0]
    positional = [name for name in valid if name not in ("rules", "legend", "path", "modifier",
                                                          "essence", "immobile", "attacks")]
    if function is machina_nb.pool or function is machina_nb.load_situation:
        positional = list(valid)
    given = {**valid, argument: bad}
    with pytest.raises(RulesError) as refused:
        function(*(given[n] for n in positional),
                 **{n: v for n, v in given.items() if n not in positional})
    assert refused.value.argument == argument
    assert "\n" not in str(refused.value)
