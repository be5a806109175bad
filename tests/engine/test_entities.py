"""The one entity rule: people, organisations, projects, places and tools; never a calendar
word, a tag word, a verb or "user"."""

from __future__ import annotations

import pytest

from dreamd.engine.facts.statement import CATEGORY_HEADINGS, CUE_HEADS, SUBJECT_VERBS
from dreamd.engine.facts.values import DAYS, MONTHS, PARTS
from dreamd.engine.text.entities import (
    CALENDAR,
    CATEGORIES,
    is_entity_name,
    is_project_name,
    is_topic_word,
)


@pytest.mark.parametrize(
    "name",
    [
        "Correction",
        "Error",
        "Decision",
        "Prefers",
        "Lesson",
        "April",
        "March",
        "Tuesday",
        "Donnerstag",
        "user",
        "Update",
        "Retain",
        "Decided",
        "0.4",
        "@Monday",
        "Diwali",
        "@Thanksgiving",
        "Adv",
        "Dr.",
        "Estimada Rosario",
        "Liebe Frau Kranz",
    ],
)
def test_calendar_tag_and_verb_words_are_no_entities(name: str) -> None:
    """Weekdays, months, tag words, verbs, numbers and "user" never name an entity."""
    assert not is_entity_name(name)


@pytest.mark.parametrize(
    "name",
    [
        "Ana",
        "Ana Lindgren",
        "Halvorsen Shipping",
        "The Castle",
        "Mgła",
        "@Kuba",
        "DeepL",
        "Adv Moodley",
        "Dr Achterberg",
        "Easter Road Stadium",
    ],
)
def test_people_places_and_organisations_are_entities(name: str) -> None:
    """Names of people, organisations, places and tools pass."""
    assert is_entity_name(name)


def test_an_app_is_an_entity_but_never_a_project() -> None:
    """WhatsApp is a tool: an entity, not a project; Atlas can be a project."""
    assert (is_entity_name("WhatsApp"), is_project_name("WhatsApp")) == (True, False)
    assert is_project_name("Atlas") and not is_project_name("Prefers")


def test_a_topic_is_never_the_kind_a_number_or_a_secret_name() -> None:
    """No "error about error", "event about 0.4" or "event about aws-secret-access-key"."""
    assert [
        is_topic_word(*pair)
        for pair in [
            ("error", "error"),
            ("0.4", "event"),
            ("aws-secret-access-key", "event"),
            ("backup", "error"),
        ]
    ] == [False, False, False, True]


def test_the_word_lists_keep_in_step_with_the_fact_model() -> None:
    """Every full weekday and month name the fact model reads, its parts of the day, category
    headings and cue heads are refused here too (the lists are copied to keep search light)."""
    full = {w for w in (*DAYS, *MONTHS) if len(w) > 3}
    assert full <= CALENDAR and set(PARTS) <= CALENDAR
    assert CATEGORY_HEADINGS | CUE_HEADS <= CATEGORIES
    assert not any(is_entity_name(verb.capitalize()) for verb in SUBJECT_VERBS if "'" not in verb)
