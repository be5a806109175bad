"""Re-hydration: find a candidate's text again in the live note before promoting it.

The stored range is tried first. Otherwise every window of 1 to ``max(span + 3, 8)`` lines is
compared with the stored snippet in each form the range can take (plain, without list markers,
``heading: body``): equal beats *window contains snippet* beats *snippet contains window* (the
window must then hold at least half the snippet). Ties go to the window nearest the old start
line, then the span closest to the old span. Managed blocks are blanked first, so a window can
never fall inside one, and so is every line a secret touches (the whole note is read first,
:func:`dreamd.redaction.blank_secret_lines`), so the live text handed on can never quote one.
No match means the candidate is skipped (``source rehydration``).
Pure: text in, range out.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from dreamd.engine.phases.chunks import range_forms
from dreamd.engine.text.blocks import blank_managed
from dreamd.engine.text.snippets import collapse, strip_list_marker
from dreamd.redaction import blank_secret_lines

__all__ = ["Rehydrated", "rehydrate"]

_EQUAL, _CONTAINS, _CONTAINED = 3, 2, 1


@dataclass(frozen=True, slots=True)
class Rehydrated:
    """Where the snippet lives now (1-based inclusive lines) and its live text."""

    start_line: int
    end_line: int
    snippet: str
    exact: bool  # the stored range still holds the stored snippet


def _quality(forms: tuple[str, ...], target: str) -> tuple[int, str]:
    best, best_form = 0, ""
    for form in forms:
        if form == target:
            return _EQUAL, form
        if target in form and best < _CONTAINS:
            best, best_form = _CONTAINS, form
        elif form in target and 2 * len(form) >= len(target) and best < _CONTAINED:
            best, best_form = _CONTAINED, form
    return best, best_form


def _probes(target: str) -> tuple[str, ...]:
    probes = {target[:30], strip_list_marker(target)[:30]}
    if ": " in target:
        probes.add(target.split(": ", 1)[1][:30])
    return tuple(probe for probe in probes if probe)


@lru_cache(maxsize=8)
def _readable_lines(normalised: str) -> tuple[str, ...]:
    """The note's lines with managed blocks and every line a secret touches blanked (one note
    serves many candidates in a row, so the last few are kept)."""
    return tuple(blank_secret_lines(blank_managed(normalised)).split("\n"))


def rehydrate(text: str, start_line: int, end_line: int, snippet: str) -> Rehydrated | None:
    """Locate ``snippet`` (last seen at ``start_line..end_line``) in the live ``text``."""
    target = collapse(snippet)
    if not target:
        return None
    normalised = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = list(_readable_lines(normalised))
    old_first, old_last = start_line - 1, end_line - 1
    if 0 <= old_first <= old_last < len(lines) and target in range_forms(
        lines, old_first, old_last
    ):
        return Rehydrated(start_line, end_line, target, exact=True)
    old_span = max(1, end_line - start_line + 1)
    max_span = max(old_span + 3, 8)
    probes = _probes(target)
    best: tuple[int, int, int] | None = None
    found: Rehydrated | None = None
    for first, line in enumerate(lines):
        content = collapse(strip_list_marker(line))
        if not content or not (content in target or any(p in content for p in probes)):
            continue
        for span in range(1, min(max_span, len(lines) - first) + 1):
            last = first + span - 1
            if not lines[last].strip():
                break
            quality, form = _quality(range_forms(lines, first, last), target)
            if not quality:
                continue
            rank = (-quality, abs(first - old_first), abs(span - old_span))
            if best is None or rank < best:
                best = rank
                found = Rehydrated(first + 1, last + 1, form, exact=False)
    return found
