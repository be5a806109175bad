"""Personal data found by its shape: e-mail addresses and postal addresses.

* E-mail: any script (``josé@correo.es``, ``иван@почта.рф``, ``李雷@例子.公司``); an address
  written against Chinese or Japanese text (``メールはyuki@docomo.ne.jpまで``) is the Latin part
  only. Spelled out too: ``name(at)domain(dot)com``, ``sara.lind (at) telia.se``, and in words
  (``kenji dot x at gmail dot com``, ``klaus punkt weber at gmx punkt de``,
  ``maria arroba gmail punto com``, ``mehmet nokta kaya et hotmail nokta com``, Greek
  ``παπάκι``/``τελεία``, Hebrew ``שטרודל``/``נקודה``, Ukrainian ``равлик``/``крапка``,
  Bulgarian ``маймунка``/``точка``, Serbian and Croatian ``majmunče``/``tačka``/``točka``,
  Catalan ``arrova``/``punt``; an ``et`` only with ``nokta`` or ``punkts``, as French ``et``
  is *and*, an ``eta`` only with ``taškas``, a ``di`` only with ``titik``) when the last part
  is a known
  top-level domain, no path follows it (``… at play.example.com/redeem`` is a site) and the
  domain is no word of prose (``we met at the dot com party``) or
  placeholder (``name at domain dot com``). Fullwidth ``＠`` and ``&#64;`` are read as ``@``
  (:mod:`dreamd.redaction.normalise`), ``%40`` once decoded (:mod:`dreamd.redaction.encoded`).
  Not ``git@host:repo`` (a remote), not ``user@host`` without a top-level domain, not
  ``pkg@1.2.3``, not a Windows domain's target (``CORP/administrator@dc01.corp.local``).
* Street addresses: a number and a street type (``221B Baker Street``, ``350 Fifth Avenue``),
  the street types of German, French, Spanish, Italian, Portuguese, Dutch and Polish
  (``Hauptstraße 12``, ``12 rue de la Paix``, ``Via Roma 10``, ``ul. Marszałkowska 84``), and
  ``Apt 4B``, ``PO Box 4471``. A street name without a number (``Wall Street``) stays.
  In other scripts, the forms their addresses take: Russian and Ukrainian ``ул. Name, д. 17,
  кв. 42``; Chinese ``…路478号3单元502室`` (a road, its number, then building, unit, floor,
  room); Japanese ``…区中野4-8-12`` (after a ward, city, town or village, the block numbers).

Dates of birth and document numbers are :mod:`dreamd.redaction.documents`'.
Pure.
"""

from __future__ import annotations

import re
from functools import cache

from dreamd.redaction.finding import Finding
from dreamd.redaction.scan import trie, windows

__all__ = ["find_personal_data"]

_EMAIL = r"(?<![\w.%+'-])[\w.%+'-]+@[\w-]+(?:\.[\w-]+)*\.[^\W\d_]{2,}(?![\w-]|:\w|\.[\w-])"
# A Windows domain's name (NetBIOS, in capitals) and a slash before ``user@host``: the target
# of impacket's and Kerberos's tools, no one's mail.
_WINDOWS_DOMAIN = re.compile(r"(?<![\w/.-])[A-Z][A-Z0-9-]{1,14}/$")
_DOT_WORDS = (
    "dot punkt punto point ponto точка kropka nokta chấm cham punt tečka tecka pont piste"
    " prick nukta τελεία נקודה крапка نقطة tačka tacka točka tocka тачка taškas taskas punkts"
    " punktur titik tuldok punktum"
).split()
_AT_WORDS = (
    "at arroba собака arobase ät chiocciola apenstaartje małpa malpa kukac zavináč zavinac"
    " snabel-a a-còng a-cong et παπάκι שטרודל равлик маймунка кльомба majmunče majmunce"
    " majmun мајмунче manki afna eta arrova di"
).split()
# An "at" that is also a common word elsewhere counts only with its own language's "dot":
# Turkish "et" with "nokta" (French "et" is "and", Turkish "et" is also "meat"), Latvian "et"
# with "punkts"; Lithuanian "eta" with "taškas" (Basque "eta" is "and"); Malay and Indonesian
# "di" with "titik" (Italian "di" is "of").
_PAIRED = {
    "et": frozenset({"nokta", "punkts"}),
    "eta": frozenset({"taškas", "taskas"}),
    "di": frozenset({"titik"}),
}
_DOT_WORD = "(?:" + "|".join(map(re.escape, _DOT_WORDS)) + ")"
# "a còng" (Vietnamese) is two words; written with a space or a hyphen.
_AT_WORD = "(?:" + "|".join("[ -]".join(map(re.escape, w.split("-"))) for w in _AT_WORDS) + ")"
_OBFUSCATED = (
    r"(?<![\w.])[\w.%+-]+\s?[\[({<]\s?" + _AT_WORD + r"\s?[\])}>]\s?[\w-]+"
    r"(?:\s?[\[({<]\s?" + _DOT_WORD + r"\s?[\])}>]\s?[\w-]+)+"
)
_SPELLED = (
    r"(?<![\w.+-])(?P<local>[\w.+-]+(?:[ \t]+" + _DOT_WORD + r"[ \t]+[\w+-]+){0,3})"
    r"(?P<at>[ \t]+" + _AT_WORD + r"[ \t]+|[ \t]?[\[({<][ \t]?" + _AT_WORD + r"[ \t]?[\])}>][ \t]?)"
    r"(?P<domain>[\w-]+(?:(?:[ \t]+"
    + _DOT_WORD
    + r"[ \t]+|[ \t]?[\[({<][ \t]?"
    + _DOT_WORD
    + r"[ \t]?[\])}>][ \t]?"
    r"|\.)[\w-]+){1,3})(?![\w-]|\.\w)"
)
_TOP_LEVEL = frozenset(
    "com org net edu gov mil int io co me info biz app dev ai eu de fr es it nl be ch at uk pl pt"
    " br ru jp cn kr se no dk fi ie us ca au nz in mx ar cl tr gr cz sk hu ro bg hr si lt lv ee"
    " ua by kz il za sg hk tw lu is ws tv cc xyz online email mail cat eus gal rs ba me mk al"
    " md ge az am ph my bd pk ke ng ir lk np".split()
)
_NOT_A_DOMAIN = frozenset(
    "the a an it its my your our their his her this that these those domain example company"
    " host server site provider yourdomain mydomain".split()
)
# Where a plain first name (``kenji at gmail dot com``) is an address: the big mail providers.
_PROVIDERS = frozenset(
    "gmail googlemail yahoo ymail hotmail outlook live msn icloud me mac aol gmx web proton"
    " protonmail pm qq 163 126 naver daum hanmail kakao yandex mail orange free wanadoo sfr"
    " laposte libero virgilio alice tim t-online posteo mailbox fastmail zoho hey seznam wp onet"
    " interia o2 bigpond rediffmail sina sohu docomo ezweb softbank telia tiscali btinternet"
    " sky virginmedia comcast verizon att sbcglobal uol bol terra ziggo kpnmail xs4all telenet"
    " skynet bluewin sunrise".split()
)
_NOT_A_LOCAL = frozenset(
    "we i you he she they it me us him them look looking meet met arrive arrived be is are"
    " was were name user first last someone anyone".split()
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


@cache
def _patterns() -> dict[str, re.Pattern[str]]:
    return {
        "email": re.compile(_EMAIL),
        "obfuscated": re.compile(_OBFUSCATED, re.IGNORECASE),
        "spelled": re.compile(_SPELLED, re.IGNORECASE),
        # An "at" word as a word (" at ", " snabel-a " or " snabel a ") or closing a bracket
        # ("at)", "at]"), as tries.
        "at word": re.compile(
            " "
            + trie(tuple(sorted({*_AT_WORDS, *(w.replace("-", " ") for w in _AT_WORDS)}))).pattern
            + " "
        ),
        "at bracket": re.compile(trie(tuple(_AT_WORDS)).pattern + r"[)\]]"),
        "street first": re.compile(_STREET_EN + "|" + _STREET_FR),
        "street after": re.compile("|".join(_STREETS_AFTER)),
    }


def _in_windows(
    pattern: re.Pattern[str], text: str, spans: list[tuple[int, int]]
) -> list[re.Match[str]]:
    return [match for start, end in spans for match in pattern.finditer(text, start, end)]


def find_personal_data(text: str, low: str) -> list[Finding]:
    """E-mail and postal addresses (see the rules)."""
    patterns = _patterns()
    found: list[Finding] = []
    if "@" in text:
        for match in _in_windows(patterns["email"], text, windows(low, "@", before=80, after=260)):
            local = match.group(0).split("@", 1)[0]
            if _WINDOWS_DOMAIN.search(text, max(0, match.start() - 16), match.start()):
                continue  # "CORP/administrator@dc01.corp.local": a Windows domain's target
            if local.lower() != "git" and not text.endswith("://", 0, match.start()):
                found.append(_latin_part(text, match.start(), match.end()))
    if any(f"{o}{w}{c}" in low for o, c in ("()", "[]", "{}", "<>") for w in ("at", " at ")):
        found += [
            Finding("email", m.start(), m.end()) for m in patterns["obfuscated"].finditer(text)
        ]
    spoken, bracketed = patterns["at word"], patterns["at bracket"]
    if spoken.search(low) or (("]" in low or ")" in low) and bracketed.search(low)):
        found += _spelled(text, patterns["spelled"])
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
    spans = _spans(hits.get("postal-address", []), len(low), 40, 50)
    for match in _in_windows(patterns["street after"], text, spans):
        found.append(Finding("postal-address", match.start(), match.end()))
    if not text.isascii():
        found += _scripted_addresses(text, low)
    return found


# Addresses in scripts whose streets are written their own way (see the module rules).
_CYRILLIC_STREET = re.compile(
    r"(?<![\w])(?:ул\.|улица|вул\.|вулиця|пр-т|просп\.|проспект|пер\.|переулок|бул\.|бульвар"
    r"|ш\.|шоссе|наб\.|набережная)\s*[А-ЯЁІЇЄҐ][\w.-]*(?:\s[А-ЯЁІЇЄҐ\d][\w.-]*){0,3},?\s*"
    r"(?:д\.|дом|буд\.)\s*\d+[а-яА-Я]?(?:\s*[,/]\s*(?:кв\.|квартира|корп\.|к\.|стр\.|оф\.)"
    r"\s*\d+[а-я]?)*"
)
_CHINESE_STREET = re.compile(
    r"[\u4e00-\u9fff]{1,6}(?:路|街|大道|道|巷|弄|胡同)\s?\d{1,5}\s?号"
    r"(?:\s?\d{1,4}\s?(?:栋|幢|号楼|单元|层|楼|室|号))*"
)
_JAPANESE_BLOCK = re.compile(
    r"(?<=[区市町村郡])[\u4e00-\u9fff\u3040-\u30ff]{0,6}?\d{1,2}(?:丁目)?[-－‐]\d{1,4}"
    r"(?:[-－‐]\d{1,4})?(?:号)?"
)


def _scripted_addresses(text: str, low: str) -> list[Finding]:
    """Russian, Ukrainian, Chinese and Japanese street addresses, each looked for only when
    a character its form needs is in the text."""
    found: list[Finding] = []
    if any(word in low for word in ("ул", "вул", "пр", "пер", "бул", "ш.", "шоссе", "наб")):
        found += [Finding("postal-address", *m.span()) for m in _CYRILLIC_STREET.finditer(text)]
    if "号" in text:
        found += [Finding("postal-address", *m.span()) for m in _CHINESE_STREET.finditer(text)]
    if any(c in text for c in "区市町村郡"):
        found += [Finding("postal-address", *m.span()) for m in _JAPANESE_BLOCK.finditer(text)]
    return found


def _latin_part(text: str, start: int, end: int) -> Finding:
    """The address, without the Chinese or Japanese words it was written against."""
    value = text[start:end]
    at = value.index("@")
    local, domain = value[:at], value[at + 1 :]
    if not local.isascii() and not _is_foreign(local[-1]):
        trimmed = len(local)
        while trimmed and not _is_foreign(local[trimmed - 1]):
            trimmed -= 1
        start += trimmed
    if not domain.isascii() and not _is_foreign(domain[0]):
        kept = 0
        while kept < len(domain) and not _is_foreign(domain[kept]):
            kept += 1
        end -= len(domain) - kept
    return Finding("email", start, end)


def _is_foreign(char: str) -> bool:
    return "\u3040" <= char <= "\u9fff" or "\uac00" <= char <= "\ud7af"


def _spelled(text: str, pattern: re.Pattern[str]) -> list[Finding]:
    found = []
    for match in pattern.finditer(text):
        local = match.group("local").split()
        labels = re.split(r"[^\w-]+", match.group("domain"))
        labels = [label for label in labels if label and label.lower() not in _DOT_WORDS]
        # A plain word before a plain "at" and a domain spelled in words is prose ("Presumably
        # at some point in"); an address shows itself by a dotted or numbered local part, a
        # real dot in the domain, a mail provider, a bracketed or foreign "at", angle brackets
        # around it, or a lower-case name with an English "dot".
        at = re.sub(r"[^\w-]", "", match.group("at")).lower()
        plain_at = match.group("at").strip().lower() == "at"  # not "(at)", not a foreign "at"
        if at in _PAIRED:
            spoken = re.findall(r"[^\W\d_]+", match.group("local") + " " + match.group("domain"))
            dots = {w.lower() for w in spoken if w.lower() in _DOT_WORDS}
            if not dots or not dots <= _PAIRED[at]:
                continue
        evident = (
            len(local) > 1
            or text[max(0, match.start() - 1) : match.start()] in ("<", "(", "[")
            or (local[0].islower() and " dot " in match.group("domain").lower())
            or re.search(r"[._\d+-]", local[0]) is not None
            or "." in match.group("domain")
            or labels[0].lower() in _PROVIDERS
            or not plain_at
        )
        if text.startswith("/", match.end()):
            continue  # "codes at play.example.com/redeem": a site and its path, no mailbox
        if (
            evident
            and labels[-1].lower() in _TOP_LEVEL
            and labels[0].lower() not in _NOT_A_DOMAIN
            and local[-1].lower() not in _NOT_A_LOCAL
            and local[0].lower() not in _NOT_A_LOCAL
            and any(c.isalpha() for c in local[0])
        ):
            found.append(Finding("email", match.start(), match.end()))
    return found


@cache
def _anchor_kinds() -> dict[str, str]:
    return dict.fromkeys(_STREET_ANCHORS, "postal-address")


def _anchor_hits(low: str) -> dict[str, list[tuple[int, int]]]:
    """Every anchor of the street types that come before the number, found in one pass."""
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
