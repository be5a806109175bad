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

import contextlib
import io
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from dreamd.cli.main import main
from dreamd.recall.index import RecallIndex
from dreamd.recall.record import record_search
from dreamd.recall.search import search

NOW = datetime(2026, 11, 29, 3, 0, tzinfo=UTC)
PIECES = ("9f2c7e1a0b3d5c48", "e6a1d0c9b8f70214", "71c0d9e8f7a6b5c4", "0b1c2d3e4f5a6b7c")
CODES = ("604118", "771902", "T-583016")
FACT = "We decided the brewery moves its billing to Postgres 16 on db-02."
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


def _message(text: str, minutes: int) -> str:
    stamp = (NOW - timedelta(hours=10) + timedelta(minutes=minutes)).isoformat()
    message = {"role": "user", "content": text}
    record = {"type": "message", "timestamp": stamp.replace("+00:00", "Z"), "message": message}
    return json.dumps(record)


def _plant(base: Path) -> Path:
    """Two daily notes of list items, a transcript, and the config that trusts its turns."""
    root = base / "ws"
    (root / "memory").mkdir(parents=True)
    for day in range(2):
        name = (NOW - timedelta(days=day + 1)).date().isoformat()
        lines = [f"# {name}", "", "## Notes", f"- {FACT}", ""]
        for item in NOTE_ITEMS[day::2]:
            lines += [item, "- The nightly export finishes before the backup.", ""]
        (root / "memory" / f"{name}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    sessions = base / "agents" / "main" / "sessions"
    sessions.mkdir(parents=True)
    header = json.dumps({"type": "session", "id": "chat1", "sessionKind": "interactive"})
    turns = [FACT, *CHAT_TURNS]
    lines = [header, *(_message(text, minute) for minute, text in enumerate(turns))]
    (sessions / "chat1.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    config = [
        "[dreaming]",
        'timezone = "UTC"',
        "[agents]",
        'system_agent = "main"',
        "[[agents.list]]",
        'id = "main"',
        'workspace = "ws"',
        'sessions = "agents/main/sessions"',
        "trust_unmarked_turns = true",
    ]
    (base / "config.toml").write_text("\n".join(config) + "\n", encoding="utf-8")
    return root


def _dreamd(base: Path, *argv: str) -> int:
    flags = ["--no-daemon", "--config", str(base / "config.toml"), "--now", NOW.isoformat()]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main([*flags, *argv])


def test_secrets_behind_a_list_marker_reach_no_written_file(tmp_path: Path) -> None:
    """Pieces numbered under a bullet and one-time codes that open a list item or a quote are
    in no file a sweep, searches, a promotion and a second sweep write; the harmless fact is
    promoted and the graph was built (so the run wrote what it should)."""
    root = _plant(tmp_path)
    planted = {p for p in root.rglob("*") if p.is_file()}
    assert _dreamd(tmp_path, "sweep") == 0
    with RecallIndex.open(root) as index:
        index.update()
        for query in ("brewery billing Postgres", "Mapbox token", "code", "Contoso", "parts"):
            record_search(root, query, search(index, query, k=20, now=NOW), now=NOW, zone=UTC)
    zero = ["--min-score", "0", "--min-recall-count", "0", "--min-unique-queries", "0"]
    promote = ["--workspace", str(root), "memory", "promote", "--apply", "--limit", "200"]
    assert _dreamd(tmp_path, *promote, *zero) == 0
    assert _dreamd(tmp_path, "sweep") == 0
    written = {
        p.relative_to(root).as_posix(): p.read_bytes().decode("utf-8", "replace")
        for p in root.rglob("*")
        if p.is_file() and p not in planted
    }
    assert {"MEMORY.md", "memory/.dreams/graph.json"} <= set(written)
    assert "Postgres 16" in written["MEMORY.md"]
    leaked = [
        f"{value} in {path}"
        for value in (*PIECES, *CODES)
        for path, data in sorted(written.items())
        if value in data or value.lower() in data.lower()
    ]
    assert leaked == [], leaked
