"""Reading the truth files and their ledger (the reader reads the notes they come from).

Rules: ``memory/user_state.md``, ``memory/pending.md`` and ``memory/.dreams/truth.json`` are read
whole, decoded as UTF-8 with replacement characters (a file that is not UTF-8 is flagged and
never rewritten); a file that is a symbolic link is not read and is named in ``links``, so the
sweep leaves it alone. Reading never writes.
"""

from __future__ import annotations

from pathlib import Path

from dreamd.engine.snapshot import TextFile, TruthFiles
from dreamd.layout import PENDING_TASKS_FILE, TRUTH_LEDGER, USER_STATE_FILE
from dreamd.workspace.bank import read_bank_file

__all__ = ["read_truth"]


def _read(root: Path, relpath: str, links: set[str]) -> TextFile:
    if (root / relpath).is_symlink():
        links.add(relpath)
        return TextFile(relpath, "", None)
    return read_bank_file(root, relpath)


def read_truth(root: Path) -> TruthFiles:
    """Both truth files and the ledger (see the module rules)."""
    links: set[str] = set()
    state = _read(root, USER_STATE_FILE, links)
    pending = _read(root, PENDING_TASKS_FILE, links)
    ledger = _read(root, TRUTH_LEDGER, links)
    return TruthFiles(state, pending, ledger, frozenset(links))
