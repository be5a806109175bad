"""Secrets in XML and HTML: an element, or an attribute, that names what it holds.

* An element named for a secret holds one: ``<password>…</password>``, ``<Kennwort>…``,
  ``<secret>…``, ``<db:password>…`` (the name read as a key is, by
  :func:`dreamd.redaction.keys.kind_of_name`).
* An element whose ``name``, ``key`` or ``property`` attribute names a secret holds one:
  ``<property name="hibernate.connection.password">…</property>``,
  ``<entry key="api.token">…</entry>``, ``<string name="backend_secret">…</string>``; and
  one whose value is wrapped in a ``<value>`` child, as .NET settings and Windows answer
  files are: ``<setting name="SmtpPassword"><value>…</value></setting>``,
  ``<AdministratorPassword><Value>…</Value>``.
* A name element followed by its value's: ``<Key>Password</Key><Value>…</Value>`` (KeePass),
  ``<key>api_token</key><string>…</string>`` (a property list), a definition list's or a
  table's ``<dt>Passwort</dt><dd>…</dd>``, ``<th>PIN</th><td>…</td>``.
* The ``value`` attribute of a tag whose ``name``, ``key`` or ``id`` names a secret, or whose
  ``type`` is ``password``: ``<add key="StripeSecret" value="…"/>``,
  ``<input type="password" value="…">``. (``password="…"`` is a key and a value, read by
  :mod:`dreamd.redaction.keys`.)

The value must pass the same value rules as a key's (a placeholder, a reference such as
``${DB_PASSWORD}`` or ``{{ vault_db_password }}``, a plain word of prose is not a secret).
Escaped markup (``&lt;password&gt;…``) is read once :mod:`dreamd.redaction.normalise` has
decoded it. Pure.
"""

from __future__ import annotations

import re
from functools import cache

from dreamd.redaction.finding import Finding
from dreamd.redaction.keys import kind_of_name, value_is_secret

__all__ = ["find_markup_secrets"]

_KINDS = frozenset({"password", "token", "pin", "card-code", "bare-key", "security"})


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    element = re.compile(
        r"<(?P<tag>[A-Za-z_][\w:.-]{0,60})(?P<attrs>\s[^<>]{0,300})?>"
        r"(?P<value>[^<>\n]{1,256})</(?P=tag)\s*>"
    )
    tag = re.compile(r"<[A-Za-z_][\w:.-]{0,60}(?P<attrs>\s[^<>]{0,400}?)/?>")
    attribute = re.compile(r"""(?P<name>[\w:.-]+)\s*=\s*(?:"(?P<q2>[^"\n]*)"|'(?P<q1>[^'\n]*)')""")
    return element, tag, attribute


@cache
def _wrapped() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """An element, named by its tag or its attributes, whose value is wrapped in a ``<value>``
    child (.NET settings, Windows answer files); and a name element followed by its value's
    (``<Key>Password</Key><Value>…``, a property list's ``<key>…</key><string>…``)."""
    child = re.compile(
        r"<(?P<tag>[A-Za-z_][\w:.-]{0,60})(?P<attrs>\s[^<>]{0,300})?>\s*"
        r"<(?P<inner>value|string)(?:\s[^<>]{0,200})?>"
        r"(?P<value>[^<>\n]{1,256})</(?P=inner)\s*>",
        re.IGNORECASE,
    )
    sibling = re.compile(
        r"<(?P<outer>key|name|dt|th)>(?P<name>[^<>\n]{1,60})</(?P=outer)\s*>\s*"
        r"<(?P<inner>value|string|data|dd|td)(?:\s[^<>]{0,200})?>"
        r"(?P<value>[^<>\n]{1,256})</(?P=inner)\s*>",
        re.IGNORECASE,
    )
    return child, sibling


def _attributes(attrs: str, offset: int) -> dict[str, tuple[str, int, int]]:
    """Attribute name (lower case) -> (value, start, end) in the text."""
    _, _, attribute = _patterns()
    found = {}
    for match in attribute.finditer(attrs):
        group = "q2" if match.group("q2") is not None else "q1"
        value = match.group(group)
        found[match.group("name").lower()] = (
            value,
            offset + match.start(group),
            offset + match.end(group),
        )
    return found


def _kind(names: list[str]) -> str | None:
    for name in names:
        kind = kind_of_name(name.rsplit(":", 1)[-1])
        if kind in _KINDS:
            return kind
    return None


def find_markup_secrets(text: str) -> list[Finding]:
    """The values of secret-naming elements and attributes in ``text``."""
    if "<" not in text or ">" not in text:
        return []
    element, tag, _ = _patterns()
    found: list[Finding] = []
    for match in element.finditer(text):
        attrs = _attributes(match.group("attrs") or "", match.start("attrs"))
        names = [match.group("tag")] + [
            attrs[key][0] for key in ("name", "key", "property") if key in attrs
        ]
        kind = _kind(names)
        value = match.group("value")
        if kind is None or not value.strip():
            continue
        lead = len(value) - len(value.lstrip())
        if value_is_secret(kind, value.strip()):
            start = match.start("value") + lead
            found.append(Finding("secret-assignment", start, start + len(value.strip())))
    if "alue" not in text and "tring" not in text and "<dd" not in text and "<td" not in text:
        return found
    child, sibling = _wrapped()
    for match in child.finditer(text):
        attrs = _attributes(match.group("attrs") or "", match.start("attrs"))
        names = [match.group("tag")] + [attrs[key][0] for key in ("name", "key") if key in attrs]
        kind = _kind(names)
        value = match.group("value").strip()
        if kind is not None and value and value_is_secret(kind, value):
            start = match.start("value") + match.group("value").index(value[:1])
            found.append(Finding("secret-assignment", start, start + len(value)))
    for match in sibling.finditer(text):
        kind = _kind([match.group("name").strip()])
        value = match.group("value").strip()
        if kind is not None and value and value_is_secret(kind, value):
            start = match.start("value") + match.group("value").index(value[:1])
            found.append(Finding("secret-assignment", start, start + len(value)))
    if "value" not in text:
        return found
    for match in tag.finditer(text):
        attrs = _attributes(match.group("attrs"), match.start("attrs"))
        if "value" not in attrs:
            continue
        if attrs.get("type", ("",))[0].lower() == "password":
            held: str | None = "password"
        else:
            held = _kind([attrs[key][0] for key in ("name", "key", "id") if key in attrs])
        value, start, end = attrs["value"]
        if held is not None and value_is_secret(held, value):
            found.append(Finding("secret-assignment", start, end))
    return found
