"""Sweep history per workspace, kept by the daemon in ``history.json`` (state dir).

``{"version": 1, "workspaces": {"<path>": [{"at", "status", "ranked", "promoted", "rejected",
"diary", "error", "durationMs", "changed"}, ...]}}``, newest last, at most
``health.HISTORY_KEPT`` per workspace; ``rejected`` counts the candidates held back, by gate,
``changed`` the files the sweep wrote.
The daemon holds it in memory and writes it atomically after each sweep; a CLI ``sweep`` that
works without a daemon appends its own outcomes.
It is separate from ``host.json`` so that the small, often-read on/off and schedule state never
waits on a large file.

The daemon holds the histories as :class:`Histories`: each workspace's records encoded as one
JSON value (about 150 bytes a record instead of two dicts of ~1.5 KB), decoded when read. Over
a thousand workspaces, 30 records each, that is the difference between a daemon whose memory
grows for 30 rounds and one that stays flat.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec

from dreamd import paths
from dreamd.host.health import HISTORY_KEPT, sweep_record
from dreamd.store.writer import write_atomic

__all__ = ["Histories", "load_histories", "record_outcomes", "save_histories"]

History = dict[str, list[dict[str, Any]]]
Records = list[dict[str, Any]]


class Histories:
    """Every workspace's sweep history, each held encoded (see the module rules)."""

    def __init__(self, histories: Mapping[str, Sequence[Mapping[str, Any]]] | None = None) -> None:
        self._raw: dict[str, bytes] = {}
        for path, records in (histories or {}).items():
            self[path] = records

    def __setitem__(self, path: str, records: Sequence[Mapping[str, Any]]) -> None:
        self._raw[path] = msgspec.json.encode(records)

    def __contains__(self, path: object) -> bool:
        return path in self._raw

    def __len__(self) -> int:
        return len(self._raw)

    def get(self, path: str) -> Records:
        """``path``'s records, oldest first (empty when it has none)."""
        raw = self._raw.get(path)
        return [] if raw is None else list(msgspec.json.decode(raw))

    def items(self) -> Iterator[tuple[str, Records]]:
        """Every workspace's records (decoded one at a time)."""
        for path in list(self._raw):
            yield path, self.get(path)

    def encoded(self) -> dict[str, msgspec.Raw]:
        """Every workspace's records as encoded JSON, for :func:`save_histories`."""
        return {path: msgspec.Raw(raw) for path, raw in self._raw.items()}


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


def save_histories(
    histories: Mapping[str, Sequence[Mapping[str, Any]]] | Mapping[str, msgspec.Raw],
) -> None:
    """Replace ``history.json`` atomically (records, or records already encoded)."""
    path = _path()
    path.parent.mkdir(parents=True, exist_ok=True)
    spaces = {k: v if isinstance(v, msgspec.Raw) else list(v) for k, v in histories.items()}
    document = {"version": 1, "workspaces": spaces}
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
