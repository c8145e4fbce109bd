"""The rulings panel: pick a preset, flip any switch, see one situation under two readings.

Every switch's question, readings and sources come from ``content/rulings``
(:func:`machina_nb.rules.rulings.load_rulings`). For the geometric switches a
:class:`Situation` (a small board and one question: sight, adjacency, a ranged
shot, a step, the nearest unit) is answered by the rules core under reading A
and reading B, side by side, each with its own small board view.

Rules: manual p22 (sight, adjacency, doors), p23 (ranged), p34 (move); the switches of content/rulings.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

import ipywidgets as widgets
import traitlets

from machina_nb.rules.board import distance, sight
from machina_nb.rules.board.graph import Board
from machina_nb.rules.content import content_root
from machina_nb.rules.rulings import load_rulings
from machina_nb.rules.cards.examples import load_example
from machina_nb.rules.board.maptext import BorderKind, Point, SpaceKind, parse_map
from machina_nb.rules.rulings import PRESETS, SWITCHES, Rules
from machina_nb.views import setup_notebook
from machina_nb.views.board import BoardView, Pick, plain_text, space_name

__all__ = ["Situation", "SITUATIONS", "answer", "door_example_board", "RulingsPanel"]


#: The situations' units (explorers A, B; monsters M, N), all on floor.
_UNITS = {letter: SpaceKind.FLOOR for letter in "ABMN"}


@dataclass(frozen=True)
class Situation:
    """One question on a small board whose answer depends on ``switch``.

    ``question`` is ``sight`` (line of sight a -> b), ``adjacent`` (a and b),
    ``ranged`` (a plain ranged shot a -> b), ``step`` (one step a -> b) or
    ``nearest`` (the nearest other unit to a). ``board`` is a map text, or
    ``"p22"`` for the door example of manual p22 with both doors closed.
    """

    switch: str
    title: str
    board: str
    question: str
    a: Point
    b: Point | None = None

    def build(self) -> Board:
        """A fresh board for this situation."""
        if self.board == "p22":
            return door_example_board(closed=True)
        return Board.from_layout(parse_map(self.board, legend=_UNITS))


def door_example_board(closed: bool = False) -> Board:
    """The door example's board (manual p22; ``content/examples/p22_door_adjacency.toml``).

    With ``closed`` both doors are closed.

    Rules: manual p22 (adjacent; the door example).
    """
    example = load_example(content_root() / "examples" / "p22_door_adjacency.toml")
    board = Board.from_layout(example.board)
    if closed:
        for door in (((0, 1), (1, 1)), ((0, 2), (1, 2))):
            board = board.with_border(*door, BorderKind.DOOR_CLOSED)
    return board


_L_AROUND_A_SIDE_SPACE = """\
+-+-+
|.|B|
+-+ +
|A .|
+-+-+
"""

_RUBBLE_PAIR = """\
+-+-+
|r B|
+ + +
|A r|
+-+-+
"""

_ARCHER = """\
+-+-+-+
|. . B|
+ + + +
|M . .|
+ + + +
|A N .|
+-+-+-+
"""

_WALL_END = """\
+-+-+
|M .|
+ + +
|A|.|
+-+-+
"""

_METRIC = """\
+-+-+-+-+
|A . . M|
+ + + + +
|. . . .|
+ + + + +
|. . N .|
+-+-+-+-+
"""

#: The situations the panel can show, by switch (with our coordinates: y from the north).
SITUATIONS: tuple[Situation, ...] = (
    Situation("los.vertex", "D1: walls in an L around a side space; A looks at B through the corner",
              _L_AROUND_A_SIDE_SPACE, "sight", (0, 1), (1, 0)),
    Situation("los.vertex", "B7: the p22 door example with both doors closed; Lorrai and Phillip",
              "p22", "adjacent", (0, 2), (1, 1)),
    Situation("los.space_squeeze", "D2: A looks at B between two rubble spaces touching at a corner",
              _RUBBLE_PAIR, "sight", (0, 1), (1, 0)),
    Situation("ranged.obstacle_vertex", "D3: A shoots at B past the corners of units M and N",
              _ARCHER, "ranged", (0, 2), (2, 0)),
    Situation("move.diagonal", "D4: A steps diagonally past the end of a wall (M stands on the other route)",
              _WALL_END, "step", (0, 1), (1, 0)),
    Situation("nearest.metric", "D7: which unit is nearest to A (M at 3 across, N at 2 across and 2 down)?",
              _METRIC, "nearest", (0, 0)),
)

_OVERLAY = {"sight": "sight", "ranged": "sight", "adjacent": "adjacent", "step": "reach",
            "nearest": "nearest"}


def answer(situation: Situation, board: Board, rules: Rules) -> str:
    """The situation's verdict under ``rules``, in words, from the rules core.

    Rules: manual p22 (sight, adjacent, nearest), p23 (ranged), p34 (move).
    """
    a, b = situation.a, situation.b
    if situation.question == "sight":
        return plain_text(sight.line_of_sight(board, a, b, rules).explain())
    if situation.question == "ranged":
        return "A ranged shot " + plain_text(sight.ranged_line(board, a, b, rules).explain())
    if situation.question == "adjacent":
        yes = sight.adjacent(board, a, b, rules)
        return (f"{space_name(a)} and {space_name(b)} are {'adjacent' if yes else 'not adjacent'}"
                " (manual p22, adjacent)")
    if situation.question == "step":
        mover = distance.Mover(unit=board.unit_at(a))
        allowed = distance.legal_step(board, a, b, rules, mover)
        cost = distance.shortest_paths(board, a, b, rules, mover).cost
        least = "it cannot get there at all" if cost is None else \
            f"the cheapest way there costs {cost} stamina"
        return (f"One step {space_name(a)} → {space_name(b)}: "
                f"{'allowed' if allowed else 'not allowed'}; {least} (manual p34, move)")
    others = [p for p in board.units().values() if p != a]
    ranking = distance.nearest(board, a, others, rules)
    names = " and ".join(f"unit {board.unit_at(p)} on {space_name(p)}" for p in ranking.candidates)
    far = re.sub(r"sqrt\((\d+)\)", r"√\1", str(ranking.distance)).replace("*", "")
    return (f"Nearest to {space_name(a)}: {names or 'no unit'}, at distance {far} "
            f"({plain_text(ranking.rule)})")


def _outcome(situation: Situation, board: Board, rules: Rules):
    """The situation's outcome alone (seen or not, allowed or not, which unit), for comparing
    readings. Rules: manual p22 (sight, adjacent, nearest), p23 (ranged), p34 (move)."""
    a, b = situation.a, situation.b
    if situation.question == "sight":
        return sight.line_of_sight(board, a, b, rules).visible
    if situation.question == "ranged":
        return sight.ranged_line(board, a, b, rules).visible
    if situation.question == "adjacent":
        return sight.adjacent(board, a, b, rules)
    if situation.question == "step":
        return distance.legal_step(board, a, b, rules, distance.Mover(unit=board.unit_at(a)))
    others = [p for p in board.units().values() if p != a]
    return distance.nearest(board, a, others, rules).candidates


def _sources(sources) -> str:
    """The sources a reader has (the manual, the 3.5 rules, the FAQ), without references to
    the project's specification."""
    return ", ".join(s for s in sources if not s.lstrip().startswith("spec")) or "the manual"


def _shown_title(title: str) -> str:
    """A situation's title without the specification's reference in front (``D1: ``)."""
    head, _, rest = title.partition(": ")
    return rest if rest and head[:1] in "BD" and head[1:].isdigit() else title


def _contrast(switch: str, rules: Rules, situation: Situation | None) -> str:
    """Another reading of ``switch``: the first whose answer to ``situation`` differs, if any."""
    others = [r for r in SWITCHES[switch].readings if r != rules[switch]]
    if situation is not None:
        board = situation.build()

        def verdict(r: Rules) -> str:  # the answer without the reading's own name in it
            return answer(situation, board, r).replace(r[switch], "")

        for key in (_outcome, verdict):  # a different outcome first, else different words
            mine = key(situation, board, rules) if key is _outcome else verdict(rules)
            for reading in others:
                theirs = rules.replace({switch: reading})
                if (key(situation, board, theirs) if key is _outcome else verdict(theirs)) \
                        != mine:
                    return reading
    return others[0]


class RulingsPanel(widgets.VBox):
    """Pick a preset, flip any switch, and compare a situation under reading A and reading B.

    Widgets (with CSS classes): ``preset`` (``rulings-preset``), ``switch``
    (``rulings-switch``), ``reading_a`` / ``reading_b`` (``rulings-reading-a`` /
    ``-b``: reading A is the one in force, B the one compared), ``situation``
    (``rulings-situation``), the texts ``about`` (question, readings, sources)
    and ``verdict_a`` / ``verdict_b`` (``rulings-verdict-a`` / ``-b``).
    ``rules`` is the preset with reading A applied.
    """

    rules = traitlets.Instance(Rules)

    def __init__(self, preset: str = "manual", switch: str = "los.vertex"):
        setup_notebook()
        self._quiet = False
        self.catalogue = load_rulings()
        self.preset = widgets.Dropdown(options=list(PRESETS), value=preset, description="Preset")
        self.preset.add_class("rulings-preset")
        self.switch = widgets.Dropdown(options=list(SWITCHES), value=switch, description="Switch")
        self.switch.add_class("rulings-switch")
        self.reading_a = widgets.ToggleButtons(description="A (in force)")
        self.reading_a.add_class("rulings-reading-a")
        self.reading_b = widgets.ToggleButtons(description="B (compared)")
        self.reading_b.add_class("rulings-reading-b")
        self.situation = widgets.Dropdown(description="Situation", layout={"width": "640px"})
        self.situation.add_class("rulings-situation")
        self.about = widgets.HTML()
        self.about.add_class("rulings-about")
        half = {"width": "50%"}
        self.verdict_a = widgets.HTML(layout=half)
        self.verdict_a.add_class("rulings-verdict-a")
        self.verdict_b = widgets.HTML(layout=half)
        self.verdict_b.add_class("rulings-verdict-b")
        self.sides = widgets.HBox()
        self._views: dict[int, tuple[Board, BoardView, BoardView]] = {}
        super().__init__([widgets.HBox([self.preset, self.switch]), self.reading_a, self.reading_b,
                          self.about, self.situation, self.sides,
                          widgets.HBox([self.verdict_a, self.verdict_b])],
                         rules=Rules.preset(preset))
        self.preset.observe(self._switch_changed, "value")
        self.switch.observe(self._switch_changed, "value")
        self.reading_a.observe(self._update, "value")
        self.reading_b.observe(self._update, "value")
        self.situation.observe(self._update, "value")
        self._switch_changed()

    def _switch_changed(self, _change=None) -> None:
        name = self.switch.value
        readings = list(SWITCHES[name].readings)
        base = Rules.preset(self.preset.value)
        self._quiet = True
        self.reading_a.options = readings
        self.reading_a.value = base[name]
        options = [(_shown_title(s.title), i) for i, s in enumerate(SITUATIONS)
                   if s.switch == name]
        self.situation.options = options
        self.situation.value = options[0][1] if options else None
        self.reading_b.options = readings
        self.reading_b.value = _contrast(name, base, SITUATIONS[options[0][1]] if options else None)
        self._quiet = False
        self._update()

    def _update(self, _change=None) -> None:
        if self._quiet:
            return
        name = self.switch.value
        base = Rules.preset(self.preset.value)
        self.rules = base.replace({name: self.reading_a.value})
        rules_b = base.replace({name: self.reading_b.value})
        ruling = self.catalogue[name]
        items = "".join(
            f"<li><b>{html.escape(r)}</b>{' (default)' if r == SWITCHES[name].default else ''}: "
            f"{html.escape(text)}</li>" for r, text in ruling.readings.items())
        self.about.value = (f"<p><b>{html.escape(name)}</b>: {html.escape(ruling.question)}</p>"
                            f"<ul>{items}</ul><p>Sources: {html.escape(_sources(ruling.sources))}"
                            "</p>")
        if self.situation.value is None:
            self.verdict_b.value = f"<pre>{html.escape(ruling.example)}</pre>"
            self.verdict_a.value = ("<p><i>No board situation for this switch yet; the example "
                                    "beside says where the readings differ.</i></p>")
            self.sides.children = ()
            return
        situation = SITUATIONS[self.situation.value]
        board, view_a, view_b = self._situation_views(self.situation.value, self.rules, rules_b)
        # the boards first, then the verdicts: never an old board beside a new verdict
        self.verdict_a.value = self.verdict_b.value = "<i>Drawing both readings…</i>"
        view_a.rules, view_b.rules = self.rules, rules_b
        self.verdict_a.value = (f"<b>A: {html.escape(name)}={html.escape(self.reading_a.value)}"
                                f"</b><br>{html.escape(answer(situation, board, self.rules))}")
        self.verdict_b.value = (f"<b>B: {html.escape(name)}={html.escape(self.reading_b.value)}"
                                f"</b><br>{html.escape(answer(situation, board, rules_b))}")
        shown = self.sides.children
        if not shown or shown[0] is not view_a:
            for view in (view_a, view_b):
                view.refresh(view.figure, view.plot)
            self.sides.children = (view_a, view_b)

    def _situation_views(self, index: int, rules_a: Rules, rules_b: Rules
                         ) -> tuple[Board, BoardView, BoardView]:
        if index not in self._views:
            situation = SITUATIONS[index]
            board = situation.build()
            aim = situation.question in ("sight", "ranged")
            pick = Pick(situation.a, situation.b if aim else None,
                        1 if situation.question == "step" else 3)
            views = [BoardView(board, rules, _OVERLAY[situation.question], controls=False,
                               legend=False, px_per_space=64, css="rulings-board", pick=pick,
                               layout={"width": "50%"})
                     for rules in (rules_a, rules_b)]
            self._views[index] = (board, *views)
        return self._views[index]
