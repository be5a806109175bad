"""Health rules over sweep history, and events only when a problem first appears."""

from __future__ import annotations

from dreamd.daemon.metrics import Metrics
from dreamd.host.health import HealthEvent, new_events, problems, sweep_record


def record(
    status: str = "ok", ranked: int = 0, promoted: int = 0, diary: str | None = None
) -> dict[str, object]:
    """One history record."""
    outcome = {
        "status": status,
        "deep": {"ranked": ranked, "promoted": promoted},
        "diary": {"entry": diary},
        "error": "boom" if status == "error" else None,
    }
    return sweep_record("2026-11-29T03:00:00.000Z", outcome)


def test_healthy_history_has_no_problems() -> None:
    """Sweeps that promote, or have nothing to rank, are healthy."""
    assert problems([record(ranked=2, promoted=2), record()], idle_sweeps=3) == {}
    assert problems([], idle_sweeps=3) == {}


def test_failed_degraded_and_idle() -> None:
    """A failed last sweep, a degraded diary, and N ranked-but-unpromoted sweeps are problems."""
    assert problems([record(status="error")], idle_sweeps=3) == {
        "failed": "last sweep failed: boom"
    }
    assert set(problems([record(diary="degraded")], idle_sweeps=3)) == {"degraded"}
    idle = [record(ranked=2)] * 3
    assert set(problems(idle, idle_sweeps=3)) == {"idle"}
    assert problems(idle[:2], idle_sweeps=3) == {}


def test_events_fire_once_when_a_problem_appears() -> None:
    """An event is raised when a problem first shows, not on every later sweep."""
    before = [record(ranked=2)] * 2
    after = [*before, record(ranked=2)]
    assert [e.kind for e in new_events("/ws", before, after, idle_sweeps=3, at="t")] == ["idle"]
    later = [*after, record(ranked=2)]
    assert new_events("/ws", after, later, idle_sweeps=3, at="t") == []
    failed = [*later, record(status="error")]
    assert new_events("/ws", later, failed, idle_sweeps=3, at="t") == [
        HealthEvent("failed", "/ws", "last sweep failed: boom", "t")
    ]


def test_metrics_text() -> None:
    """Outcomes become Prometheus counters with escaped labels; gauges are read when rendered."""
    metrics = Metrics()
    metrics.record_outcome(
        {"status": "ok", "deep": {"promoted": 2, "rejected": {"query threshold": 3}}}
    )
    metrics.record_outcome({"status": "error"})
    metrics.gauges["dreamd_enabled"] = lambda: 1.0
    from prometheus_client.parser import text_string_to_metric_families

    samples = {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(metrics.render())
        for s in family.samples
    }
    assert samples[("dreamd_sweeps_total", (("outcome", "ok"),))] == 1
    assert samples[("dreamd_sweeps_total", (("outcome", "error"),))] == 1
    assert samples[("dreamd_promotions_total", ())] == 2
    assert samples[("dreamd_rejections_total", (("category", "query threshold"),))] == 3
    assert samples[("dreamd_enabled", ())] == 1
