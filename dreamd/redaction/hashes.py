"""Password hashes: what a shadow file, an ``.htpasswd``, a router's config or a users table
keeps of a password. A hash opens nothing by itself, but it is cracked offline at leisure (a
weak password falls in minutes), so it is kept as carefully as the password.

* **Modular crypt format.** ``$id$[params$]salt$hash``: md5-crypt (``$1$``), Apache's
  ``$apr1$``, bcrypt (``$2a$``, ``$2b$``, ``$2y$``), sha256- and sha512-crypt (``$5$``,
  ``$6$``, ``rounds=`` allowed), yescrypt (``$y$``, ``$gy$``, ``$7$``), Cisco's type 8 and 9
  (``$8$``, ``$9$``), scrypt, PBKDF2 and Argon2 in their PHC strings (``$argon2id$v=19$m=…``).
* **Django's hashes.** ``pbkdf2_sha256$600000$salt$hash``, ``argon2$argon2id$…``,
  ``bcrypt_sha256$$2b$…``.

The last piece must look like a digest: sixteen characters or more of the crypt alphabet
(letters, digits, ``.``, ``/``, ``+``, ``=``). ``$1`` in a shell script, ``$5.99`` and a
``$HOME`` are none. A hash is masked where it stands as a value: after a user and a colon (a
shadow or ``.htpasswd`` line), after ``=`` or ``:``, or in quotes (a users table's ``INSERT``,
a JSON field); one named in prose as an example of its format (``bcrypt hash $2b$12$…``) is
left alone. A router's ``enable secret 9 $9$…`` is :mod:`dreamd.redaction.devices`'.

* **Windows's and Kerberos's.** An NT hash after ``-hashes LM:NT`` (impacket, NetExec's
  ``-H``), on mimikatz's ``NTLM :`` and ``SHA1 :`` lines, in a ``secretsdump`` line
  (``user:rid:LM:NT:::``); a NetNTLMv1 or v2 response as Responder prints it
  (``user::DOMAIN:challenge:proof:blob``); a Kerberos ticket's or pre-authentication's hash
  (``$krb5tgs$…``, ``$krb5asrep$…``). The LM and NT hashes of the empty password
  (``aad3b435…``, ``31d6cfe0…``) say that no password is set, and stay.
* **Salted.** A ``Hash`` key's hex or base64 value with a ``Salt`` key on a line next to it
  (ZNC's ``<Pass password>`` block): a file's checksum has no salt.
* **Cracked.** A line in the ``passwd`` format whose second field holds a value rather than
  ``x`` or ``*`` (``backup:Word*88:1001:1001::/home/backup:/bin/bash``: what ``john --show``
  prints of a cracked password).

Pure; standard library only.
"""

from __future__ import annotations

import re

from dreamd.redaction.finding import Finding

__all__ = ["find_password_hashes", "is_password_hash"]

_ALPHABET = r"[A-Za-z0-9./+=]"
_VALUE_OPENERS = frozenset(":=\"'`,(>")
_CRYPT = re.compile(
    r"(?<![\w$])\$(?:1|2[abxy]|5|6|7|8|9|y|gy|apr1|md5|sha1|scrypt|pbkdf2(?:-sha\d+)?"
    r"|argon2(?:id|i|d))\$"
    r"(?:[\w.,/+=-]{1,60}\$){0,4}" + _ALPHABET + r"{16,}"
)
_DJANGO = re.compile(
    r"(?<![\w$])(?:pbkdf2_sha(?:1|256)\$\d{3,7}\$[\w./+=]{4,64}\$"
    r"|(?:argon2|bcrypt(?:_sha256)?|scrypt)\$(?=[\w$]))[\w$.,/+=-]*" + _ALPHABET + r"{16,}"
)


# The LM and NT hashes of the empty password: no password is set.
_EMPTY = frozenset(("aad3b435b51404eeaad3b435b51404ee", "31d6cfe0d16ae931b73c59d7e0c089c0"))
_HEX32 = r"[0-9a-fA-F]{32}"
# Each with the text it needs to hold before its pattern is tried, and its groups.
_WINDOWS: tuple[tuple[tuple[str, ...], re.Pattern[str], tuple[str, ...]], ...] = (
    # -hashes LM:NT, -hashes :NT, -H NT
    (
        ("hashes", "-H"),
        re.compile(
            rf"(?<![\w-])(?:--?hashes|-H)[ \t=]+[\"']?(?:(?P<lm>{_HEX32})?:)?(?P<nt>{_HEX32})"
            r"(?![0-9a-fA-F])"
        ),
        ("lm", "nt"),
    ),
    # mimikatz: "* NTLM     : …", "* SHA1     : …"
    (
        ("NTLM", "LM ", "NT ", "SHA1"),
        re.compile(
            r"(?m)^[ \t]*\*?[ \t]*(?:NTLM|LM|NT|SHA1)[ \t]*:[ \t]*(?P<dumped>[0-9a-fA-F]{32,40})"
            r"[ \t]*$"
        ),
        ("dumped",),
    ),
    # secretsdump: user:rid:LM:NT:::
    ((":::",), re.compile(rf"(?m)^[^\s:]+:\d+:(?P<lm>{_HEX32}):(?P<nt>{_HEX32}):::"), ("lm", "nt")),
    # NetNTLMv1/v2 as Responder prints it: user::DOMAIN:challenge:proof:blob
    (
        ("::",),
        re.compile(
            r"(?P<netntlm>(?<![\w.$-])[\w.$-]+::[\w.-]+:[0-9a-fA-F]{16,48}:[0-9a-fA-F]{16,48}"
            r":[0-9a-fA-F]{16,})"
        ),
        ("netntlm",),
    ),
    # Kerberoasting and AS-REP roasting
    (("$krb5",), re.compile(r"(?P<kerberos>\$krb5(?:tgs|asrep|pa|tgt)\$\S{40,})"), ("kerberos",)),
)
_HASH_KEY = re.compile(
    r"(?im)^[ \t]*(?:password[ \t_-]?)?hash[ \t]*[=:][ \t]*"
    r"(?P<value>[0-9a-f]{32,128}|[A-Za-z0-9+/]{40,}={0,2})[ \t]*$"
)
_SALT_KEY = re.compile(r"(?im)^[ \t]*(?:password[ \t_-]?)?salt[ \t]*[=:]")
_PASSWD_LINE = re.compile(
    r"(?m)^[ \t]*[A-Za-z_][\w.-]{0,31}:(?P<value>[^:\s]{4,64}):\d+:\d+:[^:\n]*:[^:\n]*:[^:\n]*$"
)


def find_password_hashes(text: str) -> list[Finding]:
    """Password hashes in the modular crypt format and Django's, Windows's and Kerberos's, a
    salted one, and a cracked password in a ``passwd`` line (see the module rules)."""
    found: list[Finding] = []
    if "$" in text:
        matches = [*_CRYPT.finditer(text), *_DJANGO.finditer(text)]
        found += [
            Finding("password-hash", *m.span()) for m in matches if _as_value(text, m.start())
        ]
    found += _windows(text)
    if ":" in text:
        for line in _PASSWD_LINE.finditer(text):
            value = line.group("value")
            if value not in ("x", "*", "!", "!!", "*LK*", "*NP*") and not value.startswith("$"):
                found.append(Finding("password-hash", *line.span("value")))
    if "alt" in text or "ALT" in text:  # a Salt key, in any case
        for hashed in _HASH_KEY.finditer(text):
            near = text[max(0, hashed.start() - 200) : hashed.end() + 200]
            if _SALT_KEY.search(near):
                found.append(Finding("password-hash", *hashed.span("value")))
    return found


def _windows(text: str) -> list[Finding]:
    """NT, LM and NetNTLM hashes and Kerberos hashes (see the module rules)."""
    found = []
    for needles, pattern, groups in _WINDOWS:
        if not any(needle in text for needle in needles):
            continue
        for match in pattern.finditer(text):
            for group in groups:
                value = match.group(group)
                if value is not None and value.lower() not in _EMPTY:
                    found.append(Finding("password-hash", *match.span(group)))
    return found


def is_password_hash(value: str) -> bool:
    """``value`` is a password hash in the modular crypt format or Django's."""
    return bool(_CRYPT.fullmatch(value) or _DJANGO.fullmatch(value))


def _as_value(text: str, start: int) -> bool:
    """The hash at ``start`` stands as a value: after ``:`` or ``=`` or an opening quote."""
    before = text[max(0, start - 8) : start].rstrip(" \t")
    return before[-1:] in _VALUE_OPENERS
