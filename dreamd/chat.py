"""Chat commands: one router for every platform (SPEC §11). Adapters only translate.

An adapter turns a platform event into an :class:`Invocation` (who, which command, which words)
and sends the :class:`Reply` back; everything else is decided here:

* :func:`parse` reads ``/dreaming status`` or ``/dream@thisbot search billing host`` (a command
  addressed to another bot is not ours: ``None``). Pure.
* :func:`command_key` names what an invocation asks for (``"dreaming on"``, ``"dream search"``);
  no argument is help, an unknown argument is usage. Pure.
* :func:`authorize` is pure and denies by default: a key missing from the policy is refused.
  ``on``/``off`` and ``now`` need owner status (channel callers) or ``operator.admin``
  (API clients); the rest is open to anyone allowed to talk to the bot. Help lists only what
  the actor may run.
* :class:`Router` runs an authorized command against the daemon's :class:`~dreamd.web.Service`
  (:mod:`dreamd.chat_commands`) and never raises: a refusal, a usage error or a failure is a
  reply too. Long replies are split for each platform by :func:`dreamd.chat_text.split_text`.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Protocol, runtime_checkable

from dreamd import chat_commands as run
from dreamd.chat_text import refusal, usage
from dreamd.errors import DreamdError
from dreamd.web import ADMIN, BusyError, Service

__all__ = [
    "POLICY",
    "SLOW",
    "Actor",
    "Adapter",
    "Dispatch",
    "Invocation",
    "Notifier",
    "Permission",
    "Reply",
    "Router",
    "authorize",
    "command_key",
    "is_ephemeral",
    "parse",
]

_log = logging.getLogger(__name__)
COMMANDS = ("dreaming", "dream")


class Permission(Enum):
    """Who may run a command."""

    ANYONE = "anyone"  # anyone allowed to talk to the bot
    OWNER = "owner"  # an owner (channel callers) or operator.admin (API clients)


POLICY: Mapping[str, Permission] = {
    "dreaming help": Permission.ANYONE,
    "dreaming usage": Permission.ANYONE,
    "dreaming status": Permission.ANYONE,
    "dreaming on": Permission.OWNER,
    "dreaming off": Permission.OWNER,
    "dream help": Permission.ANYONE,
    "dream usage": Permission.ANYONE,
    "dream status": Permission.ANYONE,
    "dream search": Permission.ANYONE,
    "dream report": Permission.ANYONE,
    "dream rag status": Permission.ANYONE,
    "dream explain": Permission.ANYONE,
    "dream now": Permission.OWNER,
}
SLOW = frozenset({"dream search", "dream report", "dream rag status", "dream explain", "dream now"})
PUBLIC_REPLIES = frozenset({"dreaming on", "dreaming off", "dream now"})  # visible to the channel


@dataclass(frozen=True)
class Actor:
    """Who is asking: a platform user id, owner status, and API scopes (API clients only)."""

    id: str
    is_owner: bool = False
    scopes: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Invocation:
    """One command: ``/dream search billing host`` is ``("dream", ("search", "billing", ...))``."""

    actor: Actor
    command: str
    args: tuple[str, ...] = ()
    platform: str = "api"
    complete: bool = False  # asks for autocomplete choices of the last argument, not a run


@dataclass(frozen=True)
class Reply:
    """What to answer; ``ephemeral`` replies are shown to the asker only where possible."""

    text: str
    ephemeral: bool = True
    choices: tuple[str, ...] = ()  # autocomplete suggestions, for adapters that offer them


Dispatch = Callable[[Invocation], Awaitable[Reply]]


class Adapter(Protocol):
    """A chat platform: translates its events into invocations until cancelled."""

    name: str

    async def run(self, dispatch: Dispatch) -> None:
        """Serve until cancelled; raise when the platform fails (the daemon retries)."""


@runtime_checkable
class Notifier(Protocol):
    """An adapter that can message its owners (health events, ``blocked``)."""

    async def notify(self, text: str) -> None:
        """Send ``text`` to every owner who opted in."""


def parse(
    text: str, *, actor: Actor, platform: str, bot_username: str | None = None
) -> Invocation | None:
    """The invocation in a command message; ``None`` when it is not one of ours."""
    words = text.strip().split()
    if not words or not words[0].startswith("/"):
        return None
    name, _, addressee = words[0][1:].partition("@")
    if addressee and (bot_username is None or addressee.lower() != bot_username.lower()):
        return None
    if name.lower() not in COMMANDS:
        return None
    return Invocation(actor, name.lower(), tuple(words[1:]), platform)


def command_key(invocation: Invocation) -> str:
    """The policy key of an invocation (see the module rules)."""
    command = invocation.command
    args = [arg.lower() for arg in invocation.args[:2]]
    first = args[0] if args else "help"
    if command == "dreaming":
        if first in ("help", "options", "phases"):
            return "dreaming help"
        if first in ("status", "on", "off") and len(invocation.args) == 1:
            return f"dreaming {first}"
        return "dreaming usage"
    if command == "dream":
        count = len(invocation.args)
        if first == "help":
            return "dream help"
        if first in ("status", "report", "now") and count == 1:
            return f"dream {first}"
        if (first == "search" and count > 1) or first == "explain":
            return f"dream {first}"
        if first == "rag" and args[1:] == ["status"] and count == 2:
            return "dream rag status"
        return "dream usage"
    return f"{command} unknown"


def authorize(policy: Mapping[str, Permission], actor: Actor, command: str) -> bool:
    """May ``actor`` run ``command`` (a policy key)? Unknown commands are refused."""
    needed = policy.get(command)
    if needed is Permission.ANYONE:
        return True
    if needed is Permission.OWNER:
        return actor.is_owner or ADMIN in actor.scopes
    return False


def is_ephemeral(key: str) -> bool:
    """Whether the reply to ``key`` is for the asker only (the channel sees on/off and now)."""
    return key not in PUBLIC_REPLIES


class Router:
    """Runs invocations against the daemon's service (see the module rules)."""

    def __init__(self, service: Service, policy: Mapping[str, Permission] = POLICY) -> None:
        self.service = service
        self.policy = policy

    def allowed(self, actor: Actor) -> frozenset[str]:
        """The policy keys ``actor`` may run (help shows only these)."""
        return frozenset(key for key in self.policy if authorize(self.policy, actor, key))

    async def dispatch(self, invocation: Invocation) -> Reply:
        """The reply to ``invocation``; never raises (a failure is a reply too)."""
        if invocation.complete:
            return await self._complete(invocation)
        key = command_key(invocation)
        ephemeral = is_ephemeral(key)
        if not authorize(self.policy, invocation.actor, key):
            return Reply(refusal(key), ephemeral=True)
        try:
            text = await self._run(key, invocation)
        except BusyError as exc:
            return Reply(str(exc), ephemeral=ephemeral)
        except DreamdError as exc:
            return Reply(f"error: {exc}", ephemeral=True)
        except Exception:  # noqa: BLE001 - a bug must not take the adapter down
            _log.exception("chat command %s failed", key)
            return Reply("internal error; see the daemon log", ephemeral=True)
        return Reply(text, ephemeral=ephemeral)

    async def _complete(self, invocation: Invocation) -> Reply:
        """Autocomplete choices for the last argument of ``invocation`` (explain selectors)."""
        key = command_key(invocation)
        if key != "dream explain" or not authorize(self.policy, invocation.actor, key):
            return Reply("", choices=())
        partial = " ".join(invocation.args[1:])
        try:
            choices = await run.explain_choices(self.service, partial)
        except DreamdError:
            choices = ()
        return Reply("", choices=choices)

    async def _run(self, key: str, invocation: Invocation) -> str:
        service, args = self.service, invocation.args
        allowed = self.allowed(invocation.actor)
        if key in ("dreaming help", "dreaming usage"):
            return await run.dreaming_help(service, allowed)
        if key == "dreaming status":
            return await run.dreaming_status(service)
        if key in ("dreaming on", "dreaming off"):
            return await run.set_dreaming(service, enabled=key == "dreaming on")
        if key in ("dream help", "dream usage"):
            return usage("dream", allowed)
        if key == "dream status":
            return await run.dream_status(service)
        if key == "dream search":
            origin = "owner" if invocation.actor.is_owner else None
            return await run.dream_search(service, _rest(args), origin=origin)
        if key == "dream report":
            return await run.dream_report(service)
        if key == "dream rag status":
            return await run.rag_status(service)
        if key == "dream explain":
            return await run.dream_explain(service, _rest(args))
        if key == "dream now":
            return await run.sweep_now(service)
        raise DreamdError(f"no handler for {key!r}")  # the policy and this table disagree


def _rest(args: tuple[str, ...]) -> str:
    """The words after the subcommand."""
    return " ".join(args[1:]).strip()
