"""Live intake, carried out: one message decided (:mod:`dreamd.engine.intake`) and, when kept,
its line appended at once to the day's log through the one writer.

The owners are the configured chat owners (``adapters.telegram.owners`` as ``telegram:<id>``,
``adapters.discord.owners`` as ``discord:<id>``) and ``intake.owners`` (:func:`owner_ids`).
The day and clock time are the message's arrival in the dreaming timezone. The log is written
under the workspace lock like every write, and an event ``memory.intake.logged`` names the
file and line (never the text). A dropped message writes nothing and says why.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Set
from datetime import datetime, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dreamd.clock import day_of, format_instant
from dreamd.engine.intake import append_log_line, log_path, plan_intake, sender_key
from dreamd.engine.origins import SESSION_KINDS
from dreamd.engine.plan import FileWrite, SweepPlan
from dreamd.errors import DreamdError
from dreamd.layout import check_workspace_folders
from dreamd.runs.remember import LOCK_SECONDS
from dreamd.store.lock import workspace_lock
from dreamd.store.writer import apply_plan
from dreamd.workspace.reader import read_text

if TYPE_CHECKING:
    from dreamd.config import Config

__all__ = ["owner_ids", "owners_of", "take_message"]


def owners_of(config: Config) -> frozenset[str]:
    """:func:`owner_ids` of a configuration."""
    adapters = config.adapters
    return owner_ids(
        telegram=adapters.telegram.owners,
        discord=adapters.discord.owners,
        listed=config.intake.owners,
    )


def owner_ids(
    *, telegram: Iterable[int] = (), discord: Iterable[int] = (), listed: Iterable[str] = ()
) -> frozenset[str]:
    """The owners' sender ids as :func:`~dreamd.engine.intake.sender_key` compares them: the
    chat adapters' owners (``telegram:<id>``, ``discord:<id>``) and ``intake.owners``."""
    found = {f"telegram:{each}" for each in telegram} | {f"discord:{each}" for each in discord}
    found |= {sender_key(each) for each in listed if each.strip()}
    return frozenset(found)


def take_message(
    root: Path,
    text: str,
    *,
    sender: str | None,
    session_kind: str,
    owners: Set[str],
    now: datetime,
    zone: tzinfo,
    fence: Callable[[], object] | None = None,
) -> dict[str, Any]:
    """Log one message (see the module rules); the document says what became of it."""
    if session_kind not in SESSION_KINDS:
        raise DreamdError(f"sessionKind must be one of {', '.join(SESSION_KINDS)}")
    local = now.astimezone(zone)
    decided = plan_intake(
        text,
        sender=sender,
        owners=owners,
        session_kind=session_kind,
        clock=local.strftime("%H:%M"),
    )
    document: dict[str, Any] = {
        "logged": decided.line is not None,
        "origin": decided.origin,
        "kind": decided.kind or None,
        "reason": decided.reason or None,
        "redacted": decided.redacted,
        "path": None,
        "line": None,
    }
    if decided.line is None:
        return document
    day = day_of(now, zone)
    path = log_path(day)
    check_workspace_folders(root, path)
    with workspace_lock(root, timeout=LOCK_SECONDS):
        current = read_text(root, path)
        if current.exists and not current.valid_utf8:
            raise DreamdError(f"{path} is not valid UTF-8; dreamd does not rewrite it")
        new = append_log_line(current.text if current.exists else None, day, decided.line)
        number = new.count("\n")
        event = {
            "type": "memory.intake.logged",
            "timestamp": format_instant(now),
            "path": path,
            "line": number,
            "origin": decided.origin,
        }
        write = FileWrite(path, new, current.digest, "note", (event,))
        apply_plan(root, SweepPlan(writes=(write,)), checkpoint_notes=False, fence=fence)
    return {**document, "path": path, "line": number}
