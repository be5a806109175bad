"""Number plates: a vehicle's registration names its keeper to anyone who can ask the
registry, and a plate beside a name says whose car it is.

A word that names a plate (``licence plate``, ``number plate``, ``registration number``,
``Kennzeichen``, ``immatriculation``, ``targa``, ``matrícula``, ``kenteken``, ``numer
rejestracyjny``/``nr rej.``, ``plaka``, ``registreringsnummer``, ``rekisterinumero``,
``SPZ``, ``rendszám``, ``госномер``, ``biển số``…), perhaps ``no.``/``nr``/``:``, then the
plate: capitals and digits in one to four groups (``YRP 69L``, ``M-XE 3307``, ``34 ROS
168``, ``AZ286HQ``), five to ten characters, letters and at least two digits among them.
``reg.``, ``rego``, ``registration`` and ``registration number`` name many things (a
company's register too), so after them a plate counts only when the line names its keeper or
a vehicle (``owner``, ``keeper``, ``Halter``, ``właściciel``, ``intestata a``, ``sahibi``,
``car``, ``van``…). A bus's line number and a VIN named as such are no plate. Pure;
standard library only.
"""

from __future__ import annotations

import re

from dreamd.redaction.finding import Finding
from dreamd.redaction.scan import find_words, on_its_line

__all__ = ["find_number_plates"]

_PLATE_WORDS = (
    "licence plate;license plate;number plate;plate number;plate no;registration plate"
    ";registration number;vehicle registration;kennzeichen;amtliches kennzeichen;nummernschild"
    ";autokennzeichen;immatriculation;plaque d'immatriculation;targa;matrícula;matricula"
    ";placa;kenteken;numer rejestracyjny;nr rej;nr rejestracyjny;tablica rejestracyjna;plaka"
    ";plakası;plakasi;registreringsnummer;reg.nr;regnr;rekisterinumero;rekisteritunnus;spz"
    ";rendszám;rendszam;госномер;номер машины;номерной знак;biển số;biển kiểm soát"
    ";reg;rego;registration"
).split(";")
# What a text holds when it holds a plate word: found by ``str.find`` before the trie runs.
_ANCHORS = (
    "plate", "kennzeichen", "nummernschild", "immatricul", "targa", "matr", "placa",
    "kenteken", "rej", "plaka", "reg", "rekisteri", "spz", "rendsz", "номер", "biển",
)  # fmt: skip
# Words that name many things besides a plate: a plate after them needs a keeper or a vehicle.
_AMBIGUOUS = frozenset(("reg", "rego", "registration", "registration number", "reg.nr", "regnr"))
_KEEPER = re.compile(
    r"(?i:\b(?:owner|owned by|keeper|registered to|halter(?:in)?|besitzer|właściciel\w*"
    r"|intestat[ao]|proprietari[oa]|propriétaire|titular|eigenaar|ägare|omistaja|sahibi"
    r"|ruhsat|car|vehicle|van|truck|motorbike|motorcycle|auto|samochód|araç|bil)\b)"
)
_PLATE = re.compile(
    r"[ \t]*(?:(?:no|nr|number|n°|#)\.?[ \t]*)?[:=]?[ \t]*"
    r"(?P<plate>[A-Z0-9ÄÖÜ]{1,7}(?:[ -][A-Z0-9ÄÖÜ]{1,7}){0,3})(?![\w-])"
)


def _plate_shaped(value: str) -> bool:
    compact = value.replace(" ", "").replace("-", "")
    digits = sum(c.isdigit() for c in compact)
    return 5 <= len(compact) <= 10 and 2 <= digits < len(compact)


def find_number_plates(text: str, low: str) -> list[Finding]:
    """Number plates after the words that name them (``low``: ``text`` in lower case)."""
    found: list[Finding] = []
    ascii_only = low.isascii()
    if not any(a in low for a in _ANCHORS if a.isascii() or not ascii_only):
        return found
    for match in find_words(low, tuple(_PLATE_WORDS), r"(?![\w])"):
        start, end = match.span()
        if start and (low[start - 1].isalnum() or low[start - 1] == "_"):
            continue
        word = match.group(0)
        if text[end : end + 1] == ".":
            end += 1  # "reg. YRP 69L", "nr rej. WA 15650"
        plate = _PLATE.match(text, end)
        if plate is None or not _plate_shaped(plate.group("plate")):
            continue
        if word in _AMBIGUOUS and not on_its_line(_KEEPER, text, start, end):
            continue
        found.append(Finding("document-number", *plate.span("plate")))
    return found
