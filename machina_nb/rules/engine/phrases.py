"""The phrasebook: the words of every event and citation, for every reader.

An :class:`~machina_nb.rules.engine.resolution.Event` carries its meaning as typed fields
(who, where, amounts, dice, card, cause, cite) and a phrase key; :func:`say` puts them into
words. The transcript reader wants unit ids and ``(x, y)`` pairs (the default); the app gives
``names`` (unit id -> ``"Kim (K)"``) and ``space`` (a point -> ``"B3"``).

A phrase is a template of :data:`PHRASES` named by its key: no event is free text. A
monster's :class:`Reason` is built from typed pieces (:func:`template_of`: :class:`Who`,
:class:`At`, :class:`Word`, numbers) and said by the same :func:`say` (an event gives it as
``{reason}``); an event's cause keeps its words, the unit ids and points it names taken out as
fields by :func:`literal`.
Placeholders: ``{who0}`` a unit, ``{(who0)}`` a unit's id after its name (left out when the
reader has names), ``{where0}`` a space, ``{corner0}`` a point of the grid (a corner of a
space or a point between), ``{amount0}`` a number, ``{dice}`` the faces rolled, ``{card}`` a
card's name, ``{cause}`` what caused the event, ``{reason}`` a monster's reason.

>>> from machina_nb.rules.engine.resolution import Event
>>> from machina_nb.rules.cite import Cite
>>> e = Event("health", "health_loss", who=("kim",), amounts=(2, 5, 3), cause="Claw",
...           cite=Cite("manual", ("p18",), "health"))
>>> say(e)
'Claw: kim loses 2 health (5 -> 3)'
>>> say(e, names={"kim": "Kim (K)"})
'Claw: Kim (K) loses 2 health (5 -> 3)'
>>> say_cite(e.cite)
'manual p18 (health)'
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping

from machina_nb.rules.cite import Cite

__all__ = ["PHRASES", "say", "say_cite", "literal", "open_series", "dice_words", "point_text", "Who", "At",
           "Word", "Reason", "template_of", "SOURCE_WORDS"]

PHRASES: dict[str, str] = {
    "health_loss": "{cause}: {who0} loses {amount0} health ({amount1} -> {amount2})",
    "essence_for_health": "{cause}: {who0} loses 1 essence instead of health",
    "turn_begins": "{who0} begins their turn",
    "turn_ends": "{who0} ends their turn",
    "moves": "{who0} moves {where0} -> {where1} ({amount0} stamina)",
    "moves_through": "{who0} moves through obstacles {where0} -> {where1} ({amount0} stamina)",
    "door_open": "{who0} opens the door {where0}|{where1} ({amount0} stamina)",
    "door_close": "{who0} closes the door {where0}|{where1} ({amount0} stamina)",
    "door_destroy": "{who0} destroys the door {where0}|{where1} ({amount0} stamina)",
    "spawn_roll_nothing": "{who0} rolls {amount0} < {amount1}: nothing happens",
    "spawn_roll_lower": "{who0} rolls {amount0} < {amount1}: spawn rating -> {amount2}",
    "spawn_roll_spawns": "{who0} rolls {amount0} >= {amount1}: spawn a monster",
    "hit_armor": "{amount0} >= armor {amount1}: {who0} is hit",
    "hit_will": "{amount0} >= will {amount1}: {who0} is hit",
    "miss_armor": "{amount0} < armor {amount1}: {who0} is missed",
    "miss_will": "{amount0} < will {amount1}: {who0} is missed",
    "barrel_hit": "{amount0} >= 1: the barrel at {where0} is hit",
    "barrel_holds": "{amount0} < 1: the barrel at {where0} holds",
    "barrel_explodes": "the barrel at {where0} explodes",
    "destroyed": "{cause}: {who0} is destroyed",
    "banished": "{cause}: {who0} is banished",
    "game_lost": "the last explorer is destroyed: the game is lost",
    "restore_health": "{cause}: {who0} health {amount0} -> {amount1}",
    "restore_essence": "{cause}: {who0} essence {amount0} -> {amount1}",
    "restore_stamina": "{cause}: {who0} stamina {amount0} -> {amount1}",
    "spawns": "{cause}: {card} {(who0)} spawns on {where0} and joins the end of the queue",
    "threat_up": "{cause}: monster threat {amount0} -> {amount1}",
    "immobile": "{cause}: {who0} is immobile",
    "stays": "{cause}: {who0} stays on {where0}",
    "teleport_nowhere": "{cause}: no free space within {amount0}",
    "teleports": "{cause}: {who0} teleports {where0} -> {where1}",
    "trade_places": "{cause}: {who0} and {who1} trade places",
    "game_won": "{cause}: no chapter left: the explorers win",
    "lit": "{cause}: the chapter space at {where0} is lit",
    "attack_roll": "{cause}: {amount0} high + {amount1} low {dice} -> total {amount2} "
                   "(physical, against armor)",
    "arcane_roll": "{cause}: {amount0} high + {amount1} low {dice} -> total {amount2} "
                   "(arcane, against will)",
    "barrel_roll": "exploding barrel: 3 high {dice} -> total {amount0}",
    "when_destroyed": "{who0} is destroyed: its {card} triggers",
    # the monster phase
    "door_destroy_monster": "{who0} destroys the closed door {where0}|{where1} ({amount0} stamina)",
    "monster_turn_ends_no_step_left": "{who0}'s turn ends: no ability, door or step left",
    "monster_turn_ends_players": "{who0}'s turn ends: the players end the scheming monster's "
                                 "turn",
    # actions
    "contributes": "{who0} contributes {amount0} essence to {cause}",
    "pays": "{who0} pays {amount0} stamina for {cause}",
    "pays_essence": "{who0} pays {amount0} stamina + {amount1} essence for {cause}",
    "plays": "{who0} plays {word0}",
    "plays_on": "{who0} plays {word0} on {where0}",
    "plays_on_two": "{who0} plays {word0} on {where0} and {where1}",
    "pays_space": "{who0} destroys the {word0} space at {where0} to pay for {word1}",
    "pit_entered": "entering a pit destroys the unit",
    "exits_map": "{who0} exits the map ({amount0} stamina): no more turns or spawn rolls",
    "event_roll_up": "{amount0} >= current horror rating {amount1}",
    "event_roll_down": "{amount0} < current horror rating {amount1}: reinvoke the horror event",
    "restore_essence_one": "{cause}: {who0} restores 1 essence ({amount0} -> {amount1})",
    "chapter_space_used": "the chapter space {where0} is used up (destroyed token)",
    "chapter_space_blocked": "a blocking chapter or an exit token: the chapter does not advance",
    "sealed": "two destroyed tokens on {where0}: it is an obstacle now",
    # combat, threat, movement and conditions of effects
    "explorer_destroyed": "{cause}: explorer {who0} is destroyed; monsters become scheming",
    "kill_triggers": "{who0} killed {who1}: {word0} triggers",
    "kill_essence": "{who0} restores 1 essence for destroying {who1} ({amount0} -> {amount1})",
    "spends_essence": "{who0} spends {amount0} essence: +{amount0} to the roll",
    "barrel_same_total": "exploding barrel: the same total {amount0}",
    "level5": "{cause}: at level 5 each explorer destroys an equipped item or is destroyed "
              "instead",
    "threat_stays": "{cause}: monster threat stays on its last position at level 5, the last "
                    "level",
    "threat_down": "{cause}: monster threat {amount0} -> {amount1}",
    "threat_down_below": "{cause}: monster threat {amount0} -> {amount1} ({amount2} below the "
                         "first position, paid back by the next increases)",
    "level_up": "{cause}: threat resets to 1, monster level {amount0} -> {amount1}; {amount2} "
                "cards removed, {amount3} level-{amount1} cards added",
    "level5_no_item": "{cause}: {who0} has no equipped item",
    "level5_item": "{cause}: {who0} destroys the equipped {word0}",
    "effect_moves": "{cause}: {who0} moves {where0} -> {where1} ({amount0} step, no stamina)",
    "effect_moves_steps": "{cause}: {who0} moves {where0} -> {where1} ({amount0} steps, no "
                          "stamina)",
    "condition_true": "{cause}: {word0} is true",
    "condition_false": "{cause}: {word0} is false",
    "effect_roll_up": "{cause}: d10 {amount0} >= {amount1}",
    "effect_roll_down": "{cause}: d10 {amount0} < {amount1}",
    "monster_deck_refilled": "the monster deck is empty: the destroyed monsters become the deck",
    "no_spawn_space": "{cause}: no free spawn space on the tile, no monster placed",
    # phases
    "stamina_reset": "every explorer's stamina resets to its maximum ({word0} value)",
    "round_at_once": "{cause}: a new round starts at once (round {amount0})",
    "monster_turn_begins": "{who0}'s turn ({word0}), stamina {amount0}",
    "round_begins": "round {amount0} begins",
    "phase_begins": "{word0} phase begins",
    "horror_roll_invokes": "the horror roll {amount0} >= {amount1}: invoke a horror event",
    "horror_roll_lower": "the horror roll {amount0} < {amount1}: horror rating -> {amount2}",
    "no_monsters": "no monsters in the queue: the monster phase is skipped",
    "spawn_phase_end": "end of the spawn phase: spawn rating {amount0} -> {amount1}",
    "monster_turn_controlled": "{who0}'s turn (controlled by {who1}), stamina {amount0}",
    "monster_reason": "{who0}: {reason}",
    # map spaces
    "spawn_space_destroyed": "{cause}: two destroyed tokens on the spawn space {where0}; it is "
                             "an obstacle now",
    "space_destroyed": "{cause}: a destroyed token on {where0}",
    "refreshed": "{cause}: {where0} is refreshed; tokens removed: {word0..}",
    "no_exit_edge": "{cause}: no unexplored edge for the exit token",
    "exit_token": "{cause}: the exit token goes on {where0}; chapter spaces no longer advance "
                  "the chapter",
    "no_open_door": "{cause}: no open door on a border of {where0}",
    "door_closes": "{cause}: the door between {where0} and {where1} closes",
    # items
    "item_decks_empty": "{cause}: every item deck is empty: {amount0} card(s) drawn",
    "item_drawn": "{cause}: {who0} draws {word0} from the {word1} deck",
    "item_destroyed": "{cause}: {word0} is destroyed",
    "item_back": "{cause}: {word0} goes back on top of the {word1} deck",
    "item_gets": "{cause}: {who0} gets {word0}, unequipped",
    "item_unequips": "{who0} unequips {word0} with its upgrades and augments",
    "item_equips_main": "{who0} equips {word0} as a main item at no stamina cost",
    "item_swaps": "{who0} swaps {word0} for the drawn {word1}",
    "use_inventory_free": "{who0} may now resolve use inventory at no cost",
    "trade_then_use": "{who0} may now trade with {who1..} and then resolve use inventory, at no "
                      "cost",
    "use_inventory_at_no_cost": "{who0} resolves use inventory at no cost",
    "pays_use_inventory": "{who0} pays {amount0} stamina for use inventory",
    "use_inventory_equips": "use inventory on {who0}: equips {word0..}",
    "use_inventory_none": "use inventory on {who0}: everything unequipped",
    "item_given": "{cause}: {who0} gives {word0} to {who1} (unequipped)",
    "trades_free": "{who0} trades with {who1} at no cost (recharge station)",
    "pays_trade": "{who0} pays {amount0} stamina to trade with {who1}",
    "item_level": "{cause}: add item level {amount0}: {amount1} item cards removed, {amount2} "
                  "level-{amount0} cards shuffled in",
    "item_decks_shuffled": "{cause}: each item deck is shuffled on its own; the {amount0} "
                           "destroyed item card(s) stay out",
    # cards held
    "item_used_up_waits": "{who0}'s {word0} is used up; it waits for its marker before going to "
                          "the destroyed item deck",
    "item_destroyed_after_use": "{who0}'s {word0} is destroyed after use",
    "spent_items_back": "{who0}'s {word0..}: the marker is back, the card goes to the destroyed "
                        "item deck",
    "item_onto_destroyed": "{cause}: {who0}'s {word0} goes on top of the destroyed item deck",
    "inventory_discarded": "{who0}'s {amount0} item(s) are shuffled onto the destroyed item deck",
    "not_destroyable": "{cause}: {word0} is not a card this effect can destroy",
    "card_destroyed_waits": "{cause}: {word0} is destroyed; with a marker on it, it waits out of "
                            "play until the marker returns",
    # event cards
    "horror_event_current": "horror event {word0} becomes the current horror event",
    "no_current_event": "{cause}: no current {word0} event: nothing happens",
    "event_already_resolving": "{cause}: {word0} is already resolving; it is not reinvoked from "
                               "inside itself",
    "event_again": "{cause}: {word0}'s «enters play» resolves again",
    "nothing_drawn": "no {word0} at all: nothing drawn",
    "binds_explorer_event": "{cause}: {who0} binds explorer event {word0}",
    "explorer_event_current": "{cause}: explorer event {word0} becomes current",
    "no_spawn_rating": "the chapter has no spawn rating: the spawn phase is skipped",
    "no_horror_rating": "the chapter has no horror rating: the horror phase is skipped",
    "spawn_adjusted": "player-count adjustment at phase start: spawn rating {amount0}",
    "timer_no_horror_rating": "spawn rating is 1, but the chapter has no horror rating: the "
                              "rating-1 step is skipped",
    "timer_threat": "spawn rating is 1 at the start of the spawn phase: threat +{amount0}",
    "timer_threat_zero": "spawn rating is 1 at the start of the spawn phase: threat +{amount0} "
                         "(the chapter has no horror rating: 0)",
    "timer_exit_chapter": "the exit-token chapter advances by the timer ({word0})",
    "timer_blocking_chapter": "a blocking chapter: only the spawn rating resets, «enters play» "
                              "does not fire again",
    "spawn_limit_rating_stays": "no spawn at the limit: the rating stays",
    # treating map spaces
    "treat_no_space": "{cause}: no targeted space",
    "treat_occupied_too": "{cause}: a unit stands on {where0}; it cannot gain the features of "
                          "{word0}",
    "treated_too": "{cause}: {where0} is treated as {word0} too",
    "treat_occupied": "{cause}: a unit stands on {where0}; it cannot become {word0}",
    "treated": "{cause}: {where0} is treated as {word0}",
    # take: a card searched out of its deck or pile
    "taken_monster_deck_held": "{cause}: {card} is taken from the monster deck (shuffled) and "
                               "is held for the effects that follow",
    "taken_monster_deck_top": "{cause}: {card} is taken from the monster deck (shuffled) and "
                              "goes on top of its deck",
    "taken_monster_pile_held": "{cause}: {card} is taken from the monster {word0} and is held "
                               "for the effects that follow",
    "taken_monster_pile_top": "{cause}: {card} is taken from the monster {word0} and goes on "
                              "top of its deck",
    "taken_event_held": "{cause}: {card} is taken from the {word0} deck, which is shuffled; it "
                        "is held for the effects that follow",
    "taken_event_top": "{cause}: {card} is taken from the {word0} deck, which is shuffled; it "
                       "goes on top of its deck",
    "take_nothing": "{cause}: no card {word0} to take",
    "take_back_deck": "{cause}: nothing drew {card}; it goes back to the deck, which is "
                      "shuffled",
    "take_back_pile": "{cause}: nothing drew {card}; it goes back to the monster {word0} pile",
    # binding horror events
    "bind_no_monster": "{cause}: no monster in play for the binding horror event {word0} to "
                       "bind to: it is played as an ordinary horror event",
    "binds_to": "{cause}: the binding horror event {word0} binds to {who0}; the current horror "
                "event stays",
    "bound_removed": "{who0}'s bound events {word0..} are removed from the game",
    "bound_under_current": "{who0} left play: its bound horror events {word1..} go under the "
                           "current horror event {word0}, which stays current",
    "bound_on_top": "{who0} left play: its bound horror events {word1..} go on top of the "
                    "destroyed horror events; {word0} is now the current horror event",
    "triggers": "{cause}: {word0} ({card}) triggers",
    # chapters, ratings, counts
    "chapter_played": "{cause}: chapter {word0} is played",
    "no_unlit_chapter_space": "{cause}: no unlit chapter space on the tile: nothing happens",
    "count": "{cause}: {word0} count {amount0}/{amount1}",
    # event decks and lasting effects
    "events_shuffled_back_stays": "{cause}: {amount0} destroyed {word0} event(s) are shuffled "
                                  "back into the deck ({amount1} cards); {word1} stays the "
                                  "current {word0} event",
    "events_shuffled_back": "{cause}: {amount0} destroyed {word0} event(s) are shuffled back "
                            "into the deck ({amount1} cards); no {word0} event is current "
                            "until the next is invoked",
    "markers_return": "{cause}: {amount0} {word0} marker(s) return, their lasting effects end",
    "lasting_skipped": "{word0}: no free marker or {amount0} stack(s) reached: skipped",
    "lasting_horror": "{word0} on {who0} ({word1} {word2}), held by a horror marker",
    "lasting_explorer": "{word0} on {who0} ({word1} {word2}), held by a {who1} explorer marker",
    # markers coming back, destroyed cards going to their piles
    "marker_returns_horror_unit": "{cause}: a horror marker returns from {who1}'s unit card; {word0} on "
                                  "{who0} ends",
    "marker_returns_horror_card": "{cause}: a horror marker returns from the {word1} card; {word0} on "
                                  "{who0} ends",
    "marker_returns_explorer_unit": "{cause}: {who1}'s marker returns from {who2}'s unit card; {word0} "
                                    "on {who0} ends",
    "marker_returns_explorer_card": "{cause}: {who1}'s marker returns from the {word1} card; {word0} on "
                                    "{who0} ends",
    "marker_returns_destroyed": "{cause}: {who1}'s marker returns from the destroyed {card}; "
                                "{word0} on {who0} ends",
    "marker_returns_destroyed_horror": "{cause}: horror's marker returns from the destroyed "
                                       "{card}; {word0} on {who0} ends",
    "card_destroyed": "{cause}: {card} is destroyed",
    "card_destroyed_current": "{cause}: {card} is destroyed; it is now the current explorer "
                              "event",
    "card_destroyed_under": "{cause}: {card} is destroyed; it goes under the current explorer "
                            "event",
    "marker_back": "the marker is back: {card} goes to its destroyed pile",
    "marker_back_current": "the marker is back: {card} goes to its destroyed pile; it is now the "
                           "current explorer event",
    "marker_back_under": "the marker is back: {card} goes to its destroyed pile; it goes under "
                         "the current explorer event",
    # the recharge die
    "recharge_health": "recharge die face {amount0}: restore 1 health ({amount1} -> {amount2})",
    "recharge_stamina": "recharge die face {amount0}: restore stamina ({amount1} -> {amount2})",
    "recharge_nothing": "recharge die face {amount0}: nothing happens",
    # map tiles
    "tiles_scroll_away": "{word0..} scroll away and go under the map-tile deck",
    "explored": "explore from {where0}: {word0} turned {amount0} at {where1}",
    "explore_misaligned": "the direction symbol at {where0} is not next to the explorer at "
                          "{where1}: the edges do not line up on the grid",
    "token_scrolled": "the {word0} token leaves with its scrolled tile (the manual does not "
                      "say)",
    # the players' choices
    "choice_space": "the explorers choose {where0} for {cause}",
    "choice_spaces": "the explorers choose ({where0}, {where1}) for {cause}",
    "choice_unit": "the explorers choose '{who0}' for {cause}",
    "choice_word": "the explorers choose {word0} for {cause}",
    "choice_move": "the explorers choose the {word0} of {who0} {where0..->} ({word1}) for "
                   "{cause}",
    # push and pull
    "displaced": "{cause}: {who0} {where0..->} ({word0})",
    # chapters: tiles, the entry token, the endgame
    "tiles_returned": "{cause}: the placed tiles are shuffled and slid under the map-tile deck "
                      "in the order {word0..}",
    "no_entry_token": "the new chapter places no entry token: no explorer on the map",
    "leaves_with_others": "{cause}: {who0} leaves the map with the others",
    "tile_deck_empty": "{cause}: the map-tile deck is empty: no tile to enter",
    "entry_tile_drawn": "{cause}: the top map tile {word0} is drawn into the playing area; the "
                        "entry token goes on its direction symbol at {where0}",
    "no_direction_symbol": "{cause}: the map has no direction symbol for the entry token",
    "entry_token_scrolled": "{cause}: the entry token left the map with its scrolled tile",
    "no_entry_space": "{cause}: no free space on or next to the entry token for {who0}",
    "enters_map": "{cause}: {who0} enters the map on {where0}",
    "endgame_tile": "{cause}: the endgame tile {word0} enters play, the entry token on its "
                    "direction symbol at {where0}",
    "endgame_no_entry": "{cause}: the map has no entry token for the endgame; the explorers "
                        "stay where they are",
    "endgame_cards": "{cause}: the endgame cards are set out",
    "victory": "{cause}: victory: the chapter flips and every surviving explorer wins",
    "defeat": "{cause}: the defeat condition is met: the game is lost",
}
_RATING = {"n": "{k} rating {{amount{i}}}", "none": "no {k} rating (no {K} phase)"}
PHRASES.update({
    f"ratings_reset_{'_'.join(f'{k}_{v}' for k, v in parts)}": "ratings reset: " + ", ".join(
        _RATING[v].format(k=k, K=k.title(), i=i) for i, (k, v) in enumerate(parts))
    for parts in [((k, v),) for k in ("spawn", "horror") for v in _RATING]
    + [(("spawn", a), ("horror", b)) for a in _RATING for b in _RATING]})

PHRASES.update({
    f"items_change_{n}": "{cause}: {who0}'s items change " + ", ".join(
        f"{{word{i}}} {{amount{2 * i}}} -> {{amount{2 * i + 1}}}" for i in range(n))
    for n in range(1, 9)})

"""The templates of the events the engine phrases by key."""

_FIELD = re.compile(r"\{(\(who\d+\)|[a-z]+\d*(?:\.\.(?:\|[a-z]+\d+\.\.|->)?)?)\}")
_SERIES = re.compile(r"([a-z]+)(\d+)\.\.")
_NONE = {"who": "nobody"}
_POINT = re.compile(r"\((-?\d+(?:/\d+)?), (-?\d+(?:/\d+)?)\)")
_CORNER = re.compile(r"(\bmeeting at |\bblocked by the space \{where\d+\} at )$")


Spot = tuple[Any, ...]
"""A point ``(x, y)`` of the grid: a space, or a corner (whose coordinates may be fractions)."""


class Who(str):
    """A unit id in a sentence being built by :func:`template_of`."""


#: Where a monster's ability comes from, as its reasons say it (manual p20: ability sources).
SOURCE_WORDS: dict[str, str] = {"card": "from its card", "horror": "from the horror event",
                                "bound": "from a horror event bound to it"}


class Word(str):
    """A name already in the players' words (a card, an ability) in a sentence being built."""


class At(tuple):  # type: ignore[type-arg]
    """A space ``(x, y)`` in a sentence being built by :func:`template_of`."""


Piece = str | int | tuple[Any, ...]
"""A piece of a sentence: plain words (``str``), :class:`Who`, :class:`Word`, :class:`At`,
or a number (an ``int``)."""


def template_of(pieces: Iterable[Piece], who: tuple[str, ...] = ()
                ) -> tuple[str, tuple[str, ...], tuple[Spot, ...], tuple[int, ...],
                           tuple[str, ...]]:
    """A sentence given as pieces, as a template and its fields (``who`` come first).

    >>> template_of(["targets ", Who("ann"), ", closest at ", 2], ("m-1",))
    ('targets {who1}, closest at {amount0}', ('m-1', 'ann'), (), (2,), ())
    """
    shape: list[str | int] = []     # the plain words, and each field's index in _KINDS
    who_list, where, amounts, words = list(who), [], [], []
    for piece in pieces:
        kind = type(piece)
        if kind is str:
            shape.append(piece)     # type: ignore[arg-type]
        elif kind is Who:
            shape.append(0)
            who_list.append(str(piece))
        elif kind is Word:
            shape.append(1)
            words.append(str(piece))
        elif isinstance(piece, int):
            shape.append(2)
            amounts.append(piece)
        else:
            shape.append(3)
            where.append(tuple(piece))
    return (_template(tuple(shape), len(who)), tuple(who_list), tuple(where), tuple(amounts),
            tuple(words))


_KINDS = ("who", "word", "amount", "where")


@functools.lru_cache(maxsize=2048)
def _template(shape: tuple[str | int, ...], first_who: int) -> str:
    """The template of a sentence's shape: its plain words (``str``) and the kinds of its
    fields (an ``int``, their index in :data:`_KINDS`)."""
    counts = [first_who, 0, 0, 0]
    out = []
    for part in shape:
        if isinstance(part, str):
            out.append(part.replace("{", "{{").replace("}", "}}"))
        else:
            out.append(f"{{{_KINDS[part]}{counts[part]}}}")
            counts[part] += 1
    return "".join(out)


@dataclass(frozen=True)
class Reason:
    """One reason of a monster's plan: its template and the fields it names; ``who[0]`` is
    the monster (the reason does not say it; the event of the reason does).

    >>> r = Reason.of("m-1", "targets ", Who("ann"), ", closest at ", 2)
    >>> str(r), "closest" in r, say(r, {"ann": "Ann"})
    ('targets ann, closest at 2', True, 'targets Ann, closest at 2')
    """

    template: str
    who: tuple[str, ...] = ()
    where: tuple[Spot, ...] = ()
    amounts: tuple[int, ...] = ()
    words: tuple[str, ...] = ()
    phrase: str = field(default="reason", init=False)

    @classmethod
    def of(cls, monster: str, *pieces: Piece) -> Reason:
        """The reason said by ``pieces`` (see :func:`template_of`)."""
        return cls(*template_of(pieces, (monster,)))

    def __str__(self) -> str:
        return say(self)

    def __contains__(self, text: str) -> bool:
        return text in str(self)


def point_text(point: Spot) -> str:
    """A point as the transcripts write it: ``(2, 5)``, ``(13/4, 4)``."""
    return f"({point[0]}, {point[1]})"


def dice_words(faces: Iterable[int]) -> str:
    """The faces rolled in words: ``rolled 2 and 1``.

    >>> dice_words([2, 1]), dice_words([7]), dice_words([3, 4, 5])
    ('rolled 2 and 1', 'rolled 7', 'rolled 3, 4 and 5')
    """
    said = [str(f) for f in faces]
    if not said:
        return "rolled nothing"
    return "rolled " + (said[0] if len(said) == 1 else
                        ", ".join(said[:-1]) + " and " + said[-1])


def _dice_list(faces: Iterable[int]) -> str:
    return f"dice {list(faces)}"


def _number(text: str) -> int | Fraction:
    value = Fraction(text)
    return int(value) if value.denominator == 1 else value


@functools.lru_cache(maxsize=256)
def _ids_pattern(ids: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern matching any of ``ids`` as a whole word (longest first)."""
    return re.compile(rf"(?<![\w{{-])(?:{'|'.join(re.escape(i) for i in ids)})(?![\w-])")


def literal(text: str, unit_ids: Iterable[str], who_from: int = 0,
            where_from: int = 0, with_points: bool = True
            ) -> tuple[str, tuple[str, ...], tuple[Spot, ...]]:
    """A written event text as a template and its fields: the unit ids among ``unit_ids``
    and the ``(x, y)`` points taken out (for events emitted with words, not a phrase key, and
    for an event's cause); their placeholders are numbered from ``who_from`` and ``where_from``.
    Without ``with_points`` the points stay in the words.

    >>> literal("ann moves (0, 0) -> (0, 1) {x}", ["ann"])
    ('{who0} moves {where0} -> {where1} {{x}}', ('ann',), ((0, 0), (0, 1)))
    """
    text = text.replace("{", "{{").replace("}", "}}")
    points: list[Spot] = []
    out, last = [], 0
    for m in _POINT.finditer(text) if with_points else ():
        out.append(text[last:m.start()])
        kind = "corner" if _CORNER.search("".join(out)) else "where"
        out.append(f"{{{kind}{where_from + len(points)}}}")
        points.append((_number(m[1]), _number(m[2])))
        last = m.end()
    text = "".join(out) + text[last:]
    who: list[str] = []
    ids = tuple(sorted(set(unit_ids), key=lambda i: (-len(i), i)))   # "mi_go-12" first
    named = {m[0] for m in _ids_pattern(ids).finditer(text)} if ids else set()
    for unit_id in ids:
        if unit_id not in named:   # one search finds the ids named; only they are replaced
            continue
        pattern = rf"(?<![\w{{-]){re.escape(unit_id)}(?![\w-])"
        if re.search(pattern, text):
            n = who_from + len(who)
            who.append(unit_id)
            text = re.sub(rf" \({re.escape(unit_id)}\)", f" {{(who{n})}}", text)
            text = re.sub(pattern, f"{{who{n}}}", text)
    return text, tuple(who), tuple(points)


def open_series(template: str) -> frozenset[str]:
    """The kinds of field a template says to the end (``{where0..}``): a cause's fields of
    those kinds would be said twice.

    >>> sorted(open_series("{who0} {where0..->} ({word0})"))
    ['where']
    """
    return frozenset(name for key in _FIELD.findall(template) if ".." in key
                     for name, _ in _SERIES.findall(key))


def _own(template: str) -> str:
    return re.sub(r" \{\(who(\d+)\)\}", r"{(who\1)}", template)


def _fill(template: str, values: Mapping[str, str],
          series: Mapping[str, list[str]] | None = None) -> str:
    def field(m: re.Match[str]) -> str:
        key = m[1]
        if ".." not in key:
            return values[key]
        lists = [series[name][int(start):] for name, start in _SERIES.findall(key)] \
            if series else [[]]
        said = (" -> " if key.endswith("->") else ", ").join(" ".join(parts)
                                                             for parts in zip(*lists))
        return said or _NONE.get(_SERIES.findall(key)[0][0], "none")
    return _FIELD.sub(field, template).replace("{{", "{").replace("}}", "}")


def say(event: Any, names: Mapping[str, str] | None = None,
        space: Callable[[Spot], str] | None = None,
        point: Callable[[Spot], str] | None = None,
        dice: Callable[[Iterable[int]], str] | None = None,
        word: Callable[[str], str] | None = None) -> str:
    """The event in words: unit ids by ``names`` (a unit missing there is said by its id),
    spaces by ``space`` and grid points by ``point`` (both ``(x, y)`` by default), the faces
    rolled by ``dice`` (``dice [2, 1]`` by default; :func:`dice_words` says ``rolled 2 and 1``),
    each name of a card, ability or effect by ``word`` (as the engine keeps it by default).

    ``event`` is an event or any value with the same fields (a monster's reason); its
    ``template`` attribute, if it has one, is its template, else its phrase's in
    :data:`PHRASES`. A placeholder ``{who1..}`` says ``who[1:]`` as a list (``nobody`` when
    empty), ``{who1..|word0..}`` says the pairs ``who[1] word[0], who[2] word[1]...``, and
    ``{where0..->}`` says a path ``where[0] -> where[1] -> ...``.
    """
    space = space or point_text
    point = point or point_text
    values: dict[str, str] = {"card": getattr(event, "card", ""),
                              "dice": (dice or _dice_list)(getattr(event, "dice", ()))}
    who = [names.get(unit_id, unit_id) if names else unit_id for unit_id in event.who]
    for i, unit_id in enumerate(event.who):
        values[f"who{i}"] = who[i]
        values[f"(who{i})"] = "" if names and unit_id in names else f" ({unit_id})"
    spaces = [space(p) for p in event.where]
    for i, p in enumerate(event.where):
        values[f"where{i}"] = spaces[i]
        values[f"corner{i}"] = point(p)
    amounts = [str(n) for n in event.amounts]
    for i, n in enumerate(amounts):
        values[f"amount{i}"] = n
    words = [word(w) if word else w for w in getattr(event, "words", ())]
    for i, w in enumerate(words):
        values[f"word{i}"] = w
    series = {"who": who, "where": spaces, "amount": amounts, "word": words}
    reason = getattr(event, "reason", None)
    values["reason"] = say(reason, names, space, point, dice, word) if reason is not None else ""
    cause = _fill(_own(getattr(event, "cause", "")), values, series)
    values["cause"] = word(cause) if word else cause
    template = getattr(event, "template", None) or PHRASES.get(event.phrase, event.phrase)
    return _fill(_own(template), values, series)


def say_cite(cite: Cite, label: Callable[[str], str] | None = None) -> str:
    """A citation in words; with ``label`` (switch name -> its question or label, as
    :mod:`machina_nb.rules.rulings_words` gives) the switches are said by their labels.

    >>> say_cite(Cite("manual", ("p13",), "spawn phase", ("rating.floor",)))
    'manual p13 (spawn phase); switch rating.floor'
    >>> say_cite(Cite("manual", ("p13",), switches=("rating.floor",)), lambda s: "the floor")
    'manual p13; the floor'
    """
    if label is None or not cite.switches:
        return str(cite)
    plain = Cite(cite.source, cite.pages, cite.heading, (), cite.rulings)
    text = str(plain) if not cite.wording else re.sub(
        r";? ?switch(es)? [\w.]+( (and|,) [\w.]+)*( \([\w. ]+\))?", "", cite.wording)
    said = "; ".join(label(s) for s in cite.switches)
    return f"{text}; {said}" if text else said
