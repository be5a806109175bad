"""Sentences of a statement: where a note's line holds more than one claim.

A sentence ends at ``.``, ``!`` or ``?`` (closing quotes and brackets after it belong to it)
followed by whitespace and then a capital letter, a digit, an opening quote or bracket, or a CJK
character; at ``。``, ``！`` or ``？`` anywhere. Not an end: a full stop inside parentheses or
brackets, after a single capital letter (an initial: ``J. Smith``), after a common abbreviation
(``e.g.``, ``i.e.``, ``etc.``, ``vs.``, ``Dr.``, ``Mr.``, ``Mrs.``, ``Ms.``, ``St.``, ``approx.``,
``no.``, ``fig.``), or inside a number, version or host name (no whitespace follows). Each
sentence keeps its own punctuation and is whitespace-collapsed, so joining the sentences with
single spaces gives the collapsed text back. Pure.
"""

from __future__ import annotations

import re

from dreamd.engine.text.snippets import collapse

__all__ = ["sentences"]

_ABBREVIATIONS = frozenset(
    "e.g i.e etc vs dr mr mrs ms st approx no fig cf al jr sr prof inc ltd co".split()
)
_LATIN_END = re.compile(
    r"[.!?][\"'”’)\]]*(?=\s+[\"'“‘(\[\dA-Z\u00c0-\u00de\u3040-\u9fff\uac00-\ud7af])"
)
_CJK_END = re.compile(r"[。！？][\"'”’」』)\]]*")
_WORD_BEFORE = re.compile(r"([\w.]+)$")


def _depth_at(text: str, index: int) -> int:
    depth = 0
    for char in text[:index]:
        if char in "([":
            depth += 1
        elif char in ")]" and depth:
            depth -= 1
    return depth


def _is_end(text: str, index: int) -> bool:
    if text[index] != ".":
        return _depth_at(text, index) == 0
    word = _WORD_BEFORE.search(text[:index])
    token = word.group(1).lower() if word else ""
    if len(token) == 1 and token.isalpha() and text[index - 1].isupper():
        return False
    if token.rstrip(".") in _ABBREVIATIONS:
        # "no." abbreviates a number only before one: "Oh no. It's Hald." ends a sentence
        return token.rstrip(".") == "no" and not re.match(r"\s*\d", text[index + 1 :])
    return _depth_at(text, index) == 0


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (see the module rules); one item when there is one sentence."""
    body = collapse(text)
    if not body:
        return []
    cuts = [m.end() for m in _CJK_END.finditer(body) if m.end() < len(body)]
    cuts += [m.end() for m in _LATIN_END.finditer(body) if _is_end(body, m.start())]
    found, start = [], 0
    for cut in sorted(set(cuts)):
        piece = body[start:cut].strip()
        if piece:
            found.append(piece)
        start = cut
    tail = body[start:].strip()
    if tail:
        found.append(tail)
    return found
