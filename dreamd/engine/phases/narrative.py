"""The Dream Diary's prompt and the cleaning of what the model writes (SPEC §9). Pure.

The prompt gives up to 12 fragments, up to 6 themes, up to 5 promotions and the last 3 entries
(each cut to 360 characters) and asks for one first-person entry of 80-180 words, no headings,
no mention of AI or dreaming, with a fresh angle. Everything in the prompt is redacted first.
A reply is cleaned (headings, list markers, HTML comments and separator lines removed,
whitespace collapsed, redacted) and accepted at 20 to 300 words; anything else counts as a
failed diary, and the fixed fallback entry is written instead.

Without a model, :func:`compose_entry` writes the entry from the night's own material: its
themes, what was promoted, the patterns that formed or grew and what a fragment of the notes is
about (its keywords: a fragment quoted whole would count as told, and light would stage it
last). Each sentence has several phrasings; the phrasing is chosen from the material, and never
the one the previous entry opened with, so two nights with different material never read
alike. The fixed fallback stays for a configured model that failed.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from dreamd.engine.graph.keywords import line_keywords
from dreamd.engine.text.snippets import collapse
from dreamd.redaction import redact

__all__ = ["SYSTEM_PROMPT", "clean_entry", "compose_entry", "diary_messages"]

SYSTEM_PROMPT = (
    "You keep a private dream diary. Write exactly one entry, in the first person, in a curious, "
    "gentle and slightly whimsical voice: a poet who happens to be a programmer. Weave only the "
    "memory fragments you are given into it; a tiny poem, a quiet aside or an unexpected link "
    "between fragments is welcome. Never say that you are dreaming and never mention AI, agents, "
    "models or assistants. No headings, no lists, no formatting. Between 80 and 180 words. "
    "Answer with the entry only."
)
_HEADING = re.compile(r"^\s*#{1,6}\s*", re.MULTILINE)
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+", re.MULTILINE)
_COMMENT = re.compile(r"<!--.*?-->|<!--|-->", re.DOTALL)
_RULE = re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,})\s*$", re.MULTILINE)


def _cut(text: str, limit: int) -> str:
    text = collapse(redact(text))
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def diary_messages(
    *,
    fragments: Sequence[str],
    themes: Sequence[str],
    promotions: Sequence[str],
    recent: Sequence[str],
    date_line: str,
) -> list[dict[str, str]]:
    """The chat messages that ask for one diary entry."""
    lines = ["Write a dream diary entry from these memory fragments:"]
    lines += [f"- {_cut(text, 280)}" for text in fragments[:12]]
    if themes:
        lines += ["", "Recurring themes:", *(f"- {_cut(text, 120)}" for text in themes[:6])]
    if promotions:
        lines += ["", "Memories that crystallized into something lasting:"]
        lines += [f"- {_cut(text, 280)}" for text in promotions[:5]]
    lines += ["", "Diary continuity context:", f"- Current sweep: {date_line}"]
    lines += [f"- Recent entry: {_cut(text, 360)}" for text in recent[-3:]]
    lines.append(
        "Prefer a fresh angle; do not replay the same first-day framing unless newer fragments "
        "change it."
    )
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": "\n".join(lines)},
    ]


def clean_entry(reply: str) -> str | None:
    """The reply as a diary entry, or ``None`` when it is not usable."""
    text = _COMMENT.sub(" ", reply)
    text = _RULE.sub(" ", text)
    text = _HEADING.sub("", text)
    text = _BULLET.sub("", text)
    text = collapse(redact(text.replace("*", "").replace("`", "")))
    words = len(text.split())
    return text if 20 <= words <= 300 else None


_OPENINGS = (
    "Tonight the notes kept circling back to {themes}.",
    "{themes} came up again and again in tonight's pages.",
    "What stood out tonight was {themes}.",
    "The night's pages leaned towards {themes}.",
)
_QUIET = (
    "A quiet night, spent with {fragment}.",
    "One line stayed with me tonight, about {fragment}.",
    "Little happened, but {fragment} remained.",
)
_PROMOTED = (
    "Something settled into long-term memory: {items}.",
    "I kept {items} for the long run.",
    "{items} crossed over into what I remember for good.",
)
_PATTERNS = (
    "A habit is taking shape: {items}.",
    "I noticed it again, and now it has a name: {items}.",
    "Some mistakes repeat; I wrote them down as patterns: {items}.",
)


def _pick(options: Sequence[str], seed: str, avoid: str) -> str:
    """A phrasing chosen by ``seed``, never the one whose opening words start ``avoid``."""
    start = int(hashlib.sha256(seed.encode("utf-8")).hexdigest()[:8], 16) % len(options)
    for step in range(len(options)):
        option = options[(start + step) % len(options)]
        head = option.split("{", 1)[0].strip()
        if not head or not avoid.startswith(head):
            return option
    return options[start]


def _listed(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _gist(text: str) -> str:
    """What a fragment is about, in its keywords: quoting it whole would make light take it
    for a fragment the diary already told."""
    words = line_keywords(collapse(redact(text)))[:3]
    return _listed(words) if words else "a few plain words"


def compose_entry(
    *,
    themes: Sequence[str],
    promotions: Sequence[str],
    patterns: Sequence[str],
    fragments: Sequence[str],
    recent: Sequence[str],
) -> str:
    """A diary entry from the night's material, without a model (see the module rules)."""
    previous = recent[-1] if recent else ""
    seed = "|".join([*themes, *promotions, *patterns, *fragments[:3]])
    sentences = []
    if themes:
        opening = _pick(_OPENINGS, seed, previous).format(themes=_listed(list(themes[:3])))
    else:
        gist = _gist(fragments[0]) if fragments else "an empty page"
        opening = _pick(_QUIET, seed, previous).format(fragment=gist)
    sentences.append(opening[0].upper() + opening[1:])
    if promotions:
        gists = [_gist(text) for text in promotions[:2]]
        text = _pick(_PROMOTED, seed, "").format(items=_listed(gists))
        sentences.append(text[0].upper() + text[1:])
    if patterns:
        sentences.append(_pick(_PATTERNS, seed, "").format(items=_listed(list(patterns[:3]))))
    if themes and fragments:
        sentences.append(f"Among the fragments, something about {_gist(fragments[0])}.")
    return redact(collapse(" ".join(sentences)))
