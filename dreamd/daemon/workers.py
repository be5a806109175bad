"""Work that runs in worker processes, so the daemon's event loop never waits on the GIL.

A sweep is CPU work in Python; run in threads, three of them starve the loop that answers the
control API. Workers also run at a low CPU priority (``jobs.nice``, 19 by default): sweeps are
background work. A busy host then sweeps slowly, since other work at normal priority comes
first; an operator whose fleet must finish a slot on busy hosts lowers ``jobs.nice``.
:class:`Workers` is a small pool of spawned processes (not forked: the daemon has
threads and sockets) created on first use, as many as the job budget. On Linux a worker dies with
the daemon (``PR_SET_PDEATHSIG``): a host that crashes leaves no orphan still sweeping, whose
late writes a fleet would otherwise have to fence off. The job functions here are
module-level so they can be sent to the workers; everything they take and return is plain data.
A job carries only what it needs: the workspace (its agents, transcript folders and owners) and
the :class:`JobSettings` every workspace shares (``[dreaming]`` and ``[model]``), never the
whole config, which lists every agent: pickling that for each job made a round over N
workspaces cost N squared.
Queued jobs are cancelled on shutdown; running ones finish (their writes are atomic anyway).
Idle workers are then ended by a signal rather than asked to exit: a busy host gives nice-19
processes so little CPU that a polite exit could hold a stopping daemon for many seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, tzinfo
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from dreamd.config import Config, DreamingConfig, ModelConfig
from dreamd.host.status import counts_or_error
from dreamd.runs.sweep import sweep_workspace, unchanged_outcome
from dreamd.workspace.discovery import Workspace

__all__ = [
    "JobSettings",
    "Workers",
    "count_workspaces",
    "niceness_step",
    "sweep_and_count",
    "unchanged_of",
]

T = TypeVar("T")
_PR_SET_PDEATHSIG = 1
_JOIN_SECONDS = 5.0


class JobSettings(NamedTuple):
    """What a sweep or a count takes from the config: the same for every workspace."""

    dreaming: DreamingConfig
    model: ModelConfig

    @classmethod
    def of(cls, config: Config) -> JobSettings:
        """The settings of ``config``."""
        return cls(config.dreaming, config.model)


def sweep_and_count(
    workspace: Workspace,
    settings: JobSettings,
    zone: tzinfo,
    now: datetime,
    fence: Callable[[], object] | None = None,
    counted: bool = False,
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Sweep one workspace, then count it for status: (outcome JSON, counts).

    ``fence`` (a fleet's lock check, plain data) is run by the writer before each rename.
    ``counted``: the caller holds this dreaming day's counts of the workspace; a sweep that
    found it unchanged (its fingerprint matched) then returns no counts (``None``): they are
    the ones the caller holds, since the fingerprint covers every file they come from.
    """
    root, agents = workspace.root, workspace.agents
    outcome = sweep_workspace(
        root,
        settings.dreaming,
        now=now,
        zone=zone,
        agents=agents,
        sessions=workspace.sessions,
        owners=workspace.owners,
        trusted_unmarked=workspace.trusted_unmarked,
        model=settings.model,
        fence=fence,
    )
    if counted and outcome.status == "ok" and outcome.summary.get("unchanged"):
        return outcome.as_json(), None
    counts = counts_or_error(Workspace(root, agents), settings.dreaming, now=now, zone=zone)
    return outcome.as_json(), counts


def unchanged_of(
    workspaces: Sequence[tuple[Workspace, bool]],
    settings: JobSettings,
    zone: tzinfo,
    now: datetime,
) -> dict[str, tuple[dict[str, Any], dict[str, Any] | None]]:
    """Of several workspaces, those a sweep would find unchanged: path -> (outcome JSON, counts).

    One job for many workspaces, so a round over a fleet that changed nothing costs one
    fingerprint check per workspace, not one job each. Each workspace comes with ``counted``
    (see :func:`sweep_and_count`): counts are returned only for those not counted today.
    """
    found: dict[str, tuple[dict[str, Any], dict[str, Any] | None]] = {}
    for workspace, counted in workspaces:
        outcome = unchanged_outcome(
            workspace.root,
            settings.dreaming,
            now=now,
            zone=zone,
            agents=workspace.agents,
            sessions=workspace.sessions,
            owners=workspace.owners,
            trusted_unmarked=workspace.trusted_unmarked,
            model=settings.model,
        )
        if outcome is None:
            continue
        counts = None
        if not counted:
            counts = counts_or_error(
                Workspace(workspace.root, workspace.agents), settings.dreaming, now=now, zone=zone
            )
        found[str(workspace.root)] = (outcome.as_json(), counts)
    return found


def count_workspaces(
    workspaces: Sequence[tuple[Path, tuple[str, ...]]],
    dreaming: DreamingConfig,
    zone: tzinfo,
    now: datetime,
) -> dict[str, dict[str, Any]]:
    """Status counts of several workspaces, by path."""
    return {
        str(root): counts_or_error(Workspace(root, agents), dreaming, now=now, zone=zone)
        for root, agents in workspaces
    }


def niceness_step(current: int, target: int) -> int:
    """The ``os.nice`` increment from ``current`` to ``target``: never negative, since raising
    a priority needs privileges (a daemon already nicer than ``target`` stays as nice)."""
    return max(0, target - current)


def _background_priority(parent: int | None = None, nice: int = 19) -> None:
    """Workers yield the CPU to the daemon's event loop, and die with the daemon (Linux)."""
    os.nice(niceness_step(os.nice(0), nice))
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        if parent is not None and os.getppid() != parent:  # the daemon died meanwhile
            os._exit(1)


class Workers:
    """A lazily started pool of ``size`` spawned worker processes at niceness ``nice``.

    :meth:`reconfigure` takes a new size or niceness: an idle pool stops at once and the next
    job starts one as configured; a busy pool is replaced once its running jobs are done.
    """

    def __init__(self, size: int, *, nice: int = 19) -> None:
        self.size, self.nice = size, nice
        self._pool: ProcessPoolExecutor | None = None
        self._running = 0  # jobs a process holds, counted until it is done with them
        self._count = threading.Condition()
        self._stale = False
        self._closed = False

    def reconfigure(self, size: int, *, nice: int) -> None:
        """Use ``size`` processes at niceness ``nice`` from the next pool on."""
        if (size, nice) == (self.size, self.nice):
            return
        self.size, self.nice = size, nice
        self._stale = self._pool is not None
        self._retire()

    def _retire(self) -> None:
        if self._stale and self._running == 0 and self._pool is not None:
            _stop_idle(self._pool)
            self._pool, self._stale = None, False

    async def run(self, job: Callable[..., T], *args: Any) -> T:
        """Run ``job(*args)`` in a worker process and wait for its result.

        A caller cancelled meanwhile stops waiting; the job itself runs on to its end, and
        counts as running until then.
        """
        if self._closed:
            raise RuntimeError("the worker pool is shut down")
        self._retire()
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.size,
                mp_context=context,
                initializer=_background_priority,
                initargs=(os.getpid(), self.nice),
            )
        loop = asyncio.get_running_loop()
        with self._count:
            self._running += 1
        try:
            submitted = self._pool.submit(partial(job, *args))
        except BaseException:
            self._finished(loop)
            raise
        submitted.add_done_callback(lambda _: self._finished(loop))
        return await asyncio.wrap_future(submitted)

    def _finished(self, loop: asyncio.AbstractEventLoop) -> None:
        """A job is done (called in the pool's thread): count it, retire a stale pool."""
        with self._count:
            self._running -= 1
            self._count.notify_all()
        with contextlib.suppress(RuntimeError):  # the loop is closed: nothing to retire
            loop.call_soon_threadsafe(self._retire)

    def shutdown(self) -> None:
        """Cancel queued jobs, wait for running ones, then end the processes; no job starts
        after this is called."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = _processes_of(pool)
        closing = _close_in_thread(pool)
        with self._count:
            self._count.wait_for(lambda: self._running == 0)
        _end(processes)
        closing.join()


def _processes_of(pool: ProcessPoolExecutor) -> list[multiprocessing.process.BaseProcess]:
    # ProcessPoolExecutor gives no public handle on its processes before Python 3.14
    return list((getattr(pool, "_processes", None) or {}).values())


def _close_in_thread(pool: ProcessPoolExecutor) -> threading.Thread:
    """``pool.shutdown(wait=True, cancel_futures=True)`` in a thread: it returns once the
    processes are gone, and frees the pool's queues and pipes then."""
    closing = threading.Thread(
        target=partial(pool.shutdown, wait=True, cancel_futures=True),
        name="dreamd-workers-shutdown",
        daemon=True,
    )
    closing.start()
    return closing


def _terminate(processes: Sequence[multiprocessing.process.BaseProcess]) -> None:
    """SIGTERM to idle workers (see the module rules)."""
    for process in processes:
        if process.is_alive():
            process.terminate()


def _end(processes: Sequence[multiprocessing.process.BaseProcess]) -> None:
    """SIGTERM to idle workers, then reap them."""
    _terminate(processes)
    for process in processes:
        process.join(_JOIN_SECONDS)


def _stop_idle(pool: ProcessPoolExecutor) -> None:
    """Retire ``pool``, which runs no job, without waiting for it."""
    processes = _processes_of(pool)
    _close_in_thread(pool)
    _terminate(processes)
