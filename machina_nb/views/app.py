"""The explorer app composed of every view (served by Voila from notebooks/explorer.ipynb)."""

from __future__ import annotations

import ipywidgets as widgets
from bokeh.io import output_notebook
from bokeh.resources import INLINE

from machina_nb.rules.rulings import PRESETS, Rules


def explorer() -> widgets.Widget:
    """The whole explorer as one widget."""
    output_notebook(resources=INLINE, hide_banner=True)
    preset = widgets.Dropdown(options=list(PRESETS), value="manual", description="Rules")
    summary = widgets.HTML()

    def show(_=None):
        summary.value = f"<pre>{Rules.preset(preset.value).summary()}</pre>"

    preset.observe(show, "value")
    show()
    return widgets.VBox([widgets.HTML("<h2>Machina Arcana rules explorer</h2>"), preset, summary])
