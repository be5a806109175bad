"""The shape of a question: entity, opinion, time or general, and who it is about."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamd.recall import query
from dreamd.recall.query import parse_query, question_shape

TODAY = date(2026, 11, 29)


@pytest.mark.parametrize(
    ("text", "shape", "subject"),
    [
        ("tell me about Alice", "entity", "Alice"),
        ("Can you tell me more about the billing service?", "entity", "the billing service"),
        ("who is Peter", "entity", "Peter"),
        ("Who's @ana?", "entity", "ana"),
        ("what do we know about db-02", "entity", "db-02"),
        ("information on Project Falcon", "entity", "Project Falcon"),
        ("háblame de Lucía", "entity", "Lucía"),
        ("¿Quién es Marta?", "entity", "Marta"),
        ("parle-moi de Chloé", "entity", "Chloé"),
        ("Erzähl mir von Jonas", "entity", "Jonas"),
        ("wer ist Jonas?", "entity", "Jonas"),
        ("WHO İS PETER", "entity", "PETER"),  # a dotted capital I, as a Turkish keyboard types
        ("what does Peter prefer?", "opinion", "Peter"),
        ("Does Ana like long meetings?", "opinion", "Ana"),
        ("how does the team feel about Fridays", "opinion", "the team"),
        ("what are Peter's preferences", "opinion", "Peter"),
        ("Ana’s opinions", "opinion", "Ana"),
        ("¿Qué prefiere Lucía?", "opinion", "Lucía"),
        ("what does Peter dislike", "opinion", "Peter"),
        ("What does Valeria do for a living?", "entity", "Valeria"),
        ("what does Dr Okafor do", "entity", "Dr Okafor"),
        ("What is Ana's job?", "entity", "Ana"),
        ("where does Mariel work?", "entity", "Mariel"),
        ("what does Peter do on Fridays?", "general", None),  # what he does then, not his work
        ("what happened around Nov 27", "time", None),
        ("What was true during November 2025?", "time", None),
        ("anything new?", "time", None),
        ("¿Qué pasó ayer?", "time", None),
        ("was ist passiert", "time", None),
        ("billing service on db-02", "general", None),
        ("who", "general", None),  # nobody to tell about
        ("about", "general", None),
        ("preferences", "general", None),
    ],
)
def test_each_question_has_its_shape_and_subject(
    text: str, shape: str, subject: str | None
) -> None:
    """Each question has its shape and subject, in English, Spanish, French and German."""
    assert question_shape(text) == (shape, subject)


def test_an_entity_question_searches_only_its_subject() -> None:
    """An entity question searches its subject's words only, and names it as an entity."""
    parsed = parse_query("tell me about the billing service", today=TODAY)
    assert (parsed.shape, parsed.subject) == ("entity", "the billing service")
    assert parsed.stems == ("bill", "servic")
    assert "the-billing-service" in parsed.entities


def _unfiltered(text: str) -> tuple[str, str | None]:
    """The shape as the patterns alone give it, every one tried (no cue words)."""
    flat = " ".join(text.split())
    patterns = (("opinion", query._OPINION), ("entity", query._ENTITY), ("entity", query._WORK))
    for shape, pattern in patterns:
        found = pattern.match(flat)
        if found is not None and (subject := query._subject(found)):
            return shape, subject
    return ("time", None) if query._TIME.match(flat) else ("general", None)


_PIECES = st.sampled_from(
    [
        "what", "does", "do", "did", "Peter", "prefer", "PREFER", "like", "dislike", "tell", "me",
        "about", "ABOUT", "who", "is", "'s", "’s", "was", "info", "on", "háblame", "hablame", "de",
        "quién", "quıen", "es", "qui", "est", "parle-moi", "erzähl", "erzahl", "mir", "von",
        "wer", "ist", "iſt", "İst", "happened", "anything", "new", "qué", "pasó", "passiert",
        "feel", "how", "preferences", "opinions", "views", "prefiere", "¿", "?", "@ana", "K",
        "true", "love", "want", "think", "of", "hate", "enjoy", "can", "you", "please",
        "for", "a", "living", "job", "work", "where", "Ana's",
    ]
)  # fmt: skip


@given(st.lists(_PIECES, min_size=1, max_size=7), st.sampled_from([" ", "  ", "\t", "\n"]))
def test_the_cue_words_never_change_a_shape(pieces: list[str], gap: str) -> None:
    """Skipping a pattern whose cue words are absent answers as trying every pattern does."""
    text = gap.join(pieces)
    assert question_shape(text) == _unfiltered(text)
