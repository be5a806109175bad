"""Three real daemons (``dreamd run``, each with its own DREAMD_HOME and host id) sharing six
workspaces through one real Redis, with an every-minute schedule, a slow model and a loopback
Telegram Bot API. One fleet serves the tests of this module, in order: a test that kills a host
starts it again before it ends.

The hosts' sweep workers run at normal priority (``jobs.nice = 0``): at the default 19, the
rest of a parallel test run (at normal priority) leaves them so little CPU that a sweep takes
most of a minute, and the one-minute slots these tests count end before a host can take over
from the one that died.
"""

from __future__ import annotations

import asyncio
import os
import re
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import pytest

from dreamd.clock import format_instant
from tests.fake_model import chat_reply, serve
from tests.fakes.telegram_api import FakeTelegram
from tests.fleet.conftest import RedisServer
from tests.fleet.harness import (
    DIARY_ENTRY,
    HUMAN,
    Host,
    LoopThread,
    completed_sweeps,
    make_workspace,
    serve_telegram,
    stop_telegram,
)
from tests.processes import scaled, wait_until

T = TypeVar("T")
OWNER = 21
MODEL_SECONDS = 2.5  # a sweep makes three calls: long enough to be caught in the middle
TEAMS = ("billing", "search", "storage", "payments", "identity")
PLACES = ("basement", "rooftop", "annex", "garage", "library")
MARKER = re.compile(r"<!-- dreamd-memory-promotion:[^>]*-->")
CONFIG = """
[dreaming]
frequency = "* * * * *"
timezone = "UTC"

[agents]
system_agent = "a0"

[agents.heartbeat]
every = "1s"

[jobs]
nice = 0

[model]
endpoint = "{model}"
name = "slow"
max_retries = 0

[adapters.telegram]
enabled = true
token_env = "DREAMD_TEST_TELEGRAM"
owners = [{owner}]
base_url = "{telegram}"

[fleet]
redis = "{redis}"
host_id = "{host}"
name = "test"
host_ttl_s = 6
"""


@dataclass
class Fleet:
    """The fleet under test and what it runs against."""

    redis: RedisServer
    telegram: FakeTelegram
    loop: LoopThread
    hosts: list[Host]
    workspaces: list[Path]
    fed: int = 0

    def status(self) -> dict[str, Any]:
        """``dreamd fleet status --json`` (any host's view: it reads Redis)."""
        document: dict[str, Any] = self.hosts[0].cli("fleet", "status")
        return document

    def leader(self, *, besides: str | None = None, seconds: float = 40.0) -> Host:
        """The host that runs the Telegram bot (another than ``besides``), once one does."""
        found: list[Host] = []

        def led() -> bool:
            for record in self.status()["hosts"]:
                leads = "telegram" in record.get("leads", []) and not record["lost"]
                if leads and record["id"] != besides:
                    found[:] = [h for h in self.hosts if h.id == record["id"]]
                    return True
            return False

        assert wait_until(led, seconds, every=0.5), self.status()
        return found[0]

    def ask(self, text: str, timeout: float = 30.0) -> str:
        """Send ``text`` as the owner; the bot's answer."""
        self.loop.run(self.telegram.say(OWNER, text))
        return self.loop.run(
            asyncio.wait_for(self.telegram.answer(OWNER), timeout), timeout=timeout + 5
        )

    def feed(self) -> None:
        """A new line in each workspace's note of today, so the next sweep has work."""
        day = datetime.now(UTC).date().isoformat()
        self.fed += 1
        team, place = TEAMS[self.fed % len(TEAMS)], PLACES[self.fed % len(PLACES)]
        for index, root in enumerate(self.workspaces):
            with (root / "memory" / f"{day}.md").open("a", encoding="utf-8") as note:
                note.write(f"- The {team} team moved service {index} into the {place} rack.\n")

    def sweeps(self, root: Path, slot: datetime, until: datetime | None = None) -> list[str]:
        """The distinct sweeps of ``root`` in the slot starting at ``slot`` (its own events).

        A slot's sweep runs to its end, which on a loaded machine can be past the next minute:
        the window is a minute stretched by the load (:func:`tests.processes.scaled`), or runs
        ``until`` the moment the slot was seen done (a takeover after a host died starts only
        once its lease ran out, later still on a loaded machine).
        """
        later = until or slot + timedelta(seconds=scaled(60))
        start, end = format_instant(slot), format_instant(later)
        return completed_sweeps(root, start, end)

    def done(self, slot: datetime) -> bool:
        """Every workspace is recorded as swept for ``slot``."""
        try:
            marks = self.redis.client().hgetall("dreamd:test:slots")
        except Exception:  # Redis may be on its way back
            return False
        return all(marks.get(str(root)) == format_instant(slot) for root in self.workspaces)


def _next_slot(lead: float) -> datetime:
    """The next minute that begins at least ``lead`` seconds from now."""
    now = datetime.now(UTC)
    slot = now.replace(second=0, microsecond=0) + timedelta(minutes=1)
    if (slot - now).total_seconds() < lead:
        slot += timedelta(minutes=1)
    return slot


def _slot_with_work(fleet: Fleet, lead: float) -> datetime:
    """The next slot at least ``lead`` seconds away, once new work is fed for it.

    The work is fed only once the slot before it is recorded as done, and still two seconds
    before this one begins: fed while an earlier slot is still being swept, that sweep would
    take it, and this slot's sweeps would find nothing to do (and write no event to count). On
    a loaded machine the earlier slot can run long: then the next slot is tried, until the
    hosts have caught up.
    """
    deadline = time.monotonic() + scaled(300)
    while True:
        slot = _next_slot(lead)
        if slot - datetime.now(UTC) > timedelta(minutes=1):
            _sleep_until(slot - timedelta(seconds=lead))
        if _until(partial(fleet.done, slot - timedelta(minutes=1)), slot - timedelta(seconds=2)):
            fleet.feed()
            return slot
        assert time.monotonic() < deadline, ("the hosts never caught up", fleet.status())


def _until(predicate: Callable[[], bool], moment: datetime) -> bool:
    """Whether ``predicate()`` is true before ``moment`` (checked twice a second)."""
    while datetime.now(UTC) < moment:
        if predicate():
            return datetime.now(UTC) < moment
        time.sleep(0.5)
    return False


def _sleep_until(moment: datetime) -> None:
    time.sleep(max(0.0, (moment - datetime.now(UTC)).total_seconds()))


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fleet]:
    """Redis, the fake Bot API, a slow model, six workspaces and three running hosts."""
    base = tmp_path_factory.mktemp("fleet")
    workspaces = [base / f"ws{index}" for index in range(6)]
    for index, root in enumerate(workspaces):
        make_workspace(root, index)
    redis = RedisServer(base / "redis")
    redis.start()
    loop = LoopThread()
    telegram = FakeTelegram()  # its asyncio parts bind to the fakes' loop on first use
    serving = loop.run(serve_telegram(telegram))
    with ExitStack() as stack:
        stack.callback(loop.close)
        stack.callback(redis.stop)
        stack.callback(lambda: loop.run(stop_telegram(serving)))
        reply = chat_reply(DIARY_ENTRY)
        model = stack.enter_context(serve([(200, reply)], delay=MODEL_SECONDS))
        hosts = []
        for name in ("h1", "h2", "h3"):
            home = base / name
            config = home / "config.toml"
            home.mkdir()
            text = CONFIG.format(
                model=model.url, owner=OWNER, telegram=telegram.base_url, redis=redis.url, host=name
            )
            agents = "".join(
                f'\n[[agents.list]]\nid = "a{i}"\nworkspace = "{root}"\n'
                for i, root in enumerate(workspaces)
            )
            config.write_text(text + agents, encoding="utf-8")
            env = {
                **os.environ,
                "DREAMD_HOME": str(home / "home"),
                "DREAMD_CONFIG": str(config),
                "DREAMD_TEST_TELEGRAM": telegram.token,
                "NO_PROXY": "127.0.0.1,localhost",
            }
            hosts.append(Host(name, env, base))
        for host in hosts:
            host.start()
        running = Fleet(redis, telegram, loop, hosts, workspaces)
        try:
            yield running
        finally:
            codes = {host.id: host.stop() for host in hosts if host.process is not None}
            assert set(codes.values()) <= {0}, "\n".join(host.log() for host in hosts)


def test_the_bot_leader_dies_and_another_host_answers(fleet: Fleet) -> None:
    """One host runs the bot; SIGKILL it and another answers a Telegram command within 30 s;
    two hosts never poll getUpdates at once."""
    leader = fleet.leader()
    assert fleet.ask("/dreaming status").startswith("Dreaming status:")
    leader.kill()
    started = time.monotonic()
    answer = fleet.ask("/dreaming status", timeout=30)
    took = time.monotonic() - started
    successor = fleet.leader(besides=leader.id)
    assert (answer.startswith("Dreaming status:"), took < 30, successor.id != leader.id) == (
        True,
        True,
        True,
    ), (answer, took)
    assert fleet.telegram.most_pollers == 1
    leader.start()  # back, standing by


@pytest.mark.slow
def test_each_workspace_is_swept_once_per_slot_though_a_host_dies(fleet: Fleet) -> None:
    """In one slot every shared workspace is swept exactly once (its own events say so), even
    though a host is killed mid-sweep; MEMORY.md is whole and nothing is promoted twice."""
    slot = _slot_with_work(fleet, lead=6)
    _sleep_until(slot)
    busy: list[Host] = []

    def sweeping() -> bool:
        for record in fleet.status()["hosts"]:
            if record.get("jobsInUse") and not record["lost"]:
                busy[:] = [h for h in fleet.hosts if h.id == record["id"] and h.process]
        return bool(busy)

    assert wait_until(sweeping, 15, every=0.3), fleet.status()
    victim = busy[0]
    victim.kill()
    try:
        assert wait_until(lambda: fleet.done(slot), 60, every=0.5), fleet.status()
        once = {root.name: 1 for root in fleet.workspaces}

        def counts() -> dict[str, int]:
            seen = max(datetime.now(UTC), slot + timedelta(seconds=scaled(60)))
            return {root.name: len(fleet.sweeps(root, slot, seen)) for root in fleet.workspaces}

        # A busy machine may record the slot's mark a moment before a workspace's own log
        # shows the sweep: wait for the log, then check it.
        wait_until(lambda: counts() == once, 30, every=0.5)
        assert counts() == once, (counts(), victim.id)
        for root in fleet.workspaces:
            text = (root / "MEMORY.md").read_text(encoding="utf-8")
            markers = MARKER.findall(text)
            assert (text.startswith(HUMAN), len(markers) == len(set(markers))) == (True, True)
    finally:
        victim.start()  # the next test of the module's fleet needs all its hosts


@pytest.mark.slow
def test_no_host_sweeps_while_redis_is_down(fleet: Fleet) -> None:
    """Redis stopped over a slot: no host sweeps a shared workspace, status says degraded with
    the reason (exit 4) and a manual sweep says Redis is unreachable; once Redis is back the
    slot is swept, once per workspace."""
    slot = _slot_with_work(fleet, lead=8)
    fleet.redis.stop()
    _sleep_until(slot + timedelta(seconds=10))
    status = fleet.hosts[1].cli("status", code=4)
    assert (status["status"], status["fleet"]["state"]) == ("degraded", "degraded")
    assert "cannot reach the fleet's Redis" in status["fleet"]["reason"]
    manual = fleet.hosts[1].cli("sweep", code=1)["error"]["message"]
    assert "cannot reach the fleet's Redis" in manual and "not swept until it is back" in manual
    assert {root.name: fleet.sweeps(root, slot) for root in fleet.workspaces} == {
        root.name: [] for root in fleet.workspaces
    }
    back = format_instant(datetime.now(UTC))
    fleet.redis.start()
    assert wait_until(lambda: fleet.done(slot), 45, every=0.5), fleet.status()
    swept = {root.name: fleet.sweeps(root, slot) for root in fleet.workspaces}
    assert {name: len(stamps) for name, stamps in swept.items()} == {
        root.name: 1 for root in fleet.workspaces
    }
    assert all(stamps[0] >= back for stamps in swept.values()), (swept, back)
