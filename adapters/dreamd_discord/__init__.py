"""dreamd's Discord adapter: ``/dreaming`` and ``/dream`` as application commands.

Registered as ``discord`` in the ``dreamd.adapters`` entry-point group. discord.py (the
``discord`` extra) is imported only when the daemon builds the adapter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dreamd.chat.router import Adapter
    from dreamd.config import DiscordConfig

__all__ = ["build"]


def build(settings: DiscordConfig, token: str) -> Adapter:
    """The adapter for ``[adapters.discord]`` (raises ImportError without discord.py)."""
    from dreamd_discord.bot import DiscordAdapter

    return DiscordAdapter(settings, token)
