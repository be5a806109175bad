"""dreamd's machine state for one workspace, from wherever it lives now: the one loader of it.

A workspace's state tables are ``memory/.dreams/*.json``. Two other places may hold them:

* ``<name>.migrated``: OpenClaw 2026.6 and later rename the JSON state to this on first use
  (dreamd's own files included); when that name is taken, later renames go to
  ``<name>.migrated.2``, ``.3`` and so on (its doctor does this with a file whose rows conflict
  with its database). When ``<name>`` is missing, the newest of these (the highest number) is
  read: dreamd's state survives every rename, and the next save writes ``<name>`` again.
  Renamed files are never touched.
* OpenClaw's SQLite state (:mod:`dreamd.workspace.openclaw_state`), merged in by
  :func:`dreamd.engine.merge.merge_imported`: no row and no ``promotedAt`` lost.

``sources`` says in words where the state came from, for ``status``. Reading never writes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from dreamd.engine.merge import MergeReport, merge_imported
from dreamd.engine.state import (
    DAILY_CHECKPOINTS,
    PHASE_SIGNALS,
    RECALL_STORE,
    SESSION_CHECKPOINTS,
    SESSION_SEEN,
    DailyCheckpoint,
    PhaseSignal,
    RecallEntry,
    RowT,
    SeenMessages,
    SessionCheckpoint,
    Table,
    TableFormat,
)
from dreamd.layout import STATE_DIR
from dreamd.store.statefiles import load_table, state_path, with_pending
from dreamd.workspace.openclaw_state import find_state_databases, read_openclaw_state

__all__ = ["MIGRATED", "LoadedState", "load_state", "newest_archive"]

MIGRATED = ".migrated"


@dataclass(frozen=True)
class LoadedState:
    """Every state table of a workspace, merged, and where it came from."""

    store: Table[RecallEntry]
    signals: Table[PhaseSignal]
    daily: Table[DailyCheckpoint]
    session_checkpoints: Table[SessionCheckpoint]
    session_seen: Table[SeenMessages]
    warnings: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    merges: tuple[MergeReport, ...] = field(default=())

    @property
    def openclaw(self) -> bool:
        """True when OpenClaw has dreamed here (its SQLite rows or its renamed files)."""
        return bool(self.merges) or any(MIGRATED in source for source in self.sources)


def newest_archive(folder: Path, name: str) -> str | None:
    """The newest name OpenClaw renamed ``name`` to in ``folder``: ``<name>.migrated`` or
    ``<name>.migrated.<n>`` with the highest ``n`` (2 or more, written without leading zeros)."""
    base = name + MIGRATED
    try:
        names = [entry.name for entry in folder.iterdir() if entry.name.startswith(base)]
    except OSError:
        return None
    generations: dict[int, str] = {}
    for found in names:
        suffix = found[len(base) :]
        number = suffix[1:]
        if suffix == "":
            generations[1] = found
        elif suffix[:1] == "." and number.isdigit() and number == str(int(number)):
            generations[int(number)] = found  # "1" is not a name OpenClaw gives, but harmless
    return generations[max(generations)] if generations else None


def _load(
    root: Path, fmt: TableFormat[RowT], readonly: bool, sources: list[str], warnings: list[str]
) -> Table[RowT]:
    if state_path(root, fmt).exists() or state_path(root, fmt).is_symlink():
        table, issues = load_table(root, fmt, readonly=readonly)
        warnings += issues
        if table.rows:
            sources.append(f"{STATE_DIR}/{fmt.name} ({len(table.rows)} row(s))")
        return table
    archive = newest_archive(root / STATE_DIR, fmt.name)
    renamed = dataclasses.replace(fmt, name=archive or fmt.name + MIGRATED)
    if archive is None or not state_path(root, renamed).is_file():
        table, issues = load_table(root, fmt, readonly=readonly)  # none yet: searches ahead
        warnings += issues
        return table
    table, issues = load_table(root, renamed, readonly=True)  # OpenClaw's file: never moved
    warnings += issues
    if fmt is RECALL_STORE:
        store, issues = with_pending(root, cast(Table[RecallEntry], table))
        table = cast(Table[RowT], store)
        warnings += issues
    sources.append(
        f"{STATE_DIR}/{renamed.name} ({len(table.rows)} row(s); renamed by OpenClaw, read back)"
    )
    return table


def load_state(
    root: Path,
    *,
    readonly: bool = False,
    databases: Sequence[Path] | None = None,
) -> LoadedState:
    """The state tables of ``root`` (see the module rules); ``databases`` default: every
    OpenClaw state database found on this host."""
    sources: list[str] = []
    warnings: list[str] = []
    store = _load(root, RECALL_STORE, readonly, sources, warnings)
    signals = _load(root, PHASE_SIGNALS, readonly, sources, warnings)
    daily = _load(root, DAILY_CHECKPOINTS, readonly, sources, warnings)
    checkpoints = _load(root, SESSION_CHECKPOINTS, readonly, sources, warnings)
    seen = _load(root, SESSION_SEEN, readonly, sources, warnings)
    found, problems = read_openclaw_state(
        root, find_state_databases() if databases is None else databases
    )
    warnings += problems
    merges = []
    for imported in found:
        store, signals, daily, report = merge_imported(store, signals, daily, imported)
        warnings += report.issues
        sources.append(report.describe())
        merges.append(report)
    return LoadedState(
        store,
        signals,
        daily,
        checkpoints,
        seen,
        tuple(warnings),
        tuple(sources),
        tuple(merges),
    )
