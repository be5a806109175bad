"""Light chunking of daily notes and the text forms used to find chunks again."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from dreamd.engine.phases.chunks import DailyChunk, chunk_daily_note, range_forms

OPENCLAW = Path(__file__).parents[1] / "fixtures" / "openclaw-2026.9.6-chunks"

NOTE = """# 2026-11-20

## Decisions
- We chose Postgres 16 for the queue service.
- Backups run nightly at 02:00 to the NAS.
- ok
- Alice owns the migration plan.

Some prose line that is long enough to count.
Another prose line continuing the paragraph.

## Monday
- A fact under a generic weekday heading.
<!-- a comment line that is skipped -->
"""


def test_one_chunk_per_list_item_and_prose_runs_with_heading_context() -> None:
    """Each list item is a chunk; prose lines group; a weekday heading is context, a date not."""
    assert chunk_daily_note(NOTE) == [
        DailyChunk(4, 4, "Decisions: We chose Postgres 16 for the queue service."),
        DailyChunk(5, 5, "Decisions: Backups run nightly at 02:00 to the NAS."),
        DailyChunk(6, 6, "Decisions: ok"),
        DailyChunk(7, 7, "Decisions: Alice owns the migration plan."),
        DailyChunk(
            9,
            10,
            "Decisions: Some prose line that is long enough to count. Another prose line continuing the paragraph.",
        ),
        DailyChunk(13, 13, "Monday: A fact under a generic weekday heading."),
    ]


def test_nested_items_carry_their_ancestors() -> None:
    """A nested item is prefixed by its ancestors; a ``:`` item that only introduces is not a
    chunk; continuation lines belong to their item."""
    text = (
        "## Infra\n"
        "- The billing service runs on db-02.\n"
        "  - Backups run nightly at 01:00.\n"
        "- Ports to open:\n"
        "  - 5432 for Postgres replicas.\n"
        "- The search cluster reindexes on Sundays\n"
        "  and takes forty minutes.\n"
    )
    assert chunk_daily_note(text) == [
        DailyChunk(2, 2, "Infra: The billing service runs on db-02."),
        DailyChunk(
            3, 3, "Infra: The billing service runs on db-02. > Backups run nightly at 01:00."
        ),
        DailyChunk(5, 5, "Infra: Ports to open: 5432 for Postgres replicas."),
        DailyChunk(6, 7, "Infra: The search cluster reindexes on Sundays and takes forty minutes."),
    ]


def test_at_most_four_prose_lines_and_280_units() -> None:
    """Prose runs split into chunks of at most 4 lines; a snippet is cut to 280 characters."""
    text = "\n".join(f"prose line number {i} with some words in it" for i in range(10))
    chunks = chunk_daily_note(text)
    assert [(c.start_line, c.end_line) for c in chunks] == [(1, 4), (5, 8), (9, 10)]
    wide = "\n".join("- " + "w" * 300 for _ in range(4))
    assert [len(c.snippet) for c in chunk_daily_note(wide)] == [280] * 4


def test_keys_and_chunks_equal_openclaws_on_the_same_notes() -> None:
    """Golden: OpenClaw 2026.9.6's own entries for these notes (``build.sh`` beside them)."""
    expected = json.loads((OPENCLAW / "chunks.json").read_text(encoding="utf-8"))["entries"]
    ours = [
        {
            "key": chunk.key,
            "path": f"memory/{note.name}",
            "startLine": chunk.start_line,
            "endLine": chunk.end_line,
            "snippet": chunk.snippet,
            "claimHash": chunk.key.removeprefix("memory:claim:"),
        }
        for note in sorted((OPENCLAW / "notes").glob("*.md"))
        for chunk in chunk_daily_note(note.read_text(encoding="utf-8"))
    ]
    assert len(expected) == 28
    assert ours == expected
    for note in sorted((OPENCLAW / "notes").glob("*.md")):
        lines = note.read_text(encoding="utf-8").split("\n")
        for chunk in chunk_daily_note(note.read_text(encoding="utf-8")):
            assert chunk.snippet in range_forms(lines, chunk.start_line - 1, chunk.end_line - 1)


def test_managed_blocks_are_not_ingested() -> None:
    """Lines inside managed blocks never become chunks."""
    text = "## Light Sleep\n<!-- dreamd:dreaming:light:start -->\n- Candidate: staged text here\n<!-- dreamd:dreaming:light:end -->\n"
    assert chunk_daily_note(text) == []


def test_range_forms_rebuild_every_chunk() -> None:
    """Each chunk's snippet is one of the forms of its own line range."""
    lines = NOTE.split("\n")
    for chunk in chunk_daily_note(NOTE):
        assert chunk.snippet in range_forms(lines, chunk.start_line - 1, chunk.end_line - 1)


@given(st.text())
def test_chunking_never_crashes_and_ranges_are_valid(text: str) -> None:
    """Arbitrary text chunks without error into valid, ordered, non-overlapping ranges."""
    chunks = chunk_daily_note(text)
    previous = 0
    for chunk in chunks:
        assert previous < chunk.start_line <= chunk.end_line
        assert chunk.snippet
        previous = chunk.end_line
