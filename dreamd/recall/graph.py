"""The graph in the recall index: each file's fragment as rows beside its chunks.

Rules: a file the graph reads (a daily note, a session-corpus file, a topic file, a pattern:
:func:`~dreamd.engine.graph.episodes.source_kind`) gets its fragment
(:func:`~dreamd.engine.graph.fragments.build_fragment`, from the same redacted text as its
chunks) stored as rows of ``graph_nodes``, ``graph_edges`` and ``graph_episodes``, replaced when
the file's chunks are and removed with them, in the same transaction, so the graph is as
incremental and as derived as the chunks. ``graph_fts`` follows ``graph_nodes`` as
``chunks_fts`` follows ``chunks`` (rebuilt in one pass when an empty index is filled).
"""

from __future__ import annotations

import sqlite3

from dreamd.engine.graph.episodes import source_kind
from dreamd.recall.notecache import FragmentRows

__all__ = ["fragment_rows", "rebuild_graph_fts", "remove_graph", "store_graph"]

_FTS_ADD = "INSERT INTO graph_fts(rowid, text) SELECT id, text FROM graph_nodes WHERE path = ?"
_FTS_REMOVE = (
    "INSERT INTO graph_fts(graph_fts, rowid, text)"
    " SELECT 'delete', id, text FROM graph_nodes WHERE path = ?"
)


def fragment_rows(path: str, text: str, digest: str) -> FragmentRows | None:
    """The rows of ``path``'s fragment (nodes, edges, episodes), built from ``text``; ``None``
    for a file the graph does not read."""
    if source_kind(path) is None:
        return None
    from dreamd.engine.graph.fragments import build_fragment  # only when a file changed

    fragment = build_fragment(path, text, digest)
    return (
        [(n.id, n.layer, n.label, n.text) for n in fragment.nodes],
        [(e.src, e.dst, e.cost, e.reason, e.line) for e in fragment.edges],
        [(e.id, e.start_line, e.end_line, e.title, e.day) for e in fragment.episodes],
    )


def store_graph(
    conn: sqlite3.Connection, path: str, rows: FragmentRows | None, *, bulk: bool
) -> int:
    """Store the fragment ``rows`` of ``path`` (already removed); return how many nodes."""
    if rows is None:
        return 0
    nodes, edges, episodes = rows
    conn.executemany(
        "INSERT INTO graph_nodes(path, node, layer, label, text) VALUES (?, ?, ?, ?, ?)",
        [(path, *row) for row in nodes],
    )
    conn.executemany(
        "INSERT INTO graph_edges(path, src, dst, cost, reason, line) VALUES (?, ?, ?, ?, ?, ?)",
        [(path, *row) for row in edges],
    )
    conn.executemany(
        "INSERT OR REPLACE INTO graph_episodes(node, path, start_line, end_line, title, day)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [(row[0], path, *row[1:]) for row in episodes],
    )
    if not bulk:
        conn.execute(_FTS_ADD, (path,))
    return len(nodes)


def remove_graph(conn: sqlite3.Connection, path: str, *, bulk: bool) -> None:
    """Drop the graph rows of ``path``."""
    if not bulk:
        conn.execute(_FTS_REMOVE, (path,))
    for table in ("graph_nodes", "graph_edges", "graph_episodes"):
        conn.execute(f"DELETE FROM {table} WHERE path = ?", (path,))  # noqa: S608 - fixed names


def rebuild_graph_fts(conn: sqlite3.Connection) -> None:
    """Fill ``graph_fts`` from ``graph_nodes`` in one pass."""
    conn.execute("INSERT INTO graph_fts(graph_fts) VALUES ('rebuild')")
