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
left alone. A router's ``enable secret 9 $9$…`` is :mod:`dreamd.redaction.devices`'. Pure;
standard library only.
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


def find_password_hashes(text: str) -> list[Finding]:
    """Password hashes in the modular crypt format and Django's (see the module rules)."""
    if "$" not in text:
        return []
    matches = [*_CRYPT.finditer(text), *_DJANGO.finditer(text)]
    return [Finding("password-hash", *m.span()) for m in matches if _as_value(text, m.start())]


def is_password_hash(value: str) -> bool:
    """``value`` is a password hash in the modular crypt format or Django's."""
    return bool(_CRYPT.fullmatch(value) or _DJANGO.fullmatch(value))


def _as_value(text: str, start: int) -> bool:
    """The hash at ``start`` stands as a value: after ``:`` or ``=`` or an opening quote."""
    before = text[max(0, start - 8) : start].rstrip(" \t")
    return before[-1:] in _VALUE_OPENERS
