"""The real dreamd as a subprocess: one CLI run, or ``dreamd run`` for the length of a block.

The daemon's stderr goes to a file, not a pipe: a chatty daemon can never block on a full pipe,
and a test can read the log while the daemon runs. The block ends with SIGTERM, and the exit
code is checked (0 unless said otherwise), the log shown when it is not.

Every wait here scales with the machine (:func:`scaled`): on a host whose run queue is longer
than its cores (a parallel suite beside other work) a process gets a fraction of a core, so a
limit that suits an idle machine is stretched by the load per core (``DREAMD_TEST_SLOWDOWN``
sets the factor instead). A wait that succeeds returns as soon as it does; only a failing one
waits the longer limit.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

DREAMD = (sys.executable, "-m", "dreamd")
READY_LINE = "control API on"  # logged once the socket (and api.listen) are open


MAX_SLOWDOWN = 8.0


def slowdown() -> float:
    """How many times slower than an idle machine this one runs now (1 at least; see above)."""
    forced = os.environ.get("DREAMD_TEST_SLOWDOWN", "").strip()
    if forced:
        return max(1.0, float(forced))
    per_core = os.getloadavg()[0] / (os.cpu_count() or 1)
    return min(MAX_SLOWDOWN, max(1.0, per_core))


def scaled(seconds: float) -> float:
    """``seconds`` stretched by :func:`slowdown`: a time limit for this machine, now."""
    return seconds * slowdown()


def wait_until(predicate: Callable[[], object], seconds: float, *, every: float = 0.1) -> bool:
    """Whether ``predicate()`` became true within ``seconds`` (:func:`scaled`)."""
    deadline = time.monotonic() + scaled(seconds)
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(every)
    return False


def run_cli(
    env: Mapping[str, str], *argv: str, timeout: float = 60.0
) -> subprocess.CompletedProcess[str]:
    """``dreamd argv...`` to completion, output captured."""
    return subprocess.run(
        [*DREAMD, *argv],
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=scaled(timeout),
        check=False,
    )


@dataclass
class Daemon:
    """A running ``dreamd run``: the process and the file its stderr goes to."""

    process: subprocess.Popen[str]
    log_file: Path

    @property
    def pid(self) -> int:
        return self.process.pid

    def log(self) -> str:
        """Everything the daemon wrote to stderr so far."""
        return self.log_file.read_text(encoding="utf-8", errors="replace")


@contextmanager
def running_daemon(
    env: Mapping[str, str],
    *,
    cwd: Path,
    argv: Sequence[str] = (),
    command: Sequence[str] | None = None,
    ready: Callable[[Daemon], object] | None = None,
    seconds: float = 30.0,
    exit_code: int = 0,
) -> Iterator[Daemon]:
    """``dreamd argv... run`` (or ``command``) until the block ends (see the module docstring).

    ``ready`` says when the daemon may be used (default: its log says the control API is open).
    """
    log_file = cwd / f"daemon-{time.monotonic_ns()}.log"
    with log_file.open("w", encoding="utf-8") as stderr:
        process = subprocess.Popen(
            list(command or [*DREAMD, *argv, "run"]),
            env=dict(env),
            cwd=cwd,
            stderr=stderr,
            text=True,
        )
    daemon = Daemon(process, log_file)
    is_ready = ready or (lambda d: READY_LINE in d.log())
    try:
        started = wait_until(lambda: is_ready(daemon) or process.poll() is not None, seconds)
        assert started and process.poll() is None, f"the daemon never came up:\n{daemon.log()}"
        yield daemon
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(timeout=scaled(20))
        except subprocess.TimeoutExpired:
            process.kill()
            code = process.wait()
    assert code == exit_code, daemon.log()
