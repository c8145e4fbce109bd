"""The rating processes round by round: :func:`play_rounds` follows spawn, horror, threat
and level exactly over a horizon, as a distribution over :class:`RoundSummary` values.

How it stays fast: a round's state is split into a spawn side and a horror side.
Where the rules make them independent (no spawn at a full tile raises threat, and
the 3.5 timer does the same on every path) each side is followed alone with integer
weights over one denominator, and the answer (a :class:`RoundDistribution`) keeps
them apart: marginals cost the sides, not their product. Otherwise one joint chain
follows both, with each roll's transitions tabulated once. The limits (``MAX_ROUNDS`` and
the others below) are documented in :mod:`machina_nb.rules.odds.processes`.

Rules: manual p13 (spawn), manual p14 (horror, threat), 3.5 §Spawn Phase and FAQ,
rulings C-3, C-8, D23, D24, D25, D26, D27, D28, D29, D48.
"""

from __future__ import annotations

from collections.abc import Callable, ItemsView, Iterator, Mapping, ValuesView
from dataclasses import dataclass, fields
from fractions import Fraction
from itertools import product
from math import prod
from operator import itemgetter
from typing import Final, Literal, TypeVar

from machina_nb.rules.checks import integer as _integer
from machina_nb.rules.errors import RulesError
from machina_nb.rules.odds.processes.closed_forms import (
    DIE_FACES,
    ChapterRatings,
    Party,
    adjusted_spawn_rating,
    counted_explorers,
    long_run_spawn_attempts,
    raise_threat,
    succeeding_faces,
)
from machina_nb.rules.rulings import Rules

__all__ = [
    "Setup", "RoundSummary", "play_rounds", "marginal", "spawn_chain", "RoundReport",
    "round_report", "RoundDistribution", "MAX_ROUNDS", "MAX_SPAWN_ROLLS", "MAX_HORROR_ROUNDS",
    "MAX_JOINT_SIZE", "MAX_OUTCOMES",
]

MAX_ROUNDS = 100
"""The longest horizon :func:`play_rounds` accepts."""

MAX_SPAWN_ROLLS = 400
"""The most spawn rolls (rolling explorers x rounds) one exact chain follows."""

MAX_HORROR_ROUNDS = 60
"""The most rounds :func:`play_rounds` follows a horror rating for."""

MAX_JOINT_SIZE = 200_000
"""The largest joint chain :func:`play_rounds` follows when spawn and horror are not
independent (spawns at a full tile raise threat, or 3.5 spawns move the chapter timer):
``(free rolls + 1) x (full-tile rolls + 1) x (rounds + 1)^2 x rounds x (rollers + 1)``,
where free and full-tile rolls are the rolling explorers on each kind of tile times the
rounds."""

MAX_OUTCOMES = 300_000
"""The most outcomes a :class:`RoundDistribution` lists when iterated (its marginals and
look-ups have no such limit)."""

@dataclass(frozen=True)
class Setup:
    """What :func:`play_rounds` starts from.

    ``threat_positions`` is the number of positions on the threat slider; it
    appears only on the chapter board's picture , so it is a
    parameter (5 is a placeholder). ``spawn`` / ``horror`` override the
    current ratings (e.g. the p14 illustration's current horror 3); by default
    they start at the first chapter's values (3.5: adjusted per ``adjust35.when``).

    Rules: manual p8 (threat starts at position 1, level 1).
    """

    chapters: tuple[ChapterRatings, ...]
    party: Party
    threat_positions: int = 5
    threat: int = 1
    level: int = 1
    spawn: int | None = None
    horror: int | None = None

    def __post_init__(self) -> None:
        chapters = tuple(self.chapters)
        if not chapters or not all(isinstance(c, ChapterRatings) for c in chapters):
            raise RulesError("chapters", "expected one or more ChapterRatings values")
        object.__setattr__(self, "chapters", chapters)
        if not isinstance(self.party, Party):
            raise RulesError("party", "expected a Party")
        _integer("threat_positions", self.threat_positions, 2, 20)
        _integer("threat", self.threat, 1, self.threat_positions)
        _integer("level", self.level, 1, 5)
        for name in ("spawn", "horror"):
            if getattr(self, name) is not None:
                _integer(name, getattr(self, name), -9, 9)


@dataclass(frozen=True)
class RoundSummary:
    """Where a game stands after some rounds, and what happened on the way.

    ``chapter`` is an index into :attr:`Setup.chapters` (``len(chapters)``: past
    the last one). ``first_level_up`` is the round the monster level first
    rose, or ``None``. ``level5_events`` counts increases replaced by the
    level-5 rule.

    Rules: manual p13-14, 3.5 §Spawn Phase.
    """

    chapter: int
    spawn_rating: int | None
    horror_rating: int | None
    threat: int
    level: int
    spawned: int
    threat_from_limit: int
    invoked: int
    level5_events: int
    first_level_up: int | None


# The chains split a round's state in two (the lumping): the *spawn side*
# ``(chapter, spawn_rating, spawned, threat_from_limit)`` and the *horror side*
# ``(horror_rating, threat, level, invoked, level5_events, first_level_up)``. The
# spawn side never reads the horror side. The horror side hears from the spawn side
# only through a round's *message*: a 3.5 timer's threat and slider reset, which
# chapter's horror rating a successful horror roll resets to, and threat from spawns
# at the monster limit. When every path sends the same messages, the two sides are
# independent and are followed apart (the joint distribution is their product, built
# only when asked for); otherwise one joint chain follows both.
_SPAWN_FIELDS = ("chapter", "spawn_rating", "spawned", "threat_from_limit")
_HORROR_FIELDS = ("horror_rating", "threat", "level", "invoked", "level5_events", "first_level_up")
_KEEP: Final = "keep"          # a timer that leaves the horror rating as it is
_SLIDER: Final = "slider"      # a timer whose threat is the current horror rating
_NO_ROLL: Final = "no roll"    # past the last chapter: no horror roll

SpawnSide = tuple[int, int | None, int, int]
"""``(chapter, spawn_rating, spawned, threat_from_limit)``."""
HorrorSide = tuple[int | None, int, int, int, int, int | None]
"""``(horror_rating, threat, level, invoked, level5_events, first_level_up)``."""
Message = tuple[int | Literal["slider"], int | None | Literal["keep"]]
"""A 3.5 timer's word to the horror side: the threat amount and the new horror rating."""
Reset = int | None | Literal["no roll"]
"""What a successful horror roll resets the horror rating to."""
Heard = tuple[Message | None, Reset]
"""A round's message to the horror side and its horror reset."""
Roll = tuple[int | None, int, int, int]
"""One spawn roll's outcome: ``(rating, +spawned, +limit, faces)``."""
Row = tuple[int | None, ...]
"""Some of a :class:`RoundSummary`'s fields, in order."""


_Joint = tuple[SpawnSide, HorrorSide]
_Part = tuple[tuple[int, ...],
              Mapping[Row, int] | Mapping[SpawnSide, int] | Mapping[HorrorSide, int], int]
"""A part of a distribution: the fields it holds, integer weights of their values, the
denominator."""
_S = TypeVar("_S")
_T = TypeVar("_T")


class _Chain:
    """The transitions of one ruleset for one setup, tabulated once (integer weights, 10 per roll)."""

    def __init__(self, setup: Setup, rules: Rules):
        self.setup, self.rules = setup, rules
        self.v35 = rules["spawn.procedure"] == "v3_5"
        self.floor_one = rules["rating.floor"] == "one"
        self.limit = rules["spawn.limit_scope"] != "none"
        self.reset_on_limit = rules["spawn10.reset_on_limit"] == "yes"
        self.reset_on_success = rules["spawn35.reset_on_success"] == "yes"
        self.when = rules["adjust35.when"]
        self.n = counted_explorers(setup.party, rules)
        self.full = setup.party.full_tiles
        self.chapters = setup.chapters
        self.horror = setup.horror is not None or any(c.horror_rating is not None
                                                      for c in setup.chapters)
        self.spawns_raise_threat = self.limit and any(self.full)
        self._rolls: dict[tuple[int, int | None, bool], tuple[Roll, ...]] = {}
        self._steps: dict[tuple[int, int], tuple[int, int, bool]] = {}

    def adj(self, rating: int) -> int:
        """The 3.5 player-count adjustment of a spawn rating for this party.

        Rules: 3.5 §Spawn Phase (player-count adjustment); switch n35.
        """
        return adjusted_spawn_rating(rating, self.n)

    def reset(self, chapter: int, timer: bool) -> int | None:
        """The spawn rating a chapter resets to (3.5 adjustment per ``adjust35.when``, D24)."""
        d = self.chapters[chapter].spawn_rating
        if d is None or not self.v35:
            return d
        if self.when == "every_reset" or (self.when == "rating1_only" and timer):
            return self.adj(d)
        return d

    def start(self) -> tuple[SpawnSide, HorrorSide]:
        """The spawn and horror sides before round 1: the first chapter's ratings unless given.

        Rules: manual p6 (the chapter card's ratings), p8 (setup), 3.5 §Spawn Phase.
        """
        s = self.setup
        r = s.spawn if s.spawn is not None else self.reset(0, timer=False)
        h = s.horror if s.horror is not None else self.chapters[0].horror_rating
        return (0, r, 0, 0), (h, s.threat, s.level, 0, 0, None)

    def timer(self, side: SpawnSide) -> tuple[SpawnSide, Message | None]:
        """3.5 phase start: the chapter timer at rating 1, then (``every_phase_start``) the
        adjustment. Returns the spawn side after it and the message for the horror side
        (``None``, or the threat amount and the new horror rating or ``_KEEP``).

        Rules: 3.5 §Spawn Phase (rating 1: threat, reset or next chapter); switches
        adjust35.when, threat35.amount, threat35.no_horror_rating.
        """
        ch, r, spawned, limit = side
        if not self.v35 or ch >= len(self.chapters) or r is None:
            return side, None
        chapter = self.chapters[ch]
        skip = chapter.horror_rating is None and \
            self.rules["threat35.no_horror_rating"] == "skip_rule"
        message: Message | None = None
        horror: int | None | Literal["keep"]
        if r == 1 and not skip:
            amount: int | Literal["slider"] = (chapter.horror_rating or 0) if self.rules["threat35.amount"] == \
                "default_printed" else _SLIDER
            if chapter.blocking:
                r, horror = self.reset(ch, timer=True), _KEEP
            else:
                ch += 1
                if ch < len(self.chapters):
                    r, horror = self.reset(ch, timer=True), self.chapters[ch].horror_rating
                else:
                    r = horror = None
            message = None if (amount, horror) == (0, _KEEP) else (amount, horror)
        if self.when == "every_phase_start" and r is not None:
            r = self.adj(r)
        return (ch, r, spawned, limit), message

    def roll(self, ch: int, r: int | None, full: bool) -> tuple[Roll, ...]:
        """One explorer's spawn roll from rating ``r``: ``(rating, +spawned, +limit, faces)``.

        Rules: manual p13 (spawn roll, four-monster limit), 3.5 §Spawn Phase; switches
        rating.floor, spawn35.reset_on_success, spawn10.reset_on_limit, spawn.limit_scope.
        """
        key = (ch, r, full)
        if key not in self._rolls:
            self._rolls[key] = self._roll(ch, r, full)
        return self._rolls[key]

    def _roll(self, ch: int, r: int | None, full: bool) -> tuple[Roll, ...]:
        if r is None or ch >= len(self.chapters):
            return ((r, 0, 0, DIE_FACES),)
        out: list[Roll] = []
        wins, at_limit = succeeding_faces(r), full and self.limit
        if wins:
            if self.v35:
                to = self.reset(ch, timer=False) if self.reset_on_success else r
            elif at_limit and not self.reset_on_limit:
                to = r
            else:
                to = self.chapters[ch].spawn_rating
            out.append((to, int(not at_limit), int(at_limit), wins))
        if wins < DIE_FACES:
            to = r if self.v35 else max(1, r - 1) if self.floor_one else r - 1
            out.append((to, 0, 0, DIE_FACES - wins))
        return tuple(out)

    def phase_end(self, side: SpawnSide) -> SpawnSide:
        """3.5: the spawn rating falls by 1 at the end of the Spawn phase.

        Rules: 3.5 §Spawn Phase.
        """
        ch, r, spawned, limit = side
        if not self.v35 or r is None or ch >= len(self.chapters):
            return side
        return ch, r - 1, spawned, limit

    def roll_reset(self, ch: int) -> Reset:
        """What a successful horror roll resets the horror rating to in chapter ``ch``.

        Rules: manual p14 (an invoke resets the horror rating to the chapter's).
        """
        return self.chapters[ch].horror_rating if ch < len(self.chapters) else _NO_ROLL

    def threat_up(self, side: HorrorSide, amount: int, round_no: int) -> HorrorSide:
        """The horror side after ``amount`` +1s of monster threat (level-ups, level-5 events).

        Rules: manual p14 (increase monster threat), 3.5 §Increasing Monster Level.
        """
        h, t, level, invoked, events, first = side
        for _ in range(amount):
            if (t, level) not in self._steps:
                self._steps[t, level] = raise_threat(t, level, self.rules,
                                                     self.setup.threat_positions)
            t, up, event = self._steps[t, level]
            if up > level and first is None:
                first = round_no
            level, events = up, events + event
        return h, t, level, invoked, events, first

    def hear(self, side: HorrorSide, message: Message | None, round_no: int) -> HorrorSide:
        """The horror side after a 3.5 timer's message: threat raised, the slider reset.

        Rules: 3.5 §Spawn Phase (rating 1 raises threat by the horror rating); switch
        threat35.amount.
        """
        if message is None:
            return side
        amount, horror = message
        raised = amount if isinstance(amount, int) else max(0, side[0] or 0)   # else _SLIDER
        side = self.threat_up(side, raised, round_no)
        return side if horror == _KEEP else (horror,) + side[1:]

    def horror_roll(self, side: HorrorSide, reset: Reset, round_no: int
                    ) -> tuple[tuple[HorrorSide, int], ...]:
        """The Horror phase's roll: invoke (threat +1, reset) or the horror rating falls by 1.

        Rules: manual p14 (horror phase); switch rating.floor.
        """
        h = side[0]
        if h is None or reset == _NO_ROLL:
            return ((side, DIE_FACES),)
        out: list[tuple[HorrorSide, int]] = []
        wins = succeeding_faces(h)
        if wins:
            _, t, level, invoked, events, first = self.threat_up(side, 1, round_no)
            out.append(((reset, t, level, invoked + 1, events, first), wins))
        if wins < DIE_FACES:
            out.append(((max(1, h - 1) if self.floor_one else h - 1,) + side[1:], DIE_FACES - wins))
        return tuple(out)


def _relabel(dist: dict[_S, int], move: Callable[[_S], _T]) -> dict[_T, int]:
    out: dict[_T, int] = {}
    for state, weight in dist.items():
        nxt = move(state)
        out[nxt] = out.get(nxt, 0) + weight
    return out


def _messages(chain: _Chain, rounds: int) -> list[Heard] | None:
    """Each round's message to the horror side when it is the same on every path, else None.

    Follows only the support of (chapter, spawn rating): no weights, no counts.

    Rules: manual p13 (spawns at a full tile raise threat), 3.5 §Spawn Phase (the timer).
    """
    if chain.spawns_raise_threat:
        return None
    messages: list[Heard] = []
    states = {chain.start()[0][:2]}
    for _ in range(rounds):
        moved = [chain.timer((ch, r, 0, 0)) for ch, r in states]
        heard = {(message, chain.roll_reset(side[0])) for side, message in moved}
        if len(heard) > 1:
            return None
        messages.append(heard.pop())
        states = {side[:2] for side, _ in moved}
        for full in chain.full:
            states = {(ch, o[0]) for ch, r in states for o in chain.roll(ch, r, full)}
        states = {chain.phase_end((ch, r, 0, 0))[:2] for ch, r in states}
    return messages


def _spawn_round(chain: _Chain, dist: dict[SpawnSide, int]) -> dict[SpawnSide, int]:
    """One Spawn phase of the spawn side alone (weights x10 per roller).

    Rules: manual p13 (spawn phase), 3.5 §Spawn Phase.
    """
    if chain.v35:
        dist = _relabel(dist, lambda side: chain.timer(side)[0])
    for full in chain.full:
        out: dict[SpawnSide, int] = {}
        for (ch, r, spawned, limit), weight in dist.items():
            for to, more, over, faces in chain.roll(ch, r, full):
                key = (ch, to, spawned + more, limit + over)
                out[key] = out.get(key, 0) + weight * faces
        dist = out
    return _relabel(dist, chain.phase_end) if chain.v35 else dist


def _horror_round(chain: _Chain, dist: dict[HorrorSide, int], heard: Heard, round_no: int
                  ) -> dict[HorrorSide, int]:
    """One round of the horror side alone, given the round's message (weights x10 per roll).

    Rules: manual p14 (horror phase), 3.5 §Spawn Phase (the timer's threat).
    """
    message, reset = heard
    if message is not None:
        dist = _relabel(dist, lambda side: chain.hear(side, message, round_no))
    if not chain.horror:
        return dist
    out: dict[HorrorSide, int] = {}
    moves: dict[tuple[int | None, int, int, bool],
                list[tuple[tuple[int | None, int, int], int, int, bool, int]]] = {}
    for side, weight in dist.items():
        h, t, level, invoked, events, first = side
        key = (h, t, level, first is None)
        if key not in moves:  # the roll's effect on everything but the counts, tabulated
            moves[key] = [(nxt[:3], nxt[3], nxt[4], nxt[5] == round_no, faces) for nxt, faces in
                          chain.horror_roll((h, t, level, 0, 0, first), reset, round_no)]
        for start, more, extra, marked, faces in moves[key]:
            nxt = start + (invoked + more, events + extra, round_no if marked else first)
            out[nxt] = out.get(nxt, 0) + weight * faces
    return out


def _joint_round(chain: _Chain, dist: dict[_Joint, int], round_no: int) -> dict[_Joint, int]:
    """One round of both sides together, for setups whose sides are not independent.

    Rules: manual p13 (spawn phase), manual p14 (horror phase, threat), 3.5 §Spawn Phase.
    """
    if chain.v35:
        def start(pair: _Joint) -> _Joint:
            side, message = chain.timer(pair[0])
            return side, chain.hear(pair[1], message, round_no)
        dist = _relabel(dist, start)
    for full in chain.full:
        out: dict[_Joint, int] = {}
        for ((ch, r, spawned, limit), horror), weight in dist.items():
            for to, more, over, faces in chain.roll(ch, r, full):
                key = ((ch, to, spawned + more, limit + over),
                       chain.threat_up(horror, over, round_no) if over else horror)
                out[key] = out.get(key, 0) + weight * faces
        dist = out
    if chain.v35:
        dist = _relabel(dist, lambda pair: (chain.phase_end(pair[0]), pair[1]))
    if not chain.horror:
        return dist
    out = {}
    for (spawn, horror), weight in dist.items():
        for nxt, faces in chain.horror_roll(horror, chain.roll_reset(spawn[0]), round_no):
            key = (spawn, nxt)
            out[key] = out.get(key, 0) + weight * faces
    return out


_FIELDS = tuple(f.name for f in fields(RoundSummary))
_SPAWN_SIDE = tuple(_FIELDS.index(name) for name in _SPAWN_FIELDS)   # their positions
_HORROR_SIDE = tuple(_FIELDS.index(name) for name in _HORROR_FIELDS)
if sorted(_SPAWN_SIDE + _HORROR_SIDE) != list(range(len(_FIELDS))):
    raise ValueError("the spawn and horror sides must name every RoundSummary field once")


def _sort_key(state: Row) -> tuple[tuple[bool, int], ...]:
    return tuple((v is None, v if v is not None else 0) for v in state)


class RoundDistribution(Mapping[RoundSummary, Fraction]):
    """What :func:`play_rounds` returns: a read-only mapping :class:`RoundSummary` -> Fraction.

    It is kept as parts that are independent of each other, each a table of
    integer weights over one denominator, keyed by some of the summary's fields:
    one part (the joint chain) or two (the spawn and the horror side, whose
    product is the joint distribution). Looking a summary up and :func:`marginal`
    read the parts directly; iterating builds the joint mapping once, in the
    order of the summary's fields.

    Rules: manual p13 (spawn phase), manual p14 (horror phase, threat), 3.5 §Spawn Phase.
    """

    def __init__(self, parts: tuple[_Part, ...]):
        self._parts: tuple[tuple[tuple[int, ...], dict[Row, int], int], ...] = tuple(
            (tuple(p), dict(w.items()), d) for p, w, d in parts)
        self._joint: dict[RoundSummary, Fraction] | None = None

    def __getitem__(self, summary: RoundSummary) -> Fraction:
        if not isinstance(summary, RoundSummary):
            raise KeyError(summary)
        values = tuple(getattr(summary, name) for name in _FIELDS)
        numerator, denominator = 1, 1
        for positions, weights, part_denominator in self._parts:
            weight = weights.get(tuple(values[i] for i in positions))
            if weight is None:
                raise KeyError(summary)
            numerator, denominator = numerator * weight, denominator * part_denominator
        return Fraction(numerator, denominator)

    def __len__(self) -> int:
        return prod(len(weights) for _, weights, _ in self._parts)

    def __iter__(self) -> Iterator[RoundSummary]:
        return iter(self.joint())

    def items(self) -> ItemsView[RoundSummary, Fraction]:
        return self.joint().items()

    def values(self) -> ValuesView[Fraction]:
        return self.joint().values()

    def __repr__(self) -> str:
        return f"RoundDistribution({len(self)} outcomes)"

    def joint(self) -> dict[RoundSummary, Fraction]:
        """The whole distribution as a dict, sorted by the summary's fields (built once)."""
        if self._joint is None:
            if len(self) > MAX_OUTCOMES:
                raise RulesError("rounds", f"{len(self)} outcomes are too many to list (at most "
                                           f"{MAX_OUTCOMES}, MAX_OUTCOMES); ask for a marginal "
                                           "or fewer rounds")
            self._joint = self._build_joint()
        return self._joint

    def _build_joint(self) -> dict[RoundSummary, Fraction]:
        # The order by the summary's fields as one integer per outcome: each part ranks the
        # runs of consecutive fields it holds, the ranks are mixed-radix digits, so a part's
        # share of the integer is fixed per row and the parts' shares add up.
        owner = {i: k for k, (positions, _, _) in enumerate(self._parts) for i in positions}
        runs: list[list[int]] = []
        for i in range(len(_FIELDS)):
            if runs and owner[runs[-1][-1]] == owner[i]:
                runs[-1].append(i)
            else:
                runs.append([i])
        places, ranks = [1] * len(runs), []
        for n, run in enumerate(runs):
            positions, weights = self._parts[owner[run[0]]][:2]
            at = [positions.index(i) for i in run]
            keys = sorted({tuple(v[j] for j in at) for v in weights}, key=_sort_key)
            ranks.append({key: r for r, key in enumerate(keys)})
            for m in range(n):
                places[m] *= len(keys)
        tables = []
        for k, (positions, weights, _) in enumerate(self._parts):
            mine = [(n, [positions.index(i) for i in run]) for n, run in enumerate(runs)
                    if owner[run[0]] == k]
            tables.append([(values, weight, sum(ranks[n][tuple(values[j] for j in at)] *
                                                places[n] for n, at in mine))
                           for values, weight in weights.items()])
        layout = [p for positions, _, _ in self._parts for p in positions]
        pick = itemgetter(*[layout.index(i) for i in range(len(_FIELDS))])
        outcomes = []
        for combination in product(*tables):
            values, weight, order = combination[0]
            for more, w, share in combination[1:]:
                values, weight, order = values + more, weight * w, order + share
            outcomes.append((order, values, weight))
        outcomes.sort(key=itemgetter(0))
        denominator = prod(d for _, _, d in self._parts)
        return {RoundSummary(*pick(values)): Fraction(weight, denominator)
                for _, values, weight in outcomes}

    def marginal(self, field: str) -> dict[int | None, Fraction]:
        """The distribution of one field, summed within the part that holds it (manual p13-14:
        the spawn and horror tracks over rounds)."""
        position = _FIELDS.index(field)
        for positions, weights, denominator in self._parts:
            if position in positions:
                at = positions.index(position)
                out: dict[int | None, int] = {}
                for values, weight in weights.items():
                    out[values[at]] = out.get(values[at], 0) + weight
                return {value: Fraction(out[value], denominator)
                        for value in sorted(out, key=lambda v: (v is None, v or 0))}
        raise RulesError("field", f"no part of the distribution holds {field!r}")


def _joint_size(chain: _Chain, rounds: int) -> int:
    """A measure of the joint chain's work: spawns and limit spawns, invokes and the first
    level-up round each range over at most ``rolls + 1`` or ``rounds + 1`` values, and
    every round takes one step per roll."""
    full = sum(chain.full)
    free = len(chain.full) - full
    return (free * rounds + 1) * (full * rounds + 1) * (rounds + 1) ** 2 * rounds * \
        (len(chain.full) + 1)


def _check_size(chain: _Chain, rounds: int) -> None:
    """Refuse, before any work, a chain past the documented limits (naming ``rounds``)."""
    rollers = len(chain.full)
    if rounds > MAX_ROUNDS:
        raise RulesError("rounds", f"{rounds} rounds; the exact chains follow at most "
                                   f"{MAX_ROUNDS} (MAX_ROUNDS)")
    if rollers * rounds > MAX_SPAWN_ROLLS:
        raise RulesError("rounds", f"{rollers} rolling explorer(s) x {rounds} rounds = "
                                   f"{rollers * rounds} spawn rolls; the exact chain follows "
                                   f"at most {MAX_SPAWN_ROLLS} (MAX_SPAWN_ROLLS)")
    if chain.horror and rounds > MAX_HORROR_ROUNDS:
        raise RulesError("rounds", f"{rounds} rounds with a horror rating; the exact chain "
                                   f"follows the horror rating for at most {MAX_HORROR_ROUNDS} "
                                   "(MAX_HORROR_ROUNDS)")


def _check_joint(chain: _Chain, rounds: int) -> None:
    """Refuse a joint chain past ``MAX_JOINT_SIZE``, with the most rounds allowed (naming ``rounds``)."""
    if _joint_size(chain, rounds) > MAX_JOINT_SIZE:
        most = max((t for t in range(1, rounds) if _joint_size(chain, t) <= MAX_JOINT_SIZE),
                   default=0)
        raise RulesError("rounds", f"spawns here can raise threat or move the 3.5 timer, so "
                                   f"spawn and horror are followed jointly; {rounds} rounds "
                                   f"exceed MAX_JOINT_SIZE, which lets at most {most} rounds through for this setup")


def play_rounds(setup: Setup, rules: Rules, rounds: int,
                progress: Callable[[int, int], None] | None = None
                ) -> RoundDistribution:
    """The exact distribution of the game's rating state after ``rounds`` Spawn + Horror phases.

    Each round: the Spawn phase (1.0: each roller in order against the shared
    renewal rating; 3.5: the rating-1 timer, the rolls, the end-of-phase
    decrease), then the Horror phase (one roll). Switches read:
    ``spawn.procedure`` (C-3), ``rating.floor`` (D23), ``spawn10.reset_on_limit``
    (D48), ``spawn.limit_scope`` (C-7), ``adjust35.when`` (D24),
    ``threat35.amount`` and ``threat35.no_horror_rating`` (D25), ``n35`` (D26),
    ``spawn35.reset_on_success`` (D27), ``threat.levelup`` (C-8, D29), ``level5_rule`` (C-8).

    The answer is a :class:`RoundDistribution` (a mapping of
    :class:`RoundSummary` to exact chances). ``progress(done, rounds)`` is called
    after each round when given. Past the limits in the module's docstring a
    :class:`~machina_nb.rules.errors.RulesError` names ``rounds`` before any work.

    Rules: manual p13 (spawn phase), manual p14 (horror phase, threat),
    3.5 §Spawn Phase, 3.5 FAQ.
    """
    rounds = _integer("rounds", rounds, 1)
    chain = _Chain(setup, rules)
    _check_size(chain, rounds)
    messages = _messages(chain, rounds)
    if messages is None:
        _check_joint(chain, rounds)
    spawn, horror = chain.start()
    if messages is None:
        dist = {(spawn, horror): 1}
    else:
        spawn_dist, horror_dist = {spawn: 1}, {horror: 1}
    for round_no in range(1, rounds + 1):
        if messages is None:
            dist = _joint_round(chain, dist, round_no)
        else:
            spawn_dist = _spawn_round(chain, spawn_dist)
            horror_dist = _horror_round(chain, horror_dist, messages[round_no - 1], round_no)
        if progress is not None:
            progress(round_no, rounds)
    spawn_denominator: int = DIE_FACES ** (len(chain.full) * rounds)
    horror_denominator: int = DIE_FACES ** rounds if chain.horror else 1
    if messages is None:
        joint: dict[Row, int] = {s + h: w for (s, h), w in dist.items()}
        return RoundDistribution(((_SPAWN_SIDE + _HORROR_SIDE, joint,
                                   spawn_denominator * horror_denominator),))
    return RoundDistribution(((_SPAWN_SIDE, spawn_dist, spawn_denominator),
                              (_HORROR_SIDE, horror_dist, horror_denominator)))


def marginal(distribution: Mapping[RoundSummary, Fraction], field: str
             ) -> dict[int | None, Fraction]:
    """The distribution of one :class:`RoundSummary` field (e.g. ``"spawned"``, ``"first_level_up"``).

    Rules: manual p13-14 (the spawn and horror tracks, round after round).
    """
    if field not in _FIELDS:
        raise RulesError("field", f"unknown field {field!r}; expected one of {', '.join(_FIELDS)}")
    if isinstance(distribution, RoundDistribution):
        return distribution.marginal(field)
    out: dict[int | None, Fraction] = {}
    for summary, p in distribution.items():
        key = getattr(summary, field)
        out[key] = out.get(key, 0) + p
    return dict(sorted(out.items(), key=lambda kv: (kv[0] is None, kv[0] or 0)))


def spawn_chain(default: int, rollers: int, rounds: int, rules: Rules) -> dict[int, Fraction]:
    """P(``k`` spawn attempts in ``rounds`` rounds) for ``rollers`` explorers and a chapter
    with spawn rating ``default`` and no horror rating, starting at the default.

    ``rollers x rounds`` is limited to ``MAX_SPAWN_ROLLS`` (a RulesError naming ``rounds``).

    Rules: manual p13 (1.0), 3.5 §Spawn Phase (a blocking chapter).
    """
    default = _integer("default", default, 1, 9)
    rollers = _integer("rollers", rollers, 1, 8)
    setup = Setup((ChapterRatings(spawn_rating=default, blocking=True),), Party(rollers))
    counts = marginal(play_rounds(setup, rules, rounds), "spawned")
    return {k: p for k, p in counts.items() if k is not None}   # a count: never None


@dataclass(frozen=True)
class RoundReport:
    """What is worth reporting of :func:`play_rounds` for one setup under one set of rules.

    ``fields`` are the :class:`RoundSummary` fields that can change, in reading order;
    ``long_run_attempts`` is the long-run number of spawn attempts per round, or
    ``None`` when there is none (a 3.5 countdown that resets at 1 never completes a
    cycle, and a chapter with no spawn rating has no spawn phase).

    Rules: manual p13-14, 3.5 §Spawn Phase; switch spawn.procedure.
    """

    fields: tuple[str, ...]
    long_run_attempts: Fraction | None


def round_report(setup: Setup, rules: Rules) -> RoundReport:
    """The fields and long-run rate to report for ``setup``, as ``spawn.procedure`` allows.

    Horror invokes are reported when some chapter (or the setup) has a horror rating;
    the chapter reached only under 3.5, whose rating-1 timer is the only way these
    processes advance a chapter. The long-run rate is :func:`long_run_spawn_attempts`
    for the first chapter and the party's rollers (the 3.5 adjustment counting
    explorers by ``n35``).

    >>> from machina_nb.rules.rulings import Rules
    >>> setup = Setup((ChapterRatings(spawn_rating=6),), Party(2))
    >>> report = round_report(setup, Rules.preset("v3_5"))
    >>> report.fields[-1], report.long_run_attempts
    ('chapter', Fraction(13, 10))

    Rules: manual p13 (spawn), p14 (horror, threat), 3.5 §Spawn Phase; switches
    spawn.procedure, n35.
    """
    v35 = rules["spawn.procedure"] == "v3_5"
    horror = setup.horror is not None or any(c.horror_rating is not None
                                             for c in setup.chapters)
    fields = ("spawned",) + (("invoked",) if horror else ()) + (
        "threat_from_limit", "threat", "level", "first_level_up") + (("chapter",) if v35 else ())
    default = setup.chapters[0].spawn_rating
    n = counted_explorers(setup.party, rules)
    if default is None or (v35 and adjusted_spawn_rating(default, n) == 1):
        return RoundReport(fields, None)
    return RoundReport(fields, long_run_spawn_attempts(default, setup.party.rollers, rules,
                                                       explorers=n))
