"""Chat commands: one router for every platform (SPEC §11). Adapters only translate.

An adapter turns a platform event into an :class:`Invocation` (who, which command, which words,
and where it was said) and sends the :class:`Reply` back; everything else is decided here:

* :func:`parse` reads ``/dreaming status`` or ``/dream@thisbot search billing host`` (a command
  addressed to another bot is not ours: ``None``), and Telegram's ``/start`` and ``/help``; a
  message that says only "dream report" (or "梦境报告") is ``/dream report``. Pure.
* :func:`command_key` names what an invocation asks for (``"dreaming on"``, ``"dream search"``);
  no argument is help, an unknown argument is usage. Pure.
* :func:`authorize` is pure and denies by default: a key missing from the policy is refused.
  Three roles (:mod:`dreamd.chat.access`): everyone may ask for help and the reduced status;
  owners and readers may read memory (``/dream status|search|about|report|rag status|explain``) of
  the agents they read; only owners (channel callers) or ``operator.admin`` (API clients) turn
  dreaming on or off and start a sweep. Help lists only what the actor may run.
* **Groups never see memory.** An invocation says where a reply would show (:class:`Place`).
  In a group where every reply is seen by all (a Telegram group), a command that shows memory
  answers "ask me in a private chat" and shows nothing else; ``/dreaming status`` shrinks to
  what a stranger sees; ``/dreaming on|off`` by an owner says only what changed. Where the
  platform can answer the asker alone (Discord's ephemeral replies), that is how memory is shown.
* Every reply passes :func:`dreamd.chat.text.outward` (redaction and no absolute paths), whatever
  was stored.
* :class:`Router` runs an authorized command against the daemon's :class:`~dreamd.control.Service`
  (:mod:`dreamd.chat.commands`) and never raises: a refusal, a usage error or a failure is a
  reply too. Long replies are split for each platform by :func:`dreamd.chat.text.split_text`.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Protocol, runtime_checkable

from dreamd.chat import commands as run
from dreamd.chat.access import Agents, Grants, Role
from dreamd.chat.text import GROUP_REFUSAL, outward, refusal, usage
from dreamd.control import BusyError, Service
from dreamd.errors import DreamdError

__all__ = [
    "COMMANDS",
    "MEMORY",
    "POLICY",
    "SLOW",
    "Actor",
    "Adapter",
    "Dispatch",
    "Invocation",
    "Notifier",
    "Permission",
    "Place",
    "Reply",
    "Router",
    "authorize",
    "command_key",
    "is_public",
    "parse",
]

_log = logging.getLogger(__name__)
COMMANDS = ("dreaming", "dream", "start", "help")


class Permission(Enum):
    """Who may run a command."""

    ANYONE = "anyone"  # anyone allowed to talk to the bot
    READER = "reader"  # a reader or an owner: shows memory text
    OWNER = "owner"  # an owner (channel callers) or operator.admin (API clients)


POLICY: Mapping[str, Permission] = {
    "start": Permission.ANYONE,
    "help": Permission.ANYONE,
    "dreaming help": Permission.ANYONE,
    "dreaming usage": Permission.ANYONE,
    "dreaming status": Permission.ANYONE,
    "dreaming on": Permission.OWNER,
    "dreaming off": Permission.OWNER,
    "dream help": Permission.ANYONE,
    "dream usage": Permission.ANYONE,
    "dream status": Permission.READER,
    "dream search": Permission.READER,
    "dream report": Permission.READER,
    "dream rag status": Permission.READER,
    "dream explain": Permission.READER,
    "dream about": Permission.READER,
    "dream now": Permission.OWNER,
}
MEMORY = frozenset(key for key, needed in POLICY.items() if needed is Permission.READER)
SLOW = frozenset(
    {
        "dream search",
        "dream about",
        "dream report",
        "dream rag status",
        "dream explain",
        "dream now",
    }
)
PUBLIC_REPLIES = frozenset({"dreaming on", "dreaming off", "dream now"})  # visible to the channel
_RANK = {Role.STRANGER: 0, Role.READER: 1, Role.OWNER: 2}
_NEEDS = {Permission.ANYONE: 0, Permission.READER: 1, Permission.OWNER: 2}


class Place(Enum):
    """Where a reply would show."""

    PRIVATE = "private"  # a direct or private chat, or the API: only the asker sees it
    WHISPER = "whisper"  # a group, but the platform can answer the asker alone (ephemeral)
    GROUP = "group"  # a group where every reply is seen by everyone in it


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
    place: Place = Place.PRIVATE


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


SPOKEN: Mapping[str, tuple[str, ...]] = {"dream report": ("report",), "梦境报告": ("report",)}
"""Whole messages in words that mean a command (the seed's "dream report" / "梦境报告")."""


def parse(
    text: str, *, actor: Actor, platform: str, bot_username: str | None = None
) -> Invocation | None:
    """The invocation in a command message; ``None`` when it is not one of ours."""
    words = text.strip().split()
    said = " ".join(words).lower().rstrip("!?.。！？")
    if said in SPOKEN:  # "dream report" in words means /dream report
        return Invocation(actor, "dream", SPOKEN[said], platform)
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
    if command in ("start", "help"):
        return command
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
        if (first in ("search", "about") and count > 1) or first == "explain":
            return f"dream {first}"
        if first == "rag" and args[1:] == ["status"] and count == 2:
            return "dream rag status"
        return "dream usage"
    return f"{command} unknown"


def authorize(policy: Mapping[str, Permission], role: Role, command: str) -> bool:
    """May an actor of ``role`` run ``command`` (a policy key)? Unknown commands are refused."""
    needed = policy.get(command)
    return needed is not None and _RANK[role] >= _NEEDS[needed]


def is_public(actor: Actor, key: str) -> bool:
    """Whether the reply to ``key`` is shown to the channel (an owner's on/off and now)."""
    return key in PUBLIC_REPLIES and actor.is_owner


class Router:
    """Runs invocations against the daemon's service (see the module rules).

    ``grants`` is asked at every invocation, so a reloaded config's readers apply at once.
    """

    def __init__(
        self,
        service: Service,
        policy: Mapping[str, Permission] = POLICY,
        *,
        grants: Callable[[], Grants] = Grants,
    ) -> None:
        self.service = service
        self.policy = policy
        self.grants = grants

    def role(self, invocation: Invocation) -> Role:
        """The asker's role."""
        actor = invocation.actor
        return self.grants().role(
            invocation.platform, actor.id, is_owner=actor.is_owner, scopes=actor.scopes
        )

    def readable(self, invocation: Invocation) -> Agents:
        """The agents whose memory the asker may read."""
        actor = invocation.actor
        return self.grants().readable(
            invocation.platform, actor.id, is_owner=actor.is_owner, scopes=actor.scopes
        )

    def allowed(self, role: Role) -> frozenset[str]:
        """The policy keys an actor of ``role`` may run (help shows only these)."""
        return frozenset(key for key in self.policy if authorize(self.policy, role, key))

    async def dispatch(self, invocation: Invocation) -> Reply:
        """The reply to ``invocation``; never raises (a failure is a reply too)."""
        if invocation.complete:
            return await self._complete(invocation)
        key = command_key(invocation)
        role = self.role(invocation)
        if not authorize(self.policy, role, key):
            return Reply(refusal(key), ephemeral=True)
        if key in MEMORY and invocation.place is Place.GROUP:
            return Reply(GROUP_REFUSAL, ephemeral=True)
        ephemeral = not is_public(invocation.actor, key)
        roots: Mapping[str, str] = {}
        try:
            roots = await run.labels(self.service)
            text = await self._run(key, invocation, role)
        except BusyError as exc:
            text = str(exc)
        except DreamdError as exc:
            return Reply(outward(f"error: {exc}", roots), ephemeral=True)
        except Exception:  # noqa: BLE001 - a bug must not take the adapter down
            _log.exception("chat command %s failed", key)
            return Reply("internal error; see the daemon log", ephemeral=True)
        return Reply(outward(text, roots), ephemeral=ephemeral)

    async def _complete(self, invocation: Invocation) -> Reply:
        """Autocomplete choices for the last argument of ``invocation`` (explain selectors)."""
        key = command_key(invocation)
        if key != "dream explain" or not authorize(self.policy, self.role(invocation), key):
            return Reply("", choices=())
        partial = " ".join(invocation.args[1:])
        try:
            roots = await run.labels(self.service)
            choices = await run.explain_choices(self.service, partial, self.readable(invocation))
        except DreamdError:
            return Reply("", choices=())
        return Reply("", choices=tuple(outward(choice, roots) for choice in choices))

    async def _run(self, key: str, invocation: Invocation, role: Role) -> str:
        service, args = self.service, invocation.args
        allowed = self.allowed(role)
        # Memory is shown only where the asker alone sees it; the reduced status otherwise.
        full = role is not Role.STRANGER and invocation.place is not Place.GROUP
        readable = self.readable(invocation)
        if key in ("start", "help"):
            return await run.welcome(service, allowed)
        if key in ("dreaming help", "dreaming usage"):
            return await run.dreaming_help(service, allowed, readable if full else None)
        if key == "dreaming status":
            return await run.dreaming_status(service, readable if full else None)
        if key in ("dreaming on", "dreaming off"):
            shown = readable if invocation.place is Place.PRIVATE else None
            return await run.set_dreaming(service, enabled=key == "dreaming on", readable=shown)
        if key in ("dream help", "dream usage"):
            return usage("dream", allowed)
        if key == "dream status":
            return await run.dream_status(service, readable)
        if key == "dream search":
            origin = "owner" if invocation.actor.is_owner else None  # a trace is the owner's
            return await run.dream_search(service, _rest(args), readable, origin=origin)
        if key == "dream report":
            return await run.dream_report(service, readable)
        if key == "dream rag status":
            return await run.rag_status(service, readable)
        if key == "dream explain":
            return await run.dream_explain(service, _rest(args), readable)
        if key == "dream about":
            return await run.dream_about(service, _rest(args), readable)
        if key == "dream now":
            return await run.sweep_now(service)
        raise DreamdError(f"no handler for {key!r}")  # the policy and this table disagree


def _rest(args: tuple[str, ...]) -> str:
    """The words after the subcommand."""
    return " ".join(args[1:]).strip()
