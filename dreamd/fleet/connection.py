"""Reaching the fleet's Redis: the URL, shown without its password, and lazily built clients.

``redis`` is the optional ``[fleet]`` extra: it is imported here, inside functions, so nothing
loads it on a host without ``[fleet]``. The URL comes from ``fleet.redis`` or the environment
variable ``fleet.redis_url_env`` names; TLS (``rediss://``, with ``ssl_ca_certs=`` and the
other TLS options as query parameters), a password (``redis://:pass@``) and an ACL user
(``redis://user:pass@``) ride in it. :func:`shown` is the only form that may reach a log line, a
status document or an error; :func:`reason` says what went wrong with a Redis call without
quoting the server beyond the command it refused.
"""

from __future__ import annotations

import os
import re
import socket
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from dreamd.config import FleetConfig
from dreamd.errors import FleetError

if TYPE_CHECKING:
    import redis
    import redis.asyncio

__all__ = [
    "COMMAND_SECONDS",
    "async_client",
    "host_id_of",
    "reason",
    "redis_errors",
    "redis_url",
    "shown",
    "sync_client",
]

COMMAND_SECONDS = 3.0
"""A Redis command that takes longer counts as the coordinator being unreachable."""


def redis_url(config: FleetConfig) -> str:
    """The URL to connect to (never print it: see :func:`shown`)."""
    if config.redis:
        return config.redis
    name = config.redis_url_env or ""
    value = os.environ.get(name, "").strip()
    if not value:
        raise FleetError(f"fleet.redis_url_env: environment variable {name} is not set or empty")
    if not value.startswith(("redis://", "rediss://", "unix://")):
        raise FleetError(
            f"fleet.redis_url_env: {name} does not hold a redis://, rediss:// or unix:// URL"
        )
    return value


def shown(url: str) -> str:
    """``url`` with any password (userinfo or ``?password=``) replaced by ``***``."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    if any(name == "password" for name, _ in query):
        masked = [(name, "***" if name == "password" else value) for name, value in query]
        parts = parts._replace(query=urlencode(masked, safe="*/"))
    if parts.password is None:
        return urlunsplit(parts)
    user = parts.username or ""
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}{port}"))


def user_of(url: str) -> str:
    """The Redis user the URL logs in as (``default`` when it names none)."""
    return urlsplit(url).username or "default"


def host_id_of(config: FleetConfig) -> str:
    """This host's id: ``fleet.host_id``, else the hostname."""
    return config.host_id or socket.gethostname()


def redis_errors() -> tuple[type[BaseException], ...]:
    """What a failed Redis call raises: connection refused, a timeout, a dropped socket, and
    any error the server answered (a refused permission, a key of the wrong type)."""
    import redis.exceptions

    return (redis.exceptions.RedisError, OSError)


_COMMAND = re.compile(r"permissions to (?:run|access) the '([A-Za-z|_-]{1,40})' command")
_KEY = re.compile(r"permissions to access (?:a|one of the) key", re.IGNORECASE)
_CHANNEL = re.compile(r"permissions to access (?:a|one of the) channel", re.IGNORECASE)


def reason(exc: BaseException, url: str) -> str:
    """What a failed Redis call means, for status and ``dreamd: error: ...`` (see the module
    rules: the URL as shown, the user, and at most the name of a refused command)."""
    import redis.exceptions

    where, user = shown(url), user_of(url)
    if isinstance(exc, redis.exceptions.AuthenticationError):
        return f"the fleet's Redis at {where} refused the password of user {user!r}"
    text = str(exc)
    refused = isinstance(exc, redis.exceptions.NoPermissionError) or "no permissions" in text
    if isinstance(exc, redis.exceptions.ResponseError) and refused:
        if found := _COMMAND.search(text):
            what = f"run the {found.group(1).lower()!r} command"
        elif _KEY.search(text):
            what = "use a key of this fleet"
        elif _CHANNEL.search(text):
            what = "use a pub/sub channel"
        else:
            what = "run a command it needs"
        return (
            f"the fleet's Redis at {where} does not let user {user!r} {what}; "
            "grant the ACL rules docs/fleet.md lists"
        )
    if isinstance(exc, redis.exceptions.ResponseError):
        return f"the fleet's Redis at {where} refused a command ({type(exc).__name__})"
    return f"cannot reach the fleet's Redis at {where} ({type(exc).__name__})"


def _options() -> dict[str, Any]:
    return {
        "decode_responses": True,
        "socket_timeout": COMMAND_SECONDS,
        "socket_connect_timeout": COMMAND_SECONDS,
        "health_check_interval": 10,
        "driver_info": None,  # no CLIENT SETINFO: the ACL need not allow it (Redis < 7.2 lacks it)
    }


def _missing(exc: ImportError) -> FleetError:
    return FleetError(f"[fleet] needs the redis client: pip install 'dreamd[fleet]' ({exc})")


def async_client(url: str) -> redis.asyncio.Redis:
    """An asyncio client (a connection pool; nothing connects until the first command).

    A command is retried once, at once, on a dropped connection: a pooled connection that
    outlived a Redis restart reconnects instead of reporting an outage that is already over.
    """
    try:
        import redis.asyncio
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff
    except ImportError as exc:
        raise _missing(exc) from exc
    client: redis.asyncio.Redis = redis.asyncio.Redis.from_url(
        url, retry=Retry(NoBackoff(), 1), **_options()
    )
    return client


def sync_client(url: str) -> redis.Redis:
    """A blocking client, for locks (portalocker's RedisLock is threaded) and one-shot commands."""
    try:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry
    except ImportError as exc:
        raise _missing(exc) from exc
    client: redis.Redis = redis.Redis.from_url(url, retry=Retry(NoBackoff(), 1), **_options())
    return client
