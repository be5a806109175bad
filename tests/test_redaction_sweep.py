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

from datetime import timedelta
from pathlib import Path

from tests import redaction_corpus_round2
from tests.swept import FACT, NOW, found, live, write_transcript

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
    write_transcript(base, turns)
    return [secret for sample in samples for secret in sample.secrets]


def test_planted_secrets_reach_no_file_a_swept_workspace_writes(
    tmp_path: Path, isolated_home: Path
) -> None:
    """Sweep, search, promote, sweep again: no value laid out over lines is in any written file,
    at most 1 % of the corpus items are, none is in MEMORY.md, and the harmless fact was
    promoted (so the run did write what it should)."""
    items = _plant(tmp_path)
    queries = ("brewery billing Postgres", "password", "hasło", "key", "NAS admin")
    written = live(tmp_path, queries)
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
        if found(secret, data)
    ]
    assert laid_out == []
    leaked = sorted({s for s in items if any(found(s, data) for data in written.values())})
    assert len(leaked) <= len(items) * 0.01, leaked
    assert [s for s in items if found(s, written["MEMORY.md"])] == []
