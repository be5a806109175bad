"""The embedded demo: the README's first command, with no config, model or network."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dreamd.cli.main import main


def test_demo_promotes_the_asked_about_facts_and_keeps_out_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Facts asked about on several days are promoted with sources; the rest is kept out."""
    target = tmp_path / "demo"
    assert main(["--json", "--now", "2026-11-29T12:00:00Z", "demo", "--dir", str(target)]) == 0
    result = json.loads(capsys.readouterr().out)
    promoted = {item["snippet"] for item in result["promoted"]}
    assert promoted == {
        "- Decision: the billing service moves to Postgres 16 on the db-02 host.",
        "- Ana Silva owns the release checklist; ask her before tagging a release.",
        "- Staging deploys need the corp-eu VPN profile enabled first.",
    }
    reasons = {item["what"].split(",")[0]: item["rejection"] for item in result["keptOut"]}
    assert reasons == {
        "one-off question": "signal threshold",
        "cron-touched filler": "query threshold",
        "untrusted only": "origin",
        "asked about": "score threshold",
    }
    memory = (target / "MEMORY.md").read_text()
    assert memory.count("<!-- dreamd-memory-promotion:") == 3
    assert "source=memory/2026-11-09.md:4-4]" in memory
    assert "Lunch order" not in memory and "payments" not in memory and "Standup" not in memory
    assert (target / "DREAMS.md").read_text().startswith("# Dream Diary\n")
    assert result["sweeps"] == 21


def test_demo_refuses_a_non_empty_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The demo never writes into a directory that already holds something."""
    (tmp_path / "keep.txt").write_text("mine")
    assert main(["demo", "--dir", str(tmp_path)]) == 1
    assert "not an empty directory" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]
