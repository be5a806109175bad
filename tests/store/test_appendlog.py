"""Appending lines: batches land in order, a torn last line is ended once, nothing is lost."""

from __future__ import annotations

from pathlib import Path

from dreamd.store.appendlog import append_batches, append_lines


def test_batches_land_in_order_after_a_torn_line(tmp_path: Path) -> None:
    """A line a crash cut short is ended before the first batch, and only there."""
    log = tmp_path / "deep" / "log.jsonl"
    log.parent.mkdir()
    log.write_bytes(b'{"a": 1}\n{"b":')
    size = append_batches(log, iter([b'{"c": 3}\n', b"", b'{"d": 4}\n{"e": 5}\n']))
    assert log.read_bytes() == b'{"a": 1}\n{"b":\n{"c": 3}\n{"d": 4}\n{"e": 5}\n'
    assert size == log.stat().st_size


def test_append_lines_creates_the_file_private(tmp_path: Path) -> None:
    """A new log file and its folder are created, the file readable by its owner alone."""
    log = tmp_path / "new" / "log.jsonl"
    assert append_lines(log, b"x\n") == 2
    assert (log.read_bytes(), log.stat().st_mode & 0o777) == (b"x\n", 0o600)
