"""Search: free-text queries over the recall index, scored into [0, 1].

Rules:

- User text never reaches FTS5 syntax: the query is tokenised into words (lowercased, diacritics
  removed, stop words and one-letter words dropped, at most :data:`MAX_TERMS`), each word is
  quoted, and only this module joins them with AND/OR. Operators, quotes, ``*``, ``NEAR``, ``-x``
  are just text, so no query raises; a query without words returns no hits.
- Candidates come from FTS5, ranked by its bm25 (the heading weighs half as much as the text),
  up to ``5·k`` per probe: every query word together (AND); the chunks holding a rare word, with
  the common words added to the ranking; and, when that leaves the pool short, any word (OR).
  A probe ranks only the :data:`RANK_BUDGET` newest matches (highest rowid), so a word found in
  thousands of chunks costs a bounded time; a rare word's matches are always ranked in full.
- Each candidate is scored ``coverage ** 1.5 · (0.75 + 0.25 · bm25 / best bm25)``: ``coverage`` is
  the idf-weighted share of query words present (heading included), and bm25 is recomputed here
  over the candidates so probes compare. A chunk with every word scores >= 0.75; one with 1 of 4
  equally rare words scores <= 0.125, however good the best hit is.
- Hits are ordered by score (rounded to 4 places), then path and line, so equal input gives equal
  output. ``since_days`` drops chunks dated before ``now - since_days`` (undated ones are kept).
"""

from __future__ import annotations

import math
import re
import sqlite3
import unicodedata
from datetime import date, datetime, timedelta
from typing import NamedTuple

from dreamd.recall.chunking import chunk_snippet
from dreamd.recall.hits import Hit
from dreamd.recall.index import RecallIndex

__all__ = [
    "MAX_TERMS",
    "RANK_BUDGET",
    "STOP_WORDS",
    "match_expression",
    "query_terms",
    "search",
]

MAX_TERMS = 32
MAX_ENTITIES = 8
RANK_BUDGET = 1000  # at most this many matches of one FTS5 expression are ranked by bm25
HEADING_WEIGHT = 0.5
_K1, _B = 1.2, 0.75
_STOP_TEXT = """
    a about above after again all also am an and any are as at be been before being below both
    but by can could did do does doing down during each else few for from further had has have
    having he her here hers him his how if in into is it its itself just me more most my no nor
    not now of off on once only or other our ours out over own same she should so some such than
    that the their theirs them then there these they this those through to too under until up
    very was we were what when where which while who whom why will with would you your yours
"""
STOP_WORDS: frozenset[str] = frozenset(_STOP_TEXT.split())

_WORD = re.compile(r"[^\W_]+")
_ENTITY = re.compile(r"(?<![\w@.])@([^\W\d_][\w.-]*)")
_FLOOR = (
    "SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?"
)
_RANKED = (  # rank in FTS5 alone, then fetch only the winners
    "SELECT c.id, c.path, c.start_line, c.end_line, c.heading, c.text, c.day, c.kind"
    " FROM (SELECT rowid AS id, bm25(chunks_fts, 0.5, 1.0) AS r FROM chunks_fts"
    " WHERE chunks_fts MATCH ? AND rowid >= ? ORDER BY r, rowid LIMIT ?) AS m"
    " JOIN chunks AS c ON c.id = m.id ORDER BY m.r, c.id"
)
_RANKED_SINCE = (  # the day filter needs every match joined before the ranking
    "SELECT c.id, c.path, c.start_line, c.end_line, c.heading, c.text, c.day, c.kind"
    " FROM chunks_fts JOIN chunks AS c ON c.id = chunks_fts.rowid"
    " WHERE chunks_fts MATCH ? AND chunks_fts.rowid >= ? AND (c.day IS NULL OR c.day >= ?)"
    " ORDER BY bm25(chunks_fts, 0.5, 1.0), c.id LIMIT ?"
)


class _Row(NamedTuple):
    id: int
    path: str
    start_line: int
    end_line: int
    heading: str
    text: str
    day: str | None
    kind: str


def _fold(text: str) -> str:
    """Lowercase and strip diacritics, as the index's ``remove_diacritics 2`` tokenizer does."""
    lowered = text.lower()
    if lowered.isascii():
        return lowered
    decomposed = unicodedata.normalize("NFD", lowered)
    return unicodedata.normalize(
        "NFC", "".join(char for char in decomposed if not unicodedata.combining(char))
    )


def query_terms(query: str) -> tuple[str, ...]:
    """The distinct searchable words of ``query``, in order."""
    terms: dict[str, None] = {}
    for word in _WORD.findall(_fold(query)):
        if word in STOP_WORDS or (len(word) == 1 and word.isascii()):
            continue
        terms[word] = None
        if len(terms) == MAX_TERMS:
            break
    return tuple(terms)


def match_expression(terms: tuple[str, ...]) -> str:
    """An FTS5 MATCH expression: every term quoted as a string, OR-ed together."""
    return " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)


def _since_day(now: datetime, since_days: float | None) -> str:
    """The oldest day kept, as ``YYYY-MM-DD``; ``""`` keeps every day."""
    if since_days is None:
        return ""
    if math.isnan(since_days) or since_days < 0:
        raise ValueError(f"since_days must be a number >= 0, got {since_days!r}")
    try:
        return (now - timedelta(days=since_days)).date().isoformat()
    except OverflowError:
        return date.min.isoformat()


def _entities(text: str) -> tuple[str, ...]:
    found: dict[str, None] = {}
    for match in _ENTITY.finditer(text):
        name = match.group(1).rstrip(".-").lower()
        found[name] = None
        if len(found) == MAX_ENTITIES:
            break
    return tuple(found)


def _idf(documents: int, frequency: int) -> float:
    """BM25's idf, kept positive even when the chunk count is momentarily stale."""
    return max(0.01, math.log(1.0 + (documents - frequency + 0.5) / (frequency + 0.5)))


def _probe(
    conn: sqlite3.Connection, expression: str, most: int, since: str, pool: int
) -> list[_Row]:
    """The ``pool`` best chunks by bm25 among the :data:`RANK_BUDGET` newest matches.

    ``most`` bounds the number of matches (from document frequencies); under the budget the
    newest-matches floor is not needed.
    """
    floor = None
    if most >= RANK_BUDGET:
        floor = conn.execute(_FLOOR, (expression, RANK_BUDGET - 1)).fetchone()
    start = floor[0] if floor else 0
    if since:
        cursor = conn.execute(_RANKED_SINCE, (expression, start, since, pool))
    else:
        cursor = conn.execute(_RANKED, (expression, start, pool))
    return [_Row(*row) for row in cursor]


def _candidates(
    conn: sqlite3.Connection, terms: tuple[str, ...], since: str, pool: int
) -> tuple[dict[str, int], list[_Row]]:
    """Document frequencies of ``terms`` and the candidate chunks (see the module rules)."""
    frequency = dict.fromkeys(terms, 0)
    for term in terms:
        found = conn.execute("SELECT doc FROM chunks_vocab WHERE term = ?", (term,)).fetchone()
        frequency[term] = int(found[0]) if found else 0
    selective: list[str] = []
    budget = RANK_BUDGET
    for term in sorted(terms, key=lambda term: (frequency[term], term)):
        if frequency[term] > budget:
            break
        selective.append(term)
        budget -= frequency[term]
    anything = match_expression(terms)
    # (expression, most matches it can have): every word, rare words (+ common ones), any word.
    probes: list[tuple[str, int]] = []
    if len(terms) > 1 and min(frequency.values()) > 0:
        every = " AND ".join(match_expression((term,)) for term in terms)
        probes.append((every, min(frequency.values())))
    rare = sum(frequency[term] for term in selective)
    if selective and len(selective) < len(terms):
        # Rows holding a rare word; the common words are in the expression only for bm25.
        probes.append((f"({match_expression(tuple(selective))}) AND ({anything})", rare))
    probes.append((anything, sum(frequency.values()) or RANK_BUDGET))
    rows: dict[int, _Row] = {}
    for expression, most in probes:
        if expression is anything and len(selective) < len(terms) and len(rows) >= pool:
            break  # the pool is full of better rows than common-word-only matches
        for row in _probe(conn, expression, most, since, pool):
            rows.setdefault(row.id, row)
    return frequency, list(rows.values())


def _scores(rows: list[_Row], weights: dict[str, float]) -> list[float]:
    """Each candidate's score: ``coverage ** 1.5 * (0.75 + 0.25 * bm25 / best bm25)``."""
    terms, idfs = tuple(weights), tuple(weights.values())
    counted = []
    for row in rows:
        head = _WORD.findall(_fold(row.heading))
        body = _WORD.findall(_fold(row.text))
        counts = [HEADING_WEIGHT * head.count(term) + body.count(term) for term in terms]
        counted.append((counts, len(head) + len(body)))
    average = max(1.0, sum(length for _, length in counted) / len(counted))
    total = sum(idfs)
    parts = []
    for counts, length in counted:
        norm = _K1 * (1 - _B + _B * length / average)
        present = [(idf, count) for idf, count in zip(idfs, counts, strict=True) if count]
        coverage = sum(idf for idf, _ in present) / total
        bm25 = sum(idf * count * (_K1 + 1) / (count + norm) for idf, count in present)
        parts.append((coverage, bm25))
    best = max(bm25 for _, bm25 in parts)
    return [
        round(coverage**1.5 * (0.75 + 0.25 * (bm25 / best if best > 0 else 0.0)), 4)
        for coverage, bm25 in parts
    ]


def search(
    index: RecallIndex,
    query: str,
    *,
    k: int = 10,
    since_days: float | None = None,
    now: datetime,
) -> list[Hit]:
    """The ``k`` best hits for ``query`` in ``index`` (see the module rules)."""
    terms = query_terms(query)
    if not terms or k <= 0:
        return []
    since, pool = _since_day(now, since_days), max(5 * k, 20)
    frequency, rows = index.read(lambda conn: _candidates(conn, terms, since, pool))
    if not rows:
        return []
    documents = max(index.chunk_count(), 1)
    scores = _scores(rows, {term: _idf(documents, frequency[term]) for term in terms})
    ranked = sorted(
        zip(scores, rows, strict=True), key=lambda p: (-p[0], p[1].path, p[1].start_line)
    )
    return [
        Hit(
            path=row.path,
            start_line=row.start_line,
            end_line=row.end_line,
            snippet=chunk_snippet(row.text),
            score=score,
            kind=row.kind,
            day=row.day,
            entities=_entities(row.text),
        )
        for score, row in ranked[:k]
    ]
