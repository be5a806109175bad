"""A host to point chat tests at: one real workspace with a remembered fact, and its config."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from dreamd.daemon import Daemon
from dreamd.recall.hits import Hit
from dreamd.recall.record import record_search
from dreamd.runtime import load_runtime

FACT = "- The billing service runs on Postgres 16 on host db-02."
CONFIG = """
[dreaming]
timezone = "UTC"

[[agents.list]]
id = "main"
workspace = "ws"
"""


def make_host(tmp_path: Path, extra: str = "") -> tuple[Path, Path, str]:
    """Config file, workspace root and the fact's note path (``memory/<day>.md``)."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    day = (datetime.now(UTC) - timedelta(days=4)).date().isoformat()
    note = f"memory/{day}.md"
    (root / note).write_text(f"# {day}\n\n{FACT}\n", encoding="utf-8")
    for offset, query in enumerate(("which host runs billing", "billing postgres", "db-02 role")):
        when = datetime.now(UTC) - timedelta(days=3 - offset, hours=1)
        record_search(root, query, [Hit(note, 3, 3, FACT, 0.9)], now=when, zone=UTC)
    config = tmp_path / "config.toml"
    config.write_text(CONFIG + extra, encoding="utf-8")
    return config, root, note


def make_daemon(config: Path) -> Daemon:
    """A daemon for ``config``, not running: its service answers from disk."""
    return Daemon(load_runtime(config))
