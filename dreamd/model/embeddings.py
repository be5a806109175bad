"""The embeddings client: OpenAI-compatible ``POST {endpoint}/embeddings``, as Ollama serves it.

Rules: used only when ``[embeddings]`` names an endpoint; nothing else in dreamd reaches the
network for recall. A request is ``{"model", "input": [texts]}``; the answer's ``data`` items
are put back in ``index`` order. The API key comes from the environment variable
``embeddings.api_key_env`` names, and is never logged or put in an error. One retry after a
timeout, a connection error, a 429 or a 5xx; any failure is an :class:`EmbeddingError`, whose
text (the server's, redacted) names the endpoint. Blocking (``urllib``, the standard library):
callers run it in a worker thread; the HTTP client is imported when texts are sent, so a
per-turn search or an index update without vectors pays for none of it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

from dreamd.errors import DreamdError
from dreamd.redaction import redact

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Any

    from dreamd.config import EmbeddingsConfig
    from dreamd.recall.index import RecallIndex
    from dreamd.recall.vectors import Semantic

__all__ = ["EmbedTexts", "EmbeddingError", "semantic_recall", "settings_of"]

RETRIES = 1


class EmbeddingError(DreamdError):
    """The embeddings endpoint did not answer with one vector per text."""


def _vectors(document: object, count: int) -> list[list[float]]:
    data = document.get("data") if isinstance(document, dict) else None
    if not isinstance(data, list) or len(data) != count:
        raise EmbeddingError(f"expected {count} embedding(s) in 'data'")
    ordered = sorted(data, key=lambda item: item.get("index", 0) if isinstance(item, dict) else 0)
    vectors: list[list[float]] = []
    for item in ordered:
        vector = item.get("embedding") if isinstance(item, dict) else None
        if not isinstance(vector, list) or not vector:
            raise EmbeddingError("an item of 'data' holds no 'embedding' list")
        try:
            vectors.append([float(x) for x in vector])
        except (TypeError, ValueError) as exc:
            raise EmbeddingError("an embedding holds something other than numbers") from exc
    return vectors


class EmbedTexts:
    """Texts -> vectors through one endpoint (see the module rules). Takes the settings'
    values, not the config object: a per-turn search never imports the config parser."""

    def __init__(
        self, *, endpoint: str, model: str, timeout_s: float = 30.0, api_key_env: str | None = None
    ) -> None:
        if not endpoint or not model:
            raise DreamdError("embeddings.endpoint and embeddings.model are not both set")
        if not endpoint.startswith(("http://", "https://")):
            raise DreamdError(f"embeddings.endpoint must be an http(s) URL, got {endpoint!r}")
        self.url = endpoint.rstrip("/") + "/embeddings"
        self.model = model
        self.timeout = timeout_s
        self._key_env = api_key_env

    def __call__(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order."""
        if not texts:
            return []
        import urllib.error  # only when texts are sent: reading settings needs no HTTP client
        import urllib.request

        body = json.dumps({"model": self.model, "input": list(texts)}).encode("utf-8")
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self._key_env, "") if self._key_env else ""
        if key:
            headers["Authorization"] = f"Bearer {key}"
        problem = ""
        for _ in range(RETRIES + 1):
            # http(s) only: the endpoint is checked when it is configured, and again below
            request = urllib.request.Request(self.url, data=body, headers=headers, method="POST")  # noqa: S310
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310
                    document = json.loads(response.read())
            except urllib.error.HTTPError as exc:
                detail = exc.read(500).decode("utf-8", errors="replace")
                problem = f"HTTP {exc.code}: {redact(detail).strip()[:200]}"
                if exc.code != 429 and exc.code < 500:
                    break
                continue
            except (urllib.error.URLError, TimeoutError, OSError) as exc:
                reason = getattr(exc, "reason", exc)
                problem = redact(str(reason))[:200]
                continue
            except ValueError as exc:
                raise EmbeddingError(f"{self.url}: the answer is not JSON") from exc
            try:
                return _vectors(document, len(texts))
            except EmbeddingError as exc:
                raise EmbeddingError(f"{self.url}: {exc}") from exc
        raise EmbeddingError(f"{self.url}: embeddings request failed: {problem}")


def settings_of(config: EmbeddingsConfig) -> dict[str, Any] | None:
    """The ``[embeddings]`` values semantic recall needs, ``None`` when it is off."""
    if not (config.endpoint and config.model):
        return None
    return {
        "endpoint": config.endpoint,
        "model": config.model,
        "timeout_s": config.timeout_s,
        "api_key_env": config.api_key_env,
        "batch": config.batch,
        "min_similarity": config.min_similarity,
    }


@contextmanager
def semantic_recall(
    index: RecallIndex, settings: Mapping[str, Any] | None, *, budget: int | None = -1
) -> Iterator[Semantic | None]:
    """Attach semantic recall to ``index`` for the block when ``settings`` (from
    :func:`settings_of`) turn it on; ``budget``: texts a search may embed (-1: the default,
    ``None``: every text)."""
    if not settings:
        yield None
        return
    from dreamd.recall.vectors import SEARCH_BUDGET, Semantic

    embed = EmbedTexts(
        endpoint=str(settings["endpoint"]),
        model=str(settings["model"]),
        timeout_s=float(settings.get("timeout_s", 30.0)),
        api_key_env=settings.get("api_key_env"),
    )
    semantic = Semantic(
        index,
        embed,
        model=str(settings["model"]),
        batch=int(settings.get("batch", 64)),
        min_similarity=float(settings.get("min_similarity", 0.5)),
        budget=SEARCH_BUDGET if budget == -1 else budget,
    )
    index.semantic = semantic
    try:
        yield semantic
    finally:
        index.semantic = None
        semantic.close()
