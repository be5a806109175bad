"""Token sets and Jaccard similarity, ASCII and CJK."""

from __future__ import annotations

import pytest

from dreamd.engine.text.tokens import jaccard, similarity, token_set


def test_ascii_tokens() -> None:
    """Lowercased [a-z0-9_]+ words."""
    assert token_set("Deploy v2_final to STAGING, now!") == {
        "deploy",
        "v2_final",
        "to",
        "staging",
        "now",
    }


def test_cjk_unigrams_and_bigrams() -> None:
    """CJK characters count alone and as adjacent pairs; pairs never cross other text."""
    assert token_set("备份失败") == {"备", "份", "失", "败", "备份", "份失", "失败"}
    assert token_set("备 份") == {"备", "份"}


@pytest.mark.parametrize(
    ("left", "right", "expected"),
    [
        ("the queue runs on postgres", "the queue runs on postgres", 1.0),
        ("a b c d", "a b c e", 3 / 5),
        ("", "", 1.0),
        ("!!!", "!!!", 1.0),
        ("!!!", "???", 0.0),
        ("数据库备份失败了", "数据库备份失败", 13 / 15),
    ],
)
def test_similarity(left: str, right: str, expected: float) -> None:
    """Jaccard over token sets; empty token sets compare the raw text."""
    assert similarity(left, right) == pytest.approx(expected)


def test_jaccard_of_empty_sets() -> None:
    """Two empty sets are not similar."""
    assert jaccard([], []) == 0.0
