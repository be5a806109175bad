"""The one redaction on every engine path: light chunks, backfill statements, MEMORY.md entries
and their triggers, reports, transcripts."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

from dreamd.engine.grounded.statements import statements_of
from dreamd.engine.hits import Hit
from dreamd.engine.phases.chunks import chunk_daily_note
from dreamd.engine.phases.light import Staged
from dreamd.engine.phases.promotion import PromotionEntry, render_entry, triggers
from dreamd.engine.phases.rem import Theme, Truth
from dreamd.engine.phases.reports import light_body, rem_body
from dreamd.engine.state import RecallEntry, Table
from dreamd.engine.traces import record_hits
from dreamd.redaction import blank_secret_lines

NOW = datetime(2026, 11, 29, 3, 0, tzinfo=UTC)
BODY = ["MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7" + "x9Yk2Lm4" * 2] * 6
NOTE = "\n".join(
    [
        "# 2026-11-28",
        "",
        "## Deploy",
        "- The deploy key for web-03 is below, rotate it in January.",
        "-----BEGIN RSA PRIVATE KEY-----",
        *BODY,
        "-----END RSA PRIVATE KEY-----",
        "- We moved the billing service to Postgres 16 on db-02.",
        "- Token for the bot, wrapped: ghp_1A2b3C4d5E6f7G",
        "8h9I0j1K2l3M4n5O6p7Q8r",
        "- Ana prefers the staging copy for demos.",
    ]
)


def _stored(text: str) -> list[str]:
    chunks = chunk_daily_note(blank_secret_lines(text))
    hits = [Hit("memory/2026-11-28.md", c.start_line, c.end_line, c.snippet, 0.6) for c in chunks]
    store, _ = record_hits(Table({}), hits, query="q", now=NOW, day="2026-11-28")
    return sorted(row.snippet for row in store.rows.values())


def test_a_key_block_across_chunk_boundaries_never_reaches_the_store() -> None:
    """Cut into 4-line chunks after the whole-note pass, no chunk holds any line of the key block
    or of the wrapped token; the harmless lines around them are stored."""
    assert len(BODY) + 2 > 4  # BEGIN and END can never share a chunk
    assert _stored(NOTE) == [
        "Deploy: Ana prefers the staging copy for demos.",
        "Deploy: The deploy key for web-03 is below, rotate it in January.",
        "Deploy: We moved the billing service to Postgres 16 on db-02.",
    ]


def test_without_the_whole_note_pass_a_key_body_would_be_stored() -> None:
    """The chunker alone sees only base64 lines: the whole-note pass is what keeps them out."""
    chunks = [c.snippet for c in chunk_daily_note(NOTE)]
    assert any(BODY[0] in snippet for snippet in chunks)


def test_backfill_statements_skip_every_secret_line() -> None:
    """Grounded backfill reads the whole note first: no statement holds a secret."""
    texts = [statement.text for statement in statements_of(NOTE)]
    assert texts == [
        "The deploy key for web-03 is below, rotate it in January.",
        "We moved the billing service to Postgres 16 on db-02.",
        "Ana prefers the staging copy for demos.",
    ]


def _entry(text: str, tags: tuple[str, ...]) -> PromotionEntry:
    return PromotionEntry(
        key="memory:memory/2026-11-28.md:4:4",
        text=text,
        score=0.8,
        signals=5,
        recalls=5,
        average=0.7,
        path="memory/2026-11-28.md",
        start_line=4,
        end_line=4,
        tags=tags,
    )


def test_trigger_comments_never_carry_a_secret_fragment() -> None:
    """Lower-cased and dashed fragments of tokens are left out of the trigger comment; the next
    harmless tags take their place."""
    tags = ("akiaiosfodnn7exampl", "ghp-1a2b3c4d5e6f7g8h9i0j1k2l3m4n5o", "billing", "db-02", "x")
    assert triggers(tags) == ("billing", "db-02", "x")


def test_a_promoted_entry_line_is_redacted() -> None:
    """Whatever the row says, the entry line masks a secret, in the fact and in what it says
    it replaces."""
    entry = dataclasses.replace(
        _entry("Billing moved; the admin password: Hunter2!x", ("sk-proj-abcdefghij1234",)),
        replaced_text="The admin password: OldSecret99 for billing",
    )
    marker, line = render_entry(entry)
    assert marker == "<!-- dreamd-memory-promotion:memory:memory/2026-11-28.md:4:4 -->"
    assert line == (
        "- Billing moved; the admin password: *** (2026-11-28.md#L4; replaces: The admin "
        "password: *** for billing)"
    )


def _row(snippet: str) -> RecallEntry:
    return RecallEntry(
        key="memory:memory/2026-11-28.md:9:9",
        path="memory/2026-11-28.md",
        start_line=9,
        end_line=9,
        snippet=snippet,
    )


def test_reports_mask_rows_from_elsewhere_and_drop_secret_themes() -> None:
    """A store row written by another tool is masked in the light and REM reports, and a theme
    whose tag is a token fragment is not reported."""
    row = _row("Mail ana.silva@gmail.com the SSN 536-90-4399")
    light = light_body([Staged(row, 3, 1.8, 3)])
    assert "ana.silva" not in light and "536-90-4399" not in light
    assert light.startswith("- Candidate: Mail *** the SSN ***\n")
    themes = [
        Theme("ghp-1a2b3c4d5e6f7g8h9i0j1k2l3m", 4, 0.9, ("memory/a.md:1-1",)),
        Theme("billing", 3, 0.8, ("memory/a.md:2-2",)),
    ]
    rem = rem_body(themes, [Truth(row, 0.7)])
    assert "ghp-1a2b" not in rem and "ana.silva" not in rem
    assert "- Theme: `billing` kept surfacing across 3 memories." in rem


def test_a_hit_holding_a_mask_is_never_recorded() -> None:
    """A hit cut from the redacted index or corpus (a mask where a secret was) is skipped as
    sensitive, like the secret itself; Markdown's ***bold*** is not a mask."""
    hits = [
        Hit("memory/2026-11-28.md", 3, 3, "- The deploy token is ghp_Q7…Q7x7 until rotation.", 0.6),
        Hit("memory/2026-11-28.md", 4, 4, "- Mail *** about lunch.", 0.6),
        Hit("memory/2026-11-28.md", 5, 5, "- Keep the ***bold*** warning in the runbook.", 0.6),
    ]
    store, outcome = record_hits(Table({}), hits, query="q", now=NOW, day="2026-11-28")
    assert [reason for _, reason in outcome.skipped] == ["sensitive", "sensitive"]
    assert [row.snippet for row in store.rows.values()] == [
        "- Keep the ***bold*** warning in the runbook."
    ]
