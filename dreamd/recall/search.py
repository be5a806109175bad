"""Search: free-text queries over the recall index -> ranked hits with scores in [0, 1].

Rules:

- The query is parsed (:mod:`dreamd.recall.query`): terms, ``@entities``, a window of days, a
  "when" question. A query without terms finds nothing (unless an entity filter names one).
- A query term that is the speaker label of at least half the chunks holding it (a speaker's
  name: ``- Dana: ...``) is a *name*: it selects whose lines to prefer instead of being
  searched as a word, unless the query has no other term.
- Candidates come from FTS5 (:mod:`dreamd.recall.candidates`, at most ``max(3k, 40)`` rows a
  probe), with the lines right before and after the first ``max(k, 15)`` of them;
  :mod:`dreamd.recall.ranking` scores and orders them (the first stage,
  :func:`rank_candidates`), then :mod:`dreamd.recall.rerank` orders the first 40 again from
  the same signals and the line before each. Hits are ordered by rank (ties: the first
  order), so equal input gives equal output; ``score`` is the relevance dreaming records,
  ``why`` the signals and features behind the rank.
- Filters are hard: ``since_days`` / ``first_day`` / ``last_day`` drop chunks of notes dated
  outside (undated files stay), ``kinds`` keeps those kinds (a file kind — daily, memory, note,
  corpus — or a Retain kind — world, experience, opinion, observation), ``entity`` keeps chunks
  that tag ``@entity``. A window named in the query itself only ranks, never filters.
- With semantic recall attached (``index.semantic``, :mod:`dreamd.recall.vectors`), the
  ranked hits are fused with the nearest chunks by embedding before they are returned.
- Natural questions are read for their shape (:mod:`dreamd.recall.query`): "tell me about The
  Castle" searches ``The Castle`` and prefers what tags it; a question that names only a time
  ("what happened on 2026-03-02", "what was true during November 2025") lists the chunks of that
  window, Retain facts first, as context hits (shown, never recorded as recalls).
- An order pasted into a note for the agent comes after every other hit
  (:mod:`dreamd.recall.orders`): findable, never the first answer.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Iterable, Sequence
from datetime import date, datetime, timedelta

from dreamd.engine.hits import Hit
from dreamd.recall.candidates import (
    RANK_BUDGET,
    Filters,
    Row,
    fetch_candidates,
    fetch_neighbours,
    fetch_rows,
    fetch_window,
    match_expression,
)
from dreamd.recall.chunking import chunk_snippet
from dreamd.recall.current import one_per_fact
from dreamd.recall.dates import DayWindow
from dreamd.recall.index import RecallIndex
from dreamd.recall.orders import orders_last
from dreamd.recall.query import Query, Term, parse_query
from dreamd.recall.ranking import CONTEXT_SCORE, Ranked, rank_rows
from dreamd.recall.rerank import DEPTH, rerank
from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Final

    from dreamd.engine.facts.statement import Statement

__all__ = ["RANK_BUDGET", "Staged", "match_expression", "rank_candidates", "search", "window_hits"]

NAME_SHARE = 0.5  # a term is a name when at least this share of its chunks have it as speaker
POOL = 40  # candidates a probe keeps at least: the second stage reorders the first DEPTH
AROUND = 15  # the first candidates whose neighbours are ranked too, at least


class _Found(Value):
    __match_args__ = ("candidates", "neighbours", "frequency", "names")
    __slots__ = __match_args__
    candidates: Final[list[Row]]
    neighbours: Final[list[Row]]
    frequency: Final[dict[str, int]]
    names: Final[frozenset[str]]

    def __init__(
        self,
        candidates: list[Row],
        neighbours: list[Row],
        frequency: dict[str, int],
        names: frozenset[str],
    ) -> None:
        self.candidates = candidates
        self.neighbours = neighbours
        self.frequency = frequency
        self.names = names


def _first_day(now: datetime, since_days: float | None) -> str | None:
    """The oldest day kept, as ``YYYY-MM-DD``; None keeps every day."""
    if since_days is None:
        return None
    if math.isnan(since_days) or since_days < 0:
        raise ValueError(f"since_days must be a number >= 0, got {since_days!r}")
    try:
        return (now - timedelta(days=since_days)).date().isoformat()
    except OverflowError:
        return date.min.isoformat()


def _collect(
    conn: sqlite3.Connection,
    query: Query,
    filters: Filters,
    pool: int,
    around: int,
    speakers: dict[str, int],
    frequency: dict[str, int],
) -> _Found:
    names = frozenset(
        term.stem
        for term in query.terms
        if speakers.get(term.stem, 0) >= NAME_SHARE * frequency[term.stem] > 0
    )
    content = tuple(term for term in query.terms if term.stem not in names) or query.terms
    rows = fetch_candidates(conn, content, frequency, filters, pool)
    if names and content is not query.terms:
        named = tuple(term for term in query.terms if term.stem in names)
        rows += fetch_candidates(conn, content, frequency, filters, pool, required=named)
    unique = list({row.id: row for row in rows}.values())
    near: list[Row] = []
    if filters.kinds is None and filters.entity is None:  # a neighbour would escape them
        near = fetch_neighbours(conn, unique[:around], known=unique)
    return _Found(unique, near, frequency, names)


class Staged(Value):
    """The first stage's order and what the second stage needs beside it."""

    __match_args__ = ("ranked", "previous", "frequency", "names", "documents")
    __slots__ = __match_args__
    ranked: Final[list[Ranked]]
    previous: Final[dict[int, Row]]  # a ranked row's id -> the chunk just before it
    frequency: Final[dict[str, int]]
    names: Final[frozenset[str]]
    documents: Final[int]

    def __init__(
        self,
        ranked: list[Ranked],
        previous: dict[int, Row],
        frequency: dict[str, int],
        names: frozenset[str],
        documents: int,
    ) -> None:
        self.ranked = ranked
        self.previous = previous
        self.frequency = frequency
        self.names = names
        self.documents = documents


def rank_candidates(
    index: RecallIndex, parsed: Query, filters: Filters, *, k: int, today: date
) -> Staged:
    """The first stage: candidates and their neighbours, ranked (see the module rules)."""
    speakers = index.speakers()
    frequency = index.frequencies(parsed.stems)
    documents = max(index.chunk_count(), 1)
    pool, around = max(3 * k, POOL), max(k, AROUND)

    def collect(conn: sqlite3.Connection) -> Staged:
        found = _collect(conn, parsed, filters, pool, around, speakers, frequency)
        ranked = rank_rows(
            parsed,
            found.candidates,
            found.neighbours,
            documents=documents,
            frequency=found.frequency,
            names=found.names,
            today=today,
            span=k,
        )
        known = {row.id: row for row in (*found.candidates, *found.neighbours)}
        head = [item.row.id - 1 for item in ranked[:DEPTH]]
        known.update(fetch_rows(conn, (row_id for row_id in head if row_id not in known)))
        previous = {row_id + 1: known[row_id] for row_id in head if row_id in known}
        return Staged(ranked, previous, found.frequency, found.names, documents)

    return index.read(collect)


def _hit(ranked: Ranked) -> Hit:
    row = ranked.row
    why = tuple((name, round(value, 3)) for name, value in ranked.signals.items() if value)
    return Hit(
        path=row.path,
        start_line=row.start_line,
        end_line=row.end_line,
        snippet=chunk_snippet(row.text),
        score=ranked.score,
        kind=row.kind,
        day=row.day,
        entities=tuple(row.entities.split()),
        confidence=row.confidence,
        why=why,
        context=ranked.context,
    )


def window_hits(index: RecallIndex, window: DayWindow, filters: Filters, k: int) -> list[Hit]:
    """The first ``k`` chunks of the notes inside ``window`` (and ``filters``), Retain facts
    first. They are listed, not matched: *context* hits, which are not recorded as recalls."""
    first, last = window.first.isoformat(), window.last.isoformat()
    if filters.first_day and filters.first_day > first:
        first = filters.first_day
    if filters.last_day and filters.last_day < last:
        last = filters.last_day
    inside = Filters(first, last, filters.kinds, filters.entity)
    rows = index.read(lambda conn: fetch_window(conn, inside, k))
    return [
        Hit(
            path=row.path,
            start_line=row.start_line,
            end_line=row.end_line,
            snippet=chunk_snippet(row.text),
            score=CONTEXT_SCORE,
            kind=row.kind,
            day=row.day,
            entities=tuple(row.entities.split()),
            confidence=row.confidence,
            why=(("day", 1.0),),
            context=True,
        )
        for row in rows
    ]


def search(
    index: RecallIndex,
    query: str,
    *,
    k: int = 10,
    since_days: float | None = None,
    now: datetime,
    first_day: str | None = None,
    last_day: str | None = None,
    kinds: Iterable[str] | None = None,
    entity: str | None = None,
) -> list[Hit]:
    """The ``k`` best hits for ``query`` in ``index`` (see the module rules)."""
    since = _first_day(now, since_days)
    if since is not None and (first_day is None or since > first_day):
        first_day = since
    wanted = entity.lstrip("@").lower() if entity else None
    filters = Filters(
        first_day, last_day, frozenset(kinds) if kinds is not None else None, wanted or None
    )
    parsed = parse_query(query, today=now.date())
    if not parsed.terms and wanted:
        parsed = parse_query(wanted, today=now.date())
        parsed = Query(parsed.terms or (Term(wanted, wanted),), (wanted,))
    if k <= 0:
        return []
    if not parsed.terms and parsed.window is not None:  # "what happened on 2026-03-02"
        return window_hits(index, parsed.window, filters, k)
    if not parsed.terms:
        return []
    ranked = _ranked(index, parsed, filters, k=k, today=now.date())
    head = ranked[: max(2 * k, k + 10)]

    def later(words: str, after: str) -> list[tuple[Hit, str]]:
        """The lines about ``words`` from ``after`` on: what may replace a hit."""
        asked = parse_query(words, today=now.date())
        if not asked.terms:
            return []
        since = Filters(max(after, filters.first_day or after), filters.last_day, filters.kinds)
        found = _ranked(index, asked, since, k=5, today=now.date())[:5]
        return [(_hit(item), item.row.speaker) for item in found]

    hits = [_hit(item) for item in head]
    speakers = [item.row.speaker for item in head]
    if index.semantic is not None:  # semantic recall, when configured (dreamd.recall.vectors)
        said = {(hit.path, hit.start_line): who for hit, who in zip(hits, speakers, strict=True)}
        hits = index.semantic(query, hits, max(len(hits), k), filters)
        speakers = [said.get((hit.path, hit.start_line), "") for hit in hits]
    hits, speakers = orders_last(hits, speakers)
    return one_per_fact(
        hits,
        speakers,
        question=query,
        window=parsed.window,
        today=now.date(),
        limit=k,
        probe=later,
        read=lambda texts: _statements(index, texts),
    )


def _statements(index: RecallIndex, texts: Sequence[str]) -> list[Statement]:
    """Lines read as statements, kept in the index for the next turn: loaded only when the
    first hits need the fact model (:mod:`dreamd.recall.current`)."""
    from dreamd.recall.statements import cached_statements

    return cached_statements(index, texts)


def _ranked(
    index: RecallIndex, parsed: Query, filters: Filters, *, k: int, today: date
) -> list[Ranked]:
    """Both stages: the candidates ranked, then the first of them ranked again."""
    staged = rank_candidates(index, parsed, filters, k=k, today=today)
    return rerank(
        parsed,
        staged.ranked,
        staged.previous,
        documents=staged.documents,
        frequency=staged.frequency,
        names=staged.names,
    )
