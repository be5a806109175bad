"""Going back to OpenClaw: dreamd's state handed to OpenClaw's database, never under a live one."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dreamd.cli.main import main
from dreamd.engine.state import RECALL_STORE
from dreamd.errors import DreamdError
from dreamd.runs.handback import run_handback
from dreamd.runs.openclaw_guard import OpenClawRunningError
from dreamd.workspace.openclaw_state import workspace_key
from tests.builders import at, stored_rows
from tests.workspace.openclaw_fixture import HANDBACK, handback_database, install_handback

EXPORTED_AT = at("2026-10-16T08:00:00Z")  # when build.sh ran the export


def _rows(database: Path, root: Path) -> dict[tuple[str, str], Any]:
    """The memory-core rows keyed to ``root``: (namespace, logical key) -> value."""
    prefix = workspace_key(root)
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        found = connection.execute(
            "SELECT namespace, value_json FROM plugin_state_entries WHERE plugin_id = "
            "'memory-core' AND substr(entry_key, 1, 65) = ?",
            (f"{prefix}:",),
        ).fetchall()
    connection.close()
    rows = {}
    for namespace, value_json in found:
        value = json.loads(value_json)
        assert value["workspaceDir"] == str(root)
        rows[(namespace, value["key"])] = value["value"]
    return rows


@pytest.fixture
def no_processes(tmp_path: Path) -> Path:
    """An empty process table: the machine running the tests may have an OpenClaw of its own."""
    proc = tmp_path / "proc"
    proc.mkdir()
    return proc


@pytest.fixture
def fake_openclaw() -> Iterator[subprocess.Popen[bytes]]:
    """A live process whose command line is OpenClaw's (its ``openclaw.mjs``)."""
    process = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(120)", "/opt/openclaw/openclaw.mjs"]
    )
    try:
        yield process
    finally:
        process.kill()
        process.wait()


def test_openclaw_reads_what_dreamd_hands_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_processes: Path
) -> None:
    """Replaying the recorded export gives the rows OpenClaw 2026.9.6 then read: its audit
    counts every recall row and promotion dreamd held, and it offers none of dreamd's
    promotions as a candidate (build.sh in the fixture records both sides)."""
    root = install_handback(tmp_path, monkeypatch)
    database = tmp_path / "openclaw" / "state" / "openclaw.sqlite"
    report = run_handback(
        root, databases=[database], now=EXPORTED_AT, apply=True, proc=no_processes
    )
    recorded = json.loads((HANDBACK / "export.json").read_text())["workspaces"][0]
    for field in ("rows", "recall", "promoted", "patched", "removed", "openclawBefore"):
        assert report[field] == recorded[field]
    mine = _rows(database, root)
    recorded_after = handback_database("after", tmp_path / "after.sqlite", root)
    assert mine == _rows(recorded_after, root)
    audit = json.loads((HANDBACK / "promote.json").read_text())["audit"]
    recall = {key: value for (ns, key), value in mine.items() if ns == "short-term-recall"}
    promoted = {key for key, value in recall.items() if value.get("promotedAt")}
    assert (audit["entryCount"], audit["promotedCount"]) == (len(recall), len(promoted))
    assert (
        audit["entryCount"]
        == report["openclawAfter"]["recall"]
        > recorded["openclawBefore"]["recall"]
    )
    candidates = json.loads((HANDBACK / "promote.json").read_text())["candidates"]
    assert candidates and not {c["key"] for c in candidates} & promoted


def test_the_pending_searches_reach_openclaw(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_processes: Path
) -> None:
    """The three searches dreamd recorded but never swept are in the rows handed over: every
    row they touched carries their time as ``lastRecalledAt``."""
    root = install_handback(tmp_path, monkeypatch)
    database = tmp_path / "openclaw" / "state" / "openclaw.sqlite"
    pending = (root / "memory/.dreams/recall-pending.jsonl").read_text().splitlines()
    assert len(pending) == 3
    touched = {
        f"{hit['path']}:{hit['startLine']}:{hit['endLine']}"
        for line in pending
        for hit in json.loads(line)["hits"]
    }
    run_handback(root, databases=[database], now=EXPORTED_AT, apply=True, proc=no_processes)
    recall = {k: v for (ns, k), v in _rows(database, root).items() if ns == "short-term-recall"}
    searched = {
        f"{value['path']}:{value['startLine']}:{value['endLine']}"
        for value in recall.values()
        if value["lastRecalledAt"].startswith("2026-10-15T09:00")
    }
    assert searched == touched


def test_a_preview_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_processes: Path
) -> None:
    """Without apply the database's bytes and the workspace's state files stay as they were."""
    root = install_handback(tmp_path, monkeypatch)
    database = tmp_path / "openclaw" / "state" / "openclaw.sqlite"
    before = database.read_bytes()
    report = run_handback(
        root, databases=[database], now=EXPORTED_AT, apply=False, proc=no_processes
    )
    assert (report["applied"], database.read_bytes() == before) == (False, True)


def test_refused_while_an_openclaw_process_runs(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fake_openclaw: subprocess.Popen[bytes],
) -> None:
    """A live OpenClaw command line on this host: refused, naming its pid; nothing written."""
    root = install_handback(tmp_path, monkeypatch)
    database = tmp_path / "openclaw" / "state" / "openclaw.sqlite"
    before = database.read_bytes()
    with pytest.raises(OpenClawRunningError, match=f"pid {fake_openclaw.pid} \\(its command"):
        run_handback(root, databases=[database], now=EXPORTED_AT, apply=True)
    assert database.read_bytes() == before


def test_refused_while_openclaw_owns_its_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_processes: Path
) -> None:
    """OpenClaw's state-ownership coordinator held (as a running gateway holds it): refused;
    once released, the export goes through."""
    root = install_handback(tmp_path, monkeypatch)
    database = tmp_path / "openclaw" / "state" / "openclaw.sqlite"
    lock_dir = tmp_path / "openclaw" / "tmp" / f"openclaw-{os.getuid()}"
    lock_dir.mkdir(parents=True)
    owner = sqlite3.connect(lock_dir / "gateway.state.lock.sqlite", isolation_level=None)
    owner.execute("BEGIN EXCLUSIVE")
    with pytest.raises(OpenClawRunningError, match=r"an owner of .*gateway\.state\.lock\.sqlite"):
        run_handback(root, databases=[database], now=EXPORTED_AT, apply=True, proc=no_processes)
    owner.execute("ROLLBACK")
    owner.close()
    report = run_handback(
        root, databases=[database], now=EXPORTED_AT, apply=True, proc=no_processes
    )
    assert report["applied"] is True


def test_refused_while_a_lock_record_names_a_live_owner(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    no_processes: Path,
    fake_openclaw: subprocess.Popen[bytes],
) -> None:
    """``gateway.state.lock`` naming a live process (OpenClaw's record of its owner): refused."""
    root = install_handback(tmp_path, monkeypatch)
    database = tmp_path / "openclaw" / "state" / "openclaw.sqlite"
    lock_dir = tmp_path / "openclaw" / "tmp" / f"openclaw-{os.getuid()}"
    lock_dir.mkdir(parents=True)
    record = {"pid": fake_openclaw.pid, "createdAt": "2026-10-16T08:00:00Z", "configPath": "x"}
    (lock_dir / "gateway.state.lock").write_text(json.dumps(record))
    with pytest.raises(OpenClawRunningError, match=f"pid {fake_openclaw.pid} \\(gateway, gateway"):
        run_handback(root, databases=[database], now=EXPORTED_AT, apply=True, proc=no_processes)


def test_without_a_database_the_json_files_hold_everything(tmp_path: Path) -> None:
    """No OpenClaw database yet: OpenClaw imports the JSON files on its first start, so the
    export saves the merged store there, the searches still pending included."""
    root = tmp_path / "workspace"
    (root / "memory").mkdir(parents=True)
    (root / "memory/2026-10-15.md").write_text("# Ops\n\n- The billing service runs on db-02.\n")
    from dreamd.engine.hits import Hit
    from dreamd.recall.record import record_search

    hit = Hit("memory/2026-10-15.md", 3, 3, "- The billing service runs on db-02.", 0.9)
    record_search(root, "billing host", [hit], now=EXPORTED_AT, zone=EXPORTED_AT.tzinfo)  # type: ignore[arg-type]
    assert not (root / "memory/.dreams" / RECALL_STORE.name).exists()
    report = run_handback(root, databases=[], now=EXPORTED_AT, apply=True)
    assert (report["route"], report["database"], report["applied"]) == ("json", None, True)
    saved = json.loads((root / "memory/.dreams" / RECALL_STORE.name).read_text())
    assert (
        sorted(saved["entries"]) == sorted(stored_rows(root)) == ["memory:memory/2026-10-15.md:3:3"]
    )


def test_apply_needs_dreamds_dreaming_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With dreamd still dreaming, --apply is refused and says how to turn it off."""
    root = install_handback(tmp_path, monkeypatch)
    database = tmp_path / "openclaw" / "state" / "openclaw.sqlite"
    before = database.read_bytes()
    code = main(["--workspace", str(root), "memory", "export-openclaw", "--apply"])
    err = capsys.readouterr().err
    assert code == 1
    assert "run `dreamd dreaming off` first" in err
    assert database.read_bytes() == before


def test_a_database_of_another_shape_is_refused(tmp_path: Path, no_processes: Path) -> None:
    """A file that is not OpenClaw's state database is named and nothing is written to it."""
    root = tmp_path / "workspace"
    (root / "memory").mkdir(parents=True)
    database = tmp_path / "state" / "openclaw.sqlite"
    database.parent.mkdir()
    with sqlite3.connect(database) as connection:
        connection.execute("CREATE TABLE plugin_state_entries (x TEXT)")
    connection.close()
    with pytest.raises(DreamdError, match="not an OpenClaw state database dreamd knows"):
        run_handback(root, databases=[database], now=EXPORTED_AT, apply=True, proc=no_processes)


def test_a_store_past_the_cap_retires_first(tmp_path: Path) -> None:
    """512 rows and three searches still pending: the export leaves what dreamd's next save
    would, 512 rows, the three past the cap retired to the long-term layer, not handed over."""
    from dreamd.engine.hits import Hit
    from dreamd.recall.record import record_search
    from tests.builders import entry, table

    root = tmp_path / "workspace"
    rows = [
        entry(
            start=n,
            end=n,
            snippet=f"- Fact {n} about the billing host.",
            recall_count=3,
            last_recalled_at="2026-10-14T10:00:00.000Z",
        )
        for n in range(1, 513)
    ]
    (root / "memory/.dreams").mkdir(parents=True)
    (root / "memory/.dreams" / RECALL_STORE.name).write_bytes(RECALL_STORE.encode(table(rows)))
    note = "".join(f"- New fact {n} about the ledger.\n" for n in range(3))
    (root / "memory/2026-10-15.md").write_text(note)
    for n in range(3):
        hit = Hit("memory/2026-10-15.md", n + 1, n + 1, f"- New fact {n} about the ledger.", 0.9)
        record_search(root, f"ledger {n}", [hit], now=EXPORTED_AT, zone=EXPORTED_AT.tzinfo)  # type: ignore[arg-type]
    assert len(stored_rows(root)) == 515
    report = run_handback(root, databases=[], now=EXPORTED_AT, apply=True)
    assert (report["recall"], report["retired"]) == (512, 3)
    saved = json.loads((root / "memory/.dreams" / RECALL_STORE.name).read_text())
    assert len(saved["entries"]) == 512
    retired = (root / "memory/.rag/longterm.jsonl").read_text().splitlines()
    assert len(retired) == 3
