"""The Telegram adapter: python-telegram-bot long polling inside the daemon's event loop.

Rules:

* Lifecycle in the daemon's loop: ``initialize`` (``getMe``), ``setMyCommands`` (the menu),
  ``start``, ``start_polling``; on the way out the reverse. A 409 Conflict (another process
  polls this token) ends :meth:`TelegramAdapter.run` with an error, so the daemon reports it
  and retries with backoff; other polling errors are retried by the library.
* ``/cmd@thisbot`` is ours, ``/cmd@otherbot`` is not (:func:`dreamd.chat.router.parse`). Only new
  messages count; edits are ignored.
* Owners are the configured user ids; with ``chat_admins``, a group's administrators count as
  owners in that group (asked with ``getChatMember`` only for commands that need an owner).
  Readers are the router's business (:mod:`dreamd.chat.access`).
* A group or supergroup is :attr:`~dreamd.chat.router.Place.GROUP`: Telegram has no reply only the
  asker sees, so the router never puts memory into one. ``/start`` and ``/help`` are answered.
* ``base_url`` points at a self-hosted Bot API server; the token is appended to it. httpx logs
  every request URL, which holds the token, so its logger is kept at WARNING.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import Any

from telegram import BotCommand, Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import Conflict, TelegramError
from telegram.ext import Application, ApplicationBuilder, ContextTypes, MessageHandler, filters

from dreamd.chat.router import POLICY, Actor, Dispatch, Permission, Place, command_key, parse
from dreamd.chat.text import TELEGRAM_LIMIT, split_text
from dreamd.config import TelegramConfig

__all__ = ["BOT_COMMANDS", "TelegramAdapter"]

_log = logging.getLogger("dreamd.telegram")
READY_SECONDS = 60.0
BOT_COMMANDS = (
    BotCommand("dreaming", "Dreaming: status, on, off, help"),
    BotCommand("dream", "Memory: status, search, about, report, rag status, explain, now"),
    BotCommand("help", "What this bot does and what you may ask it"),
)
_ADMINS = (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)
_GROUPS = (ChatType.GROUP, ChatType.SUPERGROUP)


class ConflictError(Exception):
    """Another process is polling this bot token."""


class TelegramAdapter:
    """``/dreaming`` and ``/dream`` for one bot token (see the module rules)."""

    name = "telegram"

    def __init__(self, settings: TelegramConfig, token: str) -> None:
        self.settings = settings
        self._token = token
        self._dispatch: Dispatch | None = None
        self._app: Application[Any, Any, Any, Any, Any, Any] | None = None
        self.ready = asyncio.Event()

    async def run(self, dispatch: Dispatch) -> None:
        """Poll for updates until cancelled; raise on a 409 Conflict."""
        logging.getLogger("httpx").setLevel(logging.WARNING)
        self._dispatch = dispatch
        app = ApplicationBuilder().token(self._token).base_url(self.settings.base_url).build()
        command = filters.COMMAND & filters.UpdateType.MESSAGE
        app.add_handler(MessageHandler(command, self._on_command, block=False))
        conflict: asyncio.Future[TelegramError] = asyncio.get_running_loop().create_future()

        def on_error(exc: TelegramError) -> None:
            if isinstance(exc, Conflict):
                if not conflict.done():
                    conflict.set_result(exc)
            else:
                _log.warning("Telegram: polling failed, retrying: %s", exc)

        try:
            await app.initialize()
        except BaseException:
            await app.bot.shutdown()  # initialize() leaves its HTTP clients open when it fails
            raise
        try:
            await app.bot.set_my_commands(BOT_COMMANDS)
            await app.start()
            updater = app.updater
            assert updater is not None  # built with the default updater
            try:
                await updater.start_polling(allowed_updates=["message"], error_callback=on_error)
                self._app = app
                self.ready.set()
                error = await conflict
                raise ConflictError(f"409 Conflict: another process polls this bot ({error})")
            finally:
                self.ready.clear()
                self._app = None
                if updater.running:
                    await updater.stop()
                await app.stop()
        finally:
            await app.shutdown()

    async def _is_owner(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> bool:
        user, chat = update.effective_user, update.effective_chat
        if user is None:
            return False
        if user.id in self.settings.owners:
            return True
        if not self.settings.chat_admins or chat is None or chat.type not in _GROUPS:
            return False
        member = await context.bot.get_chat_member(chat.id, user.id)
        return member.status in _ADMINS

    async def _on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.message, update.effective_user
        if message is None or message.text is None or user is None or self._dispatch is None:
            return
        actor = Actor(str(user.id))
        invocation = parse(
            message.text, actor=actor, platform="telegram", bot_username=context.bot.username
        )
        if invocation is None:
            return
        chat = update.effective_chat
        if chat is not None and chat.type != ChatType.PRIVATE:
            invocation = replace(invocation, place=Place.GROUP)
        if user.id in self.settings.owners or (
            POLICY.get(command_key(invocation)) is Permission.OWNER
            and await self._is_owner(update, context)
        ):
            invocation = replace(invocation, actor=replace(actor, is_owner=True))
        reply = await self._dispatch(invocation)
        for part in split_text(reply.text, TELEGRAM_LIMIT):
            await message.reply_text(part)

    async def notify(self, text: str) -> None:
        """Send ``text`` to every owner's private chat (waits for polling to start)."""
        async with asyncio.timeout(READY_SECONDS):
            await self.ready.wait()
        app = self._app
        if app is None:
            raise RuntimeError("the Telegram bot is not running")
        for owner in sorted(self.settings.owners):
            try:
                for part in split_text(text, TELEGRAM_LIMIT):
                    await app.bot.send_message(chat_id=owner, text=part)
            except TelegramError as exc:  # an owner who never opened a chat with the bot
                _log.warning("Telegram: cannot message owner %s: %s", owner, exc)
