"""Passwords in phrasings that put no password word before the value.

* **A verb of access.** ``use X to log in`` (``try``, ``enter``, ``type``; ``to get in``,
  ``to sign in``, ``to connect``, ``to unlock``…), ``log in with X``, ``unlock the laptop
  with X``, ``utilise X pour te connecter``, ``usa X para entrar``, ``nimm X zum Anmelden``;
  ``I typed X into the bank site``, ``can you try X?``; and ``sudo (on the build box) is X``.
  A product and its version (``try Python3.12?``) is no value.
* **The value before its word.** ``X is the password for …``, ``X — that's the new
  passphrase``, ``X ist das Passwort``, ``X est le mot de passe``, ``X es la contraseña``;
  and in the same sentence after one of them, ``Y is the one for …``; the value made one:
  ``j'ai mis X comme mdp``, ``puse X como contraseña``, ``X als Passwort``.
* **The new one.** After a change in the same sentence, ``the new one is …``, ``the new
  one's …``: a quoted value shaped like a password, or a strong one with a symbol bare
  (``changed the router admin, the new one is 'Wisla1996'``; ``the new one is in the password
  manager`` and ``the new one is iPhone15`` stay).
* **A chat spoiler.** ``||X||`` (Discord, Telegram), ``>!X!<`` (Reddit).
* **A lone word that can only be a password**, whatever is said around it (``same as the old
  laptop, …, don't judge``): 8 to 40 characters of letters, digits and the symbols passwords
  are made of, upper and lower case and a digit, and inside it a symbol no word, name or
  number is written with (``!#$%^&*?~@``, one or a run of them: ``g4$$1T``; a sentence's
  final ``!`` or ``?`` is not inside); not an e-mail address, a version, a percent-encoded
  string, a file's anchor (``README.md#L4``), a variable, a chord (``Cmaj7#11``), a name and
  its number (``Issue#4521``, ``Username#0``), a pattern's character range or a
  ``$``-joined identifier. Found from the symbols between two letters or digits, so a note
  without one costs a scan.

The value is shaped like a password (:func:`dreamd.redaction.prose.password_shaped`: six
characters or more, a letter and a digit or a symbol, no URL, path, version or date). After a
verb of access, and in a spoiler, it must also be strong (eight characters or more, digits,
mixed case or a symbol) and hold a symbol or two digits and two capitals, so a product
(``use your YubiKey5 to sign in``) stays; after ``unlock``/``log in … with`` a PIN of four to
eight digits that ends the clause counts too (``unlock the tablet with 7302 —``, not
``unlock the badge with 1000 points``). A password word followed by one that describes it
(``Bitwarden is the password manager``) names no value. Pure.
"""

from __future__ import annotations

import re
from functools import cache

from dreamd.redaction.finding import Finding
from dreamd.redaction.prose import password_shaped, strong_password
from dreamd.redaction.scan import windows

__all__ = ["find_phrased_secrets"]

_VALUE = r"(?P<value>[^\s\"'`<>|]{4,64}?)[,.;:!?)]*(?=\s|$)"
# (pattern, its anchors in lower case, how far before and after an anchor it may reach, words
# of which the text must hold one first: a rarer part of the phrase, looked for before the
# anchors)
_ACCESS: tuple[tuple[str, tuple[str, ...], int, int, tuple[str, ...]], ...] = (
    (  # English: use X to log in / get in / connect…
        r"(?i:\b(?:use|try|enter|type|paste)\s+)" + _VALUE + r"\s+(?i:to\s+(?:get\s+in"
        r"|log\s?-?in|login|sign\s?-?in|connect|unlock|access|authenticate)\b)",
        ("use ", "try ", "enter ", "type ", "paste "),
        0,
        120,
        ("to log", "to sign", "to get in", "to connect", "to unlock", "to access", "to authent"),
    ),
    (  # English: log in / sign in / unlock … with X
        r"(?i:\b(?:log(?:ged)?\s?-?in|logs?\s+in|sign(?:ed)?\s?-?in|signs?\s+in|get\s+in"
        r"|got\s+in|unlock(?:ed|s)?)(?:\s+(?!with\b)[^\s,.;:!?]+){0,4}\s+with\s+"
        r"(?:(?:the\s+)?(?:password|passphrase|pin|code)\s+)?)" + _VALUE,
        (
            "log in",
            "logged in",
            "login",
            "log-in",
            "logs in",
            "sign in",
            "signed in",
            "sign-in",
            "signs in",
            "get in",
            "got in",
            "unlock",
        ),
        0,
        150,
        (" with ",),
    ),
    (  # English: typed X into the site / the prompt
        r"(?i:\b(?:typed|entered|pasted)\s+)" + _VALUE + r"\s+(?i:in(?:to)?\b)",
        ("typed ", "entered ", "pasted "),
        0,
        90,
        (),
    ),
    (  # English: try X? (a question that hands it over)
        r"(?i:\b(?:try|use)\s+)(?P<asked>[^\s\"'`<>|]{4,64}?)\?(?=\s|$)",
        ("?",),
        76,
        1,
        ("try ", "use "),
    ),
    (  # French
        r"(?i:\b(?:utilise|utilisez|prends|prenez|tape|tapez|entre|entrez)\s+)"
        + _VALUE
        + r"\s+(?i:pour\s+(?:te\s+|vous\s+|se\s+)?(?:connecter|entrer|déverrouiller|accéder"
        r"|identifier))",
        ("pour ",),
        90,
        40,
        (),
    ),
    (  # Spanish
        r"(?i:\b(?:usa|use|utiliza|pon|escribe|introduce)\s+)" + _VALUE + r"\s+"
        r"(?i:para\s+(?:entrar|acceder|conectarte|conectar|iniciar\s+sesión|desbloquear))",
        ("para ",),
        90,
        40,
        (),
    ),
    (  # German
        r"(?i:\b(?:nimm|benutze|verwende)\s+)" + _VALUE + r"\s+"
        r"(?i:(?:zum\s+(?:Einloggen|Anmelden|Entsperren|Reinkommen)|um\s+(?:dich\s+)?"
        r"(?:anzumelden|einzuloggen|reinzukommen))\b)",
        ("zum ", " um "),
        90,
        40,
        (),
    ),
    (  # sudo (on the build box) is X
        r"(?i:\bsudo\b(?:\s+(?:on|for|at|in|of)\b[^\n.!?:=]{1,40}?)?\s*(?:\bis\b|\bwas\b"
        r"|[:=]))\s*" + _VALUE,
        ("sudo",),
        0,
        130,
        (),
    ),
)
_SUDO = len(_ACCESS) - 1
_VERSIONED = re.compile(r"[A-Za-z]*[-_]?v?\d+(?:\.\d+)+[A-Za-z0-9-]*")
_WITH = 1
_COPULA = r"(?:is|was|—|–|-|=|:|ist|war|est|c'est|es|era|é|è|är|jest|je|er|on)"
_BEFORE_WORD = (
    r"(?<![^\s(\[«\"'“])(?P<value>[^\s(\[«\"'“]\S{4,62}?)[)\]»\"'”]?\s+" + _COPULA + r"\s+"
    r"(?i:(?:(?:that's|that\s+is|it's|this\s+is|c'est|das\s+ist)\s+)?"
    r"(?:the|my|our|your|das|mein|unser|dein|le|mon|notre|ton|la|ma|el|mi|het|mijn)\s+"
    r"(?:(?:new|old|current|actual|real|neue|nouveau|nueva|nuevo|nieuwe|wifi|wi-fi|admin|root)"
    r"\s+){0,2}(?:password|passphrase|passcode|passwort|kennwort|mot\s+de\s+passe|contraseña"
    r"|clave|senha|wachtwoord|pin|pw))(?P<after>\W+\w+)?"
)
# "j'ai mis X comme mdp", "puse X como contraseña", "X als Passwort gesetzt": the value, then
# the word for what it was made.
_AS_WORD = (
    r"(?<!\S)(?P<value>\S{6,64}?)\s+(?i:comme|como|come|als|as|jako|как)\s+"
    r"(?i:(?:the|my|new|mon|le|nouveau|mi|la|nueva|mein|neues|het|nieuwe|nowe|новый)\s+){0,2}"
    r"(?i:mdp|mot\s+de\s+passe|contraseña|clave|senha|password|passwort|kennwort|wachtwoord"
    r"|hasło|пароль|pw|pin)(?!\w)(?P<after>\W+\w+)?"
)
_THE_ONE = r"(?<!\S)(?P<value>\S{6,64}?)\s+(?:is|was)\s+the\s+one\s+(?:for|to|on)\b"
_SPOILER = r"(?<!\|)\|\|(?P<value>[^\s|]{6,64})\|\|(?!\|)|>!(?P<reddit>[^\s!<][^\s<]{4,62}[^\s!])!<"
_DESCRIBING = frozenset(
    "manager managers policy policies field reset hint hints rules rule requirements length"
    " strength change expiry generator prompt reuse managers' manager's".split()
)
_SENTENCE_END = re.compile(r"[.!?;\n](?:\s|$)")
_CLAUSE_END = re.compile(r"\s*(?:$|[,.;:!?)(—–-]|\b(?:and|then|but|or)\b)")
_WORDS = (
    "pass", "kennwort", "contraseña", "clave", "senha", "wachtwoord", "pin", " pw", "mdp",
    "hasło", "пароль",
)  # fmt: skip


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], ...], tuple[re.Pattern[str], ...], re.Pattern[str]]:
    access = tuple(re.compile(pattern) for pattern, _, _, _, _ in _ACCESS)
    return access, (re.compile(_BEFORE_WORD), re.compile(_AS_WORD)), re.compile(_THE_ONE)


@cache
def _spoiler() -> re.Pattern[str]:
    return re.compile(_SPOILER)


def _accessible(value: str) -> bool:
    """Strong, and a symbol or two digits and two capitals: not a product's name."""
    return strong_password(value) and (
        any(not c.isalnum() for c in value)
        or (sum(c.isdigit() for c in value) >= 2 and sum(c.isupper() for c in value) >= 2)
    )


def _pin_ends_clause(text: str, match: re.Match[str]) -> bool:
    value = match.group("value")
    return 4 <= len(value) <= 8 and value.isdigit() and bool(_CLAUSE_END.match(text, match.end()))


def find_phrased_secrets(text: str, low: str) -> list[Finding]:
    """Values given to a verb of access, named after the value, or spoilered (``low``:
    ``text`` in lower case)."""
    found: list[Finding] = []
    access, before_words, the_one = _patterns()
    for index, (_, anchors, before, after, needs) in enumerate(_ACCESS):
        if needs and not any(word in low for word in needs):
            continue
        for start, end in windows(low, anchors, before=before, after=after):
            for match in access[index].finditer(text, start, end):
                group = "asked" if "asked" in match.groupdict() else "value"
                value = match.group(group)
                if _VERSIONED.fullmatch(value):
                    continue  # "try Python3.12?": a product and its version
                if (password_shaped(value) if index == _SUDO else _accessible(value)) or (
                    index == _WITH and _pin_ends_clause(text, match)
                ):
                    found.append(Finding("secret-assignment", *match.span(group)))
    for start, end in windows(low, _WORDS, before=90, after=40):
        for match in (m for pattern in before_words for m in pattern.finditer(text, start, end)):
            following = (match.group("after") or "").strip(" \t,.:;!?—–-").lower()
            if following in _DESCRIBING or not password_shaped(match.group("value")):
                continue
            found.append(Finding("secret-assignment", *match.span("value")))
            stop = _SENTENCE_END.search(text, match.end())
            for other in the_one.finditer(text, match.end(), stop.start() if stop else len(text)):
                if password_shaped(other.group("value")):
                    found.append(Finding("secret-assignment", *other.span("value")))
    if "new one" in low:
        found += _new_ones(text)
    if "||" in text or ">!" in text:
        for match in _spoiler().finditer(text):
            group = "value" if match.group("value") is not None else "reddit"
            if _accessible(match.group(group)) and password_shaped(match.group(group)):
                found.append(Finding("secret-assignment", *match.span(group)))
    for inner in _INNER_SYMBOL.finditer(text):
        start = max(text.rfind(c, 0, inner.start()) for c in " \t\n") + 1
        lone = _lone().match(text, start)
        if (
            lone is None
            or lone.end(1) < inner.end()
            or any(f.start <= lone.start(1) < f.end for f in found[-1:])
        ):
            continue  # no lone word around the symbol, or the word was taken already
        value = lone.group(1).rstrip("?!")
        if _lone_strong(value):
            found.append(Finding("secret-assignment", lone.start(1), lone.start(1) + len(value)))
    return found


# A symbol between two letters or digits: where a lone password may be (found at C speed).
# "changed the router admin, the new one is 'Wisla1996'": a change, then the new one's value.
_NEW_ONE = re.compile(
    r"(?i:\bthe[ \t]+new[ \t]+one(?:'s|[ \t]+is|[ \t]*:))[ \t]*"
    r"(?:[\"'“‘«](?P<quoted>[^\"'”’»\n]{6,64})[\"'”’»]|(?P<bare>[^\s\"'`]{8,64}))"
)
_CHANGE = re.compile(r"(?i:\b(?:changed|reset|rotated|updated|switched|new)\b)")


def _new_ones(text: str) -> list[Finding]:
    """``…changed the router admin, the new one is 'Wisla1996'``: after a change in the same
    sentence, the new one's value, quoted and shaped like a password, or bare, strong and
    holding a symbol (``the new one is iPhone15`` is a phone)."""
    found = []
    for match in _NEW_ONE.finditer(text):
        stop = max(text.rfind(c, 0, match.start()) for c in ".!?\n")
        if _CHANGE.search(text, stop + 1, match.start()) is None:
            continue
        if match.group("quoted") is not None:
            if password_shaped(match.group("quoted")):
                found.append(Finding("secret-assignment", *match.span("quoted")))
            continue
        value = match.group("bare").rstrip(".,;!?")
        if strong_password(value) and any(c in _LONE_SYMBOLS for c in value):
            start = match.start("bare")
            found.append(Finding("secret-assignment", start, start + len(value)))
    return found


_INNER_SYMBOL = re.compile(r"[!#$%^&*?~@](?<=[A-Za-z0-9][!#$%^&*?~@])[!#$%^&*?~@]*(?=[A-Za-z0-9])")


@cache
def _lone() -> re.Pattern[str]:
    """A word alone, made of letters, digits and the symbols passwords are made of, holding
    one of the symbols words are never written with."""
    return re.compile(
        r"[(\[\"'`«„“]?([A-Za-z0-9][A-Za-z0-9_.+-]*[!#$%^&*?~@][A-Za-z0-9!#$%^&*?~@_.+-]*)"
        r"(?=[\s)\]\"'`»”.,;:]|$)"
    )


def _lone_strong(value: str) -> bool:
    """A lone word that can only be a password: 8 to 40 characters, upper and lower case and
    a digit, a symbol inside it that no word, name, tag or number is written with
    (``!#$%^&*?~@``, and not a sentence's end), and none of the shapes that hold such a symbol
    harmlessly: an e-mail address, a version, a percent-encoded string, a file's anchor, a
    variable, a chord (``Cmaj7#11``), a name and its number (``Issue#4521``, a chat handle's
    ``Username#0``), a character range of a pattern, an identifier joined by ``$``."""
    if not 8 <= len(value) <= 40 or not any(c in _LONE_SYMBOLS for c in value[:-1]):
        return False
    if not (
        any(c.isupper() for c in value)
        and any(c.islower() for c in value)
        and any(c.isdigit() for c in value)
    ):
        return False
    return _LONE_HARMLESS.search(value) is None


_LONE_SYMBOLS = frozenset("!#$%^&*?~@")
_LONE_HARMLESS = re.compile(
    r"@[\w-]+\.[A-Za-z]|\d\.\d|%[0-9A-Fa-f]{2}.*%[0-9A-Fa-f]{2}|\.[A-Za-z]\w*#|^\$"
    r"|^[A-G](?:maj|min|dim|aug|sus|add|m)?\d*(?:[#b]\d+)+$|^[A-Za-z]+[#@&*~^!?%$]\d+$"
    r"|0-9|a-z|A-Z|\$\w+\$"
)
