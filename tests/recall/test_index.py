"""The recall index: which files, incremental updates, rebuilds and recovery, on real SQLite."""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from dreamd.layout import INDEX_FILE, MAX_FILE_BYTES
from dreamd.recall.index import SCHEMA_VERSION, IndexStats, RecallIndex, kind_of


def write(root: Path, rel: str, text: str) -> Path:
    """Write ``text`` to ``root/rel``, creating folders."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def chunks(index: RecallIndex) -> list[tuple[str, int, int, str, str | None, str]]:
    """Every stored chunk as (path, start, end, text, day, kind), in path/line order."""
    return index.read(
        lambda conn: conn.execute(
            "SELECT path, start_line, end_line, text, day, kind FROM chunks"
            " ORDER BY path, start_line"
        ).fetchall()
    )


def fts_paths(index: RecallIndex, word: str) -> list[str]:
    """Paths whose chunks the FTS5 table finds for ``word``."""
    return index.read(
        lambda conn: [
            row[0]
            for row in conn.execute(
                "SELECT c.path FROM chunks_fts JOIN chunks AS c ON c.id = chunks_fts.rowid"
                " WHERE chunks_fts MATCH ? ORDER BY c.path",
                (f'"{word}"',),
            )
        ]
    )


CORPUS = "memory/.dreams/session-corpus/2026-03-02.txt"
FILES = {
    "MEMORY.md": "# Long-Term Memory\n\n- The gateway listens on 8080.\n",
    "memory/2026-03-01.md": "# Sunday\n\n- Moved backups to the NAS.\n",
    "memory/2026/2026-03-02-trip.md": "- Packed the tent.\n",
    "memory/projects/queue.md": "Postgres 16 runs the queue.\n",
    CORPUS: "[main/s#L1] User: hi there\n",
}
TOTAL_BYTES = sum(len(text.encode()) for text in FILES.values())
SUNDAY_BYTES = len(FILES["memory/2026-03-01.md"].encode())


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A workspace with long-term memory, two daily notes, a topic note and a corpus file."""
    root = tmp_path / "ws"
    for rel, text in FILES.items():
        write(root, rel, text)
    return root


def test_first_update_indexes_every_memory_file(workspace: Path) -> None:
    """MEMORY.md, notes at any depth and corpus files are indexed with their kind and day."""
    with RecallIndex.open(workspace) as index:
        stats = index.update()
        assert stats == IndexStats(
            scanned=5,
            read=5,
            changed=5,
            removed=0,
            chunks_written=5,
            chunks=5,
            bytes_read=TOTAL_BYTES,
        )
        assert chunks(index) == [
            ("MEMORY.md", 3, 3, "- The gateway listens on 8080.", None, "memory"),
            (CORPUS, 1, 1, "[main/s#L1] User: hi there", "2026-03-02", "corpus"),
            ("memory/2026-03-01.md", 3, 3, "- Moved backups to the NAS.", "2026-03-01", "daily"),
            ("memory/2026/2026-03-02-trip.md", 1, 1, "- Packed the tent.", "2026-03-02", "daily"),
            ("memory/projects/queue.md", 1, 1, "Postgres 16 runs the queue.", None, "note"),
        ]  # fmt: skip


def test_dreamd_output_and_foreign_folders_are_not_indexed(workspace: Path) -> None:
    """Reports, state, hidden folders, node_modules and non-corpus text files are skipped."""
    for rel in (
        "memory/dreaming/deep/2026-03-01.md",
        "memory/.dreams/notes.md",
        "memory/.git/HEAD.md",
        "memory/node_modules/pkg/README.md",
        "memory/notes.txt",
        "memory/.dreams/session-corpus/old/2026-01-01.txt",
        "DREAMS.md",
    ):
        write(workspace, rel, "- should never be indexed\n")
    with RecallIndex.open(workspace) as index:
        assert index.update().scanned == 5
        assert fts_paths(index, "indexed") == []


def test_what_dreamd_derives_is_never_a_result(workspace: Path) -> None:
    """Phase and dream reports, topic files, patterns, graph exports, the dream log and the
    archive restate note lines: none of them has a chunk; topic files and patterns keep their
    part of the graph (a route to a note's line), the others are not read at all."""
    derived = (
        "memory/dreaming/deep/2026-03-01.md",
        "memory/dreams/2026-03-01.md",
        "memory/topics/project_atlas.md",
        "memory/patterns/p-error-timeout.md",
        "memory/graph/index.md",
        "memory/dream-log.md",
        "memory/archive.md",
    )
    for rel in derived:
        write(workspace, rel, "# Atlas\n\n- Atlas is the staging rewrite, restated.\n")
    with RecallIndex.open(workspace) as index:
        assert index.update().scanned == 7  # the five, and the topic file and the pattern
        assert fts_paths(index, "restated") == []
        graphed = index.read(
            lambda conn: [
                row[0] for row in conn.execute("SELECT DISTINCT path FROM graph_nodes ORDER BY 1")
            ]
        )
    assert [path for path in graphed if path in derived] == [
        "memory/patterns/p-error-timeout.md",
        "memory/topics/project_atlas.md",
    ]


def test_learnings_are_evidence(workspace: Path) -> None:
    """``.learnings/*.md`` (what the agent wrote down about its own work) is indexed as notes."""
    write(workspace, ".learnings/LEARNINGS.md", "# Learnings\n\n- Run migrations before deploys.\n")
    write(workspace, ".learnings/old/ERRORS.md", "- too deep: not a learnings file\n")
    with RecallIndex.open(workspace) as index:
        assert index.update().scanned == 6
        assert [row for row in chunks(index) if row[0].startswith(".learnings")] == [
            (".learnings/LEARNINGS.md", 3, 3, "- Run migrations before deploys.", None, "note")
        ]


def test_memory_md_chunks_lose_dreamings_metadata_and_carry_their_sources_day(
    workspace: Path,
) -> None:
    """A MEMORY.md entry is indexed as the fact alone ([score=…] and comments gone, the visible
    source kept), dated by the note it cites, else by its section; a person's line elsewhere
    stays undated."""
    write(
        workspace,
        "MEMORY.md",
        "# Long-Term Memory\n\n## Promoted From Short-Term Memory (2026-03-04)\n\n"
        "<!-- dreamd-memory-promotion:memory:memory/2026-03-01.md:3:3 -->\n"
        "- Moved backups to the NAS. [score=0.813 signals=7 recalls=7 avg=0.613"
        " source=memory/2026-03-01.md:3-3] <!-- trigger: backup, nas --> <!-- importance: 8 -->\n"
        "<!-- dreamd-memory-promotion:memory:memory/2026-03-02.md:1:1 -->\n"
        "- Packed the tent. (2026-03-02.md#L1)\n"
        "- A line without a source.\n\n## People\n\n- Ana is our accountant.\n",
    )
    with RecallIndex.open(workspace) as index:
        index.update()
        memory = [row for row in chunks(index) if row[0] == "MEMORY.md"]
        assert fts_paths(index, "trigger") == []
    assert memory == [
        ("MEMORY.md", 6, 6, "- Moved backups to the NAS.", "2026-03-01", "memory"),
        ("MEMORY.md", 8, 8, "- Packed the tent. (2026-03-02.md#L1)", "2026-03-02", "memory"),
        ("MEMORY.md", 9, 9, "- A line without a source.", "2026-03-04", "memory"),
        ("MEMORY.md", 13, 13, "- Ana is our accountant.", None, "memory"),
    ]


def test_index_file_is_wal_sqlite_with_schema_version(workspace: Path) -> None:
    """The database lives at memory/.dreams/index.sqlite in WAL mode with the schema version."""
    with RecallIndex.open(workspace) as index:
        index.update()
    with closing(sqlite3.connect(workspace / INDEX_FILE)) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert conn.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)


def test_unchanged_files_are_not_read_again(workspace: Path) -> None:
    """A second update with nothing changed reads no file and writes no chunk."""
    with RecallIndex.open(workspace) as index:
        index.update()
        assert index.update() == IndexStats(5, 0, 0, 0, 0, 5, 0)


def test_edited_file_is_rechunked_and_fts_follows(workspace: Path) -> None:
    """An edited note is re-read and re-chunked; the old words leave the FTS table."""
    with RecallIndex.open(workspace) as index:
        index.update()
        text = "# Sunday\n\n- Replaced the router.\n- Slept.\n"
        note = write(workspace, "memory/2026-03-01.md", text)
        assert index.update() == IndexStats(5, 1, 1, 0, 2, 6, len(text))
        assert fts_paths(index, "backups") == []
        assert fts_paths(index, "router") == ["memory/2026-03-01.md"]
        assert [row for row in chunks(index) if row[0] == "memory/2026-03-01.md"] == [
            ("memory/2026-03-01.md", 3, 3, "- Replaced the router.", "2026-03-01", "daily"),
            ("memory/2026-03-01.md", 4, 4, "- Slept.", "2026-03-01", "daily"),
        ]
        assert note.read_text(encoding="utf-8") == text


def test_touched_file_with_same_content_is_not_rechunked(workspace: Path) -> None:
    """A new mtime with identical bytes is re-hashed (read) but not re-chunked."""
    with RecallIndex.open(workspace) as index:
        index.update()
        note = workspace / "memory/2026-03-01.md"
        info = note.stat()
        os.utime(note, ns=(info.st_atime_ns, info.st_mtime_ns + 5_000_000_000))
        assert index.update() == IndexStats(5, 1, 0, 0, 0, 5, SUNDAY_BYTES)
        assert index.update() == IndexStats(5, 0, 0, 0, 0, 5, 0)


def test_deleted_file_is_removed(workspace: Path) -> None:
    """A deleted note's chunks leave both the chunk table and the FTS table."""
    with RecallIndex.open(workspace) as index:
        index.update()
        (workspace / "memory/2026-03-01.md").unlink()
        assert index.update() == IndexStats(4, 0, 0, 1, 0, 4, 0)
        assert fts_paths(index, "backups") == []


def test_rebuild_recreates_the_same_chunks(workspace: Path) -> None:
    """A rebuild drops everything, re-reads every file and stores the same chunks."""
    with RecallIndex.open(workspace) as index:
        index.update()
        before = chunks(index)
        assert index.rebuild() == IndexStats(5, 5, 5, 0, 5, 5, TOTAL_BYTES)
        assert chunks(index) == before
        assert fts_paths(index, "tent") == ["memory/2026/2026-03-02-trip.md"]


def test_corrupt_database_is_moved_aside_and_rebuilt(workspace: Path) -> None:
    """A database file full of garbage is kept as index.sqlite.corrupt-<ts> and rebuilt."""
    db = workspace / INDEX_FILE
    db.parent.mkdir(parents=True, exist_ok=True)
    db.write_bytes(b"this is not a database" * 100)
    with RecallIndex.open(workspace) as index:
        assert index.update().chunks == 5
    [aside] = db.parent.glob("index.sqlite.corrupt-*")
    assert aside.read_bytes() == b"this is not a database" * 100
    assert aside.name.removeprefix("index.sqlite.corrupt-").isdigit()


def test_corruption_found_after_opening_is_recovered(workspace: Path) -> None:
    """Pages that turn out malformed during an update are moved aside and the index rebuilt."""
    with RecallIndex.open(workspace) as index:
        index.update()
    db = workspace / INDEX_FILE
    data = bytearray(db.read_bytes())
    data[4096:] = b"\xa5" * (len(data) - 4096)  # keep page 1 (header, schema), wreck the rest
    db.write_bytes(bytes(data))
    with RecallIndex.open(workspace) as index:
        assert index.update() == IndexStats(5, 5, 5, 0, 5, 5, TOTAL_BYTES)
        assert fts_paths(index, "tent") == ["memory/2026/2026-03-02-trip.md"]
    assert len(list(db.parent.glob("index.sqlite.corrupt-*"))) == 1


def test_foreign_schema_is_moved_aside_and_rebuilt(workspace: Path) -> None:
    """A SQLite file with another schema version is replaced rather than used."""
    db = workspace / INDEX_FILE
    db.parent.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("CREATE TABLE something(x)")
        conn.execute("PRAGMA user_version = 99")
        conn.commit()
    with RecallIndex.open(workspace) as index:
        assert index.update().chunks == 5
    assert len(list(db.parent.glob("index.sqlite.corrupt-*"))) == 1


def test_symlinks_leaving_the_workspace_are_not_followed(workspace: Path, tmp_path: Path) -> None:
    """A linked file or folder outside the workspace is skipped; a link inside is indexed."""
    outside = write(tmp_path, "outside/secret.md", "- the secret password\n")
    (workspace / "memory/leak.md").symlink_to(outside)
    (workspace / "memory/leakdir").symlink_to(outside.parent, target_is_directory=True)
    (workspace / "memory/alias.md").symlink_to(workspace / "memory/projects/queue.md")
    (workspace / "memory/loop").symlink_to(workspace / "memory", target_is_directory=True)
    with RecallIndex.open(workspace) as index:
        assert index.update().scanned == 6
        assert fts_paths(index, "secret") == []
        assert fts_paths(index, "postgres") == ["memory/alias.md", "memory/projects/queue.md"]


def test_oversized_files_are_skipped(workspace: Path) -> None:
    """A file over MAX_FILE_BYTES is never read (a sparse file keeps the test fast)."""
    with (workspace / "memory/huge.md").open("wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)
    with RecallIndex.open(workspace) as index:
        assert index.update() == IndexStats(5, 5, 5, 0, 5, 5, TOTAL_BYTES)


def test_bad_bytes_are_read_as_cp1252_and_nul_dropped(workspace: Path) -> None:
    """Stray bytes are read as cp1252 (as the sweep reads them), NULs vanish, binary is empty."""
    (workspace / "memory/bad.md").write_bytes(b"- caf\xe9 and nu\x00ll\n")
    (workspace / "memory/blob.md").write_bytes(bytes(range(256)) * 8)
    with RecallIndex.open(workspace) as index:
        index.update()
        assert [row for row in chunks(index) if row[0] in ("memory/bad.md", "memory/blob.md")] == [
            ("memory/bad.md", 1, 1, "- café and null", None, "note"),
        ]


def test_closed_index_refuses_use(workspace: Path) -> None:
    """After the context manager exits the connection is closed."""
    with RecallIndex.open(workspace) as index:
        index.update()
    with pytest.raises(sqlite3.ProgrammingError):
        index.update()


def test_kind_of_paths() -> None:
    """Paths map to memory, corpus, daily or note."""
    assert [
        kind_of(path)
        for path in (
            "MEMORY.md",
            "memory/.dreams/session-corpus/2026-03-01.txt",
            "memory/a/2026-03-01-x.md",
            "memory/ideas.md",
        )
    ] == ["memory", "corpus", "daily", "note"]


def test_an_older_index_is_rebuilt_in_place(workspace: Path) -> None:
    """An index written by an older dreamd (schema 1) is rebuilt where it is, not set aside."""
    db = workspace / INDEX_FILE
    db.parent.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("CREATE TABLE chunks(id INTEGER PRIMARY KEY, text TEXT)")
        conn.execute("PRAGMA user_version = 1")
        conn.commit()
    with RecallIndex.open(workspace) as index:
        assert index.update().chunks == 5
    assert list(db.parent.glob("index.sqlite.corrupt-*")) == []
    with closing(sqlite3.connect(db)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)


def test_an_index_one_migration_behind_keeps_its_rows(workspace: Path) -> None:
    """An index a migration can bring up to date (schema 7: no index of days) gets the missing
    SQL index and keeps what it holds: nothing is read again, and a window is served by it."""
    with RecallIndex.open(workspace) as index:
        index.update()
    db = workspace / INDEX_FILE
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("DROP INDEX chunks_day")
        conn.execute("PRAGMA user_version = 7")
        conn.commit()
    with RecallIndex.open(workspace) as index:
        assert index.update().read == 0
        plan = index.read(
            lambda conn: conn.execute(
                "EXPLAIN QUERY PLAN SELECT id FROM chunks WHERE day IS NOT NULL AND day >= ?",
                ("2026-03-01",),
            ).fetchall()
        )
    assert "chunks_day" in str(plan)
    with closing(sqlite3.connect(db)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)


def test_chunks_are_stored_with_their_labels(workspace: Path) -> None:
    """Speaker, CJK grams, Retain kind, confidence and entities are stored per chunk."""
    write(
        workspace,
        "memory/2026-03-03.md",
        "- Ana: 東京へ行く @Bob\n\n## Retain\n- O(c=0.6) @Ana: Prefers trains.\n",
    )
    with RecallIndex.open(workspace) as index:
        index.update()
        rows = index.read(
            lambda conn: conn.execute(
                "SELECT start_line, speaker, grams, kind, confidence, entities FROM chunks"
                " WHERE path = 'memory/2026-03-03.md' ORDER BY start_line"
            ).fetchall()
        )
        assert rows == [
            (1, "Ana", "東 京 へ 行 く 東京 京へ へ行 行く", "daily", None, "bob"),
            (4, "", "", "opinion", 0.6, "ana"),
        ]
        assert index.speakers() == {"ana": 1, "user": 1}
        assert fts_paths(index, "京へ") == ["memory/2026-03-03.md"]


def test_a_bulk_fill_leaves_no_write_ahead_log(workspace: Path) -> None:
    """Filling an empty index folds the WAL back into the database (reads stay direct)."""
    with RecallIndex.open(workspace) as index:
        index.update()
        assert (workspace / f"{INDEX_FILE}-wal").stat().st_size == 0
