"""Personal data found by its shape and by the words around it: e-mail addresses, postal
addresses, dates of birth, passport and driving-licence numbers.

* E-mail: any script (``josé@correo.es``, ``иван@почта.рф``, ``李雷@例子.公司``), and the
  ``name(at)domain(dot)com`` spelling; not ``git@host:repo`` (a remote), not ``user@host``
  without a top-level domain, not ``pkg@1.2.3``, and not ``name at domain dot com`` in plain
  words.
* Street addresses: a number and a street type (``221B Baker Street``, ``350 Fifth Avenue``),
  the street types of German, French, Spanish, Italian, Portuguese, Dutch and Polish
  (``Hauptstraße 12``, ``12 rue de la Paix``, ``Via Roma 10``, ``ul. Marszałkowska 84``), and
  ``Apt 4B``, ``PO Box 4471``. A street name without a number (``Wall Street``) stays.
* A date of birth, a passport or a driving-licence number only after a word that names it
  (``DOB``, ``born``, ``Geburtsdatum``, ``passport no.``, ``Reisepass``, ``DL#``…): dates and
  codes alone are memory.

Pure.
"""

from __future__ import annotations

import re
from functools import cache

from dreamd.redaction.finding import Finding
from dreamd.redaction.scan import trie, windows

__all__ = ["find_personal_data"]

_EMAIL = r"(?<![\w.%+'-])[\w.%+'-]+@[\w-]+(?:\.[\w-]+)*\.[^\W\d_]{2,}(?![\w-]|:\w|\.[\w-])"
_OBFUSCATED = (
    r"(?<![\w.])[\w.%+-]+\s?[\[({<]\s?at\s?[\])}>]\s?[\w-]+"
    r"(?:\s?[\[({<]\s?dot\s?[\])}>]\s?[\w-]+)+"
)
_STREET_EN = (
    r"\d{1,5}[A-Za-z]?\s+(?:[A-Z][\w'.-]*\s+){1,4}(?:Street|St|Avenue|Ave|Road|Rd|Boulevard"
    r"|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|Parkway|Pkwy|Square|Sq|Close"
    r"|Crescent|Highway|Hwy|Gardens|Row|Mews)\b\.?"
)
_STREET_FR = (
    r"\d{1,4}(?:\s?(?:bis|ter))?,?\s+(?:[Rr]ue|avenue|av\.|boulevard|bd|place|chemin|allée"
    r"|impasse|quai|route)\s+[\w'’ .-]{2,40}?(?=\s*(?:,|$|\n|\d{5}))"
)
# The last digit of a house number, then a capital or a French street type: where the two
# above can start.
_NUMBER_FIRST = re.compile(
    r"\d[A-Za-z]?,?[ \t]+(?:[A-Z]|(?:rue|avenue|bd|boulevard|place|chemin|allée|impasse"
    r"|quai|route)\b|av\.)"
)
_STREETS_AFTER = (
    r"\b[A-ZÄÖÜ][\wäöüß-]*(?:straße|strasse|str\.|weg|gasse|allee|platz|ring|damm|ufer)"
    r"\s+\d{1,4}[a-z]?\b",
    r"\b(?:[Cc]alle|C/|[Aa]venida|[Aa]vda\.?|[Pp]aseo|[Pp]laza|[Cc]arrer|Via|[Vv]iale|Piazza"
    r"|Corso|Rua|[Tt]ravessa)"
    r"\s+[\w'’ .-]{2,40}?,?\s+\d{1,4}\b",
    r"\b[A-Z][a-z]+(?:gracht|straat|laan|weg|plein|kade|singel|dijk)\s+\d{1,4}[a-z]?\b",
    r"\bul\.\s+[\wąćęłńóśźż-]+\s+\d{1,4}[a-z]?\b",
    r"\b(?:Apt|Apartment|Suite|Flat|Unit)\.?\s+#?\d+[A-Za-z]?\b",
    r"\bP\.?\s?O\.?\s+Box\s+\d+\b",
)
# Anchors of the street types that come before the house number.
_STREET_ANCHORS = (
    "straße ",
    "strasse ",
    "str. ",
    "weg ",
    "gasse ",
    "allee ",
    "platz ",
    "ring ",
    "damm ",
    "ufer ",
    "calle ",
    "c/ ",
    "avenida ",
    "avda",
    "paseo ",
    "plaza ",
    "carrer ",
    "via ",
    "viale ",
    "piazza ",
    "corso ",
    "rua ",
    "travessa ",
    "gracht ",
    "straat ",
    "laan ",
    "plein ",
    "kade ",
    "singel ",
    "dijk ",
    "ul. ",
    "apt",
    "apartment ",
    "suite ",
    "flat ",
    "unit ",
    "o box",
    "o. box",
)
_BIRTH_ANCHORS = (
    "dob",
    "d.o.b",
    "birth",
    "born",
    "geburt",
    "geb.",
    "geboren",
    "naissance",
    "née",
    "nee le",
    "nacimiento",
    "nacid",
    "nascita",
    "nato il",
    "nata il",
    "nascimento",
    "nascid",
    "geboorte",
    "urodzenia",
    "生年月日",
    "出生日期",
)
_DOCUMENT_ANCHORS = (
    "passport",
    "passeport",
    "pasaporte",
    "passaporto",
    "passaporte",
    "reisepass",
    "paspoort",
    "paszport",
    "паспорт",
    "licen",
    "dl#",
    "dl #",
    "führerschein",
    "permis de conduire",
    "carnet de conducir",
)
_DATE = (
    r"\d{4}-\d{2}-\d{2}|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{1,2}\.?\s+[A-Za-zäéû]+\.?\s+\d{4}"
    r"|[A-Za-z]+\.?\s+\d{1,2},?\s+\d{4}|\d{4}年\d{1,2}月\d{1,2}日"
)
_BIRTH = (
    r"(?i:(?<![\w.])(?:dob|d\.o\.b\.?|date of birth|birth ?date|birthday|born(?: on)?|geburtsdatum"
    r"|geb\.|geboren(?: am)?|date de naissance|née? le|fecha de nacimiento|nacid[oa] el"
    r"|data di nascita|nato il|nata il|data de nascimento|nascid[oa] em|geboortedatum"
    r"|data urodzenia)(?![a-z])|生年月日|出生日期)\s*[:=]?\s*(" + _DATE + ")"
)
_DOCUMENT = (
    r"(?i:(?:\b(?:passport|passeport|pasaporte|passaporto|passaporte|reisepass(?:nummer|nr)?"
    r"|passnummer|ausweisnummer|paspoort|paszport"
    r"|паспорт|driver'?s licen[cs]e|driving licen[cs]e|licen[cs]e no|führerschein"
    r"|permis de conduire|carnet de conducir)\b|\bdl ?#)"
    r"(?:\s*(?:no\.?|number|nr\.?|n\.?\s?[°º]|#|num\.?|dl ?#))?"
    r"\s*[:#]?\s*)([A-Z0-9][A-Z0-9-]{5,20}[A-Z0-9])"
)


@cache
def _patterns() -> dict[str, re.Pattern[str]]:
    return {
        "email": re.compile(_EMAIL),
        "obfuscated": re.compile(_OBFUSCATED, re.IGNORECASE),
        "street first": re.compile(_STREET_EN + "|" + _STREET_FR),
        "street after": re.compile("|".join(_STREETS_AFTER)),
        "birth": re.compile(_BIRTH),
        "document": re.compile(_DOCUMENT),
    }


def _in_windows(
    pattern: re.Pattern[str], text: str, spans: list[tuple[int, int]]
) -> list[re.Match[str]]:
    return [match for start, end in spans for match in pattern.finditer(text, start, end)]


def find_personal_data(text: str, low: str) -> list[Finding]:
    """E-mail and postal addresses, dates of birth and document numbers (see the rules)."""
    patterns = _patterns()
    found: list[Finding] = []
    if "@" in text:
        for match in _in_windows(patterns["email"], text, windows(low, "@", before=80, after=260)):
            local = match.group(0).split("@", 1)[0]
            if local.lower() != "git" and not text.endswith("://", 0, match.start()):
                found.append(Finding("email", match.start(), match.end()))
    if "(at)" in low or "[at]" in low or "{at}" in low or "<at>" in low:
        found += [
            Finding("email", m.start(), m.end()) for m in patterns["obfuscated"].finditer(text)
        ]
    for match in _NUMBER_FIRST.finditer(text):
        start = match.start()
        while start and text[start - 1].isdigit() and match.start() - start < 5:
            start -= 1
        if start and text[start - 1].isalnum():
            continue
        street = patterns["street first"].match(text, start)
        if street:
            found.append(Finding("postal-address", street.start(), street.end()))
    hits = _anchor_hits(low)
    for pattern, (kind, before, after) in (
        ("street after", ("postal-address", 40, 50)),
        ("birth", ("date-of-birth", 24, 60)),
        ("document", ("document-number", 24, 60)),
    ):
        spans = _spans(hits.get(kind, []), len(low), before, after)
        for match in _in_windows(patterns[pattern], text, spans):
            group = 0 if kind == "postal-address" else 1
            value = match.group(group)
            if kind == "document-number" and not any(c.isdigit() for c in value):
                continue
            found.append(Finding(kind, match.start(group), match.end(group)))
    return found


@cache
def _anchor_kinds() -> dict[str, str]:
    kinds = dict.fromkeys(_STREET_ANCHORS, "postal-address")
    kinds.update(dict.fromkeys(_BIRTH_ANCHORS, "date-of-birth"))
    kinds.update(dict.fromkeys(_DOCUMENT_ANCHORS, "document-number"))
    return kinds


def _anchor_hits(low: str) -> dict[str, list[tuple[int, int]]]:
    """Every anchor of the three families, found in one pass."""
    kinds = _anchor_kinds()
    hits: dict[str, list[tuple[int, int]]] = {}
    for match in trie(tuple(kinds)).finditer(low):
        hits.setdefault(kinds[match.group(0)], []).append(match.span())
    return hits


def _spans(
    hits: list[tuple[int, int]], size: int, before: int, after: int
) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for start, end in hits:
        low, high = max(0, start - before), min(size, end + after)
        if spans and low <= spans[-1][1]:
            spans[-1] = (spans[-1][0], high)
        else:
            spans.append((low, high))
    return spans
