"""Keys in the configuration of routers, switches and time servers, where a line's first words
name the key and its last one holds it.

* **A router's or a switch's key line.** A line (a command of Cisco IOS and the systems that
  copy its syntax) that starts with ``key``, ``key-string``, ``server-key``,
  ``authentication-key``, ``pre-shared-key``, ``ip ospf message-digest-key <n> md5``,
  ``ip ospf authentication-key``, ``tacacs-server key``, ``radius-server key`` or ``ppp chap
  password`` (a bare ``key`` only indented, as a block's line is: ``tacacs server ISE`` /
  `` key YVBi8o^-s0pJMz``), perhaps then the type of its encryption (``0``, ``7``), and ends
  with the key.
* **The other key and password lines of a router's config**, where more words follow or sit
  between: ``crypto isakmp key <key> address …``, ``username <name> [privilege <n>] secret
  [<type>] <key>``, ``enable secret [<type>] <key>``, ``tacacs-server host <host> key
  <key>``, Junos's ``pre-shared-key ascii-text "<key>"`` and a wireless controller's ``psk
  set-key ascii <key>``; the key may be a hash (``enable secret 9 $9$…``).
* **An NTP or chrony keys file's line.** ``12 SHA1 461a3904…`` (the key's number, its type,
  the key; a comment may follow).

The key must look like one: eight characters or more, or a digit, a symbol or both cases in
it; after a bare ``key``, a digit, a symbol or both cases (``  key takeaways`` is prose).
Pure; standard library only.
"""

from __future__ import annotations

import re

from dreamd.redaction.finding import Finding
from dreamd.redaction.hashes import is_password_hash

__all__ = ["find_device_keys"]

_KEY_LINE = re.compile(
    r"(?im)^[ \t]*(?:(?:ip[ \t]+ospf[ \t]+)?message-digest-key[ \t]+\d+[ \t]+md5"
    r"|(?:ip[ \t]+ospf[ \t]+)?authentication-key|(?:tacacs|radius)-server[ \t]+key"
    r"|key-string|server-key|pre-shared-key|ppp[ \t]+chap[ \t]+password|(?<=[ \t])(?P<bare>key))"
    r"[ \t]+(?:[07][ \t]+)?(?P<key>\S+)[ \t]*$"
)
# What a text holds when it holds a key line: the commands' words, or ``key`` indented.
_KEY_HINTS = (
    "key-string", "message-digest-key", "authentication-key", "tacacs", "radius",
    "server-key", "pre-shared-key", "\n key ", "\n  key ", "\n\tkey ",
)  # fmt: skip
# A username's or enable's line holds a secret only with one of these words in it.
_NAMES_SECRET = re.compile(r"\b(?:secret|password)[ \t]+(?:\d[ \t]+)?\S")
# Key lines with words after the key or between its command and the key: (hint, pattern).
_TYPE = r"(?:\d[ \t]+)?"
_OTHER_LINES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (hint, re.compile(pattern, re.IGNORECASE | re.MULTILINE))
    for hint, pattern in (
        (
            "isakmp",
            r"\bcrypto[ \t]+isakmp[ \t]+key[ \t]+" + _TYPE + r"(?P<key>\S+)[ \t]+(?:address|host)",
        ),
        (
            "ascii-text",
            r"\bpre-shared-key[ \t]+(?:ascii-text|hexadecimal)[ \t]+"
            r"(?:\"(?P<quoted>[^\"\n]+)\"|(?P<key>\S+))",
        ),
        (
            "username",
            r"^[ \t]*username[ \t]+\S+(?:[ \t]+privilege[ \t]+\d+)?[ \t]+(?:secret|password)[ \t]+"
            + _TYPE
            + r"(?P<key>\S+)[ \t]*$",
        ),
        (
            "enable",
            r"^[ \t]*enable[ \t]+(?:secret|password)[ \t]+(?:level[ \t]+\d+[ \t]+)?"
            + _TYPE
            + r"(?P<key>\S+)[ \t]*$",
        ),
        (
            "-server host",
            r"\b(?:tacacs|radius)-server[ \t]+host[ \t]+\S+(?:[ \t]+(?!key\b)\S+){0,6}?"
            r"[ \t]+key[ \t]+" + _TYPE + r"(?P<key>\S+)",
        ),
        ("set-key", r"\bpsk[ \t]+set-key[ \t]+(?:ascii|hex)[ \t]+(?P<key>\S+)"),
    )
)
_NTP_TYPES = (" md5 ", " sha1 ", " sha256 ", " sha512 ", " aes128cmac ")
_NTP_KEY = re.compile(
    r"(?im)^[ \t]*\d{1,5}[ \t]+(?:md5|sha1?|sha256|sha384|sha512|aes128cmac|m|s)[ \t]+"
    r"(?P<key>\S{8,})[ \t]*(?:#[^\n]*)?$"
)


def _key_shaped(value: str, *, bare: bool) -> bool:
    """Shaped like a key: eight characters or more, or a digit, a symbol or both cases in it;
    after a bare ``key`` (which prose uses too), a digit, a symbol or both cases."""
    if value.startswith(("$", "<", "{", "%")):
        return is_password_hash(value)  # a variable or a placeholder, or crypt's ``$9$…``
    mixed = value.lower() != value and value.upper() != value
    return (len(value) >= 8 and not bare) or mixed or any(not c.isalpha() for c in value)


def find_device_keys(text: str, low: str) -> list[Finding]:
    """Keys on router, switch and NTP key lines (``low``: ``text`` in lower case)."""
    found: list[Finding] = []
    if ("key" in low and any(word in low for word in _KEY_HINTS)) or "ppp chap" in low:
        for match in _KEY_LINE.finditer(text):
            if _key_shaped(match.group("key"), bare=match.group("bare") is not None):
                found.append(Finding("secret-assignment", *match.span("key")))
    other = "key" in low or "secret" in low or "password" in low
    for hint, pattern in _OTHER_LINES if other else ():
        if hint in low and (hint not in ("username", "enable") or _NAMES_SECRET.search(low)):
            for match in pattern.finditer(text):
                group = "quoted" if match.groupdict().get("quoted") is not None else "key"
                if _key_shaped(match.group(group), bare=False):
                    found.append(Finding("secret-assignment", *match.span(group)))
    if ("sha" in low or "md5" in low or "cmac" in low) and any(t in low for t in _NTP_TYPES):
        found += [Finding("secret-assignment", *m.span("key")) for m in _NTP_KEY.finditer(text)]
    return found
