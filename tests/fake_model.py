"""A scripted OpenAI-compatible server on 127.0.0.1, for the real model client to talk to.

Each request takes the next scripted reply: ``(status, body)`` where ``body`` is a dict (sent as
JSON), a string (sent as is), or ``("sleep", seconds)`` to stall past the client's timeout. When
the script runs out, the last reply repeats. Requests are kept for assertions. With ``delay``
every reply waits that long first (a slow model); :attr:`FakeModel.most_in_flight` is the most
requests it ever held at once.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from aiohttp import web

from tests.fakes.server import serve_app


def chat_reply(content: str, model: str = "test-model", tokens: int = 50) -> dict[str, Any]:
    """A chat-completions answer carrying ``content``."""
    return {
        "model": model,
        "choices": [{"message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": tokens - 10, "completion_tokens": 10, "total_tokens": tokens},
    }


class FakeModel:
    """The server's script and what it received."""

    def __init__(self, script: list[Any], *, delay: float = 0.0) -> None:
        self.script = list(script)
        self.requests: list[dict[str, Any]] = []
        self.url = ""
        self.delay = delay
        self.in_flight = 0
        self.most_in_flight = 0

    async def handle(self, request: web.Request) -> web.StreamResponse:
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            if self.delay:
                await asyncio.sleep(self.delay)
            return await self._answer(request)
        finally:
            self.in_flight -= 1

    async def _answer(self, request: web.Request) -> web.StreamResponse:
        self.requests.append(await request.json())
        step = self.script.pop(0) if len(self.script) > 1 else self.script[0]
        if isinstance(step, tuple) and step[0] == "sleep":
            await asyncio.sleep(step[1])
            return web.json_response(chat_reply("too late"))
        status, body = step
        if isinstance(body, str):
            return web.Response(status=status, text=body)
        return web.json_response(body, status=status)

    def prompts(self) -> str:
        """Every message content sent so far, joined."""
        return "\n".join(m["content"] for r in self.requests for m in r["messages"])


@contextmanager
def serve(script: list[Any], *, delay: float = 0.0) -> Iterator[FakeModel]:
    """Run a :class:`FakeModel` on a loopback port in a background thread."""
    fake = FakeModel(script, delay=delay)
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    done = asyncio.Event()

    async def serve_until_done() -> None:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", fake.handle)
        async with serve_app(app) as port:
            fake.url = f"http://127.0.0.1:{port}/v1"
            ready.set()
            await done.wait()

    thread = threading.Thread(target=lambda: loop.run_until_complete(serve_until_done()))
    thread.start()
    ready.wait(10)
    try:
        yield fake
    finally:
        loop.call_soon_threadsafe(done.set)
        thread.join(10)
        loop.close()
