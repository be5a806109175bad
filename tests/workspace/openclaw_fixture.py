"""The OpenClaw 2026.9.6 fixture (``tests/fixtures/openclaw-2026.9.6``), set up in a tmp dir.

Each stage holds a workspace and OpenClaw's own state database, gzipped, exactly as OpenClaw
left them (``build.sh`` there regenerates them). :func:`install_stage` copies a stage's
workspace to ``tmp_path/workspace`` and its database to ``tmp_path/openclaw/state/``, then
moves the workspace's rows to the new path the way OpenClaw keys them (``workspaceDir`` and
``workspaceKey = sha256(path)``), as if the person had moved the workspace there.
"""

from __future__ import annotations

import gzip
import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "openclaw-2026.9.6"
BUILT_AT = "/tmp/dreamd-openclaw-fixture/home/.openclaw/workspace"


def unpack_database(stage: str, target: Path) -> Path:
    """The stage's ``openclaw.sqlite`` written to ``target`` (parents created)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(FIXTURE / stage / "openclaw.sqlite.gz", "rb") as packed:
        target.write_bytes(packed.read())
    return target


def relocate(database: Path, old: str, new: str) -> None:
    """Move the rows OpenClaw keyed to the workspace at ``old`` to ``new``."""
    old_key = hashlib.sha256(old.encode()).hexdigest()
    new_key = hashlib.sha256(new.encode()).hexdigest()
    with sqlite3.connect(database) as connection:
        connection.execute(
            "UPDATE plugin_state_entries SET entry_key = ? || substr(entry_key, ?), "
            "value_json = json_set(value_json, '$.workspaceKey', ?, '$.workspaceDir', ?) "
            "WHERE plugin_id = 'memory-core' AND substr(entry_key, 1, ?) = ?",
            (new_key, len(old_key) + 1, new_key, new, len(old_key), old_key),
        )
    connection.close()


def install_stage(stage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The stage's workspace under ``tmp_path`` with OpenClaw's state found for it."""
    root = tmp_path / "workspace"
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(FIXTURE / stage / "workspace", root)
    state_dir = tmp_path / "openclaw"
    database = unpack_database(stage, state_dir / "state" / "openclaw.sqlite")
    relocate(database, BUILT_AT, str(root.resolve()))
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(state_dir))
    return root.resolve()


HANDBACK = FIXTURE.parent / "openclaw-2026.9.6-handback"
HANDBACK_BUILT_AT = "/tmp/dreamd-openclaw-handback/home/.openclaw/workspace"


def handback_database(stage: str, target: Path, root: Path) -> Path:
    """The handback fixture's ``stage`` database (``before`` or ``after`` the export) written
    to ``target``, its rows moved to the workspace at ``root``."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(HANDBACK / stage / "openclaw.sqlite.gz", "rb") as packed:
        target.write_bytes(packed.read())
    relocate(target, HANDBACK_BUILT_AT, str(root))
    return target


def install_handback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The handback fixture's workspace as it was before the export, under ``tmp_path``, with
    OpenClaw's database of that moment found for it."""
    import tarfile

    root = tmp_path / "workspace"
    root.mkdir()
    with tarfile.open(HANDBACK / "before" / "workspace.tar.gz") as packed:
        packed.extractall(root, filter="data")
    state_dir = tmp_path / "openclaw"
    handback_database("before", state_dir / "state" / "openclaw.sqlite", root.resolve())
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(state_dir))
    return root.resolve()
