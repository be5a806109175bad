"""Attention and salience: noise is dropped, kinds are tagged in several languages."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamd.engine.text.salience import KINDS, is_noise, kind_of, weight


@pytest.mark.parametrize("text", ["ok thanks!", "hola", "merci", "好的", "👍", "yes yes", "Danke!"])
def test_greetings_and_acks_are_noise(text: str) -> None:
    """Short texts without a content word are noise."""
    assert is_noise(text)


@pytest.mark.parametrize(
    "text", ["deploy now?", "ok, use db-02", "This sentence is long enough to keep."]
)
def test_content_is_not_noise(text: str) -> None:
    """A content word, or 20 characters, keeps a text."""
    assert not is_noise(text)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Actually the port is 8443, not 8080", "correction"),
        ("En realidad el puerto es 8443", "correction"),
        ("We decided to use Postgres 16", "decision"),
        ("Wir haben entschieden: Postgres 16", "decision"),
        ("决定使用新的数据库", "decision"),
        ("The deploy failed with a timeout", "error"),
        ("La sauvegarde est en panne", "error"),
        ("Turns out the cache was stale", "insight"),
        ("Shipped the billing fix", "completed"),
        ("The weather is nice today", "event"),
    ],
)
def test_kinds(text: str, kind: str) -> None:
    """Cue words tag each text with one kind."""
    assert kind_of(text) == kind


def test_high_salience_weighs_more() -> None:
    """Decisions, corrections, errors, insights and completions weigh 1.15; the rest 1.0."""
    assert weight("We decided to ship") == 1.15
    assert weight("Shipped it") == 1.15
    assert weight("The weather is nice today") == 1.0


_PIECES = ["actually ", "we'll use ", "not ", "fail", "done", "i was wrong", "bug", "the "]


@given(st.lists(st.sampled_from([*_PIECES, *"abdefilnorstuw' ,.X"])).map("".join))
def test_the_literal_shortcut_changes_no_kind(text: str) -> None:
    """Skipping the patterns on ASCII lines without a cue literal gives the patterns' answer."""
    from dreamd.engine.text.salience import _COMPILED

    expected = next((kind for kind, pattern in _COMPILED if pattern.search(text)), "event")
    assert kind_of.__wrapped__(text) == expected


@given(st.text())
def test_never_crashes(text: str) -> None:
    """Any text gets a known kind."""
    assert kind_of(text) in KINDS
    assert isinstance(is_noise(text), bool)


@pytest.mark.parametrize(
    "text",
    [
        "That one was my doing: I'd copied last year's price list into the quote.",
        "I had booked the van for the wrong day again; rebooked for Friday.",
        "The reminder went to the whole list by mistake, sent a short apology after.",
        "Caught it before it went: the letter still had her old address on it.",
        "I should have checked the calendar before offering Tuesday.",
    ],
)
def test_a_mistake_told_in_the_first_person_is_an_error(text: str) -> None:
    """A slip the agent owns, in ordinary words, is an error (a pattern can be mined from it)."""
    assert kind_of(text) == "error"


@pytest.mark.parametrize(
    "text",
    [
        "I'd love to go back to Whitby again next summer.",
        "Booked the van for Friday; collection at 08:00.",
        "Sent the plot-rent notice to all 58 plot-holders.",
    ],
)
def test_plans_and_plain_news_are_no_mistake(text: str) -> None:
    assert kind_of(text) != "error"
