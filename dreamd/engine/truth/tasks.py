"""Action items in a note, the lines that say one is done, and how the two are matched.

A line of a note (list marker, ``[HH:MM]`` stamp and ``User:`` label set aside) **opens** an
item when it is:

* an unchecked box: ``- [ ] send the Halvorsen invoice``;
* a ``TODO``/``To-do`` line: ``TODO: book the MOT``;
* a request to be reminded: ``… remind me to renew the passport`` (the item is what follows);
* a need of the person's own: ``need to call the plumber``, ``I/we (still) need to …``,
  ``don't forget to …``.

A line **says done** when it is a checked box (``- [x] …``), opens with ``done``/``finished``/
``completed`` (``Done: invoice``), tells a completion in the past tense (``Sent the invoice to
Halvorsen``, ``Booked the MOT``, ``Paid the plumber``, ``Called the dentist``...), or says so at
its end (``the invoice is sent``, ``passport: done``). A question, a heading, a guest's line
(:func:`dreamd.engine.intake.is_guest_line`), a line in a code fence and a line in one of
dreamd's own blocks (:func:`dreamd.engine.text.blocks.blank_managed`) are neither.

**Matching** (:func:`coverage`): both texts are cut to their content words (stop words and the
cue words above dropped, a past tense taken to its present: ``sent`` is ``send``, ``booked``
``book``) and two words agree when equal or when ``rapidfuzz`` finds them one typo apart. The
coverage is the share of the item's words the other line names. Pure; ``rapidfuzz`` is
imported on the first comparison of two words that are not equal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from dreamd.engine.intake import is_guest_line
from dreamd.engine.text.blocks import blank_managed
from dreamd.engine.text.claims import claim_tokens
from dreamd.engine.text.concepts import STOP_WORDS
from dreamd.engine.text.snippets import collapse
from dreamd.redaction import redact

__all__ = ["MAX_ITEM_CHARS", "Item", "coverage", "note_items", "task_words"]

MAX_ITEM_CHARS = 200
TYPO_RATIO = 86.0  # two words of five letters or more this close are one word misspelt

_I = re.IGNORECASE
_PREFIX = re.compile(
    r"^\s*(?:[-*+]|\d{1,3}[.)])?\s*(?:\[\d{1,2}:\d{2}\]\s*)?(?:(?:user|me)\s*:\s*)?", _I
)
_OPEN_BOX = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+\[ \]\s+(?P<text>\S.*)$")
_DONE_BOX = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+\[[xX]\]\s+(?P<text>\S.*)$")
_TODO = re.compile(r"^(?:todo|to-do|to\s+do)\b\s*[:\-–—]?\s*(?P<text>\S.*)$", _I)
_REMIND = re.compile(r"\bremind\s+(?:me|us)\s+to\s+(?P<text>\S.*)$", _I)
_NEED = re.compile(
    r"^(?:(?:i|we)\s+)?(?:still\s+|really\s+|also\s+)?need\s+to\s+(?P<text>\S.*)$"
    r"|^(?:don'?t|do\s+not)\s+forget\s+to\s+(?P<forget>\S.*)$",
    _I,
)
_DONE_HEAD = re.compile(r"^(?:done|finished|completed)\b\s*[:\-–—]?\s*(?P<text>\S.*)$", _I)
_DONE_VERB = re.compile(
    r"^(?:(?:i|we|just|finally|already|have|has|ve)\s+)*(?:sent|paid|booked|called|rang|phoned|"
    r"emailed|e-mailed|texted|bought|ordered|renewed|submitted|filed|fixed|finished|completed|"
    r"signed|returned|posted|picked\s+up|dropped\s+off|collected|handed\s+in|cancelled|"
    r"canceled|replied|printed|wrote|scheduled|sorted|cleaned|repaired|mailed|delivered|"
    r"uploaded|chased)\b",
    _I,
)
_DONE_TAIL = re.compile(
    r"(?:\b(?:is|are|was|were|now|all)\s+(?:now\s+)?(?:done|sent|paid|booked|sorted|finished|"
    r"renewed|submitted|fixed|signed|handled)|[:\-–—]\s*(?:done|sorted|finished)|\bdone)"
    r"\s*[.!✓✅]*\s*$",
    _I,
)
_FENCE = re.compile(r"^\s*(?:```|~~~)")
# One cheap look first (substrings of the folded line): a line with none of these is neither an
# item nor a done line.
_ANY_CUE = (
    "[ ]", "[x]", "todo", "to-do", "to do", "remind", "need", "forget", "done", "finish",
    "complet", "sent", "paid", "book", "call", "rang", "phoned", "mail", "texted", "bought",
    "order", "renew", "submit", "filed", "fix", "sign", "return", "post", "pick", "drop",
    "collect", "hand", "cancel", "repl", "print", "wrote", "schedul", "sort", "clean", "repair",
    "deliver", "upload", "chase",
)  # fmt: skip
_CUE_WORDS = frozenset(
    """
    todo remind need needs forget don't done finished completed finally already just still
    also really sorted now all yesterday today tomorrow tonight morning afternoon evening
    earlier later soon asap please
    """.split()
)
_IRREGULAR = {
    "sent": "send",
    "paid": "pay",
    "bought": "buy",
    "rang": "ring",
    "wrote": "write",
    "written": "write",
    "made": "make",
    "took": "take",
    "taken": "take",
    "brought": "bring",
    "gave": "give",
    "given": "give",
    "told": "tell",
    "sold": "sell",
    "met": "meet",
    "found": "find",
    "spoke": "speak",
    "left": "leave",
    "phoned": "call",
    "phone": "call",
    "ring": "call",
    "e-mailed": "email",
    "mailed": "mail",
    "canceled": "cancel",
}


@dataclass(frozen=True, slots=True)
class Item:
    """One line of a note: an item it opens (``open``) or says is done (``done``)."""

    kind: str  # "open" or "done"
    text: str  # the item as the note gives it, one line, capitalised
    path: str  # the note
    line: int  # 1-based
    day: str  # the note's day
    boxed: bool = False  # a checkbox line


def _clean(text: str) -> str:
    text = collapse(text).strip().rstrip(":;,").strip()
    if len(text) > MAX_ITEM_CHARS:
        text = text[: MAX_ITEM_CHARS - 1].rstrip() + "…"
    return text[:1].upper() + text[1:]


def _read_line(raw: str) -> tuple[str, str, bool] | None:
    """``(kind, text)`` when ``raw`` opens an item or says one is done (see the module rules)."""
    folded = raw.casefold()
    if not any(cue in folded for cue in _ANY_CUE) or raw.lstrip().startswith(
        ("#", ">", "<!--", "|")
    ):
        return None
    if is_guest_line(raw):
        return None
    found = _OPEN_BOX.match(raw)
    if found is not None:
        return "open", found.group("text"), True
    found = _DONE_BOX.match(raw)
    if found is not None:
        return "done", found.group("text"), True
    body = collapse(_PREFIX.sub("", raw, count=1))
    if not body or body.endswith(("?", "？")):
        return None
    for pattern in (_TODO, _REMIND, _NEED):
        found = pattern.search(body)
        if found is not None:
            return "open", found.group("text") or found.group("forget") or "", False
    found = _DONE_HEAD.match(body)
    if found is not None:
        return "done", found.group("text"), False
    if _DONE_VERB.match(body) or _DONE_TAIL.search(body[-60:]):  # it ends the line: look there
        return "done", body, False
    return None


def note_items(path: str, day: str, text: str) -> tuple[Item, ...]:
    """The items ``text`` (the note at ``path``, of ``day``) opens and says are done."""
    items: list[Item] = []
    fenced = False
    for number, raw in enumerate(blank_managed(text).split("\n"), start=1):
        if _FENCE.match(raw):
            fenced = not fenced
            continue
        if fenced:
            continue
        read = _read_line(raw)
        if read is None:
            continue
        kind, body, boxed = read
        cleaned = redact(_clean(body))  # kept in machine state: never a secret as written
        if task_words(cleaned):
            items.append(Item(kind, cleaned, path, number, day, boxed))
    return tuple(items)


def _word(token: str) -> str:
    token = _IRREGULAR.get(token, token)
    for suffix in ("ing", "ed", "s"):
        if token.endswith(suffix) and len(token) - len(suffix) >= 3 and not token.endswith("ss"):
            token = token[: -len(suffix)]
            break
    return _IRREGULAR.get(token, token).rstrip("e") or token


@lru_cache(maxsize=4096)
def task_words(text: str) -> frozenset[str]:
    """The content words ``text`` is matched by (see the module rules)."""
    words = set()
    for token in claim_tokens(text):
        token = token.removesuffix("'s")
        if len(token) < 3 or token in STOP_WORDS or token in _CUE_WORDS or token.isdigit():
            continue
        words.add(_word(token))
    return frozenset(words)


def _agree(left: str, right: str) -> bool:
    if left == right:
        return True
    if min(len(left), len(right)) < 5:
        return False
    from rapidfuzz import fuzz

    return fuzz.ratio(left, right) >= TYPO_RATIO


def coverage(item: str, other: str) -> float:
    """The share of ``item``'s words that ``other`` names (0.0 when ``item`` has none)."""
    wanted, given = task_words(item), task_words(other)
    if not wanted or not given:
        return 0.0
    named = sum(1 for word in wanted if any(_agree(word, seen) for seen in given))
    return named / len(wanted)
