"""Where to look: the windows of a text around the words a family's rules start from.

The family rules are regular expressions too rich to run over a whole note quickly; each
family names a few plain *anchors* (``pass``, ``token``, ``@``…) that any of its findings
contains. The anchors are found first, at C speed: a short list by ``str.find`` each, a long
list of rare words by one regular expression shaped as a trie (:func:`trie`), which fails on
the first letter almost everywhere. The rules run only in the windows around them; a text
with no anchor costs one pass and nothing more. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from dreamd.patterns import LazyPattern

__all__ = ["ITEM", "ITEM_MARKED", "find_words", "on_its_line", "trie", "windows"]

# What stands before a line's own text in a note: a quote's markers, a list item's (nested,
# numbered: ``- 1. ``) and a task's box. Notes are bullet lists, so a rule that starts where a
# line starts reads past these, or a text it finds alone is missed once it is a list item.
_MARKS = r"[ \t]*(?:>[ \t]*)*"
_BULLET = r"(?:[-*+•]|\d{1,2}[.)])[ \t]+"
_BOX = r"(?:\[[ xX]\][ \t]+)?"
ITEM = _MARKS + "(?:" + _BULLET + ")*" + _BOX
ITEM_MARKED = _MARKS + "(?:" + _BULLET + ")+" + _BOX  # a list item's line: one marker at least

_Node = dict[str, "_Node"]


def _pattern(node: _Node) -> str:
    end = "" in node
    branches = [re.escape(char) + _pattern(child) for char, child in sorted(node.items()) if char]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    if end:
        return body + "?" if body.startswith("(?:") and len(branches) > 1 else f"(?:{body})?"
    return body


@cache
def trie(words: Sequence[str]) -> re.Pattern[str]:
    """One pattern matching any of ``words``, shaped as a trie."""
    root: _Node = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}
    return re.compile(_pattern(root))


@cache
def _split_trie(words: tuple[str, ...], suffix: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """:func:`trie` of the words that start with an ASCII character and of the others, each
    followed by ``suffix``."""
    plain = tuple(w for w in words if w[:1].isascii())
    other = tuple(w for w in words if not w[:1].isascii())
    return (
        re.compile(trie(plain).pattern + suffix if plain else r"(?!)"),
        re.compile(trie(other).pattern + suffix if other else r"(?!)"),
    )


def find_words(low: str, words: tuple[str, ...], suffix: str = "") -> list[re.Match[str]]:
    """Every match of ``words`` (then ``suffix``) in ``low``, in order. The words that start
    with a character outside ASCII are looked for only in a text that holds one: a trie's
    first characters are tried one by one at every position, so each one it can skip saves
    a pass's worth of work on the plain-ASCII notes most notes are."""
    plain, other = _split_trie(words, suffix)
    found = list(plain.finditer(low))
    if not low.isascii():
        found += other.finditer(low)
        found.sort(key=lambda match: match.start())
    return found


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    if len(spans) < 2:
        return spans
    spans.sort()
    merged = [spans[0]]
    for start, end in spans[1:]:
        last_start, last_end = merged[-1]
        if start <= last_end:
            merged[-1] = (last_start, max(last_end, end))
        else:
            merged.append((start, end))
    return merged


def windows(
    low: str, anchors: Sequence[str], *, before: int, after: int, rare: bool = False
) -> list[tuple[int, int]]:
    """Merged ``(start, end)`` ranges reaching ``before`` characters ahead of each anchor found
    in ``low`` and ``after`` characters past it (``low``: the text in lower case). ``rare``
    anchors are looked for all at once through :func:`trie`."""
    size = len(low)
    spans: list[tuple[int, int]] = []
    if rare:
        for match in trie(tuple(anchors)).finditer(low):
            spans.append((max(0, match.start() - before), min(size, match.end() + after)))
        return _merge(spans)
    ascii_only = low.isascii()
    for anchor in anchors:
        if ascii_only and not anchor.isascii():
            continue
        index = low.find(anchor)
        while index >= 0:
            spans.append((max(0, index - before), min(size, index + len(anchor) + after)))
            index = low.find(anchor, index + 1)
    return _merge(spans)


def on_its_line(pattern: re.Pattern[str] | LazyPattern, text: str, start: int, end: int) -> bool:
    """Whether ``pattern`` finds something on the line(s) that hold ``text[start:end]``: a word
    that says what a number after a common name is ("BCBS member ID …", "car reg …")."""
    line = text.rfind("\n", 0, start) + 1
    stop = text.find("\n", end)
    return pattern.search(text, line, len(text) if stop < 0 else stop) is not None
