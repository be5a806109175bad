"""Credentials jotted down as people do: ``login for the router: admin / Zx9!qLm2``.

A word that announces a login (``login``, ``creds``, ``credentials``, ``sign-in``, ``account``…),
then within a few words a separator (``:``, ``=``, ``is``, ``are``), then ``USER / PASSWORD`` or
``USER : PASSWORD``. The password is masked when it looks like one: it holds a digit, a symbol or
an upper-case letter after the first, or it repeats the user (``admin / admin``). A pair of plain
words is a choice, not a secret (``login options: google / github``); a path is a path
(``login page: /admin / settings``), and numbers over numbers are dates or
ratios (``the account is 12/2026 overdue``). A network's password said in passing (``the wifi at
the cabin is moonlight-Otter-42``) is masked when the word after the verb is shaped like one:
eight characters or more, letters with digits or symbols (``the wifi is down`` and
``the wifi is 5GHz-only`` stay). A Wi-Fi QR string (``WIFI:T:WPA;S:…;P:…;;``) gives its
password in its ``P`` field, in any field order, with ``\\;``, ``\\:`` and ``\\\\`` escaped or the
value quoted; its other fields (the network's name) stay, and an open network (``T:nopass``,
an empty ``P``) gives none.

May import: the standard library and :mod:`dreamd.redaction.finding`.
"""

from __future__ import annotations

import re

from dreamd.redaction.finding import Finding

__all__ = ["find_credential_pairs"]

_ANNOUNCE = re.compile(
    r"(?<![\w-])(?:log[- ]?ins?|sign[- ]?ins?|creds|credentials?|account|user(?:name)?"
    r"\s*(?:and|&|/)\s*pass(?:word)?)(?![\w-])"
)
_PAIR = re.compile(
    r"[^\n:=]{0,40}?(?:\s*[:=]|\s+(?:is|are|was|were))\s*"
    r"(?P<user>[\w.@+-]{1,64})[ \t]*(?:/|:|\s\|\s)[ \t]*(?P<secret>[^\s/][^\s]{3,63})"
)
_PLAIN_WORD = re.compile(r"[a-z]+")
# "the wifi at the cabin is moonlight-Otter-42": a network, a verb, then a password-shaped word.
_NETWORK = re.compile(
    r"(?<![\w-])(?:wi-?fi|wlan)(?![\w-])[^\n:=]{0,40}?(?:\s*[:=]|\s+(?:is|was))\s*"
    r"(?P<secret>[^\s\"'`]{8,63})",
    re.IGNORECASE,
)
# WIFI:T:WPA;S:Café Wi-Fi;P:Pa\;ss…;; (ZXing's format: fields K:V; with \ escapes)
_WIFI_QR = re.compile(
    r"WIFI:(?:[A-Za-z]{1,3}:(?:\\.|[^;\\\n])*;)*?P:(?P<value>\"[^\"\n]*\"|(?:\\.|[^;\\\n])*)"
)
_QR_FIELDS = re.compile(r"[A-Za-z]{1,3}:[^;\s]*;")
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
    if "/" not in text and ":" not in text:
        return found
    for announce in _ANNOUNCE.finditer(low):
        pair = _PAIR.match(text, announce.end())
        if not pair:
            continue
        user, secret = pair.group("user"), pair.group("secret").rstrip(".,;)")
        if user.startswith(("http", "www")) or "://" in secret or user.isdigit():
            continue
        if _PLAIN_WORD.fullmatch(secret) and secret != user.lower():
            continue
        start = pair.start("secret")
        found.append(Finding("secret-assignment", start, start + len(secret)))
    return found
