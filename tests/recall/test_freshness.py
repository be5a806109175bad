"""The recall index's freshness stamp: a search walks nothing when nothing changed, and still
finds a note written just before it."""

from __future__ import annotations

import os
import time
from pathlib import Path

from dreamd.recall.freshness import HOT_NS, RACY_NS, Stamp, still_fresh
from dreamd.recall.index import RecallIndex

DAY_NS = 24 * 3600 * 10**9


def write(root: Path, rel: str, text: str, *, age_ns: int = 0) -> Path:
    """Write ``text`` at ``root/rel``; ``age_ns`` sets its time that far in the past."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if age_ns:
        when = time.time_ns() - age_ns
        os.utime(path, ns=(when, when))
    return path


def age_folders(root: Path, age_ns: int) -> None:
    """Set the workspace's folders' times ``age_ns`` in the past (as days of quiet leave them)."""
    when = time.time_ns() - age_ns
    for folder in (root, root / "memory", root / "memory" / "2026"):
        if folder.is_dir():
            os.utime(folder, ns=(when, when))


def hits(index: RecallIndex, word: str) -> list[str]:
    """Paths of the chunks holding ``word``."""
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


def quiet_workspace(root: Path) -> None:
    """Years-old notes in two folders, untouched for a month."""
    write(root, "MEMORY.md", "# Memory\n\n- The gateway listens on 8080.\n", age_ns=30 * DAY_NS)
    write(root, "memory/2025-01-01.md", "- Moved backups to the NAS.\n", age_ns=30 * DAY_NS)
    write(root, "memory/2026/2026-01-02.md", "- Packed the tent.\n", age_ns=30 * DAY_NS)
    age_folders(root, 30 * DAY_NS)


def test_a_new_note_is_found_by_the_next_update(tmp_path: Path) -> None:
    """A note created after the last walk changes its folder's time: the next update walks."""
    quiet_workspace(tmp_path)
    with RecallIndex.open(tmp_path) as index:
        index.update()
        write(tmp_path, "memory/2026/2026-11-20.md", "- Filed the zephyrine ticket.\n")
        stats = index.update()
        assert (stats.changed, hits(index, "zephyrine")) == (1, ["memory/2026/2026-11-20.md"])


def test_an_append_to_a_recent_note_is_found(tmp_path: Path) -> None:
    """Today's note appended to in place (its folder unchanged) is watched as a hot file."""
    quiet_workspace(tmp_path)
    note = write(tmp_path, "memory/2026-11-20.md", "- Morning stand-up.\n")
    age_folders(tmp_path, DAY_NS)
    with RecallIndex.open(tmp_path) as index:
        index.update()
        with note.open("a", encoding="utf-8") as handle:
            handle.write("- Afternoon: the zephyrine deploy.\n")
        assert hits(index, "zephyrine") == []
        index.update()
        assert hits(index, "zephyrine") == ["memory/2026-11-20.md"]


def test_memory_md_edited_in_place_is_found(tmp_path: Path) -> None:
    """MEMORY.md is always watched, however old."""
    quiet_workspace(tmp_path)
    with RecallIndex.open(tmp_path) as index:
        index.update()
        with (tmp_path / "MEMORY.md").open("a", encoding="utf-8") as handle:
            handle.write("- The zephyrine cluster runs the queue.\n")
        index.update()
        assert hits(index, "zephyrine") == ["MEMORY.md"]


def test_a_fresh_stamp_walks_nothing_and_a_walk_finds_an_old_edit(tmp_path: Path) -> None:
    """An old note edited in place, folder untouched, is what only a walk sees: the stamp held
    (no walk), and ``update(walk=True)`` (the sweep, ``memory index``) finds it."""
    quiet_workspace(tmp_path)
    old = tmp_path / "memory" / "2025-01-01.md"
    with RecallIndex.open(tmp_path) as index:
        age_folders(tmp_path, 30 * DAY_NS)  # opening made memory/.dreams/ in memory/
        index.update()
        old.write_text("- Moved backups to the zephyrine NAS.\n", encoding="utf-8")
        when = time.time_ns() - 30 * DAY_NS
        os.utime(old, ns=(when, when + 1))
        stats = index.update()
        assert (stats.scanned, stats.read, hits(index, "zephyrine")) == (3, 0, [])
        walked = index.update(walk=True)
        assert (walked.changed, hits(index, "zephyrine")) == (1, ["memory/2025-01-01.md"])


def test_a_folder_changed_during_the_walk_keeps_no_stamp(tmp_path: Path) -> None:
    """A folder whose time is racily close to the walk's start is not trusted."""
    stamp = Stamp(
        rules="r",
        walked_ns=10**18,
        folders={"/ws": 10**18 - RACY_NS // 2},
        hot={},
        files=0,
        chunks=0,
    )
    assert stamp.encode() is None


def test_a_stamp_fails_under_other_rules_or_when_old(tmp_path: Path) -> None:
    """Other redaction rules, or a walk longer ago than the limit, mean a walk."""
    now = time.time_ns()
    folder = str(tmp_path)
    os.utime(folder, ns=(now - DAY_NS, now - DAY_NS))
    stamp = Stamp(
        rules="r1",
        walked_ns=now,
        folders={folder: os.stat(folder).st_mtime_ns},  # noqa: PTH116 - as the index does
        hot={},
        files=0,
        chunks=0,
    )
    decoded = Stamp.decode(stamp.encode() or "")
    assert decoded is not None
    assert [
        still_fresh(decoded, rules="r1", now_ns=now + 1),
        still_fresh(decoded, rules="r2", now_ns=now + 1),
        still_fresh(decoded, rules="r1", now_ns=now + HOT_NS),
        Stamp.decode("{not json"),
    ] == [True, False, False, None]
