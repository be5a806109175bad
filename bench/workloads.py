"""Deterministic workloads for the benchmarks: a year of notes, a full recall store, fleets.

Everything is generated from a seed, so two runs (or two machines) measure the same bytes.
``year(root)`` lays out one workspace with 365 daily notes (~1.5 MB) ending the day before
``NOW`` and a recall store of 512 rows pointing at lines of those notes; ``fleet(base, n)``
lays out ``n`` workspaces with a month of notes each and returns a config listing them;
``year(root, days=7300)`` is the same at another length (20 years); ``huge_store(root, rows)``
a month of notes under a recall store of ``rows`` rows (far over the cap, as a store another
tool grew may be).
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from dreamd.engine.hits import Hit
from dreamd.engine.state import RECALL_STORE, RecallEntry, Table
from dreamd.engine.traces import MAX_STORE_ENTRIES, record_hits

__all__ = ["NOW", "fleet", "huge_store", "year"]

NOW = datetime(2026, 11, 20, 3, 0, tzinfo=UTC)

PEOPLE = ["Ana", "Bo", "Chen", "Dara", "Eli", "Femi", "Gus", "Hana"]
SERVICES = ["billing", "search", "ingest", "payments", "auth", "reports", "queue", "cache"]
HOSTS = ["db-01", "db-02", "web-03", "cache-04", "queue-05"]
VERBS = ["moved", "upgraded", "restarted", "paged on", "reviewed", "documented", "benchmarked"]
TAILS = [
    "after the latency spike in the afternoon",
    "because the nightly export kept timing out",
    "so the release checklist now has one more step",
    "and the runbook links to the new dashboard",
    "while the staging copy stays on the old version",
]


def _line(rng: random.Random) -> str:
    return (
        f"- {rng.choice(PEOPLE)} {rng.choice(VERBS)} the {rng.choice(SERVICES)} service on "
        f"{rng.choice(HOSTS)} {rng.choice(TAILS)}."
    )


def _note(rng: random.Random, day: str, lines: int) -> list[str]:
    return [f"# {day}", "", "## Log", *(_line(rng) for _ in range(lines)), ""]


Bullet = tuple[str, int, str]


def _write_notes(root: Path, rng: random.Random, days: int, lines: int) -> list[Bullet]:
    """Write ``days`` notes; returns (relpath, line number, text) of every bullet line."""
    memory = root / "memory"
    (memory / ".dreams").mkdir(parents=True, exist_ok=True)
    (root / "MEMORY.md").write_text("# Long-Term Memory\n\n- A line the owner wrote.\n")
    bullets: list[Bullet] = []
    for offset in range(days, 0, -1):
        day = (NOW - timedelta(days=offset)).date().isoformat()
        text = _note(rng, day, lines)
        relpath = f"memory/{day}.md"
        (root / relpath).write_text("\n".join(text), encoding="utf-8")
        bullets += [(relpath, n, t) for n, t in enumerate(text, start=1) if t.startswith("- ")]
    return bullets


def _store(root: Path, rng: random.Random, bullets: list[Bullet], rows: int) -> None:
    store: Table[RecallEntry] = Table({})
    for index, (relpath, line, text) in enumerate(rng.sample(bullets, min(rows, len(bullets)))):
        hit = Hit(relpath, line, line, text[2:], 0.55 + (index % 40) / 100)
        for repeat in range(1 + index % 3):
            when = NOW - timedelta(days=index % 14, hours=repeat)
            store, _ = record_hits(
                store,
                [hit],
                query=f"{text.split()[3]} {text.split()[5]} {repeat}",
                now=when,
                day=when.date().isoformat(),
            )
    (root / "memory" / ".dreams" / "short-term-recall.json").write_bytes(RECALL_STORE.encode(store))


def year(root: Path, *, seed: int = 7, days: int = 365) -> int:
    """A one-year workspace at ``root`` (or ``days`` of notes) with a full recall store; returns
    the notes' bytes."""
    rng = random.Random(seed)
    bullets = _write_notes(root, rng, days, 45)
    _store(root, rng, bullets, MAX_STORE_ENTRIES)
    return sum(p.stat().st_size for p in (root / "memory").glob("*.md"))


def huge_store(root: Path, rows: int, *, seed: int = 13) -> None:
    """A month of notes under a recall store of ``rows`` rows, each recalled once."""
    rng = random.Random(seed)
    bullets = _write_notes(root, rng, 30, 45)
    table: dict[str, RecallEntry] = {}
    for index in range(rows):
        relpath, line, text = bullets[index % len(bullets)]
        when = NOW - timedelta(days=index % 30, minutes=index)
        key = f"{relpath}:{line}:{line}:{index}"
        table[key] = RecallEntry(
            key=key,
            path=relpath,
            start_line=line,
            end_line=line,
            snippet=text[2:],
            recall_count=1,
            total_score=0.6,
            max_score=0.6,
            first_recalled_at=when.isoformat().replace("+00:00", "Z"),
            last_recalled_at=when.isoformat().replace("+00:00", "Z"),
            query_hashes=(f"{index:012x}",),
            recall_days=(when.date().isoformat(),),
        )
    store: Table[RecallEntry] = Table(table)
    (root / "memory" / ".dreams" / "short-term-recall.json").write_bytes(RECALL_STORE.encode(store))


def fleet(base: Path, count: int, *, seed: int = 11) -> Path:
    """``count`` workspaces with a month of notes and 40 recall rows each; the config's path."""
    lines = ["[agents]", 'system_agent = "w0"']
    for index in range(count):
        root = base / f"ws{index:04d}"
        rng = random.Random(seed * 100_003 + index)
        bullets = _write_notes(root, rng, 30, 12)
        _store(root, rng, bullets, 40)
        lines += ["[[agents.list]]", f'id = "w{index}"', f'workspace = "{root}"']
    config = base / "config.toml"
    config.write_text("\n".join(lines) + "\n")
    return config
