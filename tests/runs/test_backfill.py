"""Grounded backfill: staging and its gates, diary entries, rollback, progress, and the CLI."""

from __future__ import annotations

import hashlib
import io
import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec
import pytest

from dreamd.cli.main import main
from dreamd.engine.grounded.entries import (
    backfill_keys,
    entry_lines,
    plan_backfill_diary,
    remove_backfill_entries,
)
from dreamd.engine.grounded.preview import GroundedNote, plan_grounded
from dreamd.engine.grounded.staging import (
    BACKFILL_META,
    claims_of,
    rollback_grounded,
    stage_grounded,
)
from dreamd.engine.phases.cycle import is_grounded_led
from dreamd.engine.phases.deep import Thresholds, rank
from dreamd.engine.phases.diary import add_entry, diary_entries, render_entry
from dreamd.engine.phases.reports import deep_body
from dreamd.engine.state import RECALL_STORE, PhaseSignal, Table
from dreamd.recall.record import fold_pending
from dreamd.runs.backfill import find_sources
from dreamd.runs.progress import Progress
from dreamd.store.fingerprint import FINGERPRINT_FILE
from dreamd.store.lock import workspace_lock
from dreamd.store.writer import save_table
from tests.builders import entry, table, write

NOW = datetime(2026, 11, 30, 3, 0, tzinfo=UTC)
AT = "2026-11-30T03:00:00Z"
EMPTY_SIGNALS: Table[PhaseSignal] = Table({})


def note(day: str, text: str, slug: str = "") -> GroundedNote:
    """The grounded preview of ``memory/<day><slug>.md`` holding ``text``."""
    return plan_grounded(f"memory/{day}{slug}.md", day, text)


# -- staging -------------------------------------------------------------------------------


def test_a_claim_gets_one_piece_of_evidence_per_note_day() -> None:
    """Same claim on three days (twice on one day): three pieces, the latest note canonical."""
    claim = "- Alice owns the billing service.\n"
    notes = [
        note("2026-11-01", claim),
        note("2026-11-01", "- Bob likes tea.\n" + claim, slug="-meeting"),
        note("2026-11-08", claim),
        note("2026-11-15", "- alice OWNS the billing service!\n"),
    ]
    (alice,) = [c for c in claims_of(notes) if "alice" in c.canonical.text.lower()]
    assert [(e.path, e.day, e.lasting) for e in alice.evidence] == [
        ("memory/2026-11-01.md", "2026-11-01", True),
        ("memory/2026-11-08.md", "2026-11-08", True),
        ("memory/2026-11-15.md", "2026-11-15", True),
    ]
    assert (alice.canonical.path, alice.canonical.text, alice.weight) == (
        "memory/2026-11-15.md",
        "alice OWNS the billing service!",
        6,
    )


def _staged_row(notes: list[GroundedNote], needle: str) -> Any:
    staging = stage_grounded(Table({}), EMPTY_SIGNALS, notes, now=NOW)
    (row,) = [r for r in staging.store.rows.values() if needle in r.snippet]
    return row


def test_lasting_updates_and_candidates_carry_their_scores() -> None:
    """A lasting update adds 2 signals at 0.92, a likely-durable candidate 1 at 0.82."""
    notes = [note("2026-11-01", "- Bob prefers tea.\n- Carol lives in Lisbon.\n")]
    lasting, candidate = _staged_row(notes, "Bob"), _staged_row(notes, "Carol")
    assert (lasting.grounded_count, lasting.total_score, lasting.recall_days) == (
        2,
        pytest.approx(1.84),
        ("2026-11-01",),
    )
    assert (candidate.grounded_count, candidate.total_score) == (1, pytest.approx(0.82))
    assert (lasting.recall_count, lasting.daily_count, lasting.provenance.origin_class) == (
        0,
        0,
        "owner",
    )
    assert lasting.key == f"memory:memory/2026-11-01.md:1:1:{lasting.claim_hash}"


def _gate(notes: list[GroundedNote], needle: str) -> str | None:
    staging = stage_grounded(Table({}), EMPTY_SIGNALS, notes, now=NOW)
    ranking = rank(staging.store.rows, {}, Thresholds(), now=NOW)
    verdicts = {v.scored.entry.snippet: v.rejection for v in ranking.verdicts}
    (verdict,) = [reason for snippet, reason in verdicts.items() if needle in snippet]
    return verdict


@pytest.mark.parametrize(
    ("days", "line", "verdict"),
    [
        (1, "- We decided to deploy only on Tuesdays.", "signal threshold"),
        (2, "- We decided to deploy only on Tuesdays.", "query threshold"),
        (3, "- We decided to deploy only on Tuesdays.", None),
        (3, "- Carol lives in Lisbon near the harbour.", None),
        (2, "- Carol lives in Lisbon near the harbour.", "signal threshold"),
    ],
)
def test_only_claims_corroborated_on_three_days_pass_the_gates(
    days: int, line: str, verdict: str | None
) -> None:
    """One-off and two-day claims stay out; a durable claim on three note days passes."""
    notes = [note(f"2026-11-{10 + 7 * i:02d}", line + "\n") for i in range(days)]
    assert _gate(notes, line[2:12]) == verdict


def test_the_same_day_twice_is_not_new_evidence() -> None:
    """Three notes on one day (date-only and slugged) count as one day: the gates hold."""
    line = "- We decided to deploy only on Tuesdays.\n"
    notes = [note("2026-11-10", line, slug=slug) for slug in ("", "-a", "-b")]
    assert _gate(notes, "We decided") == "signal threshold"


def test_staging_never_evicts_a_row() -> None:
    """With 510 rows stored, 2 of 5 claims fit; the most corroborated go first; none evicted."""
    organic = {f"k{i}": entry(key=f"k{i}", recall_count=1, total_score=0.9) for i in range(510)}
    store = Table(organic, "2026-11-01T00:00:00.000Z")
    claims = [f"- Person{i} prefers tea number {i}.\n" for i in range(5)]
    notes = [note("2026-11-01", "".join(claims)), note("2026-11-02", claims[3] + claims[4])]
    staging = stage_grounded(store, EMPTY_SIGNALS, notes, now=NOW)
    grounded = sorted(r.snippet for r in staging.store.rows.values() if r.grounded_count)
    assert grounded == ["Person3 prefers tea number 3.", "Person4 prefers tea number 4."]
    assert (len(staging.store.rows), staging.over_budget, staging.refused) == (512, 3, 0)
    assert all(staging.store.rows[key] == row for key, row in organic.items())


def test_staging_again_replaces_earlier_grounded_rows() -> None:
    """Re-staging drops grounded-only rows of earlier runs; the same notes give the same store."""
    first = stage_grounded(
        Table({}), EMPTY_SIGNALS, [note("2026-11-01", "- Bob prefers tea.\n")], now=NOW
    )
    again = stage_grounded(
        first.store, EMPTY_SIGNALS, [note("2026-11-01", "- Bob prefers tea.\n")], now=NOW
    )
    other = stage_grounded(
        first.store, EMPTY_SIGNALS, [note("2026-11-02", "- Eve owns CI.\n")], now=NOW
    )
    assert (again.store, again.changed, again.replaced) == (first.store, False, ())
    assert [r.snippet for r in other.store.rows.values()] == ["Eve owns CI."]
    assert other.replaced == tuple(first.store.rows)


def test_a_promoted_claim_stays_promoted_when_it_moves() -> None:
    """Re-staging with a newer note moves the row; the promotion of the claim is kept."""
    line = "- Bob prefers tea.\n"
    first = stage_grounded(Table({}), EMPTY_SIGNALS, [note("2026-11-01", line)], now=NOW)
    ((key, row),) = first.store.rows.items()
    promoted = Table({key: msgspec.structs.replace(row, promoted_at="2026-11-29T03:00:00.000Z")})
    notes = [note("2026-11-01", line), note("2026-11-08", line)]
    moved = stage_grounded(promoted, EMPTY_SIGNALS, notes, now=NOW)
    assert [(r.path, r.promoted_at) for r in moved.store.rows.values()] == [
        ("memory/2026-11-08.md", "2026-11-29T03:00:00.000Z")
    ]
    assert moved.replaced == (key,)


def test_claims_outside_short_term_memory_are_refused() -> None:
    """A note outside the workspace's memory folder gives diary text but no grounded row."""
    outside = plan_grounded("/archive/2026-11-01.md", "2026-11-01", "- Bob prefers tea.\n")
    staging = stage_grounded(Table({}), EMPTY_SIGNALS, [outside], now=NOW)
    assert (dict(staging.store.rows), staging.refused, staging.changed) == ({}, 1, False)


def test_rollback_removes_only_grounded_only_rows() -> None:
    """Grounded-only rows and their phase signals go; mixed and organic rows stay untouched."""
    rows = [
        entry(key="grounded", grounded_count=2, total_score=1.84),
        entry(key="mixed", grounded_count=2, recall_count=1, total_score=2.7),
        entry(key="daily", grounded_count=1, daily_count=1, total_score=1.4),
        entry(key="organic", recall_count=3, total_score=2.7),
    ]
    store = Table({r.key: r for r in rows}, "2026-11-29T00:00:00.000Z")
    signals = Table({k: PhaseSignal(key=k, light_hits=1) for k in ("grounded", "organic")})
    new_store, new_signals, removed = rollback_grounded(store, signals, now=NOW)
    assert removed == ("grounded",)
    assert list(new_store.rows) == ["mixed", "daily", "organic"]
    assert list(new_signals.rows) == ["organic"]
    assert new_store.updated_at == "2026-11-30T03:00:00.000Z"


def test_rollback_restores_the_store_it_staged_into() -> None:
    """Staging then rolling back gives the very same table, updatedAt included."""
    store = table([entry(key="organic", recall_count=3, total_score=2.7)])
    store = Table(store.rows, "2026-11-20T10:00:00.000Z", top={"other": 1})
    staged = stage_grounded(
        store, EMPTY_SIGNALS, [note("2026-11-01", "- Bob prefers tea.\n")], now=NOW
    )
    assert staged.store.top == {
        "other": 1,
        BACKFILL_META: {
            "stagedAt": "2026-11-30T03:00:00.000Z",
            "previousUpdatedAt": "2026-11-20T10:00:00.000Z",
        },
    }
    restored, _, removed = rollback_grounded(
        staged.store, EMPTY_SIGNALS, now=NOW + timedelta(hours=1)
    )
    assert (restored, len(removed)) == (store, 1)


# -- diary entries -------------------------------------------------------------------------

DIARY = add_entry(
    add_entry("", render_entry("November 1, 2026, 3:00 AM UTC", "One.")),
    render_entry("November 2, 2026, 3:00 AM UTC", "Two."),
)


def test_a_backfill_entry_is_marked_and_dated() -> None:
    """An entry: separator, the note's long date, the backfill marker, the four sections."""
    lines = entry_lines(note("2026-01-05", "- Carol prefers tea.\n"))
    assert lines[:7] == [
        "---",
        "",
        "*January 5, 2026*",
        "",
        "<!-- dreamd:dreaming:backfill-entry day=2026-01-05 source=memory/2026-01-05.md -->",
        "",
        "What Happened",
    ]
    assert lines[-2:] == [
        "Possible Lasting Updates",
        "- Carol prefers tea. [memory/2026-01-05.md:1]",
    ]


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_entries_append_replace_in_place_and_roll_back_exactly(newline: str) -> None:
    """Appending, re-writing and removing leave ordinary entries alone and invert exactly."""
    before = DIARY.replace("\n", newline)
    first = plan_backfill_diary(
        before, [note("2026-01-06", "- Eve owns CI.\n"), note("2026-01-05", "- Bob prefers tea.\n")]
    )
    changed = plan_backfill_diary(first.text, [note("2026-01-05", "- Bob prefers coffee.\n")])
    assert (first.written, first.replaced, changed.written, changed.replaced) == (2, 0, 1, 1)
    assert backfill_keys(changed.text) == [
        ("2026-01-05", "memory/2026-01-05.md"),
        ("2026-01-06", "memory/2026-01-06.md"),
    ]
    assert "Bob prefers coffee." in changed.text and "Bob prefers tea." not in changed.text
    assert (
        plan_backfill_diary(changed.text, [note("2026-01-05", "- Bob prefers coffee.\n")]).text
        == changed.text
    )
    removed = remove_backfill_entries(changed.text)
    assert (removed.text, removed.removed) == (before, 2)
    assert diary_entries(changed.text)[:2] == diary_entries(before)


def test_openclaw_backfill_entries_are_recognised() -> None:
    """OpenClaw's backfill marker is replaced and rolled back like dreamd's own."""
    theirs = DIARY.replace(
        "<!-- dreamd:dreaming:diary:end -->",
        "---\n\n*January 5, 2026*\n\n<!-- openclaw:dreaming:backfill-entry day=2026-01-05 "
        "source=memory/2026-01-05.md -->\n\nWhat Happened\n1. Old.\n\n<!-- dreamd:dreaming:diary:end -->",
    )
    replaced = plan_backfill_diary(theirs, [note("2026-01-05", "- Bob prefers tea.\n")])
    assert (
        replaced.replaced,
        replaced.text.count("backfill-entry"),
        "1. Old." in replaced.text,
    ) == (1, 1, False)
    assert remove_backfill_entries(theirs).text == DIARY


def test_a_source_with_spaces_round_trips() -> None:
    """Sources are percent-encoded in the marker and decoded when read back."""
    odd = plan_grounded("/notes/old notes/2026-01-05.md", "2026-01-05", "- Bob prefers tea.\n")
    text = plan_backfill_diary("", [odd]).text
    assert "source=/notes/old%20notes/2026-01-05.md -->" in text
    assert backfill_keys(text) == [("2026-01-05", "/notes/old notes/2026-01-05.md")]


# -- grounded-led promotions ---------------------------------------------------------------


def test_grounded_led_means_grounded_majority() -> None:
    """A row is grounded-led when grounded signals are more than half of all its signals."""
    rows = [
        entry(grounded_count=4, recall_count=3),
        entry(grounded_count=3, recall_count=3),
        entry(grounded_count=0, recall_count=3),
    ]
    assert [is_grounded_led(r) for r in rows] == [True, False, False]


def test_deep_report_names_grounded_led_promotions() -> None:
    """The deep body counts them and lists at most 5 source ranges."""
    refs = [f"memory/2026-01-0{i}.md:1-1" for i in range(1, 8)]
    body = deep_body(ranked=7, promoted=7, rejected={}, compacted=(), repairs=(), grounded_led=refs)
    assert body.split("\n") == [
        "- Ranked 7 candidate(s) for durable promotion.",
        "- Promoted 7 candidate(s) into MEMORY.md.",
        "- Grounded-led promotions (mostly historical replay): 7 (memory/2026-01-01.md:1-1, "
        "memory/2026-01-02.md:1-1, memory/2026-01-03.md:1-1, memory/2026-01-04.md:1-1, "
        "memory/2026-01-05.md:1-1, +2 more).",
    ]


# -- progress ------------------------------------------------------------------------------


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_progress_bar_on_a_terminal() -> None:
    """The bar redraws in place at most every 0.1 s, shows the ETA, and ends with a newline."""
    stream, clock = io.StringIO(), FakeClock()
    progress = Progress("rem-backfill", 4, stream=stream, tty=True, clock=clock)
    for step in (1.0, 0.05, 1.0, 1.0):
        clock.now += step
        progress.advance()
    assert stream.getvalue().split("\r")[1:] == [
        "rem-backfill [######------------------] 1/4 files  25%  ETA 0:03",
        "rem-backfill [##################------] 3/4 files  75%  ETA 0:01",
        "rem-backfill [########################] 4/4 files 100%  ETA 0:00\n",
    ]


def test_progress_plain_lines_elsewhere_and_nothing_when_quiet() -> None:
    """Off a terminal one line per tenth of the work; without a stream nothing at all."""
    stream, clock = io.StringIO(), FakeClock()
    progress = Progress("rem-harness", 20, stream=stream, tty=False, clock=clock)
    silent = Progress("rem-harness", 20, stream=None, tty=False, clock=clock)
    for _ in range(20):
        clock.now += 0.5
        progress.advance()
        silent.advance()
    lines = stream.getvalue().splitlines()
    assert (len(lines), lines[0], lines[-1], silent.done) == (
        10,
        "dreamd: rem-harness: 2/20 files (10%), ETA 0:09",
        "dreamd: rem-harness: 20/20 files (100%), ETA 0:00",
        20,
    )


# -- finding historical notes --------------------------------------------------------------


def test_finding_notes_skips_machinery_links_and_big_files(tmp_path: Path) -> None:
    """Only dated notes count; .git, node_modules, state, reports, links, >1 MB are skipped."""
    root = tmp_path / "ws"
    for rel in (
        "memory/2026-01-02.md",
        "memory/2026-01-01-standup.md",
        "memory/2026-01-01.md",
        "memory/sub/2026-01-03.md",
        "memory/notes.md",
        "memory/2026-02-30.md",
        "memory/.git/2026-01-04.md",
        "memory/node_modules/2026-01-04.md",
        "memory/.dreams/2026-01-04.md",
        "memory/dreaming/rem/2026-01-04.md",
    ):
        write(root, rel, "- Some note text here.\n")
    write(root, "memory/2026-01-05.md", "x" * 1_000_001)
    (root / "memory" / "2026-01-06.md").symlink_to(root / "memory" / "2026-01-01.md")
    sources = find_sources(root / "memory", root=root, limit=3)
    assert [p.relative_to(root).as_posix() for p in sources.files] == [
        "memory/2026-01-01-standup.md",
        "memory/2026-01-02.md",
        "memory/sub/2026-01-03.md",
    ]
    assert [s.replace(str(root), "") for s in sources.skipped] == [
        "/memory/2026-01-06.md: symlink",
        "/memory/2026-01-05.md: larger than 1 MB",
        "1 older note(s) beyond the limit of 3 files",
    ]


# -- the CLI -------------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``dreamd argv`` in process; (exit code, stdout, stderr)."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(capsys: pytest.CaptureFixture[str], root: Path, *argv: str) -> Any:
    """``dreamd --json --workspace root --now AT argv``; must succeed, stderr must stay empty."""
    code, out, err = run(capsys, "--json", "--workspace", str(root), "--now", AT, *argv)
    assert (code, err) == (0, "")
    return json.loads(out)


def tree(root: Path) -> dict[str, str]:
    """Every workspace file's sha256 (lock, sweep fingerprint and the host's state dir aside)."""
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
        and p.name not in ("lock", FINGERPRINT_FILE)
        and "dreamd-home" not in p.relative_to(root).parts
    }


RECURRING = {
    "Alice owns the billing service and answers its pages.": 30,
    "We decided to deploy checkout only on Tuesdays from now on.": 90,
}


def year_of_notes(root: Path, days: int = 365) -> None:
    """``days`` daily notes ending the day before AT: chatter, tasks, one-offs, recurring claims."""
    (root / "memory").mkdir(parents=True)
    (root / "MEMORY.md").write_text("# Long-Term Memory\n\n- A human line.\n")
    last = date(2026, 11, 29)
    for index in range(days):
        day = last - timedelta(days=days - 1 - index)
        lines = [f"# {day}", "", "## Log", "- Had lunch with Bob today, the weather was fine."]
        lines += [f"- [ ] Need to follow up with Carol about invoice {index}."]
        lines += ["", "## Decisions", f"- Decided to try tool number {index} for the demo."]
        lines += [f"- {claim}" for claim, every in RECURRING.items() if index % every == 3]
        (root / "memory" / f"{day}.md").write_text("\n".join(lines) + "\n")


def test_rem_backfill_needs_a_path_unless_rolling_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --path or --rollback, and with contradictory flags, a clear error and exit 1."""
    (tmp_path / "memory").mkdir()
    base = ["--workspace", str(tmp_path), "memory", "rem-backfill"]
    assert run(capsys, *base) == (
        1,
        "",
        "dreamd: error: rem-backfill needs --path FILE_OR_DIR unless --rollback\n",
    )
    assert run(capsys, *base, "--rollback-short-term")[::2] == (
        1,
        "dreamd: error: --rollback-short-term needs --rollback\n",
    )
    assert run(capsys, *base, "--rollback", "--path", "memory")[0] == 1
    assert run(capsys, *base, "--path", "memory", "--limit-files", "0")[0] == 1


def test_grounded_harness_reads_the_workspace_notes_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--grounded without --path previews the workspace's own notes; the tree stays the same."""
    year_of_notes(tmp_path, days=4)
    before = tree(tmp_path)
    code, out, _ = run(
        capsys, "--workspace", str(tmp_path), "--now", AT, "memory", "rem-harness", "--grounded"
    )
    assert (code, tree(tmp_path)) == (0, before)
    lines = out.splitlines()
    assert lines[:4] == [
        f"REM Harness ({tmp_path.resolve()})",
        f"sourcePath={tmp_path.resolve() / 'memory'} historicalFiles=4",
        "",
        "Grounded REM",
    ]
    assert lines[4:7] == [
        "### memory/2026-11-26.md (2026-11-26)",
        "## What Happened",
        "1. Had lunch with Bob today, the weather was fine. [memory/2026-11-26.md:4]",
    ]


def test_progress_goes_to_stderr_as_plain_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --json, a non-terminal stderr gets plain progress lines and stdout a summary."""
    year_of_notes(tmp_path, days=3)
    code, out, err = run(
        capsys,
        "--workspace",
        str(tmp_path),
        "--now",
        AT,
        "memory",
        "rem-backfill",
        "--path",
        str(tmp_path / "memory"),
    )
    assert code == 0
    assert [line.rsplit(", ETA ", 1)[0] for line in err.splitlines()] == [
        "dreamd: rem-backfill: 1/3 files (33%)",
        "dreamd: rem-backfill: 2/3 files (66%)",
        "dreamd: rem-backfill: 3/3 files (100%)",
    ]
    assert out.splitlines()[2] == "Wrote 3 backfill entries to DREAMS.md (replaced 0)."


def test_notes_outside_the_workspace_are_told_but_not_staged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An outside folder gives diary entries named by absolute path; its claims are refused."""
    root, archive = tmp_path / "ws", tmp_path / "archive"
    root.mkdir()
    write(archive, "2026-01-05.md", "- Bob prefers tea.\n")
    out = run_json(
        capsys, root, "memory", "rem-backfill", "--path", str(archive), "--stage-short-term"
    )
    source = str(archive / "2026-01-05.md")
    assert (out["sourceFiles"], out["stagedShortTermEntries"], out["skippedClaims"]) == (
        [source],
        0,
        {"storeFull": 0, "refused": 1},
    )
    assert backfill_keys((root / "DREAMS.md").read_text()) == [("2026-01-05", source)]
    assert out["changedFiles"] == ["DREAMS.md"]


def test_backfill_then_rollback_restores_dreams_and_store_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With no sweep in between, rollback gives back DREAMS.md and every state file byte for byte."""
    year_of_notes(tmp_path, days=40)
    run_json(capsys, tmp_path, "sweep")
    run_json(capsys, tmp_path, "memory", "search", "billing service pages")
    with workspace_lock(tmp_path):  # the search's traces saved into the store, as a sweep would
        fold_pending(tmp_path, now=NOW)
    before = tree(tmp_path)
    staged = run_json(
        capsys,
        tmp_path,
        "memory",
        "rem-backfill",
        "--path",
        str(tmp_path / "memory"),
        "--stage-short-term",
    )
    assert (staged["writtenEntries"], staged["stagedShortTermEntries"]) == (40, 42)
    undone = run_json(
        capsys, tmp_path, "memory", "rem-backfill", "--rollback", "--rollback-short-term"
    )
    assert (undone["removedEntries"], undone["removedShortTermEntries"]) == (40, 42)
    after = tree(tmp_path)
    # Each rewrite of DREAMS.md keeps the text it replaced under backups/ (like MEMORY.md): the
    # backfill kept the diary as it was, the rollback the backfilled one.
    kept = sorted(
        (k, v) for k, v in after.items() if k.startswith("memory/.dreams/backups/DREAMS.md.")
    )
    assert len(kept) == 2 and before["DREAMS.md"] in {v for _, v in kept}
    assert {k: v for k, v in after.items() if k != "memory/.dreams/events.jsonl"} == {
        k: v for k, v in before.items() if k != "memory/.dreams/events.jsonl"
    } | dict(kept)


def test_a_year_of_notes_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """365 notes: harness writes nothing; recurring claims alone promote; rollback undoes it."""
    year_of_notes(tmp_path)
    first_sweep = run_json(capsys, tmp_path, "--now", "2026-11-30T01:00:00Z", "sweep")
    assert first_sweep["workspaces"][0]["status"] == "ok"
    hashes = tree(tmp_path)
    dreams_before = (tmp_path / "DREAMS.md").read_text()
    store_path = tmp_path / "memory" / ".dreams" / "short-term-recall.json"
    rows_before = json.loads(store_path.read_text())["entries"]

    harness = run_json(
        capsys, tmp_path, "memory", "rem-harness", "--path", str(tmp_path / "memory"), "--grounded"
    )
    assert tree(tmp_path) == hashes
    assert (len(harness["sourceFiles"]), len(harness["grounded"]["files"])) == (365, 365)
    assert sorted(c["snippet"] for c in harness["deep"]["candidates"]) == sorted(RECURRING)

    backfill = run_json(
        capsys,
        tmp_path,
        "memory",
        "rem-backfill",
        "--path",
        str(tmp_path / "memory"),
        "--stage-short-term",
    )
    assert (backfill["writtenEntries"], backfill["skippedFiles"]) == (365, [])
    sweep = run_json(capsys, tmp_path, "--now", "2026-11-30T04:00:00Z", "sweep")["workspaces"][0]
    promoted = sorted((p["snippet"], p["groundedLed"]) for p in sweep["deep"]["promotions"])
    assert promoted == sorted((claim, True) for claim in RECURRING)
    deep_block = (tmp_path / "DREAMS.md").read_text()
    assert "- Grounded-led promotions (mostly historical replay): 2 (" in deep_block
    memory = (tmp_path / "MEMORY.md").read_text()
    assert all(claim in memory for claim in RECURRING) and "tool number" not in memory

    again = tree(tmp_path)
    assert (
        run_json(capsys, tmp_path, "--now", "2026-11-30T05:00:00Z", "sweep")["workspaces"][0][
            "changedFiles"
        ]
        == []
    )
    assert tree(tmp_path) == again

    rollback = run_json(
        capsys, tmp_path, "memory", "rem-backfill", "--rollback", "--rollback-short-term"
    )
    assert rollback["removedEntries"] == 365
    dreams = (tmp_path / "DREAMS.md").read_text()
    assert backfill_keys(dreams) == [] and diary_entries(dreams)[
        : len(diary_entries(dreams_before))
    ] == diary_entries(dreams_before)
    assert json.loads(store_path.read_text())["entries"] == rows_before


def test_harness_replays_into_a_clean_workspace_and_stages_what_backfill_stages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A live store full at 512 rows hides nothing from the replay (a clean workspace, as
    OpenClaw's), and the staged count the harness reports is the one rem-backfill then stages."""
    year_of_notes(tmp_path, days=40)
    filler = (
        entry(
            path=f"memory/2026-11-{1 + i % 29:02d}.md",
            start=100 + i,
            end=100 + i,
            snippet=f"- Filler fact number {i} that fills the store.",
            last_recalled_at=AT,
        )
        for i in range(512)
    )
    save_table(tmp_path, RECALL_STORE, table(filler))
    before = tree(tmp_path)
    harness = run_json(
        capsys, tmp_path, "memory", "rem-harness", "--path", str(tmp_path / "memory"), "--grounded"
    )
    assert tree(tmp_path) == before
    grounded = harness["grounded"]
    assert harness["historicalImport"] == {"importedFiles": 40, "importedSignals": 123}
    assert grounded["replayedShortTermEntries"] == 42
    assert harness["rem"]["sourceEntryCount"] > 0
    rem = harness["rem"]
    assert (rem["skipped"], rem["candidateKeys"]) == (
        False,
        list(dict.fromkeys(truth["key"] for truth in rem["candidateTruths"])),
    )
    assert harness["remConfig"] == {
        "enabled": True,
        "cron": "0 3 * * *",
        "timezone": None,
        "lookbackDays": 7,
        "limit": 10,
        "minPatternStrength": 0.75,
        "storage": {"mode": "separate"},
    }
    assert (grounded["stagedShortTermEntries"], grounded["skippedClaims"]) == (
        0,
        {"storeFull": 42, "refused": 0},
    )
    staged = run_json(
        capsys,
        tmp_path,
        "memory",
        "rem-backfill",
        "--path",
        str(tmp_path / "memory"),
        "--stage-short-term",
    )
    assert (staged["stagedShortTermEntries"], staged["skippedClaims"]) == (
        grounded["stagedShortTermEntries"],
        grounded["skippedClaims"],
    )
