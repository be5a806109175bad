"""The model client against a loopback OpenAI-compatible server: JSON mode, retries, errors, budget."""

from __future__ import annotations

import asyncio

import pytest

from dreamd.config import ModelConfig
from dreamd.model.client import (
    ModelAuthError,
    ModelBudgetError,
    ModelClient,
    ModelTransientError,
    ModelUnavailableError,
    TokenBudget,
    client_from_config,
)
from tests.fake_model import chat_reply, serve

ASK = [{"role": "user", "content": "hello there"}]


def _client(url: str, **fields: object) -> ModelClient:
    return ModelClient(endpoint=url, name="test-model", timeout_s=2, backoff_s=0.01, **fields)  # type: ignore[arg-type]


def test_completion_and_usage() -> None:
    """A reply's text comes back and its tokens are charged."""
    with serve([(200, chat_reply("hi!", tokens=42))]) as fake:
        budget = TokenBudget()
        completion = asyncio.run(_client(fake.url).complete(ASK, budget=budget))
    assert (completion.text, completion.model) == ("hi!", "test-model")
    assert (budget.calls, budget.spent) == (1, 42)
    assert fake.requests[0]["model"] == "test-model"


def test_json_mode_is_dropped_when_refused() -> None:
    """A server that rejects response_format gets the request again without it."""
    script = [(400, '{"error": "response_format is not supported"}'), (200, chat_reply("{}"))]
    with serve(script) as fake:
        asyncio.run(_client(fake.url).complete(ASK, json_mode=True))
    assert "response_format" in fake.requests[0]
    assert "response_format" not in fake.requests[1]


def test_transient_errors_are_retried_then_given_up() -> None:
    """503 then success is retried; persistent 503s end in ModelTransientError."""
    with serve([(503, "busy"), (200, chat_reply("ok"))]) as fake:
        assert asyncio.run(_client(fake.url).complete(ASK)).text == "ok"
    with serve([(503, "busy")]) as fake, pytest.raises(ModelTransientError):
        asyncio.run(_client(fake.url, max_retries=2).complete(ASK))
    assert len(fake.requests) == 3


def test_timeout_is_transient() -> None:
    """A server slower than timeout_s fails as transient after the retries."""
    with serve([("sleep", 3)]) as fake, pytest.raises(ModelTransientError):
        asyncio.run(
            ModelClient(endpoint=fake.url, name="m", timeout_s=0.3, max_retries=0).complete(ASK)
        )


def test_unavailable_and_auth_are_not_retried() -> None:
    """404 'model not found' and 401 fail at once."""
    with serve([(404, '{"error": "model not found"}')]) as fake:
        with pytest.raises(ModelUnavailableError):
            asyncio.run(_client(fake.url).complete(ASK))
        assert len(fake.requests) == 1
    with serve([(401, "no")]) as fake:
        with pytest.raises(ModelAuthError) as caught:
            asyncio.run(_client(fake.url, api_key="sk-secret-value-123456789").complete(ASK))
        assert "sk-secret" not in str(caught.value)
        assert len(fake.requests) == 1


def test_budget_stops_model_work() -> None:
    """Once the sweep's token budget is spent, no further request is made."""
    with serve([(200, chat_reply("one", tokens=80))]) as fake:
        budget = TokenBudget(limit=50)
        client = _client(fake.url)
        asyncio.run(client.complete(ASK, budget=budget))
        with pytest.raises(ModelBudgetError):
            asyncio.run(client.complete(ASK, budget=budget))
    assert len(fake.requests) == 1


def test_client_from_config_reads_the_key_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No endpoint means no client; the key comes from the named variable."""
    assert client_from_config(ModelConfig()) is None
    monkeypatch.setenv("MY_KEY", "k-123")
    client = client_from_config(
        ModelConfig(endpoint="http://127.0.0.1:1/v1", name="m", api_key_env="MY_KEY")
    )
    assert client is not None
    assert (client.api_key, client.url) == ("k-123", "http://127.0.0.1:1/v1/chat/completions")
