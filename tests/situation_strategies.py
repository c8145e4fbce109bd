"""A hypothesis strategy for legal situation files, and questions of every kind about them.

The strategy writes the file's text (the format is the contract between the editor, the
command line and the engine), so what it builds is what a player could type: a small board of
any spaces and borders, explorers and monsters from the shipped cards with current values and
items, whose turn it is, explorers who have already fallen, and a game around them (chapter,
decks, the current events, bound events, the endgame cards). ``questions`` then names one
question of every kind about that board's units and spaces.
"""

from __future__ import annotations

import json

from hypothesis import strategies as st

from machina_nb.rules.analysis.catalog import chapter_cards, event_cards, item_cards, unit_cards
from machina_nb.rules.analysis.questions import QUESTION_KINDS, REPORTS, SPACE_WORDS

UNITS = unit_cards()
EXPLORERS = sorted(k for k, c in UNITS.items() if c.kind == "explorer")
MONSTERS = sorted(k for k, c in UNITS.items() if c.kind == "monster")
ITEMS = sorted(item_cards())
MAIN_ITEMS = sorted(k for k, c in item_cards().items() if c.type != "consumable"
                    and c.augment is None)
"""Items an explorer may hold as a main item: no consumable, no augment (manual p30-32)."""
HORROR = sorted(k for k, c in event_cards().items() if c.kind == "horror")
EXPLORER_EVENTS = sorted(k for k, c in event_cards().items() if c.kind == "explorer")
CHAPTERS = sorted(chapter_cards())
SPACES = ".........sshvcltorbwg#"
"""Space characters, floor most often (content/README.md: map text)."""
BORDERS = "     |dDx"
"""Inner vertical borders, open most often; horizontal ones use ``-`` for the wall."""
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
STEPS = ("the monsters take their turns", "the horror roll", "{e} passes", "{e} starts",
         "{e} ends", "{m} acts", "{m} takes its turn", "{e} moves to ({x}, {y})",
         "{e} activates ({x}, {y})", "{e} explores", "{e} exits", "{e} rolls for spawn",
         "{m} ends", "{m} moves to ({x}, {y})")


def _toml(value):
    return json.dumps(value)


@st.composite
def boards(draw):
    """Map text ``w`` by ``h`` with its spaces and inner borders, and the spaces units may use."""
    w, h = draw(st.integers(2, 6)), draw(st.integers(1, 4))
    kinds = [[draw(st.sampled_from(SPACES)) for _ in range(w)] for _ in range(h)]
    if all(k == "#" for row in kinds for k in row):
        kinds[0][0] = "."                            # room for one unit at least
    lines = ["+" + "-+" * w]
    for y in range(h):
        row = "|"
        for x in range(w):
            row += kinds[y][x] + ("|" if x == w - 1 else draw(st.sampled_from(BORDERS)))
        lines.append(row)
        if y < h - 1:
            lines.append("+" + "".join(draw(st.sampled_from("     -dDx")).replace("|", "-") + "+"
                                       for _ in range(w)))
    lines.append("+" + "-+" * w)
    free = [(x, y) for y in range(h) for x in range(w) if kinds[y][x] not in "#"]
    return w, h, lines, free


@st.composite
def situations(draw):
    """The text of a legal situation file, and the letters of its explorers and monsters."""
    w, h, lines, free = draw(boards())
    spots = draw(st.lists(st.sampled_from(free), min_size=1, max_size=min(6, len(free)),
                          unique=True))
    n_explorers = draw(st.integers(1, min(3, len(spots))))
    explorers = draw(st.lists(st.sampled_from(EXPLORERS), min_size=n_explorers,
                              max_size=n_explorers, unique=True))
    monsters = draw(st.lists(st.sampled_from(MONSTERS), min_size=len(spots) - n_explorers,
                             max_size=len(spots) - n_explorers))
    units = []
    for letter, card, (x, y) in zip(LETTERS, explorers + monsters, spots):
        row = list(lines[2 * y + 1])
        under = row[2 * x + 1]
        row[2 * x + 1] = letter
        lines[2 * y + 1] = "".join(row)
        units.append((letter, card, under))
    text = ['kind = "situation"', 'id = "fuzz"', 'title = "a generated position"']
    if draw(st.booleans()):
        text.append(f"rules = {_toml(draw(st.sampled_from(['manual', 'v3_5', 'player_aid'])))}")
    text.append("map = '''\n" + "\n".join(lines) + "\n'''")
    for letter, card, under in units:
        text += ["", f"[unit.{letter}]", f"card = {_toml(card)}"]
        if under not in ".#":
            text.append(f"space = {_toml(under)}")
        c = UNITS[card]
        if draw(st.booleans()):
            text.append(f"health = {draw(st.integers(1, max(1, c.health)))}")
        if draw(st.booleans()):
            text.append(f"stamina = {draw(st.integers(0, c.stamina))}")
        if c.kind == "explorer" and draw(st.booleans()):
            text.append(f"items = {_toml(draw(st.lists(st.sampled_from(MAIN_ITEMS), max_size=1)))}")
    e_letters = [u[0] for u in units[:n_explorers]]
    m_letters = [u[0] for u in units[n_explorers:]]
    phase = draw(st.sampled_from(["explorer", "spawn", "horror", "monster"]))
    text += ["", "[turn]", f"phase = {_toml(phase)}"]
    actors = e_letters if phase == "explorer" else m_letters if phase == "monster" else []
    if actors and draw(st.booleans()):
        text.append(f"active = {_toml(draw(st.sampled_from(actors)))}")
    text += ["", "[game]"] + draw(games(explorers, e_letters, m_letters))
    return "\n".join(text) + "\n", e_letters, m_letters, (w, h)


@st.composite
def games(draw, explorers, e_letters, m_letters):
    """The ``[game]`` table's lines: chapter and decks, events, bound cards, the fallen."""
    out = []
    if draw(st.booleans()):
        out.append(f"chapter = {_toml(draw(st.sampled_from(CHAPTERS)))}")
        out.append(f"chapters = {_toml(draw(st.lists(st.sampled_from(CHAPTERS), max_size=2)))}")
    if draw(st.booleans()):
        out.append(f"endgame = {_toml(draw(st.lists(st.sampled_from(CHAPTERS), max_size=1)))}")
    for key, pool in (("monsters", MONSTERS), ("horror_events", HORROR),
                      ("horror_destroyed", HORROR), ("explorer_events", EXPLORER_EVENTS),
                      ("explorer_destroyed", EXPLORER_EVENTS)):
        if draw(st.booleans()):
            out.append(f"{key} = {_toml(draw(st.lists(st.sampled_from(pool), max_size=2)))}")
    fallen = draw(st.lists(st.sampled_from([e for e in EXPLORERS if e not in explorers]),
                           max_size=2, unique=True))
    if fallen:
        out.append(f"fallen = {_toml(fallen)}")
    bound = {}
    if draw(st.booleans()):
        bound[draw(st.sampled_from(e_letters))] = [draw(st.sampled_from(EXPLORER_EVENTS))]
    if m_letters and draw(st.booleans()):
        bound[draw(st.sampled_from(m_letters))] = [draw(st.sampled_from(HORROR))]
    if bound:
        out.append("bound = { " + ", ".join(f"{k} = {_toml(v)}" for k, v in bound.items()) + " }")
    if draw(st.booleans()):
        out.append(f"threat = {draw(st.integers(1, 5))}")
        out.append(f"level = {draw(st.integers(1, 5))}")
    return out


@st.composite
def questions(draw, e_letters, m_letters, size):
    """One ``[[question]]`` of every kind about the situation's units and spaces."""
    w, h = size
    every = e_letters + m_letters
    unit = st.sampled_from(every)
    monster = st.sampled_from(m_letters) if m_letters and draw(st.integers(0, 4)) else unit
    space = st.tuples(st.integers(0, w - 1), st.integers(0, h - 1)).map(list)
    ref = st.one_of(unit, space)
    x, y = draw(space)
    steps = [s.format(e=draw(st.sampled_from(e_letters)),
                      m=draw(st.sampled_from(m_letters or e_letters)), x=x, y=y)
             for s in draw(st.lists(st.sampled_from(STEPS), min_size=1, max_size=4))]
    dice = draw(st.lists(st.integers(0, 2), max_size=6))
    keys = {
        "sight": {"from": draw(ref), "to": draw(ref)},
        "target": {"from": draw(ref), "to": draw(ref),
                   "icon": draw(st.sampled_from(["melee", "ranged", "ranged_through"])),
                   "range": draw(st.integers(0, 5))},
        "reach": {"unit": draw(unit)},
        "nearest": {"from": draw(ref)},
        "closest": {"from": draw(ref), "among": draw(st.sampled_from(["explorers", "monsters"]))},
        "adjacent": {"from": draw(ref), "to": draw(ref)},
        "monster_turn": {"monster": draw(monster), "dice": dice},
        "attack_odds": {"attacker": draw(st.one_of(unit, monster))},
        "spawn": {"explorer": draw(unit)},
        "push": {"pusher": draw(ref), "unit": draw(unit), "distance": draw(st.integers(0, 3)),
                 "pull": draw(st.booleans())},
        "actions": {"unit": draw(unit)} if draw(st.booleans()) else {},
        "teleport": {"unit": draw(unit), "space": draw(st.sampled_from(sorted(SPACE_WORDS)))}
        if draw(st.booleans()) else {"unit": draw(unit), "distance": draw(st.integers(0, 3))},
        "play": {"steps": steps, "dice": dice, "report": list(REPORTS)},
        "setup": {"items": draw(st.lists(st.sampled_from(ITEMS), max_size=3, unique=True))},
        "rounds": {"rounds": draw(st.integers(1, 3)), "spawn_rating": draw(st.integers(0, 9))},
        "monster_phase": {},
        "risk_map": {"unit": draw(unit)},
    }
    assert set(keys) == set(QUESTION_KINDS)
    out = []
    for kind, table in keys.items():
        out += ["", "[[question]]", f'name = "{kind}_q"', f'ask = "{kind}"']
        out += [f"{k} = {_toml(v)}" for k, v in table.items()]
    return "\n".join(out) + "\n"
