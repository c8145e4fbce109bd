"""The bad-content corpus: every malformed file is refused at its exact file:line:col.

Each case in ``tests/bad_content/`` breaks one rule of the formats in
content/README.md; the table says where the error must point and what it
must say. Loaders raise and return nothing: no content half-loads.
"""

import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from machina_nb.rules import content, rulings
from machina_nb.rules.board import tiles
from machina_nb.rules.board.maptext import SpaceKind, parse_map
from machina_nb.rules.cards import catalog
from machina_nb.rules.cards.examples import load_example
from machina_nb.rules.cards.units import load_units
from machina_nb.rules.errors import ContentError

CORPUS = Path(__file__).parents[1] / "bad_content"

# file -> (line, column, a fragment of the message)
EXPECTED = {
    # map text (content/README.md "Map text"; manual p11)
    "ragged.map": (3, 4, "ragged line: expected 5 characters"),
    "unknown_space_char.map": (4, 4, "unknown space character '@'"),
    "wall_on_space.map": (2, 4, "wall character '|' on a space position"),
    "dash_on_vertical.map": (2, 3, "'-' is not a wall on a vertical border"),
    "pipe_on_horizontal.map": (3, 2, "'|' is not a wall on a horizontal border"),
    "edge_off_ring.map": (3, 4, "edge 'e' off the outer ring"),
    "bad_corner.map": (3, 3, "corner positions take '+' or a blank"),
    "unknown_border.map": (4, 3, "unknown border character 'q'"),
    "door_on_ring.map": (4, 5, "the outer ring takes '|' (boundary)"),
    "even_width.map": (1, 3, "odd length 2W+1"),
    "even_line_count.map": (4, 1, "odd number 2H+1"),
    "unit_without_legend.map": (4, 4, "unit letter 'K' has no entry in the board's legend"),
    "empty.map": (1, 1, "empty map"),
    # tiles (manual p11: 10x10, at most 4 edges a side, one direction symbol)
    "tile_two_directions.toml": (28, 12, "a second direction symbol 'E'"),
    "tile_no_direction.toml": (7, 7, "no direction symbol"),
    "tile_five_edges.toml": (8, 20, "side N has 5 edges"),
    "tile_9x10.toml": (7, 7, "a tile side is 10x10 spaces, got 10x9"),
    "tile_unit_letter.toml": (11, 6, "tiles hold no units"),
    "tile_ragged_line.toml": (13, 21, "ragged line: expected 21 characters"),
    "tile_one_side.toml": (5, 1, "exactly sides 'a' and 'b'"),
    "tile_missing_name.toml": (1, 1, "missing key 'name'"),
    "tile_id_not_text.toml": (2, 6, "'id' must be a tile id"),
    "tile_side_name_missing.toml": (31, 1, "missing key 'name' (the side's name)"),
    # any TOML file
    "bad_toml_syntax.toml": (2, 10, "bad TOML"),
    "duplicate_key.toml": (5, 13, "bad TOML: Cannot overwrite a value"),
    "wrong_kind.toml": (1, 8, "unknown content kind 'spaceship'"),
    "no_kind.toml": (1, 1, "unknown content kind None"),
    # units (manual p18: attributes 0-9, two kinds of unit; p33 classes)
    "units_attribute_12.toml": (21, 11, "stamina 12 out of range"),
    "units_negative_health.toml": (10, 10, "health -1 out of range"),
    "units_unknown_kind.toml": (17, 8, "unknown unit kind 'villager'"),
    "units_missing_invented.toml": (15, 1, "missing key 'invented'"),
    "units_bad_class.toml": (18, 9, "unknown class 'wizard'"),
    "units_monster_essence.toml": (11, 11, "only explorers have essence"),
    "units_armor_text.toml": (8, 8, "'will' must be the will value"),
    "units_unknown_key.toml": (19, 10, "unknown key 'armour'"),
    "units_level_5.toml": (6, 9, "monster level 5 out of range 1-4"),
    "units_explorer_level.toml": (19, 9, "explorers have no level"),
    "units_bad_stated.toml": (24, 10, "'stated' names 'luck'"),
    "units_ability_no_text.toml": (27, 1, "missing key 'text'"),
    "units_bad_id.toml": (15, 1, "unit id 'Kim' must be lower-case"),
    # ability records: the engine's vocabulary (manual p20-27; abilities.EFFECT_OPS, SCOPES...)
    "units_ability_unknown_op.toml": (21, 5, "unknown effect 'hurl'"),
    "units_ability_bad_scope.toml": (18, 34, "unknown scope 'everyone_nearby'"),
    "units_ability_bad_destroy.toml": (17, 23, "unknown destroy cost 'door'"),
    "units_ability_bad_trigger.toml": (18, 1, "unknown trigger 'healed'"),
    "units_ability_up_to_on_move.toml": (17, 55, "only a push or a pull may read 'up to N'"),
    # «enters play» (manual p20): effect tables checked like ability effects
    "units_enters_play_bad_scope.toml": (17, 25, "unknown scope 'everyone_nearby'"),
    # items (manual p30: four types, weapons one- or two-handed; bonuses to attributes)
    "items_bad_type.toml": (5, 8, "unknown item type 'gadget'"),
    "items_bad_bonus.toml": (7, 11, "a bonus is one of armor, will, health, stamina"),
    "items_weapon_no_hands.toml": (3, 1, "a weapon is one- or two-handed"),
    "items_unknown_key.toml": (7, 10, "unknown key 'armour' in an item"),
    # item abilities: the same vocabulary and checks as unit abilities (manual p20-27)
    "items_ability_bad_trigger.toml": (13, 1, "unknown trigger 'healed'"),
    "items_ability_bad_second.toml": (14, 1, "unknown target kind 'wizard'"),
    "items_ability_bad_destroy.toml": (12, 25, "unknown destroy cost 'door'"),
    "items_ability_bad_kind.toml": (11, 1, "unknown ability kind 'reactive'"),
    # events and chapters (manual p14, p37, p28; ratings 0-9 like the sliders, p13-14)
    "events_bad_kind.toml": (6, 8, "an event is 'horror' or 'explorer'"),
    "events_unknown_op.toml": (7, 15, "unknown effect 'earthquake'"),
    "chapters_bad_rating.toml": (6, 16, "spawn_rating: attributes are whole numbers 0-9"),
    # examples
    "example_unknown_preset.toml": (5, 9, "unknown rules preset 'v4'"),
    "example_missing_legend_entry.toml": (10, 2, "unit letter 'Q' has no entry in the board's legend"),
    "example_duplicate_letter.toml": (10, 2, "'L' appears twice (first at line 8, column 2)"),
    "example_unknown_unit.toml": (17, 5, "unknown unit 'cthulhu'"),
    "example_unused_legend.toml": (18, 5, "legend letter 'H' is not on the board"),
    "example_unknown_ruling.toml": (16, 15, "unknown ruling 'los.vertx'"),
    "example_unknown_ruling_reading.toml": (16, 16, "unknown reading 'sometimes' for los.vertex"),
    "example_bad_step_actor.toml": (25, 9, "actor 'Z' is not a unit letter"),
    "example_step_off_board.toml": (26, 10, "target [2, 0] must be [x, y] on the 2x2 board"),
    "example_step_missing_do.toml": (28, 1, "missing key 'do'"),
    "example_bad_page.toml": (4, 8, "page 'page 22' must cite a source"),
    "example_missing_outcome.toml": (1, 1, "missing key 'outcome'"),
    "example_wall_on_space.toml": (10, 2, "wall character '-' on a space position"),
    "example_dash_on_vertical.toml": (8, 3, "'-' is not a wall on a vertical border"),
    # rulings (checked against the code's switch declarations)
    "rulings_unknown_name.toml": (18, 1, "ruling 'los.vertexx' is not a switch the code declares"),
    "rulings_unknown_reading.toml": (26, 13, "unknown reading 'sometimes' for los.vertex"),
    "rulings_reading_not_explained.toml": (24, 1, "reading 'any_two' of los.vertex is not explained"),
    "rulings_empty_explanation.toml": (27, 11, "needs an explanation"),
    "rulings_missing_question.toml": (18, 1, "missing key 'question'"),
    "rulings_default_differs.toml": (22, 11, "default 'any_two' differs from the code's default"),
    "rulings_sources_not_list.toml": (20, 11, "'sources' must be a list of citations"),
    "rulings_unknown_topic.toml": (24, 9, "unknown topic 'sihgt' (did you mean 'sight'?)"),
    "rulings_label_repeated.toml": (34, 11, "'touch_ok' and 'any_two' of los.vertex have the same"),
    "rulings_label_not_plain.toml": (33, 12, "must be a few plain words"),
    "rulings_label_missing.toml": (31, 1, "reading 'any_two' of los.vertex is not given a label"),
    "rulings_unknown_key.toml": (25, 10, "unknown key 'topics' in ruling los.vertex"),
}


def test_the_corpus_and_the_table_agree():
    assert sorted(p.name for p in CORPUS.iterdir()) == sorted(EXPECTED)
    assert len(EXPECTED) >= 30


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_content_is_refused_at_its_exact_position(name):
    line, col, fragment = EXPECTED[name]
    path = CORPUS / name
    loaded = None
    with pytest.raises(ContentError) as info:
        loaded = catalog.validate(path)
    error = info.value
    assert loaded is None
    assert (error.path, error.line, error.col) == (str(path), line, col)
    assert fragment in error.message
    assert str(error).startswith(f"{path}:{line}:{col}: ")


def test_rulings_files_are_checked_by_rulings_in_file_too():
    toml = content.read_toml(CORPUS / "rulings_unknown_reading.toml")
    with pytest.raises(ContentError) as info:
        rulings.rulings_in_file(toml)
    assert (info.value.line, info.value.col) == (26, 13)


def test_a_bad_rulings_file_adds_nothing_to_the_rulings_already_loaded():
    """The file's first ruling is good, its second bad: the caller's dict stays as it was."""
    loaded = {}
    with pytest.raises(ContentError):
        rulings.rulings_in_file(content.read_toml(CORPUS / "rulings_unknown_reading.toml"), loaded)
    assert loaded == {}


def test_a_bad_tile_among_good_ones_fails_the_whole_folder(tmp_path):
    shutil.copy(content.content_root() / "tiles" / "t01.toml", tmp_path / "t01.toml")
    shutil.copy(CORPUS / "tile_five_edges.toml", tmp_path / "t02.toml")
    assert tiles.load_tile(tmp_path / "t01.toml").id == "t01"
    with pytest.raises(ContentError) as info:
        tiles.load_tiles(tmp_path)
    assert info.value.path == str(tmp_path / "t02.toml")


def test_a_units_file_with_one_bad_unit_loads_no_unit():
    """Sarall (first) is good, Kim (second) is not: nothing comes back."""
    with pytest.raises(ContentError) as info:
        load_units(CORPUS / "units_attribute_12.toml")
    assert info.value.line == 21


def test_the_loaders_refuse_a_file_of_another_kind():
    tile = content.content_root() / "tiles" / "t01.toml"
    with pytest.raises(ContentError, match="expected kind = 'units', got 'tile'"):
        load_units(tile)
    with pytest.raises(ContentError, match="expected kind = 'example', got 'tile'"):
        load_example(tile)
    with pytest.raises(ContentError, match="expected kind = 'tile', got 'units'"):
        tiles.load_tile(content.content_root() / "units" / "core.toml")


def allowed_at(row, col, height, width):
    """The characters the map text allows at a position of a tile (content/README.md)."""
    if row % 2 == 0 and col % 2 == 0:
        return "+ "
    if row % 2 == 1 and col % 2 == 1:
        return "".join(kind.value for kind in SpaceKind)
    if row % 2 == 1:
        return "|eE" if col in (0, width - 1) else " |dDx"
    return "-eE" if row in (0, height - 1) else " -dDx"


SIDES = [side for tile in tiles.load_tiles().values() for side in tile.sides]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SIDES), st.data())
def test_one_corrupted_character_is_reported_at_its_exact_position(side, data):
    lines = side.layout.to_text().splitlines()
    height, width = len(lines), len(lines[0])
    row = data.draw(st.integers(0, height - 1), label="row")
    col = data.draw(st.integers(0, width - 1), label="col")
    allowed = allowed_at(row, col, height, width)
    char = data.draw(st.characters(min_codepoint=32, max_codepoint=126)
                     .filter(lambda c: c not in allowed), label="char")
    lines[row] = lines[row][:col] + char + lines[row][col + 1:]
    with pytest.raises(ContentError) as info:
        parse_map("\n".join(lines) + "\n", "side.map")
    assert (info.value.path, info.value.line, info.value.col) == ("side.map", row + 1, col + 1)
