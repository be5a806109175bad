"""The real dreamd as a subprocess: one CLI run, or ``dreamd run`` for the length of a block.

The daemon's stderr goes to a file, not a pipe: a chatty daemon can never block on a full pipe,
and a test can read the log while the daemon runs. The block ends with SIGTERM, and the exit
code is checked (0 unless said otherwise), the log shown when it is not.
"""

from __future__ import annotations

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


def wait_until(predicate: Callable[[], object], seconds: float, *, every: float = 0.1) -> bool:
    """Whether ``predicate()`` became true within ``seconds``."""
    deadline = time.monotonic() + seconds
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
        timeout=timeout,
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
            code = process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            code = process.wait()
    assert code == exit_code, daemon.log()
