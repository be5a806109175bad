"""The recall index's database: its schema, connections, and recovery from a broken file.

Rules:

- The schema version is ``PRAGMA user_version``. An index written by an older dreamd (a lower
  version) is derived data: its tables are dropped and rebuilt in place, unless
  :data:`MIGRATIONS` brings it up to date in a few statements (a new SQL index: rebuilding 20
  years of notes would hold up the first recall for most of a minute). A database that is
  corrupt, foreign (tables but version 0) or from a newer dreamd is moved aside to
  ``index.sqlite.corrupt-<unix ts>`` (with its ``-wal``/``-shm`` files) and a new one is made.
- ``chunks_fts`` is an external-content FTS5 table over ``chunks`` with four fields: the heading,
  the speaker label, the text, and the CJK grams. It stems with FTS5's ``porter`` tokenizer over
  ``unicode61 remove_diacritics 2``; its own rank is bm25 with the heading weighted half.
- ``graph_nodes``/``graph_edges``/``graph_episodes`` hold each file's part of the inverted-cone
  graph (:mod:`dreamd.recall.graph`); ``graph_fts`` indexes the nodes' words the same way.
- ``meta`` holds ``redaction``: the rules the stored text was redacted under
  (:func:`dreamd.redaction.rules_fingerprint`); under other rules the index is rebuilt.
- ``note_cache`` holds, per file, what indexing it cost most to work out, keyed by digest
  (:mod:`dreamd.recall.notecache`): its redaction under given rules, its graph fragment and its
  chunk rows. A
  rebuild (``memory index --rebuild``, new redaction rules) keeps it; a new schema drops it.
- ``statement_cache`` holds lines read as statements (:mod:`dreamd.recall.statements`);
  ``meta`` names the rules they were read under. A rebuild and a new schema drop it; an index
  made before it gets it on its first write.
- Only parameterised SQL; WAL mode; one connection is used by one thread at a time.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

__all__ = [
    "BUSY_TIMEOUT_MS",
    "FTS_ADD",
    "FTS_REMOVE",
    "NOTE_CACHE",
    "SCHEMA",
    "SCHEMA_VERSION",
    "STATEMENT_CACHE",
    "connect_or_recover",
    "is_corrupt",
    "reset",
    "transaction",
]

SCHEMA_VERSION = 8
BUSY_TIMEOUT_MS = 5000
NOTE_CACHE = "note_cache"
STATEMENT_CACHE = "statement_cache"
MMAP_BYTES = 8 * 1024 * 1024  # at most: a year of notes indexes to ~6 MB, mapped whole
TOKENIZER = "porter unicode61 remove_diacritics 2"
_CORRUPT_CODES = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})

_DAYS = "CREATE INDEX chunks_day ON chunks(day) WHERE day IS NOT NULL"  # a question about a time
SCHEMA = (
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE files(path TEXT PRIMARY KEY, mtime_ns INTEGER NOT NULL,"
    " size INTEGER NOT NULL, sha256 TEXT NOT NULL)",
    "CREATE TABLE chunks(id INTEGER PRIMARY KEY, path TEXT NOT NULL, start_line INTEGER NOT NULL,"
    " end_line INTEGER NOT NULL, heading TEXT NOT NULL, speaker TEXT NOT NULL, text TEXT NOT NULL,"
    " grams TEXT NOT NULL, day TEXT, kind TEXT NOT NULL, confidence REAL, entities TEXT NOT NULL)",
    "CREATE INDEX chunks_path ON chunks(path, start_line)",
    "CREATE INDEX chunks_speaker ON chunks(speaker) WHERE speaker != ''",
    _DAYS,
    "CREATE VIRTUAL TABLE chunks_fts USING fts5(heading, speaker, text, grams, content='chunks',"
    f" content_rowid='id', tokenize='{TOKENIZER}')",
    "CREATE VIRTUAL TABLE chunks_vocab USING fts5vocab(chunks_fts, row)",
    "CREATE VIRTUAL TABLE chunks_fields USING fts5vocab(chunks_fts, col)",
    "INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('rank', 'bm25(0.5, 1.0, 1.0, 1.0)')",
    # the inverted-cone graph (dreamd.recall.graph): each file's nodes and edges
    "CREATE TABLE graph_nodes(id INTEGER PRIMARY KEY, path TEXT NOT NULL, node TEXT NOT NULL,"
    " layer INTEGER NOT NULL, label TEXT NOT NULL, text TEXT NOT NULL)",
    "CREATE INDEX graph_nodes_path ON graph_nodes(path)",
    "CREATE VIRTUAL TABLE graph_fts USING fts5(text, content='graph_nodes', content_rowid='id',"
    f" tokenize='{TOKENIZER}')",
    "CREATE TABLE graph_edges(path TEXT NOT NULL, src TEXT NOT NULL, dst TEXT NOT NULL,"
    " cost REAL NOT NULL, reason TEXT NOT NULL, line INTEGER NOT NULL)",
    "CREATE INDEX graph_edges_src ON graph_edges(src, cost)",
    "CREATE INDEX graph_edges_path ON graph_edges(path)",
    "CREATE TABLE graph_episodes(node TEXT PRIMARY KEY, path TEXT NOT NULL,"
    " start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, title TEXT NOT NULL, day TEXT)",
    "CREATE INDEX graph_episodes_path ON graph_episodes(path)",
    f"CREATE TABLE IF NOT EXISTS {NOTE_CACHE}(path TEXT PRIMARY KEY, digest TEXT NOT NULL,"
    " rules TEXT NOT NULL, redacted TEXT, clean TEXT NOT NULL, fragment TEXT, chunks TEXT)",
    f"CREATE TABLE IF NOT EXISTS {STATEMENT_CACHE}(text TEXT PRIMARY KEY, body TEXT NOT NULL)",
)
# from a version: the statements that make it the next one
MIGRATIONS: dict[int, tuple[str, ...]] = {7: (_DAYS,)}
FTS_ADD = (
    "INSERT INTO chunks_fts(rowid, heading, speaker, text, grams)"
    " SELECT id, heading, speaker, text, grams FROM chunks WHERE path = ?"
)
FTS_REMOVE = (
    "INSERT INTO chunks_fts(chunks_fts, rowid, heading, speaker, text, grams)"
    " SELECT 'delete', id, heading, speaker, text, grams FROM chunks WHERE path = ?"
)
_TABLES = (
    NOTE_CACHE,
    STATEMENT_CACHE,
    "graph_fts",
    "graph_nodes",
    "graph_edges",
    "graph_episodes",
    "chunks_fields",
    "chunks_vocab",
    "chunks_fts",
    "chunks",
    "files",
    "meta",
)


class SchemaMismatchError(Exception):
    """The database is readable but holds someone else's tables or a newer schema."""


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any exception."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        with suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def reset(conn: sqlite3.Connection, *, keep_cache: bool = False) -> None:
    """Drop every index table and create the current schema (inside a transaction);
    ``keep_cache`` keeps the note cache (a rebuild under the same schema)."""
    for table in _TABLES:
        if not (keep_cache and table == NOTE_CACHE):
            conn.execute(f"DROP TABLE IF EXISTS {table}")
    for statement in SCHEMA:
        conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION:d}")


def _upgrade(conn: sqlite3.Connection) -> None:
    """Bring an older index to the current schema: by its migrations when each version on the
    way has one, else by building it anew."""
    version = _schema_version(conn)
    steps = range(version, SCHEMA_VERSION)
    if version == 0 or any(step not in MIGRATIONS for step in steps):
        reset(conn)
        return
    for step in steps:
        for statement in MIGRATIONS[step]:
            conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION:d}")


def is_corrupt(exc: sqlite3.DatabaseError) -> bool:
    """True when SQLite says the file is damaged or not a database."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in _CORRUPT_CODES


def connect_or_recover(db: Path, *, force: bool = False) -> sqlite3.Connection:
    """A connection to a current-schema index at ``db``, moving a broken file aside first."""
    if not force:
        try:
            return _connect(db)
        except SchemaMismatchError:
            pass
        except sqlite3.DatabaseError as exc:
            if not is_corrupt(exc):
                raise
    stamp = int(time.time())
    for suffix in ("", "-wal", "-shm"):
        with suppress(FileNotFoundError):
            Path(f"{db}{suffix}").replace(f"{db}.corrupt-{stamp}{suffix}")
    import logging  # only when an index is set aside: opening one stays light

    logging.getLogger(__name__).warning(
        "recall index %s was unreadable; moved aside to %s.corrupt-%d", db, db, stamp
    )
    return _connect(db)


def _connect(db: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        # Reads map the file instead of copying it page by page: a recall opens the index in a
        # fresh process on every turn, and its searches touch a few hundred pages (~10% faster).
        # Only the first MMAP_BYTES: mapped pages a search touches count in its RSS, and over
        # 20 years of notes a common word's doclist alone would map ~80 MB.
        conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
        if 0 <= _schema_version(conn) < SCHEMA_VERSION:
            with transaction(conn):
                if 0 <= _schema_version(conn) < SCHEMA_VERSION:  # another process may be first
                    _upgrade(conn)
        version = _schema_version(conn)
    except BaseException:
        conn.close()
        raise
    if version != SCHEMA_VERSION:
        conn.close()
        raise SchemaMismatchError(f"{db}: schema version {version}")
    return conn


def _schema_version(conn: sqlite3.Connection) -> int:
    """``PRAGMA user_version``; -1 for a version-0 database that holds someone else's tables."""
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version == 0 and conn.execute("SELECT 1 FROM sqlite_master").fetchone():
        return -1
    return version
