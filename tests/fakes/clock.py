"""A clock for the daemon's Clock protocol that moves only when told; sleeping is recorded."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta


class FakeClock:
    """Wall and monotonic time move together; ``sleep`` advances them and returns at once."""

    def __init__(self, start: datetime) -> None:
        self.wall = start
        self.mono = 1000.0
        self.slept: list[float] = []

    def now(self) -> datetime:
        return self.wall

    def monotonic(self) -> float:
        return self.mono

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.advance(seconds)
        await asyncio.sleep(0)

    def advance(self, seconds: float) -> None:
        """Time passes."""
        self.wall += timedelta(seconds=seconds)
        self.mono += seconds
