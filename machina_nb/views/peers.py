"""The "Other games" tab: Machina Arcana beside Arkham Horror LCG and Mansions of Madness (1e).

Four parts, each only formatting what :mod:`machina_nb.rules.peers` answers:
the same map's line of sight under both sight rules; one chart of the chance
to succeed against the required margin; the timing contrast (essence after
the roll, icons and skill points before it) with the exact value of deciding
after; Machina Arcana's closest, Arkham's nearest and Machina Arcana's nearest
on one situation. Every colour has a legend; every chance shows its fraction
and percentage.

Rules: manual p22 (line of sight, nearest, closest), p24 (attack), p18 (essence); Arkham
summary (Skills and skill tests; Keywords: Hunter); Mansions summary (Attribute Tests; Skill
Points; Line of Sight).
"""

from __future__ import annotations

import html
import math
import re
from fractions import Fraction
from typing import cast

import ipywidgets as widgets
from bokeh.models import ColumnDataSource, HoverTool, NumeralTickFormatter
from bokeh.models.annotations import Legend
from bokeh.plotting import figure as new_figure
from jupyter_bokeh.widgets import BokehModel

from machina_nb.rules.board import sight
from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.maptext import Point, SpaceKind, parse_map
from machina_nb.rules.content import content_root
from machina_nb.rules.errors import ContentError, RulesError
from machina_nb.rules.numbers import about_words, chance_words, percent_words
from machina_nb.rules.odds.dice import parse_dice
from machina_nb.rules.peers import arkham, compare, mansions
from machina_nb.rules.rulings import SWITCHES, Rules
from machina_nb.rules.rulings_words import cite_words, label
from machina_nb.views import setup_notebook
from machina_nb.views.board import (
    ROLE_COLOURS,
    Highlights,
    highlight_data,
    plain_text,
    render_board,
    space_name,
)
from machina_nb.views.fit import board_holder, row, scale_to_width
from machina_nb.views.reference import RuleLinks, manual_links

__all__ = ["SAMPLE_BAG", "SAMPLE_VALUES", "MARGINS", "sight_words",
           "sight_board", "distance_board", "sight_highlights", "curve_rows", "timing_rows",
           "OtherGamesView"]

SAMPLE_BAG = "+1,0,0,-1,-1,-1,-2,-2,-3,-4,skull,skull,cultist,tablet,auto_fail,elder_sign"
"""A sample chaos bag (our own mix, about the size of a campaign's standard bag)."""
SAMPLE_VALUES = "skull=-1,cultist=-2,tablet=-3"
#: The manual's pages behind this tab's Machina Arcana side, opened from the tab's buttons.
MACHINA_CITATIONS = "manual p22 (line of sight), manual p24 (attack), manual p18 (essence)"
SAMPLE_ELDER_SIGN = 1
MARGINS = tuple(range(-3, 11))
"""The required margins the chart shows."""

_SIGHT_ROLES = (("selected", "the looking figure's space"), ("target", "the target space"),
                ("visible", "seen from the looking space"), ("line", "a clear line of sight"),
                ("blocked line", "a blocked line (none is clear)"),
                ("blocker", "where the line is stopped"))
_GAME_COLOURS = {"machina": "#1565c0", "essence": "#1565c0", "arkham": "#2e7d32",
                 "mansions": "#c62828"}


def _map(name: str) -> Board:
    text = (content_root() / "peers" / name).read_text(encoding="utf-8")
    legend = {letter: SpaceKind.FLOOR for letter in "ABCM"}
    return Board.from_layout(parse_map(text, path=name, legend=legend))


def sight_board() -> Board:
    """``content/peers/side_by_side.map``: the map both sight rules are compared on."""
    return _map("side_by_side.map")


def distance_board() -> Board:
    """``content/peers/three_nearest.map``: monster M and explorers A, B, C."""
    return _map("three_nearest.map")


def _centre(p: Point) -> tuple[float, float]:
    return (p[0] + 0.5, p[1] + 0.5)


def sight_highlights(board: Board, a: Point, b: Point, rules: Rules, game: str) -> Highlights:
    """What to mark for one game's sight from ``a`` to ``b``: seen spaces, the line, the blocker.

    Rules: manual p22 (line of sight); Mansions summary (Line of Sight).
    """
    if game == "machina":
        seen = sight.visible_from(board, a, rules) - {a}
        verdict = sight.line_of_sight(board, a, b, rules)
        lines = [((_centre(a), _centre(b)), "line" if verdict.visible else "blocked line")]
        points = [] if verdict.point is None else [
            ((float(verdict.point[0]), float(verdict.point[1])), "blocker")]
        text = verdict.explain()
    else:
        seen = mansions.visible_from(board, a, rules) - {a}
        mansions_verdict = mansions.line_of_sight(board, a, b, rules)
        if mansions_verdict.visible:
            (p, q) = cast(tuple[mansions.FPoint, mansions.FPoint], mansions_verdict.line)
            lines = [(((float(p[0]), float(p[1])), (float(q[0]), float(q[1]))), "line")]
        else:
            p, q, _ = mansions_verdict.blocked[0]
            lines = [(((float(p[0]), float(p[1])), (float(q[0]), float(q[1]))), "blocked line")]
        points = []
        text = mansions_verdict.explain()
    spaces = [(p, "visible") for p in sorted(seen - {b})] + [(a, "selected"), (b, "target")]
    return Highlights(spaces=tuple(spaces), lines=tuple(lines), points=tuple(points),
                      verdict=(text,))


_DOT = re.compile(r"dot \((\d+(?:/\d+)?), (\d+(?:/\d+)?)\)")


def _dot_words(match: re.Match) -> str:
    x, y = (Fraction(v) for v in match.groups())
    space = space_name((math.floor(x), math.floor(y)))
    dx, dy = x - math.floor(x), y - math.floor(y)
    if not dx and not dy:
        return f"the dot at the top-left corner of {space}"
    corner = ("top" if dy < Fraction(1, 2) else "bottom") + "-" + \
        ("left" if dx < Fraction(1, 2) else "right")
    return f"the dot near the {corner} corner of {space}"


def sight_words(text: str) -> str:
    """A sight verdict as the board labels things: spaces ``C2``, Mansions' dots by the corner
    of the space they sit in.

    >>> sight_words("(0, 0) -> (2, 1): seen from dot (1/8, 7/8)")
    'A1 → C2: seen from the dot near the bottom-left corner of A1'
    >>> sight_words("to dot (17/8, 1) (Mansions summary)")
    'to the dot near the top-left corner of C2 (Mansions summary)'
    """
    return plain_text(_DOT.sub(_dot_words, cite_words(text)))


def curve_rows(pool_text: str, essence: int, bag: arkham.Bag, rules: Rules
               ) -> dict[str, tuple[tuple[int, Fraction], ...]]:
    """The chart's curves by name: Machina Arcana's pool (and with essence), Arkham's bag, the d10.

    Rules: manual p24, p18; Arkham summary (Skills and skill tests);
    Mansions summary (Attribute Tests).
    """
    pool = parse_dice(pool_text).pool
    return {
        "machina": compare.machina_curve(pool, MARGINS),
        "essence": compare.machina_curve(pool, MARGINS, essence),
        "arkham": compare.arkham_curve(bag, MARGINS, rules),
        "mansions": compare.mansions_curve(MARGINS),
    }


def timing_rows(pool_text: str, essence: int, bag: arkham.Bag, rules: Rules
                ) -> list[tuple[str, str, compare.Timing]]:
    """One row per game: what is spent, on what test, and its :class:`compare.Timing`.

    Rules: manual p18 (essence after the roll); Arkham summary
    (commit before the token); Mansions summary (Skill Points).
    """
    pool = parse_dice(pool_text).pool
    return [
        ("Machina Arcana", f"up to {essence} essence, {pool_text} against armor 4",
         compare.essence_timing(pool, 4, essence, rules)),
        ("Arkham LCG", "up to 2 icons, skill 3 against difficulty 4",
         compare.icon_timing(bag, 3, 4, 2, rules)),
        ("Mansions of Madness", "1 skill point (Luck 3), attribute 3",
         compare.skill_point_timing(3, 3)),
    ]


def _swatches(items) -> str:
    spans = "".join(
        f"<span style='display:inline-block;margin-right:12px'><span style='display:inline-block;"
        f"width:12px;height:12px;background:{colour};border:1px solid #555;margin-right:4px'>"
        f"</span>{html.escape(words)}</span>" for colour, words in items)
    return f"<div class='peers-legend'>{spans}</div>"


def _table(header, rows, css: str) -> str:
    head = "".join(f"<th style='text-align:left;padding:2px 8px'>{html.escape(h)}</th>"
                   for h in header)
    body = "".join("<tr>" + "".join(f"<td style='padding:2px 8px'>{manual_links(c)}</td>"
                                    for c in row) + "</tr>" for row in rows)
    return f"<table class='{css}'><tr>{head}</tr>{body}</table>"


def _heading(text: str) -> widgets.HTML:
    return widgets.HTML(f"<h3>{html.escape(text)}</h3>")


def _captioned(plot: widgets.Box, verdict: widgets.HTML, caption: str) -> widgets.VBox:
    """A board with its caption above and its verdict under it, never wider than the window."""
    return widgets.VBox([widgets.HTML(f"<b>{html.escape(caption)}</b>"), plot, verdict],
                        layout=widgets.Layout(min_width="0", max_width="100%"))


def _error(exc: Exception) -> str:
    return f"<span class='peers-error' style='color:#c62828'>{html.escape(str(exc))}</span>"


class OtherGamesView(widgets.VBox):
    """The "Other games" tab (see the module text). CSS classes for tests: ``peers-from``,
    ``peers-to``, ``peers-inset``, ``peers-touch``, ``peers-verdict-machina``,
    ``peers-verdict-mansions``, ``peers-pool``, ``peers-essence``, ``peers-bag``,
    ``peers-chart``, ``peers-curve-table``, ``peers-timing``, ``peers-distances``.
    """

    def __init__(self, rules: Rules | None = None):
        setup_notebook()
        self._rules = rules or Rules()
        self.board = sight_board()
        spaces = [(space_name(p), p) for p in sorted(self.board, key=lambda p: (p[1], p[0]))]
        self.source = self._dropdown("From", spaces, (0, 0), "peers-from")
        self.target = self._dropdown("To", spaces, (2, 1), "peers-to")
        self.inset = self._dropdown("Dots", self._readings("mansions.dot_inset"), "eighth",
                                    "peers-inset")
        self.touch = self._dropdown("Wall's end", self._readings("mansions.wall_touch"),
                                    "touch_ok", "peers-touch")
        self.verdict_machina = self._html("peers-verdict-machina")
        self.verdict_mansions = self._html("peers-verdict-mansions")
        self._boards = {}
        for game in ("machina", "mansions"):
            marks = sight_highlights(self.board, (0, 0), (2, 1), self._peer_rules(), game)
            fig, sources = render_board(self.board, marks, px_per_space=34)
            self._boards[game] = (fig, sources)
        self.pool = self._text("Pool", "1H2L", "peers-pool")
        self.essence = widgets.IntSlider(value=2, min=0, max=4, description="Essence")
        self.essence.add_class("peers-essence")
        self.bag = self._text("Bag", SAMPLE_BAG, "peers-bag", width="640px")
        self.values = self._text("Values", SAMPLE_VALUES, "peers-values")
        self.chart_note = self._html("peers-chart-note")
        self.curve_table = self._html("peers-curve-table")
        self.timing = self._html("peers-timing")
        self.distances = self._html("peers-distances")
        self.rule_links = RuleLinks()
        self.rule_links.show(MACHINA_CITATIONS)
        chart, self._curves = self._build_chart()
        self._chart_figure = chart
        dist_fig, _ = render_board(distance_board(), px_per_space=30)
        self._update_sight()
        self._update_odds()
        self._update_distances()
        # A plot's browser view is built from the state it had when the plot widget was made,
        # so the widgets are made only now, with every source filled.
        self._chart = BokehModel(scale_to_width(chart))
        self._chart.add_class("peers-chart")
        self._plots = {game: board_holder(BokehModel(fig), fig)
                       for game, (fig, _) in self._boards.items()}
        for w in (self.source, self.target, self.inset, self.touch):
            w.observe(self._update_sight, "value")
        for w in (self.pool, self.essence, self.bag, self.values):
            w.observe(self._update_odds, "value")
        super().__init__(self._layout(board_holder(BokehModel(dist_fig), dist_fig)))

    # --- widgets -------------------------------------------------------------------------------

    @staticmethod
    def _readings(switch: str) -> list[tuple[str, str]]:
        return [(label(switch, r), r) for r in SWITCHES[switch].readings]

    @staticmethod
    def _dropdown(label, options, value, css):
        w = widgets.Dropdown(options=options, value=value, description=label)
        w.add_class(css)
        return w

    @staticmethod
    def _text(label, value, css, width="320px"):
        w = widgets.Text(value=value, description=label, continuous_update=False,
                         layout=widgets.Layout(width=width))
        w.add_class(css)
        return w

    @staticmethod
    def _html(css):
        w = widgets.HTML()
        w.add_class(css)
        return w

    def _layout(self, distance_plot):
        sight_legend = widgets.HTML(_swatches(
            [(ROLE_COLOURS[role], words) for role, words in _SIGHT_ROLES]) +
            "<p>The map's own legend names walls and doors. In Mansions of Madness every door, "
            "open or closed, blocks sight, and rubble is only a marker, which never blocks.</p>")
        return [
            _heading("Line of sight: one map, two games"),
            row([self.source, self.target, self.inset, self.touch]),
            widgets.Box([_captioned(self._plots["machina"], self.verdict_machina,
                                    "Machina Arcana: centre to centre"),
                         _captioned(self._plots["mansions"], self.verdict_mansions,
                                    "Mansions of Madness: any corner dot to any corner dot")],
                        layout=widgets.Layout(display="flex", flex_flow="row wrap",
                                              grid_gap="8px 16px")),
            sight_legend,
            widgets.HTML("<small>Machina Arcana's rules on this tab, in the Rules tab:</small>"),
            self.rule_links,
            _heading("Chance to succeed against the required margin"),
            row([self.pool, self.essence]), row([self.bag, self.values]),
            board_holder(self._chart, self._chart_figure, "plot-holder"), self.chart_note, self.curve_table,
            _heading("When you decide: essence after the roll, icons and skill points before it"),
            self.timing,
            _heading("Who is nearest? Three ways to count"),
            widgets.HTML("<b>Monster M and explorers A, B, C</b>"), distance_plot,
            self.distances,
        ]

    @property
    def rules(self) -> Rules:
        """The rules in force (Machina Arcana's preset; the Mansions readings are set here)."""
        return self._rules

    @rules.setter
    def rules(self, rules: Rules) -> None:
        if rules == self._rules:
            return
        self._rules = rules
        self._update_sight()
        self._update_odds()
        self._update_distances()

    def _peer_rules(self) -> Rules:
        return self._rules.replace({"mansions.dot_inset": self.inset.value,
                                    "mansions.wall_touch": self.touch.value})

    # --- sight ---------------------------------------------------------------------------------

    def _update_sight(self, _change=None) -> None:
        rules = self._peer_rules()
        a, b = self.source.value, self.target.value
        for game, verdict in (("machina", self.verdict_machina),
                              ("mansions", self.verdict_mansions)):
            marks = sight_highlights(self.board, a, b, rules, game)
            sources = self._boards[game][1]
            for name, data in highlight_data(marks).items():
                sources[name].data = data
            words = sight_words(marks.verdict[0])
            verdict.value = f"<p style='max-width:420px'>{manual_links(words)}</p>"

    # --- chart, timing ---------------------------------------------------------------------------

    def _build_chart(self):
        fig = new_figure(width=820, height=470, x_axis_label="required margin (what the random "
                         "part must make up)", y_axis_label="chance to succeed",
                         tools="", toolbar_location=None, y_range=(-0.02, 1.02),
                         x_range=(MARGINS[0] - 0.5, MARGINS[-1] + 0.5), name="peers-chart")
        fig.title.text = "Chance to succeed against the required margin"
        fig.yaxis.formatter = NumeralTickFormatter(format="0%")
        fig.xaxis.ticker = list(MARGINS)
        fig.add_layout(Legend(location="center", label_text_font_size="10pt", nrows=2), "below")
        curves = {}
        labels = {"machina": "Machina Arcana: the pool's dice total",
                  "essence": "Machina Arcana: the pool plus essence after the roll (dashed)",
                  "arkham": "Arkham LCG: the chaos token",
                  "mansions": "Mansions of Madness: 10 minus the d10 roll"}
        renderers = []
        for name, caption in labels.items():
            source = ColumnDataSource({"x": [], "y": [], "fraction": [], "percent": [],
                                       "game": []})
            dash = "dashed" if name == "essence" else "solid"
            line = fig.line("x", "y", source=source, line_width=3, line_dash=dash,
                            color=_GAME_COLOURS[name], legend_label=caption)
            fig.scatter("x", "y", source=source, size=7, color=_GAME_COLOURS[name],
                        legend_label=caption)
            renderers.append(line)
            curves[name] = source
        fig.add_tools(HoverTool(renderers=renderers, tooltips=[
            ("", "@game"), ("margin", "@x"), ("chance", "@fraction (@percent)")]))
        return fig, curves

    def _bag(self) -> arkham.Bag:
        return arkham.Bag.parse(self.bag.value, self.values.value, SAMPLE_ELDER_SIGN)

    def _update_odds(self, _change=None) -> None:
        try:
            bag = self._bag()
            curves = curve_rows(self.pool.value, self.essence.value, bag, self._peer_rules())
            timing = timing_rows(self.pool.value, self.essence.value, bag, self._peer_rules())
        except (RulesError, ContentError) as exc:
            self.chart_note.value = _error(exc)
            return
        names = {"machina": f"{self.pool.value}", "essence": f"{self.pool.value} + "
                 f"{self.essence.value} essence", "arkham": "the bag", "mansions": "d10"}
        for name, rows in curves.items():
            self._curves[name].data = {
                "x": [m for m, _ in rows], "y": [float(p) for _, p in rows],
                "fraction": [str(p) for _, p in rows], "percent": [percent_words(p) for _, p in rows],
                "game": [names[name]] * len(rows)}
        self.chart_note.value = "<p style='max-width:760px'>" + manual_links(
            "The margin is what the random part must make up. Machina "
            "Arcana: armor (or will) minus modifiers; the dice must total at least that (manual "
            "p24). Arkham LCG: difficulty minus skill, icons and modifiers; the token must be at "
            "least that, and the auto-fail token always fails (Arkham summary (Skills and "
            "skill tests)). Mansions of Madness: 10 minus attribute and modifiers; the roll must be "
            "at most 10 minus the margin, and a 1 always passes, a 10 always fails (Mansions "
            f"summary (Attribute Tests)). Bag: {bag.text()}.") + "</p>"
        header = ("margin",) + tuple(names[n] for n in curves)
        table_rows = [(str(m),) + tuple(chance_words(dict(curves[n])[m]) for n in curves)
                      for m in MARGINS if 0 <= m <= 6]
        self.curve_table.value = _table(header, table_rows, "peers-curve-table-rows")
        self.timing.value = self._timing_html(timing)

    @staticmethod
    def _timing_html(timing) -> str:
        rows = [(game, what, chance_words(t.chance_without), chance_words(t.chance),
                 f"{t.spent_before}", about_words(t.spent_after), about_words(t.value)) for game, what, t in timing]
        header = ("game", "test", "chance with nothing spent", "chance with the budget",
                  "spent when committed before", "spent on average when decided after",
                  "saved by deciding after")
        return ("<p style='max-width:760px'>" + manual_links(
                "The chance is the same either way; what changes is "
                "the cost. Committed before the draw or roll (Arkham's icons, Mansions' skill "
                "point) the whole budget is always spent; spent after the roll (Machina Arcana's "
                "essence, manual p18) only what turns a miss into a hit is spent.") + "</p>"
                + _table(header, rows, "peers-timing-rows"))

    # --- distances -----------------------------------------------------------------------------

    def _update_distances(self) -> None:
        board = distance_board()
        units = board.units()
        notions = compare.distance_notions(board, units["M"], {k: units[k] for k in "ABC"},
                                           self._rules)
        rows = [(n.notion, n.how, ", ".join(f"{name} {'unreachable' if d is None else d}"
                                            for name, d in n.distances),
                 " and ".join(n.winners), n.rule) for n in notions]
        self.distances.value = _table(("notion", "counted as", "distance to each explorer",
                                       "nearest", "rule"), rows, "peers-distances-rows")
