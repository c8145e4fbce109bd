"""Notebook views: ipywidgets + bokeh over the rules core; no rule logic here.

Every view calls :func:`setup_notebook` before it shows a bokeh plot, so BokehJS
reaches the browser inline (the app runs offline: a CDN is unreachable, and a
``BokehModel`` shown without ``output_notebook`` stays blank).
"""

from __future__ import annotations

__all__ = ["setup_notebook"]

_loaded = False


def setup_notebook() -> None:
    """Load BokehJS inline into the notebook page, once per kernel.

    Calls ``bokeh.io.output_notebook(resources=INLINE, hide_banner=True)`` the
    first time only: the inline bundle is about a megabyte of cell output.
    """
    global _loaded
    if _loaded:
        return
    from bokeh.io import output_notebook
    from bokeh.resources import INLINE

    output_notebook(resources=INLINE, hide_banner=True)
    _loaded = True
