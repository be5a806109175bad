"""The recall index keeps the redaction rules its text was redacted under, and follows them."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

from dreamd.engine.hits import Hit
from dreamd.engine.state import Table
from dreamd.engine.traces import record_hits
from dreamd.layout import INDEX_FILE
from dreamd.recall.index import RecallIndex
from dreamd.redaction import rules_fingerprint
from tests.recall.test_index import chunks, write

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
NOW_DAY = "2026-03-02"
SECRET = "sk-proj-Zq8vN3xW5tR7yU1iO9pA2sD4fG6hJ8kL"


def _plant(root: Path, text: str, rules: str) -> None:
    """Write ``text`` straight into the stored chunk, as an index redacted under ``rules``."""
    with closing(sqlite3.connect(root / INDEX_FILE)) as conn:
        conn.execute("UPDATE chunks SET text = ?", (text,))
        conn.execute("UPDATE meta SET value = ? WHERE key = 'redaction'", (rules,))
        conn.commit()


def test_the_index_records_the_rules_in_force(tmp_path: Path) -> None:
    write(tmp_path, "memory/2026-03-01.md", "- Moved backups to the NAS.\n")
    with RecallIndex.open(tmp_path) as index:
        assert not index.redaction_current
        index.update()
        assert index.redaction_current
    with closing(sqlite3.connect(tmp_path / INDEX_FILE)) as conn:
        stored = conn.execute("SELECT value FROM meta WHERE key = 'redaction'").fetchone()
    assert stored == (rules_fingerprint(),)


def test_under_other_rules_the_index_is_redacted_again_whole(tmp_path: Path) -> None:
    """Text an older rule set let through leaves the disk on the next update, unchanged files
    included (their stat would otherwise keep them from being read)."""
    write(tmp_path, "memory/2026-03-01.md", f"- Key for the bot: {SECRET}\n")
    with RecallIndex.open(tmp_path) as index:
        index.update()
    _plant(tmp_path, f"- Key for the bot: {SECRET}", "an older rule set")
    with RecallIndex.open(tmp_path) as index:
        index.update()
        stored = [row[3] for row in chunks(index)]
    assert stored and not any(SECRET in text for text in stored)


def test_under_the_same_rules_unchanged_files_are_not_read(tmp_path: Path) -> None:
    write(tmp_path, "memory/2026-03-01.md", "- Moved backups to the NAS.\n")
    with RecallIndex.open(tmp_path) as index:
        index.update()
    with RecallIndex.open(tmp_path) as index:
        assert index.update().read == 0


def test_hits_from_a_current_index_still_never_record_a_mask() -> None:
    """``redacted`` skips only the secret check; a masked snippet is still kept out."""
    hits = [
        Hit("memory/2026-03-01.md", 1, 1, "- Key for the bot: sk-pro…8kL0", 0.9),
        Hit("memory/2026-03-01.md", 2, 2, "- Moved backups to the NAS.", 0.8),
    ]
    for redacted in (False, True):
        store, outcome = record_hits(
            Table({}), hits, query="nas", now=NOW, day=NOW_DAY, redacted=redacted
        )
        assert [r.snippet for r in store.rows.values()] == ["- Moved backups to the NAS."]
        assert [reason for _, reason in outcome.skipped] == ["sensitive"]


def test_the_rules_name_each_detector_library_where_it_is_installed(tmp_path: Path) -> None:
    """The fingerprint names each detector library's file as the import system would find it,
    and a library that is not installed as absent."""
    import importlib.util
    import sys

    from dreamd import redaction

    parts = dict(part.split(":", 1) for part in rules_fingerprint().split(";"))
    for name in redaction._LIBRARIES:
        spec = importlib.util.find_spec(name)
        expected = spec.origin if spec is not None else None
        assert redaction._origin(name) == expected
        if expected is not None:
            assert parts[name].startswith(f"{expected}:")
    assert redaction._origin("dreamd_no_such_detector") is None
    hidden = tmp_path / "shadow"
    (hidden / "stdnum").mkdir(parents=True)
    (hidden / "stdnum" / "__init__.py").write_text("")
    sys.path.insert(0, str(hidden))
    try:
        importlib.invalidate_caches()
        assert redaction._origin("stdnum") == str(hidden / "stdnum" / "__init__.py")
    finally:
        sys.path.remove(str(hidden))
        importlib.invalidate_caches()
