"""What indexing a file cost most to work out, kept by digest so a rebuild does not redo it.

Redaction and the graph fragment were three quarters of an index build. ``note_cache`` (one row
per file, :mod:`dreamd.recall.schema`) keeps, with the digest of the bytes they came from:

- the redacted text under the rules named (``NULL`` when redaction changed nothing, the common
  case, so the cache holds no second copy of the notes);
- the digest of that redacted text, and the fragment built from it (its node, edge and episode
  rows as JSON);
- the file's chunk rows, made from that redacted text (:mod:`dreamd.recall.chunkrows`).

A file whose digest and rules match is not redacted again; a fragment and chunk rows are reused
when the redacted text is the same (new rules that change nothing in a note keep its fragment). A
rebuild keeps the cache, so ``memory index --rebuild`` and an index rebuilt under new redaction
rules redo only what changed; a file that is gone loses its row. Everything here is derived
and rebuildable: a row that does not decode is simply not used.
"""

from __future__ import annotations

import json
import sqlite3

from dreamd.recall.schema import NOTE_CACHE
from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Final

__all__ = ["Cached", "FragmentRows", "decode_fragment", "encode_fragment", "forget", "load", "save"]

FragmentRows = tuple[list[tuple[object, ...]], list[tuple[object, ...]], list[tuple[object, ...]]]


class Cached(Value):
    """One file's cache row."""

    __match_args__ = ("digest", "rules", "redacted", "clean", "fragment", "chunks")
    __slots__ = __match_args__
    digest: Final[str]
    rules: Final[str]
    redacted: Final[str | None]
    clean: Final[str]
    fragment: Final[str | None]
    chunks: Final[str | None]

    def __init__(
        self,
        digest: str,
        rules: str,
        redacted: str | None,
        clean: str,
        fragment: str | None,
        chunks: str | None,
    ) -> None:
        self.digest = digest
        self.rules = rules
        self.redacted = redacted
        self.clean = clean
        self.fragment = fragment
        self.chunks = chunks


def load(conn: sqlite3.Connection, path: str) -> Cached | None:
    """``path``'s row, if it has one."""
    row = conn.execute(
        f"SELECT digest, rules, redacted, clean, fragment, chunks FROM {NOTE_CACHE} WHERE path = ?",  # noqa: S608 - a fixed name
        (path,),
    ).fetchone()
    return None if row is None else Cached(*row)


def save(conn: sqlite3.Connection, path: str, cached: Cached) -> None:
    """Replace ``path``'s row."""
    conn.execute(
        f"INSERT OR REPLACE INTO {NOTE_CACHE}(path, digest, rules, redacted, clean, fragment,"  # noqa: S608 - a fixed name
        " chunks) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            path,
            cached.digest,
            cached.rules,
            cached.redacted,
            cached.clean,
            cached.fragment,
            cached.chunks,
        ),
    )


def forget(conn: sqlite3.Connection, path: str) -> None:
    """Drop ``path``'s row (the file is gone)."""
    conn.execute(f"DELETE FROM {NOTE_CACHE} WHERE path = ?", (path,))  # noqa: S608 - a fixed name


def encode_fragment(rows: FragmentRows) -> str:
    """A fragment's rows as JSON."""
    return json.dumps(rows, ensure_ascii=False, separators=(",", ":"))


def decode_fragment(text: str | None) -> FragmentRows | None:
    """The rows :func:`encode_fragment` wrote, or ``None`` (absent or unreadable)."""
    if text is None:
        return None
    try:
        nodes, edges, episodes = json.loads(text)
        return (
            [tuple(row) for row in nodes],
            [tuple(row) for row in edges],
            [tuple(row) for row in episodes],
        )
    except (ValueError, TypeError):
        return None
