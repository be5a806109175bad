"""Note bytes as text: UTF-8, stray bytes as cp1252, UTF-16 by its mark, binary refused."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dreamd.engine.text.decoding import Decoded, decode_note

FALLBACK = "not valid UTF-8; undecodable bytes read as cp1252"


def test_utf8_is_read_as_it_is() -> None:
    """Valid UTF-8 needs no fallback and no warning."""
    assert decode_note("- café\n".encode()) == Decoded("- café\n", "utf-8", None)


def test_latin1_bytes_keep_their_words() -> None:
    """A Latin-1 note keeps "café" and "naïve", and valid UTF-8 around stray bytes stays."""
    assert decode_note(b"caf\xe9 na\xefve, d\xc3\xa9j\xc3\xa0") == Decoded(
        "café naïve, déjà", "cp1252", FALLBACK
    )


def test_utf16_with_its_mark_and_nul_stripping() -> None:
    """A UTF-16 note with a byte-order mark is read; NUL bytes go when asked."""
    assert decode_note("- héllo\n".encode("utf-16")) == Decoded("- héllo\n", "utf-16", None)
    assert decode_note(b"a\x00b\n", strip_nul=True) == Decoded("ab\n", "utf-8", None)


def test_binary_is_not_a_note() -> None:
    """Bytes that are mostly control characters are refused with the reason."""
    assert decode_note(bytes(range(256)) * 4) == Decoded(
        None, "cp1252", "not text (a binary file or an unknown encoding); skipped"
    )


@given(st.binary(max_size=400))
def test_any_bytes_decode_without_an_error(data: bytes) -> None:
    """Whatever the bytes, decoding answers; text never keeps an escaped byte."""
    decoded = decode_note(data, strip_nul=True)
    assert decoded.text is None or not any("\udc80" <= c <= "\udcff" for c in decoded.text)
