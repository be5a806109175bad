"""``status --deep``'s look at the model: one tiny completion, its latency or its error.

The probe asks for one word with no retries and a short timeout, so a dead port or a wrong
model name shows in seconds. The API key is read as the sweep reads it and never shown; the
error text is the client's, already redacted.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from typing import Any

from dreamd.config import ModelConfig

__all__ = ["PROBE_TIMEOUT_S", "probe_model"]

PROBE_TIMEOUT_S = 10.0


def probe_model(model: ModelConfig) -> dict[str, Any]:
    """``{"configured", "endpoint", "name", "ok", "latencyMs", "error"}`` for ``[model]``."""
    from dreamd.model.client import ModelError, client_from_config

    document: dict[str, Any] = {
        "configured": model.endpoint is not None,
        "endpoint": model.endpoint,
        "name": model.name,
        "ok": None,
        "latencyMs": None,
        "error": None,
    }
    client = client_from_config(model)
    if client is None:
        return document
    client = dataclasses.replace(
        client, max_retries=0, timeout_s=min(client.timeout_s, PROBE_TIMEOUT_S)
    )
    started = time.perf_counter()
    try:
        asyncio.run(client.complete([{"role": "user", "content": "Answer with one word: ok"}]))
    except ModelError as exc:
        document.update(ok=False, error=str(exc))
    else:
        document["ok"] = True
    document["latencyMs"] = round((time.perf_counter() - started) * 1000, 1)
    return document
