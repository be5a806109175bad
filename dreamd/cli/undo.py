"""``dreamd memory forget SELECTOR``, ``dreamd memory revert`` and ``dreamd memory restore
SELECTOR``: undoing promotions, and bringing an archived entry back.

All preview by default: they print what would change in MEMORY.md as a unified diff and write
nothing; ``--apply`` writes through the workspace lock and the one writer, which keeps the
MEMORY.md being replaced in ``memory/.dreams/backups/`` first, so an undo can be undone with
``revert --last``. Each apply adds a diary entry to DREAMS.md. A person's text is never lost
silently: a hand-edited entry (forget) or a person's line missing from the backup (revert) is
refused unless ``--force``. The rules are :mod:`dreamd.engine.phases.undo`'s.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dreamd.cli.context import Context
from dreamd.clock import day_of, long_date
from dreamd.errors import DreamdError
from dreamd.layout import BACKUP_DIR

if TYPE_CHECKING:  # the engine and the writer load when a verb runs, not to parse
    from typing import TypeVar

    from dreamd.engine.phases.restore import RestorePlan
    from dreamd.engine.phases.undo import ForgetPlan, RevertPlan
    from dreamd.engine.plan import SweepPlan
    from dreamd.engine.snapshot import Snapshot

    _Planned = TypeVar("_Planned", ForgetPlan, RevertPlan, RestorePlan)

__all__ = ["register"]


def register(verbs: Any, json_flag: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add ``forget``, ``revert`` and ``restore`` under ``dreamd memory``."""
    forget = verbs.add_parser(
        "forget", help="take one promoted entry out of MEMORY.md (preview; --apply to write)"
    )
    forget.add_argument("selector", help="the entry's promotion key, or text of its key or line")
    forget.add_argument("--apply", action="store_true", help="write the change")
    forget.add_argument(
        "--allow-repromote",
        action="store_true",
        help="let its sources be promoted again if they earn it (default: never again)",
    )
    forget.add_argument(
        "--force", action="store_true", help="remove the entry even if a person edited it"
    )
    json_flag(forget)
    forget.set_defaults(handler=run_forget)

    revert = verbs.add_parser(
        "revert", help="restore MEMORY.md from a backup (preview; --apply to write)"
    )
    which = revert.add_mutually_exclusive_group()
    which.add_argument(
        "--last", action="store_true", help="the newest backup that differs (the default)"
    )
    which.add_argument("--to", metavar="BACKUP", help="a backup's file name in " + BACKUP_DIR)
    revert.add_argument("--apply", action="store_true", help="write the change")
    revert.add_argument(
        "--force", action="store_true", help="revert even if lines a person wrote would be lost"
    )
    revert.add_argument(
        "--allow-repromote",
        action="store_true",
        help="let the entries it takes out be promoted again (default: never again)",
    )
    json_flag(revert)
    revert.set_defaults(handler=run_revert)

    restore = verbs.add_parser(
        "restore",
        help="put an entry from memory/archive.md back into MEMORY.md (preview; --apply to write)",
    )
    restore.add_argument("selector", help="the entry's promotion key, or text of its key or line")
    restore.add_argument("--apply", action="store_true", help="write the change")
    json_flag(restore)
    restore.set_defaults(handler=run_restore, force=False)


def _apply(ctx: Context, plan_of: Callable[..., _Planned]) -> tuple[_Planned, tuple[str, ...]]:
    """Plan again under the lock from a fresh read (``--force`` as given) and write it: the
    plan carried out and the files it changed."""
    from dreamd.runs.sweep import run_planned

    planned: list[_Planned] = []

    def planner(fresh: Snapshot) -> SweepPlan:
        planned.append(plan_of(fresh, force=ctx.args.force))
        return planned[-1].plan

    workspace = ctx.workspace(ctx.args.agent)
    outcome = run_planned(
        workspace.root,
        planner,
        dreaming=ctx.config.dreaming,
        now=ctx.now,
        zone=ctx.zone,
        agents=workspace.agents,
    )
    if outcome.error:
        raise DreamdError(outcome.error)
    return planned[-1], outcome.changed


def run_restore(ctx: Context) -> int:
    """Preview (or apply) putting one archived entry back into MEMORY.md."""
    from dreamd.engine.phases.restore import plan_restore
    from dreamd.engine.phases.undo import memory_diff

    args = ctx.args
    day = day_of(ctx.now, ctx.zone)
    budget = ctx.config.dreaming.deep.memory_file_max_chars

    def plan_of(snapshot: Snapshot, *, force: bool) -> RestorePlan:
        del force
        return plan_restore(snapshot, args.selector, now=ctx.now, day=day, max_chars=budget)

    snapshot = ctx.snapshot()
    preview = plan_of(snapshot, force=False)
    diff = memory_diff(snapshot.memory.text, preview.memory_text)
    changed: tuple[str, ...] = ()
    if args.apply:
        preview, changed = _apply(ctx, plan_of)
    backup = _newest_backup(ctx) if changed else None
    entry = preview.entry
    document = {
        "workspaceDir": str(snapshot.root),
        "selector": args.selector,
        "entry": {"key": entry.key, "line": entry.line, "archived": entry.day, "why": entry.why},
        "diff": diff,
        "applied": bool(args.apply),
        "backup": backup,
        "changedFiles": list(changed),
    }
    lines = [
        f"Restore ({snapshot.root})",
        f"entry: {entry.key} (archived {entry.day}: {entry.why})",
        f"  {entry.line}",
        diff.rstrip("\n"),
        *_closing(bool(args.apply), changed, backup),
    ]
    ctx.emit(document, "\n".join(lines))
    return 0


def _newest_backup(ctx: Context) -> str | None:
    from dreamd.workspace.backups import list_backups

    backups = list_backups(ctx.workspace(ctx.args.agent).root)
    return backups[-1].name if backups else None


def _closing(applied: bool, changed: tuple[str, ...], backup: str | None) -> list[str]:
    if not applied:
        return ["Preview only: nothing was written. Run it again with --apply."]
    if not changed:
        return ["Nothing to change."]
    lines = [f"Written: {', '.join(changed)}."]
    if backup:
        lines.append(f"The previous MEMORY.md is kept as {BACKUP_DIR}/{backup}.")
    lines.append("Undo with: dreamd memory revert --last --apply")
    return lines


def run_forget(ctx: Context) -> int:
    """Preview (or apply) taking one promoted entry out of MEMORY.md."""
    from dreamd.engine.phases.undo import memory_diff, plan_forget

    args = ctx.args
    date_line = long_date(ctx.now, ctx.zone)

    def plan_of(snapshot: Snapshot, *, force: bool) -> ForgetPlan:
        return plan_forget(
            snapshot,
            args.selector,
            now=ctx.now,
            date_line=date_line,
            allow_repromote=args.allow_repromote,
            force=force,
        )

    snapshot = ctx.snapshot()
    preview = plan_of(snapshot, force=True)  # a preview shows what --force would do, too
    diff = memory_diff(snapshot.memory.text, preview.memory_text)
    changed: tuple[str, ...] = ()
    if args.apply:
        preview, changed = _apply(ctx, plan_of)
    entry = preview.entry
    backup = _newest_backup(ctx) if changed else None
    refused = (
        "the entry was edited by hand since it was promoted; --force removes it anyway"
        if preview.edited and not args.force
        else None
    )
    document = {
        "workspaceDir": str(snapshot.root),
        "selector": args.selector,
        "entry": {"key": entry.key, "line": entry.line, "text": entry.text},
        "sources": [
            {"key": row.key, "path": row.path, "startLine": row.start_line, "endLine": row.end_line}
            for row in preview.sources
        ],
        "allowRepromote": args.allow_repromote,
        "editedByHand": preview.edited,
        "refused": refused,
        "diff": diff,
        "applied": bool(args.apply),
        "backup": backup,
        "changedFiles": list(changed),
    }
    after = (
        "they may be promoted again if they earn it"
        if args.allow_repromote
        else "they will never be promoted again (--allow-repromote to let them back)"
    )
    lines = [
        f"Forget ({snapshot.root})",
        f"entry: MEMORY.md:{entry.line} ({entry.key})",
        f"  {entry.text}",
        f"sources marked: {len(preview.sources)}; {after}",
        *(f"  {row.path}:{row.start_line}-{row.end_line}" for row in preview.sources),
        *([f"would be refused: {refused}"] if refused else []),
        diff.rstrip("\n"),
        *_closing(bool(args.apply), changed, backup),
    ]
    ctx.emit(document, "\n".join(lines))
    return 0


def _chosen_backup(ctx: Context, current: str) -> tuple[str, str, list[str]]:
    """The backup to restore (name, text) and every backup's name, newest last."""
    from dreamd.workspace.backups import list_backups, read_backup

    root = ctx.workspace(ctx.args.agent).root
    names = [backup.name for backup in list_backups(root)]
    if ctx.args.to:
        name = ctx.args.to.rsplit("/", 1)[-1]
        return name, read_backup(root, name), names
    for name in reversed(names):
        text = read_backup(root, name)
        if text != current:
            return name, text, names
    if names:
        raise DreamdError(f"every backup in {root / BACKUP_DIR} matches MEMORY.md; nothing to undo")
    raise DreamdError(f"no backups of MEMORY.md in {root / BACKUP_DIR} yet; nothing to undo")


def _tool_lines(root: Path) -> frozenset[str]:
    """Digests of the MEMORY.md lines agents' memory tools wrote (``memory.edited`` events)."""
    from dreamd.store.events import read_events

    return frozenset(
        str(event["lineHash"])
        for event in read_events(root)
        if event.get("type") == "memory.edited" and event.get("lineHash")
    )


def run_revert(ctx: Context) -> int:
    """Preview (or apply) restoring MEMORY.md from a backup."""
    from dreamd.engine.phases.undo import memory_diff, plan_revert

    args = ctx.args
    date_line = long_date(ctx.now, ctx.zone)
    snapshot = ctx.snapshot()
    name, text, names = _chosen_backup(ctx, snapshot.memory.text)

    tool_lines = _tool_lines(ctx.workspace(args.agent).root)

    def plan_of(fresh: Snapshot, *, force: bool) -> RevertPlan:
        return plan_revert(
            fresh,
            name,
            text,
            now=ctx.now,
            date_line=date_line,
            force=force,
            allow_repromote=args.allow_repromote,
            tool_lines=tool_lines,
        )

    preview = plan_of(snapshot, force=True)  # a preview shows what --force would do, too
    diff = memory_diff(snapshot.memory.text, text)
    changed: tuple[str, ...] = ()
    if args.apply:
        preview, changed = _apply(ctx, plan_of)
    backup = _newest_backup(ctx) if changed else None
    document = {
        "workspaceDir": str(snapshot.root),
        "backup": name,
        "backups": names,
        "removedEntries": list(preview.removed),
        "restoredEntries": list(preview.restored),
        "humanLinesLost": list(preview.lost),
        "forced": bool(args.force),
        "allowRepromote": args.allow_repromote,
        "diff": diff,
        "applied": bool(args.apply),
        "keptAs": backup,
        "changedFiles": list(changed),
    }
    lines = [
        f"Revert ({snapshot.root})",
        f"backup: {BACKUP_DIR}/{name}",
        f"promoted entries taken out: {len(preview.removed)}, put back: {len(preview.restored)}",
    ]
    if preview.lost:
        verb = "were" if args.force and changed else "would be"
        lines.append(f"lines a person wrote that {verb} lost: {len(preview.lost)}")
        lines += [f"  {line}" for line in preview.lost]
        if not args.force:
            lines.append("would be refused: --force reverts anyway")
    lines += [diff.rstrip("\n") or "(MEMORY.md already matches this backup)"]
    lines += _closing(bool(args.apply), changed, backup)
    ctx.emit(document, "\n".join(lines))
    return 0
