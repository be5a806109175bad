"""Small builders for tests: recall entries, stores, daily notes and workspaces."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dreamd.clock import parse_instant
from dreamd.engine.state import Provenance, RecallEntry, Table

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def at(text: str) -> datetime:
    """An instant from an ISO string (UTC when no offset)."""
    moment = parse_instant(text)
    assert moment is not None
    return moment


def entry(
    path: str = "memory/2026-11-20.md",
    start: int = 3,
    end: int = 3,
    snippet: str = "- The staging database moved to Postgres 16 on the new host.",
    **fields: Any,
) -> RecallEntry:
    """A recall row with sensible defaults; ``fields`` override any attribute."""
    base: dict[str, Any] = {
        "key": f"memory:{path}:{start}:{end}",
        "path": path,
        "start_line": start,
        "end_line": end,
        "snippet": snippet,
    }
    base.update(fields)
    if isinstance(base.get("provenance"), str):
        base["provenance"] = Provenance(origin_class=base["provenance"])
    return RecallEntry(**base)


def table(entries: Iterable[RecallEntry]) -> Table[RecallEntry]:
    """A store holding ``entries`` by key."""
    return Table({item.key: item for item in entries})


def write(root: Path, relpath: str, text: str) -> Path:
    """Write a workspace file (creating folders) and return its path."""
    path = root / relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def stored_rows(root: Path) -> dict[str, Any]:
    """The recall store's rows as JSON objects, as dreamd reads the store: the searches still
    pending (:mod:`dreamd.store.pending`) replayed."""
    import json

    from dreamd.engine.state import RECALL_STORE
    from dreamd.store.statefiles import load_table

    store, _ = load_table(root, RECALL_STORE, readonly=True)
    entries: dict[str, Any] = json.loads(RECALL_STORE.encode(store))["entries"]
    return entries


GOLDEN_WORKSPACE = Path(__file__).parent / "fixtures" / "openclaw-golden" / "workspace"
_GOLDEN_LINE = r"(\w+) note (\d+\.\d+): (\w+) and (\w+) checked\."


def golden_with_facts(target: Path) -> Path:
    """OpenClaw's golden workspace at ``target`` with every "X note N.M: a and b checked." line
    (in the notes and in the store's snippets) made a lasting rule, "X note N.M: we always check
    a before b.": the same rows, signals and ranking, but lines the durable-fact gate lets
    through, for tests of what happens after promotion."""
    import re
    import shutil

    shutil.copytree(GOLDEN_WORKSPACE, target)

    def fix(text: str) -> str:
        return re.sub(_GOLDEN_LINE, r"\1 note \2: we always check \3 before \4.", text)

    for path in [*target.joinpath("memory").glob("*.md"), *target.rglob("*.json")]:
        path.write_text(fix(path.read_text(encoding="utf-8")), encoding="utf-8")
    return target
