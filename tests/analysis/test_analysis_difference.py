"""What differs between two answers: elements of sets, steps of a turn, parts, plain values."""

from machina_nb.rules.analysis.difference import Difference, difference, difference_words


def test_equal_answers_do_not_differ():
    assert difference(["C3", "C4"], ["C3", "C4"]) == Difference()
    assert difference({"end": "C3"}, {"end": "C3"}).same


def test_lists_of_spaces_are_compared_as_sets_in_each_answers_order():
    spaces = [f"C{n}" for n in range(1, 32)]
    more = spaces + ["D1", "D2", "D3", "D4"]
    d = difference(spaces, more)
    assert d.changed and d.only_first == () and d.only_second == ("D1", "D2", "D3", "D4")
    assert difference(["B2", "A1"], ["A1", "B2"]).same is False   # order alone: changed...
    assert difference(["B2", "A1"], ["A1", "B2"]).only_first == ()  # ...but no element differs


def test_steps_are_compared_place_by_place():
    d = difference({"steps": ["moves to C3", "moves to C4", "attacks K"], "end": "C4"},
                   {"steps": ["moves to C3", "moves to D3"], "end": "D3"})
    assert d.steps == (2, 3) and d.parts == ("steps", "end")
    assert difference(["a", "b"], ["a", "b", "c"], ordered=True).steps == (3,)


def test_tables_name_their_parts_and_gather_differing_elements():
    d = difference({"tied": ["Kim", "Lorrai"], "distance": 3}, {"tied": ["Kim"], "distance": 3})
    assert d.parts == ("tied",) and d.only_first == ("Lorrai",) and d.only_second == ()


def test_plain_values_differ_or_not():
    assert difference("visible", "blocked") == Difference(True)
    assert difference(3, 4).changed and difference("5/9", "5/9").same
    assert difference("removed", ["C3"]) == Difference(True)


def test_the_words_name_what_differs():
    assert difference_words(difference(["a", "b", "c"], ["a"], ordered=True)) == \
        "Steps 2 and 3 differ"
    assert difference_words(difference("visible", "blocked")) == ""
