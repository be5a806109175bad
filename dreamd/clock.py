"""Time: the fixed or real "now", dreaming days in a timezone, and the ISO format of state files.

Rules: the functional core never reads the clock; the shell resolves ``now`` once (``--now``,
``DREAMD_NOW`` or the system clock) and passes it down as an aware UTC datetime. State files store
instants as ``YYYY-MM-DDTHH:MM:SS.mmmZ`` (the format OpenClaw writes) and days as ``YYYY-MM-DD``
in the dreaming timezone.
"""

from __future__ import annotations

import math
import os
import re
from datetime import UTC, date, datetime, timedelta, tzinfo
from functools import lru_cache

from dreamd.errors import ConfigError, DreamdError
from dreamd.patterns import LazyPattern

__all__ = [
    "DAY_SECONDS",
    "age_days",
    "day_of",
    "format_instant",
    "host_timezone",
    "long_date",
    "parse_day",
    "parse_duration",
    "parse_instant",
    "parse_now",
    "resolve_now",
    "resolve_timezone",
]

DAY_SECONDS = 86_400.0
_DAY_RE = LazyPattern(r"^\d{4}-\d{2}-\d{2}$")
_DURATION = LazyPattern(r"(?:\d+(?:\.\d+)?(?:ms|s|m|h|d))+")
_PART = LazyPattern(r"(\d+(?:\.\d+)?)(ms|s|m|h|d)")
_UNIT_SECONDS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86_400.0}


def parse_duration(text: str) -> float | None:
    """Seconds in ``30m``, ``2s``, ``1h30m``, ``1d``, ``250ms`` or bare ``90``; None if not."""
    raw = text.strip().lower()
    if re.fullmatch(r"\d+(?:\.\d+)?", raw):
        return float(raw)
    if not _DURATION.fullmatch(raw):
        return None
    return sum(float(n) * _UNIT_SECONDS[unit] for n, unit in _PART.findall(raw))


def format_instant(moment: datetime) -> str:
    """Format an aware datetime as ``2026-11-29T12:00:00.000Z`` (UTC, milliseconds)."""
    utc = moment.astimezone(UTC)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


@lru_cache(maxsize=4096)
def parse_instant(text: str) -> datetime | None:
    """Parse an ISO-8601 instant (``Z`` or offset; naive means UTC); ``None`` when unparsable."""
    raw = text.strip()
    if not raw:
        return None
    if raw.endswith(("Z", "z")):
        raw = raw[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(raw)
    except ValueError:
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC)


def parse_now(text: str, *, source: str) -> datetime:
    """Parse a ``--now``/``DREAMD_NOW`` value; a bare date means midnight UTC."""
    raw = text.strip()
    if _DAY_RE.match(raw):
        raw += "T00:00:00Z"
    parsed = parse_instant(raw)
    if parsed is None:
        raise DreamdError(
            f"{source}: {text!r} is not an ISO-8601 time; use e.g. 2026-11-29T03:00:00Z"
        )
    return parsed


def resolve_now(cli_value: str | None) -> datetime:
    """The instant every command works at: ``--now``, else ``DREAMD_NOW``, else the clock."""
    if cli_value:
        return parse_now(cli_value, source="--now")
    env = os.environ.get("DREAMD_NOW", "").strip()
    if env:
        return parse_now(env, source="DREAMD_NOW")
    return datetime.now(UTC)


def host_timezone() -> tzinfo:
    """The host's local timezone (``TZ`` when set to a known zone)."""
    name = os.environ.get("TZ", "").strip().lstrip(":")
    if name:
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError  # (and sysconfig): when needed

        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    local = datetime.now().astimezone().tzinfo
    return local if local is not None else UTC


def resolve_timezone(name: str | None, *, source: str = "dreaming.timezone") -> tzinfo:
    """The named IANA zone, or the host zone when ``name`` is empty."""
    if not name:
        return host_timezone()
    if name.upper() == "UTC":
        return UTC
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError) as exc:  # OSError: 'Europe' is a folder
        raise ConfigError(
            f"{source}: unknown timezone {name!r}; expected an IANA name like 'Europe/Berlin'"
        ) from exc


def day_of(moment: datetime, zone: tzinfo) -> str:
    """The ``YYYY-MM-DD`` day of ``moment`` in ``zone`` (the dreaming day)."""
    return moment.astimezone(zone).date().isoformat()


def parse_day(text: str) -> date | None:
    """Parse ``YYYY-MM-DD``; ``None`` when it is not a real date."""
    if not _DAY_RE.match(text):
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def age_days(now: datetime, then: str | None) -> float:
    """Days from the instant ``then`` to ``now``, never negative; infinity when unknown."""
    parsed = parse_instant(then) if then else None
    if parsed is None:
        return math.inf
    return max(0.0, (now - parsed).total_seconds() / DAY_SECONDS)


def long_date(moment: datetime, zone: tzinfo) -> str:
    """``November 29, 2026, 3:00 AM UTC``: the diary's date line."""
    local = moment.astimezone(zone)
    hour = local.hour % 12 or 12
    suffix = "AM" if local.hour < 12 else "PM"
    abbrev = local.tzname() or "UTC"
    return f"{local:%B} {local.day}, {local.year}, {hour}:{local:%M} {suffix} {abbrev}"


def days_between(first: str, last: str) -> float:
    """Whole-day span between two ``YYYY-MM-DD`` days (0 when either is invalid)."""
    a, b = parse_day(first), parse_day(last)
    if a is None or b is None:
        return 0.0
    return float((b - a) / timedelta(days=1))
