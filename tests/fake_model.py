"""A scripted OpenAI-compatible server on 127.0.0.1, for the real model client to talk to.

Each request takes the next scripted reply: ``(status, body)`` where ``body`` is a dict (sent as
JSON), a string (sent as is), or ``("sleep", seconds)`` to stall past the client's timeout. When
the script runs out, the last reply repeats. Requests are kept for assertions.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from aiohttp import web


def chat_reply(content: str, model: str = "test-model", tokens: int = 50) -> dict[str, Any]:
    """A chat-completions answer carrying ``content``."""
    return {
        "model": model,
        "choices": [{"message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": tokens - 10, "completion_tokens": 10, "total_tokens": tokens},
    }


class FakeModel:
    """The server's script and what it received."""

    def __init__(self, script: list[Any]) -> None:
        self.script = list(script)
        self.requests: list[dict[str, Any]] = []
        self.url = ""

    async def handle(self, request: web.Request) -> web.StreamResponse:
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
def serve(script: list[Any]) -> Iterator[FakeModel]:
    """Run a :class:`FakeModel` on a loopback port in a background thread."""
    fake = FakeModel(script)
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    runner_box: list[web.AppRunner] = []

    async def start() -> None:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", fake.handle)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        fake.url = f"http://127.0.0.1:{runner.addresses[0][1]}/v1"
        runner_box.append(runner)
        ready.set()

    thread = threading.Thread(target=lambda: (loop.run_until_complete(start()), loop.run_forever()))
    thread.start()
    ready.wait(10)
    try:
        yield fake
    finally:
        asyncio.run_coroutine_threadsafe(runner_box[0].cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
