"""The rating processes as they were first written: one joint chain over every field, rebuilt
per roll. Slow but plain; kept as the reference oracle that the fast chains of
``machina_nb.rules.odds.processes`` are checked against on small cases.

Rules: manual p13 (spawn), manual p14 (horror, threat), 3.5 §Spawn Phase and FAQ.
"""

from __future__ import annotations

from fractions import Fraction

from machina_nb.rules.odds.processes import (
    RoundSummary,
    Setup,
    adjusted_spawn_rating,
    counted_explorers,
    raise_threat,
)
from machina_nb.rules.rulings import Rules

_SIDES = 10


def _succeeding_faces(rating: int) -> int:
    return min(_SIDES, max(0, _SIDES - rating))


# State tuple layout used inside play_rounds (RoundSummary's field order).
_CH, _R, _H, _T, _L, _SP, _LIM, _INV, _L5, _FIRST = range(10)


class _Chain:
    """The transitions of one ruleset for one setup (integer weights, denominator 10 per slot)."""

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

    def adj(self, rating: int) -> int:
        """The 3.5 player-count adjustment of a spawn rating (0 and below stay as they are).

        Rules: 3.5 §Spawn Phase (player-count adjustment); ruling D26.
        """
        return adjusted_spawn_rating(rating, self.n) if rating >= 1 else rating

    def reset(self, chapter: int, timer: bool) -> int | None:
        """The spawn rating a chapter resets to (3.5 adjustment per ``adjust35.when``, D24)."""
        d = self.chapters[chapter].spawn_rating
        if d is None or not self.v35:
            return d
        if self.when == "every_reset" or (self.when == "rating1_only" and timer):
            return self.adj(d)
        return d

    def start(self) -> tuple:
        """The state before round 1: the first chapter's ratings unless the setup gives them.

        Rules: manual p6 (the chapter card's ratings), p8 (setup), 3.5 §Spawn Phase.
        """
        s = self.setup
        first = self.chapters[0]
        r = s.spawn if s.spawn is not None else self.reset(0, timer=False)
        h = s.horror if s.horror is not None else first.horror_rating
        return (0, r, h, s.threat, s.level, 0, 0, 0, 0, None)

    def threat_up(self, state: list, amount: int, round_no: int) -> None:
        """Raise monster threat by ``amount``, one step at a time (level-ups, level 5 events).

        Rules: manual p14 (increase monster threat), 3.5 §Increasing Monster Level.
        """
        for _ in range(amount):
            t, lv, event = raise_threat(state[_T], state[_L], self.rules,
                                        self.setup.threat_positions)
            if lv > state[_L] and state[_FIRST] is None:
                state[_FIRST] = round_no
            state[_T], state[_L] = t, lv
            state[_L5] += event

    def phase_start(self, state: tuple, round_no: int) -> tuple:
        """3.5: the chapter timer at rating 1, then (``every_phase_start``) the adjustment."""
        if not self.v35 or state[_CH] >= len(self.chapters) or state[_R] is None:
            return state
        s = list(state)
        chapter = self.chapters[s[_CH]]
        skip = chapter.horror_rating is None and \
            self.rules["threat35.no_horror_rating"] == "skip_rule"      # ruling D25
        if s[_R] == 1 and not skip:
            amount = (chapter.horror_rating or 0) if self.rules["threat35.amount"] == \
                "default_printed" else max(0, s[_H] or 0)
            self.threat_up(s, amount, round_no)
            if chapter.blocking:
                s[_R] = self.reset(s[_CH], timer=True)
            else:
                s[_CH] += 1
                if s[_CH] < len(self.chapters):
                    s[_R] = self.reset(s[_CH], timer=True)
                    s[_H] = self.chapters[s[_CH]].horror_rating
                else:
                    s[_R] = s[_H] = None
        if self.when == "every_phase_start" and s[_R] is not None:
            s[_R] = self.adj(s[_R])
        return tuple(s)

    def spawn_step(self, dist: dict, full: bool, round_no: int) -> dict:
        """One explorer's spawn roll applied to every state (weights x10: the d10's faces).

        Rules: manual p13 (spawn roll), 3.5 §Spawn Phase; rulings D23, D27, D48.
        """
        out: dict = {}
        n_chapters = len(self.chapters)
        at_limit = full and self.limit
        for state, weight in dist.items():
            r = state[_R]
            if r is None or state[_CH] >= n_chapters:
                out[state] = out.get(state, 0) + weight * _SIDES
                continue
            wins = _SIDES if r <= 0 else 0 if r >= _SIDES else _SIDES - r
            if wins:
                if not at_limit and not self.v35:  # 1.0 spawn: reset and count (the hot path)
                    nxt = (state[0], self.chapters[state[_CH]].spawn_rating) + state[2:_SP] + \
                        (state[_SP] + 1,) + state[_SP + 1:]
                else:
                    s = list(state)
                    if at_limit:
                        s[_LIM] += 1
                        self.threat_up(s, 1, round_no)
                    else:
                        s[_SP] += 1
                    if self.v35:
                        if self.reset_on_success:
                            s[_R] = self.reset(s[_CH], timer=False)
                    elif self.reset_on_limit:
                        s[_R] = self.chapters[s[_CH]].spawn_rating
                    nxt = tuple(s)
                out[nxt] = out.get(nxt, 0) + weight * wins
            if wins < _SIDES:
                if self.v35:
                    nxt = state
                else:
                    nxt = (state[0], max(1, r - 1) if self.floor_one else r - 1) + state[2:]
                out[nxt] = out.get(nxt, 0) + weight * (_SIDES - wins)
        return out

    def phase_end(self, state: tuple) -> tuple:
        """3.5: the spawn rating falls by 1 at the end of the Spawn phase.

        Rules: 3.5 §Spawn Phase.
        """
        if not self.v35 or state[_R] is None or state[_CH] >= len(self.chapters):
            return state
        s = list(state)
        s[_R] -= 1
        return tuple(s)

    def horror_roll(self, state: tuple, round_no: int) -> list[tuple[tuple, int]]:
        """The Horror phase's roll: invoke (threat +1, reset) or the horror rating falls by 1.

        Rules: manual p14 (horror phase); ruling D23.
        """
        h = state[_H]
        if h is None or state[_CH] >= len(self.chapters):
            return [(state, _SIDES)]
        wins = _succeeding_faces(h)
        out = []
        if wins:
            s = list(state)
            s[_INV] += 1
            self.threat_up(s, 1, round_no)
            s[_H] = self.chapters[s[_CH]].horror_rating
            out.append((tuple(s), wins))
        if wins < _SIDES:
            s = list(state)
            s[_H] = max(1, h - 1) if self.floor_one else h - 1
            out.append((tuple(s), _SIDES - wins))
        return out


def _step(dist: dict, move) -> dict:
    out: dict = {}
    for state, weight in dist.items():
        for nxt, w in move(state):
            out[nxt] = out.get(nxt, 0) + weight * w
    return out


def slow_play_rounds(setup: Setup, rules: Rules, rounds: int) -> dict[RoundSummary, Fraction]:
    """The exact distribution of the game's rating state after ``rounds`` Spawn + Horror phases.

    Each round: the Spawn phase (1.0: each roller in order against the shared
    renewal rating; 3.5: the rating-1 timer, the rolls, the end-of-phase
    decrease), then the Horror phase (one roll). Switches read:
    ``spawn.procedure`` (C-3), ``rating.floor`` (D23), ``spawn10.reset_on_limit``
    (D48), ``spawn.limit_scope`` (C-7), ``adjust35.when`` (D24),
    ``threat35.amount`` and ``threat35.no_horror_rating`` (D25), ``n35`` (D26),
    ``spawn35.reset_on_success`` (D27), ``threat.levelup`` (C-8, D29), ``level5_rule`` (C-8).

    Rules: manual p13 (spawn phase), manual p14 (horror phase, threat),
    3.5 §Spawn Phase, 3.5 FAQ.
    """
    chain = _Chain(setup, rules)
    horror = setup.horror is not None or any(c.horror_rating is not None
                                             for c in setup.chapters)
    dist = {chain.start(): 1}
    for round_no in range(1, rounds + 1):
        if chain.v35:
            dist = _step(dist, lambda s, round_no=round_no: [(chain.phase_start(s, round_no), 1)])
        for full in chain.full:
            dist = chain.spawn_step(dist, full, round_no)
        if chain.v35:
            dist = _step(dist, lambda s: [(chain.phase_end(s), 1)])
        if horror:
            dist = _step(dist, lambda s, round_no=round_no: chain.horror_roll(s, round_no))
    denominator = _SIDES ** ((len(chain.full) + horror) * rounds)
    return {RoundSummary(*state): Fraction(weight, denominator)
            for state, weight in sorted(dist.items(), key=lambda kv: _sort_key(kv[0]))}


def _sort_key(state: tuple) -> tuple:
    return tuple((v is None, v if v is not None else 0) for v in state)
