"""The literal prechecks of salience and the graph's name cache change no answer, only speed."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dreamd.engine.graph.fragments import _entities, build_fragment
from dreamd.engine.text import salience
from dreamd.engine.text.salience import _COMPILED, _CUES, has_cue, kind_of

CUE_WORDS = sorted(
    {
        word
        for _, pattern in _CUES
        for word in pattern.replace("\\b", " ").replace("(?:", " ").split("|")
        if word.strip().isascii()
    }
)
texts = st.lists(
    st.sampled_from(CUE_WORDS) | st.text(max_size=12) | st.sampled_from(["until", "Let's", "I "]),
    max_size=8,
).map(" ".join)


def _plain_kind(text: str) -> str:
    """The cue patterns alone, first match wins: the rule the prechecks must keep."""
    return next((kind for kind, pattern in _COMPILED if pattern.search(text)), "event")


@given(texts)
def test_kind_of_is_the_plain_cue_search(text: str) -> None:
    """Whatever the text, the prechecked kind is the kind the patterns alone give."""
    salience.kind_of.cache_clear()
    assert kind_of(text) == _plain_kind(text)
    if not has_cue(text):
        assert _plain_kind(text) == "event"


def test_known_cues_still_tag() -> None:
    """Each kind's cue words tag a line, in English and beyond."""
    lines = {
        "Actually, the deploy is on Thursday.": "correction",
        "We'll use Postgres for billing.": "decision",
        "The nightly export failed again.": "error",
        "Turns out the cache was cold.": "insight",
        "Shipped the onboarding flow.": "completed",
        "Lunch until three, still soup.": "event",
        "决定用新的数据库": "decision",
    }
    assert {line: kind_of(line) for line in lines} == lines


@given(st.lists(st.sampled_from(["Atlas", "- Atlas ships", "Dana: hi", "@ana", "x"]), max_size=9))
def test_fragments_name_the_same_entities(lines: list[str]) -> None:
    """A fragment's tagged names are those the full rule finds with the file's known names."""
    text = "# 2026-03-01\n\n## Log\n" + "\n".join(lines) + "\n"
    fragment = build_fragment("memory/2026-03-01.md", text, "")
    known = frozenset(name for line in lines if line.strip() for name in _entities(line))
    for t in fragment.tagged:
        assert list(t.entities) == _entities(t.text, known)
