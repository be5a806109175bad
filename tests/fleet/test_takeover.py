"""A host SIGKILLed mid-slot: three real daemons on one real Redis, every workspace swept exactly
once in that slot, the dead host's by the others (fenced, once), and the takeover shown in
``fleet status``, in the taker's log (its health events) and in the owner's Telegram chat.

Two schedules: a slot every minute (``host_ttl_s = 6``, one-second heartbeats), and the default
nightly ``0 3 * * *`` with the default lease (``host_ttl_s = 30``). For the nightly one the test
does not fake the clock: it picks the fixed-offset zone in which it is now past 04:00, so the
03:00 slot began an hour or two ago (well inside the six-hour takeover window), and the hosts
catch that slot up as soon as dreaming is turned on fleet-wide. A third run sets the zone so the
window has closed: the dead host's workspaces are then left for the next slot.

The measured detection and takeover times are printed (``pytest -s``) for docs/fleet.md.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from dreamd.clock import format_instant, parse_instant
from tests.fake_model import chat_reply, serve
from tests.fakes.telegram_api import FakeTelegram
from tests.fleet.conftest import RedisServer
from tests.fleet.harness import (
    DIARY_ENTRY,
    Host,
    LoopThread,
    completed_sweeps,
    make_workspace,
    serve_telegram,
    stop_telegram,
)
from tests.processes import scaled, wait_until

OWNER = 31
MODEL_SECONDS = 2.5  # three calls a sweep: a host is caught in the middle of one
WORKSPACES = 6
CONFIG = """
[dreaming]
frequency = "{frequency}"
timezone = "{zone}"

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
notify = true
base_url = "{telegram}"

[fleet]
redis = "{redis}"
host_id = "{host}"
name = "night"
{fleet}
"""


def zone_at(hour: int, now: datetime) -> str:
    """A fixed-offset IANA zone in which the local time ``now`` is in ``[hour, hour + 1)``."""
    offset = (hour - now.hour) % 24
    if offset > 14:
        offset -= 24
    if offset == 0:
        return "Etc/GMT"
    return f"Etc/GMT{'-' if offset > 0 else '+'}{abs(offset)}"  # POSIX signs are inverted


@dataclass
class Fleet:
    """Three hosts, six workspaces, the fakes, and the Redis they share."""

    redis: RedisServer
    telegram: FakeTelegram
    loop: LoopThread
    hosts: list[Host]
    workspaces: list[Path]

    def status(self) -> dict[str, Any]:
        live = next(host for host in self.hosts if host.process is not None)
        document: dict[str, Any] = live.cli("fleet", "status")
        return document

    def busy_host(self, *, besides: str | None = None) -> Host | None:
        """A live host now sweeping a workspace (it holds a workspace's lease), not
        ``besides``: killed now, it leaves a claimed workspace unfinished."""
        client = self.redis.client()
        holders = set()
        for key in client.scan_iter(match="dreamd:night:lock:*"):
            value = client.get(key)
            if value:
                holders.add(str(value).split(" ", 1)[-1])
        for host in self.hosts:
            if host.id in holders and host.id != besides and host.process is not None:
                return host
        return None

    def leader(self) -> str | None:
        for record in self.status()["hosts"]:
            if "telegram" in record.get("leads", []) and not record["lost"]:
                return str(record["id"])
        return None

    def marks(self) -> dict[str, str]:
        marks: dict[str, str] = self.redis.client().hgetall("dreamd:night:slots")
        return marks

    def notices(self) -> list[str]:
        """Every text the bot sent the owner so far."""
        queue = self.telegram.sent[OWNER]
        texts = []
        while not queue.empty():
            texts.append(queue.get_nowait())
        return texts


@contextlib.contextmanager
def running_fleet(
    base: Path, *, frequency: str, zone: str, fleet: str, enabled: str | None = None
) -> Iterator[Fleet]:
    """Redis, the fakes, six workspaces and three hosts started on them.

    ``enabled`` is put in Redis before the hosts start (``"0"``: dreaming off fleet-wide until
    the test turns it on), and then each host's state says it has been scheduling since
    yesterday, so the slot that began before it started is caught up once it is on.
    """
    workspaces = [base / f"ws{index}" for index in range(WORKSPACES)]
    for index, root in enumerate(workspaces):
        make_workspace(root, index)
    redis = RedisServer(base / "redis")
    redis.start()
    if enabled is not None:
        redis.client().set("dreamd:night:enabled", enabled)
    loop = LoopThread()
    telegram = FakeTelegram()
    serving = loop.run(serve_telegram(telegram))
    yesterday = format_instant(datetime.now(UTC) - timedelta(days=1, hours=6))
    with ExitStack() as stack:
        stack.callback(loop.close)
        stack.callback(redis.stop)
        stack.callback(lambda: loop.run(stop_telegram(serving)))
        reply = chat_reply(DIARY_ENTRY)
        # a loaded machine reaches the kill later: the calls it must catch last longer too
        model = stack.enter_context(serve([(200, reply)], delay=scaled(MODEL_SECONDS)))
        hosts = []
        for name in ("h1", "h2", "h3"):
            home = base / name
            (home / "home" / "state").mkdir(parents=True)
            if enabled is not None:  # a slot that began before the hosts did is caught up
                state = {"version": 1, "schedule": {"scheduledSince": yesterday}}
                (home / "home" / "state" / "host.json").write_text(json.dumps(state))
            text = CONFIG.format(
                frequency=frequency, zone=zone, model=model.url, owner=OWNER,
                telegram=telegram.base_url, redis=redis.url, host=name, fleet=fleet,
            )  # fmt: skip
            agents = "".join(
                f'\n[[agents.list]]\nid = "a{i}"\nworkspace = "{root}"\n'
                for i, root in enumerate(workspaces)
            )
            (home / "config.toml").write_text(text + agents, encoding="utf-8")
            env = {
                **os.environ,
                "DREAMD_HOME": str(home / "home"),
                "DREAMD_CONFIG": str(home / "config.toml"),
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


def _all_up(fleet: Fleet) -> bool:
    hosts = fleet.status()["hosts"]
    return len(hosts) == 3 and not any(h["lost"] for h in hosts) and fleet.leader() is not None


def _kill_mid_sweep(fleet: Fleet) -> tuple[Host, datetime]:
    """SIGKILL a host that is sweeping (not the bot's leader, so notices keep flowing)."""
    found: list[Host] = []

    def sweeping() -> bool:
        host = fleet.busy_host(besides=fleet.leader())
        found[:] = [host] if host is not None else []
        return host is not None

    assert wait_until(sweeping, 90, every=0.2), fleet.status()
    victim = found[0]
    victim.kill()
    return victim, datetime.now(UTC)


def _seconds_until_lost(fleet: Fleet, victim: Host, killed: datetime) -> float:
    def lost() -> bool:
        return any(h["id"] == victim.id and h["lost"] for h in fleet.status()["hosts"])

    assert wait_until(lost, 90, every=0.25), fleet.status()
    return (datetime.now(UTC) - killed).total_seconds()


def _check_takeover(fleet: Fleet, victim: Host, killed: datetime, slot: str, end: str) -> None:
    """Every workspace swept once in the slot; the victim's unfinished ones by a live host,
    each once, shown in fleet status, the taker's health events and the owner's chat."""
    lost_after = _seconds_until_lost(fleet, victim, killed)
    done = wait_until(
        lambda: set(fleet.marks().values()) == {slot} and len(fleet.marks()) == 6, 120, every=0.5
    )
    assert done, (fleet.marks(), fleet.status())
    counts = {root.name: len(completed_sweeps(root, slot, end)) for root in fleet.workspaces}
    assert counts == {root.name: 1 for root in fleet.workspaces}, (counts, victim.id)
    status = fleet.status()
    taken = [t for t in status["takeovers"] if t["slot"] == slot]
    # A workspace's last sweep is this slot's until the next one-minute slot sweeps it again
    # (on a loaded machine that may already have happened): only those still show this slot.
    by_workspace = {
        w["path"]: w["lastSweep"]
        for w in status["workspaces"]
        if w["lastSweep"] and w["lastSweep"]["slot"] == slot
    }
    marked = {path for path, last in by_workspace.items() if last.get("takeover")}
    live = {h.id for h in fleet.hosts if h.process is not None}
    assert taken, status  # the victim was killed holding a workspace it had not finished
    shown = [t for t in taken if t["workspace"] in by_workspace]
    assert (
        sorted(t["workspace"] for t in shown),
        {t["lost"] for t in taken},
        {t["host"] for t in taken} <= live,
        {by_workspace[t["workspace"]]["host"] for t in shown} <= live,
    ) == (sorted(marked), {victim.id}, True, True)
    after = [(parse_instant(t["at"]) or killed) - killed for t in taken]
    first = min(after).total_seconds()
    print(
        f"\n{slot}: {victim.id} killed at {format_instant(killed)}; lost after {lost_after:.1f} s; "
        f"taken over after {first:.1f} s; sweeps per workspace {list(counts.values())}"
    )
    notices: list[str] = []

    def told() -> bool:
        notices.extend(fleet.notices())
        return sum("takeover" in text for text in notices) >= len(taken)

    assert wait_until(told, 30, every=0.5), notices
    for text in (t for t in notices if "takeover" in t):
        assert f"in place of host {victim.id}, which had taken it" in text, text
    for takeover in taken:
        taker = next(h for h in fleet.hosts if h.id == takeover["host"])
        said = f"swept this workspace for the {slot} slot in place of host {victim.id}"
        assert said in taker.log(), taker.log()


@pytest.mark.slow
def test_a_host_killed_mid_slot_is_taken_over_in_a_one_minute_slot(tmp_path: Path) -> None:
    """Slots a minute long, six-second leases: a host SIGKILLed while it sweeps is taken over
    in the same slot; every workspace is swept exactly once in it."""
    with running_fleet(
        tmp_path, frequency="* * * * *", zone="UTC", fleet="host_ttl_s = 6"
    ) as fleet:
        assert wait_until(lambda: _all_up(fleet), 60, every=0.5), fleet.status()
        # the first slot the hosts sweep holds the work: whichever minute that turns out to be
        # (a slow start may pass a minute boundary), the victim dies early in it
        victim, killed = _kill_mid_sweep(fleet)
        slot = killed.replace(second=0, microsecond=0)
        assert killed < slot + timedelta(seconds=40), (killed, slot)
        end = format_instant(slot + timedelta(minutes=1))
        _check_takeover(fleet, victim, killed, format_instant(slot), end)


def _nightly_slot(zone: str) -> str:
    from zoneinfo import ZoneInfo

    from dreamd.fleet.slots import slot_of

    return slot_of("0 3 * * *", ZoneInfo(zone), datetime.now(UTC))


@pytest.mark.slow
def test_a_host_killed_mid_slot_is_taken_over_in_the_nightly_slot(tmp_path: Path) -> None:
    """The default schedule and lease: dreaming turned on an hour after the 03:00 slot began;
    a host SIGKILLed while it sweeps is taken over in that slot, each workspace swept once."""
    zone = zone_at(4, datetime.now(UTC))
    with running_fleet(tmp_path, frequency="0 3 * * *", zone=zone, fleet="", enabled="0") as fleet:
        assert wait_until(lambda: _all_up(fleet), 60, every=0.5), fleet.status()
        slot = _nightly_slot(zone)
        fleet.redis.client().set("dreamd:night:enabled", "1")
        victim, killed = _kill_mid_sweep(fleet)
        end = format_instant(parse_instant(slot) + timedelta(days=1))  # type: ignore[operator]
        _check_takeover(fleet, victim, killed, slot, end)
        for host in fleet.hosts:
            state = json.loads((Path(host.env["DREAMD_HOME"]) / "state" / "host.json").read_text())
            assert "enabledOverride" not in state, state  # followed, never written down


@pytest.mark.slow
def test_no_takeover_once_the_window_has_closed(tmp_path: Path) -> None:
    """Seven hours into the nightly slot (the window is six): a host killed while it sweeps
    keeps what it held until the next slot; the others sweep the rest and stop waiting."""
    zone = zone_at(10, datetime.now(UTC))
    with running_fleet(
        tmp_path, frequency="0 3 * * *", zone=zone, fleet="host_ttl_s = 6", enabled="0"
    ) as fleet:
        assert wait_until(lambda: _all_up(fleet), 60, every=0.5), fleet.status()
        slot = _nightly_slot(zone)
        fleet.redis.client().set("dreamd:night:enabled", "1")
        victim, killed = _kill_mid_sweep(fleet)
        claims = {
            path: json.loads(raw)
            for path, raw in fleet.redis.client().hgetall("dreamd:night:claims").items()
        }
        held = {p for p, c in claims.items() if c["host"] == victim.id and c["slot"] == slot}
        held -= set(fleet.marks())
        assert held, claims
        others = {str(root) for root in fleet.workspaces} - held
        assert wait_until(lambda: others <= set(fleet.marks()), 90, every=0.5), fleet.marks()
        _seconds_until_lost(fleet, victim, killed)
        live = [h for h in fleet.hosts if h.process is not None]
        assert wait_until(
            lambda: all(h.cli("status")["sweeping"] is None for h in live), 30, every=0.5
        )
        status = fleet.status()
        assert (status["takeovers"], held & set(fleet.marks())) == ([], set())
