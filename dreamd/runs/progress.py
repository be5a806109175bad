"""Progress of long replays on stderr: a bar on a terminal, plain lines otherwise, or nothing.

Rules: on a terminal the bar is redrawn in place (``\\r``) at most every 0.1 s and on the last
item, then ends with a newline; it shows items done, the total, the percentage and the ETA
(time per item so far times the items left). Elsewhere (a pipe, a log file) one plain line is
written each time another tenth of the work is done, and one at the end. ``--json`` runs pass
no stream: nothing is written, so stdout and stderr stay clean for scripts. The clock is passed
in, so tests drive it by hand.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

__all__ = ["Progress", "progress_on_stderr"]

BAR_WIDTH = 24
REDRAW_SECONDS = 0.1
PLAIN_STEPS = 10


def _clock_text(seconds: float) -> str:
    whole = max(0, round(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


class Progress:
    """Counts processed items of one task and reports them (see the module rules)."""

    def __init__(
        self,
        label: str,
        total: int,
        *,
        stream: TextIO | None,
        tty: bool,
        clock: Callable[[], float] = time.monotonic,
        unit: str = "files",
    ) -> None:
        self.label = label
        self.total = max(0, total)
        self.done = 0
        self._stream = stream
        self._tty = tty
        self._clock = clock
        self._unit = unit
        self._started = clock()
        self._drawn_at: float | None = None
        self._step = 0

    def eta(self) -> float:
        """Seconds left at the pace so far (0 when nothing is done yet or all is done)."""
        if not self.done or self.done >= self.total:
            return 0.0
        elapsed = self._clock() - self._started
        return elapsed / self.done * (self.total - self.done)

    def advance(self, count: int = 1) -> None:
        """``count`` more items are done."""
        self.done = min(self.total, self.done + count)
        if self._stream is None or not self.total:
            return
        if self._tty:
            now = self._clock()
            last = self.done >= self.total
            if last or self._drawn_at is None or now - self._drawn_at >= REDRAW_SECONDS:
                self._drawn_at = now
                self._write("\r" + self.bar() + ("\n" if last else ""))
            return
        step = self.done * PLAIN_STEPS // self.total
        if step > self._step:
            self._step = step
            self._write(self.line() + "\n")

    def bar(self) -> str:
        """``label [#####-----] 12/365 files  3%  ETA 0:05``."""
        filled = BAR_WIDTH * self.done // self.total if self.total else BAR_WIDTH
        percent = 100 * self.done // self.total if self.total else 100
        return (
            f"{self.label} [{'#' * filled}{'-' * (BAR_WIDTH - filled)}] "
            f"{self.done}/{self.total} {self._unit} {percent:3d}%  ETA {_clock_text(self.eta())}"
        )

    def line(self) -> str:
        """``dreamd: label: 37/365 files (10%), ETA 0:03``."""
        percent = 100 * self.done // self.total if self.total else 100
        return (
            f"dreamd: {self.label}: {self.done}/{self.total} {self._unit} ({percent}%), "
            f"ETA {_clock_text(self.eta())}"
        )

    def _write(self, text: str) -> None:
        assert self._stream is not None
        self._stream.write(text)
        self._stream.flush()


def progress_on_stderr(label: str, total: int, *, quiet: bool) -> Progress:
    """Progress on this process's stderr (a bar on a terminal); silent when ``quiet``."""
    stream = None if quiet else sys.stderr
    tty = bool(stream is not None and stream.isatty())
    return Progress(label, total, stream=stream, tty=tty)
