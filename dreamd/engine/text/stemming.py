"""Stemming: the Porter (1980) algorithm, exactly as SQLite's FTS5 ``porter`` tokenizer applies it.

Rules:

- The index tokenizes with ``porter unicode61 remove_diacritics 2``, so FTS5 stems every word it
  stores and every word it is asked for. Search re-scores candidates in Python and must see the
  same stems: :func:`stem` is a port of ``fts5PorterCb`` (``fts5_tokenize.c``), including its
  quirks, and a test compares the two on arbitrary words.
- FTS5 stems bytes, not characters: a word of fewer than 3 or more than 64 UTF-8 bytes passes
  through unchanged, and every byte that is not a vowel letter (digits, bytes of other scripts)
  is a consonant. :func:`stem` works on the same bytes (as Latin-1 characters); the suffix rules
  only ever remove ASCII letters, so the result is still valid UTF-8.

Pure, cached per word.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["stem"]

_MAX = 64


def _is_vowel(word: str, index: int) -> bool:
    """FTS5's vowel test: a e i o u, and ``y`` after a consonant."""
    char = word[index]
    if char in "aeiou":
        return True
    return char == "y" and index > 0 and not _is_vowel(word, index - 1)


def _measure(word: str) -> int:
    """Porter's m: the number of vowel-consonant sequences in ``word``."""
    count = 0
    index = 0
    size = len(word)
    while index < size and not _is_vowel(word, index):
        index += 1
    while index < size:
        while index < size and _is_vowel(word, index):
            index += 1
        if index == size:
            break
        while index < size and not _is_vowel(word, index):
            index += 1
        count += 1
    return count


def _has_vowel(word: str) -> bool:
    return any(_is_vowel(word, index) for index in range(len(word)))


def _cvc(word: str) -> bool:
    """``*o``: ends consonant-vowel-consonant, the last not w, x or y."""
    size = len(word)
    return (
        size >= 3
        and not _is_vowel(word, size - 1)
        and word[-1] not in "wxy"
        and _is_vowel(word, size - 2)
        and not _is_vowel(word, size - 3)
    )


# (suffix, replacement) pairs of steps 2 and 3; each applies when the stem has m > 0.
_STEP2 = (
    ("ational", "ate"),
    ("tional", "tion"),
    ("enci", "ence"),
    ("anci", "ance"),
    ("izer", "ize"),
    ("bli", "ble"),
    ("alli", "al"),
    ("entli", "ent"),
    ("eli", "e"),
    ("ousli", "ous"),
    ("ization", "ize"),
    ("ation", "ate"),
    ("ator", "ate"),
    ("alism", "al"),
    ("iveness", "ive"),
    ("fulness", "ful"),
    ("ousness", "ous"),
    ("aliti", "al"),
    ("iviti", "ive"),
    ("biliti", "ble"),
    ("logi", "log"),
)
_STEP3 = (
    ("icate", "ic"),
    ("ative", ""),
    ("alize", "al"),
    ("iciti", "ic"),
    ("ical", "ic"),
    ("ful", ""),
    ("ness", ""),
)
_STEP4 = "al ance ence er ic able ible ant ement ment ent ion ou ism ate iti ous ive ize".split()


def _longest_first(rules: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(rules, key=lambda rule: -len(rule[0])))


# Longest suffix first, sorted once: stemming runs for every new word a search meets.
_STEP2_RULES = _longest_first(_STEP2)
_STEP3_RULES = _longest_first(_STEP3)
_STEP4_SUFFIXES = tuple(sorted(_STEP4, key=len, reverse=True))


def _replace(word: str, rules: tuple[tuple[str, str], ...]) -> str:
    """The first (longest) rule whose suffix ends ``word`` applies when its stem has m > 0."""
    for suffix, replacement in rules:
        if word.endswith(suffix):
            base = word[: -len(suffix)]
            return base + replacement if _measure(base) > 0 else word
    return word


def _step1(word: str) -> str:
    if (word.endswith("sses") and len(word) > 4) or (word.endswith("ies") and len(word) > 3):
        word = word[:-2]
    elif word.endswith("ss"):
        pass
    elif word.endswith("s"):
        word = word[:-1]
    # As in FTS5, a suffix is only removed when something precedes it ("eed" stays "eed"...).
    if word.endswith("eed") and len(word) > 3:
        return word[:-1] if _measure(word[:-3]) > 0 else word
    for suffix in ("ed", "ing"):
        if len(word) > len(suffix) and word.endswith(suffix) and _has_vowel(word[: -len(suffix)]):
            word = word[: -len(suffix)]
            if word.endswith(("at", "bl", "iz")):
                return word + "e"
            if len(word) >= 2 and word[-1] == word[-2] and word[-1] not in "aeioulsz":
                return word[:-1]
            if _measure(word) == 1 and _cvc(word):
                return word + "e"
            return word
    return word


def _step4(word: str) -> str:
    for suffix in _STEP4_SUFFIXES:
        if word.endswith(suffix):
            base = word[: -len(suffix)]
            if suffix == "ion" and not base.endswith(("s", "t")):
                return word
            return base if _measure(base) > 1 else word
    return word


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Porter stem of a lowercased word (see the module rules for what passes through)."""
    if word.isascii():
        return _porter(word) if 3 <= len(word) <= _MAX else word
    raw = word.encode("utf-8")
    if not 3 <= len(raw) <= _MAX:
        return word
    return _porter(raw.decode("latin-1")).encode("latin-1").decode("utf-8")


def _porter(word: str) -> str:
    word = _step1(word)
    if word.endswith("y") and _has_vowel(word[:-1]):
        word = word[:-1] + "i"
    word = _replace(word, _STEP2_RULES)
    word = _replace(word, _STEP3_RULES)
    word = _step4(word)
    if word.endswith("e"):
        base = word[:-1]
        if _measure(base) > 1 or (_measure(base) == 1 and not _cvc(base)):
            word = base
    if word.endswith("ll") and _measure(word) > 1:
        word = word[:-1]
    return word
