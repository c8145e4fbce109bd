"""Sharing from the app: copy buttons, the page's own address, and opening a share link.

* :func:`copy_button`: a button that copies the text of a text box of the same tab to the
  clipboard (the browser's clipboard, or selecting the text and copying it where a page
  served over plain http to another machine has no clipboard access); the box stays as a
  fallback to select and copy by hand.
* :func:`page_base`: the address the page was served at (Voila tells the kernel), so a link
  made in the app opens the same app; the address ``make app`` serves at otherwise.
* :func:`open_shared`: a page opened as ``...?situation=CODE``
  (:mod:`machina_nb.rules.analysis.share`) opens the explorer's Analysis board with that
  situation loaded and its questions answered; a bad link shows one plain line there and
  loads nothing.

**Voila and the query string.** Voila gives a kernel the page request as environment
variables (``QUERY_STRING``, ``SERVER_NAME``, ``SERVER_PORT``, ``SCRIPT_NAME``). A kernel of
the pool ``voila.json`` keeps ready has run the notebook before any page asks for it, so it
learns the request only when it is handed out: :func:`request_query` waits for it there
(Voila's ``wait_for_request``, the notebook's last cell), after the app is built.
"""

from __future__ import annotations

import html
import os
from urllib.parse import parse_qs

import ipywidgets as widgets

from machina_nb.rules.analysis.share import DEFAULT_BASE, PARAMETER

__all__ = ["copy_button", "page_base", "request_query", "open_shared", "ANALYSIS_TITLE"]

ANALYSIS_TITLE = "Analysis board"
"""The title of the explorer's tab that opens a shared situation."""

_COPY_JS = (
    "const box=this.closest('{scope}').querySelector('{selector} textarea');"
    "const label=this.dataset.label;"
    "const said=(w)=>{{this.textContent=w;setTimeout(()=>{{this.textContent=label}},1500)}};"
    "if(!box||!box.value){{said('Nothing to copy yet');return;}}"
    "const byHand=()=>{{box.select();said(document.execCommand('copy')?'Copied':"
    "'Selected: press Ctrl+C')}};"
    "if(navigator.clipboard&&window.isSecureContext){{navigator.clipboard.writeText(box.value)"
    ".then(()=>said('Copied'),byHand)}}else{{byHand()}}")


def copy_button(label: str, selector: str, css: str, scope: str = ".analysis-tab") -> widgets.HTML:
    """A button (an HTML widget: the copying runs in the browser) that copies the text of the
    text box under CSS ``selector`` inside the element ``scope`` holding the button."""
    script = _COPY_JS.format(scope=scope, selector=selector)
    button = widgets.HTML(
        f"<button type='button' class='{html.escape(css)}' data-label='{html.escape(label)}' "
        f"onclick=\"{html.escape(script)}\" style='padding:4px 10px;border:1px solid #888;"
        f"border-radius:3px;background:#f2f2f2;color:#111;cursor:pointer'>"
        f"{html.escape(label)}</button>")
    button.add_class(f"{css}-box")
    return button


def request_query() -> str:
    """The query string of the page request Voila serves this kernel ('' outside Voila).

    A kernel Voila started ahead of any request (``VOILA_PREHEAT``) waits here for it.
    """
    if os.environ.get("VOILA_PREHEAT") == "True" and "QUERY_STRING" not in os.environ:
        # Voila's helper, imported only in a kernel started ahead, while it waits for its page
        from voila.utils import wait_for_request
        wait_for_request()
    return os.environ.get("QUERY_STRING", "")


def page_base() -> str:
    """The address the page was served at (``http://host:port/path``), or
    :data:`~machina_nb.rules.analysis.share.DEFAULT_BASE` outside Voila."""
    host, port = os.environ.get("SERVER_NAME"), os.environ.get("SERVER_PORT", "")
    path = os.environ.get("SCRIPT_NAME", "/") or "/"
    if not host:
        return DEFAULT_BASE
    return f"http://{host}{':' + port if port else ''}{path}"


def open_shared(explorer, query: str | None = None) -> bool:
    """Open the situation of a share link on ``explorer``'s Analysis board.

    ``query`` is the page's query string (default: :func:`request_query`). Without
    ``situation=`` nothing happens (False). With it the Analysis board tab is picked and built,
    and the situation is loaded and answered under the rules it names (True); a bad link leaves
    one plain line on that tab and loads nothing (False).
    """
    query = request_query() if query is None else query
    if PARAMETER not in parse_qs(query.lstrip("?"), keep_blank_values=True):
        return False
    index = list(explorer.tabs.titles).index(ANALYSIS_TITLE)
    explorer.tabs.selected_index = index
    view = explorer.build_tab(index)
    return view.open_link(query)
