"""Start measured processes from a small helper, so their peak RSS is their own.

Linux keeps a process's peak RSS across ``execve``, and a child forked (or vforked) from a
benchmark that has built a workspace starts with the benchmark's memory counted: every
``python -c pass`` would report ~50 MiB. :class:`Spawner` runs a tiny interpreter (``-I -S``,
only ``os``, ``sys``, ``json`` and ``time``: ~10 MiB) that forks and execs each command and
reports what ``wait4`` says of it: wall seconds, CPU seconds (user + system) and peak RSS.

Run as a script it is that helper: one JSON request per line on stdin
(``{"argv": [...], "env": {...}, "cwd": ..., "stdout": path or null}``), one JSON answer per
line on stdout.
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

__all__ = ["Finished", "Spawner", "shared", "tree_cpu"]


@dataclass(frozen=True)
class Finished:
    """One process run to its end."""

    code: int
    wall: float
    cpu: float
    rss_mib: float


class Spawner:
    """The helper process; use as a context manager, then :meth:`run`."""

    def __init__(self) -> None:
        self._helper = subprocess.Popen(
            [sys.executable, "-I", "-S", __file__],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def __enter__(self) -> Spawner:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        assert self._helper.stdin is not None
        self._helper.stdin.close()
        self._helper.wait(timeout=30)

    def run(
        self,
        argv: list[str],
        *,
        env: dict[str, str],
        cwd: Path | None = None,
        stdout: Path | None = None,
    ) -> Finished:
        """Run ``argv`` to its end (its output to ``stdout``, else discarded)."""
        assert self._helper.stdin is not None
        assert self._helper.stdout is not None
        request = {
            "argv": argv,
            "env": env,
            "cwd": str(cwd) if cwd else None,
            "stdout": str(stdout) if stdout else None,
        }
        self._helper.stdin.write(json.dumps(request) + "\n")
        self._helper.stdin.flush()
        answer = json.loads(self._helper.stdout.readline())
        return Finished(answer["code"], answer["wall"], answer["cpu"], answer["rss"] / 1024)


def tree_cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and of every live descendant (a daemon and its workers)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks
            for task in Path(f"/proc/{current}/task").iterdir():
                pending += [int(child) for child in (task / "children").read_text().split()]
        except (OSError, IndexError, ValueError):
            continue
    return total


@functools.cache
def shared() -> Spawner:
    """One helper for the whole benchmark run, closed at exit."""
    spawner = Spawner()
    atexit.register(spawner.__exit__, None, None, None)
    return spawner


def _serve() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        target = request["stdout"] or os.devnull
        started = time.perf_counter()
        pid = os.fork()
        if pid == 0:  # the child: its output where asked, then the command
            try:
                fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                os.dup2(fd, 1)
                if request["cwd"]:
                    os.chdir(request["cwd"])
                os.execve(request["argv"][0], request["argv"], request["env"])
            finally:
                os._exit(127)
        _, status, usage = os.wait4(pid, 0)
        answer = {
            "code": os.waitstatus_to_exitcode(status),
            "wall": time.perf_counter() - started,
            "cpu": usage.ru_utime + usage.ru_stime,
            "rss": usage.ru_maxrss,
        }
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    _serve()
