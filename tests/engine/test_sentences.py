"""Sentences of a statement: where a line holds more than one claim."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamd.engine.text.sentences import sentences
from dreamd.engine.text.snippets import collapse


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Alex is my partner. We met today at the hotel.",
            ["Alex is my partner.", "We met today at the hotel."],
        ),
        ("Prefer tea.", ["Prefer tea."]),
        (
            "Runs on v1.2.3. Backups go to 10.0.0.1 nightly.",
            ["Runs on v1.2.3.", "Backups go to 10.0.0.1 nightly."],
        ),
        ("Met J. Smith today. He leads infra.", ["Met J. Smith today.", "He leads infra."]),
        ("Use e.g. Postgres. Never MySQL!", ["Use e.g. Postgres.", "Never MySQL!"]),
        ("Keep it (see note. It is fine). Done.", ["Keep it (see note. It is fine).", "Done."]),
        ("我喜欢茶。今天开会。", ["我喜欢茶。", "今天开会。"]),
        ("Deployed to db-02.example.com. Works.", ["Deployed to db-02.example.com.", "Works."]),
        ("", []),
    ],
)
def test_sentences(text: str, expected: list[str]) -> None:
    """Sentence ends split; initials, abbreviations, numbers, hosts and brackets do not."""
    assert sentences(text) == expected


@given(st.text())
def test_sentences_join_back(text: str) -> None:
    """The sentences are the collapsed text, in order, cut only where a space or a full stop
    written without one ("。0") stood: nothing is lost, added or moved."""
    found = sentences(text)
    assert all(piece and piece == piece.strip() for piece in found)
    assert "".join(found).replace(" ", "") == collapse(text).replace(" ", "")
