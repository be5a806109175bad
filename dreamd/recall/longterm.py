"""The long-term layer (§15, seed 004): querying the rows that left the 512-row recall store.

Which rows retire, and how a retired row is written, is :mod:`dreamd.engine.retirement`. Rules:

- :func:`query_longterm` ranks retired rows for a query with the same analysis and scoring as
  search (stems, coverage, BM25; no neighbours). :func:`consolidation_query` turns the strongest
  entries of a day into the keywords the deep phase asks the layer with before it consolidates.

Pure: time is passed in; reading and appending the file is :mod:`dreamd.store.longterm`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from dreamd.engine.hits import Hit
from dreamd.engine.retirement import Retired
from dreamd.engine.state import RecallEntry
from dreamd.layout import daily_note_day, is_short_term_path
from dreamd.recall.analysis import stems, words
from dreamd.recall.candidates import Row
from dreamd.recall.query import parse_query
from dreamd.recall.ranking import rank_rows
from dreamd.recall.retain import mentions

__all__ = ["consolidation_query", "query_longterm", "recall_for_consolidation"]


def query_longterm(
    rows: Iterable[Retired],
    query: str,
    *,
    k: int,
    now: datetime,
    first_day: str | None = None,
    last_day: str | None = None,
    kinds: Iterable[str] | None = None,
    entity: str | None = None,
) -> list[Hit]:
    """The ``k`` retired rows that best match ``query``, as hits (scores in [0, 1]).

    Filters work as in search: days of dated notes, the file kind, an ``@entity`` tag.
    """
    parsed = parse_query(query, today=now.date())
    if not parsed.terms or k <= 0:
        return []
    allowed = frozenset(kinds) if kinds is not None else None
    wanted_entity = entity.lstrip("@").lower() if entity else None
    wanted = set(parsed.stems)
    documents = 0
    frequency = dict.fromkeys(wanted, 0)
    candidates: list[Row] = []
    for number, row in enumerate(rows):
        entry = row.entry
        documents += 1
        present = wanted.intersection(stems(entry.snippet))
        for stem in present:
            frequency[stem] += 1
        day = daily_note_day(entry.path)
        kind = "daily" if is_short_term_path(entry.path) else "note"
        tags = [name.lower() for name in mentions(entry.snippet)]
        if (
            present
            and (day is None or ((first_day or day) <= day <= (last_day or day)))
            and (allowed is None or kind in allowed)
            and (wanted_entity is None or wanted_entity in tags)
        ):
            # Ids two apart: retired rows are never each other's neighbours.
            candidates.append(
                Row(2 * number, entry.path, entry.start_line, entry.end_line, "", "",
                    entry.snippet, "", day, kind, None, " ".join(tags))
            )  # fmt: skip
    ranked = rank_rows(
        parsed,
        candidates,
        documents=max(documents, 1),
        frequency=frequency,
        names=frozenset(),
        today=now.date(),
        span=2 * k,
    )
    return [
        Hit(
            r.row.path, r.row.start_line, r.row.end_line, r.row.text, r.score, r.row.kind, r.row.day
        )
        for r in ranked[:k]
    ]


def consolidation_query(entries: Sequence[RecallEntry], *, strongest: int = 5) -> str:
    """Keywords of the strongest entries (by max score, then recalls): the deep phase's query.

    Each entry gives its concept tags (its snippet's words when it has none), strongest first,
    each keyword once.
    """
    ranked = sorted(entries, key=lambda e: (-e.max_score, -e.recall_count, e.key))[:strongest]
    keywords: dict[str, None] = {}
    for entry in ranked:
        for word in entry.concept_tags or tuple(words(entry.snippet)):
            keywords.setdefault(word.lower(), None)
    return " ".join(keywords)


def recall_for_consolidation(
    rows: Iterable[Retired],
    strongest: Sequence[RecallEntry],
    *,
    now: datetime,
    k: int = 5,
) -> list[Hit]:
    """The retired memories related to a day's strongest entries: the deep phase's context."""
    return query_longterm(rows, consolidation_query(strongest), k=k, now=now)
