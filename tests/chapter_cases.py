"""A playing area of map tiles at the moment the last explorer leaves (manual p28, p34),
shared by the engine's chapter tests and the Round tab's."""

from __future__ import annotations

from dataclasses import replace

from engine_cases import monster
from tiles_for_tests import drawn_side, start_side

from machina_nb.rules.board.playarea import PlayArea
from machina_nb.rules.cards.abilities import Effect
from machina_nb.rules.cards.events import Chapter
from machina_nb.rules.engine.actions import Explore, apply
from machina_nb.rules.engine.state import Deck, GameState, MapSpec, Unit
from machina_nb.rules.rulings import Rules

RULES = Rules()
ESCAPE = Chapter("escape", "Escape", 5, 4, blocking=True, places_exit=True,
                 enters_play=(Effect("place_exit_token"),))
REGROUP = Chapter("regroup", "Regroup", 6, 4, enters_play=(Effect("place_entry_token"),))
QUIET = Chapter("quiet", "Quiet", 6, 4)
EAST_EDGE = ((9, 4), (10, 4))
MEND = (Effect("restore_health", scope="self", amount=1),)


def explorer(uid, at, health=3):
    """An explorer whose card's «enters play» restores 1 health (invented)."""
    return Unit(uid, uid, "explorer", at, health=health, max_health=5, stamina=9,
                max_stamina=9, enters_play=MEND)


def on_the_exit(next_chapter=REGROUP):
    """Tiles t00a (start) and t01a (explored north); P on the exit token on t00a's east edge,
    Q already exited, a ghoul on t00a; the deck holds t02a, t03a."""
    sides = [start_side()] + [drawn_side(k) for k in ("t01a", "t02a", "t03a")]
    area = PlayArea.start(sides, ("t01a", "t02a", "t03a", "t00a"))
    p = explorer("P", (4, 0))
    state = GameState(MapSpec(area=area), units=(p,), active="P", chapter=ESCAPE,
                      chapters=Deck((next_chapter,)))
    state, _ = apply(state, Explore("P"), RULES)
    ghoul = replace(Unit.from_card(monster("ghoul"), "ghoul", (2, 2)), origin=monster("ghoul"))
    q = replace(explorer("Q", None), position=None)
    area = state.map.area.place_exit_token(EAST_EDGE)
    return replace(state, map=MapSpec(area=area), exit_token=(9, 4), units=(q,) + state.units
                   + (ghoul,), queue=("ghoul",), exited=("Q",), done=("Q",),
                   destroyed=((3, 3),), lit=((6, 6),)).update_unit("P", position=(9, 4))
