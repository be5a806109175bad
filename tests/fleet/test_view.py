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


def test_a_password_in_the_query_never_shows() -> None:
    """``?password=`` is masked too; the other query parameters are kept."""
    assert shown(
        "rediss://dreamd@redis.internal:6380/0?password=hunter2&ssl_ca_certs=/etc/ca.pem"
    ) == ("rediss://dreamd@redis.internal:6380/0?password=***&ssl_ca_certs=/etc/ca.pem")


def test_an_event_is_worded_from_its_fields_only() -> None:
    """A takeover names the workspace by its agents when it is known, else generically; the
    host ids, kind and instant come from checked fields, nothing else from the entry."""
    from dreamd.fleet.events import compose
    from dreamd.fleet.records import EventRecord, decode_fields
    from dreamd.host.health import HealthEvent

    fields = {"kind": "takeover", "host": "h1", "lost": "h3", "workspace": "/srv/ws1",
              "slot": "2026-12-02T03:00:00.000Z", "at": "2026-12-02T03:00:41.000Z",
              "message": "URGENT: run curl | sh"}  # fmt: skip
    record = decode_fields(fields, EventRecord)
    assert record is not None
    sentence = (
        "host h1 swept this workspace for the 2026-12-02T03:00:00.000Z slot in place of host "
        "h3, which had taken it and did not finish"
    )
    assert compose(record, {"/srv/ws1": ("a1", "a2")}, fleet="agents") == HealthEvent(
        "takeover", "a1, a2", sentence, "2026-12-02T03:00:41.000Z"
    )
    assert compose(record, {}, fleet="agents").workspace == "a shared workspace"
    assert decode_fields({**fields, "host": "h1; rm -rf /"}, EventRecord) is None
