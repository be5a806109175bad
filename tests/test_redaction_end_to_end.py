"""End to end through the command line: a secret written as a note's list item reaches no file.

Daily notes are bullet lists, so a text that redaction reads right on its own is stored behind
a list item's or a quote's marker (``- ``, ``* ``, ``> ``, ``1. ``). A rule anchored where a
line starts must read past that marker, or the whole note (which every path redacts before
cutting it into chunks, episodes or graph lines) keeps what the text alone would lose. Here
numbered pieces of a key under a bullet, and one-time codes that open a list item or a quoted
line, are planted in notes and in a transcript; the workspace is swept, searched, promoted
with every threshold at zero and swept again, and every file dreamd wrote is searched for each
value, as written and in lower case.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from tests.swept import FACT, NOW, found, live, write_transcript

PIECES = ("9f2c7e1a0b3d5c48", "e6a1d0c9b8f70214", "71c0d9e8f7a6b5c4", "0b1c2d3e4f5a6b7c")
CODES = ("604118", "771902", "T-583016")
NOTE_ITEMS = (
    f"- 1. {PIECES[0]}\n  2. {PIECES[1]}\n  (the Mapbox secret token, in two parts)",
    f"- {CODES[0]} is your Contoso sign-in code. Do not share it.",
    f"> {CODES[1]} est votre code de confirmation Qonto",
    f"* {CODES[2]} is your Tern login code",
)
CHAT_TURNS = (
    f"- a. note\n- 1. {PIECES[2]}\n- 2. {PIECES[3]}\n- (that is the deploy token, split)",
    f"> {CODES[0]} is your Contoso sign-in code.",
)


def _plant(base: Path) -> None:
    """Two daily notes of list items, a transcript, and the config that trusts its turns."""
    root = base / "ws"
    (root / "memory").mkdir(parents=True)
    for day in range(2):
        name = (NOW - timedelta(days=day + 1)).date().isoformat()
        lines = [f"# {name}", "", "## Notes", f"- {FACT}", ""]
        for item in NOTE_ITEMS[day::2]:
            lines += [item, "- The nightly export finishes before the backup.", ""]
        (root / "memory" / f"{name}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    write_transcript(base, [FACT, *CHAT_TURNS])


def test_secrets_behind_a_list_marker_reach_no_written_file(tmp_path: Path) -> None:
    """Pieces numbered under a bullet and one-time codes that open a list item or a quote are
    in no file a sweep, searches, a promotion and a second sweep write; the harmless fact is
    promoted and the graph was built (so the run wrote what it should)."""
    _plant(tmp_path)
    queries = ("brewery billing Postgres", "Mapbox token", "code", "Contoso", "parts")
    written = live(tmp_path, queries)
    assert {"MEMORY.md", "memory/.dreams/graph.json"} <= set(written)
    assert "Postgres 16" in written["MEMORY.md"]
    leaked = [
        f"{value} in {path}"
        for value in (*PIECES, *CODES)
        for path, data in sorted(written.items())
        if found(value, data)
    ]
    assert leaked == [], leaked
