"""Retain facts (§15): typed, entity-tagged bullets of a note's ``## Retain`` section."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamd.recall.labels import Labels, label_chunk
from dreamd.recall.retain import RetainFact, mentions, parse_fact, parse_retain

NOTE = """# 2025-11-27

- @Peter said hi (not a Retain section).

## Retain
- W @Peter: Currently in Marrakech (Nov 27-Dec 1, 2025) for @Andy's birthday.
- B @warelay: I fixed the Baileys WS crash (see memory/2025-11-27.md).
- O(c=0.95) @Peter: Prefers concise replies (<1500 chars) on WhatsApp.
- S Most of the week went into the billing migration.
- O @Peter @warelay: Likes the new relay.
- just a plain bullet
```
- W @Ghost: inside a code fence
```

## Later
- W @Nobody: after the section
"""


def test_parse_retain_reads_every_fact_of_the_section() -> None:
    """Each typed bullet under Retain is a fact with kind, entities, confidence, line and day."""
    assert parse_retain(NOTE, day="2025-11-27") == [
        RetainFact(
            "world",
            "Currently in Marrakech (Nov 27-Dec 1, 2025) for @Andy's birthday.",
            ("Peter", "Andy"),
            None,
            6,
            "2025-11-27",
        ),
        RetainFact(
            "experience",
            "I fixed the Baileys WS crash (see memory/2025-11-27.md).",
            ("warelay",),
            None,
            7,
            "2025-11-27",
        ),
        RetainFact(
            "opinion",
            "Prefers concise replies (<1500 chars) on WhatsApp.",
            ("Peter",),
            0.95,
            8,
            "2025-11-27",
        ),
        RetainFact(
            "observation",
            "Most of the week went into the billing migration.",
            (),
            None,
            9,
            "2025-11-27",
        ),
        RetainFact("opinion", "Likes the new relay.", ("Peter", "warelay"), None, 10, "2025-11-27"),
    ]


@pytest.mark.parametrize(
    "line",
    [
        "- X @Peter: unknown type",
        "- W(c=0.9) @Peter: only opinions carry a confidence",
        "- O(c=1.5) @Peter: confidence above one",
        "- W @Peter:",
        "- Wow, what a day",
        "W @Peter: not a bullet",
        "- w @Peter: lowercase type",
    ],
)
def test_lines_that_are_not_facts(line: str) -> None:
    """Malformed bullets are not facts."""
    assert parse_fact(line) is None


def test_mentions_skip_email_addresses_and_repeat_names() -> None:
    """@Names in order, once each whatever the case; e-mail addresses are not entities."""
    assert mentions("@Peter mailed bob@example.com about @peter and @The-Castle.") == (
        "Peter",
        "The-Castle",
    )


def test_a_retain_chunk_is_labelled_with_its_fact() -> None:
    """In the index a Retain bullet carries its kind, confidence and lowercased entities."""
    assert label_chunk("- O(c=0.9) @Peter: Prefers tea.", "Retain") == Labels(
        entities=("peter",), kind="opinion", confidence=0.9
    )
    assert label_chunk("- O(c=0.9) @Peter: Prefers tea.", "Notes") == Labels(entities=("peter",))


RETAINISH = st.lists(
    st.sampled_from(
        [
            "## Retain",
            "# Retain:",
            "### Other",
            "```",
            "- W @A: x",
            "- O(c=0.5) @B: y",
            "- S",
            "- B",
        ]
    )
    | st.text(max_size=30),
    max_size=20,
).map("\n".join)


@settings(deadline=None, max_examples=300)
@given(st.text() | RETAINISH)
def test_parse_retain_never_crashes(text: str) -> None:
    """Any text parses; every fact has a known kind, text, a confidence in [0, 1] or none."""
    for fact in parse_retain(text):
        assert fact.kind in {"world", "experience", "opinion", "observation"}
        assert fact.text and fact.line >= 1
        assert fact.confidence is None or 0.0 <= fact.confidence <= 1.0
        assert fact.confidence is None or fact.kind == "opinion"


@pytest.mark.parametrize(
    ("text", "speaker"),
    [
        ("- Dana: I joined a pottery class.", "Dana"),
        ("**Ana Silva**: owns the checklist", "Ana Silva"),
        ("[main/s1#L3] User: hello there", "User"),
        ("- @Peter: lands at 9", "@Peter"),
        ("- the time was 10:30 sharp", ""),
        ("- Decided: we use Postgres", "Decided"),
        ("- lowercase: not a label", ""),
        ("- One Two Three Four: too many words", ""),
    ],
)
def test_speaker_labels(text: str, speaker: str) -> None:
    """The label a line opens with (one to three capitalised words and a colon) is its speaker."""
    assert label_chunk(text, "").speaker == speaker


@pytest.mark.parametrize(
    ("line", "entity", "text"),
    [
        ("- O(c=0.2) @Les Fromages d'Ici: pays late.", "Les Fromages d'Ici", "pays late."),
        ("- W @Caffè dell'Arte: opens at 07:00.", "Caffè dell'Arte", "opens at 07:00."),
        ("- W @Quinta dos Loendros: a farm shop.", "Quinta dos Loendros", "a farm shop."),
    ],
)
def test_a_leading_name_with_elided_or_small_joining_words_is_one_name(
    line: str, entity: str, text: str
) -> None:
    fact = parse_fact(line)
    assert fact is not None and (fact.entities[0], fact.text) == (entity, text)
