"""End to end: secrets planted in notes and transcripts never reach a file dreamd writes.

Notes and transcripts hold key blocks longer than a chunk, a token wrapped over two lines, a
service-account object, a Kubernetes secret, passwords, tokens and personal data, and the kinds
redaction learned to generalise to: passwords said in German or Japanese, a disguised keyword,
a spelled-out e-mail address, a card with slashes, an IBAN with dots, a passport number and a
birth date after their words, a key in a URL parameter, a password in an XML tag, a token in
hex, and a password table in a chat message. The workspace
is swept, searched (the hits recorded), promoted with every threshold at zero, and replayed by
grounded backfill; then every byte dreamd wrote (MEMORY.md, DREAMS.md, the reports, the recall
store, the session corpus, the index database) is searched for each secret, as written, in lower
case and in upper case.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from dreamd.cli.main import main
from dreamd.config import DreamingConfig
from dreamd.recall.index import RecallIndex
from dreamd.recall.record import record_search
from dreamd.recall.search import search
from dreamd.runs.sweep import sweep_workspace

NOW = datetime(2026, 11, 29, 3, 0, tzinfo=UTC)
KEY_BODY = [
    f"MIIEowIBAAKCAQEA{n}x7Kd9Qw2Lm5Nz8Pq3Rt6Vy1Bc4Fg7Hj0Kl3Mn6Pq9St2Vw5Yz8Ab" for n in range(7)
]
TOKEN_HEAD, TOKEN_TAIL = "ghp_Z9y8X7w6V5u4T3", "s2R1q0P9o8N7m6L5k4J3i2"
SA_KEY = "MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQDd8Xq2Lm4Nz7"
SECRETS = {
    "aws": "AKIAQ3EGUTZ7YHJKL4MN",
    "stripe": "rk_live_51Hx8aQ2eZvKYlo2C0a1b2c3d4e5f6g7h8i9j0",
    "password": "Tr0ub4dor&3horse",
    "email": "lena.kowalska@wp.pl",
    "phone": "+44 20 7946 0958",
    "iban": "DE89 3704 0044 0532 0130 00",
    "card": "4111 1111 1111 1111",
    "ssn": "536-90-4399",
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJ1aWQiOjQyfQ.Xq2Lm4Nz7Pq3Rt6Vy1Bc4Fg7Hj0Kl3Mn6Pq9St2Vw5",
    "k8s": "UzNjcmV0UGFzc3dvcmQyMDI2IQ==",
    "chat-key": "sk-proj-Qw3rTy7uIo9pAs2dFg5hJk8lZx1cVb4nM6qW0eR3tY5uI7oP",
    "chat-pin": "PIN 7319",
    "chat-key-body": "MIIEpAIBAAKCAQEAq7Bd2Fh4Jk6Lm8Np0Rr2Tt4Vv6Xx8Zz0Ab2Cd4Ef6Gh8Ij0Kl",
    "prose-de": "Sommerwiese-2024",
    "prose-ja": "Sakura-2024!",
    "zero-width": "Qx7pL2mz!Zz",
    "spelled-email": "kenji dot x at gmail dot com",
    "card-slashes": "4532/0151/1283/0366",
    "iban-dots": "DE89.3704.0044.0532.0130.00",
    "passport": "C01X00T47",
    "birth-date": "14.03.1988",
    "appid": "86bf8f4fc672e79538d4bd3b68c6c960",
    "xml": "Gr8-Lakes!x",
    "hex-token": b"ghp_Hx7Kq2Lm9Nz4Pw8Rt1Vy6Bc3Fg5Jk0Sd2Wq".hex(),
    "chat-table": "Pelican-Rock-19",
    "token-head": TOKEN_HEAD,
    "token-tail": TOKEN_TAIL,
    "sa-key": SA_KEY,
    **{f"key-body-{n}": line for n, line in enumerate(KEY_BODY)},
}
OLDER = "\n".join(
    [
        "# 2026-11-27",
        "",
        "## Billing",
        "- We decided the billing service moves to Postgres 16 on db-02.",
        f"- The billing AWS key is {SECRETS['aws']} until the rotation.",
        f"- Stripe restricted key {SECRETS['stripe']} lives in the vault now.",
        "- The billing export runs nightly at 03:00 and takes nine minutes.",
        "",
        "## Deploy key",
        "- The deploy key for web-03, rotate it in January:",
        "-----BEGIN RSA PRIVATE KEY-----",
        *KEY_BODY,
        "-----END RSA PRIVATE KEY-----",
        "- The token for the release bot, wrapped by the terminal:",
        TOKEN_HEAD,
        TOKEN_TAIL,
        "",
    ]
)
NEWER = "\n".join(
    [
        "# 2026-11-28",
        "",
        "## People",
        f"- Lena ({SECRETS['email']}, {SECRETS['phone']}) owns the billing migration.",
        f"- Rent goes to {SECRETS['iban']}; the company card is {SECRETS['card']}.",
        f"- Lena's SSN {SECRETS['ssn']} is needed for the payroll form.",
        f"- The billing admin password: {SECRETS['password']}",
        f"- The session JWT was {SECRETS['jwt']}",
        "- We decided the billing service keeps its Postgres 16 replica on db-03.",
        f"- Das WLAN-Passwort für das Gästenetz lautet {SECRETS['prose-de']}, bitte nicht teilen.",
        f"- 社内VPNのパスワードは {SECRETS['prose-ja']} です",
        f"- p\u200bassword for the NAS: {SECRETS['zero-width']}",
        f"- Kenji's private mail: {SECRETS['spelled-email']}",
        f"- Backup card {SECRETS['card-slashes']}, rent to {SECRETS['iban-dots']}.",
        f"- Lena's Reisepass-Nr. {SECRETS['passport']}, Geburtsdatum: {SECRETS['birth-date']}",
        f"- Weather: https://api.openweathermap.org/data/2.5/weather?q=Berlin&appid={SECRETS['appid']}",
        f"- Nexus settings: <password>{SECRETS['xml']}</password>",
        f"- The CI log printed {SECRETS['hex-token']}",
        "",
        "## Service account",
        "```json",
        "{",
        '  "type": "service_account",',
        '  "project_id": "dream-prod-4471",',
        f'  "private_key": "-----BEGIN PRIVATE KEY-----\\n{SA_KEY}\\n-----END PRIVATE KEY-----\\n"',
        "}",
        "```",
        "",
        "## Cluster",
        "```yaml",
        "kind: Secret",
        "metadata:",
        "  name: db-credentials",
        "data:",
        f"  password: {SECRETS['k8s']}",
        "```",
        "- The billing cluster runs three replicas behind the gateway.",
        "",
    ]
)


def _message(role: str, text: str, minutes: int) -> str:
    stamp = (NOW - timedelta(hours=10) + timedelta(minutes=minutes)).isoformat()
    content = {"role": role, "content": text}
    return json.dumps(
        {"type": "message", "timestamp": stamp.replace("+00:00", "Z"), "message": content}
    )


@pytest.fixture
def workspace(tmp_path: Path) -> tuple[Path, Path]:
    """A workspace with two recent notes full of secrets and a transcript holding more."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    (root / "memory" / "2026-11-27.md").write_text(OLDER, encoding="utf-8")
    (root / "memory" / "2026-11-28.md").write_text(NEWER, encoding="utf-8")
    sessions = tmp_path / "agents" / "main" / "sessions"
    sessions.mkdir(parents=True)
    key = f"-----BEGIN RSA PRIVATE KEY-----\n{SECRETS['chat-key-body']}\n-----END RSA PRIVATE KEY-----"
    lines = [
        json.dumps({"type": "session", "id": "chat1", "sessionKind": "interactive"}),
        _message("user", "We decided the billing service moves to Postgres 16 on db-02.", 1),
        _message("user", f"here is my key {SECRETS['chat-key']} and my {SECRETS['chat-pin']}", 2),
        _message("user", f"the deploy key for the billing box:\n{key}\nuse it tonight", 3),
        _message("assistant", "Noted: the billing box gets the new deploy key tonight.", 4),
        _message(
            "user",
            f"| Service | User | Password |\n|---|---|---|\n| NAS | admin | {SECRETS['chat-table']} |",
            5,
        ),
    ]
    (sessions / "chat1.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root, sessions


def _dreamd(*argv: str) -> int:
    return main(["--no-daemon", *argv])


def _written_files(root: Path) -> list[Path]:
    notes = {root / "memory" / "2026-11-27.md", root / "memory" / "2026-11-28.md"}
    return [p for p in root.rglob("*") if p.is_file() and p not in notes]


def test_no_planted_secret_reaches_any_file_dreamd_writes(
    workspace: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """After a sweep, searches, promotion and backfill, no secret is in any written file in any
    case, while the harmless lines around them did get stored and promoted."""
    root, sessions = workspace
    outcome = sweep_workspace(
        root, DreamingConfig(), now=NOW, zone=UTC, sessions=[("main", sessions)]
    )
    assert outcome.status == "ok", outcome.error
    with RecallIndex.open(root) as index:
        index.update()
        for query in (
            "billing key",
            "deploy key",
            "Lena billing",
            "session JWT",
            "service account",
        ):
            hits = search(index, query, k=10, now=NOW)
            record_search(root, query, hits, now=NOW, zone=UTC)
    base = ["--workspace", str(root), "--now", NOW.isoformat(), "--json"]
    thresholds = ["--min-score", "0", "--min-recall-count", "0", "--min-unique-queries", "0"]
    assert _dreamd(*base, "memory", "promote", "--apply", "--limit", "50", *thresholds) == 0
    assert (
        _dreamd(
            *base, "memory", "rem-backfill", "--path", str(root / "memory"), "--stage-short-term"
        )
        == 0
    )
    capsys.readouterr()
    written = _written_files(root)
    names = {p.relative_to(root).as_posix() for p in written}
    assert {"MEMORY.md", "DREAMS.md", "memory/.dreams/short-term-recall.json"} <= names
    assert "memory/.dreams/index.sqlite" in names
    assert any(name.startswith("memory/.dreams/session-corpus/") for name in names)
    assert any(name.startswith("memory/dreaming/") for name in names)
    leaks = []
    for path in written:
        data = path.read_bytes()
        lowered = data.lower()
        for name, secret in SECRETS.items():
            for form in {secret, secret.lower(), secret.upper()}:
                if form.encode() in data or form.lower().encode() in lowered:
                    leaks.append(f"{name} in {path.relative_to(root)}")
    assert sorted(set(leaks)) == []
    memory = (root / "MEMORY.md").read_text(encoding="utf-8")
    assert "Postgres 16" in memory
    store = (root / "memory/.dreams/short-term-recall.json").read_text(encoding="utf-8")
    assert "billing export runs nightly" in store


MULTILINE = {
    "table": "Pelican-Rock-19x",
    "next-line": "Seeblick#2023",
    "jwt-signature": "xyCavQLyByKIFM3MZSPe2kL9q0Tz7WbN4rUm8sYd1Hf",
}


def test_no_secret_laid_out_over_lines_reaches_any_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A password table, a value on the line after its key and a JWT wrapped over lines, in a
    note that is swept, searched, promoted and replayed, reach no written file."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    header = "eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiJrZW5qaSJ9."
    note = "\n".join(
        [
            "# 2026-11-28",
            "",
            "## Home network",
            "- We decided the billing service moves to Postgres 16 on db-02.",
            "| Service | User | Password |",
            "|---|---|---|",
            f"| NAS | admin | {MULTILINE['table']} |",
            "",
            "- WLAN-Passwort:",
            f"  {MULTILINE['next-line']}",
            "",
            "- The id token, wrapped by the terminal:",
            header,
            MULTILINE["jwt-signature"],
            "",
        ]
    )
    (root / "memory" / "2026-11-28.md").write_text(note, encoding="utf-8")
    outcome = sweep_workspace(root, DreamingConfig(), now=NOW, zone=UTC)
    assert outcome.status == "ok", outcome.error
    with RecallIndex.open(root) as index:
        index.update()
        for query in ("Password NAS", "WLAN-Passwort", "id token"):
            record_search(root, query, search(index, query, k=10, now=NOW), now=NOW, zone=UTC)
    base = ["--workspace", str(root), "--now", NOW.isoformat(), "--json"]
    thresholds = ["--min-score", "0", "--min-recall-count", "0", "--min-unique-queries", "0"]
    assert _dreamd(*base, "memory", "promote", "--apply", "--limit", "50", *thresholds) == 0
    assert (
        _dreamd(
            *base, "memory", "rem-backfill", "--path", str(root / "memory"), "--stage-short-term"
        )
        == 0
    )
    capsys.readouterr()
    leaks = [
        f"{name} in {path.relative_to(root)}"
        for path in root.rglob("*")
        if path.is_file() and path.name != "2026-11-28.md"
        for name, secret in MULTILINE.items()
        if secret.encode() in path.read_bytes()
    ]
    assert sorted(set(leaks)) == []
