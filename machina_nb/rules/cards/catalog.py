"""Every kind of content file and its loader: :func:`validate` reads any of them.

Rules: content formats (content/README.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from machina_nb.rules.board.maptext import parse_map
from machina_nb.rules.board.tiles import check_board_size, load_tile
from machina_nb.rules.cards.events import load_chapters, load_events
from machina_nb.rules.cards.examples import load_example
from machina_nb.rules.cards.items import load_items
from machina_nb.rules.cards.units import load_units
from machina_nb.rules.content import did_you_mean, read_text, read_toml, shown
from machina_nb.rules.rulings import rulings_in_file

__all__ = ["LOADERS", "validate"]



LOADERS: dict[str, Callable[[Path], Any]] = {
    "tile": load_tile,
    "units": load_units,
    "items": load_items,
    "events": load_events,
    "chapters": load_chapters,
    "example": load_example,
}
"""Loader per ``kind`` (``rulings`` files are checked by :func:`rulings_in_file`)."""


def validate(path: str | Path) -> Any:
    """Load any content file by its ``kind``; raise :class:`ContentError` if it is bad.

    Rules: content formats (content/README.md): tiles (manual p11), units (p18), items (p30),
    events (p14, p37), chapters (p28), examples (spec §B), rulings (spec §D).
    """
    path = Path(path)
    if path.suffix == ".map":
        return check_board_size(parse_map(read_text(path), str(path), legend={}), str(path))
    toml = read_toml(path)
    kind = toml.data.get("kind")
    if kind == "rulings":
        return rulings_in_file(toml)
    if not isinstance(kind, str) or kind not in LOADERS:
        kinds = sorted([*LOADERS, "rulings"])
        raise toml.error(None, "kind" if "kind" in toml.data else None,
                         f"unknown content kind {shown(kind)}{did_you_mean(kind, kinds)}; "
                         f"expected one of: {', '.join(kinds)}")
    return LOADERS[kind](path)

