"""Chunk labels: what the index records about a chunk besides its text, for field-aware ranking.

Rules:

- ``speaker`` is the label a line opens with: ``- Alice: ...``, ``**Alice**: ...``,
  ``[agent/session#L3] User: ...`` — one to three words, each starting with a capital letter (or an
  ``@Name``), then a colon and text. Only the chunk's first line is looked at. Ranking treats it
  as its own field: a question naming someone prefers what that someone said.
- ``entities`` are the chunk's ``@Name`` mentions, lowercased (a Retain fact's included).
- Under a ``Retain`` heading, a chunk whose first line is a fact (:mod:`dreamd.recall.retain`)
  gets the fact's ``kind`` (world, experience, opinion, observation) and ``confidence``.
- ``grams`` are the chunk's CJK characters and pairs (:func:`dreamd.recall.analysis.cjk_grams`).

Pure; cheap checks come first because every chunk of every file passes through here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from dreamd.recall.analysis import cjk_grams
from dreamd.recall.retain import is_retain_heading, mentions, parse_fact

__all__ = ["Labels", "label_chunk"]

_NAME_WORD = r"@?[^\W\d_][\w.'’-]*"
_SPEAKER = re.compile(
    r"^[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(?:\[[^\]\n]{1,80}\][ \t]*)?"
    rf"(?P<star>\*\*)?(?P<name>{_NAME_WORD}(?:[ \t]+{_NAME_WORD}){{0,2}})(?(star)\*\*)"
    r"[ \t]*:(?:\*\*)?[ \t]+\S"
)


@dataclass(frozen=True, slots=True)
class Labels:
    """What :func:`label_chunk` found; ``kind`` and ``confidence`` only for Retain facts."""

    speaker: str = ""
    entities: tuple[str, ...] = ()
    kind: str | None = None
    confidence: float | None = None
    grams: str = ""


_NONE = Labels()


def _speaker(first_line: str) -> str:
    found = _SPEAKER.match(first_line)
    if found is None:
        return ""
    name = found.group("name")
    if not all(word.lstrip("@")[:1].isupper() for word in name.split()):
        return ""
    return name


@lru_cache(maxsize=1024)
def _is_retain(heading: str) -> bool:
    return is_retain_heading(heading)


def label_chunk(text: str, heading: str) -> Labels:
    """The labels of a chunk with raw ``text`` under ``heading``."""
    first = text.partition("\n")[0]
    speaker = _speaker(first) if ":" in first else ""
    entities = tuple(name.lower() for name in mentions(text)) if "@" in text else ()
    grams = "" if text.isascii() else cjk_grams(text)
    kind = confidence = None
    if heading and _is_retain(heading):
        fact = parse_fact(first)
        if fact is not None:
            kind, confidence = fact.kind, fact.confidence
    if not (speaker or entities or grams or kind):
        return _NONE
    return Labels(speaker, entities, kind, confidence, grams)
