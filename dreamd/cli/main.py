"""Command-line interface: ``main(argv) -> int`` and the argument parser.

Global options (``--config``, ``--workspace``, ``--now``, ``--json``, ``--no-daemon``,
``--log-level``) go before or after the command (:mod:`dreamd.cli.options`). Exit codes: 0
success, 1 an error the user can act on (``dreamd: error: ...`` on stderr), 2 a usage error, 130
interrupted, 3 a bug (the traceback is written to a log file whose path is printed). With
``--json`` every error is ``{"ok": false, "error": {"type", "message"}}`` on stdout instead, with
the same exit code. The verbs live in ``dreamd.cli``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from dreamd import __version__, paths
from dreamd.cli import context
from dreamd.cli.options import (
    DreamdParser,
    UsageError,
    add_global_options,
    commands_of,
    finish,
    merge_late,
)
from dreamd.errors import DreamdError

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import NoReturn

__all__ = ["QUICK", "build_parser", "entry", "main", "quick_parser"]


def _json_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help="machine-readable output"
    )


def _global_parser() -> argparse.ArgumentParser:
    """The parser with the global options, before any command."""
    parser = DreamdParser(
        prog="dreamd",
        description="Background memory consolidation (dreaming) for AI-agent workspaces.",
    )
    parser.add_argument("--version", action="version", version=f"dreamd {__version__}")
    add_global_options(parser)
    return parser


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser (every verb module is imported here, not at the top)."""
    from dreamd.cli import (
        completion,
        configuration,
        demo,
        fleet,
        mcp,
        memory,
        redact,
        service,
        sweeping,
    )

    parser = _global_parser()
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    sweeping.register(commands, _json_flag)
    memory.register(commands, _json_flag)
    configuration.register(commands, _json_flag)
    demo.register(commands, _json_flag)
    service.register(commands, _json_flag)
    fleet.register(commands, _json_flag)
    redact.register(commands, _json_flag)
    completion.register(commands, _json_flag)
    mcp.register(commands, _json_flag)
    return finish(parser)


def _crash_log(exc: BaseException) -> Path | None:
    """Write the traceback to a new log file only its owner may read (0600); its path."""
    import traceback

    text = "".join(traceback.format_exception(exc))
    try:
        directory = paths.log_dir()
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%dT%H%M%S")
        for attempt in range(100):
            path = directory / f"crash-{stamp}{f'-{attempt}' if attempt else ''}.log"
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
            except FileExistsError:
                continue
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                os.fchmod(handle.fileno(), 0o600)  # whatever the umask said
                handle.write(text)
            return path
    except OSError:
        return None
    return None


_VALUED = frozenset({"--config", "--workspace", "--now", "--agent", "--log-level"})
QUICK = frozenset({("memory", "search"), ("memory", "recall")})


def _verb(argv: Sequence[str]) -> tuple[str, ...]:
    """The command and sub-verb ``argv`` names (options and their values skipped)."""
    words: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in _VALUED:
            skip = True
        elif arg in ("-h", "--help", "--version"):
            return ()
        elif not arg.startswith("-"):
            words.append(arg)
            if len(words) == 2:
                break
    return tuple(words)


def quick_parser() -> argparse.ArgumentParser:
    """The parser of ``memory search`` and ``memory recall`` alone (see :func:`main`)."""
    from dreamd.cli import memory

    parser = _global_parser()
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    memory.register_quick(commands, _json_flag)
    return finish(parser)


def _wants_json(words: Sequence[str]) -> bool:
    return "--json" in words[: words.index("--")] if "--" in words else "--json" in words


def _fail(kind: str, message: str, *, as_json: bool, code: int) -> int:
    """Report an error: the JSON error shape on stdout, or ``dreamd: error:`` on stderr."""
    if as_json:
        document = {"ok": False, "error": {"type": kind, "message": message}}
        print(json.dumps(document, ensure_ascii=False))
    else:
        print(f"dreamd: error: {message}", file=sys.stderr)
    return code


def _usage(exc: UsageError, *, as_json: bool) -> int:
    if as_json:
        return _fail("UsageError", f"{exc.parser.prog}: {exc}", as_json=True, code=2)
    exc.parser.print_usage(sys.stderr)
    print(f"{exc.parser.prog}: error: {exc}", file=sys.stderr)
    return 2


def _parse(parser: argparse.ArgumentParser, words: list[str]) -> argparse.Namespace:
    """Parse ``words``; arguments left over are named by the command they were given to."""
    args, extra = parser.parse_known_args(words)
    if extra:
        path = getattr(args, "command_words", ())
        leaf = next((each for words_, each in commands_of(parser) if words_ == path), parser)
        leaf.error(f"unrecognized arguments: {' '.join(extra)}")
    return merge_late(args)


def _complete() -> None:
    """Answer a shell's completion request (argcomplete's protocol), when this is one."""
    if "_ARGCOMPLETE" in os.environ:
        import argcomplete

        argcomplete.autocomplete(build_parser())  # exits after answering


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the process exit code.

    ``memory search`` and ``memory recall``, which agents run on every turn, are parsed by
    :func:`quick_parser`, so their process imports no other verb's module.
    """
    if argv is None:
        _complete()
    words = list(sys.argv[1:] if argv is None else argv)
    as_json = _wants_json(words)
    quick = _verb(words) in QUICK
    try:
        parser = quick_parser() if quick else build_parser()
        args = _parse(parser, words)
    except UsageError as exc:
        return _usage(exc, as_json=as_json)
    except SystemExit as exc:  # --help and --version
        return int(exc.code or 0)
    as_json = bool(getattr(args, "json", False))
    try:
        ctx = context.Context(args, quick=quick)
        code: int = args.handler(ctx)
    except UsageError as exc:
        return _usage(exc, as_json=as_json)
    except DreamdError as exc:
        return _fail(type(exc).__name__, str(exc), as_json=as_json, code=1)
    except KeyboardInterrupt:
        if as_json:
            return _fail("Interrupted", "interrupted", as_json=True, code=130)
        print("dreamd: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    except Exception as exc:  # a bug: keep the evidence, say where it is  # noqa: BLE001
        log = _crash_log(exc)
        where = f"; traceback written to {log}" if log else ""
        if as_json:
            return _fail("InternalError", f"{exc!r}{where}", as_json=True, code=3)
        print(f"dreamd: internal error: {exc!r}{where}", file=sys.stderr)
        return 3
    return code


def entry() -> NoReturn:
    """The ``dreamd`` command (and ``python -m dreamd``): :func:`main`, in a process of its own.

    ``memory search`` and ``memory recall`` run as a short process on every agent turn. For
    them the cyclic garbage collector stays off (imports allocate enough to trigger it again
    and again) and everything still alive is frozen before the interpreter exits, so its final
    collection does not walk every object: some 15 ms of such a process. Every other command,
    the daemon first, runs with the collector as usual.
    """
    quick = _verb(sys.argv[1:]) in QUICK
    if quick:
        gc.disable()
    code = main()
    if quick:
        gc.freeze()
    sys.exit(code)
