"""Sharing from the app without a browser: the Analysis board's link, Markdown and BBCode with
their copy buttons; a page opened with ``?situation=`` opens it on the Analysis board (the
query string handed in, as Voila hands it to the kernel)."""

import base64
import io

import pytest
from PIL import Image
from test_views_analysis import click

from machina_nb.rules.analysis.ask import ask
from machina_nb.rules.analysis.share import DEFAULT_BASE, situation_from_link, situation_link
from machina_nb.rules.analysis.situation import load_situation, situation_from_text
from machina_nb.rules.board.palette import ROLE_COLOURS
from machina_nb.rules.content import content_root
from machina_nb.rules.rulings import Rules
from machina_nb.views.analysis import AnalysisBoardView
from machina_nb.views.app import TAB_TITLES, Explorer
from machina_nb.views.share import open_shared, page_base

FOLDER = content_root() / "situations"


def text_of(name):
    return (FOLDER / f"{name}.toml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def app():
    return Explorer()


def test_the_link_box_always_holds_the_link_of_the_situation_shown():
    view = AnalysisBoardView()
    assert view.link_text.value.startswith(DEFAULT_BASE + "?situation=")
    assert situation_from_link(view.link_text.value) == view.situation_text()
    view.editor.start.value = "situation:sight_corner"
    view.editor.start_button.click()
    assert situation_from_link(view.link_text.value) == view.situation_text()


def test_the_posts_carry_the_link_and_each_box_has_its_copy_button():
    view = AnalysisBoardView()
    markdown = view.export()
    link = view.link_text.value
    assert markdown.rstrip().endswith(f"[Open this situation in the rules explorer]({link})")
    assert view.bbcode_text.value.rstrip().endswith(f"[url={link}]Open this situation in the "
                                                    "rules explorer[/url]")
    html = "".join(w.value for w in _html_widgets(view))
    for css, box in (("analysis-copy-link", "analysis-link-text"),
                     ("analysis-copy-markdown", "analysis-export-text"),
                     ("analysis-copy-bbcode", "analysis-bbcode-text")):
        button = html.split(f"class='{css}'")[1].split("</button>")[0]
        assert f".{box} textarea" in button and "navigator.clipboard.writeText" in button


def _html_widgets(widget):
    for child in getattr(widget, "children", ()):
        if hasattr(child, "value") and isinstance(child.value, str) and "<button" in child.value:
            yield child
        yield from _html_widgets(child)


def test_a_page_opened_with_a_link_shows_the_situation_answered_on_the_analysis_board(app):
    name = "sarall_door"
    query = situation_link(text_of(name)).partition("?")[2]
    assert open_shared(app, query) is True
    assert TAB_TITLES[app.tabs.selected_index] == "Analysis board"
    view = app.analysis
    assert view.editor.draft.title == load_situation(FOLDER / f"{name}.toml").title
    expected = ask(load_situation(FOLDER / f"{name}.toml"))
    assert [a for a in view.answers if a.name in {e.name for e in expected}] == list(expected)
    assert "Opened from the link" in view.link_message.value
    assert "What does Sarall (S) do on its mindless turn" in view.answers_html.value


def test_a_link_names_its_rules_and_they_answer_it(app):
    text = text_of("sight_corner").replace('rules = "manual"', 'rules = "v3_5"')
    assert open_shared(app, "situation=" + situation_link(text).partition("=")[2])
    assert app.analysis.in_force == Rules.preset("v3_5") and app.rules == Rules()


def test_a_bad_link_shows_one_plain_line_and_loads_nothing(app):
    before = app.analysis.editor.draft
    assert open_shared(app, "situation=eJzLSM3JyVcozy_KSQEAGgsEXQ") is False
    message = app.analysis.link_message.value
    assert "This link cannot be opened" in message and "refused at line 1, column 7: bad TOML" in message
    assert "link:" not in message and "\n" not in message
    assert app.analysis.editor.draft == before


def test_a_page_without_a_situation_opens_as_always():
    app = Explorer()
    assert open_shared(app, "") is False and open_shared(app, "x=1") is False
    assert app.tabs.selected_index == 0


def test_the_page_base_is_the_address_voila_served(monkeypatch):
    monkeypatch.delenv("SERVER_NAME", raising=False)
    assert page_base() == DEFAULT_BASE
    monkeypatch.setenv("SERVER_NAME", "192.168.1.20")
    monkeypatch.setenv("SERVER_PORT", "8866")
    monkeypatch.setenv("SCRIPT_NAME", "/voila/render/explorer.ipynb")
    assert page_base() == "http://192.168.1.20:8866/voila/render/explorer.ipynb"
    situation_from_text(text_of("sight_corner"))


# --- the analysis board remembers what was asked -------------------------------------------------

def test_every_unit_asked_about_stays_asked_until_removed_and_can_be_reordered():
    view = AnalysisBoardView()               # Sarall behind a closed door
    click(view, (0, 3), "ask")               # Sarall (S)
    click(view, (0, 0), "ask")               # Lorrai (L)
    assert view.asked.picks == ("S", "L")
    text = view.answers_html.value
    assert text.index("About Sarall (S)") < text.index("About Lorrai (L)")
    asked = {q.name for q in view.picked_questions}
    assert {"s_reach", "l_reach"} <= asked
    markdown = view.export()
    assert "Where can Sarall (S) end a move" in markdown
    assert "Can Lorrai (L) see" in markdown and "Can Lorrai (L) see" in view.bbcode_text.value
    rows = view.asked.children
    rows[1].children[1].click()                                                # Lorrai up
    assert view.asked.picks == ("L", "S")
    text = view.answers_html.value
    assert text.index("About Lorrai (L)") < text.index("About Sarall (S)")
    rows = view.asked.children
    rows[1].children[3].click()                                                # remove Sarall
    assert view.asked.picks == ("L",)
    assert "s_reach" not in {q.name for q in view.picked_questions}
    assert "About Sarall (S)" not in view.answers_html.value


def test_the_sensitivity_weighs_every_question_asked():
    view = AnalysisBoardView()
    click(view, (0, 3), "ask")
    click(view, (0, 0), "ask")
    view.find()
    weighed = {q.name for q in view._found_for[0].questions}
    assert {"s_reach", "l_reach", "sarall_turn"} <= weighed


def test_another_situation_starts_a_new_list():
    view = AnalysisBoardView()
    click(view, (0, 3), "ask")
    view.editor.start.value = "situation:sight_corner"
    view.editor.start_button.click()
    assert view.asked.picks == () and view.asked.children == ()


def _png_of(view):
    link = view.picture_link.value
    assert "class='analysis-png'" in link and "Download picture (PNG)" in link
    data = link.split("data:image/png;base64,")[1].split("'")[0]
    return Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB")


def test_the_png_picture_follows_the_situation_and_the_questions_asked():
    view = AnalysisBoardView()               # Sarall behind a closed door: her turn is asked
    first = _png_of(view)
    route = tuple(int(ROLE_COLOURS["route"][i:i + 2], 16) for i in (1, 3, 5))
    assert route in {c for _, c in first.getcolors(1 << 16)}
    click(view, (0, 0), "ask")               # Lorrai (L): her sight lines join the picture
    assert _png_of(view).tobytes() != first.tobytes()
    view.editor.start.value = "situation:sight_corner"
    view.editor.start_button.click()
    assert _png_of(view).size != first.size or _png_of(view).tobytes() != first.tobytes()
