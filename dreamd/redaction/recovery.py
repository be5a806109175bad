"""Recovery codes and recovery keys: the codes a service gives for when the second factor is
lost, and BitLocker's recovery key.

* **A list under its heading.** A line that names recovery or backup codes, in the languages
  notes are written in or as a file name (``GitHub recovery codes``,
  ``github-recovery-codes.txt``, ``Wiederherstellungscodes``, ``kody zapasowe``, ``códigos de
  respaldo``, ``リカバリーコード``, ``备用码``…), then the lines after it (a blank line may come
  first): each line one to eight codes and nothing else, perhaps a list item or numbered
  (``1) 4821 0937``, ``- 8f3k-2m9x``). A code is four to twenty letters and digits, perhaps in
  groups joined by ``-`` or a space; the list ends at the first other line. The codes after
  the heading on its own line count the same way (``códigos de respaldo: 48213 90371 …``).
  Half of the codes at least hold a digit, so advice (``- print them``) is no list.
* **A key in groups after its word.** ``backup encryption key``, ``recovery key``, ``restore
  key``, then (on its line or the next) six groups or more of four or five letters or digits
  joined by spaces or dashes
  (WhatsApp's 64-digit backup key, FileVault's and Apple's recovery keys).
* **A BitLocker recovery key.** Eight blocks of six digits joined by ``-``, each block a
  multiple of 11 below 720896 (how BitLocker builds them), wherever it stands.

Pure; standard library only.
"""

from __future__ import annotations

import re
from functools import cache

from dreamd.redaction.finding import Finding
from dreamd.redaction.scan import windows

__all__ = ["find_recovery_codes"]

_HEADINGS = (
    "recovery code;backup code;scratch code;emergency code;recovery key code;one-time backup"
    ";wiederherstellungscode;backup-code;sicherungscode;codes de récupération;code de récupération"
    ";codes de secours;códigos de recuperación;códigos de respaldo;códigos de backup"
    ";códigos de recuperação;codici di backup;codici di recupero;herstelcode;back-upcode"
    ";kody zapasowe;kody odzyskiwania;kody awaryjne;kody jednorazowe;yedek kod;kurtarma kod"
    ";záložní kódy;obnovovací kódy;varmistuskoodi;återställningskod;reservkod;reservekode"
    ";gjenopprettingskode;коды восстановления;резервные коды;резервні коди;коди відновлення"
    ";mã dự phòng;mã khôi phục;kode cadangan;kode pemulihan;恢复代码;备用码;備用碼;復原碼"
    ";リカバリーコード;バックアップコード;복구 코드;백업 코드;رموز الاسترداد;رموز النسخ الاحتياطي"
    ";קודי שחזור;קודי גיבוי;κωδικοί ανάκτησης;κωδικοί ασφαλείας"
).split(";")
# Where a heading can be: every heading holds one of these (lower case).
_ANCHORS = (
    "code",
    "kod",
    "kód",
    "kood",
    "codi",
    "códi",
    "коды",
    "коди",
    "mã ",
    "kode",
    "代码",
    "码",
    "碼",
    "コード",
    "코드",
    "رموز",
    "קודי",
    "κωδικοί",
)
_MARKER = r"[ \t]*(?:>[ \t]*)*(?:(?:[-*+•]|\d{1,2}[.):])[ \t]+)?"
_CODE = r"[A-Za-z0-9]{4,20}(?:[- ][A-Za-z0-9]{3,20}){0,3}"
# A key in groups after the word that names it: ``backup encryption key: 4673 6355 …``,
# ``FileVault recovery key ABCD-EFGH-…``: six groups or more of four or five letters or digits,
# on the word's line or the next (``Apple … recovery key:`` and the key under it).
_GROUPED_KEY = re.compile(
    r"(?i:(?:encryption|recovery|backup|restore|rescue)[ \t]+key)[^\n\d]{0,24}?(?:\n[ \t]*)?"
    r"(?P<key>(?<![\w-])[0-9A-Za-z]{4,5}(?P<sep>[ -])[0-9A-Za-z]{4,5}"
    r"(?:(?P=sep)[0-9A-Za-z]{4,5}){4,})(?![\w-])"
)
_KEY_WORDS = ("encryption key", "recovery key", "backup key", "restore key", "rescue key")
_BITLOCKER = re.compile(r"(?<![\d-])\d{6}(?:-\d{6}){7}(?![\d-])")
_BITLOCKER_HINT = re.compile(r"-\d{6}-\d{6}-")


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    words = "|".join(re.escape(w) for w in sorted(_HEADINGS, key=len, reverse=True))
    heading = re.compile(rf"(?i:{words})")
    line = re.compile(rf"{_MARKER}(?P<codes>{_CODE}(?:[ \t,;]+{_CODE}){{0,7}})[ \t]*$")
    tokens = re.compile(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*")
    return heading, line, tokens


def _codes(lines: list[tuple[int, str]]) -> list[Finding]:
    """The codes of a list's lines, when half of them at least hold a digit."""
    _, line_rule, tokens = _patterns()
    matches = [(start, line_rule.match(text)) for start, text in lines]
    pieces = [t.group(0) for _, m in matches if m for t in tokens.finditer(m.group("codes"))]
    if not pieces or sum(any(c.isdigit() for c in p) for p in pieces) * 2 < len(pieces):
        return []
    return [
        Finding("secret-assignment", start + m.start("codes"), start + m.end("codes"))
        for start, m in matches
        if m
    ]


def _list_after(text: str, heading_end: int) -> list[Finding]:
    """The codes after a heading: the rest of its line, then the lines of codes below it."""
    _, line_rule, _ = _patterns()
    line_end = text.find("\n", heading_end)
    line_end = len(text) if line_end < 0 else line_end
    rest = text[heading_end:line_end]
    colon = max(rest.find(":"), rest.find("："))
    found: list[Finding] = []
    if colon >= 0 and rest[colon + 1 :].strip():
        found += _codes([(heading_end + colon + 1, rest[colon + 1 :])])
    lines: list[tuple[int, str]] = []
    pos = line_end + 1
    while pos < len(text) and len(lines) < 30:
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        line = text[pos:end]
        if not line.strip() and not lines and pos == line_end + 1:
            pos = end + 1  # one blank line between the heading and its list
            continue
        if line_rule.match(line) is None:
            break
        lines.append((pos, line))
        pos = end + 1
    return found + (_codes(lines) if lines else [])


def _bitlocker(text: str) -> list[Finding]:
    found = []
    for match in _BITLOCKER.finditer(text):
        blocks = [int(block) for block in match.group(0).split("-")]
        if all(block % 11 == 0 and block < 720896 for block in blocks):
            found.append(Finding("secret-assignment", *match.span()))
    return found


def find_recovery_codes(text: str, low: str) -> list[Finding]:
    """Recovery codes under their heading and BitLocker recovery keys (``low``: ``text`` in
    lower case)."""
    found: list[Finding] = _bitlocker(text) if _BITLOCKER_HINT.search(text) else []
    for start, end in windows(low, _KEY_WORDS, before=0, after=240):
        spans = [m.span("key") for m in _GROUPED_KEY.finditer(text, start, end)]
        found += [Finding("secret-assignment", *span) for span in spans]
    heading, _, _ = _patterns()
    prose = low.replace("-", " ").replace("_", " ")  # github-recovery-codes.txt: a heading
    for start, end in windows(low, _ANCHORS, before=40, after=20):
        for match in heading.finditer(prose, start, end):
            word_end = match.end()
            while word_end < len(text) and text[word_end].isalpha():
                word_end += 1  # the plural or the case ending: codes, kodları, kódy
            found += _list_after(text, word_end)
    return found
