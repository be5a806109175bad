"""dreamd's Telegram adapter: ``/dreaming`` and ``/dream`` as bot commands, by long polling.

Registered as ``telegram`` in the ``dreamd.adapters`` entry-point group. python-telegram-bot
(the ``telegram`` extra) is imported only when the daemon builds the adapter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dreamd.chat.router import Adapter
    from dreamd.config import TelegramConfig

__all__ = ["build"]


def build(settings: TelegramConfig, token: str) -> Adapter:
    """The adapter for ``[adapters.telegram]`` (raises ImportError without the SDK)."""
    from dreamd_telegram.bot import TelegramAdapter

    return TelegramAdapter(settings, token)
