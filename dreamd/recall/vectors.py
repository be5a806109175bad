"""Optional semantic recall: chunk embeddings beside the FTS index, fused into every search.

Off unless ``[embeddings]`` names an endpoint; then the caller attaches a :class:`Semantic` to
the open :class:`~dreamd.recall.index.RecallIndex` (``index.semantic``) and
:func:`dreamd.recall.search.search` hands it the lexical hits to fuse. Nothing here touches the
network: the caller passes ``embed`` (texts -> vectors; :mod:`dreamd.model.embeddings` speaks
OpenAI-compatible ``/embeddings``).

Rules:

- The vectors live in ``memory/.dreams/vectors.sqlite`` (derived, rebuildable, moved aside when
  unreadable like the index), a sqlite-vec ``vec0`` table keyed by chunk: path, lines and the
  digest of the chunk's (redacted) text. A separate file, because the SQLite that can load
  sqlite-vec (Python's own, or ``sqlean.py`` where Python's cannot load extensions: the
  ``vectors`` extra) may not be the one the index uses, and two SQLite libraries must never
  hold locks on one file in one process.
- Kept in step with the index file by file (the index's ``sha256`` per path): a changed file's
  chunks keep the vectors of texts they still hold (only new texts are embedded), a gone file's
  vectors go. At most ``limit`` texts are embedded per sync (a search embeds at most
  :data:`SEARCH_BUDGET`, ``dreamd memory index`` every text), and a file counts as synced only
  once all of its chunks have vectors. Another model, or vectors of another size, start over.
- Vectors are normalised, so the L2 distance ``d`` of the ``vec0`` table gives the cosine
  similarity ``1 - d² / 2``. A search embeds the query and takes the nearest
  ``max(3k, 20)`` chunks that pass the search's filters (days, kinds, entity) with a similarity
  of at least ``min_similarity``: a query always has neighbours, and a trace recorded for an
  unrelated chunk would feed promotion.
- Fusion is reciprocal-rank fusion (``1 / (60 + rank)`` summed over the two rankings): a hit
  both rankings found keeps its lexical score and gains ``semantic`` in ``why``; one only the
  vectors found scores its similarity. Ties: lexical rank, then path and line.
- An embedding failure leaves the lexical hits as they were and is kept in ``error``: semantic
  recall is an improvement, never a reason for a search to fail.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path

from dreamd.engine.hits import Hit
from dreamd.errors import ConfigError, DreamdError
from dreamd.layout import STATE_DIR, resolve_inside
from dreamd.recall.candidates import Filters
from dreamd.recall.chunking import chunk_snippet
from dreamd.recall.index import RecallIndex

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "RRF_K",
    "SEARCH_BUDGET",
    "VECTORS_FILE",
    "Embed",
    "Semantic",
    "VectorStore",
    "fuse",
]

VECTORS_FILE = f"{STATE_DIR}/vectors.sqlite"
RRF_K = 60
SEARCH_BUDGET = 256
"""The most chunk texts one search embeds while it catches up with the index."""
INSTALL_HINT = "semantic recall needs the vectors extra: pip install 'dreamd[vectors]'"

Embed = Callable[[Sequence[str]], list[list[float]]]
_CHUNK_COLUMNS = "c.path, c.start_line, c.end_line, c.text, c.kind, c.day, c.entities, c.confidence"


def _sqlite() -> Any:
    """A sqlite3 module that can load extensions (Python's own, else sqlean.py)."""
    import sqlite3

    if hasattr(sqlite3.Connection, "enable_load_extension"):
        return sqlite3
    try:
        import sqlean  # type: ignore[import-untyped]
    except ImportError as exc:
        raise ConfigError(INSTALL_HINT + " (this Python's sqlite3 cannot load extensions)") from exc
    return sqlean


def _file_chunks(conn: Any, *, path: str) -> list[tuple[int, int, str]]:
    rows = conn.execute("SELECT start_line, end_line, text FROM chunks WHERE path = ?", (path,))
    return [(int(s), int(e), str(t)) for s, e, t in rows]


def _one(conn: Any, *, sql: str, key: tuple[object, ...]) -> Any:
    return conn.execute(sql, key).fetchone()


def _normalised(vector: Sequence[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vector))
    if not norm or not all(math.isfinite(x) for x in vector):
        raise DreamdError("the embeddings endpoint returned a zero or non-finite vector")
    return [x / norm for x in vector]


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


class VectorStore:
    """The vectors of one workspace (see the module rules)."""

    def __init__(self, root: Path, model: str) -> None:
        try:
            import sqlite_vec  # type: ignore[import-untyped]
        except ImportError as exc:
            raise ConfigError(INSTALL_HINT) from exc
        self._pack: Callable[[list[float]], bytes] = sqlite_vec.serialize_float32
        self.model = model
        db = resolve_inside(root, VECTORS_FILE)
        db.parent.mkdir(parents=True, exist_ok=True)
        module = _sqlite()
        try:
            self._conn = self._open(module, db, sqlite_vec)
        except module.DatabaseError:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{db}{suffix}").unlink(missing_ok=True)  # derived data: made again
            self._conn = self._open(module, db, sqlite_vec)

    @staticmethod
    def _open(module: Any, db: Path, sqlite_vec: Any) -> Any:
        conn = module.connect(str(db), isolation_level=None, check_same_thread=False)
        conn.enable_load_extension(True)
        sqlite_vec.load(conn)
        conn.enable_load_extension(False)
        conn.execute("PRAGMA busy_timeout = 5000")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        conn.execute("CREATE TABLE IF NOT EXISTS files(path TEXT PRIMARY KEY, sha256 TEXT)")
        conn.execute(
            "CREATE TABLE IF NOT EXISTS chunks(id INTEGER PRIMARY KEY, path TEXT NOT NULL,"
            " start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, digest TEXT NOT NULL)"
        )
        conn.execute("CREATE INDEX IF NOT EXISTS chunks_path ON chunks(path)")
        return conn

    def close(self) -> None:
        """Close the database."""
        self._conn.close()

    def _meta(self, key: str) -> str | None:
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else None

    def _forget(self) -> None:
        """Drop every vector (another model, or vectors of another size)."""
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("DROP TABLE IF EXISTS vec_chunks")
        conn.execute("DELETE FROM chunks")
        conn.execute("DELETE FROM files")
        conn.execute("DELETE FROM meta")
        conn.execute("COMMIT")

    def _ready(self, sample: Sequence[float]) -> None:
        """Make the vectors' table for ``sample``'s size, starting over if it was another."""
        dims = self._meta("dims")
        if dims == str(len(sample)):
            return
        if dims is not None:
            self._forget()
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            f"CREATE VIRTUAL TABLE vec_chunks USING vec0(embedding float[{len(sample):d}])"
        )
        conn.executemany(
            "INSERT INTO meta(key, value) VALUES (?, ?)",
            (("model", self.model), ("dims", str(len(sample)))),
        )
        conn.execute("COMMIT")

    def sync(self, index: RecallIndex, embed: Embed, *, limit: int | None, batch: int) -> int:
        """Embed what the index holds and the store lacks (at most ``limit`` texts); returns how
        many texts were embedded."""
        if self._meta("model") not in (None, self.model):
            self._forget()
        wanted = dict(index.read(lambda c: c.execute("SELECT path, sha256 FROM files").fetchall()))
        have = dict(self._conn.execute("SELECT path, sha256 FROM files").fetchall())
        for gone in set(have) - set(wanted):
            self._drop_path(gone)
        changed = sorted(path for path, digest in wanted.items() if have.get(path) != digest)
        budget = math.inf if limit is None else limit
        embedded = 0
        for path in changed:
            rows: list[tuple[int, int, str]] = index.read(partial(_file_chunks, path=path))
            done, count = self._sync_file(path, rows, embed, budget - embedded, batch)
            embedded += count
            if done:
                self._conn.execute(
                    "INSERT OR REPLACE INTO files(path, sha256) VALUES (?, ?)", (path, wanted[path])
                )
            if embedded >= budget:
                break
        return embedded

    def _drop_path(self, path: str) -> None:
        ids = [r[0] for r in self._conn.execute("SELECT id FROM chunks WHERE path = ?", (path,))]
        self._conn.execute("BEGIN IMMEDIATE")
        if ids:
            self._conn.executemany("DELETE FROM vec_chunks WHERE rowid = ?", [(i,) for i in ids])
        self._conn.execute("DELETE FROM chunks WHERE path = ?", (path,))
        self._conn.execute("DELETE FROM files WHERE path = ?", (path,))
        self._conn.execute("COMMIT")

    def _sync_file(
        self,
        path: str,
        rows: Sequence[tuple[int, int, str]],
        embed: Embed,
        budget: float,
        batch: int,
    ) -> tuple[bool, int]:
        """Bring one file's vectors in step; (all of its chunks have vectors, texts embedded)."""
        conn = self._conn
        known = conn.execute(
            "SELECT id, start_line, end_line, digest FROM chunks WHERE path = ?", (path,)
        ).fetchall()
        by_digest: dict[str, list[int]] = {}
        for row_id, _, _, digest in known:
            by_digest.setdefault(digest, []).append(row_id)
        kept: list[tuple[int, int, int]] = []  # (id, start, end) of vectors reused
        missing: list[tuple[int, int, str]] = []
        for start, end, text in rows:
            reusable = by_digest.get(_digest(text))
            if reusable:
                kept.append((reusable.pop(), start, end))
            else:
                missing.append((start, end, text))
        stale = [row_id for ids in by_digest.values() for row_id in ids]
        take = missing if budget >= len(missing) else missing[: int(budget)]
        vectors: list[list[float]] = []
        for first in range(0, len(take), batch):
            texts = [text for _, _, text in take[first : first + batch]]
            answer = embed(texts)
            if len(answer) != len(texts):
                raise DreamdError(
                    f"the embeddings endpoint returned {len(answer)} vectors for {len(texts)} texts"
                )
            vectors += [_normalised(vector) for vector in answer]
        if vectors:
            self._ready(vectors[0])
        conn.execute("BEGIN IMMEDIATE")
        try:
            if stale:
                conn.executemany("DELETE FROM vec_chunks WHERE rowid = ?", [(i,) for i in stale])
                conn.executemany("DELETE FROM chunks WHERE id = ?", [(i,) for i in stale])
            conn.executemany(
                "UPDATE chunks SET start_line = ?, end_line = ? WHERE id = ?",
                [(start, end, row_id) for row_id, start, end in kept],
            )
            for (start, end, text), vector in zip(take, vectors, strict=True):
                cursor = conn.execute(
                    "INSERT INTO chunks(path, start_line, end_line, digest) VALUES (?, ?, ?, ?)",
                    (path, start, end, _digest(text)),
                )
                conn.execute(
                    "INSERT INTO vec_chunks(rowid, embedding) VALUES (?, ?)",
                    (cursor.lastrowid, self._pack(vector)),
                )
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        return len(take) == len(missing), len(take)

    def nearest(self, vector: Sequence[float], count: int) -> list[tuple[str, int, int, float]]:
        """The ``count`` nearest chunks: (path, start line, end line, cosine similarity)."""
        if self._meta("dims") != str(len(vector)):
            return []
        rows = self._conn.execute(
            "SELECT c.path, c.start_line, c.end_line, v.distance FROM vec_chunks AS v"
            " JOIN chunks AS c ON c.id = v.rowid"
            " WHERE v.embedding MATCH ? AND k = ? ORDER BY v.distance",
            (self._pack(_normalised(vector)), count),
        ).fetchall()
        return [(p, s, e, 1.0 - float(d) ** 2 / 2.0) for p, s, e, d in rows]


def fuse(lexical: Sequence[Hit], semantic: Sequence[Hit], k: int) -> list[Hit]:
    """Reciprocal-rank fusion of the two rankings (see the module rules), the best ``k``."""
    scores: dict[tuple[str, int, int], float] = {}
    hits: dict[tuple[str, int, int], Hit] = {}
    order: dict[tuple[str, int, int], tuple[int, str, int]] = {}
    for rank, hit in enumerate(lexical, start=1):
        key = (hit.path, hit.start_line, hit.end_line)
        scores[key] = scores.get(key, 0.0) + 1.0 / (RRF_K + rank)
        hits.setdefault(key, hit)
        order.setdefault(key, (rank, hit.path, hit.start_line))
    for rank, hit in enumerate(semantic, start=1):
        key = (hit.path, hit.start_line, hit.end_line)
        scores[key] = scores.get(key, 0.0) + 1.0 / (RRF_K + rank)
        known = hits.get(key)
        if known is None:
            hits[key] = hit
            order[key] = (len(lexical) + rank, hit.path, hit.start_line)
        else:
            similarity = dict(hit.why).get("semantic", 0.0)
            hits[key] = Hit(
                known.path,
                known.start_line,
                known.end_line,
                known.snippet,
                known.score,
                known.kind,
                known.day,
                known.entities,
                known.confidence,
                (*known.why, ("semantic", similarity)),
                known.context,
            )
    ranked = sorted(scores, key=lambda key: (-scores[key], order[key]))
    return [hits[key] for key in ranked[:k]]


class Semantic:
    """What a search calls to fuse vectors in: ``index.semantic = Semantic(...)``."""

    def __init__(
        self,
        index: RecallIndex,
        embed: Embed,
        *,
        model: str,
        batch: int = 64,
        min_similarity: float = 0.5,
        budget: int | None = SEARCH_BUDGET,
    ) -> None:
        self.index = index
        self.embed = embed
        self.batch = batch
        self.min_similarity = min_similarity
        self.budget = budget
        self.store = VectorStore(index.root, model)
        self.error: str | None = None
        self._synced = False

    def close(self) -> None:
        """Close the vectors' database."""
        self.store.close()

    def sync(self, *, limit: int | None = None) -> int:
        """Embed what the index holds and the store lacks (``dreamd memory index``)."""
        return self.store.sync(self.index, self.embed, limit=limit, batch=self.batch)

    def __call__(self, query: str, lexical: list[Hit], k: int, filters: Filters) -> list[Hit]:
        """``lexical`` with the nearest chunks fused in (see the module rules)."""
        try:
            if not self._synced:
                self.sync(limit=self.budget)
                self._synced = True
            [vector] = self.embed([query])
            near = self.store.nearest(vector, max(3 * k, 20))
        except DreamdError as exc:
            self.error = str(exc)
            return lexical
        semantic = self._hits(near, filters, k)
        return fuse(lexical, semantic, k) if semantic else lexical

    def _hits(
        self, near: Iterable[tuple[str, int, int, float]], filters: Filters, k: int
    ) -> list[Hit]:
        where, params = filters.sql()
        sql = (
            f"SELECT {_CHUNK_COLUMNS} FROM chunks AS c"  # noqa: S608 (only ?s)
            " WHERE c.path = ? AND c.start_line = ? AND c.end_line = ?"
            + (f" AND {where}" if where else "")
        )
        found: list[Hit] = []
        for path, start, end, similarity in near:
            if similarity < self.min_similarity or len(found) >= k:
                continue
            key = (path, start, end, *params)
            row: Any = self.index.read(partial(_one, sql=sql, key=key))
            if row is None:
                continue  # filtered out, or the index moved on since the vectors were made
            score = round(min(1.0, max(0.0, similarity)), 4)
            found.append(
                Hit(
                    row[0],
                    row[1],
                    row[2],
                    chunk_snippet(row[3]),
                    score,
                    row[4],
                    row[5],
                    tuple(row[6].split()),
                    row[7],
                    (("semantic", round(similarity, 3)),),
                )
            )
        return found
