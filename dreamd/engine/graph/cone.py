"""The merged graph of a workspace and what can be said about it.

Rules: the graph is the union of the files' fragments (:mod:`dreamd.engine.graph.fragments`);
a node named by several files keeps the first label and the words of all (up to 32); an edge
named twice keeps the cheaper. Statistics, each in [0, 1] or a cost:

* ``connectivity``: the share of nodes in the largest connected component (edges undirected);
* ``reachable``: the share of episodes some entity or FacetPoint reaches (bundle search can
  find them through the cone, not only by their own words);
* ``avgPathCost``: the mean cheapest cost from any entity or FacetPoint to a reachable episode.

Pure; a union-find and :func:`~dreamd.engine.graph.bundle.propagate` do the work (a graph
library would cost more to import than a sweep takes).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from dreamd.engine.graph.bundle import propagate
from dreamd.engine.graph.fragments import Edge, EpisodeRef, Fragment, Node

__all__ = ["Graph", "merge_fragments"]

MAX_NODE_WORDS = 32


@dataclass(frozen=True)
class Graph:
    """Nodes by id, edges by (src, dst), episodes by id."""

    nodes: Mapping[str, Node] = field(default_factory=dict)
    edges: Mapping[tuple[str, str], Edge] = field(default_factory=dict)
    episodes: Mapping[str, EpisodeRef] = field(default_factory=dict)

    def layer(self, number: int) -> list[Node]:
        """The nodes of one layer (4 entity ... 1 episode), by id."""
        return sorted((n for n in self.nodes.values() if n.layer == number), key=lambda n: n.id)

    def counts(self) -> dict[str, int]:
        """``entities``, ``facetPoints``, ``facets``, ``episodes``, ``edges``."""
        layers = [n.layer for n in self.nodes.values()]
        return {
            "entities": layers.count(4),
            "facetPoints": layers.count(3),
            "facets": layers.count(2),
            "episodes": layers.count(1),
            "edges": len(self.edges),
        }

    def outgoing(self) -> dict[str, list[Edge]]:
        """Edges by source, cheapest first."""
        found: dict[str, list[Edge]] = {}
        for edge in self.edges.values():
            found.setdefault(edge.src, []).append(edge)
        for edges in found.values():
            edges.sort(key=lambda e: (e.cost, e.dst))
        return found

    def stats(self) -> dict[str, float]:
        """``connectivity``, ``reachable`` and ``avgPathCost`` (see the module rules)."""
        return {**_connectivity(self), **_reach(self)}


def _connectivity(graph: Graph) -> dict[str, float]:
    parent = {node: node for node in graph.nodes}

    def root(node: str) -> str:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for src, dst in graph.edges:
        if src in parent and dst in parent:
            parent[root(src)] = root(dst)
    sizes: dict[str, int] = {}
    for node in parent:
        top = root(node)
        sizes[top] = sizes.get(top, 0) + 1
    largest = max(sizes.values(), default=0)
    return {"connectivity": round(largest / len(parent), 4) if parent else 0.0}


def _reach(graph: Graph) -> dict[str, float]:
    episodes = len(graph.episodes)
    if not episodes:
        return {"reachable": 0.0, "avgPathCost": 0.0}
    outgoing = graph.outgoing()
    entries = {n.id: 0.0 for n in graph.nodes.values() if n.layer >= 3}

    def neighbours(ids: Sequence[str]) -> dict[str, list[Edge]]:
        return {i: outgoing.get(i, []) for i in ids}

    routes = propagate(entries, neighbours, want=episodes, budget=len(graph.nodes) + 1)
    reached = [r for r in routes if r.episode in graph.episodes]
    mean = sum(r.cost for r in reached) / len(reached) if reached else 0.0
    return {"reachable": round(len(reached) / episodes, 4), "avgPathCost": round(mean, 4)}


def merge_fragments(fragments: Iterable[Fragment]) -> Graph:
    """The graph of all ``fragments`` (see the module rules)."""
    nodes: dict[str, Node] = {}
    words: dict[str, list[str]] = {}
    edges: dict[tuple[str, str], Edge] = {}
    episodes: dict[str, EpisodeRef] = {}
    for fragment in sorted(fragments, key=lambda f: f.path):
        for node in fragment.nodes:
            held = words.setdefault(node.id, [])
            if node.id not in nodes:
                nodes[node.id] = node
            if len(held) < MAX_NODE_WORDS:
                held.extend(w for w in node.text.split() if w not in held)
        for edge in fragment.edges:
            old = edges.get((edge.src, edge.dst))
            if old is None or edge.cost < old.cost:
                edges[(edge.src, edge.dst)] = edge
        for episode in fragment.episodes:
            episodes[episode.id] = episode
    merged = {
        i: Node(n.id, n.layer, n.label, " ".join(words[i][:MAX_NODE_WORDS]))
        for i, n in nodes.items()
    }
    return Graph(merged, edges, episodes)
