"""Cookies exported to a file: the Netscape ``cookies.txt`` that browsers' extensions write and
curl, wget and yt-dlp read. Each line is seven fields split by tabs (the domain, whether its
subdomains share it, the path, whether it is sent only over HTTPS, when it expires, the name,
the value); a ``#HttpOnly_`` prefix may stand before the domain.

A value is masked when it can hold a session, by the rule of a ``Cookie`` header
(:func:`dreamd.redaction.keys.cookie_holds_session`): its name names a secret, or it is no
plain word and eight characters or more. ``theme``/``dark`` and a consent flag stay. Pure.
"""

from __future__ import annotations

import re

from dreamd.redaction.finding import Finding

__all__ = ["find_cookie_file_values"]

_LINE = re.compile(
    r"^(?:#HttpOnly_)?[\w.-]+\t(?:TRUE|FALSE)\t[^\t\n]*\t(?:TRUE|FALSE)\t-?\d{1,12}\t"
    r"(?P<name>[^\t\n]+)\t(?P<value>[^\t\n]+?)[ \t]*$",
    re.MULTILINE,
)


def find_cookie_file_values(text: str) -> list[Finding]:
    """The session values of a ``cookies.txt`` file's lines."""
    if "\tTRUE\t" not in text and "\tFALSE\t" not in text:
        return []
    from dreamd.redaction.keys import cookie_holds_session

    return [
        Finding("secret-assignment", *match.span("value"))
        for match in _LINE.finditer(text)
        if cookie_holds_session(match.group("name"), match.group("value"))
    ]
