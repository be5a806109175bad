"""Grounded backfill benchmark: a year of daily notes through rem-harness, rem-backfill, rollback.

Usage: ``python bench/backfill.py [--notes 365] [--seed 7] [--keep]``

Generates a deterministic workspace in a temporary directory: ``--notes`` daily notes ending
the day before "now", each 15-30 lines under ``## Log`` / ``## Decisions`` headings, mixing
situational chatter and tasks, one-off decisions, and a dozen durable claims that recur on
many days (ownership, configuration, preferences, standing decisions). Then it times, through
the real CLI (``dreamd.cli.main.main``, in process, ``--json``):

- ``rem-harness --path memory --grounded`` (and checks the tree hash is unchanged),
- ``rem-backfill --path memory --stage-short-term``,
- ``sweep`` (which promotes the recurring claims that pass the gates),
- ``rem-backfill --rollback --rollback-short-term``,

and prints a small table. Target (not asserted): the backfill of 365 notes well under 5 s.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import random
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, uninstalled

from dreamd.cli.main import main

NOW = "2026-11-30T03:00:00Z"
PEOPLE = ["Alice", "Bob", "Carol", "Dmitri", "Eve", "Farah", "Goro", "Hana"]
SERVICES = ["billing", "search", "checkout", "ledger", "auth", "reports"]
TOOLS = ["Grafana", "Loki", "Tempo", "Vector", "Caddy", "Nomad", "Consul", "Minio"]
RECURRING = [
    "Alice owns the billing service and answers its pages.",
    "The search cluster runs on OpenSearch 2.11 on host es-03.internal:9200.",
    "We decided to deploy checkout only on Tuesdays from now on.",
    "Bob prefers short written summaries over meetings.",
    "The ledger database is configured with a 30 day backup retention.",
    "Carol is responsible for the on-boarding checklist.",
    "Decidimos publicar las notas de versión siempre en español e inglés.",
    "Die Zeitzone des Teams ist künftig Europe/Berlin.",
    "Farah prefers tea, never coffee, in the afternoon review.",
    "The auth service uses Keycloak 24.0 behind the gateway.",
    "Goro maintains the reports exporter and its cron schedule.",
    "From now on every incident gets a written review within two days.",
]
CHATTER = [
    "Had lunch with {p} at the noodle place today.",
    "Standup ran long today, {n} minutes of status.",
    "Coffee machine broken again this morning.",
    "Weather was grim, walked to the office anyway.",
    "Quick call with {p} about the {s} dashboard.",
    "Tired after the late deploy yesterday.",
]
TASKS = [
    "- [ ] Need to follow up with {p} about the {s} invoice export.",
    "- [ ] Review {p}'s pull request for {s}.",
    "- [x] Fixed the flaky {s} test in CI.",
    "- [ ] Remember to rotate the {s} staging credentials.",
]


def _note(rng: random.Random, day: date) -> str:
    def fill(template: str) -> str:
        return template.format(p=rng.choice(PEOPLE), s=rng.choice(SERVICES), n=rng.randint(20, 70))

    lines = [f"# {day.isoformat()}", "", "## Log"]
    lines += [f"- {fill(rng.choice(CHATTER))}" for _ in range(rng.randint(5, 10))]
    lines += [fill(rng.choice(TASKS)) for _ in range(rng.randint(2, 5))]
    lines += ["", "## Decisions"]
    lines += [f"- {claim}" for claim in rng.sample(RECURRING, rng.randint(0, 2))]
    lines.append(f"- Decided to try {rng.choice(TOOLS)} for the {fill('{s}')} demo on {day:%b %d}.")
    lines += ["", fill("Spent the afternoon on {s} with {p}; it went fine overall."), ""]
    return "\n".join(lines)


def build(root: Path, notes: int, seed: int) -> None:
    """A workspace with ``notes`` daily notes ending the day before NOW."""
    rng = random.Random(seed)
    (root / "memory").mkdir(parents=True)
    (root / "MEMORY.md").write_text("# Long-Term Memory\n\n- A human line.\n", encoding="utf-8")
    last = date.fromisoformat(NOW[:10]) - timedelta(days=1)
    for offset in range(notes):
        day = last - timedelta(days=notes - 1 - offset)
        (root / "memory" / f"{day.isoformat()}.md").write_text(_note(rng, day), encoding="utf-8")


def tree_hash(root: Path) -> str:
    """sha256 over every file's path and bytes (the lock file excluded)."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.name != "lock":
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def run(root: Path, *argv: str) -> tuple[float, Any]:
    """Run one CLI command with --json in process; returns (seconds, parsed output)."""
    out = io.StringIO()
    started = time.perf_counter()
    with contextlib.redirect_stdout(out):
        code = main(["--json", "--workspace", str(root), "--now", NOW, *argv])
    elapsed = time.perf_counter() - started
    if code != 0:
        raise SystemExit(f"{' '.join(argv)} exited {code}")
    return elapsed, json.loads(out.getvalue())


def main_bench() -> None:
    """Build the workspace, time the four steps, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--notes", type=int, default=365)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="keep the workspace and print it")
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="dreamd-backfill-bench-")
    root = Path(scratch) / "ws"
    build(root, args.notes, args.seed)
    rows: list[tuple[str, float, str]] = []
    before = tree_hash(root)
    seconds, out = run(root, "memory", "rem-harness", "--path", "memory", "--grounded")
    same = tree_hash(root) == before
    detail = f"deep candidates {out['deep']['candidateCount']}, tree unchanged: {same}"
    rows.append(("rem-harness --grounded", seconds, detail))
    seconds, out = run(root, "memory", "rem-backfill", "--path", "memory", "--stage-short-term")
    detail = f"{out['writtenEntries']} entries, {out['stagedShortTermEntries']} rows staged"
    rows.append(("rem-backfill --stage-short-term", seconds, detail))
    seconds, out = run(root, "sweep")
    deep = out["workspaces"][0]["deep"]
    rows.append(
        ("sweep", seconds, f"promoted {deep['promoted']}, grounded-led {len(deep['groundedLed'])}")
    )
    seconds, out = run(root, "memory", "rem-backfill", "--rollback", "--rollback-short-term")
    detail = f"{out['removedEntries']} entries, {out['removedShortTermEntries']} rows removed"
    rows.append(("rem-backfill --rollback", seconds, detail))
    print(f"{args.notes} notes, seed {args.seed}")
    print(f"{'step':<34} {'seconds':>8}  detail")
    for name, elapsed, text in rows:
        print(f"{name:<34} {elapsed:>8.3f}  {text}")
    if args.keep:
        print(f"workspace: {root}")
    else:
        import shutil

        shutil.rmtree(scratch)


if __name__ == "__main__":
    main_bench()
