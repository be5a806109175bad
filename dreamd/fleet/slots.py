"""Which dreaming slot a scheduled sweep belongs to, and when the next one begins (pure).

A slot is named by its cron fire instant (UTC, ``format_instant``): every host runs the same
schedule, so the hosts agree on the name without talking. The sweep a fire triggers, or the
catch-up of a missed one, belongs to the latest fire at or before the moment it starts.
"""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo

from cronsim import CronSim

from dreamd.clock import format_instant
from dreamd.host.schedule import next_fire

__all__ = ["slot_end", "slot_of"]


def slot_of(expression: str, zone: tzinfo, now: datetime) -> str:
    """The slot ``now`` falls in: the latest fire at or before it."""
    start = now.astimezone(zone).replace(microsecond=0) + timedelta(seconds=1)
    fire: datetime = next(CronSim(expression, start, reverse=True))
    return format_instant(fire)


def slot_end(expression: str, zone: tzinfo, slot: datetime) -> datetime:
    """When the slot that began at ``slot`` ends: the next fire."""
    return next_fire(expression, zone, slot)
