"""Redaction figures: recall and false positives per family and per corpus, and throughput.

Run ``python bench/redaction.py`` (``--misses`` also lists every miss and false positive).
Corpora: ``tests/redaction_corpus.py`` (the project's first corpus), ``tests/
redaction_corpus_fresh.py`` (written as careless note-takers and attackers write, never used to
tune the rules) and ``tests/redaction_corpus_holdout.py`` (three batches, each written after the
previous corpus had been measured and its misses fixed, to measure again on unseen text) and
``tests/redaction_corpus_attacker.py`` (three batches written as an attacker would, each after
the previous one's misses were fixed; each was first measured as it stood), the blind corpus
(``tests/redaction_corpus_blind.py``) and the round-two corpus (``tests/
redaction_corpus_round2.py``: languages, formats and vendors none of the others hold, written
before the rules were read) and the round-three corpus (``tests/redaction_corpus_round3.py``:
some twenty more languages, config formats, vendors, documents and encodings, written before
the rules were measured on it) and the round-four corpus (``tests/redaction_corpus_round4.py``:
some forty more languages, shell history, container, Terraform, Nix, systemd, crontab, notebook,
CSV, log and stack-trace text, more vendors and national numbers, written before the rules were
measured on it) and the round-five corpus (``tests/redaction_corpus_round5.py``: forty more
languages, credential files and CLIs, disguises, forty more vendors, personal data in vCard,
FHIR, HL7, GEDCOM and LDIF, eighteen more national numbers, written before the rules were
measured on it) and the round-six corpus (``tests/redaction_corpus_round6.py``: fifty more
languages and scripts, spelled passwords, door codes, pipelines, manifests and config files,
headers, cookies, quoted keys, one-time codes, recovery phrases, accounts, tax and health
numbers, cards and disguises, written before the rules were measured on it) and the
round-seven corpus (``tests/redaction_corpus_round7.py``: Wi-Fi keys, door codes and PINs,
passwords in the everyday prose of the big languages, forty vendors' keys, connection strings,
accounts, cards, passports, licences and national numbers, birth dates and phones, setups moved
between machines and disguises, written before the rules were measured on it) and the
round-eight corpus (``tests/redaction_corpus_round8.py``: unit files, crontabs, backup tools,
config files, proxies, app passwords, command lines and SQL, keys pasted in part, signed URLs,
SAS tokens, chat hooks, bot tokens and OAuth clients, link fragments, sixty more vendors,
passwords in the inflected prose of Swahili to Amharic, mobile-money PINs, health, national and
tax numbers, birth dates in other calendars, phones, voice-note transcripts, traces, logs, diffs,
nested JSON, mail, chat exports and disguises, written before the rules were measured on it)
and the round-nine corpus (``tests/redaction_corpus_round9.py``: whole config files and pastes
holding many values each (YAML, Terraform, Kubernetes, Ansible, compose, netrc, pgpass, git
credentials, connection strings, SMTP, Postman, curl, HTTP exchanges, cookies, OTP seeds and
recovery codes, inlined keys, wallets, registries, network gear, password hashes), bank details
and national numbers in eight more languages, health numbers, number plates with their keepers,
dictated passwords, diffs, logs, link titles, bare vendor tokens and disguises, written before
the rules were read) and the round-ten corpus (``tests/redaction_corpus_round10.py``: files
people export (password-manager CSVs, calendars, vCards, chat exports, TSV, LaTeX, notebooks,
Dockerfiles, CI, systemd, Helm, plists, Android resources, registry exports, PowerShell,
authenticator backups, recovery keys), national numbers of twenty-four more countries, IBANs
and domestic accounts, passwords, PINs and phones in sixteen more languages, written before
the rules were read) and the round-eleven corpus (``tests/redaction_corpus_round11.py``: dictated
and mistyped passwords and hints, Markdown constructs and front matter, smart-home, camera,
router and NAS configs, stream keys and game accounts, bank details of seven more countries,
IBANs of eleven more, national ids of forty-odd more schemes, phones of twelve more countries,
forty more vendors, encodings, split values, framework logs and traces, written before the
rules were read) and the round-twelve corpus (``tests/redaction_corpus_round12.py``: keys of
some seventy more vendors, national numbers and phones of more countries, passwords in
thirty-five more languages, native digits of twelve scripts, disguises (styled letters, keyboard
layouts, escapes), provisioning files, shell histories, developer and attacker tooling, chat and
password-manager exports, bank logins and gift cards, written before the rules were read).

* *recall*: secrets removed from the text by :func:`dreamd.redaction.redact`; *as stored*: the
  text saved as a daily note and taken through the light phase (the whole note is read, then
  cut into chunks, then each chunk is checked): a secret counts as caught when no stored
  snippet holds it.
* *false positives*: look-alikes :func:`redact` changes at all.
* *end to end*: every sample of the blind corpus (and its held-out batch) planted in daily
  notes and in session transcripts; the workspace is swept, searched, promoted with every
  threshold at zero and replayed by grounded backfill, then every file dreamd wrote is searched
  for each planted item (as written, in lower and upper case; items under 8 characters as
  whole words, and a PIN or a CVV not where it stands as a JSON number: ``"line": 204,`` is
  a line number). Reported: the items found in any written file, and in MEMORY.md;
  ``--misses`` lists each item found and the files it is in.
* *throughput*: :func:`dreamd.redaction.find_secrets` over a year of daily notes (the workload
  of ``bench/run.py``), as written and with a secret or a look-alike on one line in ten; and
  ``dreamd redact --json -`` over the whole year as one process, start-up included.
* *sweep cost*: a cold sweep of the year with redaction and with its detectors switched off.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from workloads import year

from dreamd.cli.main import main as dreamd_main
from dreamd.config import DreamingConfig
from dreamd.engine.hits import Hit
from dreamd.engine.phases.chunks import chunk_daily_note
from dreamd.engine.state import Table
from dreamd.engine.traces import record_hits
from dreamd.recall.index import RecallIndex
from dreamd.recall.record import record_search
from dreamd.recall.search import search
from dreamd.redaction import blank_secret_lines, find_secrets, redact
from dreamd.runs.sweep import sweep_workspace
from tests import (
    redaction_corpus,
    redaction_corpus_attacker,
    redaction_corpus_blind,
    redaction_corpus_fresh,
    redaction_corpus_holdout,
    redaction_corpus_round2,
    redaction_corpus_round3,
    redaction_corpus_round4,
    redaction_corpus_round5,
    redaction_corpus_round6,
    redaction_corpus_round7,
    redaction_corpus_round8,
    redaction_corpus_round9,
    redaction_corpus_round10,
    redaction_corpus_round11,
    redaction_corpus_round12,
)

Secret = tuple[str, str, tuple[str, ...]]  # family, text, secrets
NOW = datetime(2026, 11, 20, 3, 0, tzinfo=UTC)


def _project_family(text: str) -> str:
    """The first corpus has no family labels: its templates tell them apart."""
    rules = (
        ("-----BEGIN", "key block"),
        ("://", "url / webhook"),
        ("Authorization", "header"),
        ("authorization", "header"),
        ("--", "cli flag"),
        ('{"user"', "json field"),
        ("@", "email"),
        ("call me", "phone"),
        ("card ", "card"),
        ("wire it", "iban"),
        ("the key is", "vendor token"),
        ("export THING", "vendor token"),
    )
    return next((family for needle, family in rules if needle in text), "named assignment")


def corpora() -> dict[str, tuple[list[Secret], list[tuple[str, str]]]]:
    """Each corpus as (family, text, secrets) samples and (family, text) look-alikes."""
    project: list[Secret] = [
        (_project_family(t), t, (s,)) for t, s in redaction_corpus.secret_samples()
    ]
    return {
        "project": (project, [("look-alike", t) for t in redaction_corpus.lookalikes()]),
        "fresh": (
            [(s.family, s.text, s.secrets) for s in redaction_corpus_fresh.secret_samples()],
            [(x.family, x.text) for x in redaction_corpus_fresh.lookalikes()],
        ),
        "holdout": (
            [(s.family, s.text, s.secrets) for s in redaction_corpus_holdout.secret_samples()],
            [(x.family, x.text) for x in redaction_corpus_holdout.lookalikes()],
        ),
        "holdout, second batch": (
            [
                (s.family, s.text, s.secrets)
                for s in redaction_corpus_holdout.secret_samples_second()
            ],
            [(x.family, x.text) for x in redaction_corpus_holdout.lookalikes_second()],
        ),
        "holdout, third batch": (
            [
                (s.family, s.text, s.secrets)
                for s in redaction_corpus_holdout.secret_samples_third()
            ],
            [(x.family, x.text) for x in redaction_corpus_holdout.lookalikes_third()],
        ),
        "attacker": (
            [(s.family, s.text, s.secrets) for s in redaction_corpus_attacker.secret_samples()],
            [(x.family, x.text) for x in redaction_corpus_attacker.lookalikes()],
        ),
        "attacker, second batch": (
            [
                (s.family, s.text, s.secrets)
                for s in redaction_corpus_attacker.secret_samples_second()
            ],
            [(x.family, x.text) for x in redaction_corpus_attacker.lookalikes_second()],
        ),
        "attacker, third batch": (
            [
                (s.family, s.text, s.secrets)
                for s in redaction_corpus_attacker.secret_samples_third()
            ],
            [(x.family, x.text) for x in redaction_corpus_attacker.lookalikes_third()],
        ),
        "blind": (
            [(s.family, s.text, s.secrets) for s in redaction_corpus_blind.secret_samples()],
            [(x.family, x.text) for x in redaction_corpus_blind.lookalikes()],
        ),
        "blind, held-out batch": (
            [
                (s.family, s.text, s.secrets)
                for s in redaction_corpus_blind.secret_samples_heldout()
            ],
            [(x.family, x.text) for x in redaction_corpus_blind.lookalikes_heldout()],
        ),
        "blind, third batch": (
            [(s.family, s.text, s.secrets) for s in redaction_corpus_blind.secret_samples_third()],
            [(x.family, x.text) for x in redaction_corpus_blind.lookalikes_third()],
        ),
        "round two": (
            [(s.family, s.text, s.secrets) for s in redaction_corpus_round2.secret_samples()],
            [(x.family, x.text) for x in redaction_corpus_round2.lookalikes()],
        ),
        "round three": (
            [(s.family, s.text, s.secrets) for s in redaction_corpus_round3.secret_samples()],
            [(x.family, x.text) for x in redaction_corpus_round3.lookalikes()],
        ),
        "round four": (
            [(s.family, s.text, s.secrets) for s in redaction_corpus_round4.secret_samples()],
            [(x.family, x.text) for x in redaction_corpus_round4.lookalikes()],
        ),
        "round five": (
            [(s.family, s.text, s.secrets) for s in redaction_corpus_round5.secret_samples()],
            [(x.family, x.text) for x in redaction_corpus_round5.lookalikes()],
        ),
        "round six": (
            [(s.family, s.text, s.secrets) for s in redaction_corpus_round6.secret_samples()],
            [(x.family, x.text) for x in redaction_corpus_round6.lookalikes()],
        ),
        "round seven": (
            [(s.family, s.text, s.secrets) for s in redaction_corpus_round7.secret_samples()],
            [(x.family, x.text) for x in redaction_corpus_round7.lookalikes()],
        ),
        "round eight": (
            [(s.family, s.text, s.secrets) for s in redaction_corpus_round8.secret_samples()],
            [(x.family, x.text) for x in redaction_corpus_round8.lookalikes()],
        ),
        "round nine": (
            [(s.family, s.text, s.secrets) for s in redaction_corpus_round9.secret_samples()],
            [(x.family, x.text) for x in redaction_corpus_round9.lookalikes()],
        ),
        "round ten": (
            [(s.family, s.text, s.secrets) for s in redaction_corpus_round10.secret_samples()],
            [(x.family, x.text) for x in redaction_corpus_round10.lookalikes()],
        ),
        "round eleven": (
            [(s.family, s.text, s.secrets) for s in redaction_corpus_round11.secret_samples()],
            [(x.family, x.text) for x in redaction_corpus_round11.lookalikes()],
        ),
        "round twelve": (
            [(s.family, s.text, s.secrets) for s in redaction_corpus_round12.secret_samples()],
            [(x.family, x.text) for x in redaction_corpus_round12.lookalikes()],
        ),
    }


def stored_snippets(text: str) -> list[str]:
    """What the light phase would store from ``text`` saved as a daily note."""
    chunks = chunk_daily_note(blank_secret_lines(text))
    hits = [Hit("memory/2026-11-19.md", c.start_line, c.end_line, c.snippet, 0.6) for c in chunks]
    store, _ = record_hits(Table({}), hits, query="q", now=NOW, day="2026-11-19")
    return [row.snippet for row in store.rows.values()]


def _leaks(secret: str, outputs: Iterable[str]) -> bool:
    return any(secret in out or secret.lower() in out.lower() for out in outputs)


def measure(
    samples: list[Secret], lookalikes: list[tuple[str, str]], *, show: bool
) -> list[tuple[str, int, int, int, str]]:
    """Rows (family, secrets, caught, caught as stored, kind) and the look-alike rows."""
    by_family: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    misses: list[str] = []
    for family, text, secrets in samples:
        out = redact(text)
        stored = stored_snippets(text)
        for secret in secrets:
            row = by_family[family]
            row[0] += 1
            row[1] += not _leaks(secret, [out])
            row[2] += not _leaks(secret, stored)
            if _leaks(secret, [out]):
                misses.append(f"  miss [{family}] {text[:110]!r} -> {out[:110]!r}")
    false: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    positives: list[str] = []
    for family, text in lookalikes:
        out = redact(text)
        false[family][0] += 1
        if out != text:
            false[family][1] += 1
            positives.append(f"  false positive [{family}] {text[:110]!r} -> {out[:110]!r}")
    if show:
        print("\n".join(misses + positives))
    rows = [(f, n, c, s, "secret") for f, (n, c, s) in sorted(by_family.items())]
    rows += [(f, n, n - bad, 0, "look-alike") for f, (n, bad) in sorted(false.items())]
    return rows


def report(name: str, rows: list[tuple[str, int, int, int, str]]) -> tuple[float, float]:
    """Print one corpus's table; returns (recall, false-positive rate)."""
    secrets = [r for r in rows if r[4] == "secret"]
    looks = [r for r in rows if r[4] == "look-alike"]
    print(f"\n## {name} corpus")
    print("| family | secrets | recall | as stored |\n| --- | --- | --- | --- |")
    for family, n, caught, stored, _ in secrets:
        print(f"| {family} | {n} | {caught / n:.1%} | {stored / n:.1%} |")
    total = sum(r[1] for r in secrets)
    caught = sum(r[2] for r in secrets)
    stored = sum(r[3] for r in secrets)
    print(f"| **all** | {total} | **{caught / total:.1%}** | {stored / total:.1%} |")
    print("\n| look-alike family | texts | false positives |\n| --- | --- | --- |")
    for family, n, kept, _, _ in looks:
        print(f"| {family} | {n} | {(n - kept) / n:.1%} |")
    count = sum(r[1] for r in looks)
    bad = sum(r[1] - r[2] for r in looks)
    print(f"| **all** | {count} | **{bad / count:.1%}** ({bad}/{count}) |")
    return caught / total, bad / count


_FILLER = (
    "We decided the billing service moves to Postgres 16 on db-02.",
    "The nightly export takes nine minutes and finishes before the backup.",
    "Lena owns the migration plan and reviews it on Fridays.",
    "The staging cluster runs three replicas behind the gateway.",
)
_QUERIES = (
    "password",
    "Passwort",
    "token key",
    "secret",
    "mail address",
    "card IBAN",
    "passport licence",
    "birth date",
    "connection string",
    "billing Postgres",
    "router wifi",
    "server admin",
)


def _transcript_line(role: str, text: str, at: datetime) -> str:
    stamp = at.isoformat().replace("+00:00", "Z")
    message = {"role": role, "content": text}
    return json.dumps({"type": "message", "timestamp": stamp, "message": message})


def _plant(root: Path, sessions: Path, samples: list[Secret]) -> None:
    """Every sample in a daily note (seven days, between harmless lines) and in a transcript
    (forty user turns a session)."""
    (root / "memory").mkdir(parents=True)
    days = 7
    for day in range(days):
        lines = [f"# 2026-11-{22 + day:02d}", "", "## Notes"]
        for index, (_, text, _) in enumerate(samples[day::days]):
            lines += [f"- {_FILLER[index % len(_FILLER)]}", f"- {text}", ""]
        (root / "memory" / f"2026-11-{22 + day:02d}.md").write_text("\n".join(lines) + "\n")
    sessions.mkdir(parents=True)
    start = NOW - timedelta(hours=20)
    for number in range(0, len(samples), 40):
        header = {"type": "session", "id": f"s{number}", "sessionKind": "interactive"}
        lines = [json.dumps(header)]
        for offset, (_, text, _) in enumerate(samples[number : number + 40]):
            at = start + timedelta(minutes=number + offset)
            lines.append(_transcript_line("user", text, at))
        (sessions / f"s{number}.jsonl").write_text("\n".join(lines) + "\n")


def _found(secret: str, data: str) -> bool:
    forms = {secret, secret.lower(), secret.upper()}
    if len(secret) >= 8:
        return any(form in data for form in forms)
    if secret.isdigit():  # a PIN or a CVV, not a JSON number (a line number: ``"line": 204,``)
        number = re.compile(rf'(?:(?<=[\[,])|(?<=": )){secret}(?=[,\]}}])')
        words = re.finditer(rf"(?<![\w]){secret}(?![\w])", data)
        return any(not number.match(data, word.start()) for word in words)
    return any(re.search(rf"(?<![\w]){re.escape(form)}(?![\w])", data) for form in forms)


def end_to_end(name: str, samples: list[Secret], *, show: bool = False) -> tuple[int, int, int]:
    """Plant ``samples``, run a sweep, searches, promotion and backfill; returns (items,
    items in any written file, items in MEMORY.md). ``show`` lists each item found and where."""
    with tempfile.TemporaryDirectory() as scratch:
        root, sessions = Path(scratch) / "ws", Path(scratch) / "agents" / "main" / "sessions"
        _plant(root, sessions, samples)
        notes = set((root / "memory").glob("*.md"))
        outcome = sweep_workspace(
            root, DreamingConfig(), now=NOW, zone=UTC, sessions=[("main", sessions)]
        )
        if outcome.status != "ok":
            raise SystemExit(f"sweep failed: {outcome.error}")
        with RecallIndex.open(root) as index:
            index.update()
            for query in _QUERIES:
                record_search(root, query, search(index, query, k=20, now=NOW), now=NOW, zone=UTC)
        base = ["--no-daemon", "--workspace", str(root), "--now", NOW.isoformat(), "--json"]
        zero = ["--min-score", "0", "--min-recall-count", "0", "--min-unique-queries", "0"]
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            dreamd_main([*base, "memory", "promote", "--apply", "--limit", "500", *zero])
            dreamd_main(
                [
                    *base,
                    "memory",
                    "rem-backfill",
                    "--path",
                    str(root / "memory"),
                    "--stage-short-term",
                ]
            )
        written = {
            p: p.read_bytes().decode("utf-8", "replace")
            for p in root.rglob("*")
            if p.is_file() and p not in notes
        }
        memory = written.get(root / "MEMORY.md", "")
        items = [secret for _, _, secrets in samples for secret in secrets]
        leaked = [s for s in items if any(_found(s, data) for data in written.values())]
        in_memory = [s for s in items if _found(s, memory)]
        files: dict[str, int] = defaultdict(int)
        where: dict[str, list[str]] = defaultdict(list)
        for secret in leaked:
            for path, data in written.items():
                if _found(secret, data):
                    files[path.relative_to(root).as_posix()] += 1
                    where[secret].append(path.relative_to(root).as_posix())
    print(f"\n## end to end: {name}")
    print("| planted items | in any written file | in MEMORY.md |\n| --- | --- | --- |")
    share = len(leaked) / len(items)
    print(f"| {len(items)} | {len(leaked)} ({share:.1%}) | {len(in_memory)} |")
    if show:
        for secret, paths in where.items():
            print(f"  leak {secret!r} in {', '.join(sorted(paths))}")
    if files:
        print("\n| file | planted items in it |\n| --- | --- |")
        for file, count in sorted(files.items()):
            print(f"| {file} | {count} |")
    return len(items), len(leaked), len(in_memory)


def _rate(action: Callable[[], object], size: int, runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - started)
    return size / 1e6 / best


def throughput() -> None:
    """MB/s of find_secrets over a year of notes, clean and sprinkled, and of the CLI."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "year"
        year(root)
        notes = [p.read_text(encoding="utf-8") for p in sorted(root.glob("memory/*.md"))]
    size = sum(len(n.encode()) for n in notes)
    rng = random.Random(5)
    extras = [t for _, t, _ in corpora()["fresh"][0]] + [t for _, t in corpora()["fresh"][1]]
    dirty = []
    for note in notes:
        lines = note.split("\n")
        for index in range(2, len(lines), 10):
            lines[index] = rng.choice(extras)
        dirty.append("\n".join(lines))
    dirty_size = sum(len(n.encode()) for n in dirty)
    clean = _rate(lambda: [find_secrets(n) for n in notes], size)
    sprinkled = _rate(lambda: [find_secrets(n) for n in dirty], dirty_size)
    whole = "\n".join(notes)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "dreamd", "redact", "--json", "-"],
        input=whole.encode(),
        stdout=subprocess.DEVNULL,
        check=True,
    )
    cli = time.perf_counter() - started
    print("\n## throughput (a year of daily notes)")
    print("| input | size | MB/s |\n| --- | --- | --- |")
    print(f"| notes as written | {size / 1e6:.2f} MB | {clean:.1f} |")
    mixed = "one line in ten a secret or a look-alike"
    print(f"| {mixed} | {dirty_size / 1e6:.2f} MB | {sprinkled:.1f} |")
    print(
        f"| `dreamd redact --json -`, one process | {size / 1e6:.2f} MB | {size / 1e6 / cli:.1f} |"
    )


def _cold_sweep_ms(template: Path, scratch: Path, runs: int) -> float:
    times = []
    for run in range(runs):
        copy = scratch / f"cold-{len(list(scratch.iterdir()))}-{run}"
        shutil.copytree(template, copy)
        started = time.perf_counter()
        outcome = sweep_workspace(copy, DreamingConfig(), now=NOW, zone=UTC)
        times.append((time.perf_counter() - started) * 1000)
        if outcome.status != "ok":
            raise SystemExit(f"sweep failed: {outcome.error}")
    return statistics.median(times)


def sweep_cost(runs: int = 5) -> None:
    """A cold sweep of the year workspace with redaction, and with every detector switched off.

    The ratio is what redaction costs a sweep: everything else (reading, chunking, ranking,
    writing) is the same code in both runs, so the figure does not drift with unrelated work.
    """
    import dreamd.redaction as redaction

    with tempfile.TemporaryDirectory() as name:
        scratch = Path(name)
        template = scratch / "year"
        year(template)
        with_redaction = _cold_sweep_ms(template, scratch, runs)
        detect = redaction._detect
        redaction._detect = lambda text, depth: []
        try:
            without = _cold_sweep_ms(template, scratch, runs)
        finally:
            redaction._detect = detect
    print("\n## cold sweep of the year workspace (median of", runs, "runs)")
    print("| redaction | cold sweep | ratio |\n| --- | --- | --- |")
    print(f"| off | {without:.0f} ms | 1.00x |")
    print(f"| on | {with_redaction:.0f} ms | {with_redaction / without:.2f}x (target <= 1.5x) |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="list misses and false positives")
    parser.add_argument("--no-throughput", action="store_true", help="corpora only")
    parser.add_argument("--no-end-to-end", action="store_true", help="skip the end-to-end run")
    parser.add_argument("--corpus", action="append", help="only the named corpus (repeatable)")
    args = parser.parse_args(argv)
    for name, (samples, lookalikes) in corpora().items():
        if args.corpus and name not in args.corpus:
            continue
        report(name, measure(samples, lookalikes, show=args.misses))
    if not args.no_end_to_end:
        every = corpora()
        show = args.misses
        end_to_end("blind corpus", every["blind"][0], show=show)
        end_to_end("blind corpus, held-out batch", every["blind, held-out batch"][0], show=show)
        end_to_end("blind corpus, third batch", every["blind, third batch"][0], show=show)
        end_to_end("round-two corpus", every["round two"][0], show=show)
        end_to_end("round-three corpus", every["round three"][0], show=show)
        end_to_end("round-four corpus", every["round four"][0], show=show)
        end_to_end("round-five corpus", every["round five"][0], show=show)
        end_to_end("round-six corpus", every["round six"][0], show=show)
        end_to_end("round-seven corpus", every["round seven"][0], show=show)
        end_to_end("round-eight corpus", every["round eight"][0], show=show)
        end_to_end("round-nine corpus", every["round nine"][0], show=show)
        end_to_end("round-ten corpus", every["round ten"][0], show=show)
        end_to_end("round-eleven corpus", every["round eleven"][0], show=show)
        end_to_end("round-twelve corpus", every["round twelve"][0], show=show)
        later = (
            "project",
            "round two",
            "round three",
            "round four",
            "round five",
            "round six",
            "round seven",
            "round eight",
            "round nine",
            "round ten",
            "round eleven",
            "round twelve",
        )
        earlier = [name for name in every if name not in later and not name.startswith("blind")]
        joined = [s for name in earlier for s in every[name][0]]
        end_to_end("the earlier corpora", joined, show=show)
    if not args.no_throughput:
        throughput()
        sweep_cost()
    return 0


if __name__ == "__main__":
    sys.exit(main())
