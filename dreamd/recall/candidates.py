"""Candidates: the chunks a query could be about, fetched from the FTS5 index in bounded time.

Rules:

- User text never reaches FTS5 syntax: every term is a quoted string and only this module joins
  them with AND/OR, so operators, quotes, ``*``, ``NEAR``, ``-x`` are just words.
- Candidates come from up to three probes, each ranked by FTS5's bm25 and cut at ``pool`` rows:
  every term together (AND); the chunks holding a rare term, with the common ones added only to
  the ranking; and any term (OR). Once the pool is full of rows with every term, later probes
  are skipped (the OR probe also once it is full of rare-term rows). A probe ranks only the
  :data:`RANK_BUDGET` newest matches (highest rowid), so a word found in thousands of chunks
  costs a bounded time; a rare word's matches are always ranked in full.
- Filters (a window of days, kinds, an entity) are applied inside the probes, so they never
  empty a pool that holds matching chunks further down. Undated files pass day filters.
- A term's frequency (how many chunks hold it: its idf, and which terms are rare) is counted
  exactly up to :data:`EXACT_FREQUENCY` chunks. Above that, counting costs a read of the term's
  whole doclist (20 ms for a word in every chunk of 20 years of notes), so it is estimated: the
  first and the last matches by rowid are counted, and the rowids between them are taken to
  hold matches as densely as those two runs do together (a few per cent off, in 2 ms; a word
  used only for a while is not counted past its last use).
- :func:`fetch_neighbours` returns the chunks just before and after given ones in the same file:
  ranking lets a line borrow relevance from the lines around it.
- :func:`fetch_window` lists the chunks of a window of days (a question that names only a time,
  "what happened on 2026-03-02"), Retain facts first.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from dreamd.recall.query import Term
from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Final

__all__ = [
    "EXACT_FREQUENCY",
    "RANK_BUDGET",
    "Filters",
    "Row",
    "fetch_candidates",
    "fetch_neighbours",
    "fetch_rows",
    "fetch_window",
    "match_expression",
    "read_frequency",
]

RANK_BUDGET = 500  # at most this many matches of one FTS5 expression are ranked by bm25
EXACT_FREQUENCY = 4000  # a term's chunks are counted up to this many, estimated above it
_EDGE_MATCHES = (  # the first (ASC) or last (DESC) matches of an expression: count and rowids
    "SELECT count(*), min(rowid), max(rowid) FROM"
    " (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rowid {order} LIMIT ?)"
)
_COLUMNS = (
    "c.id, c.path, c.start_line, c.end_line, c.heading, c.speaker, c.text, c.grams, c.day,"
    " c.kind, c.confidence, c.entities"
)
_BM25 = "bm25(chunks_fts, 0.5, 1.0, 1.0, 1.0)"  # the heading weighs half
_FLOOR = (
    "SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?"
)
_RANKED = (  # rank in FTS5 alone, then fetch only the winners
    f"SELECT {_COLUMNS} FROM (SELECT rowid AS id, {_BM25} AS r FROM chunks_fts"  # noqa: S608
    " WHERE chunks_fts MATCH ? AND rowid >= ? ORDER BY r, rowid LIMIT ?) AS m"
    " JOIN chunks AS c ON c.id = m.id ORDER BY m.r, c.id"
)
_FILTERED = (  # filters need every match joined before the ranking
    f"SELECT {_COLUMNS} FROM chunks_fts JOIN chunks AS c ON c.id = chunks_fts.rowid"  # noqa: S608
    " WHERE chunks_fts MATCH ? AND chunks_fts.rowid >= ? AND {where}"
    f" ORDER BY {_BM25}, c.id LIMIT ?"
)


class Row(Value):
    """One stored chunk with its labels."""

    __match_args__ = (
        "id",
        "path",
        "start_line",
        "end_line",
        "heading",
        "speaker",
        "text",
        "grams",
        "day",
        "kind",
        "confidence",
        "entities",
    )
    __slots__ = __match_args__
    id: Final[int]
    path: Final[str]
    start_line: Final[int]
    end_line: Final[int]
    heading: Final[str]
    speaker: Final[str]
    text: Final[str]
    grams: Final[str]
    day: Final[str | None]
    kind: Final[str]
    confidence: Final[float | None]
    entities: Final[str]

    def __init__(
        self,
        id: int,
        path: str,
        start_line: int,
        end_line: int,
        heading: str,
        speaker: str,
        text: str,
        grams: str,
        day: str | None,
        kind: str,
        confidence: float | None,
        entities: str,
    ) -> None:
        self.id = id
        self.path = path
        self.start_line = start_line
        self.end_line = end_line
        self.heading = heading
        self.speaker = speaker
        self.text = text
        self.grams = grams
        self.day = day
        self.kind = kind
        self.confidence = confidence
        self.entities = entities


class Filters(Value):
    """Hard filters of a search; ``None`` means no filter."""

    __match_args__ = ("first_day", "last_day", "kinds", "entity")
    __slots__ = __match_args__
    first_day: Final[str | None]
    last_day: Final[str | None]
    kinds: Final[frozenset[str] | None]
    entity: Final[str | None]

    def __init__(
        self,
        first_day: str | None = None,
        last_day: str | None = None,
        kinds: frozenset[str] | None = None,
        entity: str | None = None,
    ) -> None:
        self.first_day = first_day
        self.last_day = last_day
        self.kinds = kinds
        self.entity = entity

    def sql(self, *, dated: bool = False) -> tuple[str, list[object]]:
        """A WHERE fragment over ``c`` and its parameters (``""`` when nothing is filtered);
        ``dated``: the rows are dated ones only, so the days are compared plainly (and the
        index of days serves the window)."""
        parts: list[str] = []
        params: list[object] = []
        undated = "" if dated else "c.day IS NULL OR "
        if self.first_day:
            parts.append(f"({undated}c.day >= ?)")
            params.append(self.first_day)
        if self.last_day:
            parts.append(f"({undated}c.day <= ?)")
            params.append(self.last_day)
        if self.kinds is not None:
            parts.append(f"c.kind IN ({', '.join('?' * len(self.kinds))})")
            params.extend(sorted(self.kinds))
        if self.entity:
            parts.append("instr(' ' || c.entities || ' ', ?) > 0")
            params.append(f" {self.entity} ")
        return " AND ".join(parts), params


def match_expression(terms: Iterable[Term]) -> str:
    """An FTS5 MATCH expression: every term's word quoted as a string, OR-ed together."""
    return " OR ".join(_quoted(term.word) for term in terms)


def _quoted(word: str) -> str:
    """``word`` as an FTS5 string: what it holds is words, never syntax."""
    return '"' + word.replace('"', '""') + '"'


def read_frequency(conn: sqlite3.Connection, stems: Iterable[str]) -> dict[str, int]:
    """How many chunks hold each stemmed term: counted up to :data:`EXACT_FREQUENCY`, estimated
    above it (see the module rules)."""
    from dreamd.engine.text.stemming import stem as stem_of

    frequency: dict[str, int] = {}
    for stem in stems:
        estimate = None
        if stem_of(stem) == stem:  # else MATCH would stem it again into another term
            estimate = _estimate(conn, _quoted(stem))
        if estimate is None:
            found = conn.execute("SELECT doc FROM chunks_vocab WHERE term = ?", (stem,)).fetchone()
            estimate = int(found[0]) if found else 0
        frequency[stem] = estimate
    return frequency


def _estimate(conn: sqlite3.Connection, quoted: str) -> int | None:
    """The number of chunks matching ``quoted``: exact when small; for a common term, the
    first and the last :data:`EXACT_FREQUENCY` matches and the density between; ``None`` when
    those two overlap (the vocabulary's count is then cheap)."""
    wanted = EXACT_FREQUENCY + 1
    count, first, head_end = conn.execute(
        _EDGE_MATCHES.format(order="ASC"), (quoted, wanted)
    ).fetchone()
    if count <= EXACT_FREQUENCY:
        return int(count)
    tail, tail_start, last = conn.execute(
        _EDGE_MATCHES.format(order="DESC"), (quoted, wanted)
    ).fetchone()
    if tail_start <= head_end:
        return None
    spanned = (head_end - first + 1) + (last - tail_start + 1)
    between = tail_start - head_end - 1
    return int(count + tail + round(between * (count + tail) / spanned))


def _probe(
    conn: sqlite3.Connection, expression: str, most: int, filters: Filters, pool: int
) -> list[Row]:
    """The ``pool`` best chunks by bm25 among the :data:`RANK_BUDGET` newest matches."""
    floor = None
    if most >= RANK_BUDGET:
        floor = conn.execute(_FLOOR, (expression, RANK_BUDGET - 1)).fetchone()
    start = floor[0] if floor else 0
    where, params = filters.sql()
    if where:
        sql = _FILTERED.format(where=where)
        cursor = conn.execute(sql, (expression, start, *params, pool))
    else:
        cursor = conn.execute(_RANKED, (expression, start, pool))
    return [Row(*row) for row in cursor]


def fetch_candidates(
    conn: sqlite3.Connection,
    terms: tuple[Term, ...],
    frequency: dict[str, int],
    filters: Filters,
    pool: int,
    *,
    required: tuple[Term, ...] = (),
) -> list[Row]:
    """The candidate chunks for ``terms`` (see the module rules), best-first per probe.

    With ``required``, every candidate also holds one of those terms (in any field).
    """
    selective: list[Term] = []
    budget = RANK_BUDGET
    for term in sorted(terms, key=lambda term: (frequency[term.stem], term.stem)):
        if frequency[term.stem] > budget:
            break
        selective.append(term)
        budget -= frequency[term.stem]
    anything = match_expression(terms)
    counts = [frequency[term.stem] for term in terms]
    # (expression, most matches it can have): every word, rare words (+ common ones), any word.
    probes: list[tuple[str, int]] = []
    every = len(terms) > 1 and min(counts) > 0
    if every:
        probes.append((" AND ".join(match_expression((term,)) for term in terms), min(counts)))
    if selective and len(selective) < len(terms):
        rare = sum(frequency[term.stem] for term in selective)
        probes.append((f"({match_expression(selective)}) AND ({anything})", rare))
    probes.append((anything, sum(counts) or RANK_BUDGET))
    if required:
        also = match_expression(required)
        probes = [(f"({expression}) AND ({also})", most) for expression, most in probes]
        anything = probes[-1][0]
    rows: dict[int, Row] = {}
    for expression, most in probes:
        if (
            rows
            and len(rows) >= pool
            and (expression is not anything or len(selective) < len(terms))
        ):
            break  # the pool is full of rows with every term or a rare one: better than the rest
        for row in _probe(conn, expression, most, filters, pool):
            rows.setdefault(row.id, row)
    return list(rows.values())


_RETAIN_FIRST = (
    "CASE WHEN c.kind IN ('world', 'experience', 'opinion', 'observation') THEN 0 ELSE 1 END"
)


def fetch_window(conn: sqlite3.Connection, filters: Filters, limit: int) -> list[Row]:
    """The chunks of the notes dated inside ``filters``' days, Retain facts first, then by day
    and line; undated files are left out (a window asks for dated notes), and so is MEMORY.md,
    whose entries carry the day of a note line listed with its note."""
    where, params = filters.sql(dated=True)
    sql = (
        f"SELECT {_COLUMNS} FROM chunks AS c WHERE c.day IS NOT NULL"  # noqa: S608 (only ?s)
        " AND c.kind != 'memory'"
        + (f" AND {where}" if where else "")
        + f" ORDER BY {_RETAIN_FIRST}, c.day, c.path, c.start_line LIMIT ?"
    )
    return [Row(*row) for row in conn.execute(sql, (*params, limit))]


def fetch_neighbours(
    conn: sqlite3.Connection, rows: Iterable[Row], *, known: Iterable[Row] = ()
) -> list[Row]:
    """The chunks right before and after each of ``rows`` in the same file, except ``known``."""
    given = {row.id: row.path for row in rows}
    skip = set(given) | {row.id for row in known}
    wanted = {near for row_id in given for near in (row_id - 1, row_id + 1) if near not in skip}
    if not wanted:
        return []
    marks = ", ".join("?" * len(wanted))
    found = conn.execute(
        f"SELECT {_COLUMNS} FROM chunks AS c WHERE c.id IN ({marks})",  # noqa: S608 (only ?s)
        sorted(wanted),
    ).fetchall()
    near = [Row(*row) for row in found]
    return [
        row
        for row in near
        if given.get(row.id - 1) == row.path or given.get(row.id + 1) == row.path
    ]


def fetch_rows(conn: sqlite3.Connection, ids: Iterable[int]) -> dict[int, Row]:
    """The chunks with ``ids`` (those that exist), by id."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    marks = ", ".join("?" * len(wanted))
    found = conn.execute(
        f"SELECT {_COLUMNS} FROM chunks AS c WHERE c.id IN ({marks})",  # noqa: S608 (only ?s)
        wanted,
    ).fetchall()
    return {row[0]: Row(*row) for row in found}
