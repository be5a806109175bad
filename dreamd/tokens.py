"""Token sets and Jaccard similarity for near-duplicate detection (light dedupe, REM truths).

ASCII words are ``[a-z0-9_]+`` after lowercasing; CJK characters (kana, CJK ideographs, Hangul)
count as unigrams plus a bigram for each pair of adjacent CJK characters, so Chinese, Japanese and
Korean paraphrases dedupe like spaced languages do.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["is_cjk", "jaccard", "similarity", "token_set"]

_CJK_RANGES = (
    (0x3040, 0x30FF),  # hiragana, katakana
    (0x3400, 0x4DBF),  # CJK extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xAC00, 0xD7AF),  # Hangul syllables
    (0x1100, 0x11FF),  # Hangul jamo
)
_ASCII_WORD = re.compile(r"[a-z0-9_]+")


def is_cjk(char: str) -> bool:
    """True for a kana, CJK ideograph or Hangul character."""
    code = ord(char)
    return any(low <= code <= high for low, high in _CJK_RANGES)


def token_set(text: str) -> frozenset[str]:
    """ASCII word tokens plus CJK unigrams and adjacent-pair bigrams."""
    lowered = text.lower()
    tokens: set[str] = set(_ASCII_WORD.findall(lowered))
    previous = ""
    for char in lowered:
        if is_cjk(char):
            tokens.add(char)
            if previous:
                tokens.add(previous + char)
            previous = char
        else:
            previous = ""
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
