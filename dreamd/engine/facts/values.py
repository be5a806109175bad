"""The values a statement gives its slot, typed so that two spellings of one value compare equal.

A value is a string ``<type>:<value>``:

* ``day:<mon..sun>`` weekdays, in English, German, French, Spanish, Italian, Dutch and
  Portuguese, full, plural or short ("Tuesdays", "Di", "mardi");
* ``month:<01..12>`` month names in the same languages;
* ``time:<HH:MM>`` clock times ("17:00", "5pm", "5.30 pm", "17h30", "noon", a bare hour after
  "before", "after", "at", "until": "no calls before 11"), and ``part:<morning..>``
  parts of the day ("mornings", "after lunch" is not one);
* ``date:<YYYY-MM-DD>`` ISO dates, and ``date:<MM-DD>`` a day of a month ("24–27 December" is
  ``date:12-24`` and ``date:12-27`` besides ``month:12``; "Nov 14th", "the 3rd of May");
* ``num:<n>`` other numbers (a currency or unit glued to them is dropped: "30d", "€120",
  "3x", "18,000", "15th"; thousands grouped by a space are one number: "22 000 Ft",
  "2 600 000");
* ``id:<text>`` any other word with a digit in it ("db-02", "corp-eu-2", "v2.4", "r3a");
* ``name:<word>`` capitalised words that are not the first word of a sentence, ``@mentions``
  and the words of names the caller already knows; weekday and month names and a few capitalised
  function words are never names.

:func:`values_of` returns them in text order, with where each starts, so a caller can tell
which values sit after "from", "not" or "instead of". Pure.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Set

from dreamd import value as _value
from dreamd.patterns import LazyPattern

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Final

__all__ = [
    "CURRENCIES",
    "DAYS",
    "DAY_MONTH",
    "MONTHS",
    "MONTH_DAY",
    "PARTS",
    "Value",
    "kind_of",
    "values_of",
]

_DAY_WORDS = {
    "mon": "monday mondays mon montag montags mo lundi lundis lunes lunedì lunedi maandag "
    "segunda segunda-feira",
    "tue": "tuesday tuesdays tue tues dienstag dienstags di mardi mardis martes martedì "
    "martedi dinsdag terça terca terça-feira",
    "wed": "wednesday wednesdays wed mittwoch mittwochs mi mercredi mercredis miércoles "
    "miercoles mercoledì mercoledi woensdag quarta quarta-feira",
    "thu": "thursday thursdays thu thur thurs donnerstag donnerstags do jeudi jeudis jueves "
    "giovedì giovedi donderdag quinta quinta-feira",
    "fri": "friday fridays fri freitag freitags fr vendredi vendredis viernes venerdì venerdi "
    "vrijdag sexta sexta-feira",
    "sat": "saturday saturdays sat samstag samstags sa samedi samedis sábado sabado sabato "
    "zaterdag sábados",
    "sun": "sunday sundays sun sonntag sonntags so dimanche dimanches domingo domenica zondag "
    "domingos",
}
_MONTH_WORDS = {
    "01": "january jan januar janvier enero gennaio januari janeiro",
    "02": "february feb februar février fevrier febrero febbraio februari fevereiro",
    "03": "march mar märz maerz mars marzo maart março",
    "04": "april apr avril abril aprile",
    "05": "may mai mayo maggio mei maio",
    "06": "june jun juni juin junio giugno junho",
    "07": "july jul juli juillet julio luglio julho",
    "08": "august aug août aout agosto augustus",
    "09": "september sep sept septembre septiembre settembre setembro",
    "10": "october oct oktober octobre octubre ottobre outubro",
    "11": "november nov novembre noviembre novembro",
    "12": "december dec dezember décembre decembre diciembre dicembre dezembro",
}
# Two-letter German weekday abbreviations and "do"/"so"/"mar"... are ordinary words elsewhere:
# they count only when written capitalised and alone (see _day_token).
_AMBIGUOUS = frozenset({"mo", "di", "mi", "do", "fr", "sa", "so", "mar", "may", "sun", "sat"})
DAYS: dict[str, str] = {w: k for k, words in _DAY_WORDS.items() for w in words.split()}
MONTHS: dict[str, str] = {w: k for k, words in _MONTH_WORDS.items() for w in words.split()}
PARTS = {
    "morning": "morning",
    "mornings": "morning",
    "afternoon": "afternoon",
    "afternoons": "afternoon",
    "evening": "evening",
    "evenings": "evening",
    "night": "night",
    "nights": "night",
    "lunchtime": "noon",
    "morgens": "morning",
    "vormittags": "morning",
    "nachmittags": "afternoon",
    "abends": "evening",
    "matin": "morning",
    "soir": "evening",
    "mañana": "morning",
    "tarde": "afternoon",
}
# Currency codes and signs: "450 SEK per evening", "KSh 3,000 by M-Pesa" name no one.
CURRENCIES = frozenset(
    "sek nok dkk eur usd gbp chf pln czk huf isk jpy cny rmb inr aud cad nzd zar try brl mxn ft kr"
    " kn kč zł lei ron bgn rsd uah rub ksh kes ugx tzs rwf etb ngn ghs krw pkr lkr bdt npr idr"
    " myr thb vnd php sgd hkd twd ars clp cop pen aed sar qar egp mad tnd ils".split()
)
_NOT_NAMES = CURRENCIES | frozenset(
    "i i'm i've i'd i'll we we're our us you your he she they it it's its the a an this that these "
    "those my his her their there here when what who why how if and or but so then also not no "
    "ok okay yes mr mrs ms dr prof re fw fwd todo tbd n/a am pm utc gmt cet cest eu us uk"
    # the names of a sales tax: "22 000 Ft with ÁFA" names no one
    " vat áfa afa mwst tva iva btw moms gst hst alv pvm dph ddv".split()
)
_GROUP = r"[ \u00a0\u202f](?=\d{3}(?![\d:.,]\d|\d))"  # "22 000": a space between thousands
_TIME = LazyPattern(
    r"(?<![\w:.])(?<!\d[ \u00a0\u202f])(\d{1,2})(?:[:.h](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.|uhr|h)?"
    # "from 9 % to 4 %" is no time; "rang at 17:00: from 1 October" is one, "17:00:30" not
    rf"(?![\w%]|:\w|\s+%|[.,]\d|{_GROUP})",
    re.I,
)
_MONTH_WORD = "|".join(sorted((re.escape(w) for w in MONTHS), key=len, reverse=True))
_ORDINAL = r"(?:st|nd|rd|th|\.)?"
# "24–27 December", "14 Nov", "the 3rd of May" (days: groups 1 and 2, month: 3, year: 4)
DAY_MONTH = LazyPattern(
    rf"\b(?:(\d{{1,2}}){_ORDINAL}\s*[–—-]\s*)?(\d{{1,2}}){_ORDINAL}\s+(?:of\s+)?({_MONTH_WORD})\b\.?"
    r"(?:,?\s+(\d{4})\b)?",
    re.I,
)
# "Nov 14th", "December 12-14" (month: group 1, days: 2 and 3, year: 4); not "December 10:00"
MONTH_DAY = LazyPattern(
    rf"\b({_MONTH_WORD})\.?\s+(\d{{1,2}}){_ORDINAL}(?:\s*[–—-]\s*(\d{{1,2}}){_ORDINAL})?\b"
    r"(?![:.]\d)(?:,?\s+(\d{4})\b)?",
    re.I,
)
_SEPARATORS = LazyPattern(r"[, \u00a0\u202f]")  # what groups a number's thousands
_ISO_DATE = LazyPattern(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
_WORD = LazyPattern(
    rf"@?[^\W_](?:[\w'’.-]|,(?=\d{{3}})|(?<=\d){_GROUP})*"
    r"[^\W_]|@?[^\W_]",
    re.UNICODE,
)
_COUNTED = frozenset(
    "years year months month weeks week days day nights night hours hour minute minutes mins min "
    "people kids children members players times laps km miles metres meters kg items pages "
    "words pieces".split()
)
_HOUR_WORDS = frozenset("before after until till at from by vor nach ab".split())
_NUMBER = LazyPattern(
    # "R3,800", "R480": the rand's sign before a sum (not "r3a", which is a name)
    r"(?:[€$£¥#~+-]|r(?=\d{1,3}(?:,\d{3})+(?:\.\d\d)?$|\d{3,6}(?:\.\d\d)?$))?"
    r"(\d{1,3}(?:[, \u00a0\u202f]\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?)"
    r"(?:%|k|m|x|st|nd|rd|th|h|d|w|y|kg|km|cm|mm|ml|gb|mb|tb|eur|usd|dkk|nok|sek|gbp|chf|€|\$)?"
)
_SENTENCE_START = LazyPattern(r"(?:^|[.!?:;]\s+|\n|^[-*+]\s+|\(\s*|[\"“]\s*)$")


def _days_of_month(text: str, taken: list[tuple[int, int]]) -> list[Value]:
    """``date:MM-DD`` for each day of a named month, its digits added to ``taken``."""
    found = []
    for pattern, month_group, day_groups in ((DAY_MONTH, 3, (1, 2)), (MONTH_DAY, 1, (2, 3))):
        for match in pattern.finditer(text):
            word = match.group(month_group)
            base = word.casefold().rstrip(".")
            if base in _AMBIGUOUS and not word[:1].isupper():
                continue  # "2 may come" is no date
            for group in day_groups:
                day = match.group(group)
                if day is None or not 1 <= int(day) <= 31:
                    continue
                span = match.span(group)
                if any(a <= span[0] < b for a, b in taken):
                    continue
                found.append(Value(f"date:{MONTHS[base]}-{int(day):02d}", span[0]))
                taken.append(span)
    return found


class Value(_value.Value):
    """One typed value and where it starts in the text it was read from."""

    __match_args__ = ("token", "start")
    __slots__ = __match_args__
    token: Final[str]
    start: Final[int]

    def __init__(self, token: str, start: int) -> None:
        self.token, self.start = token, start


def kind_of(token: str) -> str:
    """The type of a value token (``day``, ``time``, ``name``...)."""
    return token.split(":", 1)[0]


def _fold(word: str) -> str:
    return unicodedata.normalize("NFKC", word).casefold().replace("’", "'")


def _clock(
    hour: str, minute: str | None, suffix: str | None, *, hour_word: bool = False
) -> str | None:
    h, m = int(hour), int(minute or 0)
    tag = (suffix or "").lower().replace(".", "")
    if tag == "pm" and h < 12:
        h += 12
    elif tag == "am" and h == 12:
        h = 0
    if h > 23 or m > 59:
        return None
    if minute is None and not tag and not hour_word:
        return None  # a bare number is a number, not a time ("before 11" is one)
    return f"time:{h:02d}:{m:02d}"


def _day_token(word: str, folded: str) -> str | None:
    base = folded.rstrip(".")
    if base not in DAYS:
        return None
    if base in _AMBIGUOUS and not word[:1].isupper():
        return None
    if base in ("do", "so", "sa", "mo", "di", "mi", "fr") and len(word) != 2:
        return None
    return f"day:{DAYS[base]}"


def _initial_word(word: str, base: str, text: str, start: int) -> bool:
    """An ordinary word that opens a sentence, though it could abbreviate a day or a month: "So
    from today" is not Sunday, "May I" not May. Without a dot, a digit or a time after it, a
    capital there says nothing ("Sa 10:00" and "So." stay days)."""
    if base.rstrip(".") not in _AMBIGUOUS or word.endswith(".") or not _is_initial(text, start):
        return False
    after = text[start + len(word) :].lstrip()
    return not after[:1].isdigit()


# a particle of a place's name: "Viña del Mar", "Mar de Ajó", "Mar del Plata"
_NAME_PARTICLE = LazyPattern(r"(?:\b(?:del|de|di|da|do|dos|das|la|el|von|van)\s+)$")
_PARTICLE_AFTER = LazyPattern(r"^\s+(?:del|de|di|da|do|dos|das|la|el)\s+\w")


def _in_place_name(word: str, base: str, text: str, start: int) -> bool:
    """An ambiguous month word that is part of a place's name: "Viña del Mar" is not March."""
    if base not in _AMBIGUOUS or word.endswith("."):
        return False
    after = text[start + len(word) :]
    if after.lstrip()[:1].isdigit() or text[:start].rstrip()[-1:].isdigit():
        return False
    return bool(_NAME_PARTICLE.search(text[:start]) or _PARTICLE_AFTER.search(after))


def _is_initial(text: str, start: int) -> bool:
    return start == 0 or _SENTENCE_START.search(text[:start]) is not None


def values_of(
    text: str, *, known: Set[str] = frozenset(), proper: Set[str] = frozenset()
) -> list[Value]:
    """Every typed value in ``text`` in order (see the module rules); ``known`` names (folded
    words) count as names even where they open a sentence, ``proper`` ones only where they
    are capitalised ("Lime" of "Tobar Lime Works", not "all our lime")."""
    found: list[Value] = []
    taken: list[tuple[int, int]] = []
    for match in _ISO_DATE.finditer(text):
        found.append(Value(f"date:{match.group(0)}", match.start()))
        taken.append(match.span())
    found += _days_of_month(text, taken)
    for match in _TIME.finditer(text):
        if any(a <= match.start() < b for a, b in taken):
            continue
        before = text[: match.start()].rstrip().rsplit(None, 1)[-1:] or [""]
        after = text[match.end() :].split(None, 1)[:1] or [""]
        hour_word = before[0].casefold() in _HOUR_WORDS
        if after[0].casefold().strip(".,;") in MONTHS:
            continue  # "from 1 November" is a date
        if match.group(2) is None and after[0].casefold().strip(".,;") in _COUNTED:
            continue  # "after 22 years", "by 3 people" count something
        dotted = match.group(2) is not None and "." in match.group(0) and not match.group(3)
        if dotted and not hour_word:
            continue  # "1.05 DKK" is a number; "at 17.30" is a time
        clock = _clock(match.group(1), match.group(2), match.group(3), hour_word=hour_word)
        if clock is not None:
            found.append(Value(clock, match.start()))
            taken.append(match.span())
    for match in _WORD.finditer(text):
        if any(a <= match.start() < b for a, b in taken):
            continue
        word = match.group(0)
        folded = _fold(word.lstrip("@")).strip(".'")
        if word[:1].isupper() or word.startswith("@"):
            folded = folded.removesuffix("'s")  # "Priya's lesson" names Priya
        start = match.start()
        token = _typed(word, folded, text, start, known, proper)
        if token is not None:
            found.append(Value(token, start))
    found.extend(_opening_names(text, found))
    found.sort(key=lambda value: value.start)
    return found


_CAPITAL_PAIR = LazyPattern(r"(?:^|(?<=[.!?:;]\s)|(?<=^[-*+]\s))([A-Z][\w'’-]+)\s+[A-Z][\w'’-]+")


def _opening_names(text: str, found: list[Value]) -> list[Value]:
    """A sentence's first word when a name follows it directly ("Ingrid Solberg is ..."):
    two capitalised words in a row are a name, unless the first is a function word."""
    names = {v.start for v in found if v.token.startswith("name:")}
    extra = []
    for match in _CAPITAL_PAIR.finditer(text):
        word = match.group(1)
        folded = _fold(word).removesuffix("'s")
        second = match.start() + len(match.group(0)) - len(match.group(0).split()[-1])
        plain = folded not in _NOT_NAMES and folded not in DAYS and folded not in MONTHS
        if second in names and plain and not any(v.start == match.start(1) for v in found):
            extra.append(Value(f"name:{folded}", match.start(1)))
    return extra


def _typed(
    word: str, folded: str, text: str, start: int, known: Set[str], proper: Set[str]
) -> str | None:
    day = _day_token(word, folded)
    if day is not None and not _initial_word(word, folded, text, start):
        return day
    month = folded.rstrip(".")
    if (
        month in MONTHS
        and (month not in _AMBIGUOUS or word[:1].isupper())
        and not _initial_word(word, month, text, start)
        and not _in_place_name(word, month, text, start)
    ):
        return f"month:{MONTHS[month]}"
    if folded in ("noon", "midday", "mittag", "midi", "mediodía"):
        return "time:12:00"  # "Wednesday noon" and "Wednesday 12:00" are one time
    if folded in PARTS:
        return f"part:{PARTS[folded]}"
    if any(c.isdigit() for c in folded):
        number = _NUMBER.fullmatch(folded)
        if number is not None:
            return f"num:{_SEPARATORS.sub('', number.group(1))}"
        return f"id:{folded}"  # "db-31", "r3a", "v2.4", "s3": a name with digits in it
    if re.search(r"\w[-./]\w", folded) and not word[:1].isupper():
        return None  # "follow-up", "e.g.": hyphenated words are words
    if word.startswith("@"):
        return f"name:{folded}"
    if folded in known or (folded in proper and word[:1].isupper()):
        return f"name:{folded}"
    if not word[:1].isupper() or folded in _NOT_NAMES or len(folded) < 2:
        return None
    if _is_initial(text, start):
        return None
    return f"name:{folded}"
