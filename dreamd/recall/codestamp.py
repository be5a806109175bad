"""What a cache of derived rows depends on: the source files of the code that derived them.

A cache keyed by the content it was derived from must also know which rules derived it: an
upgrade, or an edited rule, makes its rows wrong without changing the content. The stamp is the
version plus the size and modification time of every source file matched (an edit or an
upgrade changes them), worked out once a process and without importing anything.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import dreamd

__all__ = ["code_stamp"]


@lru_cache(maxsize=8)
def code_stamp(patterns: tuple[str, ...]) -> str:
    """The stamp of the files under the ``dreamd`` package that ``patterns`` (globs relative to
    it) match."""
    root = Path(dreamd.__file__).parent
    parts = [dreamd.__version__]
    for pattern in patterns:
        for source in sorted(root.glob(pattern)):
            status = source.stat()
            parts.append(f"{source.relative_to(root)}:{status.st_size}:{status.st_mtime_ns}")
    return " ".join(parts)
