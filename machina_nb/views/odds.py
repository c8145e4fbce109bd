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
from typing import Mapping, Sequence, cast

import ipywidgets as widgets
import traitlets
from bokeh.models import ColumnDataSource, FactorRange, HoverTool, LinearColorMapper
from bokeh.models.annotations import ColorBar, Span
from bokeh.palettes import Viridis256
from bokeh.plotting import figure as new_figure
from bokeh.transform import dodge
from jupyter_bokeh.widgets import BokehModel

from machina_nb.rules.cards.attack_choices import (AttackChoice, attack_choices,
                                                   defense_attribute, defense_of)
from machina_nb.rules.cards.items import load_all_items
from machina_nb.rules.cards.units import UnitCard, content_cards
from machina_nb.rules.odds import attacks, processes
from machina_nb.rules.odds.dice import Pool
from machina_nb.rules.errors import RulesError
from machina_nb.rules.numbers import a_kind, decimals, exact, hits_phrase, number
from machina_nb.rules.odds.genfunc import generating_function
from machina_nb.rules.rulings import PRESETS, Rules
from machina_nb.rules.rulings_words import label
from machina_nb.rules.analysis.phrases import rules_words
from machina_nb.views import setup_notebook
from machina_nb.views.fit import board_holder, row, scale_to_width
from machina_nb.views.reference import RuleLinks, manual_links
from machina_nb.views.words import PRESET_WORDS

__all__ = ["exact", "number", "pool_name", "OddsView", "MORE_SECTIONS", "ProcessesView", "PROCESS_FIELDS", "HEAT_POOLS"]

MAX_HIGH = MAX_LOW = 6
#: The pools of the heat map, top row first: every pool of 0-6 high and 0-6 low dice.
HEAT_POOLS = tuple((h, l) for h in range(MAX_HIGH + 1) for l in range(MAX_LOW + 1) if h + l)

# Okabe–Ito colours, told apart by readers with any common colour-vision deficiency
_HIT, _ESSENCE, _MISS = "#009E73", "#E69F00", "#BBBBBB"


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


def _table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> str:
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


def _box(description: str, low: int, high: int, value: int, css: str) -> widgets.BoundedIntText:
    """A number typed in (arrows step it), ``low``-``high``."""
    box = widgets.BoundedIntText(value=value, min=low, max=high, description=description,
                                 style={"description_width": "initial"},
                                 layout=widgets.Layout(width="150px"))
    box.add_class(css)
    return box


def _note(text: str) -> widgets.HTML:
    """One short plain line beside an input: what it does and where the rule is."""
    note = widgets.HTML(f"<small>{manual_links(text)}</small>")
    note.add_class("odds-note")
    return note


def _reading(rules: Rules, switch: str) -> str:
    """The reading of ``switch`` in force, as its plain label."""
    return html.escape(label(switch, rules[switch]))


#: The sections folded under the answer, in order.
MORE_SECTIONS = ("How it is worked out: the generating function and each total's chance",
                 "One roll against several blockers; kill within N attacks",
                 "Every pool against every defense (heat map)")
_DERIVATION, _MORE_QUESTIONS, _HEAT = range(3)


class OddsView(widgets.VBox):
    """Attack odds in a notebook: pick an attacker and a target (or type a pool and a defense),
    a modifier and essence; read the exact chance in one sentence and one chart.

    Pickers: ``attacker`` (a unit card id, or None for a typed pool; ``odds-attacker``),
    ``attack`` (its :class:`~machina_nb.rules.cards.attack_choices.AttackChoice`, an ability
    or an explorer's weapon; ``odds-attack``), ``target`` (a unit card id, or None for a typed
    defense; ``odds-target``); ``origin`` says where each number came from (``odds-origin``).
    Numbers, typed (with their CSS classes): ``high`` / ``low`` (``odds-high``,
    ``odds-low``), ``kind`` physical/arcane (``odds-kind``), ``defense`` 0-9, armor or will
    (``odds-defense``), ``modifier`` (``odds-modifier``), ``essence`` (``odds-essence``).
    Typing a number the pick did not give turns that pick into "custom".
    Answers: ``probability`` (the sentence, ``odds-probability``), ``essence_spent``
    (``odds-essence-spent``) and the chart ``sources["pmf"]``. Folded below in ``more``
    (:data:`MORE_SECTIONS`, closed; each built when first opened): ``derivation`` (the
    generating function, ``odds-derivation``) with ``sources["cumulative"]``;
    ``blockers`` text "2,3,4" (``odds-blockers``), ``blockers_table``, ``health`` and
    ``attacks`` (``odds-health``, ``odds-attacks``) and ``kill`` (``odds-kill``);
    ``sources["heat"]`` (P(hit) over pools x defense) with ``sources["heat_current"]``.

    Assigning ``view.rules`` (e.g. from the explorer's preset picker) recomputes.

    Rules: manual p24 (attack; armor against physical, will against arcane), manual p18-19
    (essence after the roll), switches roll.floor and essence.multi_blocker.
    """

    rules = traitlets.Instance(Rules)

    def __init__(self, rules: Rules | None = None, high: int = 1, low: int = 1, defense: int = 3,
                 attacker: str | None = "hank", target: str | None = "mi_go", **kwargs):
        setup_notebook()
        self._filling = False
        self._opened: set[int] = set()
        self.cards, self.weapons = content_cards(), load_all_items()
        self._build_inputs(high, low, defense)
        self._build_answers()
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
        self.more = widgets.Accordion([widgets.VBox() for _ in MORE_SECTIONS],
                                      titles=MORE_SECTIONS, selected_index=None)
        self.more.add_class("odds-more")
        self._observe_inputs()
        self.attacker.value, self.target.value = attacker, target
        self.update()  # fill the sources before the plot is serialised (a BokehModel
        # not yet shown in the page drops the changes it is sent)
        pmf = BokehModel(self.figures["pmf"])
        pmf.add_class("odds-pmf-plot")
        super().__init__([self._picker_rows(), self.probability, self.essence_spent,
                          self._number_rows(), self._legend(),
                          board_holder(pmf, self.figures["pmf"], "plot-holder"), self.more,
                          self.citation, self.rule_links],
                         **kwargs)
        self.observe(self._recompute, "rules")

    def _build_inputs(self, high: int, low: int, defense: int) -> None:
        units = [(f"{c.name} ({c.side})", uid) for uid, c in self.cards.items()]
        self.attacker = widgets.Dropdown(options=[("custom pool (type the dice)", None)] + units,
                                         value=None, description="attacker")
        self.attack = widgets.Dropdown(options=[("the dice typed below", None)], value=None,
                                       description="with", disabled=True)
        self.target = widgets.Dropdown(options=[("custom defense (type it)", None)] + units,
                                       value=None, description="target")
        for w, css in ((self.attacker, "odds-attacker"), (self.attack, "odds-attack"),
                       (self.target, "odds-target")):
            w.add_class(css)
            w.style = {"description_width": "initial"}
        self.origin = widgets.HTML()
        self.origin.add_class("odds-origin")
        self.high = _box("high dice", 0, MAX_HIGH, high, "odds-high")
        self.low = _box("low dice", 0, MAX_LOW, low, "odds-low")
        self.kind = widgets.ToggleButtons(options=["physical", "arcane"], value="physical",
                                          style={"button_width": "80px"})
        self.kind.add_class("odds-kind")
        self.defense = _box("armor", 0, attacks.MAX_ATTRIBUTE, defense, "odds-defense")
        self.modifier = _box("modifier", -9, 9, 0, "odds-modifier")
        self.essence = _box("essence", 0, 9, 0, "odds-essence")
        self.blockers = widgets.Text(value="2,3,4", description="blockers",
                                     continuous_update=False)
        self.blockers.add_class("odds-blockers")
        self.health = _box("health", 1, 9, 2, "odds-health")
        self.attacks = _box("attacks", 1, 9, 2, "odds-attacks")

    def _build_answers(self) -> None:
        for name in ("probability", "essence_spent", "derivation", "blockers_table", "kill",
                     "citation"):
            answer = widgets.HTML()
            answer.add_class("odds-" + name.replace("_", "-"))
            setattr(self, name, answer)
        self.rule_links = RuleLinks()

    def _picker_rows(self) -> widgets.Widget:
        return widgets.VBox([row([self.attacker, self.attack, self.target]),
                             self.origin])

    def _number_rows(self) -> widgets.Widget:
        return widgets.VBox([
            row([self.high, self.low, self.kind, self.defense]),
            row([self.modifier, _note(
                "Added to the dice total: + from boosts, − from reductions (manual p24).")]),
            row([self.essence, _note(
                "The most essence the attacker may spend after seeing the roll, +1 to the "
                "total each (manual p18-19).")])])

    def _legend(self) -> widgets.Widget:
        legend = widgets.HTML(_swatches([(_HIT, "hits without essence"),
                                         (_ESSENCE, "hits with the essence allowed"),
                                         (_MISS, "misses")])
                              + "<small>Each bar: the chance of one dice total. Dashed line: "
                                "the defense to reach.</small>")
        legend.add_class("odds-legend")
        return legend

    def _observe_inputs(self) -> None:
        self.attacker.observe(self._attacker_picked, "value")
        self.attack.observe(self._attack_picked, "value")
        self.target.observe(self._target_picked, "value")
        for w in (self.high, self.low, self.kind):
            w.observe(self._dice_typed, "value")
        self.kind.observe(self._kind_changed, "value")
        self.defense.observe(self._defense_typed, "value")
        for w in (self.high, self.low, self.kind, self.defense, self.modifier, self.essence):
            w.observe(self.update, "value")
        for w in (self.modifier, self.essence):
            w.observe(self._update_heat, "value")
        self.blockers.observe(self._update_blockers, "value")
        for w in (self.health, self.attacks):
            w.observe(self._update_kill, "value")
        self.more.observe(self._section_opened, "selected_index")

    # -- the pickers fill the numbers; a number typed makes its pick custom -----------------
    @property
    def choice(self) -> AttackChoice | None:
        """The attack picked, or None for a typed pool."""
        return self.attack.value if self.attacker.value is not None else None

    @property
    def target_card(self) -> UnitCard | None:
        """The target's unit card, or None for a typed defense."""
        return self.cards.get(self.target.value) if self.target.value is not None else None

    def _fill(self, **values) -> None:
        """Set several inputs as one change: a single recompute, and no pick turned custom."""
        self._filling = True
        try:
            for name, value in values.items():
                getattr(self, name).value = value
        finally:
            self._filling = False
        self.update()

    def _attacker_picked(self, change) -> None:
        card = self.cards.get(change["new"]) if change["new"] is not None else None
        choices = attack_choices(card, self.weapons) if card else ()
        self._filling = True
        try:
            if choices:
                self.attack.options = [(c.label, c) for c in choices]
                self.attack.value = choices[0]
            else:
                self.attack.options = [("the dice typed below" if card is None
                                        else "no attack on this card: type the dice", None)]
                self.attack.value = None
            self.attack.disabled = not choices
        finally:
            self._filling = False
        self._attack_picked()

    def _attack_picked(self, _change=None) -> None:
        choice = self.choice
        if self._filling or choice is None:
            self.update()
            return
        values = {"high": choice.high, "low": choice.low,
                  "kind": "arcane" if choice.arcane else "physical"}
        card = self.target_card
        if card is not None:
            values["defense"] = defense_of(card, choice.arcane)
        self._fill(**values)

    def _target_picked(self, change) -> None:
        card = self.target_card
        if card is None:
            self.update()
            return
        self._fill(defense=defense_of(card, self.kind.value == "arcane"))

    def _dice_typed(self, _change) -> None:
        choice = self.choice
        if self._filling or choice is None:
            return
        if (self.high.value, self.low.value, self.kind.value == "arcane") != \
                (choice.high, choice.low, choice.arcane):
            self.attacker.value = None

    def _kind_changed(self, change) -> None:
        """Physical or arcane picks the target's armor or will (manual p24)."""
        card = self.target_card
        if not self._filling and card is not None:
            self._fill(defense=defense_of(card, change["new"] == "arcane"))

    def _defense_typed(self, change) -> None:
        card = self.target_card
        if not self._filling and card is not None and \
                change["new"] != defense_of(card, self.kind.value == "arcane"):
            self.target.value = None

    # -- figures (built once; the folded ones shown when their section opens) ----------------
    def _build_figures(self):
        s = self.sources
        pmf = new_figure(height=240, width=440, title="Chance of each dice total (before essence)",
                         tools="", toolbar_location=None, x_axis_label="total (dice + modifier)",
                         y_axis_label="chance")
        pmf.vbar("total", 0.8, "p", source=s["pmf"], fill_color="colour", line_color="white")
        pmf.add_tools(HoverTool(tooltips=[("total", "@total"), ("chance", "@exact")]))
        self.defense_span = Span(location=0, dimension="height", line_color="#D55E00",
                                 line_dash="dashed", line_width=2)
        pmf.add_layout(self.defense_span)

        cumulative = new_figure(height=240, width=440, title="Chance the total is at least k",
                                tools="", toolbar_location=None, x_axis_label="k",
                                y_axis_label="chance", y_range=(0, 1.05))
        cumulative.step("k", "p", source=s["cumulative"], mode="center", line_width=2)
        cumulative.scatter("k", "p", source=s["cumulative"], size=5)
        cumulative.scatter("k", "p", source=s["threshold"], size=14, marker="diamond",
                           fill_color="#D55E00", line_color="white")
        cumulative.add_tools(HoverTool(tooltips=[("k", "@k"), ("chance", "@exact")]))
        self.cumulative_span = Span(location=0, dimension="height", line_color="#D55E00",
                                    line_dash="dashed", line_width=2)
        cumulative.add_layout(self.cumulative_span)
        return {"pmf": scale_to_width(pmf), "cumulative": scale_to_width(cumulative),
                "heat": scale_to_width(self._heat_figure())}

    def _heat_figure(self):
        s = self.sources
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
        return heat

    def _section_opened(self, change) -> None:
        """Build a folded section the first time it is opened, then keep it up to date."""
        index = change["new"]
        if index is None or index in self._opened:
            return
        self._opened.add(index)
        if index == _DERIVATION:
            self._update_derivation()
            plot = BokehModel(self.figures["cumulative"])
            plot.add_class("odds-cumulative-plot")
            content = [self.derivation,
                       board_holder(plot, self.figures["cumulative"], "plot-holder")]
        elif index == _MORE_QUESTIONS:
            self._update_blockers()
            self._update_kill()
            content = [widgets.HTML("<b>One roll against several blockers</b>"), self.blockers,
                       self.blockers_table,
                       widgets.HTML("<b>Kill within N attacks</b> (the essence shared "
                                    "between them)"),
                       row([self.health, self.attacks]), self.kill]
        else:
            self._update_heat()
            plot = BokehModel(self.figures["heat"])
            plot.add_class("odds-heat-plot")
            content = [widgets.HTML("<small>Every pool of 0-6 high and 0-6 low dice against "
                                    "every defense; the outlined cell is the pool and defense "
                                    "picked above. Colour: from 0 (never) to 1 (always)."
                                    "</small>"),
                       board_holder(plot, self.figures["heat"], "plot-holder")]
        self.more.children[index].children = content

    # -- answers ----------------------------------------------------------------------------
    @property
    def pool(self) -> Pool:
        """The chosen pool (a :class:`RulesError` for 0H0L)."""
        return Pool.attack(self.high.value, self.low.value)

    @property
    def attribute(self) -> str:
        """``armor`` for a physical attack, ``will`` for an arcane one (manual p24-25)."""
        return defense_attribute(self.kind.value == "arcane")

    def _recompute(self, _change=None) -> None:
        self.update()
        self._update_heat()

    def _subject(self, pool: Pool) -> str:
        """Who attacks with what: "Hank's Stunning Blow", or the dice typed."""
        choice = self.choice
        if choice is not None:
            return html.escape(f"{choice.unit}'s {choice.label}", quote=False)
        return f"{a_kind(self.kind.value).capitalize()} attack with {_dice_words(pool.high, pool.low)}"

    def _against(self) -> str:
        card, a = self.target_card, self.defense.value
        if card is None:
            return f"against {self.attribute} {a}"
        article = "the " if card.side == "monster" else ""
        return html.escape(f"against {article}{card.name}'s {self.attribute} {a}", quote=False)

    def _sentence(self, pool: Pool, hit: Fraction) -> str:
        m, e = self.modifier.value, self.essence.value
        extras = [f"a modifier of {m:+d}" if m else "",
                  f"up to {e} essence spent after the roll" if e else ""]
        extra = " and ".join(x for x in extras if x)
        return (f"<span class='odds-answer' style='font-size:1.15em'>{self._subject(pool)} "
                f"{self._against()}"
                f"{', with ' + extra + ',' if extra else ''} {hits_phrase(hit)}: "
                f"<b>{exact(hit)}</b></span>")

    def _origin(self) -> str:
        choice, card = self.choice, self.target_card
        if choice is not None:
            where = f"the {choice.weapon} card" if choice.weapon else f"{choice.unit}'s card"
            dice = (f"{choice.unit}'s {choice.label}: {_dice_words(choice.high, choice.low)}, "
                    f"{'arcane' if choice.arcane else 'physical'} (from {where}).")
        else:
            dice = "Dice: typed below (custom pool)."
        if card is not None:
            defense = (f"{card.name}: {self.attribute} {self.defense.value} (from its card; "
                       f"{a_kind(self.kind.value)} attack must reach the target's {self.attribute}, "
                       "manual p24).")
        else:
            defense = f"Defense: {self.attribute} typed below (custom defense)."
        return f"<small>{html.escape(dice, quote=False)} {manual_links(defense)}</small>"

    def update(self, _change=None) -> None:
        """Recompute the answer and its chart for the chosen pool and defense (and the folded
        sections already opened; the heat map keeps its data)."""
        if self._filling:
            return
        self.defense.description = self.attribute
        self.origin.value = self._origin()
        try:
            pool = self.pool
        except RulesError as exc:
            self.probability.value = _error(exc)
            return
        rules, m, e, a = self.rules, self.modifier.value, self.essence.value, self.defense.value
        odds = attacks.attack_odds(pool, a, rules, m, e)
        self.probability.value = self._sentence(pool, odds.hit)
        spent = ", ".join(f"{k} essence: {exact(p)}" for k, p in odds.spent.items())
        self.essence_spent.value = "" if not e else (
            f"Essence spent, on average: {number(odds.expected_spent)} (the least that makes it "
            f"hit, chosen after seeing the roll) &nbsp; <small>(chance of spending {spent})"
            "</small>")
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
        cited = (f"Rules: manual p24 (attack: a total at least the {self.attribute} hits), "
                 "manual p18-19 (essence after the roll)")
        self.citation.value = (f"<small>{manual_links(cited)}; in force: "
                               f"{_reading(rules, 'roll.floor')}; "
                               f"{_reading(rules, 'essence.multi_blocker')} "
                               f"(rules: {html.escape(rules_words(rules.name))})</small>")
        self.rule_links.show(cited)
        self._update_derivation()
        self._update_blockers()
        self._update_kill()

    def _update_derivation(self) -> None:
        if _DERIVATION not in self._opened:
            return
        try:
            pool = self.pool
        except RulesError as exc:
            self.derivation.value = _error(exc)
            return
        self.derivation.value = (
            "<div class='odds-math'>The dice total's generating function, a product with one "
            "factor per die:"
            f"{_math_line(generating_function(pool, factored=True), generating_function(pool))}"
            "The chance the dice total exactly <i>s</i> is the coefficient of "
            "<i>z</i><sup><i>s</i></sup>; the attack hits when the total is at least the "
            "defense minus the modifier and the essence spent "
            f"{manual_links('(manual p24)')}.</div>")

    def _update_heat(self, _change=None) -> None:
        if _HEAT not in self._opened:
            return
        rules, m, e = self.rules, self.modifier.value, self.essence.value
        rows = [(pool_name(h, l), d, attacks.hit_chance(Pool.attack(h, l), d, rules, m, e))
                for h, l in HEAT_POOLS for d in range(attacks.MAX_ATTRIBUTE + 1)]
        self.sources["heat"].data = {
            "pool": [r[0] for r in rows], "defense": [str(r[1]) for r in rows],
            "p": [float(r[2]) for r in rows], "exact": [exact(r[2]) for r in rows],
            "text": [decimals(r[2]) for r in rows],
            "ink": ["#212121" if r[2] > Fraction(3, 5) else "#ffffff" for r in rows]}

    def _update_blockers(self, _change=None) -> None:
        if _MORE_QUESTIONS not in self._opened:
            return
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
            "<small>" + manual_links("One roll, one total: every blocker whose defense the "
                                     "total reaches is hit (manual p24)") + "</small>")

    def _update_kill(self, _change=None) -> None:
        if _MORE_QUESTIONS not in self._opened:
            return
        try:
            p = attacks.kill_chance(self.pool, self.defense.value, self.health.value,
                                    self.attacks.value, self.rules, self.modifier.value,
                                    self.essence.value)
        except RulesError as exc:
            self.kill.value = _error(exc)
            return
        self.kill.value = (f"Chance to take {self.health.value} health within "
                           f"{self.attacks.value} attack(s), sharing {self.essence.value} "
                           f"essence: <b>{exact(p)}</b><br><small>"
                           f"{manual_links('manual p24 (attack, wounds), p18 (essence)')}</small>")


#: What the spawn and horror chains apply, said under their table.
PROCESS_CITATION = ("Rules: manual p13 (spawn), manual p14 (horror, threat), 3.5 rules (spawn "
                    "phase); the ruling on which spawn phase is played")

#: The quantities :class:`ProcessesView` charts: :class:`~machina_nb.rules.odds.processes.RoundSummary`
#: fields and their titles.
PROCESS_FIELDS: Mapping[str, str] = {
    "spawned": "monsters spawned",
    "invoked": "horror events invoked",
    "threat": "monster threat (position)",
    "level": "monster level",
}

_SIDE_COLOURS = ("#0072B2", "#D55E00")
PROCESSES_TITLE = "Spawn, horror and threat over rounds"
_SPAWN_PHASE = {"v1_0": "the manual's spawn phase", "v3_5": "the 3.5 update's spawn phase"}


class ProcessesView(widgets.VBox):
    """Spawn, horror and threat over N rounds under two rulesets side by side (1.0 vs 3.5).

    With ``folded=True`` (the explorer's Odds tab) it sits closed in ``fold``
    (``proc-fold``) and is built and computed when first opened.

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
                 explorers: int = 2, rounds: int = 5, folded: bool = False, **kwargs):
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
        self.rule_links = RuleLinks()
        self.rule_links.show(PROCESS_CITATION)
        self.sources = {field: ColumnDataSource({"x": [], "left": [], "right": [],
                                                 "left_exact": [], "right_exact": []})
                        for field in PROCESS_FIELDS}
        self.figures = {field: self._figure(field, title) for field, title in
                        PROCESS_FIELDS.items()}
        self.rules = rules or Rules()
        self._shown = not folded
        if folded:  # built and computed when first opened
            self.fold = widgets.Accordion([widgets.VBox()], titles=(PROCESSES_TITLE,),
                                          selected_index=None)
            self.fold.add_class("proc-fold")
            self.fold.observe(self._unfold, "selected_index")
        super().__init__([self.fold] if folded else self._body(), **kwargs)
        for w in (self.rating, self.horror, self.explorers, self.rounds, self.blocking,
                  self.compare):
            w.observe(self.update, "value")
        self.observe(self.update, "rules")

    def _body(self) -> list[widgets.Widget]:
        self.update()  # before the plots are serialised, as in OddsView
        plots = []
        for fig in self.figures.values():
            plot = BokehModel(fig)
            plot.add_class("proc-plot")
            plots.append(board_holder(plot, fig, "plot-holder"))
        return [widgets.HTML(f"<h3>{PROCESSES_TITLE}</h3>") if not hasattr(self, "fold")
                else widgets.HTML(),
                row([self.rating, self.horror, self.explorers]),
                row([self.rounds, self.blocking, self.compare]),
                self.summary, self.rule_links, widgets.Box(plots, layout=widgets.Layout(
                    display="flex", flex_flow="row wrap"))]

    def _unfold(self, change) -> None:
        if change["new"] is not None and not self._shown:
            self._shown = True
            self.fold.children[0].children = self._body()

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
        return scale_to_width(fig)

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
        """Play the rounds exactly under both rulesets; refill the charts and the summary
        (when folded: once opened)."""
        if not self._shown:
            return
        setup = self.setup()
        results = [processes.play_rounds(setup, rules, self.rounds.value) for rules in self.sides]
        for field in PROCESS_FIELDS:
            left, right = (processes.marginal(r, field) for r in results)
            xs = sorted(cast(set[int], set(left) | set(right)))   # no field here is "never"
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
            means = [_mean(cast(Mapping[int, Fraction], processes.marginal(r, field)))
                     for r in results]
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
                + f"<small>{manual_links(PROCESS_CITATION)}</small>")

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

