"""The pure parts of the fleet: the summary line, the URL as shown, slots."""

from __future__ import annotations

from datetime import UTC, datetime

from dreamd.fleet.connection import shown
from dreamd.fleet.slots import slot_end, slot_of
from dreamd.fleet.view import summary_line


def test_the_password_never_shows() -> None:
    """A URL is shown with its password masked and everything else kept."""
    assert shown("rediss://ops:hunter2@redis.internal:6380/2") == (
        "rediss://ops:***@redis.internal:6380/2"
    )
    assert shown("redis://:hunter2@10.0.0.5/0") == "redis://:***@10.0.0.5/0"
    assert shown("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"


def test_the_summary_line_says_hosts_jobs_and_leadership() -> None:
    """Hosts up and lost, jobs in use, what this host leads; or why the fleet is degraded."""
    fleet = {
        "name": "ops",
        "host": "h1",
        "state": "ok",
        "hosts": [{"id": "h1", "lost": False}, {"id": "h2", "lost": True}],
        "jobs": {"inUse": 2, "limit": 6},
        "leads": ["telegram"],
    }
    assert summary_line(fleet) == (
        "fleet ops: 1 host(s) up, 1 lost; jobs 2/6; this host h1 leads telegram"
    )
    down = {"name": "ops", "state": "degraded", "since": "T", "reason": "cannot reach it"}
    assert summary_line(down) == (
        "fleet ops: degraded since T: cannot reach it; shared workspaces are not swept "
        "until it is back"
    )


def test_a_sweep_belongs_to_the_latest_fire() -> None:
    """The slot is the latest fire at or before now; it ends at the next fire."""
    expression = "*/5 * * * *"
    assert slot_of(expression, UTC, datetime(2026, 1, 1, 10, 7, 30, tzinfo=UTC)) == (
        "2026-01-01T10:05:00.000Z"
    )
    assert slot_of(expression, UTC, datetime(2026, 1, 1, 10, 5, 0, tzinfo=UTC)) == (
        "2026-01-01T10:05:00.000Z"
    )
    began = datetime(2026, 1, 1, 10, 5, tzinfo=UTC)
    assert slot_end(expression, UTC, began) == datetime(2026, 1, 1, 10, 10, tzinfo=UTC)
