"""Re-hydration finds a candidate's text in the live note, or refuses (SPEC §6.3)."""

from __future__ import annotations

from dreamd.engine.phases.rehydrate import Rehydrated, rehydrate

NOTE = """# 2026-11-20

## Decisions
- We chose Postgres 16 for the queue service.
- Backups run nightly at 02:00 to the NAS.

Prose about the migration plan that spans
two lines of the same paragraph.
"""


def test_exact_range_is_kept() -> None:
    """When the stored range still holds the snippet, it is used as is."""
    found = rehydrate(NOTE, 4, 4, "- We chose Postgres 16 for the queue service.")
    assert found == Rehydrated(4, 4, "- We chose Postgres 16 for the queue service.", exact=True)


def test_light_chunk_form_matches_its_range() -> None:
    """A 'heading: a; b' light chunk snippet matches the list lines it came from."""
    snippet = (
        "Decisions: We chose Postgres 16 for the queue service.; "
        "Backups run nightly at 02:00 to the NAS."
    )
    found = rehydrate(NOTE, 4, 5, snippet)
    assert found == Rehydrated(4, 5, snippet, exact=True)


def test_moved_snippet_is_found_at_its_new_lines() -> None:
    """Lines inserted above move the snippet; the new range is returned."""
    moved = NOTE.replace(
        "## Decisions\n", "## Decisions\n- A new first item added later today.\n\n"
    )
    found = rehydrate(moved, 4, 4, "- We chose Postgres 16 for the queue service.")
    assert found == Rehydrated(6, 6, "- We chose Postgres 16 for the queue service.", exact=False)


def test_multiline_paragraph_moved() -> None:
    """A two-line paragraph snippet is found again after it moved down."""
    snippet = "Prose about the migration plan that spans two lines of the same paragraph."
    moved = "intro line that is long enough\n\n" + NOTE
    found = rehydrate(moved, 7, 8, snippet)
    assert found == Rehydrated(9, 10, snippet, exact=False)


def test_edited_line_still_containing_the_snippet() -> None:
    """A window that contains the snippet (text appended) matches with quality 'contains'."""
    edited = NOTE.replace("queue service.", "queue service. Confirmed by Ana.")
    found = rehydrate(edited, 4, 4, "We chose Postgres 16 for the queue service.")
    assert found is not None
    assert (found.start_line, found.end_line) == (4, 4)
    assert found.snippet.endswith("Confirmed by Ana.")


def test_nearest_duplicate_wins() -> None:
    """With the same text twice, the copy nearest the old line is chosen."""
    text = (
        "- Same fact repeated in the note.\n" * 2
        + "\n" * 10
        + "- Same fact repeated in the note.\n"
    )
    found = rehydrate(text, 12, 12, "- Same fact repeated in the note. (old)")
    assert found is not None
    assert found.start_line == 13


def test_missing_snippet_is_refused() -> None:
    """A snippet deleted from the live note cannot be re-hydrated."""
    assert rehydrate(NOTE, 4, 4, "- Something that was never in this note at all.") is None
    assert rehydrate("", 1, 1, "- anything at all here") is None


def test_text_inside_managed_blocks_is_never_matched() -> None:
    """A snippet that now only exists inside a managed block is refused."""
    text = (
        "## Light Sleep\n<!-- dreamd:dreaming:light:start -->\n"
        "- We chose Postgres 16 for the queue service.\n<!-- dreamd:dreaming:light:end -->\n"
    )
    assert rehydrate(text, 3, 3, "- We chose Postgres 16 for the queue service.") is None


def test_crlf_notes() -> None:
    """Windows line endings do not prevent an exact match."""
    found = rehydrate(
        NOTE.replace("\n", "\r\n"), 4, 4, "- We chose Postgres 16 for the queue service."
    )
    assert found is not None and found.exact
