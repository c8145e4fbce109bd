"""Setting up a game, and its history: undo, redo, and a log that replays to the same state.

:func:`new_game` lays out a seeded game (decks shuffled by a seeded
:class:`random.Random`, ratings from the first chapter). A :class:`History` is
a frozen record of the initial state, each action with the dice results it
used and the events it caused; :meth:`History.undo` and :meth:`History.redo`
move through it, and :func:`replay` rebuilds the state from the log alone.

>>> from machina_nb.rules.board.maptext import parse_map
>>> from machina_nb.rules.cards.units import UnitCard
>>> phillip = UnitCard("phillip", "Phillip", "explorer", armor=2, will=2, health=5, stamina=4)
>>> game = History.start(new_game(parse_map("+-+-+\\n|. .|\\n+-+-+\\n"), [(phillip, (0, 0))]))
>>> from machina_nb.rules.engine.actions import StartTurn, Move
>>> game = game.apply(StartTurn("phillip")).apply(Move("phillip", (1, 0)))
>>> game.state.unit("phillip").position, game.undo().state.unit("phillip").position
((1, 0), (0, 0))
>>> replay(game.initial, game.log(), game.rules) == game.state
True

Rules: manual p8 (setup), p10 (round).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Sequence, TypeVar

from machina_nb.rules.engine.actions import Action, apply
from machina_nb.rules.engine.chance import Dice, ScriptedDice, SeededDice
from machina_nb.rules.engine.resolution import Event
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.engine.chapters import enters_play
from machina_nb.rules.engine.effects import reset_ratings
from machina_nb.rules.errors import RulesError
from machina_nb.rules.cards.items import ItemCard, ItemDecks
from machina_nb.rules.board.maptext import Layout, Point
from machina_nb.rules.board.playarea import PlayArea
from machina_nb.rules.rulings import Rules
from machina_nb.rules.cards.events import Chapter, EventCard
from machina_nb.rules.engine.state import Decision, Deck, GameState, MapSpec, Unit
from machina_nb.rules.cards.units import UnitCard

__all__ = ["new_game", "Step", "History", "replay"]

_C = TypeVar("_C")


def new_game(layout: Layout | PlayArea, explorers: Sequence[tuple[UnitCard, Point]],
             chapters: Sequence[Chapter] = (Chapter("chapter-1", "Default chapter"),),
             monsters: Sequence[UnitCard] = (), horror_events: Sequence[EventCard] = (),
             explorer_events: Sequence[EventCard] = (), rules: Rules | None = None,
             seed: int = 0, tile_size: int = 10, threat_positions: int = 5,
             scenario_horror_events: Sequence[EventCard] = (),
             scenario_explorer_events: Sequence[EventCard] = (),
             items: Sequence[ItemCard] = (),
             endgame_chapters: Sequence[Chapter] = ()) -> GameState:
    """A game at the start of round 1, decks shuffled with ``seed`` (manual p8: setup).

    ``layout`` is a fixed map, or a :class:`~machina_nb.rules.board.playarea.PlayArea`
    (``PlayArea.start``: the map-tile deck with the starting tile placed) that
    grows as the explorers explore (manual p34).

    Level-1 monster cards form the monster deck; the others wait in the reserve
    for their level (manual p14). The first chapter sets the ratings, adjusted
    for the player count under 3.5 (switch adjust35.when). The essence maximum is 9 or the
    card's printed value (``essence.max``, switch essence.max). ``horror_events`` and
    ``explorer_events`` are the core decks; the scenario's events join them whole
    (1.0) or with only as many core events as the scenario has
    (``setup.event_decks = balanced_3_5``, switch setup.event_decks). ``items``: level-1 item
    cards form the four item decks, the others wait for *add item level* (manual p8, p33).
    ``endgame_chapters`` are set aside until *enter endgame* (manual p8, p28). The explorers,
    placed as the setup's *place entry token* places them, then resolve their cards'
    «enters play» (manual p8, p28).
    Rules: manual p8 (setup), p28 (chapter ratings, place entry token), p30 (item decks);
    3.5 §Spawn Phase.
    """
    rules = rules if rules is not None else Rules()
    if not chapters:
        raise RulesError("chapters", "a game needs at least one chapter (manual p8)")
    rng = random.Random(seed)

    def _shuffled(cards: Iterable[_C]) -> tuple[_C, ...]:
        deck = list(cards)
        rng.shuffle(deck)
        return tuple(deck)

    def _events(core: Sequence[EventCard], scenario: Sequence[EventCard]
                ) -> tuple[EventCard, ...]:
        if scenario and rules["setup.event_decks"] == "balanced_3_5":
            core = _shuffled(core)[:len(scenario)]
        return _shuffled(tuple(core) + tuple(scenario))

    units = tuple(Unit.from_card(card, card.id, pos) for card, pos in explorers)
    if rules["essence.max"] == "9":
        units = tuple(replace(u, max_essence=9) for u in units)
    state = GameState(
        MapSpec(area=layout) if isinstance(layout, PlayArea) else MapSpec(layout, tile_size),
        units=units, starting_explorers=len(units),
        chapter=chapters[0], chapters=Deck(tuple(chapters[1:])),
        monsters=Deck(_shuffled(c for c in monsters if c.level == 1)),
        reserve=tuple(c for c in monsters if c.level != 1),
        horror_events=Deck(_events(horror_events, scenario_horror_events)),
        explorer_events=Deck(_events(explorer_events, scenario_explorer_events)),
        threat_positions=threat_positions, endgame=tuple(endgame_chapters))
    if items:
        state = replace(state, items=ItemDecks.deal(items, lambda cards, _: _shuffled(cards),
                                                    rules))
    r = new_resolution(state, rules, SeededDice(rng))
    reset_ratings(r)
    for u in r.state.explorers_on_map:
        enters_play(r, u.id, "setup")
    return r.state


@dataclass(frozen=True)
class Step:
    """One applied action: the dice results it used, its events, the state after it."""

    action: Action
    rolls: tuple[int | tuple[int, ...], ...]
    events: tuple[Event, ...]
    state: GameState


@dataclass(frozen=True)
class History:
    """A game's initial state, its steps and the current position (undo/redo)."""

    initial: GameState
    rules: Rules
    steps: tuple[Step, ...] = ()
    position: int = 0

    @classmethod
    def start(cls, state: GameState, rules: Rules | None = None) -> "History":
        """A history with no steps yet."""
        return cls(state, rules if rules is not None else Rules())

    @property
    def state(self) -> GameState:
        """The state at the current position."""
        return self.steps[self.position - 1].state if self.position else self.initial

    def apply(self, action: Action, dice: Dice | None = None,
              choose: Callable[[Decision], object] | None = None) -> "History":
        """Apply an action (dropping any redo steps); ``dice`` defaults to open dice.

        When the players must choose, the new state carries the
        :class:`~machina_nb.rules.engine.state.Decision` and the next step is a
        :class:`~machina_nb.rules.engine.actions.Choose`; or ``choose`` picks one of its
        options at once, and the action is applied again with that choice added and the
        same dice results so far (one step, a choice after a roll).

        Rules: manual p10 (the round as a sequence of actions), p16 (the players choose).
        """
        source = dice if dice is not None else ScriptedDice()
        rolls: tuple[int | tuple[int, ...], ...] = ()
        while True:
            dice = ScriptedDice(rolls, then=source)
            state, events = apply(self.state, action, self.rules, dice)
            if state.decision is None or choose is None:
                break
            rolls = tuple(dice.record)
            action = replace(action, choices=action.choices + (choose(state.decision),))
        step = Step(action, tuple(dice.record), events, state)
        return replace(self, steps=self.steps[:self.position] + (step,),
                       position=self.position + 1)

    def undo(self) -> "History":
        """One step back; the state is exactly the one before the last action."""
        if not self.position:
            raise RulesError("history", "nothing to undo")
        return replace(self, position=self.position - 1)

    def redo(self) -> "History":
        """One step forward again."""
        if self.position == len(self.steps):
            raise RulesError("history", "nothing to redo")
        return replace(self, position=self.position + 1)

    def log(self) -> tuple[tuple[Action, tuple[int | tuple[int, ...], ...]], ...]:
        """The actions up to the current position, with the dice results each used."""
        return tuple((s.action, s.rolls) for s in self.steps[:self.position])

    def events(self) -> tuple[Event, ...]:
        """Every event up to the current position."""
        return tuple(e for s in self.steps[:self.position] for e in s.events)


def replay(initial: GameState, log: Iterable[tuple[Action, tuple[int | tuple[int, ...], ...]]], rules: Rules
           ) -> GameState:
    """Rebuild a state from its initial state and a log of (action, dice results)."""
    state = initial
    for action, rolls in log:
        state, _ = apply(state, action, rules, ScriptedDice(rolls))
    return state
