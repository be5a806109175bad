"""Index chunking: list items, paragraphs, headings, managed blocks and exact line ranges."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dreamd.engine.text.snippets import collapse
from dreamd.recall.chunking import IndexChunk, chunk_for_index, chunk_snippet

DAY = "memory/2026-03-01.md"

NOTE = """# Sunday

Intro line one
  intro line two

## Work ##
- Moved the backup job
  to the NAS at 02:00.
- Alice owns the migration.
  * nested detail
1. first numbered
   with more
plain text after the list
<!-- a comment line -->
<!--
a multi-line comment
-->
---
### Later
closing words
"""


def test_list_items_paragraphs_and_headings() -> None:
    """Each list item (with its indented lines) and paragraph is a chunk; headings are context."""
    assert chunk_for_index(DAY, NOTE) == [
        IndexChunk(3, 4, "Intro line one\n  intro line two", "Sunday", "2026-03-01"),
        IndexChunk(7, 8, "- Moved the backup job\n  to the NAS at 02:00.", "Work", "2026-03-01"),
        IndexChunk(9, 9, "- Alice owns the migration.", "Work", "2026-03-01"),
        IndexChunk(10, 10, "  * nested detail", "Work", "2026-03-01"),
        IndexChunk(11, 12, "1. first numbered\n   with more", "Work", "2026-03-01"),
        IndexChunk(13, 13, "plain text after the list", "Work", "2026-03-01"),
        IndexChunk(20, 20, "closing words", "Later", "2026-03-01"),
    ]


def test_managed_blocks_are_not_indexed_and_lines_keep_their_numbers() -> None:
    """Text inside a managed block (either marker spelling) is skipped; later lines keep numbers."""
    text = "\n".join(
        [
            "- before",
            "## Light Sleep",
            "<!-- dreamd:dreaming:light:start -->",
            "- staged candidate text",
            "<!-- dreamd:dreaming:light:end -->",
            "## REM Sleep",
            "<!-- openclaw:dreaming:rem:start -->",
            "- a reflection",
            "<!-- openclaw:dreaming:rem:end -->",
            "- after",
        ]
    )
    assert chunk_for_index("memory/2026-03-01-trip.md", text) == [
        IndexChunk(1, 1, "- before", "", "2026-03-01"),
        IndexChunk(10, 10, "- after", "", "2026-03-01"),
    ]


def test_long_paragraphs_are_cut_into_four_line_pieces() -> None:
    """A ten-line paragraph becomes pieces of 4, 4 and 2 lines."""
    text = "\n".join(f"line {n}" for n in range(1, 11))
    assert [(c.start_line, c.end_line) for c in chunk_for_index("notes.md", text)] == [
        (1, 4),
        (5, 8),
        (9, 10),
    ]


def test_long_lines_are_cut_by_characters() -> None:
    """Three 250-character lines exceed ~600 characters, so the third starts a new piece."""
    line = "x" * 250
    text = "\n".join([line, line, line])
    assert chunk_for_index("memory/topic.md", text) == [
        IndexChunk(1, 2, f"{line}\n{line}", "", None),
        IndexChunk(3, 3, line, "", None),
    ]


def test_fenced_code_is_paragraph_text() -> None:
    """Fence lines are kept; inside a fence nothing is a heading or a list item."""
    text = "## Setup\n```sh\n# not a heading\n- not an item\n\nmake install\n```\nafter"
    assert chunk_for_index("memory/setup.md", text) == [
        IndexChunk(2, 4, "```sh\n# not a heading\n- not an item", "Setup", None),
        IndexChunk(6, 7, "make install\n```", "Setup", None),
        IndexChunk(8, 8, "after", "Setup", None),
    ]


def test_session_corpus_is_one_chunk_per_line() -> None:
    """Each corpus line is one message, hence one chunk; blank lines are skipped."""
    path = "memory/.dreams/session-corpus/2026-03-01.txt"
    text = "[main/s1#L1] User: hello there\n\n[main/s1#L3] User: # not a heading"
    assert chunk_for_index(path, text) == [
        IndexChunk(1, 1, "[main/s1#L1] User: hello there", "", "2026-03-01"),
        IndexChunk(3, 3, "[main/s1#L3] User: # not a heading", "", "2026-03-01"),
    ]


def test_snippet_is_the_collapsed_joined_lines() -> None:
    """The snippet of a chunk is its raw lines joined by spaces with whitespace collapsed."""
    chunk = chunk_for_index(DAY, NOTE)[1]
    assert chunk_snippet(chunk.text) == "- Moved the backup job to the NAS at 02:00."


def test_snippet_is_capped_at_800_characters() -> None:
    """A single very long line gives a snippet cut at 800 characters (trailing space dropped)."""
    chunk = chunk_for_index("memory/long.md", "word " * 400)[0]
    assert chunk_snippet(chunk.text) == ("word " * 160).rstrip()


@given(st.text(alphabet=st.sampled_from(list("ab #-*1.`~<!->\t\n "))))
def test_chunks_are_ordered_disjoint_and_match_the_raw_lines(text: str) -> None:
    """For any text: ranges are ordered and disjoint, and each text is exactly its raw lines."""
    lines = text.split("\n")
    previous_end = 0
    for chunk in chunk_for_index(DAY, text):
        assert previous_end < chunk.start_line <= chunk.end_line <= len(lines)
        raw = lines[chunk.start_line - 1 : chunk.end_line]
        assert chunk.text == "\n".join(raw)
        assert chunk_snippet(chunk.text) == collapse(" ".join(raw))[:800].rstrip()
        previous_end = chunk.end_line


@given(st.text())
def test_chunking_never_fails(text: str) -> None:
    """Arbitrary text chunks without error and every chunk has non-blank text."""
    assert all(chunk.text.strip() for chunk in chunk_for_index("MEMORY.md", text))
