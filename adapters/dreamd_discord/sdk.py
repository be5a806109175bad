"""discord.py, imported in one place with its voice-only deprecation warning silenced.

discord.py imports ``audioop`` for voice support, which dreamd never uses; Python 3.11 and 3.12
deprecate that module, and the warning would only alarm operators.
"""

from __future__ import annotations

import warnings

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord
    from discord import app_commands

__all__ = ["app_commands", "discord"]
