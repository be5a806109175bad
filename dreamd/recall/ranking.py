"""Ranking: how candidate chunks are ordered and scored — offline, deterministic, explainable.

Each candidate gets a **score** in [0, 1] that says how well it matches the query, and a **rank**
that orders the hits: the score's lexical part plus weighted signals. ``Ranked.signals`` keeps
every signal's value, so a hit can say why it is where it is.

Score (dreaming reads it as relevance): ``coverage ** 1.5 * (0.75 + 0.25 * bm25 / best bm25)``.
``coverage`` is the idf-weighted share of query terms the chunk holds (heading, speaker label, text,
entities); a name counts as much as the rarest other term. A chunk with every term scores >= 0.75;
one with 1 of 4 equally rare terms <= 0.125. A line that holds no term and is ranked only for its
neighbours scores at most :data:`CONTEXT_SCORE` times their score.

Rank: ``lexical + Σ weight · signal`` (:data:`WEIGHTS`), each signal in [0, 1]:

- ``lexical``: field-aware BM25 of the content terms (heading weighs half, names are left to
  ``speaker``) times their coverage, over the best candidate's;
- ``speaker``: the line is said by, or tags (``@Name``), someone the query names;
- ``note``: the share of the query's terms found anywhere in the same note (a day that is about
  the question lifts its lines);
- ``before`` / ``after``: the lexical value of the line just before / after, when one goes on
  from the other (:func:`continues`: a dialogue, the answer to a question, the rest of a
  paragraph; not the next item of a list, nor a line under another heading): an answer follows
  its question;
- ``phrase``: the share of adjacent query terms that stand within two words in the chunk;
- ``time``: for a "when" question, the chunk says when (a date, a weekday, "last week"...);
- ``day``: the chunk's note day is inside the window the query names ("in May 2023");
- ``recency``: ``exp(-age / 90 days)`` of dated notes, a tie-breaker.

Weighted fusion beat reciprocal-rank fusion on the LoCoMo benchmark (``bench/recall.py``), so
signals are fused by weight. Finally near-duplicates are spread out (maximal marginal relevance):
a chunk whose words overlap a higher one's by Jaccard >= 0.6 loses ``similarity / 2`` of the best
rank, so copies do not crowd the top k. Pure: ``today`` is passed in.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from datetime import date
from functools import lru_cache

from dreamd.engine.text.tokens import token_set
from dreamd.patterns import LazyPattern
from dreamd.recall.analysis import stems
from dreamd.recall.candidates import Row
from dreamd.recall.query import Query
from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Final

__all__ = ["CONTEXT_SCORE", "WEIGHTS", "Ranked", "continues", "idf_of", "rank_rows", "row_tokens"]

WEIGHTS = {
    "speaker": 0.5,
    "note": 0.3,
    "before": 0.25,
    "after": 0.1,
    "phrase": 0.5,
    "time": 0.4,
    "day": 0.5,
    "recency": 0.02,
}
_WEIGHTED = tuple(WEIGHTS.items())
_ITEM = LazyPattern(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]")
CONTEXT_SCORE = 0.3
HEADING_WEIGHT = 0.5
DUPLICATE_SIMILARITY = 0.6
_K1, _B = 0.9, 0.4
_TIME = LazyPattern(
    r"\b(?:yesterday|today|tonight|tomorrow|last|next|ago|weekend|week|month|year|since|recently"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april"
    r"|may|june|july|august|september|october|november|december|(?:19|20)\d\d"
    r"|\d{1,2}[:/.-]\d{1,2})\b",
    re.IGNORECASE,
)


class Ranked(Value):
    """A candidate with its score (relevance), rank (order) and the signals behind the rank."""

    __match_args__ = ("row", "score", "rank", "signals", "context")
    __slots__ = __match_args__
    row: Final[Row]
    score: Final[float]
    rank: Final[float]
    signals: Final[dict[str, float]]
    context: Final[bool]  # holds no query term: ranked only for the lines around it

    def __init__(
        self,
        row: Row,
        score: float,
        rank: float,
        signals: dict[str, float],
        context: bool = False,
    ) -> None:
        self.row = row
        self.score = score
        self.rank = rank
        self.signals = signals
        self.context = context


class _Doc:
    """A candidate's analysed text."""

    __slots__ = ("counts", "present", "row", "tokens")

    def __init__(
        self,
        row: Row,
        tokens: tuple[str, ...],
        counts: dict[str, float],  # shared through the cache: read only
        present: frozenset[str],
    ) -> None:
        self.row = row
        self.tokens = tokens
        self.counts = counts
        self.present = present


@lru_cache(maxsize=4096)
def _label_stems(text: str) -> frozenset[str]:
    """Stems of a heading, speaker or entity list (few distinct values, so cached)."""
    return frozenset(stems(text))


def _analyse(row: Row) -> _Doc:
    return _Doc(row, *_analysis(row.text, row.grams, row.heading, row.speaker, row.entities))


@lru_cache(maxsize=16384)  # a daemon asks about the same chunks again and again
def _analysis(
    text: str, grams: str, heading: str, speaker: str, entities: str
) -> tuple[tuple[str, ...], dict[str, float], frozenset[str]]:
    """A chunk's body stems in order, weighted term counts, and every term it holds."""
    body = stems(text)
    if grams:
        body += grams.split()
    counts: dict[str, float] = dict.fromkeys(body, 0.0)
    for token in body:
        counts[token] += 1.0
    if heading:
        for token in _label_stems(heading):
            counts[token] = counts.get(token, 0.0) + HEADING_WEIGHT
    present = counts.keys() | _label_stems(speaker) | _label_stems(entities)
    return tuple(body), counts, frozenset(present)


def _idf(documents: int, frequency: int) -> float:
    """BM25's idf, kept positive even when the chunk count is momentarily stale."""
    return max(0.01, math.log(1.0 + (documents - frequency + 0.5) / (frequency + 0.5)))


def continues(first: Row | None, second: Row | None) -> bool:
    """Whether chunk ``second``, the one after ``first``, goes on from it: in the same file,
    under the same heading, and more than the next item of a list: a dialogue (both lines said
    by someone), the answer to a question, or the rest of a paragraph."""
    if first is None or second is None:
        return False
    if (first.path, first.heading) != (second.path, second.heading):
        return False
    if (first.speaker and second.speaker) or first.text.rstrip().endswith(("?", "？")):
        return True
    return not (_ITEM.match(first.text) and _ITEM.match(second.text))


def idf_of(query: Query, *, documents: int, frequency: dict[str, int]) -> dict[str, float]:
    """Each query term's idf, as the ranking weighs it."""
    return {stem: _idf(documents, frequency.get(stem, 0)) for stem in query.stems}


def row_tokens(row: Row) -> tuple[str, ...]:
    """A chunk's body stems in order (the ranking's cached analysis)."""
    return _analyse(row).tokens


def _phrase(doc: _Doc, pairs: tuple[tuple[str, str], ...]) -> float:
    """The share of ``pairs`` whose second term follows the first within two words."""
    both = [(a, b) for a, b in pairs if a in doc.counts and b in doc.counts]
    if not both:
        return 0.0
    where: dict[str, list[int]] = {}
    for position, token in enumerate(doc.tokens):
        where.setdefault(token, []).append(position)
    found = 0
    for first, second in both:
        after = where.get(second, ())
        if any(0 < b - a <= 2 for a in where.get(first, ()) for b in after):
            found += 1
    return found / len(pairs)


def rank_rows(
    query: Query,
    candidates: Sequence[Row],
    neighbours: Sequence[Row] = (),
    *,
    documents: int,
    frequency: dict[str, int],
    names: frozenset[str],
    today: date,
    span: int = 30,
) -> list[Ranked]:
    """Score and order ``candidates`` and their ``neighbours`` for ``query``; best first.

    Neighbours are lines next to candidates that did not make the candidate pool: they are
    ranked by their context alone (their own lexical value counts as 0), and only next to a
    candidate they go on from or that goes on from them (:func:`continues`).
    """
    if not candidates:
        return []
    docs = [_analyse(row) for row in candidates]
    content = [stem for stem in query.stems if stem not in names] or list(query.stems)
    idf = idf_of(query, documents=documents, frequency=frequency)
    top = max(idf[stem] for stem in content)
    weight = {stem: (top if stem not in content else idf[stem]) for stem in idf}
    total_all = sum(weight.values())
    total = sum(idf[stem] for stem in content)
    content_idf = [(stem, idf[stem]) for stem in content]
    average = max(1.0, sum(len(doc.tokens) for doc in docs) / len(docs))
    bm25: list[float] = []
    coverage: list[float] = []
    full: list[float] = []
    note_terms: dict[str, set[str]] = {}
    for doc in docs:
        norm = _K1 * (1 - _B + _B * len(doc.tokens) / average)
        value = share = 0.0
        for stem, weight_of in content_idf:
            count = doc.counts.get(stem)
            if count:
                value += weight_of * count * (_K1 + 1) / (count + norm)
                share += weight_of
        bm25.append(value)
        coverage.append(share / total)
        full.append(sum(w for stem, w in weight.items() if stem in doc.present) / total_all)
        note_terms.setdefault(doc.row.path, set()).update(doc.present.intersection(content))
    best = max(bm25) or 1.0
    lexical = {
        doc.row.id: cov * value / best for doc, cov, value in zip(docs, coverage, bm25, strict=True)
    }
    scores = {
        doc.row.id: share**1.5 * (0.75 + 0.25 * value / best)
        for doc, share, value in zip(docs, full, bm25, strict=True)
    }
    matched = {row.id: row for row in candidates}
    paths = {**matched, **{row.id: row for row in neighbours}}
    context = _Context(query, names, idf, total, note_terms, today)
    results = [
        context.ranked(doc.row, lexical, scores, paths, doc if lexical[doc.row.id] else None)
        for doc in docs
    ]
    results += [
        context.ranked(row, lexical, scores, paths, None)
        for row in neighbours
        if any(
            near is not None and continues(*pair)
            for near, pair in (
                (matched.get(row.id - 1), (matched.get(row.id - 1), row)),
                (matched.get(row.id + 1), (row, matched.get(row.id + 1))),
            )
        )
    ]
    ordered = sorted(results, key=lambda r: (-r.rank, r.row.path, r.row.start_line))
    return _spread(ordered, span)


class _Context:
    """What every row's signals are computed against."""

    def __init__(
        self,
        query: Query,
        names: frozenset[str],
        idf: dict[str, float],
        total: float,
        note_terms: dict[str, set[str]],
        today: date,
    ) -> None:
        self.query = query
        self.pairs = query.pairs
        self.temporal = query.temporal
        self.window = query.window
        self.wanted = names | frozenset(stems(" ".join(query.entities)))
        self.note = {
            path: sum(idf[stem] for stem in found) / total for path, found in note_terms.items()
        }
        self.today = today

    def ranked(
        self,
        row: Row,
        lexical: dict[int, float],
        scores: dict[int, float],
        paths: dict[int, Row],
        matched: _Doc | None,
    ) -> Ranked:
        """One row's score, signals and rank (``matched`` is its analysis when it has a term)."""
        # The lines around a line: the chunks just before and after it that it goes on from
        # or that go on from it (:func:`continues`).
        before, after = paths.get(row.id - 1), paths.get(row.id + 1)
        near = [
            row.id - 1 if before is not None and continues(before, row) else None,
            row.id + 1 if after is not None and continues(row, after) else None,
        ]
        score = scores.get(row.id, 0.0)
        context = score == 0.0
        if context:
            around = [scores.get(n, 0.0) for n in near if n is not None]
            score = CONTEXT_SCORE * max(around, default=0.0)
        speaker = 0.0
        if self.wanted and (row.speaker or row.entities):
            labels = _label_stems(row.speaker) | _label_stems(row.entities)
            speaker = 0.0 if labels.isdisjoint(self.wanted) else 1.0
        window = self.window
        signals = {
            "lexical": lexical.get(row.id, 0.0),
            "speaker": speaker,
            "note": self.note.get(row.path, 0.0),
            "before": lexical.get(near[0], 0.0) if near[0] is not None else 0.0,
            "after": lexical.get(near[1], 0.0) if near[1] is not None else 0.0,
            "phrase": _phrase(matched, self.pairs) if matched and self.pairs else 0.0,
            "time": 1.0 if matched and self.temporal and _TIME.search(row.text) else 0.0,
            "day": 1.0 if window is not None and window.holds(row.day) else 0.0,
            "recency": _recency(row.day, self.today),
        }
        rank = signals["lexical"]
        for name, weight in _WEIGHTED:
            rank += weight * signals[name]
        return Ranked(row, round(min(1.0, score), 4), rank, signals, context)


@lru_cache(maxsize=1024)
def _recency(day: str | None, today: date) -> float:
    if day is None:
        return 0.0
    try:
        age = (today - date.fromisoformat(day)).days
    except ValueError:
        return 0.0
    return math.exp(-max(0, age) / 90.0)


def _spread(ranked: list[Ranked], span: int) -> list[Ranked]:
    """Maximal marginal relevance against near-duplicates, until ``span`` distinct rows lead.

    A row's overlap is its largest token Jaccard similarity to the rows before it (0 when the
    sizes alone rule a near-duplicate out), worked out on bit masks of the token sets (one bit
    per token), the rows before grouped by size: the same numbers as a set operation per pair,
    at a fraction of the cost (a recall ranks a few hundred rows, on every turn).
    """
    if len(ranked) < 2:
        return ranked
    best = ranked[0].rank
    bits: dict[str, int] = {}
    by_size: dict[int, list[int]] = {}  # the masks of the distinct token sets so far, by size
    known: set[int] = set()  # a repeat of a row seen overlaps it wholly: no scan
    distinct = 0
    spread: list[Ranked] = []
    for position, item in enumerate(ranked):
        if distinct >= span:
            spread += ranked[position:]
            break
        words = token_set(item.row.text)
        size, mask = len(words), 0
        for token in words:
            mask |= 1 << bits.setdefault(token, len(bits))
        overlap = 0.0
        if size and mask in known:
            overlap = 1.0
        else:
            for other_size, masks in by_size.items():
                small, large = (size, other_size) if size <= other_size else (other_size, size)
                if not large or small < DUPLICATE_SIMILARITY * large:
                    continue
                # For sets of two given sizes the similarity grows with what they share, so
                # the most shared tokens in the group give its largest similarity.
                shared = max(map(int.bit_count, map(mask.__and__, masks)))
                overlap = max(overlap, shared / (size + other_size - shared))
            by_size.setdefault(size, []).append(mask)
            known.add(mask)
        if overlap >= DUPLICATE_SIMILARITY:
            lower = item.rank - overlap * best / 2
            item = Ranked(item.row, item.score, lower, item.signals, item.context)
        else:
            distinct += 1
        spread.append(item)
    return sorted(spread, key=lambda r: (-r.rank, r.row.path, r.row.start_line))
