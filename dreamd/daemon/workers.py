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
from typing import Any, TypeVar

from dreamd.config import Config
from dreamd.host.status import counts_or_error
from dreamd.runs.sweep import sweep_workspace
from dreamd.workspace.discovery import Workspace

__all__ = ["Workers", "count_workspaces", "niceness_step", "sweep_and_count"]

T = TypeVar("T")
_PR_SET_PDEATHSIG = 1
_JOIN_SECONDS = 5.0


def sweep_and_count(
    workspace: Workspace,
    config: Config,
    zone: tzinfo,
    now: datetime,
    fence: Callable[[], object] | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Sweep one workspace, then count it for status: (outcome JSON, counts).

    ``fence`` (a fleet's lock check, plain data) is run by the writer before each rename.
    """
    root, agents = workspace.root, workspace.agents
    outcome = sweep_workspace(
        root,
        config.dreaming,
        now=now,
        zone=zone,
        agents=agents,
        sessions=workspace.sessions,
        owners=workspace.owners,
        trusted_unmarked=workspace.trusted_unmarked,
        model=config.model,
        fence=fence,
    )
    counts = counts_or_error(Workspace(root, agents), config, now=now, zone=zone)
    return outcome.as_json(), counts


def count_workspaces(
    workspaces: Sequence[tuple[Path, tuple[str, ...]]], config: Config, zone: tzinfo, now: datetime
) -> dict[str, dict[str, Any]]:
    """Status counts of several workspaces, by path."""
    return {
        str(root): counts_or_error(Workspace(root, agents), config, now=now, zone=zone)
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
