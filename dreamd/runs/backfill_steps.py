"""The backfill flow as the control API runs it: preview, write (optionally staging), roll back.

A path is taken relative to the workspace (or absolute); the daemon's own working directory
never matters. It must resolve (symlinks followed) inside the workspace: an API caller may hold
only a token, and the daemon reads as its host user, so notes outside the chosen workspace (say,
another workspace's) are refused with :class:`~dreamd.errors.UnsafePathError`. The CLI's
``dreamd memory rem-backfill --path`` does not come through here: the host user may name any
path they can read. A preview reads the notes and plans the grounded replay of each without
writing anything; writing and rolling back go through :mod:`dreamd.runs.backfill`, which writes
atomically under the workspace lock. Blocking: callers run these in a worker thread.
"""

from __future__ import annotations

import os
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any

from dreamd.config import DreamingConfig
from dreamd.engine.grounded.preview import note_json
from dreamd.errors import DreamdError, UnsafePathError
from dreamd.runs.backfill import (
    Sources,
    analyse,
    find_sources,
    resolve_target,
    run_backfill,
    run_rollback,
)
from dreamd.runs.progress import Progress

__all__ = ["ACTIONS", "backfill_action"]

ACTIONS = ("preview", "write", "rollback")


def _sources(root: Path, raw: str) -> Sources:
    given = Path(raw).expanduser()
    target = resolve_target(str(given if given.is_absolute() else root / given), root)
    home = Path(os.path.realpath(root))
    if not target.is_relative_to(home):
        raise UnsafePathError(
            f"backfill path {raw!r} resolves to {target}, outside the workspace {home}; "
            "the control API reads notes inside the workspace only "
            "(on the host, `dreamd memory rem-backfill --path` reads any path)"
        )
    return find_sources(target, root=root)


def backfill_action(
    root: Path,
    action: str,
    path: str | None,
    *,
    stage: bool,
    dreaming: DreamingConfig,
    now: datetime,
    zone: tzinfo,
    agents: tuple[str, ...],
) -> dict[str, Any]:
    """Run one step of the flow (``action`` is one of :data:`ACTIONS`; callers check it)."""
    if action == "rollback":
        return run_rollback(root, dreaming=dreaming, now=now, zone=zone, agents=agents)
    if not path:
        raise DreamdError(f"backfill {action} needs a path: a note or a folder of notes")
    sources = _sources(root, path)
    progress = Progress("rem-backfill", len(sources.files), stream=None, tty=False)
    if action == "write":
        return run_backfill(
            root,
            sources,
            progress,
            dreaming=dreaming,
            now=now,
            zone=zone,
            agents=agents,
            stage=stage,
        )
    notes, grounded, unread = analyse(sources, root, progress)
    return {
        "workspaceDir": str(root),
        "preview": True,
        "sourcePath": str(sources.target),
        "sourceFiles": [note.label for note in notes],
        "skippedFiles": [*sources.skipped, *unread],
        "files": [note_json(note) for note in grounded],
    }
