"""The schedule's pure rules: next fire across DST, one missed fire, clock jumps."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from dreamd.host.schedule import clock_jumped, missed_fire, next_fire

BERLIN = ZoneInfo("Europe/Berlin")


def test_next_fire_in_the_dreaming_timezone() -> None:
    """03:00 daily in Berlin is 02:00 UTC in winter."""
    fire = next_fire("0 3 * * *", BERLIN, datetime(2026, 11, 29, 12, 0, tzinfo=UTC))
    assert fire == datetime(2026, 11, 30, 3, 0, tzinfo=BERLIN)
    assert fire.astimezone(UTC) == datetime(2026, 11, 30, 2, 0, tzinfo=UTC)


def test_next_fire_is_strictly_after() -> None:
    """At exactly a fire time, the next one is the following day."""
    at_three = datetime(2026, 11, 29, 3, 0, tzinfo=BERLIN)
    assert next_fire("0 3 * * *", BERLIN, at_three) == datetime(2026, 11, 30, 3, 0, tzinfo=BERLIN)


def test_spring_forward_runs_right_after_the_gap() -> None:
    """02:30 does not exist on 29 March 2026 in Berlin: the job runs at 03:00 CEST."""
    fire = next_fire("30 2 * * *", BERLIN, datetime(2026, 3, 28, 12, 0, tzinfo=BERLIN))
    assert fire.isoformat() == "2026-03-29T03:00:00+02:00"


def test_fall_back_runs_once() -> None:
    """02:30 happens twice on 25 October 2026; the daily job runs once, then the next day."""
    first = next_fire("30 2 * * *", BERLIN, datetime(2026, 10, 24, 12, 0, tzinfo=BERLIN))
    second = next_fire("30 2 * * *", BERLIN, first)
    assert first.isoformat() == "2026-10-25T02:30:00+02:00"
    assert second.isoformat() == "2026-10-26T02:30:00+01:00"


def test_missed_fire_is_the_latest_one_only() -> None:
    """A host asleep across three 03:00 fires catches up once, the latest."""
    since = datetime(2026, 11, 26, 3, 0, tzinfo=UTC)
    now = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)
    assert missed_fire("0 3 * * *", UTC, since, now) == datetime(2026, 11, 29, 3, 0, tzinfo=UTC)
    assert missed_fire("0 3 * * *", UTC, now, now) is None
    assert missed_fire("0 3 * * *", UTC, datetime(2026, 11, 29, 3, 0, tzinfo=UTC), now) is None


def test_clock_jump_detection() -> None:
    """Only a move of wall time against monotonic time beyond the tolerance is a jump."""
    assert not clock_jumped(1000.0, 1001.0)
    assert clock_jumped(1000.0, 1000.0 + 6 * 3600)
    assert clock_jumped(1000.0, 990.0)
