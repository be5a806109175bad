"""Note bytes as text: UTF-8 first, a cp1252 fallback byte by byte, and binary refused.

Rules, applied the same way by the workspace reader, the recall index and grounded replay, so a
snippet recorded from a search is found again word for word when it is promoted:

* Valid UTF-8 is the text as it is, ``encoding="utf-8"``.
* A UTF-16 file that says so with its byte-order mark is read as UTF-16.
* Otherwise every byte that is not part of a valid UTF-8 sequence is read as cp1252, the
  encoding of Latin-1 notes written on Windows, so ``caf\\xe9`` stays ``café`` instead of
  ``caf\\ufffd``, while the valid UTF-8 around it stays as it is (``encoding="cp1252"``). The
  five bytes cp1252 leaves undefined become U+FFFD.
* NUL bytes are dropped when asked (notes); a text in which more than one character in twenty
  is a control character or U+FFFD is not a note at all (a binary file, an unknown encoding):
  its ``text`` is ``None`` and the caller skips the file with ``problem`` as the warning.

Pure: bytes in, text out.
"""

from __future__ import annotations

import codecs
import re
from typing import NamedTuple

__all__ = ["Decoded", "decode_note"]

_ESCAPED = re.compile("[\udc80-\udcff]+")
_NOISE = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f\ufffd]")
_MAX_NOISE_FRACTION = 0.05


class Decoded(NamedTuple):
    """A file's text (``None``: not readable as text), how it was read, and what to warn."""

    text: str | None
    encoding: str  # "utf-8", "utf-16" or "cp1252"
    problem: str | None = None


def _cp1252(match: re.Match[str]) -> str:
    raw = bytes(ord(char) - 0xDC00 for char in match.group(0))
    return raw.decode("cp1252", errors="replace")


def _looks_binary(text: str) -> bool:
    if not text:
        return False
    noise = len(_NOISE.findall(text))
    return noise > _MAX_NOISE_FRACTION * len(text)


def decode_note(data: bytes, *, strip_nul: bool = False) -> Decoded:
    """``data`` decoded by the module rules."""
    encoding = "utf-8"
    problem = None
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text = data.decode("utf-16")
            encoding = "utf-16"
        except UnicodeDecodeError:
            text = data.decode("utf-8", errors="surrogateescape")
    else:
        text = data.decode("utf-8", errors="surrogateescape")
    if encoding == "utf-8" and _ESCAPED.search(text):
        text = _ESCAPED.sub(_cp1252, text)
        encoding = "cp1252"
        problem = "not valid UTF-8; undecodable bytes read as cp1252"
    if strip_nul:
        text = text.replace("\x00", "")
    if _looks_binary(text):
        return Decoded(None, encoding, "not text (a binary file or an unknown encoding); skipped")
    return Decoded(text, encoding, problem)
