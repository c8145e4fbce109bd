"""The Analysis board tab without a browser: set ``.value``, call ``.click()``. The editor builds
the situation from the table, the answers come from analysis.ask, the rulings that change them
on demand, the file round-trips, and every colour drawn has a legend entry."""

import datetime
import re

import pytest

from machina_nb.rules.analysis.draft import draft_of_situation
from machina_nb.rules.analysis.situation import situation_from_text
from machina_nb.rules.board.maptext import BorderKind, SpaceKind
from machina_nb.rules.rulings import Rules
from machina_nb.views.analysis import AnalysisBoardView
from machina_nb.views.app import TAB_TITLES, Explorer
from machina_nb.views.board import drawn_colours, drawn_space_pixels

FORBIDDEN = re.compile(r"\bNone\b|\{\s*'|\*\*|[A-Z]\w*\(\w+=")


def click(view, point, tool, **options):
    """Click ``point`` on the editor's board with ``tool`` (``at``: where inside the space)."""
    editor = view.editor
    editor.tool.value = tool
    for name, value in options.items():
        if name != "at":
            getattr(editor, name).value = value
    at = options.get("at", (0.5, 0.5))
    editor.view.last_tap = (point[0] + at[0], point[1] + at[1])
    editor.click(point)


def empty(width, height, view=None):
    """A view (a new one by default) on an empty ``width`` x ``height`` board."""
    view = view or AnalysisBoardView()
    view.editor.start.value, view.editor.width.value, view.editor.height.value = \
        "empty", width, height
    view.editor.start_button.click()
    return view


def table_night(view):
    """The browser test's situation: a 6x3 board, a wall, Sarall, Phillip and Lorrai."""
    empty(6, 3, view)
    click(view, (2, 0), "border", border_kind=BorderKind.WALL, at=(0.5, 0.95))
    for card, where in (("sarall", (0, 0)), ("phillip", (5, 0)), ("lorrai", (5, 2))):
        click(view, where, "place", card=card)
    click(view, (0, 0), "ask")


@pytest.fixture(scope="module")
def view():
    v = AnalysisBoardView()
    table_night(v)
    return v


def turn(view):
    return next(a for a in view.answers if a.kind == "monster_turn")


def test_the_board_is_built_with_the_tools(view):
    d = view.editor.draft
    assert d.layout.border((2, 0), (2, 1)) is BorderKind.WALL
    assert [(u.letter, u.card, u.position) for u in d.units] == [
        ("S", "sarall", (0, 0)), ("P", "phillip", (5, 0)), ("L", "lorrai", (5, 2))]
    assert view.editor.view.names["S"] == "Sarall (monster)"
    assert sorted(view.editor.view.sources["units"].data["letter"]) == ["L", "P", "S"]


def test_manual_p15_17_the_monster_is_asked_about_and_its_turn_is_marked(view):
    text = view.answers_html.value
    assert "About Sarall (S)" in text and "mindless turn, step by step" in text
    assert "moves to B1" in text and "closest distances (manual p22" in text
    assert "targets Lorrai (L)" in text and "lorrai" not in text   # units by name, not by id
    assert "5/6 (83.33%)" in text                      # rend: 1H+1L against armor 2
    assert view.marked.value == "s_turn"
    roles = view.editor.view.sources["overlay"].data["role"]
    assert roles[0] == "selected" and roles.count("step") == 4 and roles[-1] == "turn end"
    assert view.editor.view.sources["overlay_lines"].data["role"] == ["route"] * 4
    assert not FORBIDDEN.search(text), FORBIDDEN.search(text)


def test_every_colour_on_the_editor_board_has_a_legend_entry(view):
    legend = view.editor.view.legend.value
    shown = set(re.findall(r"data-colour='([^']+)'", legend))
    assert drawn_colours(view.editor.view.sources) <= shown
    assert "Sarall (monster)" in legend and "a space the monster moves to" in legend


def test_the_rulings_that_change_the_answers_come_on_demand_with_a_progress_bar(view):
    assert "Press the button" in view.sensitive_html.value
    found = view.find()
    assert view.progress.value == view.progress.max > 0
    switches = [f.switch for f in found]
    assert "mindless.movement" in switches and "path.door_cost" not in switches
    assert all(f"data-switch='{s}'" in view.sensitive_html.value for s in switches)
    assert view.reading_switch.options and len(view.reading_boards.children) >= 3  # boards + legend
    assert not FORBIDDEN.search(view.sensitive_html.value)


def test_manual_p36_closing_a_door_changes_the_plan_and_the_rulings(view):
    before = turn(view).value
    click(view, (1, 0), "border", border_kind=BorderKind.DOOR_CLOSED, at=(0.95, 0.5))
    assert turn(view).value["steps"] == ["moves to (1, 0)", "ends its turn"] != before["steps"]
    assert "press the button again" in view.sensitive_html.value
    assert "path.door_cost" in [f.switch for f in view.find()]
    view.editor.undo()
    assert turn(view).value == before
    view.editor.redo()
    view.editor.undo()


def test_the_file_text_loads_back_to_the_same_situation(view):
    text = view.file_text.value
    loaded = situation_from_text(text)
    again = draft_of_situation(loaded)
    assert (again.layout, again.units) == (view.editor.draft.layout, view.editor.draft.units)
    assert "download='my_situation.toml'" in view.save_link.value
    assert view.load(text, "the text") and view.editor.draft.layout == again.layout


def test_a_bad_edit_or_file_shows_one_line_and_changes_nothing(view):
    d = view.editor.draft
    click(view, (5, 0), "place", card="kim")                   # Phillip stands there
    assert "one unit per space" in view.editor.message.value and view.editor.draft == d
    assert not view.load(view.file_text.value.replace('card = "lorrai"', 'card = "lorai"'),
                         "pasted.toml")
    assert "pasted.toml:" in view.file_message.value and "unknown card" in view.file_message.value
    assert view.editor.draft == d
    click(view, (0, 0), "paint", space_kind=SpaceKind.DESTROYED)
    assert "no unit can stand" in view.editor.message.value and view.editor.draft == d


def test_a_unit_value_set_in_the_panel_reaches_the_answers(view):
    view.editor.unit.value = "P"
    view.editor.values["health"].value = 1
    assert view.editor.draft.unit("P").value("health") == 1
    assert "health = 1" in view.file_text.value
    view.editor.undo()
    assert "health = 1" not in view.file_text.value


def test_an_uploaded_file_is_loaded_and_its_rules_are_offered_not_applied():
    v = AnalysisBoardView()
    text = v.file_text.value.replace('rules = "manual"', 'rules = "v3_5"')
    v.upload.value = ({"name": "night.toml", "type": "text/plain", "size": len(text),
                       "content": memoryview(text.encode()),
                       "last_modified": datetime.datetime.now(datetime.UTC)},)
    assert "Loaded" in v.file_message.value and v.editor.draft.preset == "v3_5"
    assert v.in_force == Rules() and v.offer.layout.display is None
    assert "the 3.5 update" in v.offer_text.value
    v.apply_rules.click()
    assert v.in_force == Rules.preset("v3_5") and v.offer.layout.display == "none"
    assert 'rules = "v3_5"' in v.file_text.value
    v.rules = Rules().replace({"los.vertex": "touch_ok"})     # the app's rules change
    assert v.in_force == v.rules and "a corner never blocks sight" in v.rules_line.value


def test_the_markdown_to_share_holds_the_board_and_the_answers_per_reading(view):
    text = view.export()
    assert text.startswith("# A situation from the table")
    assert "data:image/svg+xml;base64," in text and "## Rulings that change the answers" in text
    assert view.export_text.value == text and "download='my_situation.md'" in \
        view.export_link.value


def test_a_space_asked_about_names_what_it_sees(view):
    click(view, (3, 1), "ask")
    assert "About D2" in view.answers_html.value
    assert "Can D2 see Sarall (S)?" in view.answers_html.value
    click(view, (0, 0), "ask")


def test_the_players_choice_lets_a_stopped_turn_go_on():
    v = AnalysisBoardView()
    v.editor.start.value = "situation:hall_20x20"
    v.editor.start_button.click()
    buttons = v.choices.children
    assert [b.description for b in buttons] == [f"choose {s} for Sarall (S)"
                                                for s in ("K15", "K16", "K17")]
    buttons[1].click()
    assert next(a for a in v.answers if a.kind == "monster_turn").value["end"] == "(10, 15)"
    assert "choices = [[10, 15]]" in v.file_text.value


def test_when_no_ruling_changes_an_answer_the_tab_says_so():
    v = empty(2, 1)
    click(v, (0, 0), "place", card="kim")
    click(v, (0, 0), "ask")
    assert v.find() == ()
    assert "No other reading of any ruling changes these answers" in v.sensitive_html.value
    assert v.reading_boards.children == ()


def test_a_40x40_board_is_drawn_with_squares_of_32_pixels_and_a_title_names_the_file():
    v = empty(40, 40)
    assert drawn_space_pixels(v.editor.view.figure) == 32
    v.title.value = "Sarall & the door, game night 3!"
    assert v.editor.draft.id == "sarall_the_door_game_night_3"
    assert "download='sarall_the_door_game_night_3.toml'" in v.save_link.value
    assert 'title = "Sarall & the door, game night 3!"' in v.file_text.value


def test_manual_p24_a_turn_waiting_for_its_attack_roll_goes_on_with_the_die_clicked():
    v = empty(5, 2)
    click(v, (0, 0), "place", card="sarall")
    click(v, (1, 0), "place", card="phillip")
    click(v, (0, 0), "ask")
    high = [b for b in v.choices.children if "the high die shows 3" in b.description]
    assert high and "1/6 (16.67%)" in high[0].description
    high[0].click()
    low = [b for b in v.choices.children if "the low die shows 2" in b.description]
    low[0].click()
    assert "phillip is hit" in turn(v).value["steps"][0] and not v.choices.children
    assert "dice = [3, 2]" in v.file_text.value


def test_manual_p31_items_that_do_not_fit_together_are_refused_in_the_panel():
    v = empty(3, 2)
    click(v, (0, 0), "place", card="kim")
    v.editor.items.value = ("displacer_vest", "aeromantle")         # two torsos as main items
    assert "one main apparel only" in v.editor.message.value
    assert v.editor.draft.unit("K").items == () and v.editor.items.value == ()
    v.editor.items.value = ("hobnailed_boots",)
    assert 'items = ["hobnailed_boots"]' in v.file_text.value


def test_the_app_hands_its_one_rules_object_to_the_tab():
    app = Explorer()
    tab = app.build_tab(TAB_TITLES.index("Analysis board"))
    assert tab is app.analysis and app.analysis.in_force == Rules()
    app.preset.value = "v3_5"
    assert app.analysis.rules == Rules.preset("v3_5") == app.analysis.in_force
    assert "the 3.5 update" in app.analysis.rules_line.value
    # the shipped situation names manual 1.0: it is offered, not applied
    assert app.analysis.offer.layout.display is None and "manual 1.0" in \
        app.analysis.offer_text.value


def test_answers_that_differ_between_readings_name_and_mark_what_differs():
    view = AnalysisBoardView()               # Sarall behind a closed door
    view.find()
    notes = re.findall(r"analysis-differs'><small><b>Differs:</b> (.*?)\.</small>",
                       view.sensitive_html.value)
    assert "Steps 2, 3 and 4 differ" in notes
    view.reading_switch.value = "los.vertex"
    view.reading_question.value = "sarall_turn"
    view.draw_readings()
    *boards, legend = view.reading_boards.children
    captions = [b.children[0].value for b in boards]
    assert "analysis-differs" not in captions[0]                       # the reading in force
    assert "Steps 2, 3 and 4 differ" in captions[1]                    # a corner never blocks
    assert "marked under this reading only" in legend.value            # its spaces hatched
