"""Work that runs in worker processes, so the daemon's event loop never waits on the GIL.

A sweep is CPU work in Python; run in threads, three of them starve the loop that answers the
control API. Workers also run at the lowest CPU priority (nice 19): sweeps are background work.
:class:`Workers` is a small pool of spawned processes (not forked: the daemon has
threads and sockets) created on first use, as many as the job budget. On Linux a worker dies with
the daemon (``PR_SET_PDEATHSIG``): a host that crashes leaves no orphan still sweeping, whose
late writes a fleet would otherwise have to fence off. The job functions here are
module-level so they can be sent to the workers; everything they take and return is plain data.
Queued jobs are cancelled on shutdown; running ones finish (their writes are atomic anyway).
"""

from __future__ import annotations

import asyncio
import ctypes
import multiprocessing
import os
import signal
import sys
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

__all__ = ["Workers", "count_workspaces", "sweep_and_count"]

T = TypeVar("T")
_PR_SET_PDEATHSIG = 1


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


def _background_priority(parent: int | None = None) -> None:
    """Workers yield the CPU to the daemon's event loop, and die with the daemon (Linux)."""
    os.nice(19)
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        if parent is not None and os.getppid() != parent:  # the daemon died meanwhile
            os._exit(1)


class Workers:
    """A lazily started pool of ``size`` spawned worker processes."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._pool: ProcessPoolExecutor | None = None

    async def run(self, job: Callable[..., T], *args: Any) -> T:
        """Run ``job(*args)`` in a worker process and wait for its result."""
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.size,
                mp_context=context,
                initializer=_background_priority,
                initargs=(os.getpid(),),
            )
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, partial(job, *args))

    def shutdown(self) -> None:
        """Cancel queued jobs, wait for running ones, stop the processes."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
