"""The embedded demo: the README's first command, with no config, model or network."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dreamd.cli.main import main


def test_demo_promotes_the_asked_about_facts_and_keeps_out_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Facts asked about on several days, and a Retain world fact, are promoted once, with
    sources; the rest is kept out."""
    target = tmp_path / "demo"
    assert main(["--json", "--now", "2026-11-29T12:00:00Z", "demo", "--dir", str(target)]) == 0
    result = json.loads(capsys.readouterr().out)
    promoted = {item["snippet"] for item in result["promoted"]}
    assert promoted == {
        "- Decision: the billing service moves to Postgres 16 on the db-02 host.",
        "- Ana Silva owns the release checklist; ask her before tagging a release.",
        "- Staging deploys need the corp-eu VPN profile enabled first.",
        "- Hana covers the payments on-call rotation until the 30th.",
        "Retain: W @Dana: Dana works from the Lisbon office on Thursdays.",  # declared
    }
    carried = [item["alsoIn"] for item in result["promoted"] if "Hana" in item["snippet"]]
    assert carried == [
        ["memory/2026-11-23.md:5-5", "memory/2026-11-24.md:5-5", "memory/2026-11-25.md:5-5"]
    ]
    reasons = {item["what"].split(",")[0]: item["rejection"] for item in result["keptOut"]}
    assert reasons == {
        "one-off question": "signal threshold",
        "cron-touched filler": "query threshold",
        "untrusted only": "origin",
        # an order pasted into a note comes last in every search, so it never gathers the
        # score to reach the instruction gate
        "injected order": "score threshold",
        "fake Deep Sleep block": "instruction",
        "carried-over copy": "duplicate",
        "asked about": "score threshold",
    }
    memory = (target / "MEMORY.md").read_text()
    assert memory.count("<!-- dreamd-memory-promotion:") == 5
    assert memory.count("Hana covers") == 1 and "SYSTEM NOTICE" not in memory
    assert "on the db-02 host. (2026-11-09.md#L4)\n" in memory
    assert "Lunch order" not in memory and "payments API" not in memory and "Standup" not in memory
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


def test_demo_grows_a_memory_bank(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The nights grow an entity page and two opinions: one restated (rose), one denied (fell)."""
    target = tmp_path / "demo"
    assert main(["--json", "--now", "2026-11-29T12:00:00Z", "demo", "--dir", str(target)]) == 0
    bank = json.loads(capsys.readouterr().out)["bank"]
    moves = {
        o["statement"]: (o["start"], o["confidence"], len(o["contradicting"]))
        for o in bank["opinions"]
    }
    assert moves == {
        "Prefers written summaries over meetings.": (0.7, 0.7813, 0),
        "Likes the new dashboard theme.": (0.8, 0.4913, 3),
    }
    assert {page["path"] for page in bank["pages"]} == {
        "bank/world.md",
        "bank/opinions.md",
        "bank/entities/Dana.md",
    }
    dana = (target / "bank" / "entities" / "Dana.md").read_text()
    assert dana.startswith("# Dana\n\n<!-- dreamd:bank:begin -->\nDana: 9 fact(s)")
    assert main(["--now", "2026-11-29T12:00:00Z", "demo", "--dir", str(tmp_path / "again")]) == 0
    assert "rose 0.70 -> 0.78: Prefers written summaries" in capsys.readouterr().out
