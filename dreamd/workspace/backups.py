"""The MEMORY.md and DREAMS.md backups the writer keeps in ``memory/.dreams/backups/``.

The writer copies MEMORY.md (and DREAMS.md) there before every replacement (the newest 8 of
each kept), named ``MEMORY.md.<UTC time>.<first 12 hex of its sha256>.md`` (``DREAMS.md.…``).
Listing and reading default to MEMORY.md's, the ones an undo restores. A backup is named by
its file name; a name with a path in it, a symlink or a file that is not a backup is refused.
Reading never writes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from dreamd.engine.text.decoding import decode_note
from dreamd.errors import DreamdError
from dreamd.layout import BACKUP_DIR

__all__ = ["Backup", "list_backups", "read_backup"]

_NAMES = {
    name: re.compile(rf"^{re.escape(name)}\.[0-9TZ]+\.[0-9a-f]{{12}}\.md$")
    for name in ("MEMORY.md", "DREAMS.md")
}


@dataclass(frozen=True, slots=True)
class Backup:
    """One backup file: its name and when it was written (nanoseconds)."""

    name: str
    mtime_ns: int
    size: int


def list_backups(root: Path, of: str = "MEMORY.md") -> list[Backup]:
    """Every backup of ``of`` (MEMORY.md or DREAMS.md) in ``root``, oldest first."""
    directory = root / BACKUP_DIR
    if not directory.is_dir() or directory.is_symlink():
        return []
    found = []
    for path in directory.iterdir():
        if not _NAMES[of].match(path.name) or path.is_symlink() or not path.is_file():
            continue
        info = path.stat()
        found.append(Backup(path.name, info.st_mtime_ns, info.st_size))
    return sorted(found, key=lambda backup: (backup.mtime_ns, backup.name))


def read_backup(root: Path, name: str) -> str:
    """The text of the backup named ``name`` (a :class:`DreamdError` when there is none)."""
    known = {backup.name for backup in list_backups(root)}
    if name not in known:
        listing = ", ".join(sorted(known)) or "none yet"
        raise DreamdError(f"no backup named {name!r} in {root / BACKUP_DIR} (backups: {listing})")
    data = (root / BACKUP_DIR / name).read_bytes()
    text = decode_note(data).text
    if text is None:
        raise DreamdError(f"{root / BACKUP_DIR / name} is not text; not restored")
    return text
