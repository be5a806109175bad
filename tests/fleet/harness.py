"""What the fleet tests with real daemons share: hosts as ``dreamd run`` subprocesses, an event
loop thread for the asyncio fakes, workspaces with a fact worth promoting, and counting sweeps.
"""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import threading
from collections.abc import Coroutine
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from dreamd.engine.hits import Hit
from dreamd.recall.record import record_search
from tests.fakes.telegram_api import FakeTelegram
from tests.processes import DREAMD, READY_LINE, run_cli, scaled, wait_until

T = TypeVar("T")
HUMAN = "# Long-Term Memory\n\n- I prefer short answers.\n"
DIARY_ENTRY = (
    "*Tonight*\n\nThe deploy notes settled tonight: the release steps we wrote down last "
    "week held up, and the rollback checklist stays where the team can find it."
)
"""The fake model's answer: a diary entry long enough to be used (a short one is refused, and
each refusal is a "degraded" notice that counts against the owner's notice budget)."""


class LoopThread:
    """An event loop in a thread, for the asyncio fakes a synchronous test talks to."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, work: Coroutine[Any, Any, T], timeout: float = 60.0) -> T:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


@dataclass
class Host:
    """One fleet host: a ``dreamd run`` with its own home and host id."""

    id: str
    env: dict[str, str]
    cwd: Path
    process: subprocess.Popen[str] | None = None
    logs: list[Path] = field(default_factory=list)

    def start(self) -> None:
        log = self.cwd / f"{self.id}-{len(self.logs)}.log"
        self.logs.append(log)
        with log.open("w", encoding="utf-8") as stderr:
            self.process = subprocess.Popen(
                [*DREAMD, "run"],
                env=self.env,
                cwd=self.cwd,
                stderr=stderr,
                text=True,
            )
        up = wait_until(lambda: READY_LINE in log.read_text(encoding="utf-8"), 30)
        assert up, log.read_text(encoding="utf-8")

    def kill(self) -> None:
        """SIGKILL: the host dies at once (its workers with it)."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=scaled(10))
        self.process = None

    def stop(self) -> int:
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout=scaled(30))
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        self.process = None
        return code

    def cli(self, *argv: str, code: int | None = None) -> Any:
        """``dreamd --json argv...`` as this host sees it; the parsed JSON. It must exit
        ``code``; by default 0, or for ``status`` any of its documented states (0 ok, 4
        degraded, 5 blocked, 6 disabled), since a test often polls it through a change."""
        done = run_cli(self.env, "--json", *argv)
        allowed = {code} if code is not None else ({0, 4, 5, 6} if argv[:1] == ("status",) else {0})
        assert done.returncode in allowed, done.stderr
        return json.loads(done.stdout)

    def log(self) -> str:
        return "\n".join(path.read_text(encoding="utf-8") for path in self.logs)


def make_workspace(root: Path, index: int) -> None:
    """A workspace with human memory and one fact asked about on three days."""
    (root / "memory").mkdir(parents=True)
    (root / "MEMORY.md").write_text(HUMAN, encoding="utf-8")
    day = (datetime.now(UTC) - timedelta(days=4)).date().isoformat()
    fact = f"- Service {index} runs on Postgres 16 on host db-0{index}."
    (root / "memory" / f"{day}.md").write_text(f"# {day}\n\n{fact}\n", encoding="utf-8")
    for offset, query in enumerate(("which host", "postgres version", "db role")):
        when = datetime.now(UTC) - timedelta(days=3 - offset, hours=1)
        hit = Hit(f"memory/{day}.md", 3, 3, fact, 0.9)
        record_search(root, f"{query} {index}", [hit], now=when, zone=UTC)


def completed_sweeps(root: Path, start: str, end: str) -> list[str]:
    """The distinct sweeps of ``root`` that began in ``[start, end)`` (its own events log)."""
    stamps = set()
    log = root / "memory" / ".dreams" / "events.jsonl"
    text = log.read_text(encoding="utf-8") if log.exists() else ""
    for line in text.splitlines():
        event = json.loads(line)
        completed = event.get("type") == "memory.dream.completed"
        if completed and start <= event["timestamp"] < end:
            stamps.add(event["timestamp"])
    return sorted(stamps)


async def serve_telegram(telegram: FakeTelegram) -> tuple[asyncio.Event, asyncio.Task[None]]:
    done, up = asyncio.Event(), asyncio.Event()

    async def serving() -> None:
        async with telegram.serve():
            up.set()
            await done.wait()

    task = asyncio.create_task(serving())
    await up.wait()
    return done, task


async def stop_telegram(serving: tuple[asyncio.Event, asyncio.Task[None]]) -> None:
    done, task = serving
    done.set()
    await task
