"""The text the rules read: disguises undone, every character traceable to the original.

A keyword or a value can be written so that it looks the same to a person and different to a
pattern: ``p\\u200bassword`` (a zero-width space inside), ``pаssword`` (a Cyrillic ``а``),
``ＰＡＳＳＷＯＲＤ`` (fullwidth forms), ``password&#58;`` (an HTML entity), ``pass&shy;word``
(a soft hyphen), ``contrasen\\u0303a`` (a combining tilde). :func:`normalise` undoes them:

* HTML entities, named and numeric, are decoded (``&#64;`` is ``@``, ``&lt;`` is ``<``), and
  so are runs of JavaScript's and JSON's ``\\uXXXX`` escapes;
* inline tags that only style what they hold (``<kbd>``, ``<code>``, ``<b>``, ``<summary>``…,
  without attributes) are read as a space, and one closed and opened again at once
  (``<span>L</span><span>a</span>…``, a letter in each) as nothing;
* combining marks drawn through or under a letter (strikethrough, underline) are dropped;
* invisible characters are removed: zero-width spaces and joiners, the soft hyphen, word
  joiners, bidirectional marks, variation selectors, the byte-order mark;
* characters with a compatibility form take it (Unicode NFKC): fullwidth and halfwidth forms,
  mathematical letters and digits, ligatures, superscripts, circled letters, the odd spaces
  (no-break, ideographic, thin); a base letter and its combining marks are composed;
* inside a word that also holds ASCII letters, a Cyrillic, Greek or Armenian letter that looks
  like a Latin one is read as that letter (a word wholly in another script is left alone:
  ``пароль`` stays ``пароль``);
* the digits of other scripts are read as ASCII digits (Arabic-Indic ``٢٤٧``, Persian ``۱۳۸``,
  Devanagari ``२०४४``, Bengali ``৬৩০``, Thai ``๒๕``…), one for one, so a number rule reads a
  PIN or an id whatever script its digits are written in; a keycap's frame (``8️⃣``) is dropped
  like the variation selector before it;
* Unicode tag characters (``U+E0020``–``U+E007E``, invisible, made to tag emoji) that spell
  ASCII are read as the text they spell, after a space: a value hidden behind an emoji;
* in a text that says it is ``quoted-printable`` (a mail's body as sent), soft line breaks
  (``=`` at a line's end) join their lines and ``=XX`` escapes are decoded (``=C3=A4`` is
  ``ä``), so a value broken over two lines is read whole;
* in a text that holds an iCalendar or vCard file (``BEGIN:VEVENT``, ``BEGIN:VCARD``), a
  value's escapes are undone: ``\\n`` is a line break, ``\\,`` a comma, ``\\;`` a
  semicolon (``Meeting ID: …\\nPasscode: …`` is two lines), and a property's name is set off
  from its value as a key is (``NOTE:alarm code …`` reads ``NOTE: alarm code …``).

``…`` keeps its form (NFKC would make it ``...``): masks are written with it. Findings on the
normalised text are mapped back with :meth:`Normalised.span`; a character that came from a
longer original (an entity, a run of invisible characters) maps to all of it. A text with
nothing to undo (the common case: plain ASCII, or any text with no such character) is not
copied at all. Pure; standard library only.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from functools import cache

from dreamd.patterns import LazyPattern

__all__ = ["Normalised", "normalise"]

_ENTITY = r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
_INVISIBLE = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u20e3\u3164\ufe00-\ufe0f\ufeff\uffa0"
)
_COMPATIBLE = (
    "\u00a0\u00b2\u00b3\u00b9\u2000-\u200a\u202f\u205f\u2070-\u209f\u2100-\u214f\u2460-\u24ff"
    "\u3000\ufb00-\ufb06\ufe50-\ufe6b\uff01-\uff9f\U0001d400-\U0001d7ff"
)
# Inline tags that only style what they hold (``<kbd>…</kbd>``, ``<summary>…</summary>``):
# read as a space, so a value inside one stands where the sentence gives it.
_STYLE_TAG = (
    r"</?(?:kbd|code|samp|var|tt|b|strong|i|em|mark|u|s|del|ins|sup|sub|small|span|summary"
    r"|details)>"
)
# A styling tag closed and the same opened again at once (``</span><span>``, one letter in
# each): nothing between them, so the letters they hold are one word.
_JOINT = (
    r"</(?P<closed>kbd|code|samp|var|tt|b|strong|i|em|mark|u|s|del|ins|small|span)>"
    r"<(?P=closed)>"
)
_ESCAPES = r"(?:\\u[0-9a-fA-F]{4}){2,}"  # JavaScript's and JSON's \uXXXX, two or more
# Decimal digits of other scripts (Arabic-Indic, Persian, N'Ko, the Indic scripts, Thai, Lao,
# Tibetan, Myanmar, Khmer, Mongolian): each is read as its ASCII digit.
_DIGITS = (
    "\u0660-\u0669\u06f0-\u06f9\u07c0-\u07c9\u0966-\u096f\u09e6-\u09ef\u0a66-\u0a6f"
    "\u0ae6-\u0aef\u0b66-\u0b6f\u0be6-\u0bef\u0c66-\u0c6f\u0ce6-\u0cef\u0d66-\u0d6f"
    "\u0de6-\u0def\u0e50-\u0e59\u0ed0-\u0ed9\u0f20-\u0f29\u1040-\u1049\u17e0-\u17e9"
    "\u1810-\u1819"
)
# Tag characters that spell printable ASCII (a flag's tags spell a region, a hidden payload
# anything): three or more in a row.
_TAGS = "\U000e0020-\U000e007e"
_UNIT_SOURCE = (
    rf"(?P<entity>{_ENTITY})|(?P<invisible>[{_INVISIBLE}]+)|(?P<compatible>[{_COMPATIBLE}]+)"
    r"|(?P<combined>[^\W\d_][\u0300-\u036f]+)"
    rf"|(?P<joint>{_JOINT})|(?P<tag>{_STYLE_TAG})|(?P<escape>{_ESCAPES})|(?P<digits>[{_DIGITS}]+)"
    rf"|(?P<tags>[{_TAGS}]{{3,}}\U000e007f?)"
)
_UNITS = LazyPattern(_UNIT_SOURCE)
# A quoted-printable body's soft line break and its escaped bytes (read only in a text that
# says it is quoted-printable: elsewhere a line may well end with "=").
_QUOTED_PRINTABLE = LazyPattern(_UNIT_SOURCE + r"|(?P<soft>=\r?\n)|(?P<bytes>(?:=[0-9A-F]{2})+)")
# An iCalendar or vCard value's escapes (RFC 5545, RFC 6350): ``\n`` is a line break, ``\,``
# and ``\;`` a comma and a semicolon (read only in a text that holds such a file).
_CALENDAR = LazyPattern(
    _UNIT_SOURCE + r"|(?P<escaped>\\[nN,;])|(?P<property>(?m:^[A-Z][A-Z-]*(?:;[^:\n]*)?:)(?=\S))"
)
_CALENDAR_BEGIN = LazyPattern(r"BEGIN:V(?:CARD|CALENDAR|EVENT|TODO|JOURNAL)\b")
# Combining marks drawn through or under a letter (strikethrough, underline, overline): a
# disguise, not an accent, so they are dropped (``p̶a̶s̶s̶w̶o̶r̶d̶`` is ``password``).
_OVERLAYS = dict.fromkeys(map(ord, "\u0305\u0332\u0333\u0334\u0335\u0336\u0337\u0338\u033f"))
# Letters of other scripts that are drawn like a Latin letter (Unicode's confusables, the
# letters a person would take for Latin ones in a Latin word).
_LOOK_ALIKES = {
    "а": "a", "в": "b", "е": "e", "к": "k", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x",
    "і": "i", "ј": "j", "ѕ": "s", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ɡ": "g",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
    "Т": "T", "Х": "X", "У": "Y", "І": "I", "Ј": "J", "Ѕ": "S", "Ԛ": "Q", "Ԝ": "W",
    "α": "a", "ο": "o", "ρ": "p", "ν": "v", "υ": "u", "ι": "i", "κ": "k", "χ": "x", "ε": "e",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
    "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "օ": "o", "ս": "u", "ɑ": "a", "ı": "i",
}  # fmt: skip


@cache
def _look_alike_word() -> re.Pattern[str]:
    """A word holding both an ASCII letter and a look-alike letter of another script."""
    chars = re.escape("".join(_LOOK_ALIKES))
    return re.compile(rf"\w*(?:[A-Za-z]\w*?[{chars}]|[{chars}]\w*?[A-Za-z])\w*")


@cache
def _invisible() -> re.Pattern[str]:
    return re.compile(f"[{_INVISIBLE}]+")


@cache
def _look_alike_table() -> dict[int, str]:
    return str.maketrans(_LOOK_ALIKES)


class Normalised:
    """A normalised text and the way back to the original's offsets."""

    __slots__ = ("_segments", "_starts", "text")

    def __init__(self, text: str, segments: list[tuple[int, int, int, int]]) -> None:
        self.text = text
        # (start in text, start in the original, length in text, length in the original):
        # equal lengths map character for character, unequal ones as a whole.
        self._segments = segments
        self._starts = [segment[0] for segment in segments]

    def _at(self, index: int) -> tuple[int, int, int, int]:
        return self._segments[max(0, bisect_right(self._starts, index) - 1)]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original offsets of the normalised ``text[start:end]``."""
        at, origin, size, length = self._at(start)
        begin = origin + start - at if size == length else origin
        if end <= start:
            return begin, begin
        at, origin, size, length = self._at(end - 1)
        return begin, (origin + end - at if size == length else origin + length)


def _replacement(kind: str, unit: str) -> str:
    if kind == "entity":  # an entity may stand for an invisible or a fullwidth character too
        import html  # only a text with an entity needs it

        return unicodedata.normalize("NFKC", _invisible().sub("", html.unescape(unit)))
    if kind in ("invisible", "joint"):
        return ""
    if kind == "tag":
        return " "
    if kind == "escape":
        points = [int(unit[i + 2 : i + 6], 16) for i in range(0, len(unit), 6)]
        if any(0xD800 <= p <= 0xDFFF or p < 0x20 for p in points):
            return unit  # a surrogate pair or a control character: left as written
        return "".join(map(chr, points))
    if kind == "combined":
        return unicodedata.normalize("NFKC", unit).translate(_OVERLAYS)
    if kind == "digits":
        return "".join(str(unicodedata.decimal(char)) for char in unit)
    if kind == "tags":
        return " " + "".join(chr(ord(char) - 0xE0000) for char in unit if char != "\U000e007f")
    if kind == "soft":
        return ""
    if kind == "property":
        return unit + " "
    if kind == "escaped":
        return "\n" if unit in ("\\n", "\\N") else unit[1]
    if kind == "bytes":
        try:
            return bytes.fromhex(unit.replace("=", "")).decode("utf-8")
        except UnicodeDecodeError:
            return unit
    return unicodedata.normalize("NFKC", unit)


def _quoted_printable(text: str) -> bool:
    return "=\n" in text and "quoted-printable" in text.lower()


def _calendar(text: str) -> bool:
    return "BEGIN:V" in text and "\\" in text and _CALENDAR_BEGIN.search(text) is not None


def _needs_work(text: str) -> bool:
    if text.isascii():
        return (
            _quoted_printable(text)
            or _calendar(text)
            or ("&" in text and re.search(_ENTITY, text) is not None)
            or ("<" in text and re.search(_STYLE_TAG, text) is not None)
            or ("\\u" in text and re.search(_ESCAPES, text) is not None)
        )
    return (
        _UNITS.search(text) is not None
        or _look_alike_word().search(text) is not None
        or _quoted_printable(text)
        or _calendar(text)
    )


class _Builder:
    __slots__ = ("parts", "segments", "size")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.segments: list[tuple[int, int, int, int]] = []
        self.size = 0

    def add(self, new: str, origin: int, length: int) -> None:
        """Append ``new``, which stands for the ``length`` original characters at ``origin``."""
        if not new:
            return
        self.parts.append(new)
        size = len(new)
        if size == length and self.segments:
            at, start, last_size, last_length = self.segments[-1]
            if (
                last_size == last_length
                and at + last_size == self.size
                and start + last_size == origin
            ):
                self.segments[-1] = (at, start, last_size + size, last_length + size)
                self.size += size
                return
        self.segments.append((self.size, origin, size, length))
        self.size += size


def normalise(text: str) -> Normalised | None:
    """``text`` with its disguises undone (see the module rules), or None when it has none."""
    if not _needs_work(text):
        return None
    built = _Builder()
    pos = 0
    units = _UNITS
    if _quoted_printable(text):
        units = _QUOTED_PRINTABLE
    elif _calendar(text):
        units = _CALENDAR
    for match in units.finditer(text):
        built.add(text[pos : match.start()], pos, match.start() - pos)
        kind, unit, pos = match.lastgroup or "", match.group(0), match.end()
        new = _replacement(kind, unit)
        if kind == "compatible" and len(new) != len(unit):
            pieces = [unicodedata.normalize("NFKC", char) for char in unit]
            if "".join(pieces) == new:  # each character on its own: keep them traceable
                for index, piece in enumerate(pieces):
                    built.add(piece, match.start() + index, 1)
                continue
        built.add(new, match.start(), len(unit))
    built.add(text[pos:], pos, len(text) - pos)
    result = "".join(built.parts)
    if _look_alike_word().search(result):
        result = _look_alike_word().sub(_latin, result)
    if result == text:
        return None
    return Normalised(result, built.segments or [(0, 0, 0, 0)])


def _latin(match: re.Match[str]) -> str:
    return match.group(0).translate(_look_alike_table())
