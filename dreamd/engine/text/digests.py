"""sha1 and sha256 without loading OpenSSL: CPython's built-in implementations when present.

Importing :mod:`hashlib` loads OpenSSL's libcrypto, some 5 ms of a process that runs on every
agent turn to hash a few short strings (a query, a page line). The digests are the same
whichever implementation computes them, so the interpreter's own modules are used when it has
them (``_sha1``; ``_sha2`` from 3.12, ``_sha256`` before), and :mod:`hashlib` otherwise.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Protocol

    class _Hash(Protocol):
        def hexdigest(self) -> str: ...


__all__ = ["sha1_hex", "sha256_hex"]


@cache
def _constructor(attr: str, modules: tuple[str, ...]) -> Callable[[bytes], _Hash]:
    for name in modules:
        try:
            made: Callable[[bytes], _Hash] = getattr(importlib.import_module(name), attr)
        except (ImportError, AttributeError):
            continue
        return made
    import hashlib

    fallback: Callable[[bytes], _Hash] = getattr(hashlib, attr)
    return fallback


def sha1_hex(data: bytes) -> str:
    """The sha1 of ``data`` in hex (an identifier, not a security measure)."""
    return _constructor("sha1", ("_sha1",))(data).hexdigest()


def sha256_hex(data: bytes) -> str:
    """The sha256 of ``data`` in hex."""
    return _constructor("sha256", ("_sha2", "_sha256"))(data).hexdigest()
