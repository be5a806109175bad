"""The recall index: a derived SQLite FTS5 database over a workspace's Markdown.

Rules:

- It lives at ``memory/.dreams/index.sqlite`` and is derived data, always rebuildable from the
  files: a corrupt or foreign-schema database is moved aside to ``index.sqlite.corrupt-<unix ts>``
  (with its ``-wal``/``-shm`` files) and rebuilt, never repaired and never a crash loop.
- Opening it refuses a workspace whose ``memory/``, ``memory/.dreams/`` (or another folder
  dreamd writes) is a symbolic link (:func:`dreamd.layout.check_workspace_folders`): every
  search creates or updates the index, so no search, not even ``--no-record``, goes through it.
- Indexed files (:mod:`dreamd.recall.sources`): the evidence, not what dreamd derives from it.
  ``MEMORY.md``; every ``*.md`` under ``memory/`` except dreamd's reports, topic files,
  patterns, graph exports, dream log and archive, hidden directories (``memory/.dreams/``,
  ``.git``, ...) and ``node_modules``; ``.learnings/*.md``; and
  ``memory/.dreams/session-corpus/*.txt``. A symlink is followed only when it resolves inside the
  workspace (and not into the excluded folders); files over ``MAX_FILE_BYTES``, or of more
  than ``MAX_NOTE_LINES`` lines, are skipped.
  Content is decoded as the workspace reader decodes notes (:mod:`dreamd.engine.text.decoding`:
  UTF-8, stray bytes as cp1252, NULs dropped); a file that is not text is indexed empty.
- Updates are incremental and run in one transaction: a file whose (mtime_ns, size) is unchanged
  is not read; a changed one is re-hashed and re-chunked only when its sha256 differs; files that
  are gone are removed.
- An update first checks the freshness stamp the last walk left (:mod:`dreamd.recall.freshness`:
  the folders' times, the recently modified files, the rules): when it holds, nothing changed
  and the update walks nothing, so a search's cost does not grow with the years of notes. A
  new note changes its folder's time and an edit to a recent note its own: both are seen.
  :meth:`RecallIndex.update` with ``walk=True`` (``memory index``, the sweep) always walks.
- Text is redacted before it is chunked (:func:`dreamd.redaction.redact`, on the whole file,
  lines kept): no secret or personal datum is ever written to the index. A file's redaction,
  graph fragment and chunk rows are kept by digest in the note cache
  (:mod:`dreamd.recall.notecache`), so a rebuild (or new rules that change nothing in a note)
  does not work them out again. The index
  keeps the rules it was redacted under (:func:`dreamd.redaction.rules_fingerprint`); when they
  change (an upgrade, a new detector), the next update rebuilds it, so text the new rules would
  mask leaves the disk, and :attr:`RecallIndex.redaction_current` tells readers that what they read
  needs no second pass.
- Each chunk is stored with its labels (:mod:`dreamd.recall.labels`: speaker, entities, Retain
  kind and confidence, CJK grams). ``chunks_fts`` (:mod:`dreamd.recall.schema`) is kept in sync
  here: per file on an incremental update, rebuilt in one pass when an empty index is filled.
  Each note's part of the inverted-cone graph is kept beside its chunks, the same way
  (:mod:`dreamd.recall.graph`).
  Searching is :mod:`dreamd.recall.search`'s job, through :meth:`RecallIndex.read`.
- A connection is used by one thread at a time (the daemon may hand it to a worker thread,
  hence ``check_same_thread=False``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path
from time import time_ns
from types import TracebackType

from dreamd.errors import StateError
from dreamd.layout import (
    INDEX_FILE,
    MAX_FILE_BYTES,
    MAX_NOTE_LINES,
    MEMORY_FILE,
    MEMORY_FILE_LOWER,
    check_workspace_folders,
    is_short_term_path,
    resolve_inside,
)
from dreamd.recall.analysis import stems
from dreamd.recall.candidates import read_frequency
from dreamd.recall.freshness import HOT_FILES, HOT_NS, Stamp, still_fresh
from dreamd.recall.schema import (
    BUSY_TIMEOUT_MS,
    FTS_ADD,
    FTS_REMOVE,
    NOTE_CACHE,
    SCHEMA_VERSION,
    connect_or_recover,
    is_corrupt,
    reset,
    transaction,
)
from dreamd.recall.sources import CORPUS_DIR, Source, discover_sources
from dreamd.redaction import rules_fingerprint
from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Final, Self, TypeVar

    from dreamd.engine.hits import Hit
    from dreamd.recall.candidates import Filters
    from dreamd.recall.chunkrows import Row
    from dreamd.recall.notecache import FragmentRows

    _T = TypeVar("_T")

# What reading, chunking, labelling and graphing a changed note takes is imported where a note
# changed (:meth:`_Tally.refresh`): a search on an unchanged workspace, a fresh process on every
# agent turn, never loads it.

__all__ = ["SCHEMA_VERSION", "IndexStats", "RecallIndex", "kind_of"]

_DERIVED_WAIT_MS = 20  # how long a reader's cache write waits for another process's write
_INSERT = (
    "INSERT INTO chunks(path, start_line, end_line, heading, speaker, text, grams, day, kind,"
    " confidence, entities) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


class IndexStats(Value):
    """What one update did: files seen, read (hashed), re-chunked and removed; chunk totals."""

    __match_args__ = (
        "scanned",
        "read",
        "changed",
        "removed",
        "chunks_written",
        "chunks",
        "bytes_read",
    )
    __slots__ = __match_args__
    scanned: Final[int]
    read: Final[int]
    changed: Final[int]
    removed: Final[int]
    chunks_written: Final[int]
    chunks: Final[int]
    bytes_read: Final[int]

    def __init__(
        self,
        scanned: int,
        read: int,
        changed: int,
        removed: int,
        chunks_written: int,
        chunks: int,
        bytes_read: int,
    ) -> None:
        self.scanned = scanned
        self.read = read
        self.changed = changed
        self.removed = removed
        self.chunks_written = chunks_written
        self.chunks = chunks
        self.bytes_read = bytes_read


def kind_of(path: str) -> str:
    """``memory``, ``corpus``, ``daily`` or ``note`` for a workspace-relative path."""
    if path in (MEMORY_FILE, MEMORY_FILE_LOWER):
        return "memory"
    if path.startswith(f"{CORPUS_DIR}/"):
        return "corpus"
    return "daily" if is_short_term_path(path) else "note"


class RecallIndex:
    """An open index over one workspace. Use :meth:`open`, then :meth:`update` before searching."""

    def __init__(self, root: Path, db: Path, connection: sqlite3.Connection) -> None:
        self.root = root
        self.db = db
        self._conn = connection
        self._memo = _Memo(-1)
        # True once an update has made every stored chunk redacted under the rules in force:
        # hits read then need no second redaction (redacting twice changes nothing).
        self.redaction_current = False
        # Semantic recall fused into searches, when embeddings are configured and the caller
        # attached it (dreamd.recall.vectors.Semantic); None keeps every search lexical.
        self.semantic: Callable[[str, list[Hit], int, Filters], list[Hit]] | None = None

    @classmethod
    def open(cls, root: Path) -> RecallIndex:
        """Open (creating or recovering as needed) the index of the workspace at ``root``."""
        check_workspace_folders(root)
        db = resolve_inside(root, INDEX_FILE)
        try:
            db.parent.mkdir(parents=True, exist_ok=True)
            return cls(root, db, connect_or_recover(db))
        except (OSError, sqlite3.OperationalError) as exc:
            raise StateError(f"{db}: cannot open the recall index: {exc}") from exc

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection; the index object is unusable afterwards."""
        self._conn.close()

    def update(self, *, walk: bool = False) -> IndexStats:
        """Bring the index up to date with the files, incrementally (see the module rules:
        without ``walk``, a fresh stamp answers without walking)."""
        return self._recovering(lambda: self._sync(rebuild=False, walk=walk), refill=False)

    def rebuild(self) -> IndexStats:
        """Drop every table and index all files from scratch."""
        return self._recovering(lambda: self._sync(rebuild=True), refill=False)

    def read(self, action: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run a read-only ``action`` on the connection (see :mod:`dreamd.recall.search`).

        A corrupt database is replaced, refilled from the files, and ``action`` runs again.
        """
        return self._recovering(lambda: action(self._conn))

    def write_derived(self, action: Callable[[sqlite3.Connection], None]) -> bool:
        """Run ``action`` in a write transaction when no other process holds the database, and
        say whether it ran. For what a reader may add to a cache (see
        :mod:`dreamd.recall.statements`): a turn never waits on another process's write."""
        self._conn.execute(f"PRAGMA busy_timeout = {_DERIVED_WAIT_MS:d}")
        try:
            with transaction(self._conn) as conn:
                action(conn)
        except sqlite3.OperationalError:  # busy or locked: another process is writing
            return False
        finally:
            self._conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
        return True

    def chunk_count(self) -> int:
        """The number of indexed chunks (cached until the database changes)."""
        memo = self._current()
        if memo.count is None:
            memo.count = int(self._conn.execute("SELECT count(*) FROM chunks").fetchone()[0])
        return memo.count

    def speakers(self) -> dict[str, int]:
        """How many chunks each stem of a speaker label labels (cached until a change)."""
        memo = self._current()
        if memo.speakers is None:
            counts: dict[str, int] = {}
            rows = self.read(
                lambda conn: conn.execute(
                    "SELECT speaker, count(*) FROM chunks WHERE speaker != '' GROUP BY speaker"
                ).fetchall()
            )
            for speaker, number in rows:
                for word in set(stems(speaker)):
                    counts[word] = counts.get(word, 0) + int(number)
            memo.speakers = counts
        return memo.speakers

    def frequencies(self, terms: Iterable[str]) -> dict[str, int]:
        """How many chunks hold each stemmed term (cached until a change)."""
        memo = self._current()
        missing = [term for term in terms if term not in memo.frequency]
        if missing:
            memo.frequency.update(self.read(lambda conn: read_frequency(conn, missing)))
        return {term: memo.frequency[term] for term in terms}

    def _current(self) -> _Memo:
        """The cache for the database as it is now (PRAGMA data_version sees other writers)."""
        version = int(self._conn.execute("PRAGMA data_version").fetchone()[0])
        if self._memo.version != version:
            self._memo = _Memo(version)
        return self._memo

    def _recovering(self, action: Callable[[], _T], *, refill: bool = True) -> _T:
        """Run ``action``; if the database turns out corrupt, replace it and run it again."""
        try:
            return action()
        except sqlite3.DatabaseError as exc:
            if not is_corrupt(exc):
                raise
        self._conn.close()
        self._conn = connect_or_recover(self.db, force=True)
        self._memo = _Memo(-1)
        if refill:
            self._sync(rebuild=False)
        return action()

    def _fresh(self, rules: str) -> IndexStats | None:
        """The last walk's totals when its stamp still holds, else ``None``."""
        meta = dict(
            self._conn.execute("SELECT key, value FROM meta WHERE key IN ('fresh', 'redaction')")
        )
        stamp = Stamp.decode(meta["fresh"]) if "fresh" in meta else None
        if meta.get("redaction") != rules:  # the text stored was redacted under other rules
            return None
        if stamp is None or not still_fresh(stamp, rules=rules, now_ns=time_ns()):
            return None
        self.redaction_current = True
        version = int(self._conn.execute("PRAGMA data_version").fetchone()[0])
        self._memo = _Memo(version, count=stamp.chunks)  # no count(*) over years of chunks
        return IndexStats(stamp.files, 0, 0, 0, 0, stamp.chunks, 0)

    def _sync(self, *, rebuild: bool, walk: bool = True) -> IndexStats:
        rules = rules_fingerprint()
        if not rebuild and not walk:
            fresh = self._fresh(rules)
            if fresh is not None:
                return fresh
        walked_ns = time_ns()
        folders: dict[str, int] = {}
        found = discover_sources(self.root, folders)
        self._memo = _Memo(-1)
        with transaction(self._conn) as conn:
            stored = conn.execute("SELECT value FROM meta WHERE key = 'redaction'").fetchone()
            if rebuild or stored is None or stored[0] != rules:
                reset(conn, keep_cache=True)  # redacted again, whole (the cache knows the rules)
                conn.execute("INSERT INTO meta(key, value) VALUES ('redaction', ?)", (rules,))
            # Filling an empty index, FTS5 is built once at the end: much faster than per file.
            empty = conn.execute("SELECT 1 FROM chunks LIMIT 1").fetchone() is None
            tally = _Tally(bulk=empty, rules=rules)
            rows = conn.execute("SELECT path, mtime_ns, size, sha256 FROM files").fetchall()
            known = {row[0]: (row[1], row[2], row[3]) for row in rows}
            gone = [path for path in known if path not in found]
            for path, source in sorted(found.items()):
                old = known.get(path)
                if (old is None or old[:2] != (source.mtime_ns, source.size)) and not tally.refresh(
                    conn, path, source, old
                ):
                    gone.append(path)
            for path in gone:
                tally.remove(conn, path)
                conn.execute("DELETE FROM files WHERE path = ?", (path,))
                conn.execute(f"DELETE FROM {NOTE_CACHE} WHERE path = ?", (path,))  # noqa: S608
            if tally.bulk:
                from dreamd.recall.graph import rebuild_graph_fts

                conn.execute("INSERT INTO chunks_fts(chunks_fts) VALUES ('rebuild')")
                rebuild_graph_fts(conn)
            total = int(conn.execute("SELECT count(*) FROM chunks").fetchone()[0])
            stamp = _stamp(found, folders, rules=rules, walked_ns=walked_ns, chunks=total)
            if stamp is None:
                conn.execute("DELETE FROM meta WHERE key = 'fresh'")
            else:
                conn.execute(
                    "INSERT OR REPLACE INTO meta(key, value) VALUES ('fresh', ?)", (stamp,)
                )
        self.redaction_current = True
        if tally.bulk and tally.written:
            # A bulk fill leaves the whole database in the WAL; fold it back so reads are direct.
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return IndexStats(
            len(found), tally.read, tally.changed, len(gone), tally.written, total, tally.bytes
        )


def _stamp(
    found: dict[str, Source],
    folders: dict[str, int],
    *,
    rules: str,
    walked_ns: int,
    chunks: int,
) -> str | None:
    """The freshness stamp of a walk (:mod:`dreamd.recall.freshness`), encoded."""
    recent = sorted(
        (source for path, source in found.items() if "/" in path),
        key=lambda source: source.mtime_ns,
        reverse=True,
    )[:HOT_FILES]
    hot = {s.file: (s.mtime_ns, s.size) for s in recent if s.mtime_ns >= walked_ns - HOT_NS}
    for path, source in found.items():
        if "/" not in path:  # MEMORY.md, SOUL.md, USER.md: always watched
            hot[source.file] = (source.mtime_ns, source.size)
    stamp = Stamp(
        rules=rules, walked_ns=walked_ns, folders=folders, hot=hot, files=len(found), chunks=chunks
    )
    return stamp.encode()


class _Memo:
    """Counts kept between searches while the database does not change."""

    __slots__ = ("count", "frequency", "speakers", "version")

    def __init__(
        self,
        version: int,
        count: int | None = None,
        speakers: dict[str, int] | None = None,
        frequency: dict[str, int] | None = None,
    ) -> None:
        self.version = version
        self.count = count
        self.speakers = speakers
        self.frequency: dict[str, int] = {} if frequency is None else frequency


class _Tally:
    """Counts for :class:`IndexStats`, kept while files are refreshed."""

    __slots__ = ("bulk", "bytes", "changed", "read", "rules", "written")

    def __init__(
        self,
        bulk: bool,
        rules: str,
        read: int = 0,
        changed: int = 0,
        written: int = 0,
        bytes: int = 0,
    ) -> None:
        self.bulk = bulk
        self.rules = rules
        self.read = read
        self.changed = changed
        self.written = written
        self.bytes = bytes

    def refresh(
        self,
        conn: sqlite3.Connection,
        path: str,
        source: Source,
        old: tuple[int, int, str] | None,
    ) -> bool:
        """Re-index one file whose stat changed; False when it is gone or too big (remove it)."""
        try:
            data = Path(source.file).read_bytes()
        except OSError:
            return old is None
        if len(data) > MAX_FILE_BYTES or data.count(b"\n") > MAX_NOTE_LINES:
            return old is None
        from dreamd.engine.text.snippets import content_hash

        self.read += 1
        self.bytes += len(data)
        digest = content_hash(data)
        if old is None or old[2] != digest:
            from dreamd.engine.text.decoding import decode_note  # only when a file changed
            from dreamd.recall.graph import store_graph

            self.changed += 1
            text = decode_note(data, strip_nul=True).text
            fragment, rows = self._derived(conn, path, text, digest)
            if old is not None or not self.bulk:  # filling an empty index: nothing to remove
                self.remove(conn, path)
            conn.executemany(_INSERT, rows)
            if not self.bulk:
                conn.execute(FTS_ADD, (path,))
            store_graph(conn, path, fragment, bulk=self.bulk)
            self.written += len(rows)
        conn.execute(
            "INSERT OR REPLACE INTO files(path, mtime_ns, size, sha256) VALUES (?, ?, ?, ?)",
            (path, source.mtime_ns, source.size, digest),
        )
        return True

    def _derived(
        self, conn: sqlite3.Connection, path: str, text: str | None, digest: str
    ) -> tuple[FragmentRows | None, list[Row]]:
        """The graph fragment and the chunk rows of a changed file, redacted, from the note
        cache where its digest (and the rules) allow, worked out and cached otherwise."""
        if text is None:  # not text: indexed empty, no fragment
            return None, []
        from dreamd.engine.text.snippets import content_hash
        from dreamd.recall import notecache
        from dreamd.recall.chunkrows import chunk_rows, decode_rows, encode_rows
        from dreamd.recall.graph import fragment_rows

        cached = notecache.load(conn, path)
        same = cached is not None and (cached.digest, cached.rules) == (digest, self.rules)
        if cached is not None and same:
            redacted = text if cached.redacted is None else cached.redacted
        else:
            from dreamd.redaction import redact

            redacted = redact(text)
        clean = content_hash(redacted.encode("utf-8"))
        fragment = rows = None
        if cached is not None and cached.clean == clean:  # both follow from the redacted text
            fragment = notecache.decode_fragment(cached.fragment)
            rows = decode_rows(cached.chunks, path, redacted)
            if same and fragment is not None and rows is not None:
                return fragment, rows  # the cached row already says all this
        if fragment is None:
            fragment = fragment_rows(path, redacted, digest)
        if rows is None:
            rows = chunk_rows(path, redacted, kind_of(path))
        encoded = None if fragment is None else notecache.encode_fragment(fragment)
        kept = None if redacted == text else redacted
        chunks = encode_rows(rows, redacted)
        notecache.save(
            conn, path, notecache.Cached(digest, self.rules, kept, clean, encoded, chunks)
        )
        return fragment, rows

    def remove(self, conn: sqlite3.Connection, path: str) -> None:
        """Drop a file's chunks, and their FTS5 entries unless FTS5 is rebuilt at the end."""
        if not self.bulk:
            conn.execute(FTS_REMOVE, (path,))
        conn.execute("DELETE FROM chunks WHERE path = ?", (path,))
        from dreamd.recall.graph import remove_graph  # only when a file changed or is gone

        remove_graph(conn, path, bulk=self.bulk)
