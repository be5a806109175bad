"""The daemon's counters and gauges for ``/metrics``, exposed with ``prometheus-client``.

Counters only go up for the life of the process (Prometheus handles restarts); gauges are read
when scraped. Names are prefixed ``dreamd_``. Each workspace has its own series, labelled
``workspace`` (its path) and ``agent`` (its agent ids, comma-separated); in a fleet every sample
also carries ``host="<host id>"``, so one Prometheus scraping every host tells them apart.
``dreamd_last_success_timestamp_seconds`` comes from the sweep history, so it survives a
restart and "no successful sweep for 26 hours" can be alerted on; ``dreamd_state`` is the
state ``dreamd status`` names, one series per state with 1 on the current one
(``dreamd_state{state!="ok"} == 1`` alerts on anything but ok); ``dreamd_build_info`` names
the version. The values are kept here as plain counts and turned into metric families on each
scrape by one custom collector: the text format, escaping and content type are the library's.
"""

from __future__ import annotations

import platform
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    InfoMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector

from dreamd import __version__

__all__ = ["CONTENT_TYPE", "Metrics"]

CONTENT_TYPE = CONTENT_TYPE_LATEST
"""The ``Content-Type`` of ``/metrics`` (the text exposition format, version 0.0.4)."""

_GAUGE_HELP = {
    "dreamd_job_slots_in_use": "Background job slots held by this daemon.",
    "dreamd_job_slots_limit": "Background job slots on this host.",
    "dreamd_pending_events": "Sweep events waiting for the owner's heartbeat.",
    "dreamd_enabled": "1 when dreaming is on.",
    "dreamd_workspace_promoted_today": "Entries promoted into one workspace's MEMORY.md on "
    "the current dreaming day (the count status shows).",
    "dreamd_state": "1 for the host's state as status reports it (ok, degraded, blocked, "
    "disabled), 0 for the others.",
    "dreamd_fleet_up": "1 while this host reaches the fleet's Redis.",
    "dreamd_fleet_jobs_limit": "Jobs at once across the fleet.",
    "dreamd_fleet_hosts": "Hosts the fleet knows, by state (up, lost).",
}
Labelled = Callable[[], list[tuple[dict[str, str], float]]]


class _Families:
    """Builds metric families whose samples all carry the host label in a fleet."""

    def __init__(self, host: str | None) -> None:
        self.base = {"host": host} if host is not None else {}

    def make(
        self,
        kind: type[CounterMetricFamily] | type[GaugeMetricFamily],
        name: str,
        text: str,
        samples: Iterable[tuple[Mapping[str, str], float]],
    ) -> Metric:
        rows = [({**self.base, **labels}, value) for labels, value in samples]
        names = sorted({key for labels, _ in rows for key in labels})
        family = kind(name, text, labels=names)
        for labels, value in rows:
            family.add_metric([labels.get(key, "") for key in names], value)
        return family


class Metrics(Collector):
    """Counters the daemon bumps, plus gauges read on each scrape."""

    def __init__(self, *, host: str | None = None) -> None:
        self.host = host
        self.sweeps: Counter[str] = Counter()
        self.workspace_sweeps: Counter[tuple[str, str]] = Counter()
        self.workspace_promotions: Counter[str] = Counter()
        self.workspace_ms: dict[str, float] = {}
        self.labelled: dict[str, Labelled] = {}
        self.rejections: Counter[str] = Counter()
        self.promotions = 0
        self.degraded = 0
        self.last_sweep_seconds = 0.0
        self.gauges: dict[str, Callable[[], float]] = {}
        self.last_success: Callable[[], Mapping[str, float]] = dict
        self.agents_of: Callable[[str], str] = lambda _path: ""
        self.registry = CollectorRegistry(auto_describe=False)
        self.registry.register(self)

    def record_outcome(self, outcome: Mapping[str, Any]) -> None:
        """Count one workspace sweep (``Outcome.as_json()``)."""
        status = str(outcome.get("status", "error"))
        self.sweeps[status] += 1
        deep = outcome.get("deep") or {}
        self.promotions += int(deep.get("promoted", 0))
        if "workspace" in outcome:
            where = str(outcome["workspace"])
            self.workspace_sweeps[where, status] += 1
            self.workspace_promotions[where] += int(deep.get("promoted", 0))
            if status not in ("skipped", "stopped"):
                self.workspace_ms[where] = float(outcome.get("durationMs") or 0.0)
        self.rejections.update({str(k): int(v) for k, v in (deep.get("rejected") or {}).items()})
        if (outcome.get("diary") or {}).get("entry") == "degraded":
            self.degraded += 1

    def where(self, path: str, **more: str) -> dict[str, str]:
        """A workspace's labels: its path and its agents."""
        return {"workspace": path, "agent": self.agents_of(path), **more}

    def collect(self) -> Iterable[Metric]:
        """Every family, read now (the registry calls this on each scrape)."""
        make = _Families(self.host).make
        counter, gauge = CounterMetricFamily, GaugeMetricFamily
        info = InfoMetricFamily(
            "dreamd_build", "The running dreamd.", labels=list(_Families(self.host).base)
        )
        info.add_metric(
            list(_Families(self.host).base.values()),
            {"version": __version__, "python": platform.python_version()},
        )
        yield info
        yield make(
            counter,
            "dreamd_sweeps",
            "Workspace sweeps, by outcome.",
            [({"outcome": k}, v) for k, v in sorted(self.sweeps.items())],
        )
        yield make(
            counter,
            "dreamd_promotions",
            "Entries promoted into MEMORY.md.",
            [({}, self.promotions)],
        )
        yield make(
            counter,
            "dreamd_rejections",
            "Candidates not promoted, by rejection category.",
            [({"category": k}, v) for k, v in sorted(self.rejections.items())],
        )
        yield make(
            counter,
            "dreamd_degraded",
            "Sweeps whose diary entry was degraded.",
            [({}, self.degraded)],
        )
        yield make(
            gauge,
            "dreamd_last_sweep_seconds",
            "Duration of the last full sweep of all workspaces.",
            [({}, self.last_sweep_seconds)],
        )
        for name, read in self.gauges.items():
            yield make(gauge, name, _GAUGE_HELP.get(name, name), [({}, read())])
        yield from self._workspace_families()
        for name, read_all in self.labelled.items():
            yield make(gauge, name, _GAUGE_HELP.get(name, name), read_all())

    def _workspace_families(self) -> Iterable[Metric]:
        make = _Families(self.host).make
        series: Sequence[tuple[Any, str, str, list[tuple[dict[str, str], float]]]] = (
            (
                CounterMetricFamily,
                "dreamd_workspace_sweeps",
                "Sweeps of one workspace, by outcome.",
                [
                    (self.where(w, outcome=o), v)
                    for (w, o), v in sorted(self.workspace_sweeps.items())
                ],
            ),
            (
                CounterMetricFamily,
                "dreamd_workspace_promotions",
                "Entries promoted in one workspace.",
                [(self.where(w), v) for w, v in sorted(self.workspace_promotions.items())],
            ),
            (
                GaugeMetricFamily,
                "dreamd_workspace_last_sweep_ms",
                "Duration of one workspace's last sweep.",
                [(self.where(w), v) for w, v in sorted(self.workspace_ms.items())],
            ),
            (
                GaugeMetricFamily,
                "dreamd_last_success_timestamp_seconds",
                "When one workspace last swept successfully (seconds since the epoch).",
                [(self.where(w), v) for w, v in sorted(self.last_success().items())],
            ),
        )
        for kind, name, text, samples in series:
            if samples:  # a workspace series appears once it has a sample
                yield make(kind, name, text, samples)

    def render(self) -> str:
        """All metrics in the Prometheus text exposition format."""
        return generate_latest(self.registry).decode("utf-8")
