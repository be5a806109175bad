"""A token cut into string literals and joined again in code: ``"sk_live_4eC39H" +
"qLyjWDarjtT1zdp7dc"``, ``'ghp_' . 'x7Kq…'``, ``"AKIA" "Q3…"`` (literals set side by side are
one string in C, Python and Go).

The literals of a chain (two or more, joined by ``+``, ``.``, ``&``, ``||`` or nothing but
spaces) are read as the one string they make; when that string is a token (a vendor's shape or
a random string, the judge :mod:`dreamd.redaction` passes in), every literal of the chain is
masked, however little each holds alone. A chain named by a secret's key is
:mod:`dreamd.redaction.keys`'. Pure; standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from dreamd.redaction.finding import Finding

__all__ = ["find_joined_literals"]

_LITERAL = r"(?:\"[^\"\n]{1,200}\"|'[^'\n]{1,200}')"
_JOIN = r"[ \t]*(?:\+|\.|&|\|\|)?[ \t]*"
_CHAIN = re.compile(_LITERAL + r"(?:" + _JOIN + _LITERAL + r")+")
_PIECE = re.compile(_LITERAL)
MIN_TOKEN = 16
# A quote, perhaps an operator, a quote: where two literals meet (one pass before the chains).
_JOINED = re.compile(r"[\"'][ \t]*(?:[+&.]|\|\|)?[ \t]*[\"']")


def find_joined_literals(text: str, is_token: Callable[[str], bool]) -> list[Finding]:
    """Every literal of a chain whose joined string is a token (see the module rules)."""
    if _JOINED.search(text) is None:
        return []
    found: list[Finding] = []
    for chain in _CHAIN.finditer(text):
        pieces = list(_PIECE.finditer(chain.group(0)))
        joined = "".join(piece.group(0)[1:-1] for piece in pieces)
        if len(joined) < MIN_TOKEN or " " in joined or not is_token(joined):
            continue
        start = chain.start()
        found += [
            Finding("secret-assignment", start + p.start() + 1, start + p.end() - 1) for p in pieces
        ]
    return found
