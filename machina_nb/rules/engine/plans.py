"""A mindless monster's plan as a value: the next action it takes and the reasons for it.

:func:`machina_nb.rules.engine.monsters.mindless_step` makes the plan; the engine carries its
action out (:class:`machina_nb.rules.engine.actions.MonsterAct`); the views and the analysis
say it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from machina_nb.rules.board.maptext import Point
from machina_nb.rules.engine.phrases import Reason

__all__ = ["MonsterPlan", "Planned", "PlannedMove", "PlannedAbility", "PlannedDoor",
           "PlannedEnd"]


@dataclass(frozen=True)
class PlannedMove:
    """A mindless monster's next action: one step to ``to`` (1 stamina)."""

    kind: ClassVar[str] = "move"
    to: Point


@dataclass(frozen=True)
class PlannedAbility:
    """A mindless monster's next action: its ability ``index`` (as :func:`monster_abilities`
    counts them) on ``target`` (a space, or None for an ability without one)."""

    kind: ClassVar[str] = "ability"

    index: int
    target: Any = None


@dataclass(frozen=True)
class PlannedDoor:
    """A mindless monster's next action: destroy the closed door between ``a`` and ``b``."""

    kind: ClassVar[str] = "door"

    a: Point
    b: Point


@dataclass(frozen=True)
class PlannedEnd:
    """A mindless monster's next action: none; its turn ends."""

    kind: ClassVar[str] = "end"


Planned = PlannedMove | PlannedAbility | PlannedDoor | PlannedEnd
"""The next action of a mindless monster's plan."""


@dataclass(frozen=True)
class MonsterPlan:
    """One decision of a monster turn and the reasons for it (manual p15-17).

    ``action`` is the next action (:data:`Planned`); ``reasons`` say why, each a
    :class:`~machina_nb.rules.engine.phrases.Reason`. ``options`` is non-empty when the players
    must choose (``choice_of`` says what); pass the choices back to
    :func:`mindless_step`. ``established``: ``path`` is the path established toward the
    target (kept in the turn for ``replan.when``, switch replan.when).
    """

    monster: str
    distances: tuple[tuple[str, int | None], ...] = ()
    target: str | None = None
    goal: Point | None = None
    path: tuple[Point, ...] = ()
    ends: tuple[tuple[Point, int, int], ...] = ()
    action: Planned = PlannedEnd()
    reasons: tuple[Reason, ...] = ()
    options: tuple[Any, ...] = ()
    choice_of: str = ""
    established: bool = False
