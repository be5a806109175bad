"""One count of the night's promotions, from the events log, wherever it is shown."""

from __future__ import annotations

import json
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest

from dreamd.chat.text import render_report
from dreamd.cli.main import main
from dreamd.config import DreamingConfig
from dreamd.daemon.dreams import candidates_document
from dreamd.engine.phases.cycle import thresholds_of
from dreamd.engine.tally import promotions_on
from dreamd.engine.text.blocks import read_block
from dreamd.workspace.reader import read_snapshot
from tests.builders import at, write

AT = "2026-11-26T03:00:00Z"
LATER = "2026-11-26T15:00:00Z"
WRITTEN = "- The ledger keeps 30 days of backups on host db-02."
RECONCILED = "- The billing service runs on Postgres 16 since the move."
THEIRS = "- Deploys freeze every Friday after noon for the release train."


def _row(path: str, snippet: str, **fields: object) -> dict[str, object]:
    """A store row that passes every gate at ``AT``."""
    return {
        "key": f"memory:{path}:3:3",
        "path": path,
        "startLine": 3,
        "endLine": 3,
        "snippet": snippet,
        "recallCount": 5,
        "totalScore": 4.5,
        "queryHashes": ["q1", "q2", "q3", "q4"],
        "userQueryHashes": ["q1", "q2", "q3", "q4"],
        "lastRecalledAt": "2026-11-25T12:00:00.000Z",
        "recallDays": ["2026-11-21", "2026-11-23", "2026-11-25"],
        "conceptTags": ["ledger", "backups", "host", "db-02"],
        **fields,
    }


@pytest.fixture
def night(tmp_path: Path) -> Path:
    """A workspace whose sweep writes one line: one candidate is written, one is already in
    MEMORY.md under OpenClaw's marker (reconciled, nothing written), and one row OpenClaw marked
    promoted this morning (no line of dreamd's)."""
    root = tmp_path / "ws"
    for day, text in (("20", WRITTEN), ("21", RECONCILED), ("22", THEIRS)):
        write(root, f"memory/2026-11-{day}.md", f"# 2026-11-{day}\n\n{text}\n")
    write(
        root,
        "MEMORY.md",
        "# Long-Term Memory\n\n## Promoted From Short-Term Memory (2026-11-25)\n\n"
        "<!-- openclaw-memory-promotion:memory:memory/2026-11-21.md:3:3 -->\n"
        f"{RECONCILED}\n",
    )
    rows = {
        "memory:memory/2026-11-20.md:3:3": _row("memory/2026-11-20.md", WRITTEN),
        "memory:memory/2026-11-21.md:3:3": _row("memory/2026-11-21.md", RECONCILED),
        "memory:memory/2026-11-22.md:3:3": _row(
            "memory/2026-11-22.md", THEIRS, promotedAt="2026-11-26T01:00:00.000Z"
        ),
    }
    store = {"version": 1, "entries": rows}
    write(root, "memory/.dreams/short-term-recall.json", json.dumps(store))
    return root


def _dreamd(capsys: pytest.CaptureFixture[str], root: Path, when: str, *argv: str) -> Any:
    code = main(["--json", "--workspace", str(root), "--now", when, *argv])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


def test_every_reader_shows_the_one_line_written(
    night: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One line written: the sweep, status, DREAMS.md's deep report, the dream report, the
    page's list and chat's report all say 1, before and after a second sweep that day."""
    outcome = _dreamd(capsys, night, AT, "sweep")["workspaces"][0]
    assert (outcome["deep"]["promoted"], outcome["deep"]["promotedToday"]) == (1, 1)
    assert outcome["deep"]["reconciled"] == 1
    memory = (night / "MEMORY.md").read_text()
    assert memory.count(WRITTEN) == 1 and memory.count(RECONCILED) == 1
    again = _dreamd(capsys, night, LATER, "sweep")["workspaces"][0]
    assert (again["deep"]["promoted"], again["deep"]["promotedToday"]) == (0, 1)

    status = _dreamd(capsys, night, LATER, "status")["workspaces"][0]
    assert status["promotedToday"] == 1
    dreams = (night / "DREAMS.md").read_text()
    assert "- Promoted 1 candidate(s) into MEMORY.md." in (read_block(dreams, "deep") or "")
    report = (night / "memory/dreams/2026-11-26.md").read_text()
    assert "- Promoted today: 1\n" in report

    snapshot = read_snapshot(
        night, dreaming=DreamingConfig(), now=at(LATER), zone=UTC, readonly=True
    )
    page = candidates_document(snapshot, thresholds_of(DreamingConfig()), now=at(LATER), zone=UTC)
    assert [(p["key"], p["snippet"]) for p in page["promotions"]] == [
        ("memory:memory/2026-11-20.md:3:3", WRITTEN)
    ]
    near = {miss["key"] for miss in page["nearMisses"]}
    assert not near & {f"memory:memory/2026-11-2{n}.md:3:3" for n in (0, 1, 2)}

    chat = render_report(
        [
            {
                "label": "main",
                "lastOutcome": {"at": LATER, "status": "ok", "ranked": 0, "promoted": 0},
                "promotedToday": status["promotedToday"],
            }
        ],
        zone=UTC,
    )
    assert "ok, ranked 0; promoted today: 1" in chat


def test_the_count_is_the_events_logs(night: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The count is the distinct keys of the day's promotion events in the dreaming zone: a
    sweep at 23:30 UTC is the next day in Berlin, and the log says which lines were written."""
    _dreamd(capsys, night, AT, "sweep")
    events = [
        json.loads(line)
        for line in (night / "memory/.dreams/events.jsonl").read_text().splitlines()
    ]
    applied = [e for e in events if e["type"] == "memory.promotion.applied"]
    assert [len(e["candidates"]) for e in applied] == [1]
    assert [p.key for p in promotions_on(events, "2026-11-26", UTC)] == [
        "memory:memory/2026-11-20.md:3:3"
    ]
    late = [{**applied[0], "timestamp": "2026-11-26T23:30:00.000Z"}]
    from zoneinfo import ZoneInfo

    assert promotions_on(late, "2026-11-26", ZoneInfo("Europe/Berlin")) == ()
    assert len(promotions_on(late, "2026-11-27", ZoneInfo("Europe/Berlin"))) == 1
