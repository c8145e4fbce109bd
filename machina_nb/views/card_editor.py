"""The card editor of the analysis board: type a unit card from your box, see it in plain
words as you build it, its problems at the field, and save it into the situation.

The editor holds a :class:`machina_nb.rules.analysis.card_draft.CardDraft` and rebuilds it
from its fields on every change; the words and the problems come from the rules
(:func:`card_words`, :func:`card_problems`). Abilities are built from the vocabulary: kind and
trigger, cost, targeting icon and range, and effects (op, whom it lands on, numbers) added in
printed order. **save the card** hands the card to ``on_save`` (the analysis board puts it
into its draft). A folder of card files (``MACHINA_CARDS`` by default) is the other setting.

Rules: manual p18 (unit cards), p20-27 (abilities).
"""

from __future__ import annotations

import html
import os
from collections.abc import Callable
from dataclasses import replace

import ipywidgets as widgets

from machina_nb.rules.analysis.card_draft import (
    AbilityDraft,
    CardDraft,
    EffectDraft,
    card_draft_of,
    card_problems,
    card_words,
)
from machina_nb.rules.analysis.own_cards import OwnCards
from machina_nb.rules.cards.abilities import (
    ABILITY_KINDS,
    EFFECT_OPS,
    SCOPES,
    TARGETING_KINDS,
    TRIGGERS,
)
from machina_nb.rules.cards.units import ATTRIBUTES, EXPLORER_CLASSES, MONSTER_LEVELS

__all__ = ["CardEditor", "FOLDER_VARIABLE"]

FOLDER_VARIABLE = "MACHINA_CARDS"
"""The environment variable whose folder of card files the editor starts with."""

_WIDE = {"description_width": "initial"}
_ERROR = "color:#b00020"


def _row(children: list[widgets.Widget]) -> widgets.Box:
    """Widgets side by side, wrapping onto the next line on a narrow window."""
    return widgets.Box(children, layout=widgets.Layout(display="flex", flex_flow="row wrap",
                                                       max_width="100%"))


def _words(name: str) -> str:
    return name.replace("_", " ")


class CardEditor(widgets.VBox):
    """Type a unit card; ``card`` is the card as its fields stand, ``problems`` its problems.

    ``on_save(card)`` saves it and returns what to say (an error raises ``RulesError``);
    ``on_folder(path)`` uses a folder of card files. CSS classes for tests: ``card-id``,
    ``card-name``, ``card-kind``, ``card-class``, ``card-level``, ``card-<attribute>``,
    ``card-ability``, ``card-new-ability``, ``card-add-ability``, ``card-ability-kind``,
    ``card-trigger``, ``card-cost-stamina``, ``card-cost-essence``, ``card-target``,
    ``card-range``,
    ``card-op``, ``card-scope``, ``card-amount``, ``card-high``, ``card-low``, ``card-arcane``,
    ``card-add-effect``, ``card-drop-effect``, ``card-words``, ``card-error-<field>``,
    ``card-save``, ``card-message``, ``card-folder``, ``card-folder-go``, ``card-typed``.
    """

    def __init__(self, on_save: Callable[[CardDraft], str],
                 on_folder: Callable[[str], str] | None = None):
        self.on_save, self.on_folder = on_save, on_folder
        self.library = self.cards = OwnCards()
        self.abilities: list[AbilityDraft] = []
        self._quiet = False
        self.errors: dict[str, widgets.HTML] = {}
        super().__init__([self._folder_row(), self._card_box(), self._ability_box(),
                          self._words_box()])
        self.add_class("card-editor")
        self.refresh()

    # --- widgets ----------------------------------------------------------------------------

    def _tag(self, widget: widgets.Widget, css: str) -> widgets.Widget:
        widget.add_class(f"card-{css}")
        if hasattr(widget, "value") and not isinstance(widget, (widgets.HTML, widgets.Button)):
            widget.observe(lambda _: self.refresh(), "value")
        return widget

    def _error(self, field: str) -> widgets.HTML:
        self.errors[field] = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.errors[field].add_class(f"card-error-{field.replace(' ', '-')}")
        return self.errors[field]

    def _folder_row(self) -> widgets.Widget:
        self.folder = widgets.Text(value=os.environ.get(FOLDER_VARIABLE, ""),
                                   description="Your card files (folder)", style=_WIDE,
                                   layout=widgets.Layout(width="420px", max_width="100%"))
        self.folder.add_class("card-folder")
        self.folder_go = widgets.Button(description="use these cards")
        self.folder_go.add_class("card-folder-go")
        self.folder_go.on_click(lambda _: self.use_folder(self.folder.value))
        self.typed = widgets.Dropdown(description="Edit a card of the situation", style=_WIDE,
                                      options=[("-", "")],
                                      layout=widgets.Layout(width="360px", max_width="100%"))
        self.typed.add_class("card-typed")
        self.typed.observe(lambda change: self.edit_card(change["new"]), "value")
        return widgets.VBox([_row([self.folder, self.folder_go]), self.typed])

    def set_cards(self, cards: OwnCards) -> None:
        """The own unit cards typed into the situation, to pick one and edit it again."""
        self.cards = cards
        options = [("-", "")] + [(c.card.name, c.id) for c in cards.typed_here().cards
                                 if c.kind == "unit"]
        if list(self.typed.options) != options:
            self._quiet = True
            self.typed.options = options
            self.typed.value = ""
            self._quiet = False

    def edit_card(self, card_id: str) -> None:
        """Fill the fields with the situation's card ``card_id`` (typed here)."""
        if self._quiet or not card_id:
            return
        typed = next(c for c in self.cards.cards if c.id == card_id and c.kind == "unit")
        try:
            card = card_draft_of(card_id, typed.table)
        except ValueError as exc:
            self.message.value = f"<span style='{_ERROR}'>" \
                f"{html.escape(str(exc).split(': ', 1)[-1])}</span>"
            return
        self._quiet = True
        try:
            self.id.value, self.name.value, self.kind.value = card.id, card.name, card.kind
            self.unit_class.value, self.level.value = card.unit_class, card.level
            for name, box in self.stats.items():
                box.value = card.stat(name)
            self.immobile.value, self.ethereal.value = card.immobile, card.ethereal
            self.abilities = list(card.abilities)
            self.ability.options = [a.name for a in self.abilities]
            self.ability.value = self.abilities[0].name if self.abilities else None
        finally:
            self._quiet = False
        self.message.value = html.escape(f"Editing {card.name}: save it to replace it.")
        self.refresh()

    def _card_box(self) -> widgets.Widget:
        text = widgets.Layout(width="220px")
        self.id = self._tag(widgets.Text(value="my_monster", description="Id", layout=text), "id")
        self.name = self._tag(widgets.Text(value="My monster", description="Name", layout=text),
                              "name")
        self.kind = self._tag(widgets.Dropdown(options=["monster", "explorer"],
                                               description="Side", layout=text), "kind")
        self.unit_class = self._tag(widgets.Dropdown(options=EXPLORER_CLASSES,
                                                     description="Class", layout=text), "class")
        self.level = self._tag(widgets.Dropdown(options=MONSTER_LEVELS, description="Level",
                                                layout=text), "level")
        self.stats = {name: self._tag(widgets.IntText(value=0 if name == "essence" else 2,
                                                      description=name,
                                                      layout=widgets.Layout(width="150px")),
                                      name) for name in ATTRIBUTES}
        self.immobile = self._tag(widgets.Checkbox(description="immobile"), "immobile")
        self.ethereal = self._tag(widgets.Checkbox(description="ethereal"), "ethereal")
        rows = [_row([self.id, self._error("id")]),
                _row([self.name, self._error("name")]),
                _row([self.kind, self.unit_class, self.level])]
        rows += [_row([box, self._error(name)]) for name, box in self.stats.items()]
        rows.append(_row([self.immobile, self.ethereal, self._error("card")]))
        return widgets.VBox(rows)

    def _ability_box(self) -> widgets.Widget:
        small = widgets.Layout(width="170px")
        self.ability = self._tag(widgets.Dropdown(description="Ability", options=[],
                                                  layout=widgets.Layout(width="260px")),
                                 "ability")
        self.new_ability = widgets.Text(placeholder="new ability's name (e.g. gnaw)",
                                        layout=widgets.Layout(width="240px"))
        self.new_ability.add_class("card-new-ability")
        add = widgets.Button(description="add ability")
        add.add_class("card-add-ability")
        add.on_click(lambda _: self.add_ability(self.new_ability.value))
        self.ability_kind = self._tag(widgets.Dropdown(options=ABILITY_KINDS,
                                                       description="Kind", layout=small),
                                      "ability-kind")
        self.trigger = self._tag(widgets.Dropdown(options=[("-", "")] + [(_words(t), t)
                                                                         for t in TRIGGERS],
                                                  description="Trigger", layout=small),
                                 "trigger")
        self.stamina = self._tag(widgets.IntText(description="costs stamina", layout=small,
                                                 style=_WIDE), "cost-stamina")
        self.essence = self._tag(widgets.IntText(description="costs essence", layout=small,
                                                 style=_WIDE), "cost-essence")
        self.target = self._tag(widgets.Dropdown(options=[(_words(t), t)
                                                          for t in TARGETING_KINDS],
                                                 description="Target", layout=small), "target")
        self.range = self._tag(widgets.IntText(description="range", layout=small), "range")
        self.op = widgets.Dropdown(options=[(_words(o), o) for o in EFFECT_OPS],
                                   description="Effect", layout=widgets.Layout(width="260px"))
        self.scope = widgets.Dropdown(options=[(_words(s), s) for s in SCOPES],
                                      description="on", layout=widgets.Layout(width="260px"))
        self.amount = widgets.IntText(description="amount", layout=small)
        self.high = widgets.IntText(description="high dice", layout=small)
        self.low = widgets.IntText(description="low dice", layout=small)
        self.arcane = widgets.Checkbox(description="arcane")
        for widget, css in ((self.op, "op"), (self.scope, "scope"), (self.amount, "amount"),
                            (self.high, "high"), (self.low, "low"), (self.arcane, "arcane")):
            widget.add_class(f"card-{css}")
        add_effect = widgets.Button(description="add effect")
        add_effect.add_class("card-add-effect")
        add_effect.on_click(lambda _: self.add_effect())
        drop_effect = widgets.Button(description="remove last effect")
        drop_effect.add_class("card-drop-effect")
        drop_effect.on_click(lambda _: self.drop_effect())
        self.effects_html = widgets.HTML()
        self.ability_fields = widgets.VBox([
            _row([self.ability_kind, self.trigger]),
            _row([self.stamina, self.essence, self.target, self.range]),
            self.effects_html,
            _row([self.op, self.scope]),
            _row([self.amount, self.high, self.low, self.arcane]),
            _row([add_effect, drop_effect])])
        return widgets.VBox([_row([self.ability, self.new_ability, add]),
                             self._error("ability"), self.ability_fields])

    def _words_box(self) -> widgets.Widget:
        self.words = widgets.HTML()
        self.words.add_class("card-words")
        self.save = widgets.Button(description="save the card into the situation",
                                   button_style="info", layout=widgets.Layout(width="auto"))
        self.save.add_class("card-save")
        self.save.on_click(lambda _: self.save_card())
        self.message = widgets.HTML()
        self.message.add_class("card-message")
        return widgets.VBox([self.words, _row([self.save, self.message])])

    # --- the card as its fields stand -----------------------------------------------------------

    @property
    def card(self) -> CardDraft:
        """The card the fields hold now."""
        return CardDraft(self.id.value.strip(), self.name.value.strip(), self.kind.value,
                         self.unit_class.value, self.level.value,
                         tuple((n, box.value) for n, box in self.stats.items()),
                         self.immobile.value, self.ethereal.value, tuple(self.abilities))

    def _current(self) -> int | None:
        names = [a.name for a in self.abilities]
        return names.index(self.ability.value) if self.ability.value in names else None

    def refresh(self) -> None:
        """Read the fields into the card (and the picked ability), then say it and its
        problems, each at its field."""
        if self._quiet:
            return
        at = self._current()
        if at is not None:
            old = self.abilities[at]
            self.abilities[at] = replace(old, kind=self.ability_kind.value,
                                         trigger=self.trigger.value, stamina=self.stamina.value,
                                         essence=self.essence.value, target=self.target.value,
                                         range=self.range.value)
        self._show_ability()
        card = self.card
        self.unit_class.layout.display = None if card.kind == "explorer" else "none"
        self.level.layout.display = "none" if card.kind == "explorer" else None
        self.stats["essence"].layout.display = None if card.kind == "explorer" else "none"
        problems = card_problems(card, self.library)
        for label in self.errors.values():
            label.value = ""
        for field, words in problems:
            where = "ability" if field.startswith("ability") else \
                field if field in self.errors else "card"
            shown = f"{field}: {words}" if where in ("ability", "card") else words
            self.errors[where].value = f"<span style='{_ERROR}'>{html.escape(shown)}</span>"
        self.words.value = "<ul>" + "".join(f"<li>{html.escape(w)}</li>"
                                            for w in card_words(card)) + "</ul>"

    def _show_ability(self) -> None:
        at = self._current()
        self.ability_fields.layout.display = "none" if at is None else None
        if at is None:
            return
        a = self.abilities[at]
        self._quiet = True
        try:
            for box, value in ((self.ability_kind, a.kind), (self.trigger, a.trigger),
                               (self.stamina, a.stamina), (self.essence, a.essence),
                               (self.target, a.target), (self.range, a.range)):
                box.value = value
        finally:
            self._quiet = False
        listed = "".join(f"<li>{html.escape(_words(e.op))} on {html.escape(_words(e.scope))}"
                         f"{self._numbers(e)}</li>" for e in a.effects)
        self.effects_html.value = f"<b>Effects, in order:</b><ol>{listed}</ol>" if listed \
            else "<i>No effect yet: pick one below and add it.</i>"

    @staticmethod
    def _numbers(e: EffectDraft) -> str:
        parts = [f"{k} {getattr(e, k)}" for k in ("amount", "high", "low") if getattr(e, k)]
        parts += ["arcane"] if e.arcane else []
        return f" ({', '.join(parts)})" if parts else ""

    # --- edits ----------------------------------------------------------------------------------

    def add_ability(self, name: str) -> None:
        """A new ability named ``name`` (lower-case words joined by ``_``), picked."""
        slug = "_".join(name.lower().split())
        if not slug or any(a.name == slug for a in self.abilities):
            self.errors["ability"].value = (f"<span style='{_ERROR}'>Give the ability a new "
                                            "name.</span>")
            return
        self.abilities.append(AbilityDraft(slug))
        self._quiet = True
        self.ability.options = [a.name for a in self.abilities]
        self._quiet = False
        self.ability.value = slug
        self.new_ability.value = ""
        self.refresh()

    def add_effect(self) -> None:
        """Add the effect of the effect fields to the picked ability, after its others."""
        at = self._current()
        if at is None:
            return
        effect = EffectDraft(self.op.value, self.scope.value, self.amount.value, self.high.value,
                             self.low.value, self.arcane.value)
        a = self.abilities[at]
        self.abilities[at] = replace(a, effects=a.effects + (effect,))
        self.refresh()

    def drop_effect(self) -> None:
        """Remove the picked ability's last effect."""
        at = self._current()
        if at is not None and self.abilities[at].effects:
            a = self.abilities[at]
            self.abilities[at] = replace(a, effects=a.effects[:-1])
            self.refresh()

    def save_card(self) -> None:
        """Hand the card to ``on_save``; say what it answers, or the problem."""
        try:
            said = self.on_save(self.card)
        except ValueError as exc:
            self.message.value = f"<span style='{_ERROR}'>" \
                f"{html.escape(str(exc).split(': ', 1)[-1])}</span>"
            return
        self.message.value = html.escape(said)

    def use_folder(self, path: str) -> None:
        """Use the card files of the folder ``path`` (``on_folder`` loads them)."""
        if self.on_folder is None:
            return
        try:
            self.message.value = html.escape(self.on_folder(path.strip()))
        except ValueError as exc:
            self.message.value = f"<span style='{_ERROR}'>{html.escape(str(exc))}</span>"
