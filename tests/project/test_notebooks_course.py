"""The notebooks read as a course: each opens with what it teaches and closes with quiz
questions whose answers the rules compute (checked by nbval), and stays small."""

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted(p for p in (Path(__file__).parents[2] / "notebooks").glob("[0-9]*.ipynb"))


def cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def source(cell: dict) -> str:
    return "".join(cell["source"])


def test_the_course_has_its_eleven_notebooks_in_order():
    assert [p.stem[:2] for p in NOTEBOOKS] == [f"{n:02d}" for n in range(11)]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_each_notebook_opens_with_what_it_teaches(path):
    first = cells(path)[0]
    assert first["cell_type"] == "markdown"
    assert source(first).startswith(f"# {path.stem[:2]} · ")
    assert "**In this notebook you will" in source(first)


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if not p.stem.startswith("10")],
                         ids=lambda p: p.stem)
def test_each_notebook_ends_with_quiz_questions_answered_by_the_rules(path):
    *_, check, quiz, _, key = cells(path)
    assert source(check).startswith("## Check yourself")
    assert "quiz_questions(" in source(quiz) and "QuizView(questions)" in source(quiz)
    assert source(key) == "# NBVAL_CHECK_OUTPUT\nanswer_key(questions)"
    html = "".join(key["outputs"][0]["data"]["text/html"])
    assert html.count("<details>") >= 3 and "The answer:" in html


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_notebooks_are_small_without_saved_bokehjs(path):
    text = path.read_text(encoding="utf-8")
    assert len(text) < 60_000 and "application/javascript" not in text
    assert "Bokeh" not in "".join(json.dumps(c.get("outputs", [])) for c in cells(path))
