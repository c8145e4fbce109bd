"""A shared picture carries the answers' marks: a monster's route and a line of sight."""

import base64
import re

from machina_nb.rules.analysis.ask import ask
from machina_nb.rules.analysis.bbcode import to_bbcode
from machina_nb.rules.analysis.export import board_scene, board_svg, to_markdown
from machina_nb.rules.analysis.marks import picture_highlights
from machina_nb.rules.analysis.situation import load_situation
from machina_nb.rules.board.drawing import Line
from machina_nb.rules.board.palette import ROLE_COLOURS
from machina_nb.rules.content import content_root

SITUATIONS = content_root() / "situations"


def test_a_monster_turn_draws_its_route_step_by_step():
    s = load_situation(SITUATIONS / "sarall_door.toml")
    answers = ask(s)
    turn = next(a for a in answers if a.kind == "monster_turn")
    route = [p for p, role in turn.marks if role in ("asked", "step")]
    lines = [seg for seg, role in picture_highlights(s, answers).lines if role == "route"]
    assert len(lines) == len(route) - 1 >= 1
    assert lines[0][0] == (route[0][0] + 0.5, route[0][1] + 0.5)
    drawn = [i for i in board_scene(s, answers).items if isinstance(i, Line)
             and i.key == "role:route"]
    assert len(drawn) == len(lines)


def test_a_sight_question_draws_its_line_and_the_plain_board_draws_none():
    s = load_situation(SITUATIONS / "sight_corner.toml")
    marked, plain = board_svg(s, ask(s)), board_svg(s)
    colour = ROLE_COLOURS["blocked line"]
    assert f"stroke='{colour}'" in marked and f"stroke='{colour}'" not in plain


def test_the_markdown_picture_carries_the_route():
    s = load_situation(SITUATIONS / "sarall_door.toml")
    text = to_markdown(s)
    picture = re.search(r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)", text)[1]
    assert f"stroke='{ROLE_COLOURS['route']}'" in base64.b64decode(picture).decode()
    assert "the monster's moves, in order" in text


def test_the_markdown_table_says_what_differs_from_the_reading_in_force():
    s = load_situation(SITUATIONS / "sarall_door.toml")
    rows = [line for line in to_markdown(s).splitlines() if line.startswith("| a corner never blocks sight |")]
    assert rows and "(*differs*: Steps 2, 3 and 4 differ)" in rows[0]


def test_the_bbcode_says_what_differs_too():
    s = load_situation(SITUATIONS / "sarall_door.toml")
    rows = [line for line in to_bbcode(s).splitlines() if line.startswith("[i]a corner never blocks sight[/i]")]
    assert rows and "([i]differs[/i]: Steps 2, 3 and 4 differ)" in rows[0]
