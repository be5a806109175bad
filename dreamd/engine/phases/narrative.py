"""The Dream Diary's prompt and the cleaning of what the model writes (SPEC §9). Pure.

The prompt gives up to 12 fragments, up to 6 themes, up to 5 promotions and the last 3 entries
(each cut to 360 characters) and asks for one first-person entry of 80-180 words, no headings,
no mention of AI or dreaming, with a fresh angle. Everything in the prompt is redacted first.
A reply is cleaned (headings, list markers, HTML comments and separator lines removed,
whitespace collapsed, redacted) and accepted at 20 to 300 words; anything else counts as a
failed diary, and the fixed fallback entry is written instead.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dreamd.engine.text.snippets import collapse
from dreamd.redaction import redact

__all__ = ["SYSTEM_PROMPT", "clean_entry", "diary_messages"]

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
