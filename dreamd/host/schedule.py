"""The sweep schedule as pure functions of the wall clock: next fire, missed fire, clock jumps.

The cron expression is evaluated with cronsim in the dreaming timezone (Debian cron's DST rules:
a time skipped in spring runs right after the gap, a repeated one in autumn runs once).
aiocron only wakes the daemon; what is *due* is always decided here from wall-clock times, so a
suspended host, a stepped clock or a daemon that was down can be caught up exactly once.
"""

from __future__ import annotations

from datetime import datetime, tzinfo

from cronsim import CronSim

__all__ = ["JUMP_TOLERANCE_SECONDS", "clock_jumped", "missed_fire", "next_fire"]

JUMP_TOLERANCE_SECONDS = 5.0
_MAX_STEPS = 100_000


def next_fire(expression: str, zone: tzinfo, after: datetime) -> datetime:
    """The first fire strictly after ``after``, as an aware datetime in ``zone``."""
    start = after.astimezone(zone).replace(microsecond=0)
    fire: datetime = next(CronSim(expression, start))
    return fire


def missed_fire(expression: str, zone: tzinfo, since: datetime, now: datetime) -> datetime | None:
    """The latest fire in ``(since, now]``, or ``None``: a missed run is caught up once."""
    latest = None
    iterator = CronSim(expression, since.astimezone(zone).replace(microsecond=0))
    for _ in range(_MAX_STEPS):
        fire: datetime = next(iterator)
        if fire > now:
            break
        latest = fire
    return latest


def clock_jumped(
    previous_offset: float, offset: float, tolerance: float = JUMP_TOLERANCE_SECONDS
) -> bool:
    """True when wall time moved against monotonic time (suspend, resume, clock step).

    ``offset`` is ``time.time() - time.monotonic()``; it stays constant while the host runs and
    the clock is only slewed.
    """
    return abs(offset - previous_offset) > tolerance
