"""MEMORY.md: rendering promoted entries, replacing changed ones, keeping the file within budget.

A new section ``## Promoted From Short-Term Memory (<day>)`` goes at the end (an empty file first
gets ``# Long-Term Memory`` and a blank line). Each entry is its promotion marker (after a
lineage marker when it replaces an earlier promotion) and one line: the fact, then a short
visible source, and what it replaces::

    <!-- dreamd-memory-lineage:memory:memory/2026-11-02.md:5:5 -->
    <!-- dreamd-memory-promotion:memory:memory/2026-11-20.md:4:4 -->
    - Mia's swimming lesson moved to Thursdays. (2026-11-20.md#L4; replaces: Mia's swimming
      lesson is on Tuesdays at 17:00.)                                  (one line in the file)

The ranking record (score, signals, recalls) lives in the recall store and ``promote-explain``,
not in the file an agent loads every session. The entry line never carries a secret: its text
passes the one redaction (:mod:`dreamd.redaction`).

:func:`compose_memory` applies one night's change to the text: entries it *retires* leave (a
newer fact replaced them; one replaced in part stays, rewritten to what still holds of it
under its own source), the new section is appended, and when the file would pass
``max_chars`` generated entries leave by value, never by age alone: an entry that only states
what happened first, then the least used since it was promoted (older first among equals),
and a candidate worth less than the entry it would push out waits instead;
never more than ``max_loss`` of the prior entries for the budget in one night, never a line a
person wrote, never an entry written tonight. What still does not fit is deferred, lowest ranked
first. Every entry that leaves is returned, so the caller moves it to the archive
(:mod:`dreamd.engine.phases.archive`): nothing is lost. A generated section left without
entries loses its heading. Human text is kept byte for byte, line endings too. Pure.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from dreamd.engine.text.blocks import PROMOTION_MARKER
from dreamd.engine.text.memory_entries import SOURCE_LABEL
from dreamd.engine.text.snippets import collapse
from dreamd.layout import SESSION_CORPUS_DIR, daily_note_day
from dreamd.redaction import is_secret_tag, redact

__all__ = [
    "MEMORY_HEADER",
    "PAST",
    "AppendResult",
    "GeneratedEntry",
    "Leaving",
    "PromotionEntry",
    "append_promotions",
    "compose_memory",
    "count_entries",
    "generated_entries",
    "importance",
    "promoted_keys",
    "promoted_on",
    "render_entry",
    "source_label",
    "triggers",
]

MAX_TRIGGERS = 3
MAX_REPLACED_CHARS = 90
MEMORY_HEADER = "# Long-Term Memory"
SECTION_TITLE = "## Promoted From Short-Term Memory ({day})"
_SECTION = re.compile(
    r"^## (?:Promoted From Short-Term Memory|Consolidated Memory) \((\d{4}-\d{2}-\d{2})\)\s*$"
)
_MARKER_LINE = re.compile(
    r"^\s*<!--\s*(?:dreamd|openclaw)-memory-(promotion|lineage):(.+?)\s*-->\s*$"
)
_TOP_HEADING = re.compile(r"^#{1,2}\s")
_FENCE = re.compile(r"^\s*(```|~~~)")


@dataclass(frozen=True, slots=True)
class PromotionEntry:
    """One fact ready to write."""

    key: str
    text: str  # the fact as it will read, already cut to the snippet budget
    score: float
    signals: int
    recalls: int
    average: float
    path: str
    start_line: int
    end_line: int
    tags: tuple[str, ...]
    replaces: tuple[str, ...] = ()  # keys of the generated entries it replaces
    replaced_text: str | None = None  # what it replaces, in words (also a person's line)


@dataclass(frozen=True, slots=True)
class GeneratedEntry:
    """An entry a promotion wrote: its key, its lines (markers and entry) and section day."""

    key: str
    first: int  # index of its first marker line
    line: int  # index of its entry line
    text: str  # the entry line as written
    day: str | None  # the day of the section it stands in


@dataclass(frozen=True, slots=True)
class Leaving:
    """An entry that leaves MEMORY.md tonight, and why."""

    key: str
    line: str  # the entry line, byte for byte
    reason: str  # "superseded", "past" (its one-off day is over) or "budget"
    by: str | None = None  # the key of the entry that replaced it
    by_text: str | None = None


@dataclass(frozen=True)
class AppendResult:
    """The new MEMORY.md text and what happened to each candidate and entry."""

    text: str
    appended: tuple[str, ...]
    deferred: tuple[str, ...]
    compacted_days: tuple[str, ...] = ()
    leaving: tuple[Leaving, ...] = field(default=())


PAST = "past:"
"""What a ``retire`` reference starts with when an entry leaves because its day is over
(``past:2031-11-14``), not because another entry replaced it."""
IMPORTANCE_FLOOR = 3  # OpenClaw's: a written entry is never less important than 3


def importance(score: float) -> int:
    """``round(10 * score)`` clamped to 3..10 (halves round up), as OpenClaw writes it; an
    existing entry's annotation is read as it is (1..10)."""
    return min(10, max(IMPORTANCE_FLOOR, math.floor(10 * score + 0.5)))


def triggers(tags: Sequence[str]) -> tuple[str, ...]:
    """The first three concept tags that cannot be a fragment of a secret, in any case
    (:func:`dreamd.redaction.is_secret_tag`), made safe for an HTML comment."""
    cleaned = []
    for tag in tags:
        text = tag.replace("<!--", " ").replace("-->", " ")
        text = collapse(re.sub(r"[,;\n]", " ", text))[:64]
        if text and not is_secret_tag(text):
            cleaned.append(text)
        if len(cleaned) == MAX_TRIGGERS:
            break
    return tuple(cleaned)


def _safe(text: str) -> str:
    return text.replace("<!--", "&lt;!--").replace("-->", "--&gt;")


def source_label(path: str, start: int, end: int) -> str:
    """A short visible source: ``2026-11-20.md#L4`` for a note, ``chat 2026-11-20#L7`` for a
    transcript line, else the path under ``memory/``."""
    lines = f"#L{start}" if start == end else f"#L{start}-L{end}"
    if path.startswith(f"{SESSION_CORPUS_DIR}/"):
        return f"chat {daily_note_day(path) or PurePosixPath(path).stem}{lines}"
    return f"{path.removeprefix('memory/')}{lines}"


def _cut(text: str, limit: int) -> str:
    text = collapse(text)
    return text if len(text) <= limit else text[: limit - 3].rstrip(" ,;:") + "..."


def render_entry(entry: PromotionEntry, brand: str = "dreamd") -> tuple[str, ...]:
    """The marker lines and the entry line of one promotion (``brand``: whose spelling)."""
    note = source_label(entry.path, entry.start_line, entry.end_line)
    if entry.replaced_text:
        note += f"; replaces: {_cut(redact(entry.replaced_text), MAX_REPLACED_CHARS)}"
    line = f"- {_safe(collapse(redact(entry.text)))} ({_safe(note)})"
    markers = tuple(f"<!-- {brand}-memory-lineage:{key} -->" for key in entry.replaces)
    return (*markers, f"<!-- {brand}-memory-promotion:{entry.key} -->", line)


def promoted_keys(text: str) -> frozenset[str]:
    """Keys of every promotion marker in ``text`` (dreamd's and OpenClaw's)."""
    return frozenset(match.group(1) for match in PROMOTION_MARKER.finditer(text))


def _is_entry_line(line: str) -> bool:
    stripped = line.strip()
    return (
        bool(stripped) and not stripped.startswith(("#", "<!--", "-->")) and not _FENCE.match(line)
    )


def count_entries(text: str) -> int:
    """Entry lines: non-empty lines that are not headings, comments or fences."""
    return sum(1 for line in text.splitlines() if _is_entry_line(line))


def generated_entries(lines: Sequence[str]) -> list[GeneratedEntry]:
    """Every entry a promotion wrote in ``lines`` (markers directly above a ``- `` line),
    outside code fences."""
    found: list[GeneratedEntry] = []
    day: str | None = None
    fenced = False
    index = 0
    while index < len(lines):
        line = lines[index].rstrip("\r\n")
        if _FENCE.match(line):
            fenced = not fenced
        section = _SECTION.match(line)
        if section:
            day = section.group(1)
        elif _TOP_HEADING.match(line):
            day = None
        marker = None if fenced else _MARKER_LINE.match(line)
        if marker is None:
            index += 1
            continue
        first, key = index, None
        while index < len(lines):
            current = _MARKER_LINE.match(lines[index].rstrip("\r\n"))
            if current is None:
                break
            if current.group(1) == "promotion":
                key = current.group(2).strip()
            index += 1
        entry = lines[index].rstrip("\r\n") if index < len(lines) else ""
        if key is not None and entry.startswith("- "):
            found.append(GeneratedEntry(key, first, index, entry, day))
            index += 1
    return found


def promoted_on(text: str, day: str) -> int:
    """Promotion markers in the ``day`` sections of ``text`` (for the per-day limit)."""
    count = 0
    inside = False
    for line in text.splitlines():
        found = _SECTION.match(line)
        if found:
            inside = found.group(1) == day
        elif _TOP_HEADING.match(line):
            inside = False
        elif inside and _MARKER_LINE.match(line) and "memory-promotion:" in line:
            count += 1
    return count


def _section_text(
    entries: Sequence[PromotionEntry], day: str, newline: str, brand: str = "dreamd"
) -> str:
    lines = [SECTION_TITLE.format(day=day), ""]
    for entry in entries:
        lines.extend(render_entry(entry, brand))
    return newline.join(lines) + newline


def _join(existing: str, section: str, newline: str) -> str:
    if not existing.strip("\r\n"):  # empty; spaces or a form feed are the person's: kept
        return MEMORY_HEADER + newline + newline + section
    glue = "" if existing.endswith(("\n", "\r")) else newline
    return existing + glue + newline + section


def _without(lines: list[str], drop: set[int]) -> str:
    """``lines`` without the indexes in ``drop``, and without generated section headings left
    with nothing under them (with the blank lines of their empty body)."""
    kept = [line for index, line in enumerate(lines) if index not in drop]
    out: list[str] = []
    index = 0
    while index < len(kept):
        if _SECTION.match(kept[index].rstrip("\r\n")):
            stop = index + 1
            while stop < len(kept) and not _TOP_HEADING.match(kept[stop]):
                stop += 1
            if not any(line.strip() for line in kept[index + 1 : stop]):
                if stop == len(kept):  # nothing after it: no blank lines left trailing
                    while out and not out[-1].strip():
                        out.pop()
                index = stop
                continue
        out.append(kept[index])
        index += 1
    return "".join(out)


def compose_memory(
    existing: str,
    entries: Sequence[PromotionEntry],
    *,
    day: str,
    max_chars: int,
    max_loss: float,
    retire: Mapping[str, str] | None = None,
    keep_order: Sequence[str] = (),
    brand: str = "dreamd",
    said: Mapping[str, str] | None = None,
    worth: Mapping[str, float] | None = None,
    trim: Mapping[str, str] | None = None,
) -> AppendResult:
    """Apply one night's change to MEMORY.md (see the module rules).

    ``retire`` maps keys of generated entries that leave to the key of the entry replacing
    them (``said``: what a replacement that is no entry of tonight's says, by its key, such as
    a note that cancels a plan); ``keep_order`` lists generated keys from the first to leave
    for the budget to the last (keys it does not list leave after the listed ones, oldest
    first). With ``worth`` (what each key is worth keeping), a candidate worth less than the
    first entry that would leave for it is deferred instead: a full budget trades an entry only
    for a better one. ``trim`` gives, for a retired key, what of its fact still holds (a
    replacement changed one clause of several): the entry stays under its marker, saying only
    that, and its whole line still leaves for the archive as replaced.
    """
    retire = dict(retire or {})
    trim = dict(trim or {})
    newline = "\r\n" if "\r\n" in existing else "\n"
    lines = existing.splitlines(keepends=True)
    generated = {entry.key: entry for entry in generated_entries(lines)}
    prior = count_entries(existing)
    allowed_loss = math.floor(max_loss * prior + 1e-9)
    texts = {**(said or {}), **{entry.key: entry.text for entry in entries}}
    retire = {key: by for key, by in retire.items() if key in generated}
    ranked = [key for key in keep_order if key in generated and key not in retire]
    ranked += [
        g.key
        for g in sorted(generated.values(), key=lambda g: (g.day or "", g.first))
        if g.key not in retire and g.key not in ranked
    ]
    candidates = list(entries)
    evicted: list[GeneratedEntry] = []
    replacing = frozenset(retire.values())  # a candidate that frees the room of what it ends

    def retired() -> dict[str, str]:
        """Retirements in force: an entry is replaced only once its replacement is written."""
        kept = {entry.key for entry in candidates}
        tonight = {entry.key for entry in entries}
        return {key: by for key, by in retire.items() if by in kept or by not in tonight}

    while True:
        kept_lines = _trimmed(lines, {k: generated[k] for k in retired() if k in trim}, trim)
        drop = {
            i
            for key in retired()
            if key not in trim
            for i in range(generated[key].first, generated[key].line + 1)
        }
        gone = drop | {i for g in evicted for i in range(g.first, g.line + 1)}
        base = _without(kept_lines, gone) if gone or kept_lines != lines else existing
        section = _section_text(candidates, day, newline, brand)
        text = _join(base, section, newline) if candidates else base
        if len(text) <= max_chars:
            break
        can_evict = bool(ranked) and len(evicted) < allowed_loss
        least = _least(candidates, worth, replacing)
        if (
            can_evict
            and least is not None
            and worth is not None
            and worth.get(candidates[least].key, 0.0) < worth.get(ranked[0], 0.0)
        ):
            candidates.pop(least)  # not worth what it would push out
            continue
        if can_evict:
            evicted.append(generated[ranked.pop(0)])
        elif candidates:
            candidates.pop(len(candidates) - 1 if least is None else least)
        else:
            break  # the person's own text passes the budget: nothing of theirs ever leaves
    leaving = [
        Leaving(
            key,
            generated[key].text,
            "past" if by.startswith(PAST) else "superseded",
            by,
            texts.get(by),
        )
        for key, by in retired().items()
    ]
    leaving += [Leaving(g.key, g.text, "budget") for g in evicted]
    appended = tuple(entry.key for entry in candidates)
    deferred = tuple(entry.key for entry in entries if entry.key not in appended)
    if not appended and not leaving:
        return AppendResult(existing, (), deferred)
    days = tuple(sorted({g.day for g in evicted if g.day}))
    return AppendResult(text, appended, deferred, days, tuple(leaving))


def _trimmed(
    lines: list[str], entries: Mapping[str, GeneratedEntry], trim: Mapping[str, str]
) -> list[str]:
    """``lines`` with each of ``entries`` saying only what ``trim`` says still holds of it,
    under its own source label."""
    if not entries:
        return lines
    out = list(lines)
    for key, entry in entries.items():
        old = out[entry.line]
        ending = old[len(old.rstrip("\r\n")) :]
        label = SOURCE_LABEL.search(entry.text)
        note = f" ({_safe(label.group(1))})" if label else ""
        out[entry.line] = f"- {_safe(collapse(redact(trim[key])))}{note}{ending}"
    return out


def _least(
    candidates: Sequence[PromotionEntry],
    worth: Mapping[str, float] | None,
    replacing: frozenset[str] = frozenset(),
) -> int | None:
    """The index of the candidate to give up first: the lowest ranked among the least worth
    (the last without ``worth``), a candidate that replaces an entry only when no other is
    left (giving it up would leave the entry it ends standing as current); ``None`` when there
    is none."""
    if not candidates:
        return None
    pool = [i for i in range(len(candidates)) if candidates[i].key not in replacing]
    pool = pool or list(range(len(candidates)))
    if worth is None:
        return pool[-1]
    return min(reversed(pool), key=lambda i: worth.get(candidates[i].key, 0.0))


def append_promotions(
    existing: str,
    entries: Sequence[PromotionEntry],
    *,
    day: str,
    max_chars: int,
    max_loss: float,
    brand: str = "dreamd",
) -> AppendResult:
    """Append ``entries`` (already ranked) to ``existing`` within the budget, replacing the
    entries each names in ``replaces``."""
    retire = {old: entry.key for entry in entries for old in entry.replaces}
    return compose_memory(
        existing,
        entries,
        day=day,
        max_chars=max_chars,
        max_loss=max_loss,
        retire=retire,
        brand=brand,
    )
