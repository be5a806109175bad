"""Values an SQL ``INSERT`` gives to a column that names a secret.

``INSERT INTO users (email, password, role) VALUES ('ana@…', '…', 'admin')`` names its
columns once and gives their values in the same order, in one row or several; a value stands
nowhere near its column's name, so no key rule reads it. A column whose name reads as a
secret's key (``password``, ``api_token``, ``pin``: :func:`dreamd.redaction.keys.kind_of_name`)
holds one in each row, when the row's value there is a string literal that passes the key's
value rules (``NULL``, a number, a function call, a placeholder such as ``?`` or ``%s`` or
``:password`` is none). Pure; standard library only.
"""

from __future__ import annotations

import re

from dreamd.patterns import LazyPattern
from dreamd.redaction.finding import Finding
from dreamd.redaction.keys import kind_of_name, value_is_secret

__all__ = ["find_insert_secrets"]

_SECRET_KINDS = frozenset({"password", "token", "pin", "card-code", "bare-key", "security"})
_INSERT = LazyPattern(
    r"(?i:\binsert\s+(?:ignore\s+)?into)\s+[\w.\"`\[\]]+\s*\((?P<columns>[^()]{1,400})\)"
    r"\s*(?i:values)\s*"
)
# One value of a row: a quoted literal (a doubled quote inside it), or anything up to the next
# comma or bracket (a number, NULL, a call's name, a placeholder).
_VALUE = re.compile(r"\s*(?:'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|[^,()'\"]+)\s*")
MAX_ROWS = 200


def _rows(text: str, pos: int) -> list[list[tuple[int, int]]]:
    """The spans of each value of each ``( … )`` row from ``pos`` on."""
    rows: list[list[tuple[int, int]]] = []
    while pos < len(text) and text[pos] == "(" and len(rows) < MAX_ROWS:
        pos += 1
        row: list[tuple[int, int]] = []
        while True:
            value = _VALUE.match(text, pos)
            if value is None:
                return rows
            row.append(value.span())
            pos = value.end()
            if text[pos : pos + 1] == ",":
                pos += 1
                continue
            if text[pos : pos + 1] == ")":
                pos += 1
                break
            return rows  # a call or a sub-select inside the row: read no further
        rows.append(row)
        separator = re.compile(r"\s*,\s*").match(text, pos)
        if separator is None:
            break
        pos = separator.end()
    return rows


def find_insert_secrets(text: str) -> list[Finding]:
    """The secrets an ``INSERT`` gives to columns that name them (see the module rules)."""
    if "insert" not in text.lower():
        return []
    found: list[Finding] = []
    for match in _INSERT.finditer(text):
        names = [n.strip().strip('"`[]') for n in match.group("columns").split(",")]
        kinds = {i: k for i, n in enumerate(names) if (k := kind_of_name(n)) in _SECRET_KINDS}
        if not kinds:
            continue
        for row in _rows(text, match.end()):
            if len(row) != len(names):
                continue
            for index, kind in kinds.items():
                start, end = row[index]
                raw = text[start:end].strip()
                if len(raw) < 3 or raw[0] not in "'\"" or raw[-1] != raw[0]:
                    continue  # NULL, a number, a call, a placeholder: no literal given
                at = text.index(raw, start) + 1
                if value_is_secret(kind, raw[1:-1]):
                    found.append(Finding("secret-assignment", at, at + len(raw) - 2))
    return found
