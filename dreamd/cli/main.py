"""Command-line interface: ``main(argv) -> int`` and the argument parser.

Global options (``--config``, ``--workspace``, ``--now``, ``--json``) go before the command;
``--json`` is also accepted after it. Exit codes: 0 success, 1 an error the user can act on
(``dreamd: error: ...`` on stderr), 2 a usage error, 130 interrupted, 3 a bug (the traceback is
written to a log file whose path is printed). The verbs live in ``dreamd.cli``.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections.abc import Sequence
from pathlib import Path

from dreamd import __version__, paths
from dreamd.cli import context, demo, memory, service, sweeping
from dreamd.errors import DreamdError

__all__ = ["build_parser", "main"]


def _json_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help="machine-readable output"
    )


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser."""
    parser = argparse.ArgumentParser(
        prog="dreamd",
        description="Background memory consolidation (dreaming) for AI-agent workspaces.",
    )
    parser.add_argument("--version", action="version", version=f"dreamd {__version__}")
    parser.add_argument(
        "--config",
        type=Path,
        help="config file (default: $DREAMD_CONFIG, then the platform config dir)",
    )
    parser.add_argument(
        "--workspace",
        type=Path,
        action="append",
        default=[],
        help="workspace directory (repeatable); overrides config and OpenClaw discovery",
    )
    parser.add_argument("--now", help="fix the clock (ISO-8601), also $DREAMD_NOW")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument(
        "--no-daemon",
        action="store_true",
        help="do the work in this process even when a daemon is running",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    sweeping.register(commands, _json_flag)
    memory.register(commands, _json_flag)
    demo.register(commands, _json_flag)
    service.register(commands, _json_flag)

    return parser


def _crash_log(exc: BaseException) -> Path | None:
    try:
        directory = paths.log_dir()
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"crash-{time.strftime('%Y%m%dT%H%M%S')}.log"
        path.write_text("".join(traceback.format_exception(exc)), encoding="utf-8")
    except OSError:
        return None
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the process exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        ctx = context.Context(args)
        code: int = args.handler(ctx)
    except DreamdError as exc:
        print(f"dreamd: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("dreamd: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    except Exception as exc:  # a bug: keep the evidence, say where it is  # noqa: BLE001
        log = _crash_log(exc)
        where = f"; traceback written to {log}" if log else ""
        print(f"dreamd: internal error: {exc!r}{where}", file=sys.stderr)
        return 3
    return code
