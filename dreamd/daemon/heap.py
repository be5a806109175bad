"""The daemon's freed memory handed back to the system (glibc; elsewhere this does nothing).

A sweep round over a thousand workspaces allocates and frees tens of megabytes: job results,
outcomes, the history written to disk. glibc keeps what is freed in its arenas, one per thread
that allocated (the event loop, the executor threads that save files, the worker pool's
manager), and a long-running daemon's RSS then creeps up round after round though nothing
leaks. :func:`limit_arenas` (at start, before any thread) caps the arenas at two, and
:func:`trim` (after each round) returns the free tops and pages of the heap.
"""

from __future__ import annotations

import ctypes
import sys

__all__ = ["limit_arenas", "trim"]

_M_ARENA_MAX = -8


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)
        libc.mallopt  # noqa: B018 - glibc has it; musl does not
        libc.malloc_trim  # noqa: B018
    except (OSError, AttributeError):
        return None
    return libc


def limit_arenas(count: int = 2) -> bool:
    """Cap glibc's malloc arenas at ``count``; whether it could."""
    libc = _libc()
    return bool(libc is not None and libc.mallopt(_M_ARENA_MAX, count))


def trim() -> bool:
    """Return free heap memory to the system; whether any was returned."""
    libc = _libc()
    return bool(libc is not None and libc.malloc_trim(0))
