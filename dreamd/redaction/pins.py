"""PINs said in a sentence with words between the PIN's name and its digits: a mobile-money
wallet's, a card's, a banking app's.

:mod:`dreamd.redaction.keys` reads ``PIN 4821`` and ``PIN: 4821``; people write whose PIN it is
and for which wallet before the digits, in the languages mobile money is used in:
``PIN yangu ya M-Pesa ni …``, ``GCash MPIN ko: …``, ``বিকাশ পিন …``, ``የቴሌብር ፒን ኮዴ … ነው``,
``code secret Orange Money : …``, ``UPI पिन … है``, ``namba yangu ya siri ya Tigo Pesa ni …``,
``الرقم السري للبطاقة …``. Rules:

* A PIN's name (``PIN``, ``MPIN``, ``UPI PIN``, ``code PIN``, ``code secret``, ``code
  confidentiel``, ``numéro secret``, ``namba ya siri`` and ``nambari ya siri`` with a word
  between, ``পিন``, ``पिन``, ``ፒን``, ``پن``, ``الرقم السري``, ``الرمز السري``, ``รหัส ATM``,
  ``ПІН-код``, ``הקוד לכספומט``, ``کد عابربانک``, ``رمز دوم`` (a card's password for paying
  online), ``பின்``, ``གསང་ཨང``, ``PIN-númerið``, an eID card's ``PIN1`` and ``PIN2``…),
  then at most five words of the same sentence (whose it is, which wallet), perhaps a verb
  that gives it (``ni``, ``is``, ``ist``, ``है``, ``ነው``…) or a colon, then four to eight digits
  the sentence does not go on to count (``4 to 6 digits``, ``3 attempts``).
* Words that describe the PIN instead (``length``, ``digits``, ``attempts``, ``reset``,
  ``forgot``, ``wrong``, ``lazima``…) mean no PIN follows; a time word right before the digits
  (``in``, ``since``, ``tangu``) makes them a year, and so does a year's shape (``19…``,
  ``20…``) with no verb or colon before it (``pin tweet 2024 to the profile``: a verb).
  Digits the sentence goes on to describe (``PIN code 110001 is New Delhi GPO``: India's
  postal PIN) are no PIN given.

A PIN that counts up or repeats on a line of factory defaults (``factory defaults: PIN
123456``) is the manual's. Pure; standard library only.
"""

from __future__ import annotations

from dreamd.patterns import LazyPattern
from dreamd.redaction.finding import Finding
from dreamd.redaction.scan import find_words

__all__ = ["find_wallet_pins"]

_NAMES = (
    "pin",
    "pins",
    "mpin",
    "m-pin",
    "pin code",
    "code pin",
    "code secret",
    "code confidentiel",
    "numéro secret",
    "namba ya siri",
    "nambari ya siri",
    "পিন",
    "पिन",
    "ፒን",
    "پن",
    "پن کوڈ",
    "الرقم السري",
    "الرمز السري",
    "رقم سري",
    "пін",
    "пін-код",
    "пин-код",
    "pin-kód",
    "pin-koodi",
    "รหัส atm",
    "รหัสเอทีเอ็ม",
    "קוד לכספומט",
    "הקוד לכספומט",
    "קוד סודי",
    "הקוד הסודי",
    "کد عابربانک",
    "رمز کارت",
    "رمز عابربانک",
    "රහස් අංකය",
    # an eID card's two PINs, Icelandic, Tamil, Tibetan and Persian names (رمز دوم, a card's
    # "second password" for paying online)
    "pin1",
    "pin2",
    "pin-númerið",
    "pin-númer",
    "pin-númerinu",
    "பின்",
    "பின் நம்பர்",
    "གསང་ཨང",
    "رمز دوم",
    "رمز اینترنتی",
)
# Swahili puts whose it is inside the name: namba yangu ya siri, nambari yake ya siri.
_SPLIT_NAME = LazyPattern(r"(?i:namba(?:ri)?[ \t]+\w+[ \t]+ya[ \t]+siri)")
_VALUE = LazyPattern(r"\d{4,8}(?![\d.,:/-]\d|\d)")
_WORD = LazyPattern(r"[^\s]+")
_DESCRIBING = frozenset(
    "length digits digit attempts attempt tries try times reset forgot forgotten wrong"
    " incorrect blocked locked expired expires policy field format lazima haitakuuliza never"
    " rules rule prompt limit yako".split()
)
_TIME_WORDS = frozenset(
    "in since until by on at before after tangu mwaka seit depuis desde".split()
)
_COUNTED = LazyPattern(
    r"[ \t]*(?:to|-|–|or|au|bis|à)?[ \t]*\d*[ \t]*(?i:digits?|chiffres?|dígitos?|ziffern|tarakimu"
    r"|attempts?|tries|times|mal|fois|%)"
)
_END = frozenset(".!?;\n।॥።")
_GIVING = frozenset("is ni ist est es é è = : है ነው ko er".split())
_YEAR = LazyPattern(r"(?:19|20)\d\d")
_DESCRIBED = LazyPattern(r"[ \t]+(?:is|ist|est|es|ni|was|=)[ \t]")
MAX_BETWEEN = 5


def _digits_after(text: str, pos: int) -> tuple[int, int] | None:
    """The digits a PIN's name ending at ``pos`` gives, if any (see the module rules)."""
    previous = ""
    for count, word in enumerate(_WORD.finditer(text, pos, min(len(text), pos + 120))):
        if any(c in _END for c in text[pos : word.start()]):
            return None
        raw = word.group(0)
        bare = raw.strip(",:;()[]\"'“”«»").lower()
        value = _VALUE.match(raw)
        if value is not None and (value.end() == len(raw) or not raw[value.end()].isalnum()):
            if previous in _TIME_WORDS:
                return None
            start = word.start()
            end = start + value.end()
            given = previous in _GIVING or text[pos:start].strip().endswith(":")
            if _YEAR.fullmatch(value.group(0)) and not given:
                return None
            if _COUNTED.match(text, end) or _DESCRIBED.match(text, end):
                return None
            return start, end
        if bare in _DESCRIBING or any(c.isdigit() for c in raw):
            return None
        if raw[-1:] in "?!." and len(raw) > 1:
            return None
        if count > MAX_BETWEEN:
            return None
        previous = bare if bare else raw.strip()
        pos = word.end()
    return None


def find_wallet_pins(text: str, low: str) -> list[Finding]:
    """PINs after their name and the words saying whose and which (``low``: lower case)."""
    if low.isascii() and "pin" not in low and "siri" not in low and "secret" not in low:
        return []
    ends = [
        m.end()
        for m in find_words(low, _NAMES, r"(?![\w-])")
        if not (m.start() and low[m.start() - 1].isalnum())
    ]
    if "siri" in low:
        ends += [m.end() for m in _SPLIT_NAME.finditer(low)]
    from dreamd.redaction.keys import factory_default

    found = []
    for end in sorted(set(ends)):
        span = _digits_after(text, end)
        before = text[text.rfind("\n", 0, end) + 1 : end]
        if span is not None and not factory_default(before, text[span[0] : span[1]]):
            found.append(Finding("secret-assignment", *span))
    return found
