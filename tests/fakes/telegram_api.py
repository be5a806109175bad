"""A loopback Telegram Bot API: the methods python-telegram-bot 22 calls for long polling.

``POST /bot<token>/<method>`` with form fields (non-string values JSON-encoded), answering
``{"ok": true, "result": ...}``. ``getUpdates`` honours ``offset`` (updates below it are
confirmed and forgotten) and long-polls up to its ``timeout``; :meth:`FakeTelegram.say` queues a message with its ``bot_command`` entity and
:meth:`FakeTelegram.answer` waits for what the bot sends to that chat. Set
:attr:`FakeTelegram.conflict` to answer ``getUpdates`` with 409, as when another process polls.
:attr:`FakeTelegram.most_pollers` is the most ``getUpdates`` calls ever in flight at once (a
poller that dies is dropped when its connection closes).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from aiohttp import web

from tests.fakes.server import serve_app

BOT_ID = 700_000_001
USERNAME = "dreamd_test_bot"


def _ok(result: Any) -> web.Response:
    return web.json_response({"ok": True, "result": result})


def _error(code: int, description: str) -> web.Response:
    return web.json_response(
        {"ok": False, "error_code": code, "description": description}, status=code
    )


class FakeTelegram:
    """The fake (see the module docstring); ``admins`` are (chat id, user id) pairs."""

    def __init__(self) -> None:
        self.token = "700000001:telegram-token-for-tests"
        self.port = 0
        self.calls: list[str] = []
        self.commands: list[dict[str, Any]] = []
        self.admins: set[tuple[int, int]] = set()
        self.conflict = False  # see start_conflict
        self.polling = asyncio.Event()
        self.pollers = 0
        self.most_pollers = 0
        self.sent: defaultdict[int, asyncio.Queue[str]] = defaultdict(asyncio.Queue)
        self._updates: list[dict[str, Any]] = []
        self._arrived = asyncio.Condition()
        self._ids = itertools.count(1)

    @property
    def base_url(self) -> str:
        """What ``adapters.telegram.base_url`` should be."""
        return f"http://127.0.0.1:{self.port}/bot"

    @asynccontextmanager
    async def serve(self) -> AsyncIterator[FakeTelegram]:
        """Listen on an ephemeral loopback port for the ``async with`` body."""
        app = web.Application()
        app.router.add_post("/bot{token}/{method}", self._method)
        async with serve_app(app) as self.port:
            yield self

    async def _method(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        self.calls.append(method)
        if request.match_info["token"] != self.token:
            return _error(401, "Unauthorized")
        form = {key: str(value) for key, value in (await request.post()).items()}
        handler = {
            "getMe": self._get_me,
            "deleteWebhook": self._delete_webhook,
            "setMyCommands": self._set_my_commands,
            "getUpdates": self._get_updates,
            "sendMessage": self._send_message,
            "getChatMember": self._get_chat_member,
        }.get(method)
        if handler is None:
            return _error(404, f"Not Found: method {method} is not faked")
        result: web.Response = await handler(form)
        return result

    async def _get_me(self, form: dict[str, str]) -> web.Response:
        return _ok({"id": BOT_ID, "is_bot": True, "first_name": "dreamd", "username": USERNAME})

    async def _delete_webhook(self, form: dict[str, str]) -> web.Response:
        return _ok(True)

    async def _set_my_commands(self, form: dict[str, str]) -> web.Response:
        self.commands = json.loads(form["commands"])
        return _ok(True)

    async def _get_updates(self, form: dict[str, str]) -> web.Response:
        self.pollers += 1
        self.most_pollers = max(self.most_pollers, self.pollers)
        try:
            return await self._poll(form)
        finally:
            self.pollers -= 1

    async def _poll(self, form: dict[str, str]) -> web.Response:
        if self.conflict:
            return _error(409, "Conflict: terminated by other getUpdates request")
        offset = int(form.get("offset", "0") or 0)
        timeout = float(form.get("timeout", "0") or 0)
        if offset:  # confirmed: Telegram never sends these again, to any poller
            self._updates = [update for update in self._updates if update["update_id"] >= offset]
        if timeout:
            self.polling.set()

        def pending() -> list[dict[str, Any]]:
            return [update for update in self._updates if update["update_id"] >= offset]

        async with self._arrived:
            if not pending() and timeout:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(
                        self._arrived.wait_for(lambda: self.conflict or bool(pending())), timeout
                    )
            if self.conflict:
                return _error(409, "Conflict: terminated by other getUpdates request")
            return _ok(pending())

    async def _send_message(self, form: dict[str, str]) -> web.Response:
        chat = int(form["chat_id"])
        self.sent[chat].put_nowait(form["text"])
        return _ok(
            {
                "message_id": next(self._ids),
                "date": 1_790_000_000,
                "chat": {"id": chat, "type": "private"},
                "from": {"id": BOT_ID, "is_bot": True, "first_name": "dreamd"},
                "text": form["text"],
            }
        )

    async def _get_chat_member(self, form: dict[str, str]) -> web.Response:
        chat, member = int(form["chat_id"]), int(form["user_id"])
        person = {"id": member, "is_bot": False, "first_name": "member"}
        if (chat, member) in self.admins:
            rights = dict.fromkeys(
                (
                    "can_be_edited can_manage_chat can_change_info can_delete_messages "
                    "can_invite_users can_restrict_members can_pin_messages can_promote_members "
                    "can_manage_video_chats can_post_stories can_edit_stories "
                    "can_delete_stories is_anonymous"
                ).split(),
                True,
            )
            return _ok({"status": "administrator", "user": person, **rights})
        return _ok({"status": "member", "user": person})

    async def start_conflict(self) -> None:
        """From now on ``getUpdates`` answers 409, as when another process polls this token."""
        async with self._arrived:
            self.conflict = True
            self._arrived.notify_all()

    async def say(
        self, user_id: int, text: str, *, chat_id: int | None = None, chat_type: str = "private"
    ) -> None:
        """Queue a message from ``user_id`` (in their private chat unless ``chat_id``)."""
        command = text.split()[0]
        chat = {"id": chat_id or user_id, "type": chat_type}
        if chat_type != "private":
            chat["title"] = "ops"
        update = {
            "update_id": next(self._ids),
            "message": {
                "message_id": next(self._ids),
                "date": 1_790_000_000,
                "chat": chat,
                "from": {"id": user_id, "is_bot": False, "first_name": "person"},
                "text": text,
                "entities": [{"type": "bot_command", "offset": 0, "length": len(command)}],
            },
        }
        async with self._arrived:
            self._updates.append(update)
            self._arrived.notify_all()

    async def answer(self, chat_id: int) -> str:
        """The next text the bot sends to ``chat_id``."""
        return await self.sent[chat_id].get()
