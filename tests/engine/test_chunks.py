"""Light chunking of daily notes and the text forms used to find chunks again."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dreamd.engine.phases.chunks import DailyChunk, chunk_daily_note, range_forms

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


def test_chunks_group_lists_and_prose_with_heading_context() -> None:
    """Lists and prose never mix; short lines split chunks; generic headings add no context."""
    assert chunk_daily_note(NOTE) == [
        DailyChunk(
            4,
            5,
            "Decisions: We chose Postgres 16 for the queue service.; Backups run nightly at 02:00 to the NAS.",
        ),
        DailyChunk(7, 7, "Decisions: Alice owns the migration plan."),
        DailyChunk(
            9,
            10,
            "Decisions: Some prose line that is long enough to count. Another prose line continuing the paragraph.",
        ),
        DailyChunk(13, 13, "A fact under a generic weekday heading."),
    ]


def test_at_most_four_lines_and_280_chars() -> None:
    """Long runs split into chunks of at most 4 lines and 280 characters."""
    text = "\n".join(f"- item number {i} with some words in it" for i in range(10))
    chunks = chunk_daily_note(text)
    assert [(c.start_line, c.end_line) for c in chunks] == [(1, 4), (5, 8), (9, 10)]
    wide = "\n".join("- " + "w" * 100 for _ in range(4))
    assert all(len(c.snippet) <= 280 for c in chunk_daily_note(wide))


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
        assert chunk.end_line - chunk.start_line < 4
        assert chunk.snippet
        previous = chunk.end_line
