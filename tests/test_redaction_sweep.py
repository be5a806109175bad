"""End to end through the command line: secrets planted in notes and in session transcripts
reach no file dreamd writes.

A configured agent (transcripts trusted, so its turns reach the session corpus) has notes and a
transcript holding secrets laid out over lines (the value on the line after ``Password:``, a
key block inside one message, a password table) and every item of the round-two corpus. The
workspace is swept with ``dreamd sweep``, searched, promoted with every threshold at zero and
swept again; then every file dreamd wrote (MEMORY.md, DREAMS.md, ``memory/.dreams/*``, the
reports, the session corpus, the index) is searched for each planted value, as written and in
lower case: the multi-line ones must be nowhere, the corpus items in at most 1 % of cases and
never in MEMORY.md.
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
from tests import redaction_corpus_round2

NOW = datetime(2026, 11, 29, 3, 0, tzinfo=UTC)
KEY_LINES = [
    f"MIIEpQIBAAKCAQEA{n}w8Hq2Lm5Nz8Pq3Rt6Vy1Bc4Fg7Hj0Kl3Mn6Pq9St2Vw5Yz8Ab" for n in range(4)
]
LAID_OUT = {
    "note next line": "Gdansk#Harbour77",
    "note table": "Kormoran-Blue-41",
    "chat next line": "Wisla!Bridge2026",
    "chat next line, other language": "Bosphorus_Ferry88",
    **{f"chat key line {n}": line for n, line in enumerate(KEY_LINES)},
}
FACT = "We decided the brewery moves its billing to Postgres 16 on db-02."


def _message(text: str, minutes: int) -> str:
    stamp = (NOW - timedelta(hours=10) + timedelta(minutes=minutes)).isoformat()
    message = {"role": "user", "content": text}
    record = {"type": "message", "timestamp": stamp.replace("+00:00", "Z"), "message": message}
    return json.dumps(record)


def _plant(base: Path) -> list[str]:
    """The workspace, its transcript and its config; returns the corpus items planted."""
    root = base / "ws"
    (root / "memory").mkdir(parents=True)
    samples = redaction_corpus_round2.secret_samples()
    days = 6
    for day in range(days):
        name = (NOW - timedelta(days=day + 1)).date().isoformat()
        lines = [f"# {name}", "", "## Notes", f"- {FACT}", ""]
        for text in (s.text for s in samples[day::days]):
            lines += [f"- {text}", ""]
        if day == 0:
            lines += ["- Router Password:", f"  {LAID_OUT['note next line']}", ""]
            lines += ["| Service | Login | Hasło |", "|---|---|---|"]
            lines += [f"| NAS | admin | {LAID_OUT['note table']} |", ""]
        (root / "memory" / f"{name}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    sessions = base / "agents" / "main" / "sessions"
    sessions.mkdir(parents=True)
    key = "\n".join(
        ["-----BEGIN RSA PRIVATE KEY-----", *KEY_LINES, "-----END RSA PRIVATE KEY-----"]
    )
    turns = [
        FACT,
        f"the NAS admin Password:\n{LAID_OUT['chat next line']}\nplease keep it",
        f"Şifre\n{LAID_OUT['chat next line, other language']}",
        f"the deploy key for the brewery box:\n{key}\nuse it tonight",
        *(s.text for s in samples),
    ]
    header = json.dumps({"type": "session", "id": "chat1", "sessionKind": "interactive"})
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
    return [secret for sample in samples for secret in sample.secrets]


def _dreamd(base: Path, *argv: str) -> int:
    flags = ["--no-daemon", "--config", str(base / "config.toml"), "--now", NOW.isoformat()]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main([*flags, *argv])


def _found(secret: str, data: str) -> bool:
    return secret in data or secret.lower() in data.lower()


def test_planted_secrets_reach_no_file_a_swept_workspace_writes(
    tmp_path: Path, isolated_home: Path
) -> None:
    """Sweep, search, promote, sweep again: no value laid out over lines is in any written file,
    at most 1 % of the corpus items are, none is in MEMORY.md, and the harmless fact was
    promoted (so the run did write what it should)."""
    items = _plant(tmp_path)
    root = tmp_path / "ws"
    planted = {p for p in root.rglob("*") if p.is_file()}
    assert _dreamd(tmp_path, "sweep") == 0
    with RecallIndex.open(root) as index:
        index.update()
        for query in ("brewery billing Postgres", "password", "hasło", "key", "NAS admin"):
            record_search(root, query, search(index, query, k=20, now=NOW), now=NOW, zone=UTC)
    zero = ["--min-score", "0", "--min-recall-count", "0", "--min-unique-queries", "0"]
    workspace = ["--workspace", str(root)]
    assert (
        _dreamd(tmp_path, *workspace, "memory", "promote", "--apply", "--limit", "200", *zero) == 0
    )
    assert _dreamd(tmp_path, "sweep") == 0
    written = {
        p.relative_to(root).as_posix(): p.read_bytes().decode("utf-8", "replace")
        for p in root.rglob("*")
        if p.is_file() and p not in planted
    }
    assert {"MEMORY.md", "memory/.dreams/short-term-recall.json"} <= set(written)
    assert any(name.startswith("memory/.dreams/session-corpus/") for name in written)
    corpus = "".join(
        v for k, v in written.items() if k.startswith("memory/.dreams/session-corpus/")
    )
    assert "Postgres 16" in corpus and "Postgres 16" in written["MEMORY.md"]
    laid_out = [
        f"{name} in {path}"
        for name, secret in LAID_OUT.items()
        for path, data in written.items()
        if _found(secret, data)
    ]
    assert laid_out == []
    leaked = sorted({s for s in items if any(_found(s, data) for data in written.values())})
    assert len(leaked) <= len(items) * 0.01, leaked
    assert [s for s in items if _found(s, written["MEMORY.md"])] == []
