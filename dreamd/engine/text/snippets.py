"""Snippet text: whitespace, hashes of claims and queries, and the cut for MEMORY.md entries.

Pure functions; every hash here is part of the on-disk format (``claimHash``, ``queryHashes``)
shared with OpenClaw's recall store, so their definitions must not change.
"""

from __future__ import annotations

from dreamd.engine.text.digests import sha1_hex, sha256_hex
from dreamd.patterns import LazyPattern

__all__ = [
    "MAX_SNIPPET_CHARS",
    "cap",
    "claim_hash",
    "collapse",
    "content_hash",
    "promotion_text",
    "query_hash",
    "strip_list_marker",
]

MAX_SNIPPET_CHARS = 800
_LIST_MARKER = LazyPattern(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?")


def collapse(text: str) -> str:
    """Whitespace runs become one space; ends trimmed."""
    return " ".join(text.split())


def cap(text: str, limit: int = MAX_SNIPPET_CHARS) -> str:
    """Collapse whitespace and cut to ``limit`` characters (the store's snippet rule)."""
    collapsed = collapse(text)
    return collapsed if len(collapsed) <= limit else collapsed[:limit].rstrip()


def _sha1_12(text: str) -> str:
    return sha1_hex(text.encode("utf-8"))[:12]


def claim_hash(snippet: str) -> str:
    """``sha1`` of the lowercased, whitespace-collapsed snippet, first 12 hex digits."""
    return _sha1_12(collapse(snippet).lower())


def openclaw_claim_hash(snippet: str) -> str:
    """OpenClaw 2026.9's claim hash: ``sha1`` of the whitespace-collapsed snippet, case kept,
    first 12 hex digits (the suffix of its claim-keyed recall keys)."""
    return _sha1_12(collapse(snippet))


def query_hash(query: str) -> str:
    """``sha1`` of the lowercased, trimmed query, first 12 hex digits."""
    return _sha1_12(query.strip().lower())


def content_hash(data: bytes) -> str:
    """Full sha256 of file content: the compare-and-swap token of the writer."""
    return sha256_hex(data)


def strip_list_marker(text: str) -> str:
    """Drop one leading ``-``/``*``/``+``/``1.`` list marker (and a task box)."""
    return _LIST_MARKER.sub("", text, count=1)


def promotion_text(snippet: str, max_chars: int) -> str:
    """The text of a MEMORY.md entry: no list marker, at most ``max_chars`` characters.

    A long snippet is cut at the last sentence end in the final 45 % of the budget, else at the
    last space in the final 35 %, else hard; ``...`` marks the cut (and counts in the budget).
    """
    text = collapse(strip_list_marker(collapse(snippet)))
    if len(text) <= max_chars:
        return text
    room = max(1, max_chars - 3)
    head = text[:room]
    sentence = max(head.rfind(". "), head.rfind("! "), head.rfind("? "))
    if sentence >= int(room * 0.55):
        return head[: sentence + 1] + "..."
    space = head.rfind(" ")
    if space >= int(room * 0.65):
        return head[:space].rstrip() + "..."
    return head.rstrip() + "..."
