"""The inverted-cone graph: episodes, tags, nodes, edges with reasons, merging, statistics."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dreamd.engine.graph.bundle import propagate
from dreamd.engine.graph.cone import merge_fragments
from dreamd.engine.graph.episodes import episodes_of
from dreamd.engine.graph.fragments import Edge, build_fragment
from dreamd.engine.graph.ledger import GraphLedger, decode_ledger, encode_ledger

NOTE = (
    "# 2026-03-02\n"
    "\n"
    "## Atlas\n"
    "- Atlas is the payments rewrite.\n"
    "- ok\n"
    "- Actually we deploy Atlas with @Dana on Friday, not Monday.\n"
    "\n"
    "## Log\n"
    "- The nightly export failed with a timeout again.\n"
)


def test_a_note_is_cut_at_its_headings() -> None:
    """Each heading starts an episode with its own lines; the date heading holds none."""
    found = episodes_of("memory/2026-03-02.md", NOTE)
    assert [(e.id, e.title, e.start_line, [n for n, _ in e.lines]) for e in found] == [
        ("ep:memory/2026-03-02.md#L3", "Atlas", 3, [4, 5, 6]),
        ("ep:memory/2026-03-02.md#L8", "Log", 8, [9]),
    ]


def test_lines_are_tagged_and_acknowledgements_dropped() -> None:
    """Attention drops the bare "ok"; every other line has its kind and topic."""
    fragment = build_fragment("memory/2026-03-02.md", NOTE, "d1")
    assert fragment.dropped == 1
    assert [(t.line, t.kind, t.topic, t.entities) for t in fragment.tagged] == [
        (4, "event", "atlas", ("Atlas",)),
        (6, "correction", "atlas", ("Dana", "Atlas")),
        (9, "error", "nightly", ()),
    ]


def test_edges_point_down_the_cone_and_say_why() -> None:
    """Entity, FacetPoint and Facet edges reach the episode, each with a one-line reason."""
    fragment = build_fragment("memory/2026-03-02.md", NOTE, "d1")
    edges = {(e.src, e.dst): e for e in fragment.edges}
    episode = "ep:memory/2026-03-02.md#L3"
    assert edges[("entity:dana", episode)].reason == (
        "Dana is named on line 6 of memory/2026-03-02.md § Atlas"
    )
    assert edges[("fp:correction.atlas", episode)].line == 6
    assert edges[("fp:correction.atlas", "facet:correction_group")].cost == 0.1
    layers = {n.id.split(":")[0]: n.layer for n in fragment.nodes}
    assert layers == {"entity": 4, "fp": 3, "facet": 2, "ep": 1}
    assert all(layers[e.src.split(":")[0]] > layers[e.dst.split(":")[0]] for e in fragment.edges)


def test_a_definition_gives_the_entity_its_words() -> None:
    """``Atlas is the payments rewrite`` puts "payments rewrite" on the Atlas node."""
    fragment = build_fragment("memory/2026-03-02.md", NOTE, "d1")
    atlas = next(n for n in fragment.nodes if n.id == "entity:atlas")
    assert atlas.text.split() == ["Atlas", "payments", "rewrite"]


def test_merged_graph_counts_and_statistics() -> None:
    """Two notes share entities; every episode is reachable; the whole graph is connected."""
    other = "# 2026-03-03\n\n## Standup\n- Dana said Atlas ships next week.\n"
    graph = merge_fragments(
        [
            build_fragment("memory/2026-03-02.md", NOTE, "d1"),
            build_fragment("memory/2026-03-03.md", other, "d2"),
        ]
    )
    assert graph.counts() == {
        "entities": 2,
        "facetPoints": 4,
        "facets": 5,
        "episodes": 3,
        "edges": 18,
    }
    stats = graph.stats()
    assert stats["reachable"] == 1.0
    assert stats["connectivity"] < 1.0  # the Log section shares nothing with Atlas
    assert 0.0 < stats["avgPathCost"] <= 0.3


def test_propagation_takes_the_cheapest_path() -> None:
    """An episode's cost is its cheapest route; the route lists the nodes from the entry."""
    edges = {
        "entity:a": [Edge("entity:a", "fp:x", 0.2, "r"), Edge("entity:a", "ep:e", 0.9, "r")],
        "fp:x": [Edge("fp:x", "ep:e", 0.2, "r", 4)],
    }
    routes = propagate({"entity:a": 0.1}, lambda ids: {i: edges.get(i, []) for i in ids}, want=5)
    assert [(r.episode, r.cost, r.nodes, r.line) for r in routes] == [
        ("ep:e", 0.5, ("entity:a", "fp:x", "ep:e"), 4)
    ]


def test_the_ledger_round_trips_and_refuses_garbage() -> None:
    """Fragments survive encoding; an unreadable ledger is an empty one."""
    ledger = GraphLedger(
        fragments={"memory/a.md": build_fragment("memory/2026-03-02.md", NOTE, "d")}
    )
    assert decode_ledger(encode_ledger(ledger)) == ledger
    assert decode_ledger("{not json") == GraphLedger()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([*"ab #-@:\nAZ.", "Atlas ", "failed ", "actually "])).map("".join))
def test_fragments_never_crash_and_are_deterministic(text: str) -> None:
    """Any text builds a fragment, the same one twice; every edge ends at a known node."""
    first = build_fragment("memory/2026-03-02.md", text, "d")
    assert first == build_fragment("memory/2026-03-02.md", text, "d")
    ids = {n.id for n in first.nodes}
    assert all(e.src in ids and e.dst in ids for e in first.edges)
