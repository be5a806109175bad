"""The graph as the seed's files: ``memory/graph/{entities,facetpoints,facets,episodes,edges,
index}.json``, for people and tools that read the skill's layout.

Rules: each file is a JSON list (``index.json`` an object) sorted by id, two-space indented,
ending in a newline, so an unchanged graph exports byte for byte the same files and a sweep
over it plans no write. ``index.json`` holds the counts and the statistics. The health
score reads the night too (promotions, the recall store), so it lives in the dream report, not
here. Pure.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from dreamd.engine.graph.cone import Graph
from dreamd.layout import GRAPH_DIR

__all__ = ["EXPORT_FILES", "export_documents"]

EXPORT_FILES = ("entities", "facetpoints", "facets", "episodes", "edges", "index")


def _keywords(graph: Graph, node_id: str) -> list[str]:
    node = graph.nodes.get(node_id)
    if node is None:
        return []
    return node.text.removeprefix(node.label).split()


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def export_documents(graph: Graph, *, stats: Mapping[str, float]) -> dict[str, str]:
    """Path -> text of the six export files."""

    def nodes(layer: int) -> list[dict[str, Any]]:
        return [{"id": n.id, "label": n.label, "text": n.text} for n in graph.layer(layer)]

    episodes = [
        {
            "id": e.id,
            "path": e.path,
            "startLine": e.start_line,
            "endLine": e.end_line,
            "title": e.title,
            "day": e.day,
            "kind": e.kind,
            "keywords": _keywords(graph, e.id),
        }
        for e in sorted(graph.episodes.values(), key=lambda e: e.id)
    ]
    edges = [
        {"src": e.src, "dst": e.dst, "cost": e.cost, "reason": e.reason, "line": e.line}
        for _, e in sorted(graph.edges.items())
    ]
    index = {
        "version": 1,
        "counts": graph.counts(),
        "stats": dict(stats),
        "files": [f"{name}.json" for name in EXPORT_FILES[:-1]],
    }
    documents = {
        "entities": nodes(4),
        "facetpoints": nodes(3),
        "facets": nodes(2),
        "episodes": episodes,
        "edges": edges,
        "index": index,
    }
    return {f"{GRAPH_DIR}/{name}.json": _dump(documents[name]) for name in EXPORT_FILES}
