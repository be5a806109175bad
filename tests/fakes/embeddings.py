"""A fake OpenAI-compatible embeddings server (``POST /v1/embeddings``, as Ollama serves it).

Vectors are deterministic and mean something: each word is mapped to a concept (synonyms share
one: car, automobile and vehicle are one concept) and each concept to one of :data:`DIMS`
dimensions by its hash, so texts about the same things point the same way and a search can be
tested on meaning without a model. The server records every request (model, inputs,
authorization) and can be told to fail.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

DIMS = 64
MODEL = "fake-embed"
CONCEPTS = {
    "car": "car",
    "cars": "car",
    "automobile": "car",
    "vehicle": "car",
    "bought": "buy",
    "buy": "buy",
    "purchase": "buy",
    "purchased": "buy",
    "commute": "commute",
    "commuting": "commute",
    "database": "database",
    "postgres": "database",
    "db": "database",
}
STOP = frozenset("a an the for to of in on we our is was new what did with and".split())


def vector(text: str) -> list[float]:
    """The fake's embedding of ``text``: a count of its concepts, one dimension each."""
    values = [0.0] * DIMS
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        if word in STOP:
            continue
        concept = CONCEPTS.get(word, word)
        slot = int(hashlib.sha256(concept.encode()).hexdigest(), 16) % DIMS
        values[slot] += 1.0
    if not any(values):
        values[0] = 1.0
    return values


@dataclass
class FakeEmbeddings:
    """The fake's state: what it was asked, and whether it answers."""

    requests: list[dict[str, Any]] = field(default_factory=list)
    authorizations: list[str | None] = field(default_factory=list)
    failing: bool = False

    @property
    def inputs(self) -> list[str]:
        """Every text embedded so far, in order."""
        return [text for request in self.requests for text in request["input"]]

    def app(self) -> web.Application:
        """The aiohttp application serving ``/v1/embeddings``."""

        async def embeddings(request: web.Request) -> web.Response:
            body = await request.json()
            self.requests.append(body)
            self.authorizations.append(request.headers.get("Authorization"))
            if self.failing:
                return web.json_response({"error": {"message": "model not loaded"}}, status=500)
            texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
            data = [
                {"object": "embedding", "index": i, "embedding": vector(text)}
                for i, text in reversed(list(enumerate(texts)))  # out of order, on purpose
            ]
            return web.json_response({"object": "list", "model": body["model"], "data": data})

        app = web.Application()
        app.router.add_post("/v1/embeddings", embeddings)
        return app
