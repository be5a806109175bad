"""Every marker form OpenClaw writes is recognised, and dreamd can write OpenClaw's spelling."""

from __future__ import annotations

from dreamd.engine.phases.diary import add_entry, diary_entries
from dreamd.engine.phases.promotion import promoted_keys, promoted_on
from dreamd.engine.text.blocks import choose_brand, replace_block
from dreamd.engine.text.memory_entries import promoted_identities, split_key
from dreamd.engine.text.snippets import openclaw_claim_hash

MEMORY = """# Long-Term Memory

## Promoted From Short-Term Memory (2026-11-24)

<!-- openclaw-memory-promotion:memory:memory/2026-11-18.md:1:13 -->
- a [score=0.861 signals=12 recalls=12 avg=0.726 source=memory/2026-11-18.md:1-13]
<!-- openclaw-memory-promotion:memory:memory/2026-11-20.md:4:4:4a8ea0ea12df -->
- b
<!-- openclaw-memory-promotion:memory:claim:0123456789ab -->
- c
"""


def test_keys_split_into_base_and_claim_hash() -> None:
    """A claim-hash suffix and a memory:claim: key are told apart from the base key."""
    assert split_key("memory:memory/a.md:3:3:4a8ea0ea12df") == (
        "memory:memory/a.md:3:3",
        "4a8ea0ea12df",
    )
    assert split_key("memory:memory/a.md:3:3") == ("memory:memory/a.md:3:3", None)
    assert split_key("memory:claim:0123456789ab") == ("memory:claim:0123456789ab", "0123456789ab")


def test_every_openclaw_key_form_counts_as_promoted() -> None:
    """Base key, claim-hash suffix and memory:claim: markers all cover the same fact."""
    keys = promoted_identities(promoted_keys(MEMORY))
    assert keys.covers("memory:memory/2026-11-18.md:1:13")
    assert keys.covers("memory:memory/2026-11-18.md:1:13:ffffffffffff")  # marker had no hash
    assert keys.covers("memory:memory/2026-11-20.md:4:4")  # dreamd's base key of that line
    assert keys.covers("memory:memory/2026-11-20.md:4:4:4a8ea0ea12df")
    assert not keys.covers("memory:memory/2026-11-20.md:4:4:ffffffffffff")  # another claim
    assert keys.covers("memory:memory/2026-11-19.md:7:7", ("0123456789ab",))  # same claim
    assert not keys.covers("memory:memory/2026-11-19.md:7:7", ("ffffffffffff",))


def test_openclaw_claim_hash_matches_what_openclaw_stored() -> None:
    """OpenClaw 2026.9.6 keyed 'I prefer short answers…' with 4a8ea0ea12df (fixture row)."""
    assert openclaw_claim_hash("I prefer short answers  with the command first.") == "4a8ea0ea12df"


def test_promotions_already_on_a_day_are_counted() -> None:
    """The per-day limit sees the markers of that day's sections only."""
    assert (promoted_on(MEMORY, "2026-11-24"), promoted_on(MEMORY, "2026-11-25")) == (3, 0)


def test_auto_brand_follows_openclaw_where_it_dreamed() -> None:
    """auto writes OpenClaw's markers when OpenClaw's state or markers are present."""
    assert choose_brand("auto", openclaw=False, texts=("plain",)) == "dreamd"
    assert choose_brand("auto", openclaw=True) == "openclaw"
    assert choose_brand("auto", openclaw=False, texts=(MEMORY,)) == "openclaw"
    assert choose_brand("dreamd", openclaw=True) == "dreamd"


DREAMS = """# Dream Diary

<!-- openclaw:dreaming:diary:start -->
---

*November 18, 2026*

<!-- openclaw:dreaming:backfill-entry day=2026-11-18 source=/old/place/memory/2026-11-18.md -->

What Happened
1. Infra: backups.
<!-- openclaw:dreaming:diary:end -->

# Dream Diary
<!-- dreamd:dreaming:diary:start -->

---

*November 20, 2026, 7:00 PM UTC*

A memory trace surfaced, but details were unavailable in this run.

---

*November 18, 2026*

<!-- dreamd:dreaming:backfill-entry day=2026-11-18 source=memory/2026-11-18.md -->

What Happened
1. Infra: backups.
<!-- dreamd:dreaming:diary:end -->

## Deep Sleep
<!-- dreamd:dreaming:deep:start -->
- Ranked 0 candidate(s) for durable promotion.
<!-- dreamd:dreaming:deep:end -->
"""


def test_two_diary_blocks_merge_into_one_without_losing_an_entry() -> None:
    """OpenClaw's block and dreamd's become one block under one heading; a backfill entry of
    the same day and note is kept once; dreamd's own entry survives."""
    out = add_entry(DREAMS, "---\n\n*November 25, 2026*\n\nNew.\n", brand="openclaw")
    assert out.count("# Dream Diary") == 1
    assert out.count(":dreaming:diary:start -->") == 1
    assert out.count("backfill-entry day=2026-11-18") == 1
    assert [entry.splitlines()[0] for entry in diary_entries(out)] == [
        "*November 18, 2026*",
        "*November 20, 2026, 7:00 PM UTC*",
        "*November 25, 2026*",
    ]
    assert out.startswith("# Dream Diary\n<!-- openclaw:dreaming:diary:start -->\n")


def test_diary_entries_read_every_block() -> None:
    """Counting the diary counts both tools' entries, each once."""
    assert len(diary_entries(DREAMS)) == 2


def test_replacing_the_deep_block_in_openclaws_spelling() -> None:
    """A brand asked for is the spelling written; other blocks are left as they are."""
    out = replace_block(DREAMS, "deep", "- x", brand="openclaw")
    assert "<!-- openclaw:dreaming:deep:start -->\n- x\n<!-- openclaw:dreaming:deep:end -->" in out
    assert out.split("## Deep Sleep")[0] == DREAMS.split("## Deep Sleep")[0]
