"""The bank's machine state, ``memory/.dreams/bank.json``: facts per note, lines per page.

``{"version": 1, "notes": {"memory/2026-11-27.md": {"digest": "<sha256 of the note>+r<rules>",
"facts": [[id, kind, text, entities, confidence, line, origin], ...]}}, "pages":
{"bank/world.md": {"digest": "<body digest>", "lines": [line hashes], "keys": [keys]}}}``

Rules: it is derived and rebuildable: the facts of a note are kept until the note changes (its
digest), the rules that read it change (:data:`~dreamd.engine.bank.facts.FACT_RULES`) or it
goes, so a sweep reflects only the notes it reads; the page records are what
:func:`dreamd.engine.bank.block.merge` needs to tell dreamd's lines from a person's. Encoding is
canonical (sorted keys, no whitespace), so an unchanged ledger is byte-identical. A ledger that
does not decode is treated as empty and named in the warnings (the next reflection rewrites it).
Pure.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dreamd.engine.bank.facts import FACT_KINDS, Fact
from dreamd.layout import BANK_LEDGER

__all__ = ["LEDGER_FILE", "Ledger", "NoteFacts", "PageRecord", "decode_ledger", "encode_ledger"]

LEDGER_FILE = BANK_LEDGER
VERSION = 1


@dataclass(frozen=True)
class NoteFacts:
    """The facts read from one note, and the digest of the note they were read from."""

    digest: str
    facts: tuple[Fact, ...]


@dataclass(frozen=True)
class PageRecord:
    """What dreamd last wrote in a page's block."""

    digest: str
    lines: frozenset[str]
    keys: frozenset[str]


@dataclass(frozen=True)
class Ledger:
    """The decoded ledger; ``issue`` says why it was unreadable."""

    notes: Mapping[str, NoteFacts] = field(default_factory=dict)
    pages: Mapping[str, PageRecord] = field(default_factory=dict)
    issue: str | None = None


def _fact(path: str, raw: Any) -> Fact:
    fid, kind, text, entities, confidence, line, origin = raw
    if kind not in FACT_KINDS or not isinstance(text, str) or not isinstance(line, int):
        raise ValueError("not a fact")
    c = float(confidence) if confidence is not None else None
    return Fact(str(fid), kind, text, tuple(str(e) for e in entities), c, path, line, str(origin))


def decode_ledger(text: str) -> Ledger:
    """The ledger in ``text`` (empty text: an empty ledger); never raises."""
    if not text.strip():
        return Ledger()
    try:
        raw = json.loads(text)
        if raw.get("version") != VERSION:
            return Ledger(issue=f"{LEDGER_FILE}: unknown version; the bank is rebuilt from notes")
        notes = {
            path: NoteFacts(str(entry["digest"]), tuple(_fact(path, f) for f in entry["facts"]))
            for path, entry in raw["notes"].items()
        }
        pages = {
            path: PageRecord(
                str(entry["digest"]), frozenset(entry["lines"]), frozenset(entry["keys"])
            )
            for path, entry in raw["pages"].items()
        }
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        return Ledger(issue=f"{LEDGER_FILE}: unreadable ({exc}); the bank is rebuilt from notes")
    return Ledger(notes, pages)


def encode_ledger(ledger: Ledger) -> str:
    """The canonical text of ``ledger``."""
    document = {
        "version": VERSION,
        "notes": {
            path: {
                "digest": entry.digest,
                "facts": [
                    [f.id, f.kind, f.text, list(f.entities), f.confidence, f.line, f.origin]
                    for f in entry.facts
                ],
            }
            for path, entry in ledger.notes.items()
        },
        "pages": {
            path: {"digest": r.digest, "lines": sorted(r.lines), "keys": sorted(r.keys)}
            for path, r in ledger.pages.items()
        },
    }
    return json.dumps(document, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"
