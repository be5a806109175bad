"""A year of notes for the memory bank: ``workloads.year`` plus ``## Retain`` sections.

Every fourth day gains a Retain section of 3 typed facts about the people and hosts of the
generated log (``W @Ana: ...``, ``B @db-02: I ...``, ``O(c=...) @Ana: Prefers ...``), with
opinions restated (and sometimes denied) across the year, so reflecting it yields entity
pages and opinions whose confidence moves. Deterministic: a seed.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from workloads import HOSTS, NOW, PEOPLE, SERVICES, year

__all__ = ["retain_year"]

PREFERENCES = [
    "Prefers concise replies in chat",
    "Prefers reviews in the morning",
    "Prefers postgres over mysql for new services",
    "Likes runbooks with screenshots",
]


def _retain(rng: random.Random) -> list[str]:
    person, host, service = rng.choice(PEOPLE), rng.choice(HOSTS), rng.choice(SERVICES)
    preference = rng.choice(PREFERENCES)
    if rng.random() < 0.2:
        opinion = f"- O @{person}: No longer {preference[0].lower()}{preference[1:]}."
    else:
        opinion = f"- O(c={rng.choice([0.6, 0.7, 0.8, 0.9])}) @{person}: {preference}."
    return [
        "## Retain",
        f"- W @{host}: The {service} service runs on {host} with a nightly export.",
        f"- B @{host}: I restarted the {service} service on {host} after the alert.",
        opinion,
        "",
    ]


def retain_year(root: Path, *, seed: int = 23, reflect: bool = False, days: int = 365) -> int:
    """The year workspace (or ``days`` of notes) with Retain sections; reflected with
    ``memory reflect --apply`` and indexed when ``reflect``."""
    size = year(root, days=days)
    rng = random.Random(seed)
    for index, note in enumerate(sorted((root / "memory").glob("*.md"))):
        if index % 4 == 0:
            with note.open("a", encoding="utf-8") as handle:
                handle.write("\n".join(_retain(rng)) + "\n")
    if reflect:
        from dreamd.cli.main import main as dreamd

        now = NOW.replace(hour=8).isoformat()
        quiet = ["--workspace", str(root), "--now", now, "--json"]
        import contextlib
        import io

        with contextlib.redirect_stdout(io.StringIO()):
            dreamd([*quiet, "memory", "reflect", "--apply"])
            dreamd([*quiet, "memory", "index"])
    return size
