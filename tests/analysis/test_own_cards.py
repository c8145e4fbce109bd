"""A player's own cards: typed into a situation file or kept in a folder of card files, they
join the shipped cards for that situation, are checked as strictly, and play as the same card
would if it were shipped."""

from __future__ import annotations

import re

import pytest

from machina_nb.rules.analysis.ask import ask
from machina_nb.rules.analysis.draft import draft_of_situation, place, to_situation, to_toml
from machina_nb.rules.analysis.own_cards import NO_CARDS, load_card_folder
from machina_nb.rules.analysis.situation import load_situation, situation_from_text
from machina_nb.rules.content import content_root
from machina_nb.rules.errors import ContentError, RulesError
from tests.cli_runs import machina


def copied(kind: str, card_id: str, new_id: str, folder: str | None = None) -> str:
    """The tables of shipped card ``card_id`` (with its abilities) under a new id, as a
    situation's ``[cards.<kind>.<new_id>]`` tables (or a card file's, ``folder`` set)."""
    folder = folder or {"unit": "units", "item": "items", "event": "events",
                        "chapter": "chapters"}[kind]
    out, keep = [], False
    for path in sorted((content_root() / folder).glob("*.toml")):
        for line in path.read_text(encoding="utf-8").split("\n"):
            header = re.match(r"^\[([a-z_.]+)\]\s*$", line)
            if header:
                name = header[1]
                keep = name == f"{kind}.{card_id}" or name.startswith(f"{kind}.{card_id}.")
                if keep:
                    line = f"[cards.{kind}.{new_id}{name[len(kind) + 1 + len(card_id):]}]"
            if keep:
                out.append(line)
    assert out, card_id
    return "\n".join(out) + "\n"


SARALL_DOOR = (content_root() / "situations" / "sarall_door.toml").read_text(encoding="utf-8")

EXTRA_QUESTIONS = '''
[[question]]
name = "lorrai_odds"
ask = "attack_odds"
attacker = "L"
target = "S"

[[question]]
name = "lorrai_actions"
ask = "actions"
unit = "L"
'''


def test_manual_p16_own_explorer_and_monster_answer_as_if_shipped():
    """A shipped Sarall and Lorrai copied as own cards under new ids: the monster's turn and
    both attack odds are the same answers, word for word (manual p16, p24)."""
    shipped = situation_from_text(SARALL_DOOR + EXTRA_QUESTIONS, "shipped.toml")
    own_text = SARALL_DOOR.replace('card = "sarall"', 'card = "my_sarall"\nid = "sarall"') \
        .replace('card = "lorrai"', 'card = "my_lorrai"\nid = "lorrai"')
    own_text += EXTRA_QUESTIONS + copied("unit", "sarall", "my_sarall") + \
        copied("unit", "lorrai", "my_lorrai")
    own = situation_from_text(own_text, "own.toml")
    assert own.cards.ids("unit") == ("my_sarall", "my_lorrai")
    assert [u.card for u in own.units] != [u.card for u in shipped.units]
    mine, theirs = ask(own), ask(shipped)
    kinds = {a.kind for a in mine}
    assert {"monster_turn", "attack_odds"} <= kinds
    for a, b in zip(mine, theirs):
        assert (a.name, a.value, a.why, a.marks, a.options) == \
            (b.name, b.value, b.why, b.marks, b.options)
    odds = {a.name: a.value for a in mine}
    assert odds["sarall_odds"] and odds["lorrai_odds"]


OWN_EVERY_KIND = '''
kind = "situation"
id = "own_every_kind"
title = "A ghoul, a trinket, an omen and a chapter from my box"
map = \'\'\'
+-+-+-+-+
|K . . G|
+-+-+-+-+
\'\'\'

[unit.K]
card = "kim"
items = ["my_trinket"]

[unit.G]
card = "ghoul"

[game]
chapter = "my_chapter"
horror_events = ["my_omen"]
monsters = ["ghoul"]

[[question]]
name = "ghoul_turn"
ask = "monster_turn"
monster = "G"

[cards.unit.ghoul]
name = "Ghoul"
kind = "monster"
level = 1
armor = 1
will = 1
stamina = 3
health = 2
invented = true
source = "my box"

[cards.unit.ghoul.abilities.gnaw]
text = "Attack an adjacent explorer."
cost = { stamina = 1 }
target = "melee"
attack = { kind = "physical", high = 1, low = 0 }
source = "my box"

[cards.item.my_trinket]
name = "Trinket"
type = "apparel"
slot = "head"
bonuses = { armor = 2 }
invented = true
source = "my box"

[cards.event.my_omen]
name = "Omen"
kind = "horror"
text = "Raise the threat by one."
enters_play = [{ op = "threat", amount = 1 }]
invented = true
source = "my box"

[cards.chapter.my_chapter]
name = "My chapter"
spawn_rating = 5
horror_rating = 3
invented = true
source = "my box"
'''


def test_manual_p6_own_cards_of_every_kind_join_the_situation():
    """An own monster on the board and in the deck, an own item held, an own horror event in
    its deck and an own chapter in play (manual p6, p14, p18, p28, p30)."""
    s = situation_from_text(OWN_EVERY_KIND, "mine.toml")
    state = s.state_at(s.rules())
    assert state.chapter.name == "My chapter" and state.spawn_rating == 5
    assert [c.name for c in state.horror_events.cards] == ["Omen"]
    assert [c.name for c in state.monsters.cards] == ["Ghoul"]
    kim = state.unit("kim")
    assert kim.armor == 2 + 2           # Kim's armor 2 and the trinket's bonus
    turn = ask(s)[0].value
    assert turn["steps"][-1].startswith("plays gnaw on K")
    assert "ghoul" not in load_situation(content_root() / "situations" /
                                         "sarall_door.toml").cards.units()


@pytest.mark.parametrize("kind, shipped", [("unit", "mi_go"), ("item", "proximity_bender")])
def test_manual_p6_own_card_may_not_take_a_shipped_id(kind, shipped):
    text = OWN_EVERY_KIND + copied(kind, shipped, shipped)
    with pytest.raises(ContentError) as err:
        situation_from_text(text, "mine.toml")
    line = text.split("\n").index(f"[cards.{kind}.{shipped}]") + 1
    assert f"mine.toml:{line}:1:" in str(err.value) and "shipped" in str(err.value)


def test_own_card_checked_at_file_line_col():
    """A bad key inside an own card's ability is refused where it stands."""
    text = OWN_EVERY_KIND.replace('target = "melee"\nattack', 'target = "meele"\nattack')
    with pytest.raises(ContentError) as err:
        situation_from_text(text, "mine.toml")
    line = text.split("\n").index('target = "meele"') + 1
    assert str(err.value).startswith(f"mine.toml:{line}:")
    bad = OWN_EVERY_KIND.replace("[cards.unit.ghoul]\n", "[cards.unit.ghoul]\nhealt = 2\n")
    with pytest.raises(ContentError) as err:
        situation_from_text(bad, "mine.toml")
    assert f"mine.toml:{bad.split(chr(10)).index('healt = 2') + 1}:" in str(err.value)
    with pytest.raises(ContentError, match="unknown key 'spell'"):
        situation_from_text(OWN_EVERY_KIND + "[cards.spell.x]\nname = 'x'\n", "mine.toml")


def test_own_cards_survive_the_analysis_board_draft():
    """A draft of a situation with own cards writes them back and places more of them."""
    s = situation_from_text(OWN_EVERY_KIND, "mine.toml")
    draft = draft_of_situation(s)
    again = to_situation(draft)
    assert again.cards == s.cards and to_toml(draft_of_situation(again)) == to_toml(draft)
    more = place(draft, "ghoul", (1, 0))
    assert [u.card for u in to_situation(more).units].count("ghoul") == 2
    assert more.units[-1].value("health") == 2


def _card_folder(tmp_path):
    folder = tmp_path / "cards"
    folder.mkdir()
    unit = copied("unit", "sarall", "my_sarall").replace("[cards.unit.", "[unit.")
    (folder / "mine.toml").write_text('kind = "units"\n' + unit, encoding="utf-8")
    situation = tmp_path / "s.toml"
    situation.write_text(SARALL_DOOR.replace('card = "sarall"', 'card = "my_sarall"\n'
                                             'id = "sarall"'), encoding="utf-8")
    return folder, situation


def test_card_folder_joins_every_situation(tmp_path):
    folder, path = _card_folder(tmp_path)
    library = load_card_folder(folder)
    assert library.ids("unit") == ("my_sarall",)
    shipped = ask(load_situation(content_root() / "situations" / "sarall_door.toml"))
    assert [a.value for a in ask(load_situation(path, library))] == [a.value for a in shipped]
    with pytest.raises(ContentError, match="unknown card 'my_sarall'"):
        load_situation(path, NO_CARDS)
    (folder / "more.toml").write_text('kind = "units"\n[unit.my_sarall]\nname = "x"\n',
                                      encoding="utf-8")
    with pytest.raises(ContentError, match="already the id"):
        load_card_folder(folder)
    with pytest.raises(RulesError, match="not a folder"):
        load_card_folder(tmp_path / "nowhere")


def test_cli_cards_folder_and_environment(tmp_path, monkeypatch):
    folder, path = _card_folder(tmp_path)
    monkeypatch.delenv("MACHINA_CARDS", raising=False)
    run = machina("ask", str(path), "--json")
    assert run.returncode == 2 and "my_sarall" in run.stderr
    run = machina("ask", str(path), "--json", "--cards", str(folder))
    assert run.returncode == 0 and "sarall_turn" in run.stdout
    monkeypatch.setenv("MACHINA_CARDS", str(folder))
    run = machina("validate", str(path))
    assert run.returncode == 0 and run.stdout.strip().endswith("ok")
    run = machina("sensitivity", str(path))
    assert run.returncode == 0
    (folder / "bad.toml").write_text('kind = "units"\n[unit.mi_go]\nname = "x"\n',
                                     encoding="utf-8")
    run = machina("validate", str(path), "--cards", str(folder))
    assert run.returncode == 1 and "bad.toml:2:1:" in run.stderr and "shipped" in run.stderr


CALLER = '''
[cards.unit.my_caller]
name = "Caller"
kind = "monster"
level = 1
armor = 1
will = 1
stamina = 3
health = 2
invented = true
source = "my box"

[cards.unit.my_caller.abilities.call]
text = "Take the Ghoul, then a monster spawns."
cost = { stamina = 1 }
effects = [{ op = "take", key = "ghoul", then = [{ op = "spawn" }] }]
'''


def test_manual_p25_an_own_card_may_take_an_own_monster_but_not_a_missing_one():
    """A *take* effect names a monster card: a shipped one or an own one (manual p25)."""
    s = situation_from_text(OWN_EVERY_KIND + CALLER, "mine.toml")
    assert s.cards.ids("unit") == ("ghoul", "my_caller")
    text = OWN_EVERY_KIND + CALLER.replace('key = "ghoul"', 'key = "ghost"')
    with pytest.raises(ContentError, match="no unit card") as err:
        situation_from_text(text, "mine.toml")
    line = next(i for i, t in enumerate(text.split("\n")) if 'key = "ghost"' in t) + 1
    assert str(err.value).startswith(f"mine.toml:{line}:")
