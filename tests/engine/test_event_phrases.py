"""Every event is a phrase of the phrasebook with typed fields: none is free text."""

import ast
from pathlib import Path

import pytest

from machina_nb.rules.engine.phrases import PHRASES
from machina_nb.rules.engine.resolution import Event, Resolution

_PACKAGE = Path(__file__).resolve().parents[2] / "machina_nb"


def test_an_event_written_as_words_is_refused():
    with pytest.raises(KeyError, match="phrasebook"):
        Event("health", "kim loses 2 health (5 -> 3)")


def test_emit_refuses_words_that_are_no_phrase():
    r = Resolution.__new__(Resolution)
    with pytest.raises(KeyError, match="phrasebook"):
        r.emit("health", "kim loses 2 health", "manual p18")


def test_every_event_phrase_is_a_key_of_the_phrasebook():
    """Every ``emit`` in the package names its phrase by a key (a constant, or an expression
    whose every string constant is a key or a piece of one)."""
    keys = "\n".join(PHRASES)
    count = 0
    for path in sorted(_PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "emit" and len(node.args) >= 2):
                continue
            count += 1
            phrase = node.args[1]
            if isinstance(phrase, ast.Constant):
                assert phrase.value in PHRASES, f"{path.name}:{node.lineno}: {phrase.value!r}"
                continue
            pieces = [n.value for n in ast.walk(phrase)
                      if isinstance(n, ast.Constant) and isinstance(n.value, str)]
            for piece in pieces:
                assert " " not in piece and piece in keys, f"{path.name}:{node.lineno}: {piece!r}"
    assert count > 150


def test_every_phrase_is_said_with_plain_placeholders():
    for key, template in PHRASES.items():
        assert key.replace("_", "").isalnum(), key
        assert "{{" not in template, key
