"""The daemon hands freed memory back to the system: on glibc both calls take effect."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

GLIBC = platform.libc_ver()[0] == "glibc"


@pytest.mark.skipif(not GLIBC, reason="mallopt and malloc_trim are glibc's")
def test_arenas_are_capped_and_the_heap_trimmed_in_a_fresh_process() -> None:
    """In a new process (no thread yet), capping arenas succeeds; after freeing a large heap,
    trimming returns memory to the system."""
    program = (
        "from dreamd.daemon import heap\n"
        "capped = heap.limit_arenas()\n"
        "blocks = [bytearray(4096) for _ in range(20000)]\n"
        "del blocks\n"
        "print(capped, heap.trim())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout == "True True\n"
