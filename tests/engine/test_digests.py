"""The built-in digests are hashlib's digests."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from dreamd.engine.text.digests import sha1_hex, sha256_hex


@given(st.binary(max_size=4096))
def test_the_digests_equal_hashlibs(data: bytes) -> None:
    """Whichever implementation computes them, sha1 and sha256 are the standard ones."""
    assert sha1_hex(data) == hashlib.sha1(data, usedforsecurity=False).hexdigest()
    assert sha256_hex(data) == hashlib.sha256(data).hexdigest()
