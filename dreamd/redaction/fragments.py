"""Keys in a link's fragment: what comes after ``#`` never reaches the server, so services that
encrypt what they share put the key there, and whoever has the link reads the file.

``https://mega.nz/file/…#<key>``, a PrivateBin paste's ``?…#<key>``, Excalidraw's
``#json=<id>,<key>``, a Bitwarden Send's ``#<id>/<key>``, an OAuth implicit grant's
``#access_token=…``: the last piece of the fragment (after ``#``, ``=``, ``,``, ``/`` or ``!``)
is masked when it looks random: sixteen characters or more of letters, digits, ``-`` and
``_``, one stretch of twelve or more between them holding upper and lower case and a digit (a
heading's anchor, ``#Regular-Expression-Syntax2``, is words). The link itself stays. Pure.
"""

from __future__ import annotations

from dreamd.patterns import LazyPattern
from dreamd.redaction.finding import Finding

__all__ = ["find_fragment_keys"]

_FRAGMENT = LazyPattern(r"https?://[^\s#]+#(?P<fragment>[^\s\"'<>)\]]+)")
_PIECE = LazyPattern(r"[A-Za-z0-9_-]{16,}")
_SEPARATORS = "#=,/!&"


def _random(piece: str) -> bool:
    return any(
        len(part) >= 12
        and any(c.isupper() for c in part)
        and any(c.islower() for c in part)
        and any(c.isdigit() for c in part)
        for part in piece.replace("_", "-").split("-")
    )


def find_fragment_keys(text: str) -> list[Finding]:
    """The random last piece of each link's fragment (see the module rules)."""
    found = []
    for link in _FRAGMENT.finditer(text):
        start, end = link.span("fragment")
        while end > start and text[end - 1] in ".,;:":
            end -= 1
        cut = max(text.rfind(c, start, end) for c in _SEPARATORS)
        at = max(start, cut + 1)
        piece = _PIECE.fullmatch(text, at, end)
        if piece is not None and _random(piece.group(0)):
            found.append(Finding("secret-assignment", at, end))
    return found
