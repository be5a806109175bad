"""Credentials jotted down as people do: ``login for the router: admin / Zx9!qLm2``.

A word that announces a login (``login``, ``creds``, ``credentials``, ``sign-in``, ``account``,
``Zugangsdaten``, ``identifiants``, ``credenziali``, ``acesso``…), then within a few words a
separator (``:``, ``=``, ``is``, ``are``), then ``USER / PASSWORD`` or ``USER : PASSWORD``, or
``USER, PASSWORD`` and ``USER + PASSWORD`` when the password holds a digit or a symbol (a
name listed after a comma holds neither). The password is masked when it looks like one: it
holds a digit, a symbol or an upper-case letter after the first, or it repeats the user
(``admin / admin``). A pair of plain
words is a choice, not a secret (``login options: google / github``); a path is a path
(``login page: /admin / settings``), a resource name is a name (``arn:aws:iam::…``), and
numbers over numbers are dates or
ratios (``the account is 12/2026 overdue``). A network's password said in passing (``the wifi at
the cabin is moonlight-Otter-42``, ``the wifi one is literally …``) is masked when the word
after the verb is shaped like one:
eight characters or more, letters with digits or symbols (``the wifi is down`` and
``the wifi is 5GHz-only`` stay). A Wi-Fi QR string (``WIFI:T:WPA;S:…;P:…;;``) gives its
password in its ``P`` field, in any field order, with ``\\;``, ``\\:`` and ``\\\\`` escaped or the
value quoted; its other fields (the network's name) stay, and an open network (``T:nopass``,
an empty ``P``) gives none. Shorthand too: ``u: admin p: …`` (a user after ``u``, a password
after ``p``, no plain word), and ``admin / …`` (an account every device has, a slash with
spaces round it, a value of three kinds of characters); an e-mail address, a slash with spaces
round it and a value of three kinds of characters (``netflix: ana@mail.example / …``); and an
e-mail address with its password after a colon (``alerts@mail.example:…``, as SMTP relay maps
and combo lists write it), the password of three kinds of characters, or of any kind on a relay
map's line (``[smtp.gmail.com]:587 alerts@gmail.com:…``: Postfix's ``sasl_passwd``).

May import: the standard library and :mod:`dreamd.redaction.finding`.
"""

from __future__ import annotations

import re

from dreamd.redaction.finding import Finding
from dreamd.redaction.keys import character_classes

__all__ = ["find_credential_pairs"]

_ANNOUNCE = re.compile(
    r"(?<![\w-])(?:log[- ]?ins?|sign[- ]?ins?|creds|credentials?|account|user(?:name)?"
    r"\s*(?:and|&|/)\s*pass(?:word)?|acesso|accesso|credenziali|credenciales|credenciais"
    r"|zugangsdaten|identifiants|inloggegevens|dane\s+logowania|giriş\s+bilgileri"
    r"|данные\s+для\s+входа|учётные\s+данные|учетные\s+данные)(?![\w-])"
)
_PAIR = re.compile(
    r"[^\n:=]{0,40}?(?:\s*[:=]|\s+(?:is|are|was|were))\s*"
    r"(?P<user>[\w.@+-]{1,64})(?:[ \t]*(?:/|:|\s\|\s)|(?P<loose>[ \t]+\+|,))[ \t]*"
    r"(?P<secret>[^\s/][^\s]{3,63})"
)
_PLAIN_WORD = re.compile(r"[a-z]+")
# What a password given after a comma or a plus holds and a listed name does not.
_NOT_A_NAME = re.compile(r"[\d!@#$%^&*?~]")
# What stands where a value would: a note in brackets, a mask, a placeholder, a variable, a
# call (``pwd: passwordPrompt()``).
_NO_VALUE = re.compile(
    r"[(\[{<]|\*{3}|x{4}|\.{3}|…|\$|%\w+%|[A-Za-z_][\w.]*\((?:\)|$)", re.IGNORECASE
)
# "the wifi at the cabin is moonlight-Otter-42": a network, a verb, then a password-shaped word.
_NETWORK = re.compile(
    r"(?<![\w-])(?:wi-?fi|wlan)(?![\w-])[^\n:=]{0,40}?(?:\s*[:=]|\s+(?:is|was))\s*"
    r"(?:(?:literally|just|now|still|actually|simply)\s+)?(?P<secret>[^\s\"'`]{8,63})",
    re.IGNORECASE,
)
# "u: admin p: Xk9#…", "user: ana pass: …": a user and a password, each after its letter.
_SHORT_PAIR = re.compile(
    r"(?<![\w-])(?:u|usr|user)[ \t]*[:=][ \t]*\S{1,64}[ \t,;/]+(?:p|pw|pwd|pass)[ \t]*[:=][ \t]*"
    r"(?P<secret>[^\s\"'`]{4,64})",
    re.IGNORECASE,
)
# The password's half of a shorthand pair, looked for first (a pattern with a literal start).
_SHORT_P = re.compile(r"p(?:w|wd|ass)?[ \t]*[:=]")
# "for the NAS: admin / Xk9#…": an account every device has, a slash, a password-shaped value.
_ACCOUNT_SLASH = re.compile(
    r"(?<![\w/.-])(?:admin|administrator|root|pi|ubnt|sa|postgres|guest|user)[ \t]+/[ \t]+"
    r"(?P<secret>[^\s/]{6,64})(?=[\s.,;)]|$)",
    re.IGNORECASE,
)
# WIFI:T:WPA;S:Café Wi-Fi;P:Pa\;ss…;; (ZXing's format: fields K:V; with \ escapes)
_WIFI_QR = re.compile(
    r"WIFI:(?:[A-Za-z]{1,3}:(?:\\.|[^;\\\n])*;)*?P:(?P<value>\"[^\"\n]*\"|(?:\\.|[^;\\\n])*)"
)
_QR_FIELDS = re.compile(r"[A-Za-z]{1,3}:[^;\s]*;")
# "alerts@mailhost.net:Xk9#…": an address, a colon, a password (SMTP relay maps, combo lists).
_ADDRESS_PASSWORD = re.compile(
    r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+:(?P<secret>[^\s:@/\"'`]{6,64})(?=[\s,;]|$)"
)
# A relay map's line (Postfix's ``sasl_passwd``): ``[smtp.host]:587 user@host:password``. The
# line's form says what the value is, so any value counts (an app password is lower case).
_RELAY_LINE = re.compile(
    r"^[ \t]*\[?[\w-]+(?:\.[\w-]+)+\]?(?::\d{2,5})?[ \t]+[^\s@]+@[\w-]+(?:\.[\w-]+)+:"
    r"(?P<secret>[^\s\"'`]{4,64})[ \t]*$",
    re.MULTILINE,
)
# "netflix: ana.k@mail.example / …": an address, a slash with spaces round it, a password.
_ADDRESS_SLASH = re.compile(
    r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+[ \t]+/[ \t]+(?P<secret>[^\s/]{6,64})(?=[\s,;)]|$)"
)
_PASSWORD_SHAPED = re.compile(r"(?=.*[A-Za-z])(?=.*[\d!@#$%^&*+=?~])[^\s]{8,}")
_MEASURE = re.compile(r"\d+(?:\.\d+)?\s?(?:[GMK]Hz|[GMK]bps|[GMK]B/s|ms|dBm?|%)", re.IGNORECASE)


def find_credential_pairs(text: str, low: str) -> list[Finding]:
    """The password of every announced ``user / password`` pair (``low``: ``text`` lowered)."""
    found: list[Finding] = []
    if "WIFI:" in text or "wifi:" in text:
        for qr in _WIFI_QR.finditer(text):
            start, end = qr.span("value")
            if text[start : start + 1] == '"' and end - start >= 2:
                start, end = start + 1, end - 1
            if end > start:
                found.append(Finding("secret-assignment", start, end))
    for network in _NETWORK.finditer(text):
        secret = network.group("secret").rstrip(".,;)")
        if _QR_FIELDS.match(secret):
            continue  # WIFI:T:WPA;S:…: a QR string's fields, read above
        if (
            _PASSWORD_SHAPED.fullmatch(secret)
            and not _MEASURE.search(secret)
            and "://" not in secret
            and "/" not in secret
        ):
            start = network.start("secret")
            found.append(Finding("secret-assignment", start, start + len(secret)))
    if "/" not in text and ":" not in text and " + " not in text:
        return found
    for short in _SHORT_PAIR.finditer(text) if _SHORT_P.search(low) else ():
        secret, start = short.group("secret").rstrip(".,;)"), short.start("secret")
        if not _PLAIN_WORD.fullmatch(secret) and not _NO_VALUE.match(secret):
            found.append(Finding("secret-assignment", start, start + len(secret)))
    for combo in _ADDRESS_PASSWORD.finditer(text) if "@" in text else ():
        if character_classes(combo.group("secret")) >= 3:
            found.append(Finding("secret-assignment", *combo.span("secret")))
    for slash in _ADDRESS_SLASH.finditer(text) if "@" in text and " / " in text else ():
        if character_classes(slash.group("secret")) >= 3:
            found.append(Finding("secret-assignment", *slash.span("secret")))
    for relay in _RELAY_LINE.finditer(text) if "@" in text else ():
        if not _NO_VALUE.match(relay.group("secret")):
            found.append(Finding("secret-assignment", *relay.span("secret")))
    for account in _ACCOUNT_SLASH.finditer(text) if " / " in text else ():
        secret, start = account.group("secret").rstrip(".,;)"), account.start("secret")
        if character_classes(secret) >= 3:
            found.append(Finding("secret-assignment", start, start + len(secret)))
    for announce in _ANNOUNCE.finditer(low):
        pair = _PAIR.match(text, announce.end())
        if not pair:
            continue
        user, secret = pair.group("user"), pair.group("secret").rstrip(".,;)")
        if user.startswith(("http", "www")) or "://" in secret or user.isdigit():
            continue
        if text[max(0, pair.start("user") - 4) : pair.start("user")].lower() == "arn:":
            continue  # arn:aws:iam::1234…:role/deploy names a resource, not a login
        if _PLAIN_WORD.fullmatch(secret) and secret != user.lower():
            continue
        if pair.group("loose") and not _NOT_A_NAME.search(secret):
            continue  # "login: Ana, Maria": after a comma or a plus, a name is listed

        start = pair.start("secret")
        found.append(Finding("secret-assignment", start, start + len(secret)))
    return found
