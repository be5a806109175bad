"""Keywords of a piece of text: the tokenizer's concept tags, ranked by how often they occur.

Rules: each line's concept tags (:func:`~dreamd.engine.text.concepts.concept_tags`: glossary
terms, compounds, words; stop words of every language the tokenizer handles dropped) that can
name a theme (:func:`~dreamd.engine.text.themes.is_theme`: no everyday words, common verbs,
ids or hashes) are counted once per line; keywords are ordered by that count, then by first
appearance. An ASCII line takes a faster path with the same rules (its compounds, then its
words, of three characters or more). A keyword library such as YAKE ranks better on long
prose, but costs tens of milliseconds a section and pulls in numpy; a sweep reads thousands of
sections. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from dreamd.engine.text.concepts import STOP_WORDS, concept_tags
from dreamd.engine.text.themes import is_theme

__all__ = ["keywords", "line_keywords"]

_COMPOUND = re.compile(r"[a-z0-9]+(?:[._/-][a-z0-9]+)+")
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")


@lru_cache(maxsize=65536)
def _worth(tag: str) -> bool:
    """A tag that can be a keyword (words repeat across lines, so this is asked often)."""
    if len(tag) < 3 or len(tag) > 32 or tag.isdigit() or tag in STOP_WORDS or _DATE.match(tag):
        return False
    return is_theme(tag)


@lru_cache(maxsize=16384)
def line_keywords(text: str) -> tuple[str, ...]:
    """The theme-worthy concept tags of one line, in order."""
    if not text.isascii():
        return tuple(tag for tag in concept_tags("", text) if is_theme(tag))
    lowered = text.lower().replace("_", "-")
    found: dict[str, None] = {}
    for tag in (*_COMPOUND.findall(lowered), *_WORD.findall(lowered)):
        if tag in found or not _worth(tag):
            continue
        found[tag] = None
        if len(found) == 8:
            break
    return tuple(found)


def keywords(lines: Iterable[str], *, limit: int = 8) -> tuple[str, ...]:
    """The ``limit`` most frequent keywords of ``lines`` (see the module rules)."""
    counts: dict[str, int] = {}
    for line in lines:
        for tag in line_keywords(line):
            counts[tag] = counts.get(tag, 0) + 1
    ranked = sorted(counts.items(), key=lambda item: -item[1])  # stable: first seen first
    return tuple(tag for tag, _ in ranked[:limit])
