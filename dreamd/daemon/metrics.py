"""The daemon's counters and gauges, rendered in Prometheus' text format for ``/metrics``.

Counters only go up for the life of the process (Prometheus handles restarts); gauges are read
when rendered. Names are prefixed ``dreamd_``; label values are escaped.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["Metrics"]

_HELP = {
    "dreamd_sweeps_total": ("counter", "Workspace sweeps, by outcome."),
    "dreamd_promotions_total": ("counter", "Entries promoted into MEMORY.md."),
    "dreamd_rejections_total": ("counter", "Candidates not promoted, by rejection category."),
    "dreamd_degraded_total": ("counter", "Sweeps whose diary entry was degraded."),
    "dreamd_last_sweep_seconds": ("gauge", "Duration of the last full sweep of all workspaces."),
    "dreamd_job_slots_in_use": ("gauge", "Background job slots held by this daemon."),
    "dreamd_job_slots_limit": ("gauge", "Background job slots on this host."),
    "dreamd_pending_events": ("gauge", "Sweep events waiting for the owner's heartbeat."),
    "dreamd_enabled": ("gauge", "1 when dreaming is on."),
}


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


class Metrics:
    """Counters the daemon bumps, plus gauges read on demand."""

    def __init__(self) -> None:
        self.sweeps: Counter[str] = Counter()
        self.rejections: Counter[str] = Counter()
        self.promotions = 0
        self.degraded = 0
        self.last_sweep_seconds = 0.0
        self.gauges: dict[str, Callable[[], float]] = {}

    def record_outcome(self, outcome: Mapping[str, Any]) -> None:
        """Count one workspace sweep (``Outcome.as_json()``)."""
        self.sweeps[str(outcome.get("status", "error"))] += 1
        deep = outcome.get("deep") or {}
        self.promotions += int(deep.get("promoted", 0))
        self.rejections.update({str(k): int(v) for k, v in (deep.get("rejected") or {}).items()})
        if (outcome.get("diary") or {}).get("entry") == "degraded":
            self.degraded += 1

    def render(self) -> str:
        """All metrics in the Prometheus text exposition format."""
        samples: dict[str, list[tuple[str, float]]] = {
            "dreamd_sweeps_total": [
                (f'{{outcome="{_escape(k)}"}}', v) for k, v in sorted(self.sweeps.items())
            ],
            "dreamd_promotions_total": [("", self.promotions)],
            "dreamd_rejections_total": [
                (f'{{category="{_escape(k)}"}}', v) for k, v in sorted(self.rejections.items())
            ],
            "dreamd_degraded_total": [("", self.degraded)],
            "dreamd_last_sweep_seconds": [("", self.last_sweep_seconds)],
        }
        for name, read in self.gauges.items():
            samples[name] = [("", read())]
        lines = []
        for name, values in samples.items():
            kind, text = _HELP[name]
            lines += [f"# HELP {name} {text}", f"# TYPE {name} {kind}"]
            lines += [f"{name}{labels} {value:g}" for labels, value in values]
        return "\n".join(lines) + "\n"
