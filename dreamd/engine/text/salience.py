"""Attention and salience: which messages are worth remembering, and what kind each one is.

Attention drops pure greetings and acknowledgements: a text under 20 characters without a
content word ("ok", "thanks!", "hola", "merci", "好的"). Salience tags every kept text with one
kind, by cue words in English, Spanish, French, German and CJK, first match wins in this order:
``correction``, ``decision``, ``error``, ``insight``, ``completed``, else ``event``.
Corrections, errors, decisions, insights and completions are *high* salience (the amygdala's
HIGH weight): light stages them first, their session signals weigh more, and the graph's
pattern mining, REM's themes and the dream report put them first. The deep score does not
read the weight (it stays OpenClaw's). Deterministic and explainable; pure. The cue patterns
are slow on long lines, so an ASCII line that holds none of their literal starts is an event
without running them, and a kind's pattern runs only on an ASCII line that holds one of that
kind's literal starts (the same answer, a fraction of the searches).
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["HIGH", "KINDS", "has_cue", "is_noise", "kind_of", "weight"]

KINDS = ("event", "decision", "correction", "completed", "insight", "error")
HIGH = frozenset({"decision", "correction", "error", "insight", "completed"})

_CUES: tuple[tuple[str, str], ...] = (
    (
        "correction",
        r"\bactually\b|\bcorrection\b|\bi was wrong\b|\bthat'?s (?:wrong|not right|incorrect)\b"
        r"|\bnot \w+,? but\b|\bscratch that\b|\bto correct\b|\bmy mistake\b|\ben realidad\b"
        r"|\bcorrijo\b|\ben fait\b|\bje me suis trompé|\beigentlich\b|\bkorrektur\b"
        r"|\bich habe mich geirrt"
        r"|更正|纠正|其实|訂正|実は|정정|사실은",
    ),
    (
        "decision",
        r"\bdecid(?:e|ed|ing)\b|\bdecision\b|\bwe'll (?:use|go|ship|keep|switch)"
        r"|\bwe will (?:use|go|ship|keep|switch)"
        r"|\blet'?s (?:go with|use|keep)\b|\bgoing with\b|\bchose\b|\bchosen\b|\bagreed\b"
        r"|\bfrom now on\b|\bdecidimos\b|\bdecidido\b|\bdécid|\bon garde\b|\bentschieden\b"
        r"|\bbeschlossen\b|决定|选择了|決定|決めた|결정",
    ),
    (
        "error",
        r"\berror\b|\bfail(?:ed|s|ure)?\b|\bexception\b|\btraceback\b|\bcrash(?:ed|es)?\b|\bbug\b"
        r"|\bbroken\b|\boutage\b|\bfehler\b|\bfallo\b|\bpanne\b|\bérreur|\berreur\b"
        r"|\bmy (?:doing|fault|slip|bad)\b|\bby mistake\b|\bmistakenly\b|\bwrong (?:day|time|date|"
        r"account|address|number|person|list|file|price|version)\b|\bcaught it before\b"
        r"|\bshould(?:n't| not)? have (?:checked|asked|looked|sent|waited|used)\b"
        r"|\bapolog(?:y|ies|i[sz]ed)\b"
        r"|\bi(?:'d| had) (?:put|added|sent|used|copied|booked|offered|entered|typed|drafted)\b"
        r"[^.;]{0,60}\bagain\b"
        r"|错误|失败|报错|エラー|失敗|오류|실패",
    ),
    (
        "insight",
        r"\blearn(?:ed|t)\b|\brealized?\b|\bturns out\b|\binsight\b|\blesson\b|\bnote to self\b"
        r"|\btil\b|\baprendí\b|\bresulta que\b|\bj'ai compris\b|\bleçon\b"
        r"|\bgelernt\b|\berkenntnis\b|发现|原来|学到|分かった|気づいた|깨달",
    ),
    (
        "completed",
        r"\bdone\b|\bfinished\b|\bcompleted?\b|\bshipped\b|\bmerged\b|\bdeployed\b|\bfixed\b"
        r"|\breleased\b|\bterminé\b|\bhecho\b|\bterminado\b|\berledigt\b|\bfertig\b"
        r"|完成|已完成|終わった|完了|완료",
    ),
)
_COMPILED = tuple((kind, re.compile(pattern, re.IGNORECASE)) for kind, pattern in _CUES)


def _cue_literals(cues: tuple[tuple[str, str], ...] = _CUES) -> tuple[str, ...]:
    """The literal start of every ASCII cue (``fail`` of ``fail(?:ed|s|ure)?``): an ASCII line
    that holds none of them cannot match, so the cue patterns (slow on long lines) are skipped."""
    found: set[str] = set()
    for _, pattern in cues:
        for alternative in pattern.split("|"):
            literal = re.match(r"\\b([a-z' ]+)", alternative)
            if literal is None:
                continue  # a CJK or accented cue: a non-ASCII line runs every pattern
            text = literal.group(1)
            rest = alternative[literal.end() :]
            if rest[:1] and not rest[:1].isascii():
                continue  # "décid", "leçon": an ASCII line cannot hold it
            if rest[:1] in ("?", "*", "{"):
                text = text[:-1]  # its last letter is optional
            found.add(text)
    return tuple(sorted(found, key=len))


def _starts(literals: tuple[str, ...]) -> re.Pattern[str]:
    """Any of ``literals`` at a word's start: every ASCII cue begins with ``\\b``."""
    return re.compile(r"\b(?:" + "|".join(re.escape(literal) for literal in literals) + ")")


_LITERALS = _cue_literals()
_ANY_LITERAL = _starts(_LITERALS)
_KIND_LITERALS = tuple(
    (kind, pattern, _starts(_cue_literals(((kind, cue),))))
    for (kind, pattern), (_, cue) in zip(_COMPILED, _CUES, strict=True)
)


def has_cue(text: str) -> bool:
    """False when no line of ``text`` can be anything but an event (asked once per section)."""
    if not text.isascii():
        return True
    lowered = text.lower()  # substrings: on a whole section, faster than one word-start search
    return any(literal in lowered for literal in _LITERALS)


_ACKS = frozenset(
    """
    ok okay okey kk k yes yeah yep yup no nope sure thanks thank thx ty cheers cool nice great
    good perfect awesome hi hello hey heya yo morning evening night bye goodbye cya lol haha
    hmm mhm right got it alright fine sounds gracias hola vale claro buenas adios merci salut
    bonjour oui non danke hallo tschüss ja nein gut super genau
    好 好的 谢谢 你好 嗯 是的 ありがとう こんにちは はい 了解 네 감사합니다 안녕하세요
    """.split()
)
_WORD = re.compile(r"[^\W\d_]+")


def is_noise(text: str) -> bool:
    """True for a short greeting or acknowledgement with no content word."""
    stripped = text.strip()
    if len(stripped) >= 20:
        return False
    words = [w.lower() for w in _WORD.findall(stripped)]
    return all(word in _ACKS or len(word) < 3 for word in words)


@lru_cache(maxsize=4096)
def kind_of(text: str) -> str:
    """The salience kind of ``text`` (see the module rules); memoised, as a sweep asks twice."""
    if not text.isascii():
        return next((kind for kind, pattern in _COMPILED if pattern.search(text)), "event")
    lowered = text.lower()
    if _ANY_LITERAL.search(lowered) is None:
        return "event"
    for kind, pattern, literals in _KIND_LITERALS:
        if literals.search(lowered) and pattern.search(text):
            return kind
    return "event"


def weight(text: str) -> float:
    """1.15 for high-salience kinds, else 1.0."""
    return 1.15 if kind_of(text) in HIGH else 1.0
