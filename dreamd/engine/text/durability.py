"""Durable claims and activity-log lines: what grounded replay may promote on its own.

A note replayed by grounded backfill has never been asked about, so nothing but its wording
says whether a line is worth keeping. A line reads as a **durable claim** when it states

* a decision, a preference, a procedure, an ownership or a relationship (cue words in English,
  Spanish, French, German, Chinese, Japanese and Korean: "decided", "prefers", "always",
  "before", "owns", "responsible for", "partner", "siempre", "préfère", "zuständig", "必ず",
  "负责"...), or
* a fact about a named thing: a proper name inside the sentence, an identifier or path
  (``db-02``, ``es-03.internal``, ``Europe/Berlin``), a version or a number;

and it is **filler** when it logs an activity: it opens with what someone did (``Worked``,
``Spent``, ``Had lunch``, ``Quick call with``, an open task: ``Need to``, ``Review``...) or
is bound to the moment (``today``, ``this morning``, ``went fine``, ``again``...), and states no
decision, preference, procedure or ownership; a line with neither kind of sign is filler too.
Numbers and names do not save an activity line ("Standup ran long today, 45 minutes of
status"). A chunk's ``Heading: body`` form is judged by its body, or as a whole when the body
alone states nothing (``Prefer UTC: yes``). Pure.
"""

from __future__ import annotations

import re

from dreamd.engine.text.snippets import collapse, strip_list_marker

__all__ = ["filler_reason", "is_durable_claim"]

_I = re.IGNORECASE
_CUES = re.compile(
    r"\b(?:decided|decide[sd]?|decision|agreed|agree[sd]?|chose|chosen|going\s+forward|"
    r"from\s+now\s+on|standard|policy|switch(?:ed|es)?\s+to|mov(?:ed|es|ing)\s+to|migrat\w*\s+to|"
    r"will\s+use|we\s+use|prefers?|preferred|preference|likes|dislikes|favou?rite|rather\s+than|"
    r"instead\s+of|wants|always|never|(?:before|after)\s+\w+ing|must|make\s+sure|remember\s+to|"
    r"don't|do\s+not|"
    r"every\s+(?:day|week|month|quarter|year|monday|tuesday|wednesday|thursday|friday|"
    r"release|incident|deploy)|owns|owner|responsible\s+for|in\s+charge\s+of|maintains?|"
    r"maintainer|on-call\s+for|partner|wife|husband|spouse|girlfriend|boyfriend|fianc[ée]e?|"
    r"married\s+to|runs\s+on|hosted\s+on|lives\s+(?:in|at|on)|located|configured|"
    r"set\s+to|defaults?\s+to|uses|is\s+called|named|retention|deadline|due\s+on|"
    r"decidimos|decidió|siempre|nunca|prefiere|responsable|usamos|utiliza|décidé|décidons|"
    r"toujours|jamais|préfère|utilise|zuständig|verantwortlich|bevorzugt|immer|niemals|nie|"
    r"künftig|entschieden|verwendet)\b"
    r"|必ず|決定|決め|担当|好み|常に|决定|负责|总是|偏好|始终|항상|결정|담당|선호",
    _I,
)
_ACTIVITY_OPENER = re.compile(
    r"^(?:worked|spent|had|did|went|answered|finished|attended|reviewed|looked|talked|met|"
    r"chatted|walked|fixed|cleaned|caught\s+up|wrapped\s+up|started|continued|handled|dealt|"
    r"sorted|helped|joined|tried|took|got|grabbed|tired|busy|quick\s+(?:call|chat|sync)|"
    r"(?:lunch|coffee|call|chat|sync|meeting|standup|stand-up)\s+(?:with|ran|went|was)|"
    r"weather|needs?\s+to|follow\s+up|todo|to-do|review|ping|check\s+on|look\s+into|"
    r"trabajé|pasé|almorcé|travaillé|passé|déjeuné|gearbeitet|verbracht)\b",
    _I,
)
_MOMENT = re.compile(
    r"\b(?:today|tonight|yesterday|this\s+(?:morning|afternoon|evening|week)|last\s+night|"
    r"earlier|just\s+now|went\s+(?:fine|well|ok|okay)|as\s+usual|nothing\s+blocking|again|"
    r"hoy|ayer|aujourd'hui|hier|heute|gestern)\b|今日|昨日|今天|昨天|오늘|어제",
    _I,
)
_IDENTIFIER = re.compile(r"[^\W_]+(?:[-./:@][^\W_]+)+|`[^`]+`|\d")
_CAPITALISED = re.compile(r"(?<![.!?:]\s)(?<!^)\b[A-Z][\w'’-]+")


def _has_named_thing(text: str) -> bool:
    if _IDENTIFIER.search(text):
        return True
    return any(match.start() > 0 for match in _CAPITALISED.finditer(text))


def filler_reason(snippet: str) -> str | None:
    """Why ``snippet`` is not a durable claim ("activity log", "no claim"), or ``None``."""
    text = collapse(strip_list_marker(collapse(snippet)))
    if ": " in text[:40] and not _ACTIVITY_OPENER.match(text):
        head, body = text.split(": ", 1)
        if len(head.split()) <= 4:  # a chunk's "Heading: body" form: judge the body, unless
            judged = filler_reason(body)  # the body says nothing by itself ("Prefer UTC: yes")
            if judged != "no claim":
                return judged
    cue = bool(_CUES.search(text))
    if _ACTIVITY_OPENER.match(text) or _MOMENT.search(text):
        return None if cue else "activity log"
    if cue or _has_named_thing(text):
        return None
    return "no claim"


def is_durable_claim(snippet: str) -> bool:
    """True when ``snippet`` reads as something worth keeping (see the module rules)."""
    return filler_reason(snippet) is None
