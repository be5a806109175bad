"""Reading the memory bank's own files: its pages and its ledger (the reader reads the notes).

Rules: pages are the ``*.md`` files of ``bank/`` and ``bank/entities/`` (regular files only, a
symlinked file or folder is skipped, files over 16 MiB too), decoded as UTF-8 with replacement
characters; the ledger is ``memory/.dreams/bank.json``. A symlinked ``bank/`` is refused before
anything is read (:func:`dreamd.layout.check_workspace_folders`, run by
:func:`dreamd.workspace.reader.read_snapshot`, which calls this). Reading never writes.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from dreamd.engine.snapshot import TextFile
from dreamd.engine.text.snippets import content_hash
from dreamd.errors import WorkspaceError
from dreamd.layout import BANK_DIR, BANK_LEDGER, MAX_FILE_BYTES, resolve_inside

__all__ = ["markdown_files", "read_bank_file", "read_ledger", "read_pages"]


def read_bank_file(root: Path, relpath: str) -> TextFile:
    """A bank page or the ledger as text with its digest (absent: empty, digest ``None``)."""
    path = resolve_inside(root, relpath)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return TextFile(relpath, "", None)
    except OSError as exc:
        raise WorkspaceError(f"cannot read {path}: {exc.strerror or exc}") from exc
    text = data.decode("utf-8", errors="replace")
    return TextFile(relpath, text, content_hash(data), "\ufffd" not in text)


def markdown_files(root: Path, folder: str) -> list[str]:
    """The ``*.md`` regular files of ``folder`` (16 MiB at most), as workspace paths, sorted."""
    try:
        entries = sorted(os.scandir(root / folder), key=lambda entry: entry.name)
    except OSError:
        return []
    found = []
    for entry in entries:
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        regular = stat.S_ISREG(info.st_mode) and info.st_size <= MAX_FILE_BYTES
        if entry.name.endswith(".md") and regular:
            found.append(f"{folder}/{entry.name}")
    return found


def read_pages(root: Path) -> dict[str, TextFile]:
    """Every bank page: ``bank/*.md`` and ``bank/entities/*.md``."""
    top = root / BANK_DIR
    if not top.is_dir() or top.is_symlink():
        return {}
    paths = markdown_files(root, BANK_DIR)
    entities = top / "entities"
    if entities.is_dir() and not entities.is_symlink():
        paths += markdown_files(root, f"{BANK_DIR}/entities")
    return {path: read_bank_file(root, path) for path in paths}


def read_ledger(root: Path) -> TextFile:
    """``memory/.dreams/bank.json``."""
    return read_bank_file(root, BANK_LEDGER)
