"""The model client: OpenAI-compatible ``/v1/chat/completions`` over aiohttp, tool-free.

Rules: the API key comes from the environment variable named in ``model.api_key_env`` and is
never logged or put in an error. JSON mode (``response_format``) is asked for when wanted and
dropped once if the server refuses it. Transient failures (timeouts, connection errors, 429,
5xx) are retried with exponential backoff up to ``model.max_retries``; a missing model
(:class:`ModelUnavailableError`) and authorization failures (:class:`ModelAuthError`) are not.
Token usage is charged to a per-sweep :class:`TokenBudget`; once it is spent, model work stops
(:class:`ModelBudgetError`) and the sweep goes on without it. Error texts from the server are
redacted before they are kept.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from dreamd.config import ModelConfig
from dreamd.errors import DreamdError
from dreamd.redaction import redact

__all__ = [
    "Completion",
    "ModelAuthError",
    "ModelBudgetError",
    "ModelClient",
    "ModelError",
    "ModelReplyError",
    "ModelTransientError",
    "ModelUnavailableError",
    "TokenBudget",
    "client_from_config",
]

_UNAVAILABLE = re.compile(
    r"requested model may be (?:temporarily )?unavailable|model (?:is )?unavailable"
    r"|no endpoints found for|unknown model|model not found|not_found_error"
    r"|models/\S+ is not found|model \S+ does not exist|does not exist|unsupported model"
    r"|is not a valid model id",
    re.IGNORECASE,
)


class ModelError(DreamdError):
    """A completion failed; the caller falls back to the deterministic path."""


class ModelUnavailableError(ModelError):
    """The requested model is not served here."""


class ModelAuthError(ModelError):
    """The server refused the credentials (not retried)."""


class ModelTransientError(ModelError):
    """A timeout, connection failure, rate limit or server error that outlived the retries."""


class ModelBudgetError(ModelError):
    """This sweep's token budget is spent."""


class ModelReplyError(ModelError):
    """The reply did not have the expected shape."""


@dataclass
class TokenBudget:
    """Tokens one sweep may spend (``limit`` 0: no limit) and what was spent."""

    limit: int = 0
    spent: int = 0
    calls: int = 0
    errors: list[str] = field(default_factory=list)

    def check(self) -> None:
        """Raise :class:`ModelBudgetError` when the budget is spent."""
        if self.limit and self.spent >= self.limit:
            raise ModelBudgetError(f"token budget of {self.limit} spent ({self.spent} used)")

    def charge(self, usage: Mapping[str, Any]) -> None:
        """Count one completion's usage."""
        self.calls += 1
        total = usage.get("total_tokens")
        if not isinstance(total, int):
            total = int(usage.get("prompt_tokens") or 0) + int(usage.get("completion_tokens") or 0)
        self.spent += max(0, total)

    def as_json(self) -> dict[str, Any]:
        """What the sweep summary shows."""
        return {
            "calls": self.calls,
            "tokens": self.spent,
            "limit": self.limit,
            "errors": self.errors,
        }


@dataclass(frozen=True)
class Completion:
    """The assistant's text and the model that wrote it."""

    text: str
    model: str


@dataclass(frozen=True)
class ModelClient:
    """One OpenAI-compatible endpoint."""

    endpoint: str
    name: str
    api_key: str | None = None
    timeout_s: float = 60.0
    max_retries: int = 2
    backoff_s: float = 0.5

    @property
    def url(self) -> str:
        """The chat-completions URL."""
        base = self.endpoint.rstrip("/")
        return base if base.endswith("/chat/completions") else f"{base}/chat/completions"

    async def complete(
        self,
        messages: Sequence[Mapping[str, str]],
        *,
        model: str | None = None,
        json_mode: bool = False,
        budget: TokenBudget | None = None,
    ) -> Completion:
        """One completion (see the module rules)."""
        budget = budget or TokenBudget()
        budget.check()
        chosen = model or self.name
        body: dict[str, Any] = {"model": chosen, "messages": list(messages), "temperature": 0.2}
        if json_mode:
            body["response_format"] = {"type": "json_object"}
        attempt = 0
        while True:
            try:
                reply = await self._post(body)
            except ModelTransientError:
                if attempt >= self.max_retries:
                    raise
                await asyncio.sleep(self.backoff_s * 2**attempt)
                attempt += 1
                continue
            except _JsonModeRefusedError:
                body.pop("response_format", None)
                continue
            budget.charge(reply.get("usage") or {})
            return Completion(_text_of(reply), str(reply.get("model") or chosen))

    async def _post(self, body: Mapping[str, Any]) -> dict[str, Any]:
        import aiohttp  # a sweep without a model never pays for importing it

        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        limits = aiohttp.ClientTimeout(total=self.timeout_s)
        try:
            async with (
                aiohttp.ClientSession(timeout=limits) as session,
                session.post(self.url, json=body, headers=headers) as response,
            ):
                raw = await response.text()
                status = response.status
        except (TimeoutError, aiohttp.ClientError) as exc:
            raise ModelTransientError(f"model request failed: {type(exc).__name__}") from exc
        detail = redact(raw[:300])
        if status in (401, 403):
            raise ModelAuthError(f"the model server refused the credentials ({status})")
        if status == 404 or (status >= 400 and _UNAVAILABLE.search(raw)):
            raise ModelUnavailableError(f"model {body['model']!r} is not available: {detail}")
        if status == 400 and "response_format" in body and "response_format" in raw:
            raise _JsonModeRefusedError
        if status == 429 or status >= 500:
            raise ModelTransientError(f"model server answered {status}: {detail}")
        if status >= 400:
            raise ModelError(f"model server answered {status}: {detail}")
        try:
            document = msgspec.json.decode(raw)
        except (msgspec.DecodeError, RecursionError) as exc:  # too deeply nested
            raise ModelReplyError("the model server did not answer JSON") from exc
        if not isinstance(document, dict):
            raise ModelReplyError("the model server's answer is not a JSON object")
        return document


class _JsonModeRefusedError(Exception):
    """The server does not take ``response_format``; ask again without it."""


def _text_of(reply: Mapping[str, Any]) -> str:
    choices = reply.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ModelReplyError("the reply has no choices")
    message = choices[0].get("message")
    content = message.get("content") if isinstance(message, dict) else choices[0].get("text")
    if isinstance(content, list):
        content = "".join(
            p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)
        )
    if not isinstance(content, str) or not content.strip():
        raise ModelReplyError("the reply is empty")
    return content


def client_from_config(model: ModelConfig) -> ModelClient | None:
    """The configured client, or ``None`` when no model is configured."""
    if not model.endpoint or not model.name:
        return None
    key = os.environ.get(model.api_key_env, "") if model.api_key_env else ""
    return ModelClient(
        endpoint=model.endpoint,
        name=model.name,
        api_key=key or None,
        timeout_s=model.timeout_s,
        max_retries=model.max_retries,
    )
