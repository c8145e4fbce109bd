"""Notebook views: ipywidgets + bokeh over the rules core; no rule logic here.

Every view calls :func:`setup_notebook` before it shows a bokeh plot, so BokehJS
reaches the browser inline (the app runs offline: a CDN is unreachable, and a
``BokehModel`` shown without ``output_notebook`` stays blank).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bokeh.resources import Component

__all__ = ["setup_notebook", "BOKEH_COMPONENTS"]

#: The parts of BokehJS the views draw with: the core only (no bokeh widgets, tables, WebGL
#: or MathJax), 1.3 MB instead of 3.9 MB of script in the page.
BOKEH_COMPONENTS: list[Component] = ["bokeh"]

#: The output BokehJS arrives in under Voila (which runs it; the other one is JupyterLab's).
_VOILA_MIME = "application/javascript"

_loaded = False


def setup_notebook() -> None:
    """Load BokehJS inline into the notebook page, once per kernel.

    Runs ``bokeh.io.output_notebook`` with inline resources for :data:`BOKEH_COMPONENTS`
    the first time only. That output carries the script twice (once for the classic
    notebook and Voila, once for JupyterLab's bokeh extension); under Voila only the
    copy Voila runs is sent, so the app's page is a quarter of its former size.
    """
    global _loaded
    if _loaded:
        return
    from bokeh.io import output_notebook
    from bokeh.resources import Resources
    from IPython.display import publish_display_data
    from IPython.utils.capture import capture_output

    with capture_output(stdout=False, stderr=False) as captured:
        output_notebook(Resources(mode="inline", components=BOKEH_COMPONENTS), hide_banner=True)
    in_voila = "VOILA_BASE_URL" in os.environ
    for output in captured.outputs:
        data = output.data
        if in_voila and _VOILA_MIME in data:
            data = {_VOILA_MIME: data[_VOILA_MIME]}
        publish_display_data(data, output.metadata)
    _loaded = True
