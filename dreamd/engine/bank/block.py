"""The managed block of a bank page, and how a person's edits inside it are kept.

A bank page is a ``# Title`` line, anything a person writes, and one managed block::

    # Peter

    <!-- dreamd:bank:begin -->
    Peter: 3 facts ... ^summary

    - Prefers concise replies on WhatsApp. ... ^f-1a2b3c4d5e
    <!-- dreamd:bank:end -->

Rules:

- Text outside the block is the person's and is kept byte for byte. A page without a block gets
  one appended after its text; a page whose block has no end marker is left alone (and said so).
- Every line dreamd writes in the block ends with its key (``^summary``, a fact id ``^f-…`` or an
  opinion id ``^o-…``). The ledger (:mod:`dreamd.engine.bank.ledger`) keeps the digest of the
  body as written and the hash of every line dreamd wrote, so an edit is detected (the digest
  differs) and located (a line whose hash dreamd never wrote is the person's).
- :func:`merge` plans the new body around the person's lines: a line dreamd wrote and nobody
  touched is replaced by its new version (or dropped when its fact is gone); a keyed line the
  person changed is kept as they left it, in place of dreamd's new version; a line they added is
  kept after the same keyed line it followed; a keyed line they deleted stays deleted. Nothing a
  person wrote inside the block is ever overwritten.

The markers and the key rule are the bank's by default; the truth files
(:mod:`dreamd.engine.truth`) pass their own and keep a person's edits by the same rules.

Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from dreamd.engine.text.digests import sha1_hex, sha256_hex
from dreamd.patterns import LazyPattern
from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Final

__all__ = [
    "BEGIN",
    "END",
    "Line",
    "Merged",
    "PageParts",
    "body_digest",
    "compose_page",
    "key_of",
    "line_hash",
    "merge",
    "split_page",
]

BEGIN = "<!-- dreamd:bank:begin -->"
END = "<!-- dreamd:bank:end -->"
_KEY = LazyPattern(r"\s\^(summary|[fo]-[0-9a-f]{10})\s*$")


class Line(Value):
    """One line dreamd plans for a block; ``key`` is None for a blank separator."""

    __match_args__ = ("key", "text")
    __slots__ = __match_args__
    key: Final[str | None]
    text: Final[str]

    def __init__(self, key: str | None, text: str) -> None:
        self.key = key
        self.text = text


def line_hash(text: str) -> str:
    """The hash the ledger keeps of a line dreamd wrote."""
    return sha1_hex(text.encode("utf-8"))[:12]


def body_digest(lines: Sequence[str]) -> str:
    """The digest of a block body (its lines between the markers)."""
    return sha256_hex("\n".join(lines).encode("utf-8"))[:16]


def key_of(text: str) -> str | None:
    """The ``^key`` a block line ends with, if any."""
    found = _KEY.search(text)
    return found.group(1) if found else None


class PageParts(Value):
    """A page split around its block: ``body`` None when it has none; ``broken`` when the
    block has no end marker."""

    __match_args__ = ("head", "body", "tail", "broken")
    __slots__ = __match_args__
    head: Final[tuple[str, ...]]
    body: Final[tuple[str, ...] | None]
    tail: Final[tuple[str, ...]]
    broken: Final[bool]

    def __init__(
        self,
        head: tuple[str, ...],
        body: tuple[str, ...] | None,
        tail: tuple[str, ...],
        broken: bool = False,
    ) -> None:
        self.head = head
        self.body = body
        self.tail = tail
        self.broken = broken


def split_page(text: str, *, begin_marker: str = BEGIN, end_marker: str = END) -> PageParts:
    """``text`` split into the lines before the block, the body, and the lines after it."""
    lines = text.split("\n")
    begin = next((i for i, line in enumerate(lines) if line.strip() == begin_marker), None)
    if begin is None:
        return PageParts(tuple(lines), None, ())
    end = next((i for i in range(begin + 1, len(lines)) if lines[i].strip() == end_marker), None)
    if end is None:
        return PageParts(tuple(lines), None, (), broken=True)
    return PageParts(tuple(lines[:begin]), tuple(lines[begin + 1 : end]), tuple(lines[end + 1 :]))


def compose_page(
    title: str,
    current: str | None,
    body: Sequence[str],
    *,
    begin_marker: str = BEGIN,
    end_marker: str = END,
) -> str:
    """The page text with ``body`` in its block (a new page when ``current`` is None)."""
    block = "\n".join([begin_marker, *body, end_marker])
    if current is None:
        return f"# {title}\n\n{block}\n"
    parts = split_page(current, begin_marker=begin_marker, end_marker=end_marker)
    if parts.body is None:
        glue = "" if current.endswith("\n") or not current else "\n"
        return f"{current}{glue}\n{block}\n"
    return "\n".join([*parts.head, block, *parts.tail])


class Merged(Value):
    """The body to write, the hashes of the lines dreamd wrote in it, and the keys it placed."""

    __match_args__ = ("body", "owned", "keys", "kept")
    __slots__ = __match_args__
    body: Final[tuple[str, ...]]
    owned: Final[frozenset[str]]
    keys: Final[frozenset[str]]
    kept: Final[int]  # lines of the person's kept

    def __init__(
        self,
        body: tuple[str, ...],
        owned: frozenset[str],
        keys: frozenset[str],
        kept: int,
    ) -> None:
        self.body = body
        self.owned = owned
        self.keys = keys
        self.kept = kept


def merge(
    current: Sequence[str] | None,
    fresh: Sequence[Line],
    *,
    owned: frozenset[str] = frozenset(),
    placed: frozenset[str] = frozenset(),
    keyed: Callable[[str], str | None] = key_of,
) -> Merged:
    """The new body: ``fresh`` planned around the person's lines of ``current``.

    ``owned`` holds the hashes of the lines dreamd wrote last time, ``placed`` the keys it ever
    placed on this page, ``keyed`` reads a line's key (see the module rules).
    """
    edited: dict[str, str] = {}
    after: dict[str | None, list[str]] = {}
    present: set[str] = set()
    anchor: str | None = None
    for text in current or ():
        key = keyed(text)
        mine = line_hash(text) in owned
        if key is not None:
            present.add(key)
            if not mine:
                edited[key] = text
            anchor = key
        elif not mine:
            after.setdefault(anchor, []).append(text)
    body: list[str] = list(after.pop(None, ()))
    written: set[str] = set()
    keys: set[str] = set(placed)
    kept = sum(len(lines) for lines in after.values()) + len(body) + len(edited)
    for line in fresh:
        key = line.key
        if key is not None and key in edited:
            body.append(edited.pop(key))
        elif key is not None and key in placed and key not in present:
            continue  # the person deleted it: it stays deleted
        else:
            body.append(line.text)
            written.add(line_hash(line.text))
            if key is not None:
                keys.add(key)
        if key is not None:
            body.extend(after.pop(key, ()))
    for key, text in edited.items():  # their fact is gone, their words are not
        body.append(text)
        body.extend(after.pop(key, ()))
    for lines in after.values():
        body.extend(lines)
    return Merged(tuple(body), frozenset(written), frozenset(keys), kept)
