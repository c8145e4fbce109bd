"""Every reference leads somewhere a reader of a clone can follow.

A citation names a rule source of docs/SOURCES.md (or a ruling that content/rulings carries
by ID); no text points at a document outside the repository (a specification's section
marks, issue numbers, a style guide's habits, the sources' file names); every `docs/` and
`content/` path named in the README, the docs and the code exists; every loader or function
that content/README.md names imports.
"""

import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import machina_nb.rules
from machina_nb.rules.rulings import SWITCHES, load_rulings
from machina_nb.rules.sources import SOURCES, source_of

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve()
TREES = ("machina_nb", "docs", "tests", "benchmarks", "content", "notebooks", "scripts")
SUFFIXES = {".py", ".md", ".toml", ".ipynb", ".map", ".txt", ".json"}

# Files other work is moving now, excused from every check here until the move lands; empty
# this as they do (what each still needs: a `Rules:` line on code that applies no rule).
KNOWN_OFFENDERS = {
}

OUTSIDE = {
    "a specification's section": re.compile("spec [A-F]-?[0-9]|spec §|§[A-F](?:[0-9]|\\b)"),
    "an issue number": re.compile("[Ii]ssue [0-9]+"),
    "a style guide's habit": re.compile("STYLE habit"),
    "a source's file name": re.compile("\\b[0-9]{3}_[0-9a-f]{16}\\b"),
}
"""What points outside the repository (the sources' file names live in tests/seeds.py only)."""


def texts():
    """(path relative to the root, text) of every file a reader of the repository reads."""
    paths = [ROOT / "README.md", ROOT / "Makefile", ROOT / "pyproject.toml"]
    for tree in TREES:
        paths += sorted(p for p in (ROOT / tree).rglob("*")
                        if p.is_file() and p.suffix in SUFFIXES and ".ipynb_checkpoints" not in
                        p.parts and "__pycache__" not in p.parts)
    return [(p.relative_to(ROOT).as_posix(), p.read_text(encoding="utf-8")) for p in paths
            if p.exists() and p.resolve() != HERE]


TEXTS = texts()


def test_nothing_points_at_a_document_outside_the_repository():
    found = []
    for path, text in TEXTS:
        for number, line in enumerate(text.splitlines(), 1):
            if "re.compile(" in line:          # a test's own list of words the app must not show
                continue
            for what, pattern in OUTSIDE.items():
                if (pattern.search(line)
                        and not (what == "a source's file name" and path == "tests/seeds.py")
                        and path not in KNOWN_OFFENDERS):
                    found.append(f"{path}:{number}: {what}: {line.strip()[:100]}")
    assert not found, "\n".join(found)


def test_sources_md_and_the_sources_module_agree():
    text = (ROOT / "docs" / "SOURCES.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+?) \| ([^|]+?) \| ([^|]+?) \|$", text, re.M)
    assert [key for key, *_ in rows] == list(SOURCES)
    for key, title, role, cited in rows:
        source = SOURCES[key]
        assert title == source.title, key
        assert role.startswith(source.role), key
        for prefix in source.prefixes:
            assert f"`{prefix}" in cited, f"{key}: SOURCES.md does not show {prefix!r}"


RULING_IDS = ({i for ruling in load_rulings().values() for i in ruling.ids}
              | {i for switch in SWITCHES.values() for i in switch.spec.split()})
CITED_RULING = re.compile(r"\brulings? ((?:(?:C-\d+|D\d+)(?:-D\d+)?(?:, )?)+)")


def _parts(citations: str) -> list[str]:
    """A citation list split at top-level ';' and at ',' before a new source."""
    parts, depth, current = [], 0, ""
    for char in citations:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == ";" and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    return [p for p in parts + [current.strip()] if p]


def _names_no_source(part: str) -> bool:
    """A part of a citation that names neither a source, a ruling, a switch nor a page."""
    first = re.split(r"[\s=(,]", part.strip("`"), maxsplit=1)[0].strip("`")
    return not (source_of(part) or re.match(r"(rulings?|switch(es)?|p\d)\b", part)
                or first in SWITCHES)


def _rules_lines(text: str) -> list[str]:
    """The citations of each docstring's ``Rules:`` line (continued up to a full stop, a blank
    line or the docstring's end)."""
    found, lines = [], text.splitlines()
    for number, line in enumerate(lines):
        if not re.search(r"(?:^|\. )Rules: ", line.strip()):
            continue
        words = line.split("Rules: ", 1)[1]
        for more in lines[number + 1:]:
            if words.rstrip().endswith((".", '"""')) or not more.strip() or '"""' in more.strip()[:3]:
                break
            words += " " + more.strip()
        found.append(" ".join(words.split('"""')[0].split()).rstrip("."))
    return found


def test_every_citation_names_a_source_or_a_ruling_that_exists():
    bad = []
    for name, ruling in load_rulings().items():
        for source in ruling.sources:
            if not source_of(source) and not CITED_RULING.match(source):
                bad.append(f"content/rulings {name}: {source!r} names no source of SOURCES.md")
    for path, text in TEXTS:
        if not path.startswith("machina_nb/") or path in KNOWN_OFFENDERS:
            continue
        for line in _rules_lines(text):
            for part in _parts(line):
                if _names_no_source(part):
                    bad.append(f"{path}: Rules: {part!r} names no source of SOURCES.md")
    for path, text in TEXTS:
        for match in CITED_RULING.finditer(text):
            for item in re.findall(r"C-\d+|D\d+", match[1]):
                if item not in RULING_IDS:
                    bad.append(f"{path}: ruling {item} is carried by no ruling in content/rulings")
    assert not bad, "\n".join(bad)


PATH = re.compile(r"(?<![\w/.])((?:docs/[\w.-]+\.md)|(?:content/[\w*./-]*[\w*/]))")


@pytest.mark.parametrize("where", ["README.md", "docs", "machina_nb", "content/README.md"])
def test_every_docs_and_content_path_named_exists(where):
    missing = []
    for path, text in TEXTS + [("README.md", (ROOT / "README.md").read_text(encoding="utf-8"))]:
        if not path.startswith(where):
            continue
        for match in PATH.finditer(text):
            named = match[1].rstrip(".")
            if not (list(ROOT.glob(named)) or (ROOT / named).exists()):
                missing.append(f"{path}: {named}")
    assert not missing, "\n".join(sorted(set(missing)))


MODULES = {info.name for info in pkgutil.walk_packages(machina_nb.rules.__path__,
                                                       "machina_nb.rules.")}
SHORT = {}
for module in MODULES:
    SHORT.setdefault(module.rsplit(".", 1)[1], []).append(module)


def _resolves(dotted: str) -> bool:
    """Does ``dotted`` (relative to machina_nb.rules, or a unique module's short name, or
    whole) name a module or an attribute of one?"""
    if dotted in ("machina_nb", "machina_nb.rules"):
        return True
    parts = dotted.removeprefix("machina_nb.rules.").split(".")
    starts = [f"machina_nb.rules.{parts[0]}"] + SHORT.get(parts[0], [])
    for start in starts:
        if start not in MODULES:
            continue
        name, rest = start, parts[1:]
        while rest and f"{name}.{rest[0]}" in MODULES:
            name, rest = f"{name}.{rest[0]}", rest[1:]
        value = importlib.import_module(name)
        for attr in rest:
            value = getattr(value, attr, None)
        if value is not None:
            return True
    return False


def test_every_loader_and_function_content_readme_names_imports():
    text = (ROOT / "content" / "README.md").read_text(encoding="utf-8")
    table = text[text.index("| folder | kind | loader"):text.index("Every TOML file starts")]
    loaders = re.findall(r"`([\w.]+)\(", table)
    assert len(loaders) >= 10
    wrong = [name for name in loaders if not _resolves(name)]
    firsts = {m.rsplit(".", 1)[1] for m in MODULES} | {"machina_nb"}
    named = {m[1] for m in re.finditer(r"`([a-z_]+(?:\.[A-Za-z_]+)+)(?:\([^`]*\))?`", text)}
    wrong += [name for name in sorted(named) if name.split(".")[0] in firsts
              and name not in SWITCHES and not _resolves(name)]
    assert not wrong, wrong
