"""Recording recall traces into the store (SPEC §3)."""

from __future__ import annotations

from dreamd.engine.hits import Hit
from dreamd.engine.state import Table
from dreamd.engine.text.snippets import claim_hash, query_hash
from dreamd.engine.traces import MAX_STORE_ENTRIES, record_hits, trim_store
from tests.builders import NOW, at, entry

HIT = Hit("memory/2026-11-20.md", 3, 3, "- The staging database moved to Postgres 16.", 0.8)


def test_first_recall_creates_a_row() -> None:
    """A new hit makes a row with one recall, its score, query hash, day and tags."""
    store, outcome = record_hits(
        Table({}), [HIT], query="Where is staging DB?", now=NOW, day="2026-11-29"
    )
    row = store.rows["memory:memory/2026-11-20.md:3:3"]
    assert outcome.recorded == ("memory:memory/2026-11-20.md:3:3",)
    assert (row.recall_count, row.daily_count, row.total_score, row.max_score) == (1, 0, 0.8, 0.8)
    assert row.query_hashes == (query_hash("where is staging db?"),)
    assert row.user_query_hashes == row.query_hashes
    assert row.recall_days == ("2026-11-29",)
    assert row.claim_hash == claim_hash(HIT.snippet)
    assert row.first_recalled_at == row.last_recalled_at == "2026-11-29T12:00:00.000Z"
    assert row.concept_tags == ("staging", "database", "moved", "postgres")
    assert row.provenance is not None and row.provenance.origin_class == "agent"


def test_second_recall_accumulates() -> None:
    """Counts and score add up, max is kept, first time kept, distinct queries merged."""
    store, _ = record_hits(
        Table({}), [HIT], query="a", now=at("2026-11-27T09:00:00Z"), day="2026-11-27"
    )
    weaker = Hit(HIT.path, 3, 3, HIT.snippet, 0.5)
    store, _ = record_hits(store, [weaker], query="b", now=NOW, day="2026-11-29")
    row = store.rows["memory:memory/2026-11-20.md:3:3"]
    assert (row.recall_count, row.total_score, row.max_score) == (2, 1.3, 0.8)
    assert row.first_recalled_at == "2026-11-27T09:00:00.000Z"
    assert row.recall_days == ("2026-11-27", "2026-11-29")
    assert len(row.user_query_hashes or ()) == 2


def test_untrusted_recall_taints_for_good_and_adds_no_user_query() -> None:
    """An untrusted recall sets a sticky origin; later agent recalls do not clear it."""
    store, _ = record_hits(
        Table({}), [HIT], query="x", now=NOW, day="2026-11-29", origin="untrusted"
    )
    row = store.rows["memory:memory/2026-11-20.md:3:3"]
    assert row.user_query_hashes == ()
    store, _ = record_hits(store, [HIT], query="y", now=NOW, day="2026-11-29")
    row = store.rows["memory:memory/2026-11-20.md:3:3"]
    assert row.provenance is not None and row.provenance.origin_class == "untrusted"
    assert row.user_query_hashes == (query_hash("y"),)


def test_non_interactive_sessions_add_no_user_queries() -> None:
    """Cron or heartbeat recalls count as recalls but not as distinct user queries."""
    store, _ = record_hits(
        Table({}), [HIT], query="x", now=NOW, day="2026-11-29", session_kind="cron"
    )
    row = store.rows["memory:memory/2026-11-20.md:3:3"]
    assert (row.recall_count, row.user_query_hashes) == (1, ())


def test_daily_signals_dedupe_per_query_per_day() -> None:
    """Ingesting the same chunk twice on one day adds nothing; a new day adds one."""
    args = {
        "query": "__dreaming_daily__:2026-11-29",
        "now": NOW,
        "day": "2026-11-29",
        "signal": "daily",
        "dedupe_per_day": True,
    }
    store, _ = record_hits(Table({}), [HIT], **args)  # type: ignore[arg-type]
    again, outcome = record_hits(store, [HIT], **args)  # type: ignore[arg-type]
    assert again.rows == store.rows
    assert outcome.unchanged == ("memory:memory/2026-11-20.md:3:3",)
    row = store.rows["memory:memory/2026-11-20.md:3:3"]
    assert (row.recall_count, row.daily_count, row.user_query_hashes) == (0, 1, ())


def test_grounded_signals_use_claim_keys_and_weights() -> None:
    """Grounded rows are keyed with the claim hash and add score x signals."""
    store, _ = record_hits(
        Table({}),
        [HIT],
        query="g",
        now=NOW,
        day="2026-11-20",
        signal="grounded",
        grounded_signals=2,
    )
    key = f"memory:memory/2026-11-20.md:3:3:{claim_hash(HIT.snippet)}"
    row = store.rows[key]
    assert (row.grounded_count, row.total_score, row.recall_count) == (2, 1.6, 0)
    assert row.user_query_hashes == (query_hash("g"),)


def test_non_short_term_and_contaminated_hits_are_skipped() -> None:
    """MEMORY.md hits and staging echoes are not recorded."""
    memory_hit = Hit("MEMORY.md", 1, 1, "- A durable fact already in memory.", 0.9)
    echo = Hit(HIT.path, 9, 9, "git status --short", 0.9)
    store, outcome = record_hits(
        Table({}), [memory_hit, echo], query="q", now=NOW, day="2026-11-29"
    )
    assert store.rows == {}
    assert [reason for _, reason in outcome.skipped] == [
        "non-short-term-memory-path",
        "contaminated",
    ]


def test_sensitive_snippets_are_never_recorded() -> None:
    """A snippet holding a secret or personal data is skipped as 'sensitive'."""
    leaky = Hit(HIT.path, 4, 4, "- The deploy key is ghp_" + "x1" * 18 + " for now.", 0.9)
    mail = Hit(HIT.path, 5, 5, "- Ana's address is ana@example.org for invoices.", 0.9)
    store, outcome = record_hits(Table({}), [leaky, mail], query="q", now=NOW, day="2026-11-29")
    assert store.rows == {}
    assert [reason for _, reason in outcome.skipped] == ["sensitive", "sensitive"]


def test_store_keeps_the_most_recent_512() -> None:
    """Overflow drops the oldest last recall first, then fewest signals."""
    rows = {
        f"k{i}": entry(
            key=f"k{i}",
            start=i + 1,
            end=i + 1,
            recall_count=1,
            last_recalled_at=f"2026-11-{1 + i % 28:02d}T00:00:00.000Z",
        )
        for i in range(MAX_STORE_ENTRIES + 3)
    }
    kept, dropped = trim_store(rows)
    assert len(kept) == MAX_STORE_ENTRIES
    assert len(dropped) == 3
    oldest = min(row.last_recalled_at or "" for row in kept.values())
    assert all((rows[key].last_recalled_at or "") <= oldest for key in dropped)
