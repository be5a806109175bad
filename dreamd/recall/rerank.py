"""Second stage: the first candidates of the ranking ordered again, by what the ranking knows.

Rules:

- The first :data:`DEPTH` of :func:`dreamd.recall.ranking.rank_rows`'s order are scored again as
  ``Σ weight · feature`` (:data:`WEIGHTS`); the rest keep their order after them. Ties keep the
  first order. Offline and deterministic: no model, no network, nothing downloaded.
- The features, each in [0, 1], come from what the first ranking already has:

  - ``first``: the first ranking's value, over the best one's;
  - ``before`` / ``after``: the lexical value of the line just before / after (an answer sits
    next to the words of its question);
  - ``answer``: the line before, which this one goes on from
    (:func:`~dreamd.recall.ranking.continues`), asks a question (it ends in ``?``) and holds the
    query's terms: the idf-weighted share of them it holds (this line is its answer);
  - ``proximity``: ``1 / (1 + d)``, ``d`` the fewest steps from one query term to another in
    the line (a name included: "Nate ... favorite genre");
  - ``subject``: the line is said by (or tags) the person the question is about: the first
    name it gives, or its subject ("what does Peter prefer");
  - ``asks``: the line is itself a question (its answer is elsewhere);
  - ``day``: the line's note is inside the window of days the question names.

- :data:`WEIGHTS` were fitted by ``bench/rerank_fit.py`` on the LoCoMo conversations by
  coordinate ascent on turn-level Recall@5 (the script prints the figures on conversations the
  weights were not fitted on); nothing is tuned per question. Each hit keeps its features in
  ``Ranked.signals`` (``why``) beside the first ranking's signals, with ``rerank`` the sum, so
  ``memory search --explain`` shows what placed it.

Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from dreamd.recall.analysis import stems
from dreamd.recall.candidates import Row
from dreamd.recall.query import Query
from dreamd.recall.ranking import Ranked, continues, idf_of, row_tokens

__all__ = ["DEPTH", "FEATURES", "WEIGHTS", "explain", "features", "rerank"]

DEPTH = 40
FEATURES = ("first", "before", "after", "answer", "proximity", "subject", "asks", "day")
WEIGHTS = {  # bench/rerank_fit.py, fitted on all ten LoCoMo conversations
    "first": 1.0,
    "before": 0.5,
    "after": 0.3,
    "answer": 0.5,
    "proximity": 0.1,
    "subject": 0.2,
    "asks": -0.05,
    "day": 0.5,
}


@lru_cache(maxsize=4096)
def _stem_set(text: str) -> frozenset[str]:
    return frozenset(stems(text))


def _asks(text: str) -> bool:
    """True when the line's last words are a question."""
    return text.rstrip().endswith(("?", "？"))


def _proximity(tokens: Sequence[str], wanted: frozenset[str]) -> float:
    """``1 / (1 + d)``: ``d`` the fewest steps from one query term to another (next: 1)."""
    last: dict[str, int] = {}
    best: int | None = None
    for position, token in enumerate(tokens):
        if token not in wanted:
            continue
        for other, seen in last.items():
            if other != token and (best is None or position - seen < best):
                best = position - seen
        last[token] = position
    return 0.0 if best is None else 1.0 / (1 + best)


class _Question:
    """What the features are computed against: the query's terms, their idf, its subject."""

    __slots__ = ("idf", "subject", "terms", "total")

    def __init__(self, query: Query, idf: dict[str, float], names: frozenset[str]) -> None:
        content = [stem for stem in query.stems if stem not in names] or list(query.stems)
        self.idf = {stem: idf[stem] for stem in content}
        self.total = sum(self.idf.values()) or 1.0
        self.terms = frozenset(query.stems)
        named = [stem for stem in query.stems if stem in names]
        if not named and query.subject:
            named = stems(query.subject)[:1]
        self.subject = named[0] if named else None

    def coverage(self, text: str) -> float:
        held = _stem_set(text)
        return sum(weight for stem, weight in self.idf.items() if stem in held) / self.total


def features(
    query: Query,
    ranked: Sequence[Ranked],
    previous: Mapping[int, Row],
    *,
    idf: dict[str, float],
    names: frozenset[str],
) -> list[dict[str, float]]:
    """The features of each of ``ranked`` (see the module rules); ``previous`` maps a row's id
    to the chunk just before it in the same file, when there is one."""
    if not ranked:
        return []
    asked = _Question(query, idf, names)
    best = ranked[0].rank if ranked[0].rank > 0 else 1.0
    found = []
    for item in ranked:
        row, signals = item.row, item.signals
        before = previous.get(row.id)
        answer = 0.0
        if before is not None and continues(before, row) and _asks(before.text):
            answer = asked.coverage(before.text)
        subject = 0.0
        if asked.subject is not None and (row.speaker or row.entities):
            labels = _stem_set(row.speaker) | _stem_set(row.entities)
            subject = 1.0 if asked.subject in labels else 0.0
        found.append(
            {
                "first": max(0.0, item.rank / best),
                "before": signals.get("before", 0.0),
                "after": signals.get("after", 0.0),
                "answer": answer,
                "proximity": _proximity(row_tokens(row), asked.terms),
                "subject": subject,
                "asks": 1.0 if _asks(row.text) else 0.0,
                "day": signals.get("day", 0.0),
            }
        )
    return found


def rerank(
    query: Query,
    ranked: Sequence[Ranked],
    previous: Mapping[int, Row],
    *,
    documents: int,
    frequency: dict[str, int],
    names: frozenset[str],
    weights: Mapping[str, float] = WEIGHTS,
) -> list[Ranked]:
    """``ranked`` with its first :data:`DEPTH` ordered by the weighted features (see the
    module rules); each keeps its features beside the first ranking's signals."""
    head = list(ranked[:DEPTH])
    idf = idf_of(query, documents=documents, frequency=frequency)
    scored = []
    for position, (item, found) in enumerate(
        zip(head, features(query, head, previous, idf=idf, names=names), strict=True)
    ):
        value = sum(weights.get(name, 0.0) * found[name] for name in FEATURES)
        signals = {**item.signals, **found, "rerank": value}
        again = Ranked(item.row, item.score, value, signals, item.context)
        scored.append((-value, position, again))
    scored.sort(key=lambda entry: (entry[0], entry[1]))
    return [entry[2] for entry in scored] + list(ranked[DEPTH:])


_FIRST_SIGNALS = ("lexical", "speaker", "note", "phrase", "time", "recency")


def explain(why: Mapping[str, float], weights: Mapping[str, float] = WEIGHTS) -> str:
    """A hit's place in words: the second stage's sum term by term, then the first stage's
    other signals (``memory search --explain``); ``why`` is the hit's ``why``."""
    terms = [
        f"{name} {why[name]:.3f}x{weights[name]:g}"
        for name in FEATURES
        if why.get(name) and weights.get(name)
    ]
    first = [f"{name} {why[name]:.3f}" for name in _FIRST_SIGNALS if why.get(name)]
    text = f"rerank {why.get('rerank', 0.0):.3f} = " + (" + ".join(terms) or "0")
    return text + (f"; first stage: {', '.join(first)}" if first else "")
