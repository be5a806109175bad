"""Values hidden in a shape a filter may not read: decoded, then judged as the rules judge text.

:mod:`dreamd.redaction.normalise` undoes what changes a character's look and not its meaning;
:mod:`dreamd.redaction.encoded` decodes hex, percent-encoding, character codes, Morse and
Braille. People hide a value in more shapes than those, each of which a person undoes at a
glance:

* **Letters of other sets**: regional-indicator letters written apart (``🇰 🇮 🇼 🇮``: side by
  side, two make a flag), text turned upside down (``pɹoʍssɐd``, each word read the right way
  up), dice faces for digits (``⚅⚂⚀⚄``), Roman numerals for digits, one a group
  (``I-VIII-IX-N``, ``N`` a zero).
* **A keyboard layout left switched on**: a password word typed with the Latin layout while the
  Russian, Ukrainian or Hebrew one was meant (``gfhjkm`` is ``пароль``, ``vxhxnv`` is
  ``הסיסמה``), which makes its line readable again.
* **Escapes of other languages**: ``%uXXXX`` (JavaScript's old ``escape``), CSS escapes
  (``\\33 \\36 \\42``), a spreadsheet's ``CHAR(49)&CHAR(55)&…``, decimal character codes after
  a word that says they are (``ascii codes: 111 74 113 …``), and a PowerShell
  ``-EncodedCommand`` (base64 of UTF-16).

Each decoded run is put back into its line, and the line is read by the rules: a run a finding
covers is masked whole. A run that only a value can be (not a keyword) is masked too when a
word naming a secret or a lock stands before it on its line (``safe: ⚅⚂⚀⚄``, ``alarm:
IV-N-II-V``, ``pw: CHAR(…)&…``), or when what it spells is a credential by itself (see
:func:`dreamd.redaction.entropy.is_wrapped_secret`). What decodes to plain words
(``ʎɐpɹnʇɐs ǝɥʇ uo ʎʇɹɐd``, ``🇳🇿 🇫🇯`` flags, ``ghbdtn``, a tutorial's ``Get-Date``) stays. One
level deep, as :mod:`dreamd.redaction.encoded`. Pure; standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import NamedTuple

from dreamd.patterns import LazyPattern
from dreamd.redaction.entropy import is_wrapped_secret
from dreamd.redaction.finding import Finding

__all__ = ["find_disguised_secrets"]

Detect = Callable[[str], list[Finding]]


class _Run(NamedTuple):
    start: int
    end: int
    plain: str
    value: bool  # only a value is written so (a keyword decoded is no value)


# Regional-indicator letters, each apart from the next (two side by side are a flag).
_INDICATORS = LazyPattern(
    r"(?<![\U0001F1E6-\U0001F1FF])[\U0001F1E6-\U0001F1FF](?:[ \t]+[\U0001F1E6-\U0001F1FF]){3,}"
    r"(?![\U0001F1E6-\U0001F1FF])"
)
# Turned letters, digits and signs, and what each is the right way up.
_TURNED = dict(
    zip(
        "ɐqɔpǝɟƃɥᴉɾʞlɯuodbɹsʇnʌʍxʎz∀ꓭƆᗡƎℲ⅁HIſꓘ˥WNOԀꓤS⊥∩ΛMX⅄ZƖᄅƐㄣϛ9ㄥ86¡¿˙'„‾⅋ı0",
        'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPRSTUVWXYZ123456789!?.,"_&i0',
        strict=True,
    )
)
# Characters only turned text uses (a word needs two of them to be read turned).
_TURNED_ONLY = frozenset("ɐɔǝɟƃɥᴉɾʞɯɹʇʌʍʎ∀ꓭƆᗡƎℲ⅁ſꓘ˥ԀꓤƖᄅƐㄣϛㄥ¡¿⅋")
_TURNED_ANY = LazyPattern("[" + re.escape("".join(sorted(_TURNED_ONLY))) + "]")
_WORD = LazyPattern(r"\S+")
_DICE = LazyPattern(r"[⚀-⚅]{4,}")
_ROMAN_DIGITS = ("N", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX")
_ROMAN = LazyPattern(
    r"(?<![\w-])(?:N|I{1,3}|IV|VI{0,3}|IX)(?:[-.](?:N|I{1,3}|IV|VI{0,3}|IX)){3,}(?![\w-])"
)
_PERCENT_U = LazyPattern(r"(?:%u[0-9A-Fa-f]{4}){4,}")
_CSS = LazyPattern(r"(?:\\[0-9a-fA-F]{1,6}[ ]?){4,}")
_SHEET_CHARS = LazyPattern(r"CHAR\(\d{2,3}\)(?:[ \t]*&[ \t]*CHAR\(\d{2,3}\)){3,}")
_DECIMALS = LazyPattern(r"(?<![\d.,])(?:\d{2,3}[ \t]+){5,}\d{2,3}(?![\d.,])")
_DECIMAL_CUE = LazyPattern(
    r"(?i:ascii|decimal|char(?:acter)?[ \t]*codes?|code[ \t]*points?|chr\b|ord\b)"
)
# Words one of which stands before decimal codes (a quick test before the codes are looked for).
_DECIMAL_ANCHORS = ("ascii", "decimal", "codes", "code point", "chr", "ord(")
_ENCODED_COMMAND = LazyPattern(
    r"(?i:-e(?:nc(?:odedcommand)?|c)?)[ \t]+(?P<body>[A-Za-z0-9+/]{20,}={0,2})(?![\w+/=])"
)
# Words before a run that say it is a secret, a code or what opens a lock.
_NAMING = LazyPattern(
    r"(?i:pass|pw|pwd|pin\b|code|key|token|secret|kennwort|mdp|clave|senha|contrase|parol|hasło"
    r"|heslo|salasana|пароль|credential|login|safe|lock|alarm|door|gate|keypad|combo|tresor)"
)
# The password words a wrong layout turns into Latin letters, and those layouts.
_RUSSIAN_LAYOUT = dict(
    zip("йцукенгшщзхъфывапролджэячсмитьбюё", "qwertyuiop[]asdfghjkl;'zxcvbnm,.`", strict=True)
)
_RUSSIAN_LAYOUT.update({"і": "s", "ї": "]", "є": "'"})  # Ukrainian's own letters
_HEBREW_LAYOUT = dict(
    zip("קראטוןםפשדגכעיחלךףזסבהנמצתץ", "ertyuiopasdfghjkl;zxcvbnm,.", strict=True)
)
_LAYOUT_WORDS = (
    "пароль пароля паролем пароли паролі пін пин логін логин סיסמה הסיסמה סיסמא הסיסמא".split()
)


@cache
def _layout_keywords() -> dict[str, str]:
    """Each password word as the Latin layout types it, and the word."""
    table = {**_RUSSIAN_LAYOUT, **_HEBREW_LAYOUT}
    return {"".join(table[c] for c in word): word for word in _LAYOUT_WORDS}


def _turned(word: str) -> str | None:
    """``word`` the right way up, if it is written turned."""
    if sum(c in _TURNED_ONLY for c in word) < 2:
        return None
    return "".join(_TURNED.get(c, c) for c in reversed(word))


def _roman(run: str) -> str:
    return "".join(str(_ROMAN_DIGITS.index(group)) for group in re.split(r"[-.]", run))


def _css(run: str) -> str | None:
    points = [int(escape, 16) for escape in re.findall(r"\\([0-9a-fA-F]{1,6})", run)]
    return "".join(map(chr, points)) if all(32 <= p < 127 for p in points) else None


def _decimals(run: str) -> str | None:
    codes = [int(code) for code in run.split()]
    return "".join(map(chr, codes)) if all(33 <= c < 127 for c in codes) else None


def _encoded_command(body: str) -> str | None:
    import base64
    import binascii

    try:
        data = base64.b64decode(body, validate=True)
        decoded = data.decode("utf-16-le")
    except (binascii.Error, ValueError):
        return None
    return decoded if decoded.isprintable() else None


def _letters(text: str) -> list[_Run]:
    """Runs written in other sets of letters and digits (see the module rules)."""
    runs: list[_Run] = []
    top = max(text)  # the highest character: most texts hold neither flags nor dice
    if top >= "\U0001f1e6":
        for match in _INDICATORS.finditer(text):
            plain = "".join(chr(ord(c) - 0x1F1E6 + 65) for c in match.group(0) if c.strip())
            runs.append(_Run(*match.span(), plain, True))
    if _TURNED_ANY.search(text):
        for word in _WORD.finditer(text):
            upright = _turned(word.group(0))
            if upright is not None:
                runs.append(_Run(*word.span(), upright, False))
    if top >= "⚀":
        for match in _DICE.finditer(text):
            plain = "".join(str(ord(c) - 0x2680 + 1) for c in match.group(0))
            runs.append(_Run(*match.span(), plain, True))
    return runs


def _escapes(text: str, low: str) -> list[_Run]:
    """Runs of other languages' escapes and codes (see the module rules)."""
    runs: list[_Run] = []
    if "-I" in text or "I-" in text or "V-" in text or "X-" in text:
        runs += [_Run(*m.span(), _roman(m.group(0)), True) for m in _ROMAN.finditer(text)]
    if "%u" in low:
        for match in _PERCENT_U.finditer(text):
            points = re.findall(r"%u([0-9A-Fa-f]{4})", match.group(0))
            runs.append(_Run(*match.span(), "".join(chr(int(p, 16)) for p in points), True))
    if "\\" in text:
        for match in _CSS.finditer(text):
            plain = _css(match.group(0).rstrip())
            if plain is not None:
                runs.append(
                    _Run(match.start(), match.start() + len(match.group(0).rstrip()), plain, True)
                )
    if "CHAR(" in text:
        for match in _SHEET_CHARS.finditer(text):
            codes = [int(c) for c in re.findall(r"\d+", match.group(0))]
            if all(32 <= c < 127 for c in codes):
                runs.append(_Run(*match.span(), "".join(map(chr, codes)), True))
    cued = any(cue in low for cue in _DECIMAL_ANCHORS)
    for match in _DECIMALS.finditer(text) if cued else ():
        line = text.rfind("\n", 0, match.start()) + 1
        plain = _decimals(match.group(0))
        if plain is not None and _DECIMAL_CUE.search(text, line, match.start()):
            runs.append(_Run(*match.span(), plain, True))
    if "-e" in low and ("-enc" in low or "-e " in low or "-ec " in low):
        for match in _ENCODED_COMMAND.finditer(text):
            plain = _encoded_command(match.group("body"))
            if plain is not None:  # a script: what the rules find in it decides
                runs.append(_Run(*match.span("body"), plain, False))
    return runs


def _layouts(text: str, low: str) -> list[_Run]:
    """Password words typed with the wrong keyboard layout."""
    runs = []
    for typed, word in _layout_keywords().items():
        index = low.find(typed)
        while index >= 0:
            end = index + len(typed)
            whole = not (index and low[index - 1].isalpha()) and not (
                end < len(low) and low[end].isalpha()
            )
            if whole:
                runs.append(_Run(index, end, word, False))
            index = low.find(typed, end)
    return runs


def _candidates(text: str, low: str) -> list[_Run]:
    runs = _escapes(text, low) + _layouts(text, low)
    if not text.isascii():
        runs += _letters(text)
    return sorted(runs)


def _outside_runs(
    findings: list[Finding], spans: list[tuple[int, int]], runs: list[_Run], line_start: int
) -> list[Finding]:
    """The findings of a decoded line that lie outside its runs, at their place in the text
    (``пароль …: Ьвштф3692`` once ``gfhjkm`` is read as ``пароль``)."""
    found = []
    for finding in findings:
        shift, inside = line_start, False
        for run, (start, end) in zip(runs, spans, strict=True):
            if start < 0:
                continue
            if finding.start < end and start < finding.end:
                inside = True
                break
            if end <= finding.start:
                shift = run.end - end  # past this run, the line is as written
        if not inside:
            found.append(Finding(finding.kind, finding.start + shift, finding.end + shift))
    return found


def find_disguised_secrets(text: str, low: str, detect: Detect) -> list[Finding]:
    """Secrets in the disguises of the module rules (``detect``: the rules, one level deeper;
    ``low``: ``text`` in lower case)."""
    runs = _candidates(text, low)
    if not runs:
        return []
    found: list[Finding] = []
    by_line: dict[int, list[_Run]] = {}
    for run in runs:
        by_line.setdefault(text.rfind("\n", 0, run.start) + 1, []).append(run)
    for line_start, line_runs in by_line.items():
        line_end = text.find("\n", line_start)
        line_end = len(text) if line_end < 0 else line_end
        parts, spans, pos = [], [], line_start
        size = 0
        for run in line_runs:
            if run.start < pos:
                spans.append((-1, -1))
                continue
            parts.append(text[pos : run.start])
            size += run.start - pos
            spans.append((size, size + len(run.plain)))
            parts.append(run.plain)
            size += len(run.plain)
            pos = run.end
        parts.append(text[pos:line_end])
        read = "".join(parts)
        findings = detect(read)
        if any(not run.value for run in line_runs):  # a keyword decoded: its line reads anew
            found += _outside_runs(findings, spans, line_runs, line_start)
        for run, (start, end) in zip(line_runs, spans, strict=True):
            if start < 0:
                continue
            covered = any(f.start < end and start < f.end for f in findings)
            named = run.value and _NAMING.search(read, 0, start) is not None
            if covered or named or (run.value and is_wrapped_secret(run.plain, lambda t: False)):
                found.append(Finding("encoded-credential", run.start, run.end))
    return found
