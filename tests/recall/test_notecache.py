"""The note cache: a rebuild reuses each file's redaction and fragment by digest, and gives the
very index a cold build gives."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from dreamd.recall import chunking, chunkrows
from dreamd.recall.index import RecallIndex

SECRET = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
NOTES = {
    "MEMORY.md": "# Memory\n\n- Hana runs the billing service on db-02.\n",
    "memory/2026-11-19.md": f"# 2026-11-19\n\n## Infra\n- Ana rotated the token {SECRET}.\n",
    "memory/2026-11-20.md": "# 2026-11-20\n\n## Log\n- Bo moved the queue to Atlas.\n",
}
TABLES = ("files", "chunks", "graph_nodes", "graph_edges", "graph_episodes")


def write_all(root: Path, notes: dict[str, str] = NOTES) -> None:
    """``notes`` (:data:`NOTES` by default) under ``root``."""
    for rel, text in notes.items():
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


RICH = {
    # dreaming's metadata and a managed block: MEMORY.md's chunks are cleaned text
    "MEMORY.md": (
        "# Memory\n\n<!-- openclaw-memory-promotion:memory:memory/2026-10-02.md:4:4 -->\n"
        "- Keiko teaches the Thursday pottery class. [score=0.812 recalls=3]"
        " <!-- trigger: weekly -->\n"
        "<!-- dreamd:dreaming:deep:start -->\n- a managed line\n<!-- dreamd:dreaming:deep:end -->\n"
    ),
    "memory/2026-10-02.md": (
        "# 2026-10-02\n\n## Retain\n- W @Keiko: teaches the Thursday pottery class\n"
        "- O(c=0.7) @Keiko: prefers stoneware to porcelain\n\n## 日記\n"
        "- 京都の窯元を訪ねた。\n  続きは来週。\n\n```\ncode line\n\ncode after a blank\n```\n"
    ),
    "memory/2026-10-03.md": f"# 2026-10-03\n\n- Keiko: the kiln token is {SECRET}.\n",
}


def cold_build(root: Path) -> dict[str, list[tuple[object, ...]]]:
    """The index a first build over :data:`RICH` at ``root`` makes, dumped."""
    write_all(root, RICH)
    with RecallIndex.open(root) as index:
        index.update()
        return dump(index)


def count_chunking(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths chunked from here on."""
    chunked: list[str] = []
    real = chunking.chunk_for_index

    def counting(path: str, text: str) -> list[chunking.IndexChunk]:
        chunked.append(path)
        return real(path, text)

    monkeypatch.setattr(chunking, "chunk_for_index", counting)
    return chunked


def test_a_rebuild_takes_chunk_rows_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cleaned MEMORY.md entries, Retain labels, CJK grams, code blocks and redacted text all
    come back from the cache exactly as a cold build makes them, without chunking again."""
    warm = tmp_path / "warm"
    write_all(warm, RICH)
    built = cold_build(tmp_path / "cold")
    with RecallIndex.open(warm) as index:
        index.update()
        chunked = count_chunking(monkeypatch)
        index.rebuild()
        rebuilt = dump(index)
    assert chunked == []
    assert rebuilt == built
    texts = [row[5] for row in built["chunks"]]
    assert "- Keiko teaches the Thursday pottery class." in texts
    assert not any(SECRET in text for text in texts)


def test_cached_rows_hold_no_second_copy_of_the_notes(tmp_path: Path) -> None:
    """Only a chunk whose text is not its lines (a cleaned MEMORY.md entry) keeps its text."""
    write_all(tmp_path, RICH)
    with RecallIndex.open(tmp_path) as index:
        index.update()
        cached = index.read(
            lambda conn: dict(conn.execute("SELECT path, chunks FROM note_cache").fetchall())
        )
    kept = {path: [row[4] for row in json.loads(body)[1]] for path, body in cached.items()}
    assert kept["memory/2026-10-02.md"] and not any(kept["memory/2026-10-02.md"])
    assert kept["MEMORY.md"] == ["- Keiko teaches the Thursday pottery class."]
    assert SECRET not in "".join(cached.values())


@pytest.mark.parametrize("spoil", ["other code", "garbage", "out of range"])
def test_rows_the_code_in_force_did_not_make_are_chunked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spoil: str
) -> None:
    """Rows made by other code, rows that do not decode and line ranges past the text's end are
    not used: the file is chunked again and the index is what a cold build gives."""
    warm = tmp_path / "warm"
    write_all(warm, RICH)
    built = cold_build(tmp_path / "cold")
    with RecallIndex.open(warm) as index:
        index.update()
        if spoil == "other code":
            monkeypatch.setattr(chunkrows, "rows_stamp", lambda: "an older dreamd")
        else:
            body = (
                "{not json"
                if spoil == "garbage"
                else json.dumps(
                    [chunkrows.rows_stamp(), [[90, 99, "", "", None, "", None, "daily", None, ""]]]
                )
            )
            index.write_derived(
                lambda conn: conn.execute("UPDATE note_cache SET chunks = ?", (body,))
            )
        chunked = count_chunking(monkeypatch)
        index.rebuild()
        rebuilt = dump(index)
    assert sorted(chunked) == sorted(RICH)
    assert rebuilt == built
