"""Soak: the daemon, under a fake clock, runs 1,000 scheduled sweeps without growing.

The run itself is :mod:`tests.soak_daemon`, in a process of its own (see there). After a
warm-up of 50 sweeps, the next 950 grow RSS by less than 5 MB and leave the same asyncio tasks
and open descriptors; after the daemon stops, tasks and descriptors are back where they were
before it started, and MEMORY.md holds each fact once.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import scaled
from tests.soak_daemon import FACTS, SWEEPS, WARM_UP

RSS_LIMIT_KB = 5 * 1024
ROOT = Path(__file__).resolve().parent.parent


def _difference(before: dict[str, str], after: dict[str, str]) -> dict[str, str]:
    """Descriptors opened (``+``) or closed (``-``) between two listings."""
    opened = {f"+{fd}": after[fd] for fd in after.keys() - before.keys()}
    return {**opened, **{f"-{fd}": before[fd] for fd in before.keys() - after.keys()}}


@pytest.mark.slow
def test_thousand_scheduled_sweeps(tmp_path: Path) -> None:
    """1,000 sweeps: RSS grows < 5 MB after warm-up; no task or descriptor is left behind."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.soak_daemon", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=scaled(600),
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    run = json.loads(done.stdout.splitlines()[-1])
    rss, tasks, fds = run["rss_kb"], run["tasks"], run["fds"]
    print(
        f"\nsoak: {run['runs']} sweeps in {run['seconds']}s; RSS {rss['warm']} kB after "
        f"{WARM_UP} -> {rss['end']} kB after {SWEEPS} (growth {rss['end'] - rss['warm']} kB); "
        f"tasks {tasks}; fds {[len(fds[k]) for k in ('before', 'warm', 'end', 'after')]}"
    )
    assert run["code"] == 0
    assert run["runs"] == SWEEPS
    assert run["statuses"] == ["ok"], run["statuses"]
    assert rss["end"] - rss["warm"] < RSS_LIMIT_KB
    assert tasks["end"] == tasks["warm"]
    assert fds["end"] == fds["warm"], _difference(fds["warm"], fds["end"])
    assert tasks["after"] == tasks["before"]
    assert fds["after"] == fds["before"], _difference(fds["before"], fds["after"])
    memory = (tmp_path / "ws" / "MEMORY.md").read_text(encoding="utf-8")
    assert memory.count("<!-- dreamd-memory-promotion:") == len(FACTS)
