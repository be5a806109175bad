"""Concurrency: a daemon sweep, a CLI `memory promote --apply` and a writer of notes at once.

A real ``dreamd run`` serves one workspace. Each round adds fresh promotable facts, then starts
three processes together: ``dreamd sweep`` (the daemon sweeps over its socket), ``dreamd memory
promote --apply`` working on the workspace itself, and a plain Python process appending lines to
today's daily note and to MEMORY.md the way a person or an agent would (no lock). Afterwards
every appended line is there exactly once, the human text of MEMORY.md is intact, no candidate
is promoted twice, every state file is valid JSON, and a final sweep completes.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

from dreamd.engine.hits import Hit
from dreamd.recall.record import record_search
from tests.processes import running_daemon, scaled

ROUNDS = 3
# Lines the writer appends at most per round (one each 30 ms, to MEMORY.md and today's note in
# turn): a person or an agent writing far faster than anyone does, for ten seconds or so, across
# the sweep's and the promotion's reads and writes. Unbounded, on a slow machine it made each
# attempt of the sweep read more lines than the last while the writer went on (a sweep re-plans
# when a file changed under it). The daemon's workers run at the normal priority (``jobs.nice =
# 0``, as on a busy host that must finish): the subject here is concurrency, and at nice 19 a
# sweep beside busy normal-priority processes gets almost no CPU.
APPENDS = 300
HUMAN = "# Long-Term Memory\n\n- I prefer short answers.\n- Keep the billing runbook current.\n"
CONFIG = """
[dreaming]
frequency = "0 3 1 1 *"
timezone = "UTC"

[jobs]
nice = 0

[dreaming.deep]
memory_file_max_chars = 1000000

[agents.heartbeat]
every = "1s"

[[agents.list]]
id = "main"
workspace = "ws"
"""
APPENDER = """
import sys, time
from pathlib import Path
root, tag, stop = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
cap = int(sys.argv[5])
note = root / "memory" / sys.argv[4]
index = 0
while index < 20 or (index < cap and not stop.exists()):
    target = note if index % 2 else root / "MEMORY.md"
    with open(target, "a", encoding="utf-8") as handle:
        handle.write(f"- appended {tag} line {index} about nothing in particular\\n")
    index += 1
    time.sleep(0.03)
print(index)
"""
MARKER = re.compile(r"<!-- dreamd-memory-promotion:(\S+) -->")


def _facts(round_index: int) -> list[str]:
    return [
        f"- Service r{round_index}a runs on Postgres 16 on host db-{round_index}1.",
        f"- Kim owns the r{round_index}b release checklist for every tagged release.",
        f"- Deploys of r{round_index}c need the corp-eu VPN profile enabled first.",
    ]


def _add_candidates(root: Path, round_index: int) -> list[str]:
    """A note of fresh facts, each recalled by three queries on three days."""
    now = datetime.now(UTC)
    day = (now - timedelta(days=5 + round_index)).date().isoformat()
    note = f"memory/{day}.md"
    facts = _facts(round_index)
    (root / note).write_text(f"# {day}\n\n" + "\n".join(facts) + "\n", encoding="utf-8")
    for index, fact in enumerate(facts):
        for offset, query in enumerate(("where is", "who has", "what about", "when did")):
            when = now - timedelta(days=4 - offset, hours=index + 1)
            hit = Hit(note, 3 + index, 3 + index, fact, 0.95)
            record_search(root, f"{query} r{round_index} {index}", [hit], now=when, zone=UTC)
    return facts


def _cli(env: dict[str, str], *argv: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "dreamd", *argv],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _finish(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=scaled(60))
    return process.returncode, out, err


@contextmanager
def _reaped(helpers: list[subprocess.Popen[str]]) -> Iterator[None]:
    """Kill any helper process still running when the block ends."""
    try:
        yield
    finally:
        for helper in helpers:
            if helper.poll() is None:
                helper.kill()
                helper.communicate()


def _check_state(root: Path) -> int:
    """Every state file parses as JSON; returns how many there are."""
    files = sorted((root / "memory" / ".dreams").glob("*.json"))
    for path in files:
        json.loads(path.read_text(encoding="utf-8"))
    for path in (root / "memory" / ".dreams").glob("*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            json.loads(line)
    return len(files)


def test_sweep_promote_and_appends_at_once(tmp_path: Path, isolated_home: Path) -> None:
    """Nothing appended is lost or doubled, and no candidate is promoted twice, over rounds."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    (root / "MEMORY.md").write_text(HUMAN, encoding="utf-8")
    today = datetime.now(UTC).date().isoformat()
    (root / "memory" / f"{today}.md").write_text(f"# {today}\n\n- Started the day.\n")
    config = tmp_path / "config.toml"
    config.write_text(CONFIG, encoding="utf-8")
    env = {
        **os.environ,
        "DREAMD_HOME": str(isolated_home),
        "DREAMD_CONFIG": str(config),
        "TZ": "UTC",
    }
    env.pop("DREAMD_NOW", None)
    appended: dict[str, list[str]] = {"MEMORY.md": [], f"memory/{today}.md": []}
    facts: list[str] = []
    codes: Counter[str] = Counter()
    helpers: list[subprocess.Popen[str]] = []
    with running_daemon(env, cwd=tmp_path), _reaped(helpers):
        for round_index in range(ROUNDS):
            facts += _add_candidates(root, round_index)
            tag = f"r{round_index}"
            stop = tmp_path / f"stop-{tag}"
            writer = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    APPENDER,
                    str(root),
                    tag,
                    str(stop),
                    f"{today}.md",
                    str(APPENDS),
                ],
                stdout=subprocess.PIPE,
                text=True,
            )
            sweep = _cli(env, "--json", "sweep")
            promote = _cli(env, "--workspace", str(root), "memory", "promote", "--apply")
            helpers += [writer, sweep, promote]
            for name, process in (("sweep", sweep), ("promote", promote)):
                code, out, err = _finish(process)
                if code != 0:  # the workspace was busy or kept changing: nothing may be lost
                    assert re.search(r"busy|lock|changed on disk|kept changing", out + err), (
                        out + err
                    )
                codes[f"{name}:{code}"] += 1
            stop.touch()
            written, _ = writer.communicate(timeout=scaled(30))
            assert writer.returncode == 0
            for index in range(int(written)):
                target = f"memory/{today}.md" if index % 2 else "MEMORY.md"
                appended[target].append(
                    f"- appended {tag} line {index} about nothing in particular"
                )

        final = _cli(env, "--json", "sweep")
        code, out, err = _finish(final)
        assert code == 0, err
        outcomes = json.loads(out)["workspaces"]
        assert [o["status"] for o in outcomes] == ["ok"], outcomes
        code, out, err = _finish(
            _cli(env, "--workspace", str(root), "memory", "promote", "--apply")
        )
        assert code == 0, err

    for relpath, lines in appended.items():
        text = (root / relpath).read_text(encoding="utf-8").splitlines()
        counts = Counter(text)
        missing = [line for line in lines if counts[line] == 0]
        doubled = [line for line in lines if counts[line] > 1]
        assert not missing, f"{relpath}: lost {len(missing)} appended lines, e.g. {missing[:3]}"
        assert not doubled, f"{relpath}: doubled {doubled[:3]}"
    memory = (root / "MEMORY.md").read_text(encoding="utf-8")
    assert memory.startswith(HUMAN)
    keys = Counter(MARKER.findall(memory))
    assert keys, "nothing was promoted"
    assert max(keys.values()) == 1, [key for key, n in keys.items() if n > 1]
    promoted = [fact for fact in facts if fact[2:] in memory]
    for fact in promoted:
        assert memory.count(fact[2:]) == 1, fact
    assert len(promoted) == len(facts), set(facts) - set(promoted)
    state_files = _check_state(root)
    assert list(root.rglob("*.tmp")) == []
    print(
        f"\nconcurrency: {ROUNDS} rounds, {sum(map(len, appended.values()))} appended lines kept, "
        f"{len(keys)} promotions each once, {state_files} state files valid, exits {dict(codes)}"
    )
