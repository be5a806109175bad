"""Regular expressions compiled when first used, not when their module is imported.

``memory recall`` and ``memory search`` run as a fresh process on every agent turn, and
compiling a module's patterns at import costs more than most of them are worth to one command:
an opinion question never tries the entity or time patterns, a search never parses a bank page.
A :class:`LazyPattern` stands where ``re.compile(...)`` stood and answers the same calls; the
first one compiles it (``re`` caches nothing across processes), and the compiled pattern's own
bound methods then take over, so later calls cost what a plain pattern's do.

Use it for module-level patterns of modules those commands import; a pattern compiled inside
a function is compiled when the function runs anyway.
"""

from __future__ import annotations

import re
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

__all__ = ["LazyPattern"]

_END = sys.maxsize


class LazyPattern:
    """``re.compile(source, flags)``, done on first use (see the module docstring)."""

    __slots__ = ("__dict__", "flags", "source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self.source = source
        self.flags = flags

    @property
    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (compiled now, the first time)."""
        found = self.__dict__.get("compiled")
        if found is None:
            found = re.compile(self.source, self.flags)
            # The compiled pattern's bound methods shadow this class's methods from now on.
            self.__dict__.update(
                compiled=found,
                search=found.search,
                match=found.match,
                fullmatch=found.fullmatch,
                finditer=found.finditer,
                findall=found.findall,
                sub=found.sub,
                subn=found.subn,
                split=found.split,
            )
        return found

    @property
    def pattern(self) -> str:
        """The source, as :attr:`re.Pattern.pattern`."""
        return self.source

    def search(self, string: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        """:meth:`re.Pattern.search`."""
        return self.compiled.search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        """:meth:`re.Pattern.match`."""
        return self.compiled.match(string, pos, endpos)

    def fullmatch(self, string: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        """:meth:`re.Pattern.fullmatch`."""
        return self.compiled.fullmatch(string, pos, endpos)

    def finditer(self, string: str, pos: int = 0, endpos: int = _END) -> Iterator[re.Match[str]]:
        """:meth:`re.Pattern.finditer`."""
        return self.compiled.finditer(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = _END) -> list[Any]:
        """:meth:`re.Pattern.findall`."""
        return self.compiled.findall(string, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        """:meth:`re.Pattern.sub`."""
        return self.compiled.sub(repl, string, count)

    def subn(
        self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0
    ) -> tuple[str, int]:
        """:meth:`re.Pattern.subn`."""
        return self.compiled.subn(repl, string, count)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        """:meth:`re.Pattern.split`."""
        return self.compiled.split(string, maxsplit)

    def __repr__(self) -> str:
        return f"LazyPattern({self.source!r}, {self.flags!r})"
