"""Crash consistency: a sweep killed (SIGKILL) at every write point and at random moments.

A harness process counts the writer's durable steps (each fsync and each rename) and kills
itself at step N, for every N of a full sweep; other runs are killed after random delays.
Afterwards every workspace file must hold its old content or its new content, never anything
else; the human text of MEMORY.md must be intact; and the next sweep must complete with each
promotion written exactly once, and told exactly once in the events log, with every phase's
report.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, timedelta
from pathlib import Path

import pytest

from dreamd.engine.hits import Hit
from dreamd.recall.record import record_search
from tests.builders import NOW, write
from tests.processes import scaled

HARNESS = """
import os, signal, sys
from pathlib import Path
steps = {"n": 0}
kill_at = int(os.environ.get("KILL_AT", "0"))

def step():
    steps["n"] += 1
    if steps["n"] == kill_at:
        os.kill(os.getpid(), signal.SIGKILL)

real_fsync, real_replace = os.fsync, Path.replace

def fsync(fd):
    step()
    real_fsync(fd)

def replace(self, target):
    step()
    result = real_replace(self, target)
    step()
    return result

os.fsync, Path.replace = fsync, replace
from dreamd.cli.main import main
code = main(sys.argv[1:])
print(f"steps={steps['n']}", file=sys.stderr)
sys.exit(code)
"""
HUMAN = "# Long-Term Memory\n\n- I prefer short answers.\n- Keep the billing runbook current.\n"
FACTS = [
    "- The billing service runs on Postgres 16 on host db-02.",
    "- Ana owns the release checklist for every tagged release.",
    "- Staging deploys need the corp-eu VPN profile enabled first.",
]
SWEEP_AT = (NOW + timedelta(days=1)).strftime("%Y-%m-%dT03:00:00Z")


def _workspace(root: Path) -> None:
    write(root, "memory/2026-11-25.md", "# 2026-11-25\n\n## Infra\n" + "\n".join(FACTS) + "\n")
    write(root, "memory/2026-11-29.md", "# 2026-11-29\n\n- A fresh note for today's light phase.\n")
    write(root, "MEMORY.md", HUMAN)
    for index, fact in enumerate(FACTS):
        for day, query in enumerate(("where", "who", "what")):
            when = NOW - timedelta(days=3 - day, hours=index)
            record_search(
                root,
                f"{query} {index}",
                [Hit("memory/2026-11-25.md", 4 + index, 4 + index, fact, 0.9)],
                now=when,
                zone=UTC,
            )


def _files(root: Path) -> dict[str, str]:
    found = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if (
            path.is_file()
            and path.name not in ("lock", "events-intent.json")  # transient, checked apart
            and not path.name.endswith(".tmp")
            and "/backups/" not in rel
        ):
            found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def _run(
    root: Path, home: Path, kill_at: int = 0, delay: float | None = None
) -> subprocess.CompletedProcess[str] | int:
    env = {**os.environ, "DREAMD_HOME": str(home), "KILL_AT": str(kill_at), "TZ": "UTC"}
    argv = [
        sys.executable,
        "-c",
        HARNESS,
        "--no-daemon",
        "--workspace",
        str(root),
        "--now",
        SWEEP_AT,
        "sweep",
    ]
    if delay is None:
        return subprocess.run(
            argv, env=env, capture_output=True, text=True, timeout=scaled(60), check=False
        )
    process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    process.send_signal(signal.SIGKILL)
    return process.wait(timeout=scaled(30))


@pytest.fixture(scope="module")
def reference(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, dict[str, str], dict[str, str], int]:
    """The workspace before a sweep, its files before and after a complete sweep, and the steps."""
    base = tmp_path_factory.mktemp("crash")
    pristine = base / "pristine"
    _workspace(pristine)
    done = base / "done"
    shutil.copytree(pristine, done)
    result = _run(done, base / "home1")
    assert isinstance(result, subprocess.CompletedProcess) and result.returncode == 0, result
    steps = int(result.stderr.strip().rsplit("steps=", 1)[1])
    return pristine, _files(pristine), _files(done), steps


def _check(root: Path, before: dict[str, str], after: dict[str, str]) -> None:
    now = _files(root)
    for rel, digest in now.items():
        assert digest in (before.get(rel), after.get(rel)), f"{rel} is neither old nor new"
    assert (root / "MEMORY.md").read_text().startswith(HUMAN)


def _recover(root: Path, home: Path, after: dict[str, str]) -> None:
    result = _run(root, home)
    assert isinstance(result, subprocess.CompletedProcess) and result.returncode == 0, result.stderr
    memory = (root / "MEMORY.md").read_text()
    assert memory.startswith(HUMAN)
    for fact in FACTS:
        assert memory.count(fact[2:]) == 1, fact
    assert (
        _files(root)["MEMORY.md"] == after["MEMORY.md"]
        or memory.count("<!-- dreamd-memory-promotion:") == 3
    )
    _events_tell_it_once(root)
    assert not (root / "memory/.dreams/events-intent.json").exists()


def _events_tell_it_once(root: Path) -> None:
    """The audit log records each promotion once and each phase's report, crash or not."""
    log = (root / "memory/.dreams/events.jsonl").read_text(encoding="utf-8")
    events = [json.loads(line) for line in log.splitlines()]
    promoted = [
        candidate["key"]
        for event in events
        if event["type"] == "memory.promotion.applied"
        for candidate in event["candidates"]
    ]
    assert sorted(promoted) == sorted(set(promoted)) and len(promoted) == len(FACTS), promoted
    phases = {e["phase"] for e in events if e["type"] == "memory.dream.completed"}
    assert phases == {"light", "rem", "deep"}, phases


@pytest.mark.slow
def test_kill_at_every_write_point(
    reference: tuple[Path, dict[str, str], dict[str, str], int], tmp_path: Path
) -> None:
    """SIGKILL at each durable step leaves old-or-new files, and the next sweep finishes cleanly."""
    pristine, before, after, steps = reference
    assert steps >= 10

    def kill_and_recover(kill_at: int) -> None:
        root = tmp_path / f"k{kill_at}"
        shutil.copytree(pristine, root)
        result = _run(root, tmp_path / f"h{kill_at}", kill_at)
        assert (
            isinstance(result, subprocess.CompletedProcess) and result.returncode == -signal.SIGKILL
        ), (kill_at, result)
        _check(root, before, after)
        _recover(root, tmp_path / f"h{kill_at}", after)

    # Each kill point is its own copy and its own processes: they run side by side.
    with ThreadPoolExecutor(max_workers=2 * (os.cpu_count() or 1)) as pool:
        for done in [pool.submit(kill_and_recover, n) for n in range(1, steps + 1)]:
            done.result()


@pytest.mark.slow
def test_kill_at_random_moments(
    reference: tuple[Path, dict[str, str], dict[str, str], int], tmp_path: Path
) -> None:
    """Kills after random delays (seeded) never leave a partial file either."""
    pristine, before, after, _ = reference
    rng = random.Random(7)
    for index in range(12):
        root = tmp_path / f"r{index}"
        shutil.copytree(pristine, root)
        _run(root, tmp_path / f"h{index}", delay=rng.uniform(0.15, 1.2))
        _check(root, before, after)
        _recover(root, tmp_path / f"h{index}", after)
