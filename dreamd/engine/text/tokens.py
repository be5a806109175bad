"""Token sets and Jaccard similarity for near-duplicate detection (light dedupe, REM truths).

ASCII words are ``[a-z0-9_]+`` after lowercasing; CJK characters (kana, CJK ideographs, Hangul)
count as unigrams plus a bigram for each pair of adjacent CJK characters, so Chinese, Japanese and
Korean paraphrases dedupe like spaced languages do.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from dreamd.patterns import LazyPattern

__all__ = ["is_cjk", "jaccard", "similarity", "token_set"]

# Hiragana and katakana, CJK extension A, CJK unified ideographs, Hangul syllables, Hangul jamo.
_CJK_CLASS = "[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\u1100-\u11ff]+"
# CJK runs; compiled when non-ASCII text first needs it (a wide class is slow to compile).
_CJK_RUN = LazyPattern(_CJK_CLASS)


_ASCII_WORD = LazyPattern(r"[a-z0-9_]+")


def is_cjk(char: str) -> bool:
    """True for a kana, CJK ideograph or Hangul character."""
    return not char.isascii() and _CJK_RUN.fullmatch(char) is not None


@lru_cache(maxsize=8192)
def token_set(text: str) -> frozenset[str]:
    """ASCII word tokens plus CJK unigrams and adjacent-pair bigrams."""
    lowered = text.lower()
    tokens: set[str] = set(_ASCII_WORD.findall(lowered))
    for run in () if lowered.isascii() else _CJK_RUN.findall(lowered):
        tokens.update(run)
        tokens.update(run[i : i + 2] for i in range(len(run) - 1))
    return frozenset(tokens)


def jaccard(left: Iterable[str], right: Iterable[str]) -> float:
    """``|A ∩ B| / |A ∪ B|``; 0 when both are empty."""
    a, b = set(left), set(right)
    union = a | b
    return len(a & b) / len(union) if union else 0.0


def similarity(left: str, right: str) -> float:
    """Token Jaccard of two texts; two texts without tokens are similar only when equal."""
    a, b = token_set(left), token_set(right)
    if not a and not b:
        return 1.0 if left.strip().lower() == right.strip().lower() else 0.0
    return jaccard(a, b)
