"""Planning both truth files and their ledger for one sweep.

:func:`plan_truth` reads the action items of the notes the sweep read (a note it did not read
keeps the items the ledger holds for it, a note gone loses them), closes what later lines say
is done (:mod:`dreamd.engine.truth.pending`), lists the current values
(:mod:`dreamd.engine.truth.state`), and writes each file as a bank page is written
(:mod:`dreamd.engine.bank.block`): a title, a line saying what the file is, and one managed
block between ``<!-- dreamd:truth:begin -->`` and ``<!-- dreamd:truth:end -->``. Text outside
the block is the person's, kept byte for byte; a line they changed or added inside it is kept,
one they deleted stays deleted. A file with a begin marker and no end marker is left alone and
named in the warnings; so is one that is a symbolic link or not UTF-8 (rewriting it would change
bytes the person wrote).

A file is planned only when it has something to hold or already exists; the ledger only when a
file was planned or it exists. Writes are ``FileWrite`` entries of kind ``truth``, each only
when its text changes, so a second sweep over unchanged input plans none. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field
from typing import Any

from dreamd.engine.bank.block import Line, compose_page, line_hash, merge, split_page
from dreamd.engine.plan import FileWrite
from dreamd.engine.snapshot import TextFile, TruthFiles
from dreamd.engine.state import RecallEntry
from dreamd.engine.truth.ledger import FileRecord, TruthLedger, decode_ledger, encode_ledger
from dreamd.engine.truth.pending import pending_lines, plan_tasks
from dreamd.engine.truth.state import plan_state, state_lines
from dreamd.engine.truth.tasks import Item, note_items
from dreamd.layout import TRUTH_LEDGER, daily_note_day
from dreamd.patterns import LazyPattern

__all__ = ["BEGIN", "END", "TruthPlan", "plan_truth", "truth_key"]

BEGIN = "<!-- dreamd:truth:begin -->"
END = "<!-- dreamd:truth:end -->"
_KEY = LazyPattern(r"\s\^([st]-[0-9a-f]{10})\s*$")
_TICKED = LazyPattern(r"^\s*[-*+]\s+\[[xX]\]\s")
_TITLES = {
    "state": (
        "Current state",
        "What is true now of what has changed, newest first: since when, and what it replaced. "
        "dreamd keeps the list between the markers up to date from MEMORY.md and the notes; "
        "what you write outside it, and lines you change or add inside it, stay as you wrote "
        "them.",
    ),
    "pending": (
        "Pending",
        "Open items from the notes, oldest first, each with the note it came from; an item "
        "moves to Done when a later note says it is done, or when you tick it here. dreamd "
        "keeps the list between the markers; what you write outside it, and lines you change "
        "or add inside it, stay as you wrote them.",
    ),
}


def truth_key(text: str) -> str | None:
    """The ``^key`` a truth file's line ends with (``s-…`` or ``t-…``), if any."""
    found = _KEY.search(text)
    return found.group(1) if found else None


@dataclass(frozen=True)
class TruthPlan:
    """The writes, and what the files hold, for the sweep's summary."""

    writes: tuple[FileWrite, ...] = ()
    state: int = 0
    open: int = 0
    done: int = 0
    kept: int = 0
    warnings: tuple[str, ...] = field(default_factory=tuple)

    def summary(self) -> dict[str, Any]:
        """The counts a sweep's summary reports."""
        found: dict[str, Any] = {
            "state": self.state,
            "open": self.open,
            "done": self.done,
            "keptLines": self.kept,
            "written": sorted(w.path for w in self.writes if w.path != TRUTH_LEDGER),
        }
        if self.warnings:
            found["warnings"] = list(self.warnings)
        return found


def _items(
    ledger: TruthLedger, notes: Mapping[str, str], present: Set[str]
) -> dict[str, tuple[Item, ...]]:
    found = {path: items for path, items in ledger.notes.items() if path in present}
    for path, text in sorted(notes.items()):
        day = daily_note_day(path)
        if day is None or not path.endswith(".md"):
            continue  # transcripts' corpus files and other files are not the person's notes
        found[path] = note_items(path, day, text)
    return {path: items for path, items in sorted(found.items()) if items}


def _ticked(current: TextFile, record: FileRecord | None) -> frozenset[str]:
    """Keys of items the person ticked in ``pending.md`` (a ``- [x]`` line dreamd did not write)."""
    body = split_page(current.text, begin_marker=BEGIN, end_marker=END).body or ()
    owned = record.lines if record else frozenset()
    return frozenset(
        key
        for line in body
        if (key := truth_key(line)) and _TICKED.match(line) and line_hash(line) not in owned
    )


def _page(
    name: str, current: TextFile, fresh: Sequence[Line], record: FileRecord | None
) -> tuple[str | None, FileRecord | None, int, str | None]:
    """The file's new text (None: not planned), its ledger record, the person's lines kept and
    a warning."""
    if not current.exists and not fresh:
        return None, None, 0, None
    parts = split_page(current.text, begin_marker=BEGIN, end_marker=END)
    if parts.broken:
        return None, record, 0, f"{current.path}: a begin marker without an end; left alone"
    if current.exists and not current.valid_utf8:
        return None, record, 0, f"{current.path}: not UTF-8; left alone"
    merged = merge(
        parts.body if current.exists else None,
        fresh,
        owned=record.lines if record and current.exists else frozenset(),
        placed=record.keys if record and current.exists else frozenset(),
        keyed=truth_key,
    )
    title, intro = _TITLES[name]
    if current.exists:
        text = compose_page(title, current.text, merged.body, begin_marker=BEGIN, end_marker=END)
    else:
        block = "\n".join([BEGIN, *merged.body, END])
        text = f"# {title}\n\n{intro}\n\n{block}\n"
    return text, FileRecord(merged.owned, merged.keys), merged.kept, None


def plan_truth(
    files: TruthFiles,
    *,
    memory_text: str,
    rows: Mapping[str, RecallEntry],
    notes: Mapping[str, str],
    present: Set[str],
) -> TruthPlan:
    """Both truth files and the ledger (see the module rules).

    ``memory_text`` is MEMORY.md as this sweep leaves it, ``rows`` the recall store as it will
    be saved, ``notes`` the texts of the notes the sweep read (as it leaves them), ``present``
    every note on disk.
    """
    ledger = decode_ledger(files.ledger.text)
    warnings = [ledger.issue] if ledger.issue else []
    items = _items(ledger, notes, present)
    pending_record = ledger.files.get(files.pending.path)
    ticked = _ticked(files.pending, pending_record) if files.pending.exists else frozenset()
    tasks = plan_tasks((i for found in items.values() for i in found), ticked=ticked)
    changes = plan_state(memory_text, rows)
    writes: list[FileWrite] = []
    records: dict[str, FileRecord] = {}
    kept = 0
    for name, current, fresh in (
        ("state", files.state, state_lines(changes)),
        ("pending", files.pending, pending_lines(tasks)),
    ):
        if current.path in files.links:
            warnings.append(f"{current.path} is a symbolic link; not written")
            continue
        text, record, lines_kept, problem = _page(
            name, current, fresh, ledger.files.get(current.path)
        )
        if problem:
            warnings.append(problem)
        if record is not None:
            records[current.path] = record
        kept += lines_kept
        if text is not None and text != current.text:
            writes.append(FileWrite(current.path, text, current.digest, "truth"))
    if records or files.ledger.exists:
        encoded = encode_ledger(TruthLedger(items, records))
        if encoded != files.ledger.text:
            writes.append(FileWrite(TRUTH_LEDGER, encoded, files.ledger.digest, "truth"))
    return TruthPlan(
        writes=tuple(writes),
        state=len(changes),
        open=sum(1 for t in tasks if t.is_open),
        done=sum(1 for t in tasks if not t.is_open),
        kept=kept,
        warnings=tuple(warnings),
    )
