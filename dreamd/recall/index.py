"""The recall index: a derived SQLite FTS5 database over a workspace's Markdown.

Rules:

- It lives at ``memory/.dreams/index.sqlite`` and is derived data, always rebuildable from the
  files: a corrupt or foreign-schema database is moved aside to ``index.sqlite.corrupt-<unix ts>``
  (with its ``-wal``/``-shm`` files) and rebuilt, never repaired and never a crash loop.
- Indexed files: ``MEMORY.md``; every ``*.md`` under ``memory/`` except ``memory/dreaming/``,
  hidden directories (``memory/.dreams/``, ``.git``, ...) and ``node_modules``; and
  ``memory/.dreams/session-corpus/*.txt``. A symlink is followed only when it resolves inside the
  workspace (and not into the excluded folders); files over ``MAX_FILE_BYTES`` are skipped.
  Content is decoded as UTF-8 with replacement characters and NULs dropped.
- Updates are incremental and run in one transaction: a file whose (mtime_ns, size) is unchanged
  is not read; a changed one is re-hashed and re-chunked only when its sha256 differs; files that
  are gone are removed.
- ``chunks_fts`` is an external-content FTS5 table over ``chunks``, kept in sync here: per file
  on an incremental update, rebuilt in one pass when an empty index is filled.
  Its rank is bm25 with the heading weighted half as much as the text. Searching is
  :mod:`dreamd.recall.search`'s job, through :meth:`RecallIndex.read`.
- Only parameterised SQL; the schema version is ``PRAGMA user_version``. A connection is used by
  one thread at a time (the daemon may hand it to a worker thread, hence
  ``check_same_thread=False``).
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Self, TypeVar

from dreamd.errors import StateError
from dreamd.layout import (
    INDEX_FILE,
    MAX_FILE_BYTES,
    MEMORY_FILE,
    is_short_term_path,
    resolve_inside,
)
from dreamd.recall.chunking import chunk_for_index
from dreamd.recall.sources import CORPUS_DIR, Source, discover_sources
from dreamd.snippets import content_hash

__all__ = ["SCHEMA_VERSION", "IndexStats", "RecallIndex", "kind_of"]

SCHEMA_VERSION = 1
_CORRUPT_CODES = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})
_log = logging.getLogger(__name__)
_T = TypeVar("_T")

_SCHEMA = (
    "CREATE TABLE files(path TEXT PRIMARY KEY, mtime_ns INTEGER NOT NULL,"
    " size INTEGER NOT NULL, sha256 TEXT NOT NULL)",
    "CREATE TABLE chunks(id INTEGER PRIMARY KEY, path TEXT NOT NULL, start_line INTEGER NOT NULL,"
    " end_line INTEGER NOT NULL, heading TEXT NOT NULL, text TEXT NOT NULL, day TEXT,"
    " kind TEXT NOT NULL)",
    "CREATE INDEX chunks_path ON chunks(path)",
    "CREATE VIRTUAL TABLE chunks_fts USING fts5(heading, text, content='chunks',"
    " content_rowid='id', tokenize='unicode61 remove_diacritics 2')",
    "CREATE VIRTUAL TABLE chunks_vocab USING fts5vocab(chunks_fts, row)",
    "INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('rank', 'bm25(0.5, 1.0)')",
)
_FTS_ADD = (
    "INSERT INTO chunks_fts(rowid, heading, text) SELECT id, heading, text FROM chunks"
    " WHERE path = ?"
)
_FTS_REMOVE = (
    "INSERT INTO chunks_fts(chunks_fts, rowid, heading, text)"
    " SELECT 'delete', id, heading, text FROM chunks WHERE path = ?"
)
_DROP = (
    "DROP TABLE IF EXISTS chunks_vocab",
    "DROP TABLE IF EXISTS chunks_fts",
    "DROP TABLE IF EXISTS chunks",
    "DROP TABLE IF EXISTS files",
)


@dataclass(frozen=True, slots=True)
class IndexStats:
    """What one update did: files seen, read (hashed), re-chunked and removed; chunk totals."""

    scanned: int
    read: int
    changed: int
    removed: int
    chunks_written: int
    chunks: int
    bytes_read: int


class _SchemaMismatchError(Exception):
    """The database is readable but is not this version of the index."""


def kind_of(path: str) -> str:
    """``memory``, ``corpus``, ``daily`` or ``note`` for a workspace-relative path."""
    if path == MEMORY_FILE:
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
        self._count: tuple[int, int] | None = None  # (PRAGMA data_version, chunk count)

    @classmethod
    def open(cls, root: Path) -> RecallIndex:
        """Open (creating or recovering as needed) the index of the workspace at ``root``."""
        db = resolve_inside(root, INDEX_FILE)
        try:
            db.parent.mkdir(parents=True, exist_ok=True)
            return cls(root, db, _connect_or_recover(db))
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

    def update(self) -> IndexStats:
        """Bring the index up to date with the files, incrementally."""
        return self._recovering(lambda: self._sync(rebuild=False), refill=False)

    def rebuild(self) -> IndexStats:
        """Drop every table and index all files from scratch."""
        return self._recovering(lambda: self._sync(rebuild=True), refill=False)

    def read(self, action: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run a read-only ``action`` on the connection (see :mod:`dreamd.recall.search`).

        A corrupt database is replaced, refilled from the files, and ``action`` runs again.
        """
        return self._recovering(lambda: action(self._conn))

    def chunk_count(self) -> int:
        """The number of indexed chunks (cached until any connection changes the database)."""
        version = int(self._conn.execute("PRAGMA data_version").fetchone()[0])
        if self._count is None or self._count[0] != version:
            total = int(self._conn.execute("SELECT count(*) FROM chunks").fetchone()[0])
            self._count = (version, total)
        return self._count[1]

    def _recovering(self, action: Callable[[], _T], *, refill: bool = True) -> _T:
        """Run ``action``; if the database turns out corrupt, replace it and run it again."""
        try:
            return action()
        except sqlite3.DatabaseError as exc:
            if not _is_corrupt(exc):
                raise
        self._conn.close()
        self._conn = _connect_or_recover(self.db, force=True)
        self._count = None
        if refill:
            self._sync(rebuild=False)
        return action()

    def _sync(self, *, rebuild: bool) -> IndexStats:
        found = discover_sources(self.root)
        self._count = None
        with _transaction(self._conn) as conn:
            if rebuild:
                for statement in (*_DROP, *_SCHEMA):
                    conn.execute(statement)
            # Filling an empty index, FTS5 is built once at the end: much faster than per file.
            tally = _Tally(bulk=conn.execute("SELECT 1 FROM chunks LIMIT 1").fetchone() is None)
            rows = conn.execute("SELECT path, mtime_ns, size, sha256 FROM files").fetchall()
            known = {row[0]: (row[1], row[2], row[3]) for row in rows}
            gone = [path for path in known if path not in found]
            for path, source in sorted(found.items()):
                old = known.get(path)
                if (old is None or old[:2] != source[1:]) and not tally.refresh(
                    conn, path, source, old
                ):
                    gone.append(path)
            for path in gone:
                tally.remove(conn, path)
                conn.execute("DELETE FROM files WHERE path = ?", (path,))
            if tally.bulk:
                conn.execute("INSERT INTO chunks_fts(chunks_fts) VALUES ('rebuild')")
            total = int(conn.execute("SELECT count(*) FROM chunks").fetchone()[0])
        return IndexStats(
            len(found), tally.read, tally.changed, len(gone), tally.written, total, tally.bytes
        )


@dataclass(slots=True)
class _Tally:
    """Counts for :class:`IndexStats`, kept while files are refreshed."""

    bulk: bool
    read: int = 0
    changed: int = 0
    written: int = 0
    bytes: int = 0

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
        if len(data) > MAX_FILE_BYTES:
            return old is None
        self.read += 1
        self.bytes += len(data)
        digest = content_hash(data)
        if old is None or old[2] != digest:
            self.changed += 1
            text = data.decode("utf-8", errors="replace").replace("\x00", "")
            chunks = chunk_for_index(path, text)
            kind = kind_of(path)
            self.remove(conn, path)
            conn.executemany(
                "INSERT INTO chunks(path, start_line, end_line, heading, text, day, kind)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(path, c.start_line, c.end_line, c.heading, c.text, c.day, kind) for c in chunks],
            )
            if not self.bulk:
                conn.execute(_FTS_ADD, (path,))
            self.written += len(chunks)
        conn.execute(
            "INSERT OR REPLACE INTO files(path, mtime_ns, size, sha256) VALUES (?, ?, ?, ?)",
            (path, source.mtime_ns, source.size, digest),
        )
        return True

    def remove(self, conn: sqlite3.Connection, path: str) -> None:
        """Drop a file's chunks, and their FTS5 entries unless FTS5 is rebuilt at the end."""
        if not self.bulk:
            conn.execute(_FTS_REMOVE, (path,))
        conn.execute("DELETE FROM chunks WHERE path = ?", (path,))


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        with suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _is_corrupt(exc: sqlite3.DatabaseError) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in _CORRUPT_CODES


def _connect_or_recover(db: Path, *, force: bool = False) -> sqlite3.Connection:
    if not force:
        try:
            return _connect(db)
        except _SchemaMismatchError:
            pass
        except sqlite3.DatabaseError as exc:
            if not _is_corrupt(exc):
                raise
    stamp = int(time.time())
    for suffix in ("", "-wal", "-shm"):
        with suppress(FileNotFoundError):
            Path(f"{db}{suffix}").replace(f"{db}.corrupt-{stamp}{suffix}")
    _log.warning("recall index %s was unreadable; moved aside to %s.corrupt-%d", db, db, stamp)
    return _connect(db)


def _connect(db: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    try:
        conn.execute("PRAGMA busy_timeout = 5000")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        if _schema_version(conn) == 0:
            with _transaction(conn):
                if _schema_version(conn) == 0:  # another process may have created it meanwhile
                    for statement in _SCHEMA:
                        conn.execute(statement)
                    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION:d}")
        version = _schema_version(conn)
    except BaseException:
        conn.close()
        raise
    if version != SCHEMA_VERSION:
        conn.close()
        raise _SchemaMismatchError(f"{db}: schema version {version}")
    return conn


def _schema_version(conn: sqlite3.Connection) -> int:
    """``PRAGMA user_version``; -1 for a version-0 database that holds someone else's tables."""
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version == 0 and conn.execute("SELECT 1 FROM sqlite_master").fetchone():
        return -1
    return version
