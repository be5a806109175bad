"""The note cache: a rebuild reuses each file's redaction and fragment by digest, and gives the
very index a cold build gives."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from dreamd.recall.index import RecallIndex

SECRET = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
NOTES = {
    "MEMORY.md": "# Memory\n\n- Hana runs the billing service on db-02.\n",
    "memory/2026-11-19.md": f"# 2026-11-19\n\n## Infra\n- Ana rotated the token {SECRET}.\n",
    "memory/2026-11-20.md": "# 2026-11-20\n\n## Log\n- Bo moved the queue to Atlas.\n",
}
TABLES = ("files", "chunks", "graph_nodes", "graph_edges", "graph_episodes")


def write_all(root: Path) -> None:
    """The notes of :data:`NOTES` under ``root``."""
    for rel, text in NOTES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def dump(index: RecallIndex) -> dict[str, list[tuple[object, ...]]]:
    """Every derived table's rows (ids and file times left out), in a fixed order."""

    def read(conn: sqlite3.Connection) -> dict[str, list[tuple[object, ...]]]:
        found = {}
        for table in TABLES:
            columns = [
                row[1]
                for row in conn.execute(f"PRAGMA table_info({table})")
                if row[1] not in ("id", "mtime_ns")
            ]
            found[table] = sorted(
                conn.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall(),
                key=repr,
            )
        return found

    return index.read(read)


def test_a_rebuild_from_the_cache_equals_a_cold_build(tmp_path: Path) -> None:
    """Rebuilding with a full cache stores the same rows as building with none."""
    warm, cold = tmp_path / "warm", tmp_path / "cold"
    write_all(warm)
    write_all(cold)
    with RecallIndex.open(warm) as index:
        index.update()
        index.rebuild()
        rebuilt = dump(index)
        cached = index.read(lambda conn: conn.execute("SELECT count(*) FROM note_cache").fetchone())
    with RecallIndex.open(cold) as index:
        index.update()
        built = dump(index)
    assert (rebuilt, cached) == (built, (3,))


def test_the_cache_keeps_no_secret_and_no_copy_of_clean_notes(tmp_path: Path) -> None:
    """A note redaction changed is cached redacted; a clean one is not copied at all."""
    write_all(tmp_path)
    with RecallIndex.open(tmp_path) as index:
        index.update()
        rows = index.read(
            lambda conn: conn.execute(
                "SELECT path, redacted IS NULL, instr(coalesce(redacted, ''), ?) FROM note_cache"
                " ORDER BY path",
                (SECRET,),
            ).fetchall()
        )
    assert rows == [
        ("MEMORY.md", 1, 0),
        ("memory/2026-11-19.md", 0, 0),
        ("memory/2026-11-20.md", 1, 0),
    ]


def test_a_gone_file_leaves_the_cache(tmp_path: Path) -> None:
    """Deleting a note drops its cache row with its chunks."""
    write_all(tmp_path)
    with RecallIndex.open(tmp_path) as index:
        index.update()
        (tmp_path / "memory/2026-11-20.md").unlink()
        index.update(walk=True)
        paths = index.read(
            lambda conn: [row[0] for row in conn.execute("SELECT path FROM note_cache ORDER BY 1")]
        )
    assert paths == ["MEMORY.md", "memory/2026-11-19.md"]
