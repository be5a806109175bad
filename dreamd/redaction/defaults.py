"""Fallback values in code: the literal a program uses when a secret's variable is unset.

``os.environ.get("DB_PW", "fallbackPw123!")``, ``os.getenv('API_TOKEN', '…')``,
``process.env.DB_PASSWORD || "…"``, ``process.env.API_KEY ?? '…'``, ``${DB_PASSWORD:-…}``,
``ENV.fetch("SECRET_KEY", "…")`` and a Terraform
``variable "db_password" { default = "…" }``: when the variable names a secret (the same test
as a secret-naming key, :func:`dreamd.redaction.keys.kind_of_name`), its fallback is that secret.
An empty fallback, a reference (``${OTHER}``) or a placeholder (``changeme``) is not.

May import: the standard library and the redaction modules.
"""

from __future__ import annotations

import re

from dreamd.redaction.finding import Finding
from dreamd.redaction.keys import kind_of_name

__all__ = ["find_fallback_secrets"]

_QUOTED = r"""(?P<q>["'`])(?P<value>[^"'`\n]{4,200})(?P=q)"""
_CALLS = re.compile(
    r"(?:environ\.get|getenv|ENV\.fetch|env\.get|System\.getenv|env::var_or)\s*\(\s*"
    rf"""["'](?P<name>[A-Za-z_][\w.-]*)["']\s*,\s*{_QUOTED}"""
)
_OPERATORS = re.compile(
    rf"""(?:process\.env|import\.meta\.env)\.(?P<name>[A-Za-z_]\w*)\s*(?:\|\||\?\?)\s*{_QUOTED}"""
)
_SHELL = re.compile(r"\$\{(?P<name>[A-Za-z_]\w*):?-(?P<value>[^}\s$]{4,200})\}")
_TERRAFORM = re.compile(
    r'variable\s+"(?P<name>[\w-]+)"\s*\{[^{}]{0,400}?\bdefault\s*=\s*"(?P<value>[^"\n]{4,200})"'
)
_PLACEHOLDERS = frozenset(
    "changeme change-me changeit xxxx xxxxx xxxxxx secret password example none null dummy "
    "placeholder your-secret-here".split()
)


def find_fallback_secrets(text: str) -> list[Finding]:
    """Every fallback value of a secret-naming variable in ``text``."""
    if "env" not in text and "ENV" not in text and "${" not in text and "default" not in text:
        return []
    found: list[Finding] = []
    for pattern in (_CALLS, _OPERATORS, _SHELL, _TERRAFORM):
        for match in pattern.finditer(text):
            value = match.group("value")
            if value.lower() in _PLACEHOLDERS or value.startswith("${"):
                continue
            if kind_of_name(match.group("name")) is None:
                continue
            found.append(Finding("secret-assignment", match.start("value"), match.end("value")))
    return found
