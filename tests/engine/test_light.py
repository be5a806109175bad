"""Light phase: ingestion once per dreaming day, caps, live selection, dedupe, diary coverage."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from dreamd.config import DreamingConfig
from dreamd.engine.phases.chunks import daily_claim_key
from dreamd.engine.phases.light import plan_light
from dreamd.engine.snapshot import NoteStat, Snapshot, TextFile
from dreamd.engine.state import DailyCheckpoint, Table
from tests.builders import entry, table

NOW = datetime(2026, 11, 29, 3, 0, tzinfo=UTC)
NOTE = "# 2026-11-28\n\n## Infra\n- The queue runs on Postgres 16 now.\n- Backups go to the NAS nightly.\n"


def snapshot(notes: dict[str, str], **fields: object) -> Snapshot:
    """A snapshot holding ``notes`` (path -> text) as present and loaded."""
    stats = {
        path: NoteStat(path, path.split("/")[-1][:10], 1000.0, len(text))
        for path, text in notes.items()
    }
    texts = {path: TextFile(path, text, f"digest-{path}") for path, text in notes.items()}
    return Snapshot(root=Path("/ws"), notes=stats, texts=texts, **fields)  # type: ignore[arg-type]


def light(snap: Snapshot, **overrides: object):  # type: ignore[no-untyped-def]
    """Run the light phase with default settings."""
    config = DreamingConfig().light
    args = {
        "lookback_days": config.lookback_days,
        "limit": config.limit,
        "dedupe_similarity": config.dedupe_similarity,
        "diary_entries": (),
        "now": NOW,
        "zone": UTC,
    }
    args.update(overrides)
    return plan_light(snap, **args)  # type: ignore[arg-type]


def test_recent_notes_are_ingested_as_daily_signals() -> None:
    """Chunks of notes in the lookback become rows with one daily signal at score 0.62."""
    result = light(snapshot({"memory/2026-11-28.md": NOTE}))
    queue, backups = (
        daily_claim_key("Infra: The queue runs on Postgres 16 now."),
        daily_claim_key("Infra: Backups go to the NAS nightly."),
    )
    assert list(result.store.rows) == [queue, backups]
    row = result.store.rows[queue]
    assert (row.snippet, row.path, row.start_line, row.end_line) == (
        "Infra: The queue runs on Postgres 16 now.",
        "memory/2026-11-28.md",
        4,
        4,
    )
    assert (row.daily_count, row.recall_count, row.total_score, row.recall_days) == (
        1,
        0,
        0.62,
        ("2026-11-29",),
    )
    assert result.ingested_files == ("memory/2026-11-28.md",)
    assert result.daily.rows["memory/2026-11-28.md"] == DailyCheckpoint(
        mtime_ms=1000.0, size=len(NOTE), last_dreaming_day_ingested="2026-11-29"
    )
    assert [item.entry.key for item in result.staged] == [queue, backups]
    assert result.newly_staged == (queue, backups)


def test_unchanged_note_is_skipped_the_same_day_and_read_again_the_next() -> None:
    """Same (mtime, size) and already ingested today: skipped; on a new dreaming day: again."""
    daily = Table(
        {
            "memory/2026-11-28.md": DailyCheckpoint(
                mtime_ms=1000.0, size=len(NOTE), last_dreaming_day_ingested="2026-11-29"
            )
        }
    )
    same_day = light(snapshot({"memory/2026-11-28.md": NOTE}, daily=daily))
    assert same_day.ingested_files == ()
    next_day = light(snapshot({"memory/2026-11-28.md": NOTE}, daily=daily), now=NOW.replace(day=30))
    assert next_day.ingested_files == ("memory/2026-11-28.md",)


def test_notes_outside_the_lookback_are_not_ingested() -> None:
    """A note whose day ended before now - lookback is left alone."""
    result = light(snapshot({"memory/2026-11-20.md": NOTE}))
    assert result.ingested_files == ()
    assert result.store.rows == {}


def test_caps_limit_chunks_per_file() -> None:
    """With limit 1, total cap is 20 and the per-file cap max(6, ceil(20/files))."""
    many = "\n\n".join(f"Paragraph number {i} has enough words in it." for i in range(40))
    result = light(snapshot({"memory/2026-11-28.md": many}), limit=1)
    assert result.ingested_chunks == 20
    assert len(result.staged) == 1


def test_near_duplicates_in_one_file_merge_ascii_and_cjk() -> None:
    """Entries of the same file with Jaccard >= 0.9 are staged once, counts merged."""
    rows = [
        entry(
            key="a",
            start=1,
            end=1,
            snippet="the queue runs on postgres sixteen now",
            recall_count=2,
            total_score=1.6,
            last_recalled_at="2026-11-28T10:00:00.000Z",
        ),
        entry(
            key="b",
            start=2,
            end=2,
            snippet="The queue runs on Postgres sixteen now!",
            recall_count=3,
            total_score=2.1,
            last_recalled_at="2026-11-28T09:00:00.000Z",
        ),
        entry(
            key="c",
            start=3,
            end=3,
            snippet="数据库备份在周五失败了",
            recall_count=1,
            total_score=0.9,
            last_recalled_at="2026-11-28T08:00:00.000Z",
        ),
        entry(
            key="d",
            start=4,
            end=4,
            snippet="数据库备份在周五失败了。",
            recall_count=1,
            total_score=0.8,
            last_recalled_at="2026-11-28T07:00:00.000Z",
        ),
        entry(
            key="e",
            path="memory/2026-11-27.md",
            start=1,
            end=1,
            snippet="the queue runs on postgres sixteen now",
            recall_count=1,
            total_score=0.9,
            last_recalled_at="2026-11-28T06:00:00.000Z",
        ),
    ]
    snap = snapshot({"memory/2026-11-20.md": "x", "memory/2026-11-27.md": "y"}, store=table(rows))
    staged = light(snap).staged
    assert [item.entry.key for item in staged] == ["c", "a", "e"]  # "失败" is an error: first
    assert (staged[1].recall_count, staged[1].total_score) == (3, 2.1)


def test_entries_whose_file_is_gone_or_not_recent_are_not_staged() -> None:
    """Only rows whose note still exists and that were recalled in the lookback are live."""
    rows = [
        entry(
            key="gone",
            path="memory/2026-11-01.md",
            recall_count=1,
            total_score=0.9,
            last_recalled_at="2026-11-28T10:00:00.000Z",
        ),
        entry(
            key="old",
            recall_count=1,
            total_score=0.9,
            last_recalled_at="2026-11-01T10:00:00.000Z",
            recall_days=("2026-11-01",),
        ),
    ]
    snap = snapshot({"memory/2026-11-20.md": "x"}, store=table(rows))
    assert light(snap).staged == ()


def test_entries_already_in_recent_diary_entries_go_last() -> None:
    """An entry the last diary entries already told is moved behind fresh ones."""
    rows = [
        entry(
            key="told",
            start=1,
            end=1,
            snippet="We adopted the blue deployment pipeline",
            recall_count=1,
            total_score=0.9,
            last_recalled_at="2026-11-28T10:00:00.000Z",
        ),
        entry(
            key="fresh",
            start=2,
            end=2,
            snippet="Ana joins the platform team on Monday",
            recall_count=1,
            total_score=0.9,
            last_recalled_at="2026-11-28T09:00:00.000Z",
        ),
    ]
    snap = snapshot({"memory/2026-11-20.md": "x"}, store=table(rows))
    diary = ["I dreamt that we adopted the blue deployment pipeline at last."]
    assert [i.entry.key for i in light(snap, diary_entries=diary).staged] == ["fresh", "told"]


def test_light_hits_count_once_per_dreaming_day() -> None:
    """Staging the same key twice on one dreaming day adds one light hit."""
    first = light(snapshot({"memory/2026-11-28.md": NOTE}))
    again = light(
        snapshot(
            {"memory/2026-11-28.md": NOTE},
            store=first.store,
            signals=first.signals,
            daily=first.daily,
        ),
        now=NOW.replace(hour=9),
    )
    key = daily_claim_key("Infra: The queue runs on Postgres 16 now.")
    assert first.signals.rows[key].light_hits == 1
    assert again.signals.rows[key] == first.signals.rows[key]
    assert again.newly_staged == ()


def test_limit_zero_turns_light_off() -> None:
    """With limit 0 nothing is ingested or staged."""
    result = light(snapshot({"memory/2026-11-28.md": NOTE}), limit=0)
    assert (result.staged, result.ingested_files, result.store.rows) == ((), (), {})
