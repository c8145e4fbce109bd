"""A situation as a link: the app's address with the situation file in its query.

:func:`situation_link` writes ``BASE?situation=CODE``, where CODE is the situation file's
text (UTF-8), compressed with zlib and written in base64url without padding (letters,
digits, ``-`` and ``_``: nothing a forum or a chat breaks). :func:`situation_from_link`
reads it back and checks it as any situation file is checked; the app opens a page whose
address carries one on its Analysis board, and ``machina link FILE`` prints one.

Documented limits, refused in one line naming ``link`` (nothing is loaded):

* :data:`MAX_LINK`: the code is at most 16,384 characters (16 KiB), which every browser
  and server in use passes;
* :data:`MAX_TEXT`: the situation text inflates to at most 262,144 bytes (256 KiB). It is
  inflated in steps that stop at the limit, so a small code that would inflate to far more
  (a "zip bomb") never takes more memory than that.

A code that is not base64url, not zlib data, cut short or followed by anything, text that is
not UTF-8, and a situation the loader refuses (its line and column given) are refused too.

A situation that names cards of the player's card files (``--cards DIR``, ``MACHINA_CARDS``,
the app's card folder) carries them: :func:`carried_text` writes every card of those files into
the linked text as ``[cards.*]`` tables, so the link opens the same situation with the same
cards where the folder is not (all of them, not only those the file names: an own event joins
the core deck of a ``setup`` question unnamed). :func:`without_carried` is the folder's cards
less those a link carries, to load a link beside the same folder.

>>> from machina_nb.rules.content import content_root
>>> text = (content_root() / "situations" / "sight_corner.toml").read_text(encoding="utf-8")
>>> link = situation_link(text, "http://127.0.0.1:8866/")
>>> link.startswith("http://127.0.0.1:8866/?situation=")
True
>>> situation_from_link(link) == text
True
>>> situation_from_link("?situation=not*base64")
Traceback (most recent call last):
...
machina_nb.rules.errors.RulesError: link: the situation code is not base64url (letters, digits, - and _ only)
"""

from __future__ import annotations

import base64
import re
import zlib
from urllib.parse import parse_qs

from machina_nb.rules.analysis.draft import table_lines
from machina_nb.rules.analysis.own_cards import NO_CARDS, OwnCards
from machina_nb.rules.analysis.situation import situation_from_text
from machina_nb.rules.errors import ContentError, RulesError

__all__ = ["situation_link", "situation_from_link", "link_code", "carried_text",
           "without_carried", "MAX_LINK", "MAX_TEXT", "DEFAULT_BASE", "PARAMETER"]

MAX_LINK = 16 * 1024
"""The most characters the situation code of a link may have (a documented limit)."""
MAX_TEXT = 256 * 1024
"""The most bytes a link's situation text may inflate to (a documented limit)."""
DEFAULT_BASE = "http://127.0.0.1:8866/"
"""The app's address as ``make app`` serves it."""
PARAMETER = "situation"
"""The name of the query parameter that carries the situation."""
_CODE = re.compile(r"^[A-Za-z0-9_-]*$")
_STEP = 64 * 1024   # inflate this much at a time


def carried_text(text: str, cards: OwnCards = NO_CARDS) -> str:
    """The situation file ``text`` with every card of the player's card files among ``cards``
    written into it as ``[cards.<kind>.<id>]`` tables (the text itself if there are none)."""
    files = cards.from_files()
    if not files.cards:
        return text
    lines = ["", "# The cards of the player's card files, carried so that the link opens with "
                 "them."]
    for card in files.cards:
        lines += table_lines(f"cards.{card.kind}.{card.id}", card.table)
    return text.rstrip("\n") + "\n" + "\n".join(lines) + "\n"


def without_carried(cards: OwnCards, text: str) -> OwnCards:
    """``cards`` less those the situation ``text`` types itself (a link's carried cards), so
    that the text loads beside the card files it was linked from."""
    own = situation_from_text(text, "link").cards.typed_here()
    typed = {(c.kind, c.id) for c in own.cards}
    return OwnCards(tuple(c for c in cards.cards if (c.kind, c.id) not in typed))


def link_code(text: str, name: str = "text", cards: OwnCards = NO_CARDS) -> str:
    """The code of a situation file's text in a link (checked first, knowing ``cards``, the
    player's card files; errors name ``name``), carrying the cards of those files."""
    cards = cards.from_files()        # the cards typed into the text are in it already
    situation_from_text(text, name, cards)
    text = carried_text(text, cards)
    situation_from_text(text, name)
    data = text.encode("utf-8")
    if len(data) > MAX_TEXT:
        raise RulesError(name, f"the situation is {len(data):,} bytes; a link holds at most "
                         f"{MAX_TEXT:,}")
    code = base64.urlsafe_b64encode(zlib.compress(data, 9)).decode("ascii").rstrip("=")
    if len(code) > MAX_LINK:
        raise RulesError(name, f"the situation is too large for a link: its code would be "
                         f"{len(code):,} characters, at most {MAX_LINK:,}")
    return code


def situation_link(text: str, base_url: str = DEFAULT_BASE, name: str = "text",
                   cards: OwnCards = NO_CARDS) -> str:
    """``base_url`` with ``?situation=`` and the code of the situation file ``text``, carrying
    the cards of the player's card files among ``cards`` (:func:`carried_text`).

    The text is checked as a situation file first (a ContentError names ``name`` with line
    and column); a situation too large for a link is refused naming ``name``.
    """
    if not isinstance(base_url, str) or not base_url.strip() or "#" in base_url \
            or any(c.isspace() for c in base_url):
        raise RulesError("base_url", f"expected the app's address, e.g. {DEFAULT_BASE}, got "
                         f"{base_url!r:.80}")
    joiner = "&" if "?" in base_url else "?"
    return f"{base_url}{joiner}{PARAMETER}={link_code(text, name, cards)}"


def _code_of(url_or_query: str) -> str:
    if not isinstance(url_or_query, str):
        raise RulesError("link", f"expected a link or its query, got {type(url_or_query).__name__}")
    query = url_or_query.strip().partition("#")[0]
    if "?" in query:
        query = query.partition("?")[2]
    if len(query) > MAX_LINK + 4096:
        raise RulesError("link", f"the link is {len(query):,} characters long; its situation "
                         f"code may have at most {MAX_LINK:,}")
    codes = parse_qs(query, keep_blank_values=True).get(PARAMETER, [])
    if len(codes) != 1:
        raise RulesError("link", f"expected one {PARAMETER}= in the link, found {len(codes)}")
    return codes[0]


def _inflate(data: bytes) -> bytes:
    """zlib data inflated to at most :data:`MAX_TEXT` bytes, never more in memory."""
    inflater = zlib.decompressobj()
    out = bytearray()
    try:
        while not inflater.eof and len(out) <= MAX_TEXT:
            chunk = inflater.decompress(data, _STEP)
            data = inflater.unconsumed_tail
            if not chunk and not data:
                break
            out += chunk
    except zlib.error:
        raise RulesError("link", "the situation code is not zlib-compressed data") from None
    if len(out) > MAX_TEXT:
        raise RulesError("link", f"the situation would inflate past {MAX_TEXT:,} bytes, "
                         "the most a link may hold")
    if not inflater.eof:
        raise RulesError("link", "the situation code is cut short (its compressed data ends "
                         "early)")
    if inflater.unused_data:
        raise RulesError("link", "the situation code goes on after its compressed data")
    return bytes(out)


def situation_from_link(url_or_query: str) -> str:
    """The situation file text a link carries, checked as any situation file is.

    ``url_or_query`` is the whole link, or its query (``?situation=...`` or
    ``situation=...&...``). Every refusal is a :class:`RulesError` naming ``link`` (module
    docstring); nothing is returned then.
    """
    code = _code_of(url_or_query)
    if len(code) > MAX_LINK:
        raise RulesError("link", f"the situation code is {len(code):,} characters long; at "
                         f"most {MAX_LINK:,}")
    if not code:
        raise RulesError("link", f"the link's {PARAMETER}= is empty")
    if not _CODE.match(code) or len(code) % 4 == 1:
        raise RulesError("link", "the situation code is not base64url (letters, digits, - "
                         "and _ only)")
    data = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
    try:
        text = _inflate(data).decode("utf-8")
    except UnicodeDecodeError:
        raise RulesError("link", "the situation text is not UTF-8") from None
    try:
        situation_from_text(text, "link")
    except ContentError as exc:
        raise RulesError("link", f"the situation is refused at line {exc.line}, column "
                         f"{exc.col}: {exc.message}") from None
    except RulesError as exc:
        raise RulesError("link", f"the situation is refused: {exc}") from None
    return text
