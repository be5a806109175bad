"""Bundle search's core: cost propagation from entry points down the cone to episodes.

Each entry point (a node a query hit, on any layer) starts with its own cost (how badly the
node matched: ``1 - coverage``). Cost flows along edges from the tip towards the base, adding
each edge's cost; an episode's cost is its cheapest path (Dijkstra's rule: a node is settled the
first time it is popped). ``neighbours`` is the only way to the edges, so the same search runs
over a graph in memory or one in the recall index. Bounded: at most ``budget`` nodes are
expanded, and the search stops once ``want`` episodes are settled. Pure.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping, Sequence

from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Final

    from dreamd.engine.graph.edge import Edge

__all__ = ["Route", "Step", "propagate"]


class Route(Value):
    """The cheapest way to one episode: its cost and the node ids from the entry point."""

    __match_args__ = ("episode", "cost", "nodes", "line")
    __slots__ = __match_args__
    episode: Final[str]
    cost: Final[float]
    nodes: Final[tuple[str, ...]]
    line: Final[int]  # the line the last edge names (0: the episode as a whole)

    def __init__(self, episode: str, cost: float, nodes: tuple[str, ...], line: int) -> None:
        self.episode, self.cost, self.nodes, self.line = episode, cost, nodes, line


class Step(Value):
    """What a walk needs of an edge: where it leads, its cost and the line it names (an
    :class:`~dreamd.engine.graph.edge.Edge` read from the index without building one)."""

    __match_args__ = ("dst", "cost", "line")
    __slots__ = __match_args__
    dst: Final[str]
    cost: Final[float]
    line: Final[int]

    def __init__(self, dst: str, cost: float, line: int) -> None:
        self.dst, self.cost, self.line = dst, cost, line


def propagate(
    entries: Mapping[str, float],
    neighbours: Callable[[Sequence[str]], Mapping[str, Sequence[Edge | Step]]],
    *,
    want: int,
    budget: int = 400,
) -> list[Route]:
    """The cheapest routes to up to ``want`` episodes, cheapest first (ties: episode id)."""
    heap: list[tuple[float, str, tuple[str, ...], int]] = [
        (cost, node, (node,), 0) for node, cost in sorted(entries.items())
    ]
    heapq.heapify(heap)
    settled: set[str] = set()
    routes: list[Route] = []
    expanded = 0
    while heap and len(routes) < want:
        cost, node, path, line = heapq.heappop(heap)
        if node in settled:
            continue
        settled.add(node)
        if node.startswith("ep:"):
            routes.append(Route(node, round(cost, 6), path, line))
            continue
        if expanded >= budget:
            continue
        expanded += 1
        for edge in neighbours([node]).get(node, ()):
            if edge.dst not in settled:
                heapq.heappush(heap, (cost + edge.cost, edge.dst, (*path, edge.dst), edge.line))
    return routes
