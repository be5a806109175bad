"""Bundle search over the graph the index keeps: entry points, cost, routes, the hybrid."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from dreamd.recall.bundle import bundle_search, hybrid_search
from dreamd.recall.index import RecallIndex
from dreamd.recall.search import search

NOW = datetime(2026, 3, 5, 12, 0, tzinfo=UTC)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """Atlas is defined in a topic file; a daily note names it only by its name."""
    root = tmp_path / "ws"
    (root / "memory" / "topics").mkdir(parents=True)
    (root / "memory" / "topics" / "project_atlas.md").write_text(
        "# Atlas\n\nAtlas is the payments rewrite.\n"
    )
    (root / "memory" / "2026-03-02.md").write_text(
        "# 2026-03-02\n\n## Standup\n- Atlas ships on Friday.\n\n## Lunch\n- Soup again.\n"
    )
    return root


def test_a_fact_named_only_through_its_entity_is_found(ws: Path) -> None:
    """Bundle search reaches the line that only names Atlas (through the FacetPoint the topic
    file gave its words); lexical search does not, and the topic file itself is no result."""
    with RecallIndex.open(ws) as index:
        index.update()
        lexical = search(index, "payments rewrite", k=5, now=NOW)
        bundled = bundle_search(index, "payments rewrite", k=5, now=NOW)
    assert lexical == []
    found = {r.hit.source: r.route for r in bundled}
    assert found["memory/2026-03-02.md#L4-L4"] == ("fp:event.atlas", "ep:memory/2026-03-02.md#L3")
    assert "memory/2026-03-02.md#L6-L6" not in found


def test_the_hybrid_keeps_lexical_order_and_adds_the_cone(ws: Path) -> None:
    """Lexical hits come first, as they were; the bundle adds what they missed: the note's
    line, reached through the topic file, never the topic file's own line."""
    (ws / "memory" / "2026-03-03.md").write_text("# 2026-03-03\n\n- The rewrite review slipped.\n")
    with RecallIndex.open(ws) as index:
        index.update()
        hybrid = hybrid_search(index, "payments rewrite", k=5, now=NOW)
        filtered = hybrid_search(index, "payments rewrite", k=5, now=NOW, kinds=["daily"])
    assert [(r.hit.source, bool(r.route)) for r in hybrid][:2] == [
        ("memory/2026-03-03.md#L3-L3", False),
        ("memory/2026-03-02.md#L4-L4", True),
    ]
    assert all("topics" not in r.hit.path for r in hybrid)
    # filters are the lexical ranking's; the cone does not bypass them
    assert [(r.hit.source, r.route) for r in filtered] == [("memory/2026-03-03.md#L3-L3", ())]


def test_the_graph_follows_the_files(ws: Path) -> None:
    """Editing the topic file away removes the route; the index graph is incremental."""
    with RecallIndex.open(ws) as index:
        index.update()
        (ws / "memory" / "topics" / "project_atlas.md").write_text("# Atlas\n\nA river.\n")
        index.update()
        bundled = bundle_search(index, "payments rewrite", k=5, now=NOW)
        nodes = index.read(lambda c: c.execute("SELECT count(*) FROM graph_nodes").fetchone()[0])
    assert bundled == []
    assert nodes > 0


def test_queries_without_terms_find_nothing(ws: Path) -> None:
    """Stop words alone, or k = 0, find nothing."""
    with RecallIndex.open(ws) as index:
        index.update()
        assert bundle_search(index, "the and of", k=5, now=NOW) == []
        assert bundle_search(index, "atlas", k=0, now=NOW) == []
