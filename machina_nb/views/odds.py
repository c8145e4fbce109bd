"""The odds views: attack odds (:class:`OddsView`) and the rating processes (:class:`ProcessesView`).

Both only call :mod:`machina_nb.rules` and format its exact answers: every
probability arrives as a :class:`~fractions.Fraction` and becomes text here
(:func:`exact`). Each bokeh figure is built once; a widget change assigns
``source.data`` and label values only.

>>> exact(Fraction(5, 9))
'5/9 (55.56%)'

The generating function is typeset as MathML (sympy's presentation printer), which
Chromium draws natively: no script and no network needed.

Rules: manual p24 (attack), manual p18-19 (essence), manual p13-14 (spawn,
horror, threat), 3.5 rules (spawn phase).
"""

from __future__ import annotations

import html
from fractions import Fraction
from typing import Mapping

import ipywidgets as widgets
import traitlets
from bokeh.models import (ColorBar, ColumnDataSource, FactorRange, HoverTool,
                          LinearColorMapper, Span)
from bokeh.palettes import Viridis256
from bokeh.plotting import figure as new_figure
from bokeh.transform import dodge
from jupyter_bokeh.widgets import BokehModel

from machina_nb.rules.odds import attacks, processes
from machina_nb.rules.odds.dice import Pool
from machina_nb.rules.errors import RulesError
from machina_nb.rules.odds.genfunc import generating_function
from machina_nb.rules.rulings import PRESETS, Rules
from machina_nb.rules.rulings_words import label
from machina_nb.views import setup_notebook
from machina_nb.views.words import PRESET_WORDS

__all__ = ["exact", "pool_name", "OddsView", "ProcessesView", "PROCESS_FIELDS", "HEAT_POOLS"]

MAX_HIGH = MAX_LOW = 6
#: The pools of the heat map, top row first: every pool of 0-6 high and 0-6 low dice.
HEAT_POOLS = tuple((h, l) for h in range(MAX_HIGH + 1) for l in range(MAX_LOW + 1) if h + l)
_LONG = 60  # fractions longer than this are shown by their percentage and size

# Okabe–Ito colours, told apart by readers with any common colour-vision deficiency
_HIT, _ESSENCE, _MISS = "#009E73", "#E69F00", "#BBBBBB"


def exact(p: Fraction | int, digits: int = 4) -> str:
    """An exact chance and its percentage, ``5/9 (55.56%)``; a very long fraction gives its
    percentage and the size of its exact denominator.

    >>> exact(Fraction(1)), exact(Fraction(0))
    ('1 (100%)', '0 (0%)')
    """
    p = Fraction(p)
    if p.denominator == 1:
        return f"{p.numerator} ({p.numerator * 100}%)" if p in (0, 1) else str(p.numerator)
    text = str(p)
    percent = f"{float(p) * 100:.{max(digits - 2, 0)}f}%"
    if len(text) > _LONG:
        return f"{percent} (an exact fraction with a {len(str(p.denominator))}-digit denominator)"
    return f"{text} ({percent})"


def number(value: Fraction | int) -> str:
    """An exact number that is not a chance (a mean): the fraction and its decimal.

    >>> number(Fraction(7, 4))
    '7/4 ≈ 1.75'
    """
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    if len(str(value)) > _LONG:
        return f"≈ {float(value):.4g}"
    return f"{value} ≈ {float(value):.4g}"


def _mathml(expr) -> str:
    """Presentation MathML of a sympy expression (sympy is imported on first use: it takes
    seconds, and the app opens on the Board tab)."""
    from sympy.printing.mathml import mathml

    return mathml(expr, printer="presentation")


def math_html(expr) -> str:
    """A sympy expression typeset as MathML, drawn by the browser itself (offline)."""
    return f"<math display='block'>{_mathml(expr)}</math>"


def _swatches(entries) -> str:
    """A legend line: coloured squares and their words."""
    return "<div class='chart-legend'>" + " &nbsp; ".join(
        f"<span class='legend-swatch' data-colour='{c}' style='display:inline-block;width:14px;"
        f"height:14px;background:{c};vertical-align:middle'></span> {html.escape(w)}"
        for c, w in entries) + "</div>"


def pool_name(high: int, low: int) -> str:
    """``1H2L`` for one high and two low dice (the CLI's dice expression)."""
    return f"{high}H{low}L"


def _dice_words(high: int, low: int) -> str:
    """``1 high and 2 low dice`` (the pool ``1H2L``)."""
    parts = [f"{n} {kind}" for n, kind in ((high, "high"), (low, "low")) if n]
    return " and ".join(parts) + (" die" if high + low == 1 else " dice") + \
        f" ({pool_name(high, low)})"


def _math_line(factored, expanded) -> str:
    """``G(z) = factored = expanded`` typeset."""
    g = "<mi>G</mi><mo>(</mo><mi>z</mi><mo>)</mo>"
    return (f"<math display='block'><mrow>{g}<mo>=</mo>{_mathml(factored)}"
            f"</mrow></math><math display='block'><mrow><mo>=</mo>"
            f"{_mathml(expanded)}</mrow></math>")


def _int_list(text: str, argument: str) -> tuple[int, ...]:
    """``"2, 3,4"`` -> ``(2, 3, 4)``; anything else is a :class:`RulesError` naming ``argument``."""
    parts = [part.strip() for part in text.split(",")]
    if not all(part.lstrip("-").isdigit() for part in parts):
        raise RulesError(argument, f"expected comma-separated numbers such as 2,3,4; got \"{text}\"")
    return tuple(int(part) for part in parts)


def _error(exc: Exception) -> str:
    return f"<span class='odds-error' style='color:#c62828'>{html.escape(str(exc))}</span>"


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    head = "".join(f"<th style='text-align:left;padding:0 8px'>{html.escape(h)}</th>"
                   for h in header)
    body = "".join("<tr>" + "".join(f"<td style='padding:0 8px'>{html.escape(c)}</td>"
                                    for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _slider(description: str, low: int, high: int, value: int, css: str) -> widgets.IntSlider:
    slider = widgets.IntSlider(value=value, min=low, max=high, description=description,
                               continuous_update=False, style={"description_width": "initial"})
    slider.add_class(css)
    return slider


class OddsView(widgets.VBox):
    """Attack odds in a notebook: pick a pool, a defense, a modifier and essence; read the exact odds.

    Widgets (with their CSS classes): ``high`` / ``low`` (``odds-high``,
    ``odds-low``), ``kind`` physical/arcane (``odds-kind``), ``defense`` 0-9,
    armor or will (``odds-defense``), ``modifier`` (``odds-modifier``),
    ``essence`` (``odds-essence``), ``blockers`` text "2,3,4"
    (``odds-blockers``), ``health`` and ``attacks`` for the kill chance
    (``odds-health``, ``odds-attacks``). Answers: ``probability`` (P(hit),
    ``odds-probability``), ``essence_spent`` (``odds-essence-spent``),
    ``derivation`` (the generating function, ``odds-derivation``),
    ``blockers_table`` (``odds-blockers-table``), ``kill`` (``odds-kill``),
    ``citation``. Charts: ``sources["pmf"]``, ``sources["cumulative"]``,
    ``sources["heat"]`` (P(hit) over pools x defense), ``sources["heat_current"]``.

    Assigning ``view.rules`` (e.g. from the explorer's preset picker) recomputes.

    Rules: manual p24 (attack), manual p18-19 (essence after the roll), switches roll.floor and essence.multi_blocker.
    """

    rules = traitlets.Instance(Rules)

    def __init__(self, rules: Rules | None = None, high: int = 1, low: int = 1, defense: int = 3,
                 **kwargs):
        setup_notebook()
        self.high = _slider("high dice", 0, MAX_HIGH, high, "odds-high")
        self.low = _slider("low dice", 0, MAX_LOW, low, "odds-low")
        self.kind = widgets.ToggleButtons(options=["physical", "arcane"], value="physical")
        self.kind.add_class("odds-kind")
        self.defense = _slider("armor", 0, attacks.MAX_ATTRIBUTE, defense, "odds-defense")
        self.modifier = _slider("modifier", -3, 6, 0, "odds-modifier")
        self.essence = _slider("essence", 0, 4, 0, "odds-essence")
        self.blockers = widgets.Text(value="2,3,4", description="blockers",
                                     continuous_update=False)
        self.blockers.add_class("odds-blockers")
        self.health = _slider("health", 1, 4, 2, "odds-health")
        self.attacks = _slider("attacks", 1, 6, 2, "odds-attacks")
        self.probability = widgets.HTML()
        self.probability.add_class("odds-probability")
        self.essence_spent = widgets.HTML()
        self.essence_spent.add_class("odds-essence-spent")
        self.derivation = widgets.HTML()
        self.derivation.add_class("odds-derivation")
        self.blockers_table = widgets.HTML()
        self.blockers_table.add_class("odds-blockers-table")
        self.kill = widgets.HTML()
        self.kill.add_class("odds-kill")
        self.citation = widgets.HTML()
        self.citation.add_class("odds-citation")

        self.sources = {
            "pmf": ColumnDataSource({"total": [], "p": [], "exact": [], "colour": []}),
            "cumulative": ColumnDataSource({"k": [], "p": [], "exact": []}),
            "threshold": ColumnDataSource({"k": [], "p": [], "exact": []}),
            "heat": ColumnDataSource({"pool": [], "defense": [], "p": [], "exact": [],
                                      "text": [], "ink": []}),
            "heat_current": ColumnDataSource({"pool": [], "defense": []}),
        }
        self.figures = self._build_figures()
        self.rules = rules or Rules()
        self._recompute()  # fill the sources before the plots are serialised (a BokehModel
        # not yet shown in the page drops the changes it is sent)
        plots = [BokehModel(self.figures[name]) for name in ("pmf", "cumulative", "heat")]
        for plot, css in zip(plots, ("odds-pmf-plot", "odds-cumulative-plot", "odds-heat-plot")):
            plot.add_class(css)

        controls = widgets.VBox([widgets.HBox([self.high, self.low, self.kind]),
                                 widgets.HBox([self.defense, self.modifier, self.essence])])
        answers = widgets.VBox([self.probability, self.essence_spent, self.derivation])
        kill = widgets.VBox([widgets.HTML("<b>Kill within N attacks</b> (essence shared)"),
                             widgets.HBox([self.health, self.attacks]), self.kill])
        blockers = widgets.VBox([widgets.HTML("<b>One roll against several blockers</b>"),
                                 self.blockers, self.blockers_table])
        legend = widgets.HTML(_swatches([(_HIT, "hits without essence"),
                                         (_ESSENCE, "hits with the essence allowed"),
                                         (_MISS, "misses")])
                              + "<small>Dashed line: the defense to reach. Diamond: the chance "
                                "at the defense. In the grid below, the outlined cell is the "
                                "pool and defense picked above; the colour scale beside it "
                                "reads from 0 (never) to 1 (always).</small>")
        legend.add_class("odds-legend")
        super().__init__([controls, answers, legend, widgets.HBox([plots[0], plots[1]]),
                          widgets.HBox([blockers, kill]), plots[2], self.citation], **kwargs)
        for w in (self.high, self.low, self.kind, self.defense, self.modifier, self.essence):
            w.observe(self.update, "value")
        for w in (self.modifier, self.essence):
            w.observe(self._update_heat, "value")
        self.blockers.observe(self._update_blockers, "value")
        for w in (self.health, self.attacks):
            w.observe(self._update_kill, "value")
        self.observe(self._recompute, "rules")

    # -- figures (built once) -------------------------------------------------------------
    def _build_figures(self):
        s = self.sources
        pmf = new_figure(height=260, width=420, title="Chance of each dice total (before essence)",
                         tools="", toolbar_location=None, x_axis_label="total (dice + modifier)", y_axis_label="chance")
        pmf.vbar("total", 0.8, "p", source=s["pmf"], fill_color="colour", line_color="white")
        pmf.add_tools(HoverTool(tooltips=[("total", "@total"), ("chance", "@exact")]))
        self.defense_span = Span(location=0, dimension="height", line_color="#D55E00",
                                 line_dash="dashed", line_width=2)
        pmf.add_layout(self.defense_span)

        cumulative = new_figure(height=260, width=420, title="Chance the total is at least k", tools="",
                                toolbar_location=None, x_axis_label="k", y_axis_label="chance", y_range=(0, 1.05))
        cumulative.step("k", "p", source=s["cumulative"], mode="center", line_width=2)
        cumulative.scatter("k", "p", source=s["cumulative"], size=5)
        cumulative.scatter("k", "p", source=s["threshold"], size=14, marker="diamond",
                           fill_color="#D55E00", line_color="white")
        cumulative.add_tools(HoverTool(tooltips=[("k", "@k"), ("chance", "@exact")]))
        self.cumulative_span = Span(location=0, dimension="height", line_color="#D55E00",
                                    line_dash="dashed", line_width=2)
        cumulative.add_layout(self.cumulative_span)

        names = [pool_name(h, l) for h, l in HEAT_POOLS]
        defenses = [str(d) for d in range(attacks.MAX_ATTRIBUTE + 1)]
        heat = new_figure(height=18 * len(names) + 80, width=640,
                          title="Chance to hit: every pool against every defense (this modifier and essence)",
                          x_range=FactorRange(*defenses), y_range=FactorRange(*reversed(names)),
                          tools="", toolbar_location=None, x_axis_location="above",
                          x_axis_label="defense (armor or will)")
        mapper = LinearColorMapper(palette=Viridis256, low=0, high=1)
        cells = heat.rect("defense", "pool", 1, 1, source=s["heat"], line_color=None,
                          fill_color={"field": "p", "transform": mapper})
        heat.text("defense", "pool", text="text", source=s["heat"], text_align="center",
                  text_baseline="middle", text_font_size="8pt", text_color="ink")
        heat.rect("defense", "pool", 1, 1, source=s["heat_current"], fill_alpha=0,
                  line_color="#D55E00", line_width=3)
        heat.add_tools(HoverTool(renderers=[cells], tooltips=[
            ("pool", "@pool"), ("defense", "@defense"), ("chance to hit", "@exact")]))
        heat.add_layout(ColorBar(color_mapper=mapper, title="chance to hit", width=14,
                                 major_label_text_font_size="9pt"), "right")
        heat.grid.visible = False
        heat.axis.major_tick_line_color = None
        return {"pmf": pmf, "cumulative": cumulative, "heat": heat}

    # -- answers ----------------------------------------------------------------------------
    @property
    def pool(self) -> Pool:
        """The chosen pool (a :class:`RulesError` for 0H0L)."""
        return Pool.attack(self.high.value, self.low.value)

    @property
    def attribute(self) -> str:
        """``armor`` for a physical attack, ``will`` for an arcane one (manual p24-25)."""
        return "will" if self.kind.value == "arcane" else "armor"

    def _recompute(self, _change=None) -> None:
        self.update()
        self._update_heat()

    def update(self, _change=None) -> None:
        """Recompute every answer for the chosen pool and defense (the heat map keeps its data)."""
        self.defense.description = self.attribute
        try:
            pool = self.pool
        except RulesError as exc:
            self.probability.value = _error(exc)
            return
        rules, m, e, a = self.rules, self.modifier.value, self.essence.value, self.defense.value
        odds = attacks.attack_odds(pool, a, rules, m, e)
        self.probability.value = (
            f"<b>Chance to hit</b> with {_dice_words(pool.high, pool.low)} ({self.kind.value}) "
            f"against {self.attribute} {a}, modifier {m:+d}, up to {e} essence: "
            f"<b>{exact(odds.hit)}</b>")
        spent = ", ".join(f"{k} essence: {exact(p)}" for k, p in odds.spent.items())
        self.essence_spent.value = (f"Essence spent on average (the least that makes it hit, "
                                    f"chosen after seeing the roll): "
                                    f"{number(odds.expected_spent)} &nbsp; "
                                    f"<small>(chance of spending {spent})</small>")
        self.derivation.value = (
            "<div class='odds-math'>The dice total's generating function, a product with one "
            "factor per die:"
            f"{_math_line(generating_function(pool, factored=True), generating_function(pool))}"
            "The chance the dice total exactly <i>s</i> is the coefficient of "
            "<i>z</i><sup><i>s</i></sup>; the attack hits when the total is at least the "
            "defense minus the modifier and the essence spent (manual p24).</div>")
        dist = attacks.final_total(pool, rules, m)
        pmf = dist.pmf()
        self.sources["pmf"].data = {
            "total": list(pmf), "p": [float(p) for p in pmf.values()],
            "exact": [exact(p) for p in pmf.values()],
            "colour": [_HIT if t >= a else _ESSENCE if t + e >= a else _MISS for t in pmf]}
        ks = list(range(min(dist.minimum, 0), max(dist.maximum, attacks.MAX_ATTRIBUTE) + 2))
        tails = [dist.at_least(k) for k in ks]
        self.sources["cumulative"].data = {"k": ks, "p": [float(p) for p in tails],
                                           "exact": [exact(p) for p in tails]}
        self.sources["threshold"].data = {"k": [a], "p": [float(dist.at_least(a))],
                                          "exact": [exact(dist.at_least(a))]}
        self.defense_span.location = a - 0.5
        self.cumulative_span.location = a
        self.sources["heat_current"].data = {"pool": [pool_name(pool.high, pool.low)],
                                             "defense": [str(a)]}
        self.citation.value = (f"<small>Rules: manual p24 (attack: a total at least the "
                               f"{self.attribute} hits), manual p18-19 (essence after the roll); "
                               f"switches roll.floor: {rules['roll.floor']}, "
                               f"essence.multi_blocker: {rules['essence.multi_blocker']}; "
                               f"rules preset {html.escape(rules.name)}</small>")
        self._update_blockers()
        self._update_kill()

    def _update_heat(self, _change=None) -> None:
        rules, m, e = self.rules, self.modifier.value, self.essence.value
        rows = [(pool_name(h, l), d, attacks.hit_chance(Pool.attack(h, l), d, rules, m, e))
                for h, l in HEAT_POOLS for d in range(attacks.MAX_ATTRIBUTE + 1)]
        self.sources["heat"].data = {
            "pool": [r[0] for r in rows], "defense": [str(r[1]) for r in rows],
            "p": [float(r[2]) for r in rows], "exact": [exact(r[2]) for r in rows],
            "text": [f"{float(r[2]):.2f}" for r in rows],
            "ink": ["#212121" if r[2] > Fraction(3, 5) else "#ffffff" for r in rows]}

    def _update_blockers(self, _change=None) -> None:
        try:
            pool = self.pool
            defenses = _int_list(self.blockers.value, "blockers")
            outcome = attacks.blockers_outcome(pool, defenses, self.rules, self.modifier.value,
                                               self.essence.value)
        except RulesError as exc:
            self.blockers_table.value = _error(exc)
            return
        rows = [(", ".join(f"blocker {i + 1} ({self.attribute} {defenses[i]})"
                           for i in sorted(hit)) or "no blocker", exact(p))
                for hit, p in outcome.items()]
        rows.append(("blockers hit on average", number(attacks.expected_hits(outcome))))
        self.blockers_table.value = _table(("blockers hit together", "chance"), rows) + (
            "<small>One roll, one total: every blocker whose defense the total reaches is hit "
            "(manual p24)</small>")

    def _update_kill(self, _change=None) -> None:
        try:
            p = attacks.kill_chance(self.pool, self.defense.value, self.health.value,
                                    self.attacks.value, self.rules, self.modifier.value,
                                    self.essence.value)
        except RulesError as exc:
            self.kill.value = _error(exc)
            return
        self.kill.value = (f"Chance to take {self.health.value} health within "
                           f"{self.attacks.value} attack(s), sharing {self.essence.value} "
                           f"essence: <b>{exact(p)}</b><br><small>manual p24 (attack, wounds), "
                           "p18 (essence)</small>")


#: The quantities :class:`ProcessesView` charts: :class:`~machina_nb.rules.odds.processes.RoundSummary`
#: fields and their titles.
PROCESS_FIELDS: Mapping[str, str] = {
    "spawned": "monsters spawned",
    "invoked": "horror events invoked",
    "threat": "monster threat (position)",
    "level": "monster level",
}

_SIDE_COLOURS = ("#0072B2", "#D55E00")


class ProcessesView(widgets.VBox):
    """Spawn, horror and threat over N rounds under two rulesets side by side (1.0 vs 3.5).

    The left column follows ``view.rules`` (the explorer's shared preset), the
    right one the preset picked in ``compare`` (default ``v3_5``). Widgets:
    ``rating`` (``proc-rating``), ``horror`` (0 = the chapter has none,
    ``proc-horror``), ``explorers`` (``proc-explorers``), ``rounds``
    (``proc-rounds``), ``blocking`` (``proc-blocking``), ``compare``
    (``proc-compare``). Answers: ``summary`` (``proc-summary``: means, level-up
    chance, long-run rates), ``sources[field]`` per :data:`PROCESS_FIELDS` with
    columns ``x``, ``left``, ``right`` (and exact fractions).

    Rules: manual p13 (spawn), manual p14 (horror, threat), 3.5 §Spawn Phase,
    switch spawn.procedure.
    """

    rules = traitlets.Instance(Rules)
    MAX_ROUNDS = processes.MAX_HORROR_ROUNDS  # the exact chains' own limit (no cap for speed)

    def __init__(self, rules: Rules | None = None, rating: int = 6, horror: int = 5,
                 explorers: int = 2, rounds: int = 5, **kwargs):
        setup_notebook()
        self.rating = _slider("spawn rating", 1, 9, rating, "proc-rating")
        self.horror = _slider("horror rating (0: none)", 0, 9, horror, "proc-horror")
        self.explorers = _slider("explorers", 1, 4, explorers, "proc-explorers")
        self.rounds = _slider("rounds", 1, self.MAX_ROUNDS, rounds, "proc-rounds")
        self.blocking = widgets.Checkbox(value=True, description="blocking chapter", indent=False)
        self.blocking.add_class("proc-blocking")
        self.compare = widgets.Dropdown(options=[(PRESET_WORDS[p], p) for p in PRESETS],
                                        value="v3_5",
                                        description="compare with",
                                        style={"description_width": "initial"})
        self.compare.add_class("proc-compare")
        self.summary = widgets.HTML()
        self.summary.add_class("proc-summary")
        self.sources = {field: ColumnDataSource({"x": [], "left": [], "right": [],
                                                 "left_exact": [], "right_exact": []})
                        for field in PROCESS_FIELDS}
        self.figures = {field: self._figure(field, title) for field, title in
                        PROCESS_FIELDS.items()}
        self.rules = rules or Rules()
        self.update()  # before the plots are serialised, as in OddsView
        plots = [BokehModel(fig) for fig in self.figures.values()]
        for plot in plots:
            plot.add_class("proc-plot")
        super().__init__([
            widgets.HTML("<h3>Spawn, horror and threat over rounds</h3>"),
            widgets.HBox([self.rating, self.horror, self.explorers]),
            widgets.HBox([self.rounds, self.blocking, self.compare]),
            self.summary,
            widgets.HBox(plots[:2]), widgets.HBox(plots[2:]),
        ], **kwargs)
        for w in (self.rating, self.horror, self.explorers, self.rounds, self.blocking,
                  self.compare):
            w.observe(self.update, "value")
        self.observe(self.update, "rules")

    def _figure(self, field: str, title: str):
        fig = new_figure(height=230, width=420, title=title, tools="", toolbar_location=None,
                         y_axis_label="chance")
        s = self.sources[field]
        for side, offset, colour in (("left", -0.2, _SIDE_COLOURS[0]),
                                     ("right", 0.2, _SIDE_COLOURS[1])):
            bars = fig.vbar(x=dodge("x", offset), width=0.38, top=side,
                            source=s, fill_color=colour, line_color=None)
            fig.add_tools(HoverTool(renderers=[bars], tooltips=[
                (title, "@x"), ("chance", f"@{side}_exact")]))
        return fig

    @property
    def sides(self) -> tuple[Rules, Rules]:
        """The two rulesets compared: the shared rules and the ``compare`` preset."""
        return self.rules, Rules.preset(self.compare.value)

    def setup(self) -> processes.Setup:
        """The chapter and party chosen in the widgets (one chapter, every explorer rolling)."""
        return processes.Setup(
            (processes.ChapterRatings(self.rating.value, self.horror.value or None,
                                      self.blocking.value),),
            processes.Party(self.explorers.value))

    def update(self, _change=None) -> None:
        """Play the rounds exactly under both rulesets; refill the charts and the summary."""
        setup = self.setup()
        results = [processes.play_rounds(setup, rules, self.rounds.value) for rules in self.sides]
        for field in PROCESS_FIELDS:
            left, right = (processes.marginal(r, field) for r in results)
            xs = sorted(set(left) | set(right))
            self.sources[field].data = {
                "x": xs,
                "left": [float(left.get(x, 0)) for x in xs],
                "right": [float(right.get(x, 0)) for x in xs],
                "left_exact": [exact(left.get(x, 0)) for x in xs],
                "right_exact": [exact(right.get(x, 0)) for x in xs]}
        self.summary.value = self._summary(setup, results)

    def _summary(self, setup: processes.Setup, results) -> str:
        names = self._side_names()
        rows = []
        for field, title in PROCESS_FIELDS.items():
            means = [_mean(processes.marginal(r, field)) for r in results]
            rows.append((f"{title}, on average", *(number(m) for m in means)))
        level = [processes.marginal(r, "first_level_up") for r in results]
        rows.append(("chance the level rose", *(exact(1 - d.get(None, 0)) for d in level)))
        rows.append(("spawn attempts a round, in the long run", *(self._spawn_rate(rules)
                                                          for rules in self.sides)))
        if self.horror.value:
            rows.append(("horror events a round, in the long run",
                         *(number(processes.long_run_invokes(self.horror.value, rules))
                           for rules in self.sides)))
        swatches = [f"<span style='color:{c}'>■</span> {html.escape(n)}"
                    for c, n in zip(_SIDE_COLOURS, names)]
        return (f"{' &nbsp; '.join(swatches)}<br>"
                f"After {self.rounds.value} round(s), spawn rating {self.rating.value}, horror "
                f"rating {self.horror.value or 'none'}, {self.explorers.value} explorer(s), "
                f"a threat track of {setup.threat_positions} positions"
                + _table(("", *names), rows)
                + "<small>Rules: manual p13 (spawn), manual p14 (horror, threat), 3.5 rules "
                  "(spawn phase); the ruling on which spawn phase is played</small>")

    def _side_names(self) -> list[str]:
        """Each side in words: the rules in force, the preset compared, each with the spawn
        phase it plays."""
        who = ["the rules in force", PRESET_WORDS[self.compare.value]]
        return [f"{w} ({label('spawn.procedure', rules['spawn.procedure'])})"
                for w, rules in zip(who, self.sides)]

    def _spawn_rate(self, rules: Rules) -> str:
        try:
            return number(processes.long_run_spawn_attempts(self.rating.value,
                                                           self.explorers.value, rules))
        except RulesError as exc:
            return str(exc)


def _mean(distribution: Mapping[int, Fraction]) -> Fraction:
    return sum((k * p for k, p in distribution.items()), Fraction(0))

