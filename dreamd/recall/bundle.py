"""Bundle search: a query hits every layer of the cone, and episodes are reached by cost.

Rules:

- The query's terms (:mod:`dreamd.recall.query`) are matched lexically against the words of
  every node (``graph_fts``: entities, FacetPoints, Facets, episodes), at most
  :data:`ENTRY_POOL` nodes, ranked by bm25 among the newest
  :data:`~dreamd.recall.candidates.RANK_BUDGET` matches (as the lexical probes are: a word
  in thousands of nodes costs a bounded time). A node's entry cost is ``1 - coverage``: the
  idf-weighted share of the query's terms its words hold (idf from the chunks). Nodes that
  hold none are no entry; the :data:`ENTRIES` cheapest start the propagation, which expands
  :data:`BUDGET` nodes at most.
- Cost propagates along the edges from the tip to the base
  (:func:`~dreamd.engine.graph.bundle.propagate`); an episode's cost is its cheapest path, its
  score ``1 / (1 + cost)``. At most :data:`FANOUT` edges leave a node (the cheapest).
- Each episode becomes a hit: the chunk of the line its last edge names, else the chunk of the
  episode that holds most of the query's terms, else its first chunk. ``why`` holds
  ``bundle`` (the score) and ``cost``; the route (node ids from the entry point) is returned
  beside the hit.
- :func:`hybrid_search` is the default ranking with bundle search fused in: the lexical hits
  keep their order and their places, and the episodes only the cone reaches (a fact named
  only through its entity) take the places the lexical ranking leaves empty; a line a lexical
  hit already speaks for (``also``, ``was``) is not added again. Letting them
  displace weak lexical hits lowered LoCoMo's R@10 (``bench/recall.py --mode both``), so they
  do not.

Read-only; deterministic (ties: episode id, path, line).
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime

from dreamd.engine.hits import Hit
from dreamd.recall.analysis import stems
from dreamd.recall.candidates import RANK_BUDGET, match_expression
from dreamd.recall.chunking import chunk_snippet
from dreamd.recall.index import RecallIndex
from dreamd.recall.query import parse_query
from dreamd.recall.search import search
from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:  # the graph's modules load when a bundle search runs, not with the CLI
    from typing import Any, Final

    from dreamd.engine.graph.bundle import Route, Step

__all__ = ["ENTRY_POOL", "FANOUT", "Routed", "bundle_search", "hybrid_search"]

ENTRY_POOL = 100  # the seed: each collection returns at most 100 candidates
ENTRIES = 64  # the cheapest entry points the propagation starts from
FANOUT = 200
BUDGET = 200  # nodes expanded at most


class Routed(Value):
    """A hit and, when bundle search found it, its route (entry point first)."""

    __match_args__ = ("hit", "route")
    __slots__ = __match_args__
    hit: Final[Hit]
    route: Final[tuple[str, ...]]

    def __init__(self, hit: Hit, route: tuple[str, ...] = ()) -> None:
        self.hit = hit
        self.route = route


def _coverage(text: str, wanted: Mapping[str, float]) -> float:
    held = set(stems(text))
    total = sum(wanted.values())
    return sum(w for stem, w in wanted.items() if stem in held) / total if total else 0.0


def _entries(
    conn: sqlite3.Connection, expression: str, wanted: Mapping[str, float]
) -> dict[str, float]:
    floor = conn.execute(
        "SELECT rowid FROM graph_fts WHERE graph_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?",
        (expression, RANK_BUDGET - 1),
    ).fetchone()
    rows = conn.execute(
        "SELECT n.node, n.text FROM graph_fts JOIN graph_nodes AS n ON n.id = graph_fts.rowid"
        " WHERE graph_fts MATCH ? AND graph_fts.rowid >= ? ORDER BY bm25(graph_fts), n.id"
        " LIMIT ?",
        (expression, floor[0] if floor else 0, ENTRY_POOL),
    ).fetchall()
    entries: dict[str, float] = {}
    for node, text in rows:
        cover = _coverage(f"{node.split(':', 1)[1]} {text}", wanted)
        if cover > 0:
            cost = round(1.0 - cover, 6)
            entries[node] = min(cost, entries.get(node, cost))
    cheapest = sorted(entries.items(), key=lambda item: (item[1], item[0]))[:ENTRIES]
    return dict(cheapest)


def _neighbours(conn: sqlite3.Connection) -> Callable[[Sequence[str]], dict[str, list[Step]]]:
    from dreamd.engine.graph.bundle import Step

    def fetch(ids: Sequence[str]) -> dict[str, list[Step]]:
        found: dict[str, list[Step]] = {}
        for node in ids:
            rows = conn.execute(
                "SELECT dst, min(cost), line FROM graph_edges WHERE src = ?"
                " GROUP BY dst ORDER BY min(cost), dst LIMIT ?",
                (node, FANOUT),
            ).fetchall()
            found[node] = [Step(d, float(c), int(li)) for d, c, li in rows]
        return found

    return fetch


def _chunk(
    conn: sqlite3.Connection, route: Route, wanted: Mapping[str, float]
) -> tuple[Any, ...] | None:
    place = conn.execute(
        "SELECT path, start_line, end_line FROM graph_episodes WHERE node = ?", (route.episode,)
    ).fetchone()
    if place is None:
        return None
    path, first, last = place
    columns = "path, start_line, end_line, text, kind, day, entities, confidence"
    if route.line:
        row = conn.execute(
            f"SELECT {columns} FROM chunks WHERE path = ? AND start_line <= ? AND end_line >= ?"  # noqa: S608
            " ORDER BY start_line LIMIT 1",
            (path, route.line, route.line),
        ).fetchone()
        if row is not None:
            return tuple(row)
    rows = conn.execute(
        f"SELECT {columns} FROM chunks WHERE path = ? AND end_line >= ? AND start_line <= ?"  # noqa: S608
        " ORDER BY start_line LIMIT 200",
        (path, first, last),
    ).fetchall()
    if not rows:
        return None
    best = max(rows, key=lambda r: (_coverage(r[3], wanted), -r[1]))
    return tuple(best)


def bundle_search(index: RecallIndex, query: str, *, k: int = 10, now: datetime) -> list[Routed]:
    """The ``k`` cheapest episodes for ``query``, as hits with their routes."""
    parsed = parse_query(query, today=now.date())
    if k <= 0 or not parsed.terms:
        return []
    frequency = index.frequencies(parsed.stems)
    documents = max(index.chunk_count(), 1)
    wanted = {
        term.stem: math.log(1 + documents / (1 + frequency.get(term.stem, 0)))
        for term in parsed.terms
    }
    expression = match_expression(parsed.terms)

    def run(conn: sqlite3.Connection) -> list[Routed]:
        from dreamd.engine.graph.bundle import propagate

        entries = _entries(conn, expression, wanted)
        routes = propagate(entries, _neighbours(conn), want=3 * k, budget=BUDGET)
        found: list[Routed] = []
        seen: set[tuple[str, int]] = set()
        for route in routes:
            row = _chunk(conn, route, wanted)
            if row is None or (row[0], row[1]) in seen:
                continue
            seen.add((row[0], row[1]))
            score = round(1 / (1 + route.cost), 6)
            hit = Hit(
                path=row[0],
                start_line=row[1],
                end_line=row[2],
                snippet=chunk_snippet(row[3]),
                score=score,
                kind=row[4],
                day=row[5],
                entities=tuple(row[6].split()),
                confidence=row[7],
                why=(("bundle", score), ("cost", route.cost)),
            )
            found.append(Routed(hit, route.nodes))
            if len(found) == k:
                break
        return found

    return index.read(run)


def _fuse(lexical: Sequence[Hit], bundled: Iterable[Routed], k: int) -> list[Routed]:
    # A line a lexical hit speaks for (the same fact elsewhere, what it replaced) is held too.
    held = {(h.path, h.start_line) for h in lexical}
    for hit in lexical:
        held.update((other.path, other.start_line) for other in hit.also)
        for earlier in hit.was:
            path, _, lines = earlier.source.partition("#L")
            held.add((path, int(lines.partition("-")[0] or 0)))
    extra = [r for r in bundled if (r.hit.path, r.hit.start_line) not in held]
    return [*(Routed(h) for h in lexical[:k]), *extra[: max(0, k - len(lexical))]]


def hybrid_search(
    index: RecallIndex, query: str, *, k: int = 10, now: datetime, **filters: object
) -> list[Routed]:
    """Today's ranking with bundle search fused in (see the module rules).

    With filters (days, kinds, an entity) the lexical ranking alone answers: the graph's
    episodes do not carry them.
    """
    lexical = search(index, query, k=k, now=now, **filters)  # type: ignore[arg-type]
    if len(lexical) >= k or any(value is not None for value in filters.values()):
        return [Routed(h) for h in lexical]  # no place left, or filters the cone cannot keep
    if any(h.context for h in lexical):
        return [Routed(h) for h in lexical]
    return _fuse(lexical, bundle_search(index, query, k=k, now=now), k)
