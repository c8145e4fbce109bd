"""Every event of the golden playthroughs is said with the reader's names and space labels:
no ``(x, y)`` point, no raw unit id, no template brace is left in what a reader sees."""

import re

import pytest
from test_playthrough import BOARD, ITEM_BOARD, play

from machina_nb.rules.board.labels import space_name
from machina_nb.rules.cards.items import load_all_items
from machina_nb.rules.engine.phrases import say, say_cite


@pytest.mark.parametrize("preset, seed, items", [("manual", 1, False), ("v3_5", 2, False),
                                                ("player_aid", 3, False), ("manual", 7, True)])
def test_every_event_is_said_with_names_and_labels(preset, seed, items):
    history = play(preset, seed, board=ITEM_BOARD if items else BOARD,
                   items=tuple(load_all_items().values()) if items else ())
    units = {u.id for s in (history.initial, *(st.state for st in history.steps))
             for u in s.units}
    names = {i: f"Unit{n} ({chr(65 + n % 26)})" for n, i in enumerate(sorted(units))}
    kinds = set()
    for event in history.events():
        said = say(event, names=names, space=space_name)
        kinds.add(event.kind)
        assert not re.search(r"\(-?\d+, -?\d+\)", said), said
        assert "{" not in said and "}" not in said, said
        for unit_id in units:
            assert not re.search(rf"(?<![\w-]){re.escape(unit_id)}(?![\w-])", said), said
        assert say_cite(event.cite) == event.rule
    assert len(kinds) > 5
