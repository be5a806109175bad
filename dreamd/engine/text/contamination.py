"""Contamination: text that must never be recorded, ranked or promoted.

Two families. *Echoes* of dreaming's own output: a promotion marker, the diary prompt, or a staging
line (``Candidate:``/``Reflection:`` with ``confidence:``, ``evidence:``, ``status: staged`` and
``recalls:``) - promoting those creates a feedback loop. *Trace noise*: shell command listings,
score metadata, or half sentences under three words - the junk users most often found in MEMORY.md.
Two words that end a sentence (``Prefer tea.``) are a whole claim, not a half one. Every gate that
checks one checks both, through :func:`is_contaminated`.
"""

from __future__ import annotations

import re

from dreamd.engine.text.snippets import collapse
from dreamd.patterns import LazyPattern

__all__ = ["contamination_reason", "is_contaminated"]

_PROMOTION_MARKER = LazyPattern(r"<!--\s*(?:dreamd|openclaw)-memory-promotion:", re.IGNORECASE)
_DIARY_ECHO = LazyPattern(
    r"Write a dream diary entry from these memory fragments|dreaming-narrative", re.IGNORECASE
)
_STAGING_PREFIX = LazyPattern(
    r"^(?:[\[(]|@@ -\d+(?:,\d+)? [-+]\d+(?:,\d+)? @@|[-*+>]|\d+[.)]|\s)*"
    r"(?:Candidate|Reflections?|Theme)\s*:",
    re.IGNORECASE,
)
_STAGING_LEAD = LazyPattern(r"(?:Candidate|Reflections?)\s*:", re.IGNORECASE)
_STAGING_FIELDS = (
    LazyPattern(r"confidence:\s*\d", re.IGNORECASE),
    LazyPattern(r"evidence:\s*\S*memory/", re.IGNORECASE),
    LazyPattern(r"status:\s*staged", re.IGNORECASE),
    LazyPattern(r"recalls:\s*\d", re.IGNORECASE),
)
_SCORE_METADATA = LazyPattern(r"\[score=\d[^\]]*(?:recalls|signals|avg)=[^\]]*\]", re.IGNORECASE)
_PROMPT_LINE = LazyPattern(r"^(?:[-*+]\s+)?(?:\$|\?\?|>>>)\s+\S")
_COMMANDS = frozenset(
    "sudo git npm npx pnpm yarn pip pipx uv cd ls cat rm mv cp mkdir chmod chown curl wget"
    " docker kubectl make python python3 node openclaw dreamd systemctl journalctl brew apt".split()
)
_SUBCOMMANDS = frozenset(
    "status diff log show commit push pull fetch add checkout switch merge rebase install run"
    " build test exec ps up down restart start stop".split()
)
_SHELL_TOKEN = LazyPattern(r"^[-\w./:@=~*+,%]+$")
_PATHLIKE = LazyPattern(r"^-|/|\.\w{1,5}$")
_WORDS = LazyPattern(r"[^\W\d_][\w'’-]*")
_WHOLE_SENTENCE = LazyPattern(r"[^\W\d_][\w'’-]*[.!]$")
_CJK = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]"  # compiled on first use:
# a class this wide takes milliseconds to compile, and most text is ASCII (no CJK to look for)


def _is_staging_echo(text: str) -> bool:
    head = text[:240]
    if not (_STAGING_PREFIX.match(text) or _STAGING_LEAD.search(head[:200])):
        return False
    return all(pattern.search(text) for pattern in _STAGING_FIELDS)


def _is_command_listing(text: str) -> bool:
    body = re.sub(r"^[-*+]\s+", "", text).strip("`")
    if _PROMPT_LINE.match(text):
        return True
    tokens = body.split()
    if not tokens or tokens[0] not in _COMMANDS:
        return False
    args = tokens[1:]
    if not all(_SHELL_TOKEN.match(token) for token in args):
        return False
    return not args or args[0] in _SUBCOMMANDS or any(_PATHLIKE.search(a) for a in args)


def _is_half_sentence(text: str) -> bool:
    body = re.sub(r"^[-*+>\s]+|^\d+[.)]\s*", "", text)
    cjk = 0 if body.isascii() else len(re.findall(_CJK, body))
    if cjk:
        return cjk < 4
    words = len(_WORDS.findall(body))
    return words < 2 or (words == 2 and not _WHOLE_SENTENCE.search(body))


def contamination_reason(snippet: str) -> str | None:
    """Why ``snippet`` is contaminated (a short phrase), or ``None`` when it is clean."""
    text = collapse(snippet)
    if _PROMOTION_MARKER.search(text):
        return "promotion marker"
    if _DIARY_ECHO.search(text):
        return "diary prompt echo"
    if _is_staging_echo(text):
        return "staging output"
    if _SCORE_METADATA.search(text):
        return "score metadata"
    if _is_command_listing(text):
        return "command listing"
    if _is_half_sentence(text):
        return "half sentence"
    return None


def is_contaminated(snippet: str) -> bool:
    """True when ``snippet`` must never be recorded, ranked or promoted."""
    return contamination_reason(snippet) is not None
