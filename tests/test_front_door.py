"""The front door: the facade in ``machina_nb`` and what its values show in a notebook."""

import re
from fractions import Fraction

import machina_nb
from machina_nb import Board, Rules, hit_chance, parse_map, pool
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
