"""The rulings prose in content/rulings: complete, cited, and agreeing with the code.

Every switch declared in ``machina_nb.rules.rulings.SWITCHES`` has a question,
an explanation of each reading, sources with pages and an example written in
``content/rulings/*.toml``, each citing a rule source of docs/SOURCES.md and carrying the
ruling IDs the code names it by.
"""

import os
import re
import shutil

import pytest
from seeds import seed_text

from machina_nb.rules.analysis.reference import load_reference
from machina_nb.rules.cards.catalog import validate
from machina_nb.rules.content import content_root, read_toml
from machina_nb.rules.errors import ContentError
from machina_nb.rules.rulings import PRESETS, SWITCHES, Rules, load_rulings
from machina_nb.rules.sources import SOURCES

RULINGS = load_rulings()
RULINGS_DIR = content_root() / "rulings"
FILES = sorted(RULINGS_DIR.glob("*.toml"))

# A citation names a manual page, a 3.5 section or FAQ, an aid section or table, or a section
# of a peer game's summary (docs/SOURCES.md).
CITATION = re.compile(r"^(manual p\d+|3\.5 (§|FAQ)|aid (§|table)|(Arkham|Mansions) summary \()")
# Which words in a reading's explanation and in the sources name each preset's source.
PRESET_SOURCE = {"v3_5": "3.5", "player_aid": "aid"}
# The rule sources' texts (tests/seeds.py: shared/seeds beside the checkout, or MACHINA_SEEDS).
SOURCE_TEXTS = [seed_text(key) for key in SOURCES]


def test_load_rulings_covers_exactly_the_declared_switches():
    assert set(RULINGS) == set(SWITCHES)
    for name, ruling in RULINGS.items():
        assert set(ruling.readings) == set(SWITCHES[name].readings), name


def test_each_rulings_file_validates_on_its_own():
    assert FILES, "no content/rulings/*.toml"
    seen: dict[str, str] = {}
    for path in FILES:
        for name in validate(path):
            assert name not in seen, f"{name} in {seen.get(name)} and {path.name}"
            seen[name] = path.name
    assert set(seen) == set(SWITCHES)


@pytest.mark.parametrize("name", list(SWITCHES))
def test_every_ruling_cites_a_page_or_section_and_carries_its_ruling_ids(name):
    sources = RULINGS[name].sources
    assert any(CITATION.match(source) for source in sources), sources
    for item in SWITCHES[name].spec.split():
        if item[:1] in "CD":       # a ruling ID: the prose carries it, so a reader can look it up
            assert item in RULINGS[name].ids, f"{name} should carry the ruling ID {item}"


@pytest.mark.parametrize("name", list(SWITCHES))
def test_every_ruling_has_a_question_explanations_and_an_example(name):
    ruling = RULINGS[name]
    assert "\n" not in ruling.question and ruling.question.endswith("?")
    for reading, text in ruling.readings.items():
        assert text.strip(), f"{name}: reading {reading} is not explained"
    # The example is a situation where the readings differ: it names at least two of them.
    named = [r for r in ruling.readings if re.search(rf"(?<![\w.]){re.escape(r)}(?![\w])",
                                                      ruling.example)]
    assert len(named) >= 2, f"{name}: the example names {named}"


def test_every_file_states_each_default_and_it_is_the_codes():
    for path in FILES:
        toml = read_toml(path)
        for name, entry in toml.data.items():
            if name != "kind":
                assert entry.get("default") == SWITCHES[name].default, f"{path.name}: {name}"


@pytest.mark.parametrize("preset", sorted(PRESET_SOURCE))
def test_a_presets_readings_say_which_source_reads_it_that_way(preset):
    word = PRESET_SOURCE[preset]
    for name, switch in SWITCHES.items():
        reading = switch.presets.get(preset)
        if reading is None or reading == switch.default:
            continue
        assert word in RULINGS[name].readings[reading], f"{name}={reading} should name {word}"
        assert any(s.startswith(word) for s in RULINGS[name].sources), name


@pytest.mark.parametrize("name, reading", [("cost.event_space", "3"), ("cost.chapter_lit", "0")])
def test_aid_garbled_readings_are_flagged_low_confidence(name, reading):
    """The aid's cost column is damaged in the extracted text (rulings C-1, C-2)."""
    assert "LOW CONFIDENCE" in RULINGS[name].readings[reading]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_presets_summary_and_differences_read_with_the_prose(preset):
    rules = Rules.preset(preset)
    summary = rules.summary()
    assert summary.splitlines()[0] == f"Rules preset: {preset}"
    assert all(name in summary for name in SWITCHES)
    for name, ours, theirs in Rules().differences(rules):
        # every difference can be explained to a reader from the prose
        assert RULINGS[name].readings[ours] and RULINGS[name].readings[theirs]
        assert RULINGS[name].question


def test_a_ruling_missing_from_content_is_an_error(tmp_path):
    for path in FILES:
        shutil.copy(path, tmp_path / path.name)
    engine = tmp_path / "engine.toml"
    text = engine.read_text(encoding="utf-8")
    start = text.index('["queue.mid_phase_spawn"]')
    end = text.index('["markers.skipped_horror_phase"]')
    engine.write_text(text[:start] + text[end:], encoding="utf-8")
    with pytest.raises(ContentError, match="queue.mid_phase_spawn"):
        load_rulings(tmp_path)


def test_a_reading_the_code_does_not_declare_is_an_error_at_its_line(tmp_path):
    source = RULINGS_DIR / "board.toml"
    lines = source.read_text(encoding="utf-8").split("\n")
    row = next(i for i, line in enumerate(lines) if line.startswith("touch_ok = "))
    lines[row] = lines[row].replace("touch_ok", "touches_ok", 1)
    broken = tmp_path / "board.toml"
    broken.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(ContentError) as info:
        validate(broken)
    assert (info.value.line, info.value.col) == (row + 1, len("touches_ok = ") + 1)
    assert "touches_ok" in info.value.message


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _source_runs() -> set[tuple[str, ...]]:
    """Every run of 8 words of the manual, the 3.5 update and the aid (skips the test when
    the sources are not beside the checkout, fails when CI requires them)."""
    missing = [str(p) for p in SOURCE_TEXTS if not p.exists()]
    if missing:
        message = (f"originality check not run: the rule source texts are not here ({missing[0]}"
                   f"{' and more' if len(missing) > 1 else ''}); put shared/seeds beside the "
                   "checkout or set MACHINA_SEEDS to the seeds folder")
        if os.environ.get("MACHINA_REQUIRE_SEEDS"):
            pytest.fail(message + " (MACHINA_REQUIRE_SEEDS is set: CI must run this check)")
        pytest.skip(message)
    runs = set()
    for path in SOURCE_TEXTS:
        source = _words(path.read_text(encoding="utf-8"))
        runs |= {tuple(source[i:i + 8]) for i in range(len(source) - 7)}
    return runs


def _copied(text: str, runs: set[tuple[str, ...]]) -> list[str]:
    found = _words(text)
    return [" ".join(found[i:i + 8]) for i in range(len(found) - 7)
            if tuple(found[i:i + 8]) in runs]


def test_the_prose_is_our_own_words_not_the_sources():
    """No run of 8 words from the manual, the 3.5 update or the aid appears in any ruling."""
    runs = _source_runs()
    for name, ruling in RULINGS.items():
        for text in (ruling.question, ruling.example, *ruling.readings.values(),
                     ruling.plain_question, *ruling.labels.values()):
            copied = _copied(text, runs)
            assert not copied, f"{name}: {copied[0]!r}"


def test_the_rules_reference_is_our_own_words_not_the_sources():
    """No run of 8 words from the sources appears in an entry's title or text or a glossary
    term of the rules reference (content/reference)."""
    runs = _source_runs()
    reference = load_reference()
    for entry in reference.entries:
        for text in (entry.title, *entry.paragraphs):
            copied = _copied(text, runs)
            assert not copied, f"{entry.where}: {copied[0]!r}"
    for term in reference.terms:
        copied = _copied(f"{term.term} {term.means}", runs)
        assert not copied, f"{term.where}: {copied[0]!r}"
