"""REM themes name things: no stop words, everyday words, common verbs, ids or hashes."""

from __future__ import annotations

import pytest

from dreamd.engine.phases.rem import themes_of
from dreamd.engine.text.themes import is_theme
from tests.builders import entry


@pytest.mark.parametrize(
    "tag",
    [
        "answered",
        "anyone",
        "fine",
        "nothing",
        "blocking",
        "worked",
        "moves",
        "checked",
        "hizo",
        "gemacht",
        "nadie",
        "personne",
        "main",
        "main/s1",
        "s12",
        "l3",
        "a1b2c3d4e5",
        "the",
        "und",
    ],
)
def test_filler_words_and_ids_are_not_themes(tag: str) -> None:
    """Everyday words, verbs, agent and session ids and hashes never name a theme."""
    assert is_theme(tag, ids=("main",)) is False


@pytest.mark.parametrize("tag", ["billing", "postgres", "db-02", "standup", "review", "backup"])
def test_things_are_themes(tag: str) -> None:
    """Services, hosts, tools and nouns that are also verbs can be themes."""
    assert is_theme(tag, ids=("main",)) is True


def test_rem_themes_skip_agent_ids_and_filler() -> None:
    """Tags every entry shares but that name nothing do not surface as themes."""
    rows = [
        entry(key=f"k{i}", concept_tags=("main", "answered", "anyone", "billing")) for i in range(4)
    ]
    themes = themes_of(rows, min_strength=0.75, limit=10, ids=("main",))
    assert [(t.tag, t.count) for t in themes] == [("billing", 4)]


def test_stored_tags_are_renormalised_so_note_is_no_theme() -> None:
    """A migrated store's tags (OpenClaw 2026.4-era rows carry ``note``, in any spelling) are
    read as OpenClaw reads them: one tag per spelling, and machinery words are no theme."""
    rows = [
        entry(key=f"k{i}", concept_tags=(("Note", "note", "notes:")[i % 3], "Billing", "billing"))
        for i in range(6)
    ]
    themes = themes_of(rows, min_strength=0.75, limit=10, ids=("main",))
    assert [(t.tag, t.count) for t in themes] == [("billing", 6)]
