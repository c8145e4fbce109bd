"""Plots that fit the window: a bokeh figure at its full size where there is room, scaled down
to the width there is on a narrow window (a tablet, a phone), never drawn over what is beside
it and never pushing the page wider than the window.

A figure that scales has ``sizing_mode="scale_width"`` with its full ``width`` and ``height``
(:func:`scale_to_width` turns a fixed-size chart into one; the board figures are made so).
Its ``BokehModel`` then needs a box with a width to scale within: :func:`board_holder` makes
it, :func:`fit_holder` sizes it again when the figure's size changes.
"""

from __future__ import annotations

import ipywidgets as widgets
from jupyter_bokeh.widgets import BokehModel

__all__ = ["scale_to_width", "fit_holder", "board_holder", "row"]


def scale_to_width(figure):
    """Let a chart of a fixed ``width`` and ``height`` shrink with a narrow window, keeping its
    shape and never growing past its width; returns the figure."""
    figure.update(sizing_mode="scale_width", max_width=figure.width)
    return figure


def fit_holder(holder: widgets.Box, figure) -> None:
    """Size the box of a plot to ``figure``: its full width where the window has room, the
    box's own room where it has not (a figure that scales shrinks with it, taps still landing
    where they were aimed); a figure of a fixed size keeps it."""
    scales = figure.sizing_mode == "scale_width"
    holder.layout.width = f"{figure.width}px" if scales else None
    holder.layout.max_width = "100%"


def board_holder(plot: BokehModel, figure, css: str = "board-holder") -> widgets.Box:
    """``plot`` (the widget showing ``figure``) in a box of its own sized by :func:`fit_holder`,
    with the CSS class ``css``."""
    plot.layout.width = "100%"
    holder = widgets.Box([plot], layout=widgets.Layout(min_width="0", flex="0 1 auto",
                                                       overflow="hidden"))
    holder.add_class(css)
    fit_holder(holder, figure)
    return holder


def row(children) -> widgets.Box:
    """Widgets side by side where the window is wide enough, wrapping onto the next line where
    it is not (an ``HBox`` would cut them off at the window's edge)."""
    return widgets.Box(list(children), layout=widgets.Layout(display="flex", flex_flow="row wrap",
                                                             align_items="center"))
