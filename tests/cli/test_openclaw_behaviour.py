"""Behaviours OpenClaw's memory-core tests pin down, re-run against dreamd's CLI.

Each test names the OpenClaw test (``extensions/memory-core/src/*.test.ts``) whose rule it
follows; where dreamd deliberately differs, docs/migrating-from-openclaw.md says why.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from dreamd.cli.main import main
from dreamd.engine.phases.rehydrate import Rehydrated, rehydrate
from dreamd.engine.state import RECALL_STORE, RecallEntry
from dreamd.engine.text.themes import is_theme
from dreamd.store.writer import save_table
from tests.builders import entry, stored_rows, table, write

AT = "2026-11-29T12:00:00Z"
TODAY = "2026-11-29"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``dreamd argv`` in-process; returns (exit code, stdout, stderr)."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(capsys: pytest.CaptureFixture[str], root: Path, *argv: str) -> Any:
    """``dreamd --json --workspace root --now AT argv``, parsed; the command must succeed."""
    code, out, err = run(capsys, "--json", "--workspace", str(root), "--now", AT, *argv)
    assert code == 0, err
    return json.loads(out)


def _stage(capsys: pytest.CaptureFixture[str], root: Path, path: str) -> Any:
    return run_json(
        capsys, root, "memory", "rem-backfill", "--path", str(root / path), "--stage-short-term"
    )


def _rows(root: Path) -> list[dict[str, Any]]:
    return sorted(stored_rows(root).values(), key=lambda row: row["startLine"])


@pytest.mark.parametrize(
    ("heading", "timezone"),
    [("Preferences Learned", "Always use UTC."), ("Notes", "Prefer UTC: yes")],
)
def test_short_claims_are_staged_and_independently_rehydratable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], heading: str, timezone: str
) -> None:
    """cli-rem-grounding.test.ts "stages $heading summaries as independently rehydratable source
    snippets": `Prefer tea.` is staged beside the other claim, each row re-hydrates on its own,
    staging again replaces both, and a deleted line no longer re-hydrates."""
    note = "memory/2025-01-01.md"
    write(tmp_path, note, f"## {heading}\n- {timezone}\n\n- Prefer tea.\n")
    for run_number in range(2):
        result = _stage(capsys, tmp_path, note)
        counts = (result["stagedShortTermEntries"], result["replacedShortTermEntries"])
        assert counts == (2, 2 * run_number)
        rows = _rows(tmp_path)
        assert [
            (r["path"], r["startLine"], r["endLine"], r["snippet"], r["groundedCount"])
            for r in rows
        ] == [(note, 2, 2, timezone, 2), (note, 4, 4, "Prefer tea.", 2)]
        assert [(r["recallCount"], r["recallDays"], len(r["queryHashes"])) for r in rows] == [
            (0, ["2025-01-01"], 1),
            (0, ["2025-01-01"], 1),
        ]
    zero = ("--min-score", "0", "--min-recall-count", "0", "--min-unique-queries", "0")
    ranked = run_json(capsys, tmp_path, "memory", "promote", *zero)["candidates"]
    assert sorted(c["snippet"] for c in ranked) == sorted([timezone, "Prefer tea."])
    text = (tmp_path / note).read_text(encoding="utf-8")
    for row in _rows(tmp_path):
        found = rehydrate(text, row["startLine"], row["endLine"], row["snippet"])
        assert found == Rehydrated(row["startLine"], row["endLine"], row["snippet"], exact=True)
    write(tmp_path, note, f"## {heading}\n- {timezone}\n")
    assert rehydrate(f"## {heading}\n- {timezone}\n", 4, 4, "Prefer tea.") is None


def test_an_atomic_claim_is_staged_on_every_line_without_the_transient_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """cli-rem-grounding.test.ts "retains every coalesced atomic claim without restaging
    transient source text": lines 2 and 5 each stage `People Update: Alex is my partner.`,
    and neither the hotel nor the dinner sentence is staged."""
    note = "memory/2025-01-02.md"
    write(
        tmp_path,
        note,
        "## People Update\n- Alex is my partner. We met today at the hotel.\n\n"
        "## People Update\n- Alex is my partner. Dinner is booked for tomorrow.\n",
    )
    assert _stage(capsys, tmp_path, note)["stagedShortTermEntries"] == 2
    claim = "People Update: Alex is my partner."
    assert [
        (r["path"], r["startLine"], r["endLine"], r["snippet"], r["groundedCount"])
        for r in _rows(tmp_path)
    ] == [(note, 2, 2, claim, 2), (note, 5, 5, claim, 2)]
    text = (tmp_path / note).read_text(encoding="utf-8")
    assert rehydrate(text, 5, 5, claim) == Rehydrated(5, 5, claim, exact=True)


def _store(root: Path, rows: list[RecallEntry]) -> None:
    save_table(root, RECALL_STORE, table(rows))


def test_rem_harness_offers_the_live_entry_when_another_source_vanished(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """rem-harness.ts previewRemHarness (cli.test.ts "previews rem harness output as json"): the
    entry whose note is gone is left out; the live one (1 recall, avg 0.91, 5 recall days) is a
    candidate truth even though light stages today's chunk of the same text in its place."""
    snippet = "The billing service runs on Postgres 16 on host db-02."
    write(tmp_path, f"memory/{TODAY}.md", f"# Infra\n{snippet}\n")
    days = [f"2026-11-{day}" for day in range(25, 30)]
    common: dict[str, Any] = {
        "recall_count": 1,
        "total_score": 0.91,
        "max_score": 0.91,
        "first_recalled_at": "2026-11-25T09:00:00.000Z",
        "last_recalled_at": "2026-11-29T09:00:00.000Z",
        "query_hashes": ["0123456789ab"],
        "recall_days": days,
        "concept_tags": ["billing", "service", "postgres", "db-02"],
    }
    live = entry(f"memory/{TODAY}.md", 2, 2, snippet, **common)
    gone = entry(
        "memory/2026-11-27.md", 4, 4, "The queue moved to Redis 7 on host mq-01.", **common
    )
    _store(tmp_path, [live, gone])
    rem = run_json(capsys, tmp_path, "memory", "rem-harness")["rem"]
    confidence = 0.45 * 0.91 + 0.25 * math.log(2) / math.log(7) + 0.20 + 0.10 * 4 / 6
    assert [(t["key"], t["snippet"]) for t in rem["candidateTruths"]] == [(live.key, snippet)]
    assert rem["candidateTruths"][0]["confidence"] == pytest.approx(confidence, abs=1e-9)
    assert round(confidence, 2) == 0.77
    assert rem["candidateKeys"] == [live.key]


def test_numbers_ranges_dates_and_file_names_are_never_themes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """concept-vocabulary.test.ts and dreaming-phases.test.ts REM themes: stored tags `1.00`,
    `51-54`, `2026-04-16`, `2026-04-16.txt` and stop words are no theme; full-width `ｇａｔｅｗａｙ`
    is folded into `gateway`."""
    write(tmp_path, "memory/2026-01-01.md", "# Gateway\nThe gateway fails over to the backup.\n")
    common: dict[str, Any] = {
        "recall_count": 1,
        "total_score": 0.8,
        "max_score": 0.8,
        "last_recalled_at": "2026-11-29T09:00:00.000Z",
        "recall_days": [TODAY],
    }
    tags = ["1.00", "51-54", "2026-04-16", "2026-04-16.txt", "the", "ｇａｔｅｗａｙ"]
    first = entry("memory/2026-01-01.md", 2, 2, "Gateway fails over.", concept_tags=tags, **common)
    second = entry(
        "memory/2026-01-01.md", 1, 2, "The gateway backup.", concept_tags=["gateway"], **common
    )
    _store(tmp_path, [first, second])
    rem = run_json(capsys, tmp_path, "memory", "rem-harness")["rem"]
    assert rem["reflections"] == [{"tag": "gateway", "count": 2, "strength": 1.0}]


@pytest.mark.parametrize(
    ("tag", "theme"),
    [
        ("1.00", False),
        ("51-54", False),
        ("51–54", False),
        ("10:30", False),
        ("2026-04-16", False),
        ("２０２６－０４－１６", False),
        ("2026-04-16.txt", False),
        ("notes.md", False),
        ("und", False),
        ("ｇａｔｅｗａｙ", True),
        ("node.js", True),
        ("v1.2", True),
        ("db-02", True),
    ],
)
def test_theme_tag_rules(tag: str, theme: bool) -> None:
    """concept-vocabulary.test.ts: numbers, ranges, dates, file names and stop words are no
    theme, full-width forms are folded; versions, hosts and framework names still are."""
    assert is_theme(tag) is theme


def test_the_checkpoint_of_a_deleted_note_is_dropped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """dreaming-phases.test.ts daily ingestion: the next sweep drops the daily-ingestion.json
    checkpoint of a note deleted since, and keeps the others."""
    write(tmp_path, f"memory/{TODAY}.md", "The billing service runs on Postgres 16.\n")
    write(tmp_path, "memory/2026-11-28.md", "The queue service runs on Redis 7 now.\n")
    checkpoints = tmp_path / "memory" / ".dreams" / "daily-ingestion.json"
    run_json(capsys, tmp_path, "sweep")
    files = json.loads(checkpoints.read_text(encoding="utf-8"))["files"]
    assert sorted(files) == ["memory/2026-11-28.md", f"memory/{TODAY}.md"]
    (tmp_path / "memory" / "2026-11-28.md").unlink()
    run_json(capsys, tmp_path, "sweep")
    assert list(json.loads(checkpoints.read_text(encoding="utf-8"))["files"]) == [
        f"memory/{TODAY}.md"
    ]


def test_rem_limit_zero_gives_no_body_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """rem-harness.ts createSkippedRemPreview: with `rem.limit = 0` the preview is skipped and
    its bodyLines are `[]`, in JSON and in the text preview."""
    config = write(tmp_path, "config.toml", "[dreaming.rem]\nlimit = 0\n")
    root = tmp_path / "ws"
    write(root, f"memory/{TODAY}.md", "The billing service runs on Postgres 16.\n")
    out = run_json(capsys, root, "--config", str(config), "memory", "rem-harness")
    assert {k: out["rem"][k] for k in ("skipped", "candidateTruths", "bodyLines")} == {
        "skipped": True,
        "candidateTruths": [],
        "bodyLines": [],
    }
    code, text, _ = run(
        capsys, "--config", str(config), "--workspace", str(root), "--now", AT,
        "memory", "rem-harness",
    )  # fmt: skip
    assert code == 0
    assert "### Reflections" not in text


def test_promote_on_an_empty_store_says_the_store_is_empty(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """cli.promote.test.ts "says the recall store is empty"."""
    (tmp_path / "memory").mkdir()
    code, out, _ = run(capsys, "--workspace", str(tmp_path), "--now", AT, "memory", "promote")
    assert (code, out.splitlines()[1:]) == (
        0,
        ["No short-term recall candidates.", "Recall store is empty."],
    )
