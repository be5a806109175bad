"""The Dream Diary's prompt and the cleaning of what the model writes (SPEC §9). Pure.

The prompt gives up to 12 fragments, up to 6 themes, up to 5 promotions and the last 3 entries
(each cut to 360 characters) and asks for one first-person entry of 80-180 words, no headings,
no mention of AI or dreaming, with a fresh angle. Everything in the prompt is redacted first.
A reply is cleaned (headings, list markers, HTML comments and separator lines removed,
whitespace collapsed, redacted) and accepted at 20 to 300 words; anything else counts as a
failed diary, and the fixed fallback entry is written instead.

Without a model, :func:`compose_entry` writes a few plain sentences about the night's real
items, or nothing: what was kept for good and why (the kind of lasting fact it states,
:func:`dreamd.engine.facts.lasting.lasting`), what no longer holds and what replaced it, what
was set aside to make room, and which mistake keeps coming back (with what worked, when the
notes say). Items are quoted, so different material gives a different entry; with none of
these (staged fragments and themes alone are no story), there is no entry at all. An order
addressed to the agent or a hidden comment is never quoted. It never
lists keywords. The fixed fallback stays for a configured model that failed.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from dreamd.engine.facts.lasting import lasting
from dreamd.engine.facts.render import fact_text
from dreamd.engine.facts.statement import read_statement
from dreamd.engine.phases.light import is_unfit
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


_WHY = {
    "identity": "it says who someone is",
    "preference": "it is a preference that will matter again",
    "rule": "it is a rule to keep",
    "procedure": "it is a way of doing things that worked",
    "schedule": "it is a standing arrangement",
    "decision": "it is a decision that stands",
    "fact": "it is a fact worth having at hand",
}
_KEPT = (
    "I kept {item} for good, because {why}.",
    "{item} is now part of what I remember for good: {why}.",
    "From tonight I remember {item}; {why}.",
)
MAX_QUOTE = 140


def _quote(text: str) -> str:
    text = collapse(redact(text)).strip().rstrip(".")
    if len(text) > MAX_QUOTE:
        text = text[: MAX_QUOTE - 1].rsplit(" ", 1)[0] + "…"
    return f"“{text}”"


def _pick(options: Sequence[str], seed: str) -> str:
    return options[int(hashlib.sha256(seed.encode("utf-8")).hexdigest()[:8], 16) % len(options)]


def _kept(text: str, seed: str) -> str:
    verdict = lasting(fact_text(text), read_statement(text))
    why = _WHY.get(verdict.kind, "it came up often enough to last")
    sentence = _pick(_KEPT, seed + text).format(item=_quote(text), why=why)
    return sentence[0].upper() + sentence[1:]


def compose_entry(
    *,
    promotions: Sequence[str],
    replaced: Sequence[tuple[str, str]] = (),
    archived: Sequence[str] = (),
    patterns: Sequence[tuple[str, int, str]] = (),
    recent: Sequence[str] = (),
) -> str | None:
    """A diary entry from the night's items, without a model, or ``None`` when the night has
    nothing to tell (see the module rules). ``patterns``: (what goes wrong, times, what worked)."""
    promotions = [text for text in promotions if not is_unfit(text)]
    replaced = [(old, new) for old, new in replaced if not is_unfit(old) and not is_unfit(new)]
    seed = "|".join([*promotions, *(old for old, _ in replaced), *(p[0] for p in patterns)])
    sentences = [_kept(text, seed) for text in promotions[:2]]
    if len(promotions) > 2:
        sentences.append(f"{len(promotions) - 2} more line(s) of the notes went the same way.")
    for old, new in replaced[:2]:
        sentences.append(f"{_quote(old)} no longer holds; {_quote(new)} took its place.")
    if archived:
        entries = "entry" if len(archived) == 1 else "entries"
        sentences.append(
            f"To make room, I moved {len(archived)} older {entries} to the archive, where "
            "nothing is lost."
        )
    for name, days, fix in patterns[:2]:
        sentence = f"One mistake keeps coming back, {days} times now: {_quote(name)}."
        if fix:
            sentence += f" What worked: {_quote(fix)}."
        sentences.append(sentence)
    if not sentences:
        return None
    entry = redact(collapse(" ".join(sentences)))
    return None if recent and entry == recent[-1] else entry
