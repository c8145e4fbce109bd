"""Share links: a situation file as ``?situation=`` (zlib + base64url), read back and checked
as any situation file; ``machina link FILE`` prints the same link; every refusal is one line
naming ``link`` and loads nothing."""

import base64
import zlib

import pytest
from cli_runs import machina
from hypothesis import given, settings
from hypothesis import strategies as st

from machina_nb.rules.analysis.ask import ask
from machina_nb.rules.analysis.bbcode import to_bbcode
from machina_nb.rules.analysis.export import to_markdown
from machina_nb.rules.analysis.share import (
    DEFAULT_BASE,
    MAX_LINK,
    MAX_TEXT,
    situation_from_link,
    situation_link,
)
from machina_nb.rules.analysis.situation import load_situation, situation_from_text
from machina_nb.rules.content import content_root
from machina_nb.rules.errors import ContentError, RulesError

FOLDER = content_root() / "situations"
SHOWN = ["sight_corner", "sarall_door", "hall_20x20", "spawn_rounds", "two_bites"]


def code(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def text_of(name: str) -> str:
    return (FOLDER / f"{name}.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", SHOWN)
def test_a_link_reopens_its_situation_with_the_same_answers(name):
    link = situation_link(text_of(name), DEFAULT_BASE)
    assert link.startswith(DEFAULT_BASE + "?situation=")
    assert "=" not in link.partition("?situation=")[2]            # no padding
    text = situation_from_link(link)
    assert text == text_of(name)
    assert ask(situation_from_text(text)) == ask(load_situation(FOLDER / f"{name}.toml"))
    query = link.partition("?")[2]
    assert situation_from_link(query) == situation_from_link("?" + query + "&x=1#top") == text


def test_machina_link_prints_the_link_the_function_builds():
    path = "content/situations/sarall_door.toml"
    result = machina("link", path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == situation_link(text_of("sarall_door"), DEFAULT_BASE) + "\n"
    result = machina("link", path, "--base", "http://10.0.0.5:9000/app")
    assert result.stdout.startswith("http://10.0.0.5:9000/app?situation=")
    assert situation_from_link(result.stdout.strip()) == text_of("sarall_door")


@pytest.mark.parametrize("args, message", [
    (("content/situations/nothing.toml",), "content/situations/nothing.toml:1:1: cannot read"),
    (("tests/bad_content/ragged.map",), "tests/bad_content/ragged.map:1:1: bad TOML"),
    (("content/situations/sarall_door.toml", "--base", ""), "base: expected the app's address"),
])
def test_machina_link_refuses_in_one_line(args, message):
    result = machina("link", *args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"machina: {message}") and result.stderr.count("\n") == 1


def test_a_situation_too_large_for_a_link_is_refused_naming_the_text():
    rows = "\n".join(f"# {i} {base64.b64encode(bytes([i % 256]) * 40).decode()}"
                     for i in range(3000))
    with pytest.raises(RulesError, match=r"^text: the situation is too large for a link"):
        situation_link(text_of("sight_corner") + rows, DEFAULT_BASE)
    with pytest.raises(ContentError, match=r"^text:1:1: "):
        situation_link("x = 1", DEFAULT_BASE)


BOMB = zlib.compress(b" " * (8 * MAX_TEXT), 9)


@pytest.mark.parametrize("link, message", [
    ("?situation=ab*cd", "not base64url"),
    ("?situation=abcde", "not base64url"),
    ("?situation=" + code(b"plain text"), "not zlib-compressed data"),
    ("?situation=" + code(zlib.compress(text_of("sight_corner").encode())[:-6]), "cut short"),
    ("?situation=" + code(zlib.compress(text_of("sight_corner").encode()) + b"!"), "goes on after"),
    ("?situation=" + code(zlib.compress("kind = 'situation'".encode("utf-16"))), "not UTF-8"),
    ("?situation=" + "A" * (MAX_LINK + 1), "at most 16,384"),
    ("?situation=" + code(BOMB), "inflate past 262,144 bytes"),
    ("?situation=" + code(zlib.compress(b'kind = "situation"\nid = "x"\n')), "refused at line"),
    ("?situation=" + code(zlib.compress(b'kind = "situation"\nid = "x"\ntitle = "t"\nmap = 3\n')),
     "refused at line 4, column"),
    ("http://127.0.0.1:8866/?other=1", "expected one situation= in the link, found 0"),
    ("?situation=a&situation=b", "found 2"),
    ("?situation=", "is empty"),
])
def test_a_bad_link_is_refused_in_one_line_naming_link(link, message):
    assert len(code(BOMB)) <= MAX_LINK                   # the bomb fits in a link
    with pytest.raises(RulesError) as refused:
        situation_from_link(link)
    text = str(refused.value)
    assert text.startswith("link: ") and message in text and "\n" not in text


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_*%=",
               max_size=200))
def test_any_query_is_read_or_refused_in_one_line(junk):
    try:
        situation_from_link("?situation=" + junk)
    except RulesError as exc:
        assert str(exc).startswith("link: ") and "\n" not in str(exc)


# --- the posts: Markdown and BoardGameGeek BBCode ------------------------------------------------

def test_the_bbcode_post_draws_the_board_as_labelled_map_text_and_heads_answers_in_words():
    s = load_situation(FOLDER / "sarall_door.toml")
    link = situation_link(text_of("sarall_door"))
    post = to_bbcode(s, link=link)
    block = post.split("[c]\n")[1].split("\n[/c]")[0].splitlines()
    assert block[0].split() == list("ABCDEF") and block[8] == "4 |S . . . P .|"
    assert "[b]What does Sarall (S) do on its mindless turn, step by step?[/b]" in post
    assert "Units: S = Sarall (monster) on A4, P = Phillip (explorer) on E4" in post
    assert "(in force: a monster's path goes round units)" in post
    assert post.rstrip().endswith(f"[url={link}]Open this situation in the rules explorer[/url]")
    for name in ("sarall_turn", "sees_lorrai", "closest_explorer"):
        assert name not in post
    assert post.count("[b]") == post.count("[/b]") and "[img]" not in post


def test_the_markdown_heads_each_answer_and_each_column_with_the_question_in_words():
    s = load_situation(FOLDER / "sight_corner.toml")
    text = to_markdown(s)
    assert "- **Can Kim (K) see Lorrai (L)?** " in text
    assert "| reading | Can Kim (K) see Lorrai (L)? |" in text
    assert "sees_lorrai" not in text
