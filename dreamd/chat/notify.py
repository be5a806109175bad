"""Owner notifications and secret hygiene for chat adapters. Pure, except the logging filter.

* :class:`RateLimit` lets at most ``burst`` notices through per ``window`` seconds for one
  adapter; the ones held back are counted and mentioned in the next notice that goes out, so
  an owner is never flooded and never silently misses that something happened.
* :func:`notice_text` is what an owner reads for a health event (a failed sweep, a degraded
  diary, sweeps that promote nothing, ``blocked``); like every chat text it passes
  :func:`dreamd.chat.text.outward` (redaction, the home directory as ``~``).
* :class:`Redactor` scrubs bot tokens from every log record (message, arguments and
  traceback) before a handler writes it: libraries put tokens in URLs and error messages
  (python-telegram-bot's "The token `…` was rejected"), and dreamd never logs a token.
  :func:`scrub` does the same for error texts shown in status.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Iterable

from dreamd.chat.text import outward
from dreamd.host.health import HealthEvent

__all__ = ["MASK", "RateLimit", "Redactor", "notice_text", "scrub"]

MASK = "[token]"
MIN_SECRET = 8  # bot tokens are far longer; masking a short string would garble every log line


def scrub(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret replaced by :data:`MASK` (longest first)."""
    for secret in sorted(secrets, key=len, reverse=True):
        if len(secret) >= MIN_SECRET:
            text = text.replace(secret, MASK)
    return text


class Redactor(logging.Filter):
    """A handler filter that removes known secrets from records (see the module rules)."""

    def __init__(self) -> None:
        super().__init__()
        self.secrets: set[str] = set()
        self._formatter = logging.Formatter()

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secrets:
            return True
        message = record.getMessage()
        clean = scrub(message, self.secrets)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = self._formatter.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = scrub(record.exc_text, self.secrets)
        return True

    def install(self) -> None:
        """Attach to every handler of the root logger (the daemon's log output)."""
        for handler in logging.getLogger().handlers:
            if self not in handler.filters:
                handler.addFilter(self)

    def remove(self) -> None:
        """Detach from the root logger's handlers."""
        for handler in logging.getLogger().handlers:
            handler.removeFilter(self)


class RateLimit:
    """At most ``burst`` notices per ``window`` seconds; times are passed in (monotonic)."""

    def __init__(self, *, burst: int = 5, window: float = 3600.0) -> None:
        self.burst, self.window = burst, window
        self.sent: deque[float] = deque()
        self.held = 0

    def admit(self, now: float) -> int | None:
        """``None`` when a notice must be held back, else how many were held back before it."""
        while self.sent and now - self.sent[0] >= self.window:
            self.sent.popleft()
        if len(self.sent) >= self.burst:
            self.held += 1
            return None
        self.sent.append(now)
        held, self.held = self.held, 0
        return held


def notice_text(event: HealthEvent, *, host: str, held: int = 0) -> str:
    """The message owners get for ``event``."""
    where = "" if event.kind == "blocked" else f" in {event.workspace}"
    text = f"dreamd on {host}: {event.kind}{where}: {event.message} ({event.at})"
    if held:
        text += f"\n({held} earlier notice(s) were held back by the rate limit)"
    return outward(text)
