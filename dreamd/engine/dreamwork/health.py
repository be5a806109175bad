"""The health score: 0-100 from named components, each in [0, 1] and shown with its value.

| component         | weight | value                                                          |
|-------------------|--------|----------------------------------------------------------------|
| connectivity      | 0.20   | share of graph nodes in its largest connected part             |
| reachable         | 0.20   | share of episodes an entity or FacetPoint reaches (bundle)     |
| freshness         | 0.20   | ``exp(-days since the newest note / 7)``                        |
| promotion_yield   | 0.15   | promoted / ranked today (1 when nothing was ranked)            |
| recall_pressure   | 0.15   | ``1 - rows in the short-term store / its cap``                 |
| junk_refused      | 0.10   | ``1 - refused / (refused + ranked)``: the share of the night's |
|                   |        | candidates the screen did not have to refuse as junk (1 when   |
|                   |        | none was screened)                                             |
| durable_kept      | factor | ``1 - lost / durable``: the share of MEMORY.md's lasting facts |
|                   |        | the night kept (1 when it had none)                            |

``refused`` counts the candidates the gates after ranking refused tonight
(:mod:`dreamd.engine.phases.screen`: forgotten, secret, instruction, filler, duplicate); the
report lists them by gate. Junk kept out of ``MEMORY.md`` is the gates working, but a night
whose candidates are mostly junk says the notes feed memory badly, hence a lower value.

``lost`` counts the lasting facts that left ``MEMORY.md`` tonight without a newer entry
replacing them (archived to make room); ``durable`` the lasting facts it held before. Losing
what memory is for outweighs every other measure, so ``durable_kept`` multiplies the score:
``score = round(100 * durable_kept * Σ weight · value)``. A night that archived a fifth of the
core facts scores at most 80; one that lost half, at most 50. Pure: numbers in, numbers out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

__all__ = ["WEIGHTS", "health_components", "health_score"]

WEIGHTS = {
    "connectivity": 0.20,
    "reachable": 0.20,
    "freshness": 0.20,
    "promotion_yield": 0.15,
    "recall_pressure": 0.15,
    "junk_refused": 0.10,
}
FACTOR = "durable_kept"


def health_components(
    *,
    stats: Mapping[str, float],
    days_since_note: float | None,
    promoted: int,
    ranked: int,
    store_rows: int,
    store_cap: int,
    refused: int,
    durable: int = 0,
    lost: int = 0,
) -> dict[str, float]:
    """Each component's value (see the module table)."""
    fresh = 0.0 if days_since_note is None else math.exp(-max(days_since_note, 0.0) / 7)
    kept = max(0.0, 1 - lost / durable) if durable else (0.0 if lost else 1.0)
    return {
        "connectivity": round(float(stats.get("connectivity", 0.0)), 4),
        "reachable": round(float(stats.get("reachable", 0.0)), 4),
        "freshness": round(fresh, 4),
        "promotion_yield": round(min(1.0, promoted / ranked) if ranked else 1.0, 4),
        "recall_pressure": round(max(0.0, 1 - store_rows / store_cap) if store_cap else 1.0, 4),
        "junk_refused": round(1 - refused / (refused + ranked) if refused else 1.0, 4),
        FACTOR: round(kept, 4),
    }


def health_score(components: Mapping[str, float]) -> dict[str, Any]:
    """``{"score": 0-100, "components": {name: value}}``."""
    total = sum(WEIGHTS[name] * components.get(name, 0.0) for name in WEIGHTS)
    factor = components.get(FACTOR, 1.0)
    shown = {n: components.get(n, 0.0) for n in WEIGHTS} | {FACTOR: factor}
    return {"score": round(100 * total * factor), "components": shown}
