"""The resolution core: the event record, the resolution context, the choice protocol
and the one dispatcher of the effect vocabulary.

An action changes a frozen :class:`~machina_nb.rules.engine.state.GameState` through a
:class:`Resolution`: the state so far, the events it caused (each an :class:`Event`
citing its rule), the rules in force, the dice and the players' choices. Card effects
resolve in printed order through :func:`resolve`, which looks each effect's name up in
the resolution's table of handlers (:data:`machina_nb.rules.engine.vocabulary.EFFECT_HANDLERS`
is the engine's table). A choice the players have not made stops the resolution with
:class:`NeedChoice`, naming what is to be chosen and the options.

Effect handlers import this module and the state; never the actions.

Rules: manual p26 (multiple effects resolve in printed order), p16 (the explorers resolve
ambiguities), p21-23 (scope and affected units).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Callable, Mapping, Sequence

from machina_nb.rules.board.maptext import Point
from machina_nb.rules.board.placement import Displacement
from machina_nb.rules.cards.abilities import CHOSEN_SCOPES, Effect
from machina_nb.rules.cite import Cite
from machina_nb.rules.engine.chance import Dice
from machina_nb.rules.engine.phrases import PHRASES, Reason, literal, open_series, say
from machina_nb.rules.engine.targets import units_in_scope
from machina_nb.rules.engine.state import GameState, Unit
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

_TOKEN = re.compile(r"[\w-]+")

__all__ = ["Kind", "Event", "NeedChoice", "Resolution", "EffectStep", "Handler", "resolve"]


_cite = functools.lru_cache(maxsize=1024)(Cite.parse)
"""A citation written as text, parsed once."""


class Kind(StrEnum):
    """What an event is about (its transcript tag): ``Kind.HEALTH == "health"``."""

    ABILITY = "ability"
    ATTRIBUTES = "attributes"
    BANISHED = "banished"
    BARREL = "barrel"
    CHAPTER = "chapter"
    CHAPTER_SPACE = "chapter_space"
    CHOICE = "choice"
    CONDITION = "condition"
    COUNT = "count"
    DEATH = "death"
    DECK = "deck"
    DESTROY = "destroy"
    DESTROYED = "destroyed"
    DOOR = "door"
    EFFECT_ROLL = "effect_roll"
    ENDGAME = "endgame"
    ENTRY = "entry"
    ESSENCE = "essence"
    EVENT = "event"
    EVENT_ROLL = "event_roll"
    EXIT = "exit"
    EXPLORE = "explore"
    EXPLORER = "explorer"
    GAME = "game"
    HEALTH = "health"
    HIT = "hit"
    HORROR = "horror"
    HORROR_ROLL = "horror_roll"
    ITEM = "item"
    LASTING = "lasting"
    LEVEL = "level"
    LEVEL5 = "level5"
    LIGHT = "light"
    MARKERS = "markers"
    MISS = "miss"
    MONSTER_TURN = "monster_turn"
    MOVE = "move"
    PAY = "pay"
    PHASE = "phase"
    PIT = "pit"
    PULL = "pull"
    PUSH = "push"
    RATINGS = "ratings"
    REASON = "reason"
    RECHARGE = "recharge"
    REFRESH = "refresh"
    ROLL = "roll"
    ROUND = "round"
    SCROLL = "scroll"
    SEAL = "seal"
    SPAWN = "spawn"
    SPAWN_ROLL = "spawn_roll"
    STAMINA = "stamina"
    SWITCH = "switch"
    TAKE = "take"
    TELEPORT = "teleport"
    THREAT = "threat"
    TILES = "tiles"
    TIMER = "timer"
    TREAT = "treat"
    TRIGGER = "trigger"
    TURN = "turn"


@dataclass(frozen=True)
class Event:
    """Something that happened, and the rule that made it happen (pokerkit-style record).

    The meaning is in typed fields; :func:`machina_nb.rules.engine.phrases.say` puts it into
    words for each reader, and ``text`` and ``rule`` are the transcripts' words.
    """

    kind: Kind
    """What the event is about; a ``str`` enum, so ``event.kind == "health"`` holds."""
    phrase: str
    """The key of its template in :data:`~machina_nb.rules.engine.phrases.PHRASES` (an event
    is never free text: any other phrase is refused)."""
    who: tuple[str, ...] = ()
    """The unit ids the phrase names, in the order of its ``{who0}``, ``{who1}``..."""
    where: tuple[tuple[Any, ...], ...] = ()
    """The points the phrase names, ``(x, y)``: spaces (``{where0}``) or grid points
    (``{corner0}``, whose coordinates may be fractions)."""
    amounts: tuple[int, ...] = ()
    """The numbers the phrase needs (``{amount0}``...): amounts lost, ratings before and after."""
    dice: tuple[int, ...] = ()
    """The faces rolled for this event (``{dice}``), in the order rolled."""
    card: str = ""
    """The name of the card the event is about (``{card}``), or ``""``."""
    words: tuple[str, ...] = ()
    """Names already in the players' words (``{word0}``...): cards, abilities, tiles, effects."""
    cause: str = ""
    """What caused it (``{cause}``): the ability, action or phase, in the log's words, as a
    template over the same fields (``{who1}'s spawn roll``)."""
    cite: Cite = Cite()
    """The rule that made it happen."""
    reason: Reason | None = None
    """The mindless monster's reason the event gives (``{reason}``), or None."""

    def __post_init__(self) -> None:
        if type(self.kind) is not Kind:     # most events are made with a Kind already
            object.__setattr__(self, "kind", Kind(self.kind))
        if self.phrase not in PHRASES:
            raise KeyError(f"no phrase {self.phrase!r} in the phrasebook")

    @property
    def text(self) -> str:
        """The event as the transcripts write it (unit ids, ``(x, y)`` pairs)."""
        return say(self)

    @property
    def rule(self) -> str:
        """The citation as the transcripts write it (``manual p18 (health)``)."""
        return str(self.cite)

    def __str__(self) -> str:
        return f"{self.kind}: {self.text} [{self.rule}]"


@dataclass(frozen=True)
class EffectStep:
    """One effect being resolved: who uses it (``user``), on which spaces (``target`` and the
    ``second`` target of a two-target ability), why (``why``, and ``label`` naming the effect
    for the log), the essence its user may still spend on attack rolls, the units in its
    ``scope`` and the units the earlier attacks of the same list hit (``hits``).
    """

    user: Unit | None
    target: Point | None
    second: Point | None
    why: str
    label: str
    essence_budget: int
    scope: tuple[str, ...]
    hits: tuple[str, ...]


Handler = Callable[["Resolution", Effect, EffectStep], "tuple[str, ...] | None"]
"""How one effect of the card vocabulary changes a resolution; an attack returns its hits."""


class NeedChoice(Exception):
    """The players must choose: ``options`` for ``what`` (manual p16: explorers resolve ties).

    Not a :class:`RulesError`: it pauses a resolution for the players' answer and is never a
    refusal, so code that catches refusals cannot swallow it.
    """

    def __init__(self, what: str, options: Sequence[Any], rule: str):
        self.what = what
        self.options = tuple(options)
        self.rule = rule
        super().__init__(f"choose {what} from {list(self.options)} ({rule})")


class Resolution:
    """A state being changed by one action: the state so far, its events, dice and choices.

    ``handlers`` maps each effect name to its :data:`Handler`; :func:`resolve` looks effects
    up there (the engine's table is :data:`machina_nb.rules.engine.vocabulary.EFFECT_HANDLERS`,
    and :func:`machina_nb.rules.engine.vocabulary.new_resolution` builds a resolution with it).
    Rules: manual p26 (multiple effects resolve in printed order).
    """

    def __init__(self, state: GameState, rules: Rules, dice: Dice, choices: Sequence[Any] = (),
                 actor: str | None = None, *, handlers: Mapping[str, Handler]):
        self.handlers = handlers
        self.state = state
        self.rules = rules
        self.dice = dice
        self.choices = list(choices)
        self.events: list[Event] = []
        self.actor = actor
        self.resolving: set[str] = set()
        self.unit_ids: set[str] = {u.id for u in state.units}   # every unit named so far
        self._ids_of = state     # the state whose units are in unit_ids
        self.card: str | None = None     # the card whose ability resolves (manual p27 markers)
        # The most the active explorer spends on an attack roll of this action that is not
        # their own attack (a trap, an exploding barrel): manual p18, any roll of their turn.
        self.essence = 0

    def emit(self, kind: str, phrase: str, rule: str | Cite, *, who: Sequence[str] = (),
             where: Sequence[tuple[Any, ...]] = (), amounts: Sequence[int] = (),
             dice: Sequence[int] = (), card: str = "", words: Sequence[str] = (),
             cause: str = "") -> None:
        """Record an event: its phrase key in :data:`~machina_nb.rules.engine.phrases.PHRASES`,
        its typed fields and its citation.

        ``cause`` is what caused it in the log's words (an ability's name as printed, a phase);
        the unit ids and points it names become fields of the event too.
        """
        cite = rule if isinstance(rule, Cite) else _cite(rule)
        if phrase not in PHRASES:
            raise KeyError(f"no phrase {phrase!r} in the phrasebook")
        who, where = tuple(who), tuple(where)
        if cause:
            cause, who, where = self._cause(cause, who, where,
                                            "where" not in open_series(PHRASES[phrase]))
        self.events.append(Event(Kind(kind), phrase, who, where, tuple(amounts), tuple(dice),
                                 card, tuple(words), cause, cite))

    def _unit_ids(self) -> None:
        """Bring :attr:`unit_ids` up to the state (every unit named so far)."""
        if self._ids_of is not self.state:
            self.unit_ids.update(u.id for u in self.state.units)
            self._ids_of = self.state

    def _cause(self, cause: str, who: tuple[str, ...], where: tuple[tuple[Any, ...], ...],
               points: bool = True) -> tuple[str, tuple[str, ...], tuple[tuple[Any, ...], ...]]:
        """A cause as a template over the event's fields: the unit ids and points it names are
        taken out (most causes name neither, and are kept as they are)."""
        self._unit_ids()
        named = self.unit_ids.intersection(_TOKEN.findall(cause))
        if not named and "(" not in cause:
            return cause.replace("{", "{{").replace("}", "}}"), who, where
        template, more, spots = literal(cause, named, len(who), len(where), points)
        return template, who + more, where + spots

    def choose(self, options: Sequence[Any], what: str, rule: str) -> Any:
        """One option: the only one, or the first of the players' choices that fits, else
        :class:`NeedChoice`.
        Rules: manual p16 (the explorers resolve ambiguities).
        """
        options = tuple(options)
        if len(options) == 1:
            return options[0]
        if not options:
            raise RulesError("choices", f"no option for {what} ({rule})")
        picked = next((c for c in self.choices if c in options), None)
        if picked is not None:
            self.choices.remove(picked)
            self._chosen(picked, what, rule)
            return picked
        raise NeedChoice(what, options, rule)

    def _chosen(self, picked: Any, what: str, rule: str) -> None:
        """Record the option the players chose: a space, spaces, a unit, a move's end, or a
        word (a reading, a deck, an item)."""
        self._unit_ids()
        if isinstance(picked, Displacement):
            self.emit("choice", "choice_move", rule, who=(picked.unit,), where=picked.path,
                      words=(picked.effect, picked.stopped), cause=what)
        elif _is_point(picked):
            self.emit("choice", "choice_space", rule, where=(picked,), cause=what)
        elif isinstance(picked, tuple) and len(picked) == 2 and all(map(_is_point, picked)):
            self.emit("choice", "choice_spaces", rule, where=picked, cause=what)
        elif isinstance(picked, str) and picked in self.unit_ids:
            self.emit("choice", "choice_unit", rule, who=(picked,), cause=what)
        else:
            self.emit("choice", "choice_word", rule, words=(repr(picked),), cause=what)

    def set(self, **changes: Any) -> None:
        """Replace fields of the state (a resolution changes a frozen state step by step)."""
        self.state = self.state.evolve(**changes)

    def roll(self, die: str, reason: str) -> int:
        """A die result from the dice source (scripted, seeded or open).

        Rules: manual p4-5 (dice) (chance points).
        """
        return self.dice.roll(die, reason)


def _is_point(value: Any) -> bool:
    return isinstance(value, tuple) and len(value) == 2 and \
        all(type(v) is int for v in value)


def resolve(r: Resolution, effects: Sequence[Effect], user: Unit | None, target: Point | None,
            why: str, essence_budget: int = 0, second: Point | None = None) -> None:
    """Resolve effects in printed order on the units in their scope, each by its handler.

    A scope the players pick from lands on the one unit they choose (manual p23); when the
    user dies part-way, the rest of the ability fizzles; nothing resolves once the game is
    over. ``second`` is the second target of a two-target ability (manual p23). When an attack
    destroys its target, the later effects still resolve in printed order; one aimed at the
    destroyed unit finds nobody, as that unit has left play (manual p26: printed order, hit or
    miss; p19: destroyed units are removed).
    Rules: manual p26 (multiple effects), p21-23 (scope and affected units), p24-28 (effects),
    p19 (destroyed units).
    """
    hits: tuple[str, ...] = ()
    uid = user.id if user is not None else None
    for effect in effects:
        if r.state.over or (uid is not None and not r.state.has_unit(uid)):
            return
        user = r.state.unit(uid) if uid is not None else None
        scope = units_in_scope(r.state, r.rules, effect.scope, user, target, second)
        label = f"{why}: {effect.op}"
        if effect.scope in CHOSEN_SCOPES and scope:
            scope = (r.choose(scope, f"the {effect.scope.replace('_', ' ')} for {label}",
                              "manual p23 (affected units)"),)
        handler = r.handlers.get(effect.op)
        if handler is None:
            raise RulesError("effects", f"no rule resolves the effect {effect.op!r}")
        step = EffectStep(user, target, second, why, label, essence_budget, scope, hits)
        result = handler(r, effect, step)
        if result is not None:
            hits = result
