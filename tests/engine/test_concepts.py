"""Concept tags: order, filters, stop words in several languages, CJK (SPEC §3)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dreamd.engine.text.concepts import MAX_CONCEPT_TAGS, concept_tags


def test_note_name_contributes_its_slug() -> None:
    """A slugged note name adds its slug; the date and extension never become tags."""
    tags = concept_tags("memory/2026-11-12-launch-plan.md", "Rollout moved to Friday.")
    assert tags == ("launch-plan", "launch", "plan", "rollout", "moved", "friday")


def test_compounds_then_words_with_filters() -> None:
    """Compound tokens come first; dates, digits, short words and stop words are dropped."""
    tags = concept_tags("memory/2026-11-12.md", "- Index note 102.5: latency and postgres checked.")
    assert tags == ("102.5", "index", "note", "latency", "postgres", "checked")


def test_glossary_terms_survive_the_length_filter() -> None:
    """Short technical glossary words (s3, kv, vlan) are kept and come first."""
    tags = concept_tags("memory/x.md", "Moved the kv cache to s3 over the vlan")
    assert tags[:3] == ("kv", "s3", "vlan")


def test_machinery_and_foreign_stop_words_are_dropped() -> None:
    """Words like agent/memory/session and Spanish/French/German stop words are not tags."""
    tags = concept_tags("memory/x.md", "the agent memory session para avec und gateway-servers")
    assert tags == ("gateway", "gateway-servers", "servers")


def test_cjk_tags() -> None:
    """CJK runs of two or more characters are tags; kana-only needs three."""
    assert concept_tags("memory/2026-01-02.md", "数据库 备份 の です") == ("备份", "数据库")


def test_underscores_become_hyphens_and_at_most_eight() -> None:
    """``_`` becomes ``-`` and no more than eight tags are kept."""
    tags = concept_tags("memory/x.md", "alpha_beta " + " ".join(f"word{i}x" for i in range(20)))
    assert tags[0] == "alpha-beta"
    assert len(tags) == MAX_CONCEPT_TAGS


@given(st.text(), st.text())
def test_never_crashes(path: str, snippet: str) -> None:
    """Any path and snippet give at most eight distinct, non-empty tags."""
    tags = concept_tags(path, snippet)
    assert len(tags) <= MAX_CONCEPT_TAGS
    assert len(set(tags)) == len(tags)
    assert all(tags)
