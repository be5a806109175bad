"""A loopback Discord: the REST routes and the websocket gateway discord.py 2.7 talks to.

Point the real library at it with :meth:`FakeDiscord.patch` (``Route.BASE`` and the gateway
URL). REST answers are JSON with exactly ``application/json`` as content type: discord.py
decodes nothing else. The gateway speaks plain JSON text frames: HELLO, READY after IDENTIFY,
heartbeat ACKs, and the ``INTERACTION_CREATE`` events :meth:`FakeDiscord.interact` injects.
Everything the bot sends back is recorded per interaction token in :attr:`FakeDiscord.replies`.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
import yarl
from aiohttp import WSMsgType, web

from dreamd_discord.sdk import discord
from tests.fakes.server import serve_app

APP_ID = 900_000_000_000_000_001
BOT_ID = 900_000_000_000_000_002
GUILD_ID = 900_000_000_000_000_003
CHANNEL_ID = 900_000_000_000_000_004
BOT = {"id": str(BOT_ID), "username": "dreamd", "discriminator": "0", "avatar": None, "bot": True}


def user(user_id: int, name: str = "someone") -> dict[str, Any]:
    """A Discord user object."""
    return {"id": str(user_id), "username": name, "discriminator": "0", "avatar": None}


def message(mid: int, channel: int, content: str, flags: int = 0) -> dict[str, Any]:
    """A message object as the REST API returns it."""
    return {
        "id": str(mid),
        "channel_id": str(channel),
        "type": 0,
        "content": content,
        "author": BOT,
        "attachments": [],
        "embeds": [],
        "mentions": [],
        "mention_roles": [],
        "pinned": False,
        "mention_everyone": False,
        "tts": False,
        "timestamp": "2026-11-26T03:00:00+00:00",
        "edited_timestamp": None,
        "flags": flags,
        "components": [],
    }


@dataclass
class Sent:
    """One answer the bot gave: a callback (``type`` 4, 5 or 8) or a follow-up (``type`` 0)."""

    type: int
    content: str | None
    ephemeral: bool
    choices: list[dict[str, Any]] = field(default_factory=list)


def _json(document: Any, status: int = 200) -> web.Response:
    return web.Response(
        body=json.dumps(document).encode(), status=status, content_type="application/json"
    )


class FakeDiscord:
    """The fake (see the module docstring); ``owner_id`` owns the application."""

    def __init__(self, owner_id: int) -> None:
        self.owner_id = owner_id
        self.token = "discord-token-for-tests"
        self.port = 0
        self.requests: list[tuple[str, str]] = []
        self.synced: list[list[dict[str, Any]]] = []
        self.replies: defaultdict[str, asyncio.Queue[Sent]] = defaultdict(asyncio.Queue)
        self.dms: asyncio.Queue[tuple[int, str]] = asyncio.Queue()
        self.identified = asyncio.Event()
        self.reject_login = False
        self._socket: web.WebSocketResponse | None = None
        self._ids = itertools.count(1000)
        self._sequence = itertools.count(1)
        self._dm_owner: dict[int, int] = {}

    def patch(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Send discord.py's REST calls and gateway connection here."""
        monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{self.port}/api/v10")
        monkeypatch.setattr(
            discord.gateway.DiscordWebSocket,
            "DEFAULT_GATEWAY",
            yarl.URL(f"ws://127.0.0.1:{self.port}/gateway"),
        )

    @asynccontextmanager
    async def serve(self) -> AsyncIterator[FakeDiscord]:
        """Listen on an ephemeral loopback port for the ``async with`` body."""
        app = web.Application()
        base = "/api/v10"
        app.router.add_get(f"{base}/users/@me", self._me)
        app.router.add_get(f"{base}/oauth2/applications/@me", self._application)
        app.router.add_put(f"{base}/applications/{{app}}/commands", self._sync)
        app.router.add_post(f"{base}/interactions/{{iid}}/{{token}}/callback", self._callback)
        app.router.add_post(f"{base}/webhooks/{{app}}/{{token}}", self._followup)
        app.router.add_post(f"{base}/users/@me/channels", self._open_dm)
        app.router.add_post(f"{base}/channels/{{channel}}/messages", self._send)
        app.router.add_get("/gateway", self._gateway)
        async with serve_app(app) as self.port:
            try:
                yield self
            finally:
                if self._socket is not None:
                    await self._socket.close()

    # REST

    def _authorized(self, request: web.Request) -> bool:
        self.requests.append((request.method, request.path))
        return request.headers.get("Authorization") == f"Bot {self.token}"

    async def _me(self, request: web.Request) -> web.Response:
        if self.reject_login or not self._authorized(request):
            return _json({"message": "401: Unauthorized", "code": 0}, 401)
        return _json(BOT)

    async def _application(self, request: web.Request) -> web.Response:
        self._authorized(request)
        return _json(
            {
                "id": str(APP_ID),
                "name": "dreamd",
                "description": "",
                "icon": None,
                "bot_public": False,
                "bot_require_code_grant": False,
                "owner": user(self.owner_id, "owner"),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
            }
        )

    async def _sync(self, request: web.Request) -> web.Response:
        self._authorized(request)
        commands = await request.json()
        self.synced.append(commands)
        return _json(
            [
                {
                    **command,
                    "id": str(next(self._ids)),
                    "application_id": str(APP_ID),
                    "version": "1",
                }
                for command in commands
            ]
        )

    async def _callback(self, request: web.Request) -> web.Response:
        self.requests.append((request.method, request.path))
        body = await request.json()
        data = body.get("data") or {}
        self.replies[request.match_info["token"]].put_nowait(
            Sent(
                body["type"],
                data.get("content"),
                bool(data.get("flags", 0) & 64),
                data.get("choices") or [],
            )
        )
        return _json({"interaction": {"id": request.match_info["iid"], "type": 2}})

    async def _followup(self, request: web.Request) -> web.Response:
        self.requests.append((request.method, request.path))
        body = await request.json()
        flags = body.get("flags", 0)
        content = body.get("content", "")
        self.replies[request.match_info["token"]].put_nowait(Sent(0, content, bool(flags & 64)))
        return _json(message(next(self._ids), CHANNEL_ID, content, flags))

    async def _open_dm(self, request: web.Request) -> web.Response:
        self._authorized(request)
        recipient = int((await request.json())["recipient_id"])
        channel = next(self._ids)
        self._dm_owner[channel] = recipient
        return _json({"id": str(channel), "type": 1, "recipients": [user(recipient)]})

    async def _send(self, request: web.Request) -> web.Response:
        self._authorized(request)
        channel = int(request.match_info["channel"])
        content = (await request.json())["content"]
        self.dms.put_nowait((self._dm_owner.get(channel, channel), content))
        return _json(message(next(self._ids), channel, content))

    # gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self._socket = socket
        await socket.send_json({"op": 10, "d": {"heartbeat_interval": 45_000}})
        async for frame in socket:
            if frame.type != WSMsgType.TEXT:
                break
            payload = json.loads(frame.data)
            if payload["op"] == 1:
                await socket.send_json({"op": 11})
            elif payload["op"] == 2:
                await socket.send_json(self._ready(payload["d"]["token"]))
                self.identified.set()
        return socket

    def _ready(self, token: str) -> dict[str, Any]:
        if token.removeprefix("Bot ") != self.token:
            return {"op": 9, "d": False}
        return {
            "op": 0,
            "s": next(self._sequence),
            "t": "READY",
            "d": {
                "v": 10,
                "user": BOT,
                "guilds": [],
                "session_id": "session",
                "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
                "application": {"id": str(APP_ID), "flags": 0},
            },
        }

    async def interact(
        self,
        user_id: int,
        command: str,
        *path: str,
        options: dict[str, str] | None = None,
        roles: tuple[int, ...] = (),
        autocomplete: bool = False,
        dm: bool = False,
    ) -> str:
        """Inject ``/command path... options`` from ``user_id`` in a guild (or, with ``dm``, in a
        direct message); returns its token."""
        assert self._socket is not None, "the bot is not connected"
        token = f"interaction-{next(self._ids)}"
        leaf: list[dict[str, Any]] = [
            {"name": name, "type": 3, "value": value, **({"focused": True} if autocomplete else {})}
            for name, value in (options or {}).items()
        ]
        for name, kind in zip(
            reversed(path), itertools.chain([1], itertools.repeat(2)), strict=False
        ):
            leaf = [{"name": name, "type": kind, "options": leaf}]
        member = {
            "user": user(user_id),
            "roles": [str(role) for role in roles],
            "joined_at": "2026-01-01T00:00:00+00:00",
            "permissions": "0",
            "deaf": False,
            "mute": False,
            "flags": 0,
        }
        payload = {
            "id": str(next(self._ids)),
            "application_id": str(APP_ID),
            "type": 4 if autocomplete else 2,
            "token": token,
            "version": 1,
            "data": {"id": str(next(self._ids)), "name": command, "type": 1, "options": leaf},
            "guild_id": str(GUILD_ID),
            "channel": {
                "id": str(CHANNEL_ID),
                "type": 0,
                "guild_id": str(GUILD_ID),
                "name": "ops",
                "position": 0,
                "permission_overwrites": [],
            },
            "channel_id": str(CHANNEL_ID),
            "member": member,
            "attachment_size_limit": 8_388_608,
            "locale": "en-US",
        }
        if dm:
            for name in ("guild_id", "member"):
                del payload[name]
            payload["user"] = user(user_id)
            payload["channel"] = {"id": str(CHANNEL_ID + 1), "type": 1}
            payload["channel_id"] = str(CHANNEL_ID + 1)
        await self._socket.send_json(
            {"op": 0, "s": next(self._sequence), "t": "INTERACTION_CREATE", "d": payload}
        )
        return token

    async def reply(self, token: str) -> Sent:
        """The next answer to the interaction ``token`` that carries content or choices."""
        while True:
            sent = await self.replies[token].get()
            if sent.type != 5:  # a deferral: the content follows
                return sent
