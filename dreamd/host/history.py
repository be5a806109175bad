"""Sweep history per workspace, kept by the daemon in ``history.json`` (state dir).

``{"version": 1, "workspaces": {"<path>": [{"at", "status", "ranked", "promoted", "rejected",
"diary", "error", "durationMs", "changed"}, ...]}}``, newest last, at most
``health.HISTORY_KEPT`` per workspace; ``rejected`` counts the candidates held back, by gate,
``changed`` the files the sweep wrote.
The daemon holds it in memory and writes it atomically after each sweep; a CLI ``sweep`` that
works without a daemon appends its own outcomes.
It is separate from ``host.json`` so that the small, often-read on/off and schedule state never
waits on a large file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec

from dreamd import paths
from dreamd.host.health import HISTORY_KEPT, sweep_record
from dreamd.store.writer import write_atomic

__all__ = ["load_histories", "record_outcomes", "save_histories"]

History = dict[str, list[dict[str, Any]]]


def _path() -> Path:
    return paths.state_dir() / "history.json"


def load_histories() -> History:
    """Every workspace's sweep history (empty when none was written or it is unreadable)."""
    try:
        document = msgspec.json.decode(_path().read_bytes())
    except (FileNotFoundError, msgspec.DecodeError, RecursionError):
        return {}
    spaces = document.get("workspaces") if isinstance(document, dict) else None
    if not isinstance(spaces, dict):
        return {}
    return {str(k): list(v) for k, v in spaces.items() if isinstance(v, list)}


def save_histories(histories: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
    """Replace ``history.json`` atomically."""
    path = _path()
    path.parent.mkdir(parents=True, exist_ok=True)
    document = {"version": 1, "workspaces": {k: list(v) for k, v in histories.items()}}
    write_atomic(path, msgspec.json.encode(document) + b"\n", mode=0o600)


def record_outcomes(outcomes: Sequence[Mapping[str, Any]], *, at: str) -> None:
    """Append sweep outcomes (``Outcome.as_json()``) to the history file (CLI sweeps)."""
    histories = load_histories()
    for outcome in outcomes:
        if outcome.get("status") == "stopped":
            continue
        path = str(outcome["workspace"])
        histories[path] = [*histories.get(path, []), sweep_record(at, outcome)][-HISTORY_KEPT:]
    save_histories(histories)
