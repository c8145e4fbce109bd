"""Arkham LCG hunters on small location graphs: every tied move returned, none picked silently.

Oracle: networkx's ``all_shortest_paths`` from the hunter to each nearest investigator; the
allowed moves are exactly the second locations of those paths (Arkham summary (Keywords:
Hunter; The Enemy Phase)).
"""

import random

import networkx as nx
import pytest

from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.maptext import parse_map
from machina_nb.rules.content import content_root
from machina_nb.rules.errors import ContentError
from machina_nb.rules.peers.hunters import (
    Hunter,
    Investigator,
    Locations,
    Prey,
    enemy_phase,
    hunter_move,
    load_locations,
    rooms_as_locations,
)

HOUSE = load_locations(content_root() / "peers" / "the_house.toml")
DIAMOND = Locations.of({"a": ["b", "c"], "b": ["a", "d"], "c": ["a", "d"], "d": ["b", "c"]})
ONE_WAY = Locations.of({"a": ["b"], "b": ["c"], "c": ["a"]})


def destinations(move):
    return [o.destination for o in move.options]


def test_the_house_loads_with_titles_and_connections():
    assert HOUSE.title("crypt") == "Crypt"
    assert ("crypt", "cellar") in HOUSE.connections and len(HOUSE.names) == 6


def test_two_shortest_paths_to_one_investigator_are_both_returned():
    move = hunter_move(DIAMOND, Hunter("ghoul", "a"), (Investigator("Roland", "d"),))
    assert destinations(move) == ["b", "c"] and move.chooser == "the lead investigator"
    assert move.distance == 2 and "lead investigator chooses" in move.explain()


def test_two_equally_near_investigators_are_both_returned_with_whom_each_move_heads_for():
    move = hunter_move(HOUSE, Hunter("ghoul", "hallway"),
                       (Investigator("Daisy", "cellar"), Investigator("Agnes", "study")))
    assert [(o.destination, o.toward) for o in move.options] == [
        ("cellar", ("Daisy",)), ("study", ("Agnes",))]
    assert move.chooser == "the lead investigator"


def test_prey_breaks_the_tie_between_investigators():
    daisy = Investigator("Daisy", "cellar", (("combat", 2),))
    roland = Investigator("Roland", "study", (("combat", 4),))
    move = hunter_move(HOUSE, Hunter("ghoul", "hallway", prey=Prey("highest", "combat")),
                       (daisy, roland))
    assert destinations(move) == ["study"] and move.chooser == "nobody"
    move = hunter_move(HOUSE, Hunter("ghoul", "hallway", prey=Prey("lowest", "combat")),
                       (daisy, roland))
    assert destinations(move) == ["cellar"]
    # a prey instruction that leaves them tied: the lead investigator still chooses
    tied = Investigator("Agnes", "study", (("combat", 2),))
    move = hunter_move(HOUSE, Hunter("ghoul", "hallway", prey=Prey("lowest", "combat")),
                       (daisy, tied))
    assert destinations(move) == ["cellar", "study"] and "tied" in move.explain()


def test_prey_only_matters_between_equally_near_investigators():
    move = hunter_move(HOUSE, Hunter("ghoul", "crypt", prey=Prey("only", name="Roland")),
                       (Investigator("Daisy", "hallway"), Investigator("Roland", "attic")))
    assert destinations(move) == ["cellar"] and move.options[0].toward == ("Daisy",)


@pytest.mark.parametrize("hunter, why", [
    (Hunter("ghoul", "a", exhausted=True), "exhausted"),
    (Hunter("ghoul", "a", engaged=True), "engaged"),
    (Hunter("ghoul", "d"), "at its location"),
])
def test_hunters_that_stay(hunter, why):
    move = hunter_move(DIAMOND, hunter, (Investigator("Roland", "d"),))
    assert move.stays and why in move.explain()


def test_connections_run_one_way_when_listed_on_one_card_only():
    move = hunter_move(ONE_WAY, Hunter("ghoul", "b"), (Investigator("Roland", "a"),))
    assert destinations(move) == ["c"] and move.distance == 2
    unreachable = Locations.of({"a": [], "b": ["a"]})
    assert hunter_move(unreachable, Hunter("g", "a"), (Investigator("R", "b"),)).stays


def test_enemy_phase_moves_each_hunter_from_the_same_positions():
    moves = enemy_phase(DIAMOND, [Hunter("g1", "a"), Hunter("g2", "b", exhausted=True)],
                        [Investigator("Roland", "d")])
    assert [destinations(m) for m in moves] == [["b", "c"], []]


def _oracle(locations, start, investigators):
    graph = locations.graph
    if any(i.location == start for i in investigators):
        return set()
    lengths = nx.single_source_shortest_path_length(graph, start)
    reach = [i for i in investigators if i.location in lengths]
    if not reach:
        return set()
    best = min(lengths[i.location] for i in reach)
    return {path[1] for i in reach if lengths[i.location] == best
            for path in nx.all_shortest_paths(graph, start, i.location)}


@pytest.mark.parametrize("seed", range(25))
def test_random_location_graphs_against_all_shortest_paths(seed):
    rng = random.Random(seed)
    names = [f"l{i}" for i in range(rng.randint(3, 9))]
    connects = {n: [m for m in names if m != n and rng.random() < 0.3] for n in names}
    locations = Locations.of(connects)
    investigators = tuple(Investigator(f"i{k}", rng.choice(names)) for k in range(rng.randint(1, 3)))
    for start in names:
        move = hunter_move(locations, Hunter("h", start), investigators)
        assert set(destinations(move)) == _oracle(locations, start, investigators)
        assert (move.chooser == "the lead investigator") == (len(move.options) > 1)


def test_rooms_of_a_map_become_locations_joined_by_doors():
    board = Board.from_layout(parse_map("+-+-+-+\n|.d. .|\n+-+-+D+\n|. . .|\n+-+-+-+\n"))
    locations, room_of = rooms_as_locations(board)
    assert room_of[(0, 0)] == "room (0, 0)" and room_of[(2, 0)] == "room (1, 0)"
    assert room_of[(0, 1)] == room_of[(2, 1)] == "room (0, 1)"
    assert ("room (0, 0)", "room (1, 0)") in locations.connections
    assert ("room (1, 0)", "room (0, 1)") in locations.connections


BAD = [
    ('kind = "arkham_locations"\nname = "x"\n[location.a]\nname = "A"\nconnects = ["b"]\n',
     (5, 12), "not a location here"),
    ('kind = "arkham_locations"\nname = "x"\n[location.a]\nname = "A"\nconnects = ["a"]\n',
     (5, 12), "itself"),
    ('kind = "arkham_locations"\nname = "x"\n[location.a]\nname = "A"\n', (3, 1), "connects"),
    ('kind = "arkham_locations"\nname = "x"\n[location.A]\nname = "A"\nconnects = []\n',
     (3, 1), "lower-case"),
    ('kind = "arkham_locations"\nname = "x"\n[location.a]\nname = "A"\nconnects = []\ncolour = 1\n',
     (6, 10), "unknown key"),
    ('kind = "arkham_locations"\n[location.a]\nname = "A"\nconnects = []\n', (1, 1), "name"),
    ('kind = "arkham"\nname = "x"\n', (1, 8), "kind"),
    ('kind = "arkham_locations"\nname = "x"\n[location.a]\nname = "A"\nconnects = ]\n',
     (5, 12), "bad TOML"),
]


@pytest.mark.parametrize("text, where, says", BAD)
def test_bad_location_files_are_refused_at_file_line_col(tmp_path, text, where, says):
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as info:
        load_locations(path)
    assert (info.value.line, info.value.col) == where, str(info.value)
    assert says in info.value.message and str(path) in str(info.value)
