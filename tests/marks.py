"""Text as a reader sees it, with the Rules-tab link marks after manual citations taken out."""

import re

_MARK = re.compile(r" <small class='manual-link'[^>]*>\(Rules: [^<]*\)</small>")


def unmarked(shown: str) -> str:
    """``shown`` (a view's HTML) without the " (Rules: …)" marks that follow its citations."""
    return _MARK.sub("", shown)
