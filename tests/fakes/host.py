"""A host to point chat tests at: one real workspace with a remembered fact, and its config."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from dreamd.daemon.main import Daemon
from dreamd.engine.hits import Hit
from dreamd.host.runtime import load_runtime
from dreamd.recall.record import record_search

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


OPS_FACT = "- The ops rota hands over on Mondays at 09:00 in the war room."
SECRET = "ghp_" + "Q7x" * 12  # a GitHub token shape that redaction must mask on the way out
FLEET = """
[dreaming]
timezone = "UTC"

[agents]
system_agent = "main"

[[agents.list]]
id = "main"
workspace = "ws"

[[agents.list]]
id = "ops"
workspace = "ops-ws"
readers = {{ telegram = [{ops_reader}], discord = [{ops_reader}] }}

[adapters.telegram]
readers = [{host_reader}]

[adapters.discord]
readers = [{host_reader}]
"""


def make_fleet(tmp_path: Path, *, ops_reader: int, host_reader: int) -> tuple[Path, Path, Path]:
    """Two agents, ``main`` and ``ops``, each with a workspace, a fact and three recalls.

    ``main``'s note also holds a token written in plain text (as careless notes do). Readers:
    ``ops_reader`` reads ``ops`` only, ``host_reader`` reads both. Returns (config, main, ops).
    """
    config, main, note = make_host(tmp_path)
    with (main / note).open("a", encoding="utf-8") as handle:
        handle.write(f"- The deploy token for billing is {SECRET} until rotation.\n")
    ops = tmp_path / "ops-ws"
    (ops / "memory").mkdir(parents=True)
    (ops / note).write_text(f"# rota\n\n{OPS_FACT}\n", encoding="utf-8")
    for offset, query in enumerate(("ops rota handover", "war room mondays", "rota time")):
        when = datetime.now(UTC) - timedelta(days=3 - offset, hours=1)
        record_search(ops, query, [Hit(note, 3, 3, OPS_FACT, 0.9)], now=when, zone=UTC)
    config.write_text(FLEET.format(ops_reader=ops_reader, host_reader=host_reader), "utf-8")
    return config, main, ops
