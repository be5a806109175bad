"""MEMORY.md read as entries: each line that states something, with its promotion key if any.

An entry is a non-empty line outside code fences that is not a heading or a comment. A line
directly after a promotion marker (``<!-- dreamd-memory-promotion:KEY -->`` or OpenClaw's) is
that promotion's entry and carries its key; every other entry line is a person's (``key`` is
``None``). An entry's ``text`` is what it claims: the list marker, the ``[score=… source=…]``
metadata, a consolidated entry's ``Source: path#Lx-Ly``, a promoted entry's short source and
what it replaces (``(2026-11-20.md#L4; replaces: …)``) and HTML comments are taken off.

Promotion keys come in the forms OpenClaw has written, and :class:`PromotedKeys` recognises them
all so nothing is promoted twice: ``memory:<path>:<start>:<end>`` (the base key), the same with
a claim-hash suffix (``…:<end>:<12 hex>``), and ``memory:claim:<12 hex>`` (2026.9's light phase).
A row is already promoted when a marker has its key, its base key with no or the same claim
hash, or one of its claim hashes.

Also here: which lines a dreaming write produced (:func:`generated_lines`), so an undo can tell
a person's text from dreaming's own. Pure string functions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dreamd.engine.text.blocks import LINEAGE_MARKER, PROMOTION_MARKER
from dreamd.engine.text.snippets import collapse, strip_list_marker

__all__ = [
    "SOURCE_LABEL",
    "MemoryEntry",
    "PromotedKeys",
    "claim_of",
    "generated_lines",
    "memory_entries",
    "promoted_identities",
    "split_key",
]

_FENCE = re.compile(r"^\s*(```|~~~)")
_COMMENT = re.compile(r"<!--.*?-->")
_METADATA = re.compile(r"\s*\[score=[^\]]*\]")
# An entry's visible source label, "(2026-11-20.md#L4)" or "(chat 2026-11-20#L7; replaces: …)":
# group 1 is the source; what it replaced may hold brackets of its own.
SOURCE_LABEL = re.compile(
    r"\s\(((?:chat \d{4}-\d{2}-\d{2}|[^()\s]+)#L\d+(?:-L\d+)?)(?:; replaces: .*)?\)\s*$"
)
_SOURCE = re.compile(r"\s*Source:\s*\S+#L\d+-L\d+|" + SOURCE_LABEL.pattern)
_SECTION = re.compile(
    r"^(?:## (?:Promoted From Short-Term Memory|Consolidated Memory) \(\d{4}-\d{2}-\d{2}\)"
    r"|### (?:Project: .+|Global)|# Long-Term Memory)\s*$"
)
_MARKER_ONLY = re.compile(
    r"^\s*(?:<!--\s*(?:dreamd|openclaw)-memory-(?:promotion|lineage):.+?-->\s*)+$"
)


_CLAIM_SUFFIX = re.compile(r"^(memory:.+:\d+:\d+):([0-9a-f]{12})$")
_CLAIM_KEY = re.compile(r"^memory:claim:([0-9a-f]{12})$")


def split_key(key: str) -> tuple[str, str | None]:
    """A recall key as (base key, claim hash or None); a ``memory:claim:`` key is its own base."""
    found = _CLAIM_SUFFIX.match(key)
    if found:
        return found.group(1), found.group(2)
    claim = _CLAIM_KEY.match(key)
    return key, claim.group(1) if claim else None


@dataclass(frozen=True)
class PromotedKeys:
    """The promotion markers of a MEMORY.md, in every form (see the module rules)."""

    keys: frozenset[str]
    bases: dict[str, frozenset[str | None]]  # base key -> the claim hashes it was seen with
    claims: frozenset[str]

    def covers(self, key: str, claims: tuple[str, ...] = ()) -> bool:
        """True when a marker already stands for the row with ``key`` and ``claims``."""
        if key in self.keys:
            return True
        base, claim = split_key(key)
        seen = self.bases.get(base)
        if seen is not None and (claim is None or None in seen or claim in seen):
            return True
        wanted = {c for c in (claim, *claims) if c}
        return bool(wanted & self.claims)


def promoted_identities(keys: frozenset[str]) -> PromotedKeys:
    """:class:`PromotedKeys` of the marker keys found in a MEMORY.md."""
    bases: dict[str, set[str | None]] = {}
    claims: set[str] = set()
    for key in keys:
        base, claim = split_key(key)
        if claim:
            claims.add(claim)
        if not key.startswith("memory:claim:"):
            bases.setdefault(base, set()).add(claim)
    frozen = {base: frozenset(found) for base, found in bases.items()}
    return PromotedKeys(frozenset(keys), frozen, frozenset(claims))


@dataclass(frozen=True, slots=True)
class MemoryEntry:
    """One entry line of MEMORY.md (``line`` 1-based) and the claim it makes."""

    line: int
    raw: str
    text: str
    key: str | None  # the promotion marker's key; None for a person's line

    @property
    def generated(self) -> bool:
        """True when a promotion (dreamd's or OpenClaw's) wrote this line."""
        return self.key is not None


def claim_of(line: str) -> str:
    """The claim an entry line makes, without list marker, metadata, sources and comments."""
    text = _COMMENT.sub(" ", line)
    text = _SOURCE.sub(" ", _METADATA.sub(" ", text))
    return collapse(strip_list_marker(collapse(text)))


def _is_entry(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith(("#", "<!--", "-->"))


def memory_entries(text: str) -> list[MemoryEntry]:
    """Every entry of ``text`` in file order (see the module rules)."""
    entries: list[MemoryEntry] = []
    pending: str | None = None
    fenced = False
    for number, line in enumerate(text.splitlines(), start=1):
        if _FENCE.match(line):
            fenced, pending = not fenced, None
            continue
        if fenced:
            continue
        marker = PROMOTION_MARKER.search(line)
        if marker and _MARKER_ONLY.match(line):
            pending = marker.group(1).strip()
            continue
        if LINEAGE_MARKER.search(line) and _MARKER_ONLY.match(line):
            continue
        if not line.strip():
            continue
        if _is_entry(line):
            claim = claim_of(line)
            if claim:
                entries.append(MemoryEntry(number, line, claim, pending))
        pending = None
    return entries


def generated_lines(text: str) -> frozenset[int]:
    """Line numbers (1-based) a dreaming write produced: markers, their entries, headings.

    Blank lines count as generated (they carry nothing a person would miss); a person's entry,
    heading or note does not.
    """
    lines = text.splitlines()
    found: set[int] = set()
    keyed = {entry.line for entry in memory_entries(text) if entry.generated}
    for number, line in enumerate(lines, start=1):
        if number in keyed or not line.strip() or _SECTION.match(line) or _MARKER_ONLY.match(line):
            found.add(number)
    return frozenset(found)
