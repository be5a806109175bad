"""A line of memory as a fact a person reads in MEMORY.md: one sentence with its subject.

A chunk's ``Heading: body`` loses a category heading (``Decisions``, ``People``, ``Notes``...: the
body says it all); a heading that names someone or something stays as the subject: ``Mia: swimming
moved to Thursdays.``, and a body that opens with a pronoun takes the name instead (``Ingrid: She
prefers calls`` -> ``Ingrid prefers calls``). A transcript line loses its ``[agent/session#L3]
User:`` prefix, a Retain bullet its type and confidence (``O(c=0.8) @Peter: prefers voice notes``
-> ``Peter prefers voice notes``; a body that does not open with a verb keeps a colon: ``W @Breda:
herd number ends 4471`` -> ``Breda: herd number…``), an ancestor chain its ``>`` (``Kitchen >
budget is 22k`` -> ``Kitchen: budget is 22k``). The first letter is capitalised and the sentence
ends with a full stop when it ends with none. Pure.
"""

from __future__ import annotations

import re

from dreamd.engine.facts.statement import (
    CATEGORY_HEADINGS,
    RETAIN,
    SUBJECT_VERBS,
    split_heading,
)
from dreamd.engine.text.snippets import collapse, strip_list_marker

__all__ = ["fact_text", "strip_speaker"]

_SPEAKER = re.compile(r"^\s*\[[^\]\s]+#L\d+\]\s+(?:User|Assistant|Guest|Assistant to guest):\s*")
_PRONOUN = re.compile(r"^(?:she|he|they|it)\b\s*", re.IGNORECASE)
_WORD = re.compile(r"[^\W_][\w'’-]*")


def strip_speaker(text: str) -> str:
    """``text`` without a transcript line's ``[agent/session#Ln] User:`` prefix."""
    return _SPEAKER.sub("", text, count=1)


def _is_category(heading: str) -> bool:
    words = [w.casefold() for w in _WORD.findall(heading)]
    return not words or all(w in CATEGORY_HEADINGS for w in words)


def _subject_in(name: str, body: str) -> bool:
    first = name.split()[0].casefold()
    return first in {w.casefold().removesuffix("'s") for w in _WORD.findall(body)}


def fact_text(text: str) -> str:
    """``text`` as one readable sentence with its subject (see the module rules)."""
    text = collapse(strip_list_marker(collapse(strip_speaker(text))))
    heading, body = split_heading(text)
    if heading is not None and _is_category(heading) and RETAIN.match(body):
        text = body  # "Retain: W @Jonas: ..." reads as the Retain bullet it is
    retain = RETAIN.match(text)
    if retain is not None:
        entity, body = retain.group("entity"), retain.group("body").strip()
        if entity and not _subject_in(entity, body):
            first = body.split()[0].casefold() if body.split() else ""
            verb = first in SUBJECT_VERBS or first.removesuffix("s") in SUBJECT_VERBS
            body = f"{entity} {body[:1].lower()}{body[1:]}" if verb else f"{entity}: {body}"
        text = body
    else:
        heading, body = split_heading(text)
        if " > " in text and heading is not None:
            body = collapse(text.split(": ", 1)[1].replace(" > ", ": "))
        if heading is None or _is_category(heading) or _subject_in(heading, body):
            text = body
        elif _PRONOUN.match(body):
            text = f"{heading} {_PRONOUN.sub('', body, count=1)}"
        else:
            text = f"{heading}: {body}"
    text = text.strip()
    if not text:
        return text
    text = text[:1].upper() + text[1:]
    if text[-1] not in ".!?…)\"'”»:" and not text.endswith("..."):
        text += "."
    return text
