"""The situation editor of the analysis board: paint spaces, set borders, place units, undo.

The editor holds a :class:`machina_nb.rules.analysis.draft.Draft` (a situation being
built, as a value) and changes it only through the draft's edit functions, which refuse
an illegal edit with one line and change nothing. The board is the Board tab's drawing
(:class:`machina_nb.views.board.BoardView`), redrawn from the draft after each edit.

A click on the board does what the picked tool does: paint the space's kind, set the
border nearest to the click (wall, open, closed or destroyed door), place the picked unit
card, move a unit (click it, then where it goes), remove a unit, or ask about the unit or
space clicked (``picked``, which the analysis tab answers).

Rules: manual p11 (the map grid), p18 (unit values), p22 (walls, doors, one unit per
space), p35-37 (space kinds).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import replace
from typing import cast

import ipywidgets as widgets
import traitlets

from machina_nb.rules.analysis.catalog import unit_cards
from machina_nb.rules.analysis.draft import (
    BORDER_KINDS,
    SPACE_KINDS,
    VALUE_KEYS,
    Draft,
    DraftUnit,
    draft_of_example,
    draft_of_situation,
    draft_of_tile,
    empty_draft,
    move,
    paint,
    place,
    remove,
    set_border,
    set_held,
    set_items,
    set_values,
    to_situation,
    value_limits,
)
from machina_nb.rules.analysis.own_cards import NO_CARDS
from machina_nb.rules.analysis.situation import MAX_SIDE, load_situations
from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.maptext import BorderKind, Point
from machina_nb.rules.board.tiles import load_tiles
from machina_nb.rules.cards.examples import load_example
from machina_nb.rules.cards.units import unit_card
from machina_nb.rules.content import content_root
from machina_nb.rules.errors import ContentError, RulesError
from machina_nb.views.board import (
    BoardView,
    Highlights,
    highlight_data,
    legend_html,
    redraw_board,
    space_name,
)
from machina_nb.views.reference import manual_links

__all__ = ["TOOLS", "BORDER_WORDS", "SituationEditor", "draft_board", "unit_names",
           "border_near", "start_options", "draft_from_start", "replace_title"]

_WIDE = {"description_width": "initial"}  # a label never cut short

#: The editor's tools: what a click on the board does.
TOOLS = (("space kind", "paint"), ("border", "border"), ("place unit", "place"),
         ("move unit", "move"), ("remove unit", "remove"), ("ask about", "ask"),
         ("danger", "danger"))

#: The borders a click can set, in words.
BORDER_WORDS = {BorderKind.OPEN: "no wall (open)", BorderKind.WALL: "wall",
                BorderKind.DOOR_OPEN: "open door", BorderKind.DOOR_CLOSED: "closed door",
                BorderKind.DOOR_DESTROYED: "destroyed door"}


def draft_board(draft: Draft) -> Board:
    """The draft's board with each unit standing on its space under its letter."""
    board = Board.from_layout(draft.layout)
    return board.with_units((u.position, u.letter) for u in draft.units)


def unit_names(draft: Draft) -> dict[str, str]:
    """Each unit's letter -> its name and side, e.g. ``{"S": "Sarall (monster)"}``."""
    cards = draft.cards.units()
    return {u.letter: f"{cards[u.card].name} ({cards[u.card].kind})" for u in draft.units}


def border_near(draft: Draft, x: float, y: float) -> tuple[Point, Point] | None:
    """The two spaces either side of the border nearest to the board point ``(x, y)``;
    None when that border is on the board's outer ring."""
    point = (int(x // 1), int(y // 1))
    fx, fy = x - point[0], y - point[1]
    sides = {(-1, 0): fx, (1, 0): 1 - fx, (0, -1): fy, (0, 1): 1 - fy}
    dx, dy = min(sides, key=sides.__getitem__)
    other = (point[0] + dx, point[1] + dy)
    inside = 0 <= other[0] < draft.layout.width and 0 <= other[1] < draft.layout.height
    return (point, other) if inside else None


def start_options() -> list[tuple[str, str]]:
    """What a board may start from: empty, each tile side, each situation, each worked example."""
    options = [("an empty board (size below)", "empty")]
    options += [(f"tile side {s.key}: {s.name}", f"tile:{s.key}")
                for t in sorted(load_tiles().values(), key=lambda t: t.id) for s in t.sides]
    options += [(f"situation: {s.title}", f"situation:{sid}")
                for sid, s in sorted(load_situations().items())]
    options += [(f"worked example: {load_example(p).title}", f"example:{p.stem}")
                for p in sorted((content_root() / "examples").glob("*.toml"))]
    return options


def draft_from_start(key: str, width: int = 8, height: int = 6) -> Draft:
    """The draft a start option gives (:func:`start_options`)."""
    kind, _, name = key.partition(":")
    if kind == "empty":
        return empty_draft(width, height)
    if kind == "tile":
        return draft_of_tile(name)
    if kind == "situation":
        return draft_of_situation(load_situations()[name])
    if kind == "example":
        return draft_of_example(load_example(content_root() / "examples" / f"{name}.toml"))
    raise RulesError("key", f"unknown start \"{key}\"")


def _kind_words(kind) -> str:
    return kind.name.lower().replace("_", " ")


def _card_options(draft: Draft | None = None) -> list[tuple[str, str]]:
    """The unit cards to place: the shipped ones and the draft's own cards."""
    cards = draft.cards.units() if draft is not None else unit_cards()
    return sorted(((f"{c.name} ({c.kind})", cid) for cid, c in cards.items()),
                  key=lambda o: (cards[o[1]].kind, o[0]))


class SituationEditor(widgets.VBox):
    """Build a situation on a board: start, tools, the board, a unit's values, undo and redo.

    ``draft`` is the situation being built (observe it); ``picked`` is the unit letter or
    space last clicked with the *ask about* tool. :meth:`set_draft` replaces the draft as
    one undoable step; :meth:`show` marks spaces on the board. CSS classes for tests:
    ``analysis-start``, ``analysis-start-go``, ``analysis-tool``, ``analysis-space-kind``,
    ``analysis-border-kind``, ``analysis-card``, ``analysis-undo``, ``analysis-redo``,
    ``analysis-message``, ``analysis-unit``, ``analysis-value-<key>``, ``analysis-items``;
    the board is a :class:`BoardView` with prefix ``analysis-board``.
    """

    draft = traitlets.Instance(Draft)
    picked = traitlets.Any(None, allow_none=True)

    def __init__(self, draft: Draft):
        self.library = NO_CARDS      # the player's card files, kept across starts
        self.on_danger: Callable[[Point | None], None] = lambda point: None
        self._undo: list[Draft] = []
        self._redo: list[Draft] = []
        self._moving: str | None = None
        self._controls()
        self._size = f"{draft.layout.width}x{draft.layout.height}"
        self.view = BoardView({self._size: draft_board(draft)}, controls=False,
                              css="analysis-board", names=unit_names(draft), on_click=self.click)
        self.view.title.value = "<b>Pick a tool, then click the board.</b>"
        self.view.verdict.value = ""
        super().__init__([self._start_row(), self._tool_row(), self.message,
                          widgets.Box([self.view, self._values_box()],
                                      layout=widgets.Layout(display="flex",
                                                            flex_flow="row wrap",
                                                            grid_gap="8px 16px"))], draft=draft)
        self.add_class("analysis-editor")
        self._show_values()

    # --- widgets ------------------------------------------------------------------------------

    def _controls(self) -> None:
        self.start = widgets.Dropdown(options=start_options(), description="Start from",
                                      style=_WIDE,
                                      layout=widgets.Layout(width="520px", max_width="100%"))
        self.width = widgets.BoundedIntText(value=8, min=1, max=MAX_SIDE, description="Width",
                                            layout=widgets.Layout(width="150px"))
        self.height = widgets.BoundedIntText(value=6, min=1, max=MAX_SIDE,
                                             description="Height",
                                             layout=widgets.Layout(width="150px"))
        self.start_button = widgets.Button(description="start", button_style="info")
        self.tool = widgets.ToggleButtons(options=TOOLS, value="ask", description="Tool")
        self.space_kind = widgets.Dropdown(
            options=[(f"{_kind_words(k)} ({k.value})", k) for k in SPACE_KINDS],
            description="Space", style=_WIDE, layout=widgets.Layout(width="240px"))
        self.border_kind = widgets.Dropdown(options=[(BORDER_WORDS[k], k) for k in BORDER_KINDS],
                                            value=BorderKind.WALL, description="Border",
                                            style=_WIDE,
                                            layout=widgets.Layout(width="240px"))
        self.card = widgets.Dropdown(options=_card_options(), description="Unit", style=_WIDE,
                                     layout=widgets.Layout(width="280px"))
        self.undo_button = widgets.Button(description="undo", icon="undo")
        self.redo_button = widgets.Button(description="redo", icon="repeat")
        self.message = widgets.HTML("Pick a tool, then click the board.")
        for widget, css in ((self.start, "start"), (self.start_button, "start-go"),
                            (self.width, "width"), (self.height, "height"),
                            (self.tool, "tool"), (self.space_kind, "space-kind"),
                            (self.border_kind, "border-kind"), (self.card, "card"),
                            (self.undo_button, "undo"), (self.redo_button, "redo"),
                            (self.message, "message")):
            widget.add_class(f"analysis-{css}")
        self.start_button.on_click(lambda _: self.start_from(self.start.value))
        self.undo_button.on_click(lambda _: self.undo())
        self.redo_button.on_click(lambda _: self.redo())
        self.tool.observe(self._tool_changed, "value")

    def _start_row(self) -> widgets.Widget:
        return widgets.Box([self.start, self.width, self.height, self.start_button],
                           layout=widgets.Layout(display="flex", flex_flow="row wrap"))

    def _tool_row(self) -> widgets.Widget:
        self.tool_options = widgets.HBox()
        self._tool_changed()
        return widgets.VBox([self.tool, widgets.Box(
            [self.tool_options, self.undo_button, self.redo_button],
            layout=widgets.Layout(display="flex", flex_flow="row wrap"))])

    def _values_box(self) -> widgets.Widget:
        self.unit = widgets.Dropdown(description="Values of", style=_WIDE,
                                     layout=widgets.Layout(width="260px"))
        self.unit.add_class("analysis-unit")
        self.values = {}
        for key in VALUE_KEYS:
            box = widgets.BoundedIntText(description=key, min=0, max=9,
                                         layout=widgets.Layout(width="180px"))
            box.add_class(f"analysis-value-{key}")
            box.observe(lambda change, k=key: self._value_changed(k, change["new"]), "value")
            self.values[key] = box
        self.items = widgets.SelectMultiple(description="Items", rows=6,
                                            layout=widgets.Layout(width="260px"))
        self.items.add_class("analysis-items")
        self.items.observe(self._items_changed, "value")
        self.unit.observe(lambda _: self._show_values(), "value")
        self._quiet = False
        note = widgets.HTML("<small>" + manual_links(
            "Values as they stand now (manual p18); items are equipped as main items, in "
            "order; below them, the rest of an explorer's inventory (manual p31).") + "</small>")
        self.values_box = widgets.VBox([self.unit, *self.values.values(), self.items, note,
                                        self._held_box()],
                                       layout=widgets.Layout(max_width="300px"))
        return self.values_box

    def _held_box(self) -> widgets.Widget:
        """The rest of an explorer's inventory: unequipped cards, consumables, attached cards
        (manual p31)."""
        self.unequipped = widgets.SelectMultiple(description="Unequipped", rows=4,
                                                 layout=widgets.Layout(width="260px"))
        self.consumables = widgets.SelectMultiple(description="Consumables", rows=3,
                                                  style=_WIDE,
                                                  layout=widgets.Layout(width="260px"))
        self.attach_card = widgets.Dropdown(description="Attach", style=_WIDE,
                                            layout=widgets.Layout(width="260px"))
        self.attach_how = widgets.Dropdown(options=[("as its upgrade", "upgrades"),
                                                    ("as its augment", "augments")],
                                           layout=widgets.Layout(width="140px"))
        self.attach_host = widgets.Dropdown(description="to", layout=widgets.Layout(
            width="260px"))
        attach = widgets.Button(description="attach", layout=widgets.Layout(width="80px"))
        detach = widgets.Button(description="detach all", layout=widgets.Layout(width="100px"))
        self.attached = widgets.HTML()
        for widget, css in ((self.unequipped, "unequipped"), (self.consumables, "consumables"),
                            (self.attach_card, "attach-card"), (self.attach_how, "attach-how"),
                            (self.attach_host, "attach-host"), (attach, "attach"),
                            (detach, "detach"), (self.attached, "attached")):
            widget.add_class(f"analysis-{css}")
        for box in (self.unequipped, self.consumables):
            box.observe(lambda _: self._held_changed(), "value")
        attach.on_click(lambda _: self._held_changed(attach=True))
        detach.on_click(lambda _: self._held_changed(detach=True))
        self.held_box = widgets.VBox([self.unequipped, self.consumables, self.attach_card,
                                      widgets.HBox([self.attach_how, attach]), self.attach_host,
                                      widgets.HBox([detach]), self.attached])
        return self.held_box

    def _held_changed(self, attach: bool = False, detach: bool = False) -> None:
        """The explorer's unequipped cards and consumables as picked; attach the picked card to
        the picked host, or detach every attached card (manual p31-32)."""
        if self._quiet or not self.unit.value:
            return
        unit = self.draft.unit(self.unit.value)
        held = replace(unit.held, unequipped=tuple(self.unequipped.value),
                       consumables=tuple(self.consumables.value))
        if detach:
            held = replace(held, upgrades=(), augments=())
        if attach and self.attach_card.value and self.attach_host.value:
            how = self.attach_how.value
            pair = (self.attach_card.value, self.attach_host.value)
            held = replace(held, **{how: getattr(held, how) + (pair,)})
        try:
            self._edit(set_held(self.draft, unit.letter, held),
                       f"{unit.letter} holds {len(held.cards()) + len(unit.items)} item(s).")
        except RulesError as exc:
            self.say(str(exc).split(": ", 1)[-1], error=True)

    def _tool_changed(self, _change=None) -> None:
        shown = {"paint": (self.space_kind,), "border": (self.border_kind,),
                 "place": (self.card,)}.get(self.tool.value, ())
        self.tool_options.children = shown
        self._moving = None
        hints = {"paint": "Click a space to give it the picked kind.",
                 "border": "Click near a side of a space to set that border.",
                 "place": "Click a free space to place the picked unit.",
                 "move": "Click a unit, then the space it moves to.",
                 "remove": "Click a unit to remove it.",
                 "ask": "Click a unit or a space: every question about it is answered next to the board.",
                 "danger": "Click an explorer, then a space it can end its move on."}
        self.say(hints[self.tool.value])
        self.on_danger(None)

    def say(self, text: str, error: bool = False) -> None:
        """Show one line above the board (an error in red)."""
        colour = "#b00020" if error else "#333"
        self.message.value = f"<span style='color:{colour}'>{html.escape(text)}</span>"

    # --- edits ----------------------------------------------------------------------------------

    def start_from(self, key: str) -> None:
        """Replace the board by a start option's (:func:`start_options`); undoable."""
        try:
            draft = draft_from_start(key, self.width.value, self.height.value)
        except RulesError as exc:
            self.say(str(exc), error=True)
            return
        if self.library.cards:
            draft = replace(draft, cards=self.library.joined(draft.cards.typed_here()))
        self.picked = None
        self.set_draft(draft, f"Started from {dict((v, k) for k, v in self.start.options)[key]}.")

    def set_draft(self, draft: Draft, note: str = "") -> None:
        """Make ``draft`` the situation being built (one undoable step)."""
        if draft == self.draft:
            return
        self._undo.append(self.draft)
        self._redo.clear()
        self._apply(draft)
        if note:
            self.say(note)

    def _edit(self, draft: Draft, note: str) -> None:
        """One edit of the board, kept only if the strict loader reads its file (items that do
        not fit together are refused here); an edited board no longer claims which rulings
        it shows."""
        try:
            to_situation(draft)
        except ContentError as exc:
            self.say(exc.message, error=True)
            self._show_values()
            return
        self.set_draft(replace(draft, shows=()), note)

    def _apply(self, draft: Draft) -> None:
        if self.picked is not None and not _still_there(draft, self.picked):
            self.picked = None
        board = draft_board(draft)
        size = f"{draft.layout.width}x{draft.layout.height}"
        self.view.names = unit_names(draft)
        if size != self._size:   # a board of another size: a plot of its own, sized to it
            self._size = size
            self.view.show_board(size, board)
            self.view.verdict.value = ""
        else:
            redraw_board(self.view.figure, self.view.sources, board)
            self.view.board = board
        self.show(Highlights(title="The board"))
        options = _card_options(draft)
        if list(self.card.options) != options:
            self.card.options = options
        self.draft = draft          # the tab observes this and marks its answers
        self._show_values()

    def undo(self) -> None:
        """Go back one edit (redo goes forward again)."""
        self._step(self._undo, self._redo, "undo", "Undone.")

    def redo(self) -> None:
        """Redo the last undone edit."""
        self._step(self._redo, self._undo, "redo", "Redone.")

    def _step(self, back: list[Draft], forth: list[Draft], what: str, done: str) -> None:
        if not back:
            self.say(f"Nothing to {what}.")
            return
        forth.append(self.draft)
        self._apply(back.pop())
        self.say(done)

    def click(self, point: Point) -> None:
        """A click on space ``point`` with the picked tool (the border tool also reads where in
        the space the click fell: ``view.last_tap``)."""
        handler: Callable[[Point], None] = getattr(self, f"_{self.tool.value}")
        try:
            handler(point)
        except RulesError as exc:
            self.say(str(exc).split(": ", 1)[-1], error=True)

    def _paint(self, point: Point) -> None:
        kind = self.space_kind.value
        self._edit(paint(self.draft, point, kind),
                       f"{space_name(point)} is now {_kind_words(kind)}.")

    def _border(self, point: Point) -> None:
        x, y = self.view.last_tap or (point[0] + 0.5, point[1] + 0.5)
        pair = border_near(self.draft, x, y)
        if pair is None:
            self.say("That is the board's outer edge: it stays as it is.", error=True)
            return
        kind = self.border_kind.value
        self._edit(set_border(self.draft, *pair, kind),
                       f"Between {space_name(pair[0])} and {space_name(pair[1])}: "
                       f"{BORDER_WORDS[kind]}.")

    def _place(self, point: Point) -> None:
        draft = place(self.draft, self.card.value, point)
        letter = draft.units[-1].letter
        self._edit(draft, f"{unit_names(draft)[letter]} placed on {space_name(point)} as "
                              f"{letter}.")
        self.unit.value = letter

    def _move(self, point: Point) -> None:
        who = self.draft.unit_at(point)
        if self._moving is None:
            if who is None:
                self.say(f"No unit on {space_name(point)}: click a unit first.", error=True)
                return
            self._moving = who.letter
            self.show(Highlights(((point, "selected"),), title=f"Moving {who.letter}"))
            self.say(f"Click the space {who.letter} moves to.")
            return
        letter, self._moving = self._moving, None
        self._edit(move(self.draft, letter, point), f"{letter} moved to {space_name(point)}.")

    def _remove(self, point: Point) -> None:
        who = self.draft.unit_at(point)
        if who is None:
            self.say(f"No unit on {space_name(point)}.", error=True)
            return
        self._edit(remove(self.draft, who.letter), f"{who.letter} removed.")

    def _danger(self, point: Point) -> None:
        self.on_danger(point)

    def _ask(self, point: Point) -> None:
        who = self.draft.unit_at(point)
        self.picked = who.letter if who else point

    # --- a unit's values --------------------------------------------------------------------

    def _show_values(self) -> None:
        letters = [(f"{u.letter}: {unit_names(self.draft)[u.letter]}", u.letter)
                   for u in self.draft.units]
        self._quiet = True
        try:
            current = self.unit.value
            self.unit.options = letters
            if letters:
                self.unit.value = current if current in [v for _, v in letters] else \
                    letters[0][1]
            unit = self.draft.unit(self.unit.value) if letters else None
            self.values_box.layout.display = None if unit else "none"
            for key, box in self.values.items():
                if unit is not None:
                    low, high = value_limits(unit.card, self.draft.cards)[key]
                    box.min, box.max = low, high
                    box.value = unit.value(key)
            explorer = unit is not None and \
                unit_card(self.draft.cards.units()[unit.card]).side == "explorer"
            self.items.disabled = not explorer
            self._item_options()
            self.items.value = cast(DraftUnit, unit).items if explorer else ()
            self._show_held(cast(DraftUnit, unit) if explorer else None)
        finally:
            self._quiet = False

    def _item_options(self) -> None:
        """The item cards to pick from: the shipped ones and the draft's own."""
        cards = self.draft.cards.items()
        every = sorted((c.name, cid) for cid, c in cards.items())
        if list(self.items.options) != every:
            self.items.options = every
            self.unequipped.options = every
            self.consumables.options = [o for o in every if cards[o[1]].type == "consumable"]
            self.attach_card.options = self.attach_host.options = [("-", "")] + every

    def _show_held(self, unit: DraftUnit | None) -> None:
        self.held_box.layout.display = None if unit else "none"
        if unit is None:
            return
        self.unequipped.value = unit.held.unequipped
        self.consumables.value = unit.held.consumables
        names = self.draft.cards.items()
        pairs = [(c, h, "upgrade") for c, h in unit.held.upgrades] + \
            [(c, h, "augment") for c, h in unit.held.augments]
        self.attached.value = "<small>" + ("; ".join(
            f"{html.escape(names[c].name)}: the {how} of {html.escape(names[h].name)}"
            for c, h, how in pairs) or "nothing attached") + "</small>"

    def _value_changed(self, key: str, value: int) -> None:
        if self._quiet or not self.unit.value:
            return
        try:
            self._edit(set_values(self.draft, self.unit.value, **{key: value}),
                           f"{self.unit.value}'s {key} is now {value}.")
        except RulesError as exc:
            self.say(str(exc).split(": ", 1)[-1], error=True)

    def _items_changed(self, change) -> None:
        if self._quiet or not self.unit.value:
            return
        try:
            self._edit(set_items(self.draft, self.unit.value, change["new"]),
                           f"{self.unit.value} holds {len(change['new'])} item(s).")
        except RulesError as exc:
            self.say(str(exc).split(": ", 1)[-1], error=True)

    # --- marks ----------------------------------------------------------------------------------

    def show(self, highlights: Highlights) -> None:
        """Mark ``highlights`` on the board (an answer's spaces), with its title and legend."""
        for name, data in highlight_data(highlights).items():
            self.view.sources[name].data = data
        self.view.title.value = f"<b>{html.escape(highlights.title or 'The board')}</b>"
        self.view.legend.value = legend_html(self.view.sources, self.view.names)


def _still_there(draft: Draft, picked) -> bool:
    if isinstance(picked, str):
        return any(u.letter == picked for u in draft.units)
    return 0 <= picked[0] < draft.layout.width and 0 <= picked[1] < draft.layout.height


def replace_title(draft: Draft, title: str) -> Draft:
    """The draft with ``title`` (and an id made of its words, for the file name)."""
    words = "".join(c if c.isalnum() else "_" for c in title.lower()).strip("_")
    ident = "_".join(w for w in words.split("_") if w)[:40] or "my_situation"
    ident = ident if ident[0].isalpha() else f"s_{ident}"
    return replace(draft, title=title or draft.title, id=ident)
