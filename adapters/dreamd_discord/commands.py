"""The ``/dreaming`` and ``/dream`` command groups, each subcommand one :class:`Invocation`.

Discord has real subcommands, so the words are known: ``/dream rag status`` arrives as the
``status`` command of the ``rag`` group of ``dream`` and becomes ``("rag", "status")``. Every
callback hands the interaction to a :class:`Handler`; this module only declares the shapes
Discord shows (names, descriptions, options, autocomplete).
"""

from __future__ import annotations

from typing import Any, Protocol

from dreamd_discord.sdk import app_commands, discord

__all__ = ["Handler", "command_groups"]

Interaction = discord.Interaction[Any]


class Handler(Protocol):
    """What a command callback calls."""

    async def handle(self, interaction: Interaction, command: str, args: tuple[str, ...]) -> None:
        """Answer ``/command args...`` for this interaction."""

    async def choices(self, interaction: Interaction, current: str) -> list[str]:
        """Autocomplete values for an explain selector starting like ``current``."""


def _dreaming(handler: Handler) -> app_commands.Group:
    group = app_commands.Group(name="dreaming", description="Dreaming on this host")

    @group.command(name="status", description="Show whether dreaming runs and when")
    async def status(interaction: Interaction) -> None:
        await handler.handle(interaction, "dreaming", ("status",))

    @group.command(name="on", description="Turn dreaming on for this host (owners)")
    async def on(interaction: Interaction) -> None:
        await handler.handle(interaction, "dreaming", ("on",))

    @group.command(name="off", description="Turn dreaming off for this host (owners)")
    async def off(interaction: Interaction) -> None:
        await handler.handle(interaction, "dreaming", ("off",))

    @group.command(name="help", description="Usage, status and the phases of a sweep")
    async def help_(interaction: Interaction) -> None:
        await handler.handle(interaction, "dreaming", ("help",))

    return group


def _dream(handler: Handler) -> app_commands.Group:
    group = app_commands.Group(name="dream", description="Memory, recall and sweeps")
    rag = app_commands.Group(name="rag", description="Recall store", parent=group)

    @group.command(name="status", description="Store, signal and diary counts")
    async def status(interaction: Interaction) -> None:
        await handler.handle(interaction, "dream", ("status",))

    @group.command(name="search", description="Search memory; hits cite path#Lx-Ly")
    @app_commands.describe(query="What to look for")
    async def search(interaction: Interaction, query: str) -> None:
        await handler.handle(interaction, "dream", ("search", *query.split()))

    @group.command(name="about", description="What the memory bank knows about someone")
    @app_commands.describe(entity="A person, host or project, as its page is named")
    async def about(interaction: Interaction, entity: str) -> None:
        await handler.handle(interaction, "dream", ("about", *entity.split()))

    @group.command(name="report", description="Latest diary entry and deep report")
    async def report(interaction: Interaction) -> None:
        await handler.handle(interaction, "dream", ("report",))

    @rag.command(name="status", description="Recall store, index and long-term layer")
    async def rag_status(interaction: Interaction) -> None:
        await handler.handle(interaction, "dream", ("rag", "status"))

    @group.command(name="explain", description="Why an entry is (not) promoted")
    @app_commands.describe(selector="Entry key, path or words of its snippet")
    async def explain(interaction: Interaction, selector: str | None = None) -> None:
        await handler.handle(interaction, "dream", ("explain", *(selector or "").split()))

    @explain.autocomplete("selector")
    async def explain_selector(
        interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        values = await handler.choices(interaction, current)
        return [app_commands.Choice(name=value[:100], value=value[:100]) for value in values]

    @group.command(name="now", description="Sweep every workspace now (owners)")
    async def now(interaction: Interaction) -> None:
        await handler.handle(interaction, "dream", ("now",))

    return group


def command_groups(handler: Handler) -> list[app_commands.Group]:
    """The two top-level commands, ready for ``tree.add_command``."""
    return [_dreaming(handler), _dream(handler)]
