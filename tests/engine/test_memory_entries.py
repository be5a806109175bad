"""MEMORY.md as entries: promotions carry their keys, people's lines do not."""

from __future__ import annotations

from dreamd.engine.text.memory_entries import MemoryEntry, generated_lines, memory_entries

MEMORY = """# Long-Term Memory

- I prefer short answers.

## Promoted From Short-Term Memory (2026-11-20)

<!-- dreamd-memory-promotion:memory:memory/2026-11-19.md:3:3 -->
- Billing runs on db-02. [score=0.812 signals=3 recalls=3 avg=0.900 source=memory/2026-11-19.md:3-3] <!-- trigger: billing --> <!-- importance: 8 -->
<!-- openclaw-memory-promotion:memory:memory/2026-11-18.md:4:4 -->
- Old fact. Source: memory/2026-11-18.md#L4-L4 <!-- importance: 5 -->

```
- not an entry
```
"""


def test_entries_with_their_keys_and_claims() -> None:
    """Each entry's line, its marker key (None for a person's) and the claim without metadata."""
    assert [(e.line, e.key, e.text) for e in memory_entries(MEMORY)] == [
        (3, None, "I prefer short answers."),
        (8, "memory:memory/2026-11-19.md:3:3", "Billing runs on db-02."),
        (10, "memory:memory/2026-11-18.md:4:4", "Old fact."),
    ]
    assert memory_entries("- x y z\n")[0] == MemoryEntry(1, "- x y z", "x y z", None)


def test_generated_lines_leave_a_persons_lines_out() -> None:
    """Headings, markers, promoted entries and blanks are dreaming's; a person's line is not."""
    generated = generated_lines(MEMORY)
    assert sorted(set(range(1, 15)) - generated) == [3, 12, 13, 14]
