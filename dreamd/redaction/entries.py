"""Secrets kept as entries of a list, each a name and a value in fields of their own: the
``env:`` of a Kubernetes container (``- name: DB_PASSWORD`` / ``value: …``), a Postman or
Insomnia environment (``"key": "password"``, ``"value": "…"``), an object a secret's name
opens with its ``"value"`` (Spring's actuator), a HAR file's headers and
cookies, a task definition's ``environment``, AWS's tags and parameters (``Name``/``Value``),
and a Robot Framework variable table's rows (``${PASSWORD}`` then two spaces or a tab, then the
value: the name in a reference's braces, the value after it).

The name field (``name``, ``key``, any case) holds a name that names a secret by the key
rules (:func:`dreamd.redaction.keys.kind_of_name`); the value field (``value``) follows it in
the same entry: in a JSON object before it closes, in YAML on the next line. The value is
masked when the key rules judge it one (``value: debug`` under ``LOG_LEVEL`` is no secret, and
neither is a ``valueFrom:`` that reads it from a secret object). Pure.
"""

from __future__ import annotations

import re

from dreamd.redaction.finding import Finding

__all__ = ["find_entry_values"]

_JSON = re.compile(
    r"\"(?i:name|key)\"[ \t]*:[ \t]*\"(?P<name>[^\"\n]{1,80})\"[^{}\[\]]{0,240}?"
    r"\"(?i:value)\"[ \t]*:[ \t]*\"(?P<value>(?:\\.|[^\"\\\n])*)\""
)
# An object a secret's name opens, holding its value (Spring's actuator: ``"spring.datasource
# .password": {"value": "…"}``, a property source's ``"db.password": {"value": …, "origin": …}``)
_NAMED_OBJECT = re.compile(
    r"\"(?P<name>[^\"\n]{1,80})\"[ \t]*:[ \t]*\{\s*"
    r"\"(?i:value)\"[ \t]*:[ \t]*\"(?P<value>(?:\\.|[^\"\\\n])*)\""
)
_YAML = re.compile(
    r"^[ \t]*(?:-[ \t]+)?(?i:name|key)[ \t]*:[ \t]*([\"']?)(?P<name>[\w.:-]{1,80})\1[ \t]*\n"
    r"[ \t]*(?i:value)[ \t]*:[ \t]*(?:\"(?P<q2>[^\"\n]*)\"|'(?P<q1>[^'\n]*)'"
    r"|(?P<bare>[^\s#\"'][^\n#]*?))[ \t]*(?:#[^\n]*)?$",
    re.MULTILINE,
)


# A Robot Framework variable table's row: ``${NAME}`` at the line's start, a gap of two spaces
# or a tab (the table's cell separator), the value.
_ROBOT = re.compile(
    r"^[ \t]*\$\{(?P<name>[\w .-]{1,60})\}(?:[ \t]{2,}|\t)(?P<value>\S(?:[^\n]*?\S)?)[ \t]*$",
    re.MULTILINE,
)


def find_entry_values(text: str, low: str) -> list[Finding]:
    """The values of name and value entries whose name names a secret (``low``: ``text``
    in lower case)."""
    from dreamd.redaction.keys import kind_of_name, value_is_secret

    found: list[Finding] = []
    if "${" in text:
        for row in _ROBOT.finditer(text):
            kind = kind_of_name(row.group("name"))
            if kind is not None and value_is_secret(kind, row.group("value")):
                found.append(Finding("secret-assignment", *row.span("value")))
    if "value" not in low or ("name" not in low and "key" not in low and "{" not in low):
        return found
    patterns = ((_JSON, ("value",)), (_NAMED_OBJECT, ("value",)), (_YAML, ("q2", "q1", "bare")))
    for pattern, groups in patterns:
        for match in pattern.finditer(text):
            kind = kind_of_name(match.group("name"))
            if kind is None:
                continue
            group = next(g for g in groups if match.group(g) is not None)
            if value_is_secret(kind, match.group(group)):
                found.append(Finding("secret-assignment", *match.span(group)))
    return found
