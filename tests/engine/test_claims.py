"""Near-duplicate claims: the same fact in other words is one claim; a changed detail is not."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamd.engine.text.claims import ClaimIndex, claim_tokens, same_claim


@pytest.mark.parametrize(
    ("left", "right"),
    [
        (
            "The billing service runs on Postgres 16 on host db-02.",
            "- billing service runs on postgres 16 on db-02",
        ),
        (
            "Decision: the billing service moves to Postgres 16 on the db-02 host.",
            "The billing service moves to Postgres 16 on db-02.",
        ),
        (
            "Bob prefers short written summaries over meetings.",
            "Bob prefers short written summaries to meetings.",
        ),
        ("账单服务迁移到 Postgres 16", "账单服务已迁移到 Postgres 16"),
        (
            "Die Zeitzone des Teams ist künftig Europe/Berlin.",
            "die zeitzone des teams ist künftig europe/berlin",
        ),
    ],
)
def test_the_same_claim_in_other_words(left: str, right: str) -> None:
    """Case, punctuation, list markers, a heading word or a small rewording: one claim."""
    assert same_claim(left, right) is True


@pytest.mark.parametrize(
    ("left", "right"),
    [
        (
            "The nightly backup writes to backup-02 at 02:00.",
            "The nightly backup writes to backup-03 at 02:00.",
        ),
        ("Bob prefers tea.", "Bob never prefers tea."),
        ("We deploy on Tuesdays.", "We don't deploy on Tuesdays."),
        ("Farah prefers tea, never coffee.", "Farah prefers coffee, never tea."),
        (
            "Ana owns the release checklist.",
            "Ana owns the release checklist; ask her before tagging a release.",
        ),
        ("Staging needs the VPN profile.", ""),
    ],
)
def test_a_changed_detail_is_another_claim(left: str, right: str) -> None:
    """Another number, a negation, its scope, or a claim inside a longer one: two claims."""
    assert same_claim(left, right) is False


def test_tokens_split_cjk_and_spell_out_negation() -> None:
    """CJK characters are tokens of their own; "n't" reads as "not"."""
    assert claim_tokens("We don't ship 账单 on Fridays") == (
        "we",
        "do",
        "not",
        "ship",
        "账",
        "单",
        "on",
        "fridays",
    )


def test_the_index_answers_with_the_first_repeated_claim() -> None:
    """A text repeating an indexed claim gets its reference; ``skip`` ignores one reference."""
    index = ClaimIndex()
    index.add("k1", "The ledger keeps 30 days of backups.")
    index.add("k2", "The ledger keeps 30 days of backups!")
    assert (
        index.match("the ledger keeps 30 days of backups"),
        index.match("the ledger keeps 30 days of backups", skip="k1"),
        index.match("The ledger keeps 60 days of backups."),
    ) == ("k1", "k2", None)


@given(st.text(max_size=200), st.text(max_size=200))
def test_same_claim_is_symmetric_and_never_crashes(left: str, right: str) -> None:
    """Any two texts compare the same way round, without an error."""
    assert same_claim(left, right) == same_claim(right, left)
