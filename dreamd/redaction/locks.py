"""Codes that open a lock, a safe, a key box or a door, said in a sentence with no PIN word.

:mod:`dreamd.redaction.keys` reads ``PIN 4821``, ``door code: 5521``, ``combo 17-32-05``;
people also write ``the lockbox at the cottage opens with 3 9 1 7``, ``the U-lock on the red
bike is set to 83051``, ``hotel safe — I set it to 271190``, ``keysafe by the back door:
58204``, ``Buzz 24179 at the street door``, ``unlock pattern for Dad's phone: L shape,
1-4-7-8-9``. Rules:

* **A lock, then how it opens.** A word for a lock (``lockbox``, ``key safe``, ``safe``,
  ``padlock``, ``U-lock``, ``locker``, ``door``, ``gate``, ``garage``, ``intercom``,
  ``keypad``, an ``unlock pattern``; ``Schlüsseltresor``, ``Zahlenschloss``, ``coffre``,
  ``cadenas``, ``candado``, ``caja fuerte``, ``cassaforte``, ``lucchetto``, ``kluis``,
  ``cadeado``, ``kłódka``, an ``alarm panel``…), at most six words of the same sentence with
  no digit, then what sets, opens or disarms it (``opens with``, ``unlocks with``, ``set
  to``, ``set it to``, ``disarm with``, ``geht mit … auf``, ``:``, ``=``), at most two plain
  words (``L shape``), then the code.
* **A lock set to a code.** ``set the wall safe to 906113``, ``changed the padlock code to …``.
* **A keypad's verb, then the code, beside a door.** ``buzz``, ``dial``, ``punch in``,
  ``key in``, ``tap in`` (``tippe``, ``composez``, ``digita``…) and the code, in a sentence
  that names a door, a gate, an entrance, an intercom or a keypad.

A code is four to eight digits, perhaps typed one at a time (``3 9 1 7``), dialled
(``1-4-7-8-9``) or with ``#`` or ``*`` in it, and it ends its clause (a comma, a bracket, the
sentence's end, or ``at``, ``then``, ``and``…): ``set to 2048 bits`` is a setting, ``weighs 40
kg`` a weight, ``14:30`` a time. Pure.
"""

from __future__ import annotations

import re
from functools import cache

from dreamd.redaction.finding import Finding
from dreamd.redaction.scan import windows

__all__ = ["find_lock_codes"]

# Locks a code is written after with a colon too (``keysafe: 58204``); a passage's number
# after a colon is as often a room's (``Door: 1204``), so a door's code needs a verb.
_CONTAINERS = tuple(
    "lockbox;lock box;key box;keybox;keysafe;key safe;safe;wall safe;padlock;lock;u-lock;d-lock"
    ";bike lock;intercom;buzzer;keypad;unlock pattern;pattern lock;screen lock"
    ";schlüsselkasten;schlüsseltresor;tresor;zahlenschloss;fahrradschloss;vorhängeschloss"
    ";entsperrmuster;coffre;coffre-fort;boîte à clés;cadenas;schéma de déverrouillage;candado"
    ";caja fuerte;cajetín;cassaforte;lucchetto;kluis;sleutelkluis;hangslot;cofre;cadeado;sejf"
    ";kłódka;alarm;alarm panel;alarmanlage".split(";")
)
_PASSAGES = tuple("door;front door;gate;garage;locker;tür;haustür;portail;porte;portal".split(";"))
# Stems every lock word and door word holds (a keypad's verb counts beside a door only): the
# stretch around a code holds one of them, or no rule here can find it.
_ANCHORS = (
    "lock", "safe", "key box", "keybox", "door", "gate", "garage", "intercom", "buzzer",
    "keypad", "pattern", "schloss", "schlüssel", "tresor", "muster", "tür", "coffre", "clés",
    "cadenas", "candado", "caja", "cajetín", "cassaforte", "lucchetto", "kluis", "hangslot",
    "cofre", "cadeado", "sejf", "kłódk", "porta", "porte", "déverrouillage", "entrance",
    "lobby", "eingang", "interphone", "puerta", "portone", "cancello", "citofono", "deur",
    "poort", "alarm",
)  # fmt: skip
_OPENERS = (
    r"opens?\s+with|unlocks?\s+with|(?:is\s+|was\s+)?set\s+(?:it\s+)?to|öffnet\s+mit"
    r"|(?:dis)?arms?\s+with|geht\s+mit|lässt\s+sich\s+mit"
    r"|s'ouvre\s+avec|se\s+abre\s+con|si\s+apre\s+con|gaat\s+open\s+met|abre\s+com"
)
_KEYPAD_VERBS = (
    r"buzz|dial|punch(?:\s+in)?|key\s+in|tap\s+in|tippe|tippen|eintippen|composez|compose"
    r"|digita|marca|marque|toets"
)
_DOORS = re.compile(
    r"(?i:door|gate|entrance|intercom|buzzer|keypad|lobby|tür|tor|eingang|porte|portail"
    r"|interphone|puerta|portal|portone|cancello|citofono|deur|poort)"
)
_CODE = r"(?P<code>\d{4,8}#?|\d(?: \d){3,7}#?|\d(?:-\d){3,8}|\d{1,6}[#*]\d{1,6}#?)"
# What may follow a code: the clause ends, or a word that starts the next one.
_CLAUSE_END = (
    r"(?=[ \t]*(?:$|[,.;!?)(\n—–]|(?i:at|on|by|then|and|to|for|und|dann|puis|et|y|e|luego"
    r"|yesterday|today|tonight|now|again|last|this|since|but|so|gestern|heute|hier|auf|öffnen"
    r")\b))"
)
_SENTENCE = re.compile(r"[.!?\n]")


def _alternation(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def _opened(words: tuple[str, ...], openers: str) -> re.Pattern[str]:
    alternation = _alternation(words)
    return re.compile(
        rf"(?i:(?<![\w-])(?:{alternation})(?![\w-]))(?P<gap>(?:[ \t]+[^\d\s.!?:=]+){{0,6}}?)"
        rf"[ \t]*(?:—[ \t]*(?:i|we|he|she|they)[ \t]+)?(?i:{openers})"
        rf"(?P<words>(?:[ \t]+[^\W\d_]+,?){{0,2}})[ \t]+{_CODE}{_CLAUSE_END}"
    )


@cache
def _patterns() -> tuple[re.Pattern[str], ...]:
    """A container's code after a verb or a colon, a passage's after a verb, a lock set to a
    code (``set the wall safe to …``), and a keypad's verb before a code."""
    containers = _opened(_CONTAINERS, _OPENERS + "|[:=]")
    passages = _opened(_PASSAGES, _OPENERS)
    set_to = re.compile(
        rf"(?i:(?<![\w-])(?:set|reset|changed?|put)[ \t]+(?:the[ \t]+|my[ \t]+|our[ \t]+)?"
        rf"(?:{_alternation(_CONTAINERS)})[ \t]+(?:code[ \t]+)?to)[ \t]+{_CODE}{_CLAUSE_END}"
    )
    keyed = re.compile(rf"(?i:(?<![\w-])(?:{_KEYPAD_VERBS}))[ \t]+{_CODE}{_CLAUSE_END}")
    return containers, passages, set_to, keyed


def _sentence(text: str, start: int, end: int) -> str:
    first = max((m.end() for m in _SENTENCE.finditer(text, max(0, start - 120), start)), default=0)
    stop = _SENTENCE.search(text, end)
    return text[max(first, start - 120) : stop.start() if stop else len(text)]


def find_lock_codes(text: str, low: str) -> list[Finding]:
    """Codes that open a lock, a safe or a door (see the module rules; ``low``: lower case)."""
    *opened_by, keyed = _patterns()
    found: list[Finding] = []
    for start, end in windows(low, _ANCHORS, before=60, after=120):
        for opened in (*opened_by, keyed):
            for match in opened.finditer(text, start, end):
                if opened is keyed and not _DOORS.search(_sentence(text, match.start(), end)):
                    continue
                found.append(Finding("secret-assignment", *match.span("code")))
    return found
