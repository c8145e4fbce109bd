"""Shared cards and boards for the engine tests (numbers invented unless a page is cited)."""

from dataclasses import replace

from machina_nb.rules.cards.abilities import Ability, Cost, Effect, Targeting
from machina_nb.rules.cards.events import Chapter, EventCard
from machina_nb.rules.cards.units import UnitCard, content_cards
from machina_nb.rules.engine.actions import apply

CARDS = content_cards()

CLAW = Ability("Claw", Cost(stamina=2), Targeting("melee"), (Effect("attack", high=1, low=1),))


def explorer(uid: str, stamina: int = 4, health: int = 5, armor: int = 2, will: int = 2,
             abilities=()) -> UnitCard:
    """An invented explorer card."""
    return UnitCard(uid, uid.title(), "explorer", armor=armor, will=will, health=health,
                    stamina=stamina, abilities=abilities)


def monster(uid: str, stamina: int = 4, health: int = 2, armor: int = 2, will: int = 2,
            abilities=(CLAW,), immobile: bool = False, level: int = 1) -> UnitCard:
    """An invented monster card."""
    return UnitCard(uid, uid.title(), "monster", armor=armor, will=will, health=health,
                    stamina=stamina, abilities=abilities, immobile=immobile, level=level)


def decision(state, action, rules, dice=None):
    """The choice the players face after ``action`` (manual p16): the game waits on it in the
    state before the action, which nothing else has changed."""
    after, _ = apply(state, action, rules, dice)
    assert after.decision is not None, f"{action} asked the players nothing"
    assert after == replace(state, decision=after.decision)
    return after.decision


def open_map(width: int, height: int, rows: dict[int, str] | None = None) -> str:
    """Map text of an open floor area; ``rows`` replaces whole space rows (chars per space)."""
    lines = ["+" + "-+" * width]
    for y in range(height):
        cells = (rows or {}).get(y, "." * width)
        lines.append("|" + " ".join(cells) + "|")
        lines.append(("+" + " +" * width) if y < height - 1 else ("+" + "-+" * width))
    return "\n".join(lines) + "\n"


CHAPTER = Chapter("chapter-1", "Chapter one", spawn_rating=6, horror_rating=4)
NEXT_CHAPTER = Chapter("chapter-2", "Chapter two", spawn_rating=8, horror_rating=5)
SHIVERS = EventCard("shivers", "Shivers", "horror",
                    enters_play=(Effect("attack", scope="explorers_all_tiles", high=1, low=1),))
SURGE = EventCard("surge", "Surge", "horror",
                  enters_play=(Effect("restore_health", scope="monsters_all_tiles", amount=1),))
WHISPER = EventCard("whisper", "Whisper", "explorer",
                    enters_play=(Effect("restore_essence", scope="self", amount=1),))
