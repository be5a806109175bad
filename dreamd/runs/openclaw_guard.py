"""Whether OpenClaw may be running against a state directory, and its state ownership held.

dreamd writes into OpenClaw's database only while no OpenClaw process can be using it: a
running OpenClaw keeps dreaming state in memory and writes a namespace as a whole, so rows
written under it would be lost or overwritten.

Rules (OpenClaw 2026.9's own state ownership, ``docs/gateway/gateway-lock.md`` there):

* Every OpenClaw process that owns a state directory (the Gateway, an embedded agent run,
  ``doctor``) holds an exclusive transaction on the SQLite coordinator
  ``<state dir>/tmp/openclaw-<uid>/gateway.state.lock.sqlite`` for as long as it runs, and
  records itself in ``gateway.state.lock`` beside it (``{"pid", "role", …}``). The
  coordinator is taken here the same way (``BEGIN EXCLUSIVE``, no wait): if it is held, an
  OpenClaw process owns the directory; while dreamd holds it, none can start.
* A lock file naming a live process (another owner's record) also counts as running.
* On Linux, any process of this user whose command line is OpenClaw's (its ``openclaw``
  executable, ``openclaw.mjs``, or its ``dist/index.js``/``dist/entry.js``) counts as running
  too: OpenClaw's ``memory`` commands do not take the state lock.
* The refusal names what was found (pid and how), so the person can stop it.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from dreamd.errors import DreamdError

__all__ = ["OpenClawRunningError", "find_openclaw_processes", "openclaw_stopped"]

_ENTRIES = ("openclaw.mjs", "openclaw/dist/index.js", "openclaw/dist/entry.js")
_EXECUTABLES = ("openclaw", "openclaw-gateway")


class OpenClawRunningError(DreamdError):
    """OpenClaw may be running: its database must not be written now."""


def _lock_dir(state_dir: Path) -> Path:
    uid = os.getuid() if hasattr(os, "getuid") else None
    return state_dir / "tmp" / (f"openclaw-{uid}" if uid is not None else "openclaw")


def _alive(pid: int) -> bool:
    if pid <= 0 or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _is_openclaw(argv: list[str]) -> bool:
    args = [arg.replace("\\", "/").lower() for arg in argv]
    if not args:
        return False
    if any(arg.endswith(entry) for arg in args for entry in _ENTRIES):
        return True
    return PurePosixPath(args[0]).name in _EXECUTABLES


def find_openclaw_processes(proc: Path = Path("/proc")) -> list[int]:
    """Pids of this user's processes whose command line is OpenClaw's (Linux; else none)."""
    found: list[int] = []
    try:
        entries = list(proc.iterdir())
    except OSError:
        return found
    uid = os.getuid() if hasattr(os, "getuid") else None
    for entry in entries:
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if uid is not None and entry.stat().st_uid != uid:
                continue
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if _is_openclaw([arg.decode("utf-8", "replace") for arg in argv if arg]):
            found.append(int(entry.name))
    return sorted(found)


def _recorded_owners(lock_dir: Path) -> list[str]:
    """Live owners recorded in the lock files, as ``pid N (role)``."""
    owners = []
    for path in sorted(lock_dir.glob("gateway.*lock")):
        try:
            payload = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        pid = payload.get("pid") if isinstance(payload, dict) else None
        if isinstance(pid, int) and _alive(pid):
            owners.append(f"pid {pid} ({payload.get('role') or 'gateway'}, {path.name})")
    return owners


@contextlib.contextmanager
def openclaw_stopped(state_dir: Path, *, proc: Path = Path("/proc")) -> Iterator[None]:
    """Hold OpenClaw's state ownership for ``state_dir`` (see the module rules), or raise
    :class:`OpenClawRunningError` naming what may be running."""
    lock_dir = _lock_dir(state_dir)
    running = [f"pid {pid} (its command line)" for pid in find_openclaw_processes(proc)]
    running += _recorded_owners(lock_dir) if lock_dir.is_dir() else []
    coordinator = None
    if not running and lock_dir.is_dir():
        coordinator = sqlite3.connect(
            lock_dir / "gateway.state.lock.sqlite", timeout=0, isolation_level=None
        )
        try:
            coordinator.execute("PRAGMA busy_timeout = 0")
            coordinator.execute("PRAGMA journal_mode = MEMORY")
            coordinator.execute("BEGIN EXCLUSIVE")
        except sqlite3.OperationalError:
            coordinator.close()
            coordinator = None
            running.append(f"an owner of {lock_dir / 'gateway.state.lock.sqlite'}")
    if running:
        raise OpenClawRunningError(
            f"OpenClaw may be running for {state_dir}: {', '.join(running)}; stop it first "
            "(openclaw gateway stop), then run this again"
        )
    try:
        yield
    finally:
        if coordinator is not None:
            coordinator.execute("ROLLBACK")
            coordinator.close()
