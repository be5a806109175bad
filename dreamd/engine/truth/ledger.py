"""The truth files' machine state, ``memory/.dreams/truth.json``: items per note, lines per file.

``{"version": 2, "notes": {"memory/2026-11-27.md": [[kind, line, text, boxed], ...]},
"files": {"memory/pending.md": {"lines": [line hashes], "keys": [keys]}}}``

Rules: it is derived and rebuildable. A note's items are kept until the note is read again (a
sweep reads only the notes of its lookback, and an item stays open after its note leaves it)
or goes; a note without items has no entry. The file records are what
:func:`dreamd.engine.bank.block.merge` needs to tell dreamd's lines from a person's. Encoding
is canonical (sorted keys, no whitespace), so an unchanged ledger is byte-identical. A ledger
that does not decode is treated as empty and named in the warnings. Pure.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dreamd.engine.truth.tasks import Item
from dreamd.layout import TRUTH_LEDGER, daily_note_day
from dreamd.redaction import redact

__all__ = ["FileRecord", "TruthLedger", "decode_ledger", "encode_ledger"]

VERSION = 2
# version 1 kept a note's item as written; version 2's items are masked when read from the note
_UNMASKED = 1


@dataclass(frozen=True)
class FileRecord:
    """What dreamd last wrote in a truth file's block."""

    lines: frozenset[str]
    keys: frozenset[str]


@dataclass(frozen=True)
class TruthLedger:
    """The decoded ledger; ``issue`` says why it was unreadable."""

    notes: Mapping[str, tuple[Item, ...]] = field(default_factory=dict)
    files: Mapping[str, FileRecord] = field(default_factory=dict)
    issue: str | None = None


def _item(path: str, raw: Any, *, unmasked: bool) -> Item:
    kind, line, text, boxed = raw
    if kind not in ("open", "done") or not isinstance(line, int) or not isinstance(text, str):
        raise ValueError("not an item")
    if unmasked:  # a ledger of version 1 holds a note's words as written
        text = redact(text)
    return Item(kind, text, path, line, daily_note_day(path) or "", bool(boxed))


def decode_ledger(text: str) -> TruthLedger:
    """The ledger in ``text`` (empty text: an empty ledger); never raises."""
    if not text.strip():
        return TruthLedger()
    try:
        raw = json.loads(text)
        version = raw.get("version")
        if version not in (_UNMASKED, VERSION):
            return TruthLedger(issue=f"{TRUTH_LEDGER}: unknown version; rebuilt from the notes")
        unmasked = version == _UNMASKED
        notes = {
            str(path): tuple(_item(str(path), item, unmasked=unmasked) for item in items)
            for path, items in raw["notes"].items()
        }
        files = {
            str(path): FileRecord(frozenset(entry["lines"]), frozenset(entry["keys"]))
            for path, entry in raw["files"].items()
        }
    except (ValueError, TypeError, KeyError, AttributeError):
        return TruthLedger(issue=f"{TRUTH_LEDGER}: unreadable; rebuilt from the notes")
    return TruthLedger(notes, files)


def encode_ledger(ledger: TruthLedger) -> str:
    """The canonical text of ``ledger``."""
    document = {
        "version": VERSION,
        "notes": {
            path: [[i.kind, i.line, i.text, i.boxed] for i in items]
            for path, items in ledger.notes.items()
            if items
        },
        "files": {
            path: {"keys": sorted(record.keys), "lines": sorted(record.lines)}
            for path, record in ledger.files.items()
        },
    }
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"
