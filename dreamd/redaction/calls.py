"""Secrets defined by a call: the name is the first argument, the value the second.

``define('DB_PASSWORD', '…')`` and WordPress's salts (``define('AUTH_KEY', '…')``,
``SECURE_AUTH_SALT``, ``NONCE_KEY``), ``ini_set('mysql.default_password', '…')``,
``Sys.setenv("GITHUB_PAT", "…")``, ``Configure::write('Security.salt', '…')``,
``config.set('SECRET_KEY', '…')``: a call whose first argument is a quoted name that names a
secret (:func:`dreamd.redaction.keys.kind_of_name`: a password, a token, a key, a qualified
salt) and whose second is a quoted literal. The literal is the secret when it looks like the
kind's value: a password shaped like one (a digit or a symbol, so a translation such as
``label('password', 'Passwort')`` stays), a token or a key by the key rules; a placeholder
(``put your unique phrase here``), an empty string or a call (``getenv('DB_PASSWORD')``) is
not. A literal with spaces is a salt only when it is long (32 characters or more) and random.
A LaTeX macro is defined the same way: ``\\newcommand{\\dbpassword}{…}``,
``\\def\\apitoken{…}``.

May import: the standard library and the redaction modules.
"""

from __future__ import annotations

import re
from functools import cache

from dreamd.redaction.finding import Finding
from dreamd.redaction.keys import kind_of_name, value_is_secret
from dreamd.redaction.prose import password_shaped

__all__ = ["find_defined_secrets"]

_OPENING = re.compile(r"\(\s*[\"']")
# A LaTeX macro that names a secret and holds it: \newcommand{\dbpassword}{…}, \def\token{…}.
_MACRO = re.compile(
    r"\\(?:(?:re)?newcommand\*?\{\\|def\\)(?P<name>[A-Za-z@]{2,60})\}?"
    r"\{(?P<value>[^{}\n]{4,200})\}"
)


@cache
def _call() -> re.Pattern[str]:
    return re.compile(
        r"\(\s*(?P<q>[\"'])(?P<name>[A-Za-z_][\w.\-]{1,80})(?P=q)\s*,\s*"
        r"(?P<q2>[\"'])(?P<value>(?:(?!(?P=q2))[^\n]){4,200})(?P=q2)\s*[,)]"
    )


def _random(value: str) -> bool:
    """Long and of three kinds of characters or more: a generated salt, spaces and all."""
    kinds = (
        any(c.islower() for c in value)
        + any(c.isupper() for c in value)
        + any(c.isdigit() for c in value)
        + any(not c.isalnum() and not c.isspace() for c in value)
    )
    return len(value) >= 32 and kinds >= 3


def find_defined_secrets(text: str) -> list[Finding]:
    """The literal of every call that defines a secret-naming name (see the module rules)."""
    calls = _call().finditer(text) if _OPENING.search(text) else iter(())
    macros = _MACRO.finditer(text) if "\\" in text else iter(())
    found: list[Finding] = []
    for match in (*calls, *macros):
        kind = kind_of_name(match.group("name"))
        value = match.group("value")
        if kind is None or (" " in value and not _random(value)):
            continue
        if kind == "password":
            secret = password_shaped(value) or (" " in value and value_is_secret(kind, value))
        else:
            secret = value_is_secret(kind, value)
        if secret:
            found.append(Finding("secret-assignment", *match.span("value")))
    return found
