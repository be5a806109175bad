"""The options every command shares, the examples of ``--help``, and how usage errors surface.

People type global options where they think of them: ``dreamd --json status`` and
``dreamd status --json`` mean the same, and so do ``dreamd --workspace W sweep`` and
``dreamd sweep --workspace W``. The top-level parser holds the real defaults; every command's
own parser gets the same options under a ``late_`` name with no default, and :func:`merge_late`
lays what was typed after the verb over what was typed before it (``--workspace`` adds up).
Every ``memory`` verb takes ``--agent`` itself. :func:`finish` walks the finished parser tree
once: it adds those options, the example of each command (:data:`EXAMPLES`) and a formatter
that keeps the examples' lines.

:class:`DreamdParser` raises :class:`UsageError` instead of exiting, so ``main`` prints usage
errors in the JSON error shape under ``--json`` and in argparse's words otherwise (exit 2).

May import: the standard library and ``dreamd.errors`` only: ``dreamd.cli.main`` imports this
at start-up, and ``memory search`` must start fast.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

from dreamd.errors import DreamdError

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Any, NoReturn

__all__ = [
    "EXAMPLES",
    "LOG_LEVELS",
    "DreamdParser",
    "UsageError",
    "add_global_options",
    "commands_of",
    "finish",
    "merge_late",
    "one_of",
    "semantic_for",
]

LOG_LEVELS = ("debug", "info", "warning", "error")

EXAMPLES: dict[str, str] = {
    "": "dreamd status\n  dreamd memory promote --agent main\n  dreamd COMMAND --help",
    "sweep": "dreamd sweep --workspace ~/agents/ops",
    "status": "dreamd status --deep --json",
    "dreaming": "dreamd dreaming off",
    "run": "dreamd run --log-level debug",
    "config": "dreamd config show --json",
    "config show": "dreamd config show --json",
    "config check": "dreamd config check ~/.config/dreamd/config.toml",
    "completion": "dreamd completion bash > ~/.local/share/bash-completion/completions/dreamd",
    "memory": "dreamd memory status --agent main",
    "memory search": 'dreamd memory search "deploy window" --agent main --k 3',
    "memory recall": 'dreamd memory recall "what does Ana prefer?" --agent main',
    "memory reflect": "dreamd memory reflect --since 7d --apply",
    "memory index": "dreamd memory index --rebuild",
    "memory promote": "dreamd memory promote --agent main --apply",
    "memory promote-explain": 'dreamd memory promote-explain "deploy window"',
    "memory rem-harness": "dreamd memory rem-harness --path ./old-notes --grounded",
    "memory rem-backfill": "dreamd memory rem-backfill --path ./old-notes --stage-short-term",
    "memory shadow-trial": (
        'dreamd memory shadow-trial --candidate "use blue-green" --trial-prompt "deploy?" '
        '--baseline-outcome "asked" --candidate-outcome "did it" --verdict helpful '
        '--reason "saved a question"'
    ),
    "memory status": "dreamd memory status --json",
    "memory report": "dreamd memory report --day 2026-11-29 --agent main",
    "memory forget": 'dreamd memory forget "deploy window" --apply',
    "memory revert": "dreamd memory revert --last --apply",
    "demo": "dreamd demo --dir /tmp/dreamd-demo",
    "service": "dreamd service install --user",
    "service install": "dreamd service install --user --dry-run",
    "service uninstall": "dreamd service uninstall --user",
    "service status": "dreamd service status --json",
    "fleet": "dreamd fleet status",
    "fleet status": "dreamd fleet status --json",
    "redact": "dreamd redact notes.md --json",
}
"""One example per command (``--help`` shows it; a test fails when a command has none)."""


class UsageError(DreamdError):
    """The command line cannot be parsed; ``parser`` is the (sub)command that says so."""

    def __init__(self, message: str, parser: argparse.ArgumentParser) -> None:
        super().__init__(message)
        self.parser = parser


@cache
def _columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` finds it (``$COLUMNS``, else the
    terminal on standard output, else 80), asked once: argparse would import shutil, and with
    it the archive modules, for every option it adds."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class DreamdParser(argparse.ArgumentParser):
    """An argument parser that raises :class:`UsageError` rather than printing and exiting."""

    def error(self, message: str) -> NoReturn:
        """Hand the usage error to ``main`` (see the module docstring)."""
        raise UsageError(message, self)

    def _get_formatter(self) -> argparse.HelpFormatter:
        make: Callable[..., argparse.HelpFormatter] = self.formatter_class
        return make(prog=self.prog, width=_columns() - 2)  # the width argparse's default gives


def one_of(what: str, choices: tuple[str, ...]) -> Callable[[str], str]:
    """An argparse ``type`` that takes ``choices`` in any case and names an unknown word."""

    def check(raw: str) -> str:
        word = raw.lower()
        if word not in choices:
            raise argparse.ArgumentTypeError(
                f"unknown {what} {raw!r}; expected one of {', '.join(choices)}"
            )
        return word

    return check


def _workspace(raw: str) -> Path:
    """A ``--workspace`` argument, from the shell's current directory (one rule for paths)."""
    return Path(raw).expanduser().absolute()


def _config(raw: str) -> Path:
    return Path(raw).expanduser().absolute()


_GLOBAL: tuple[tuple[str, dict[str, Any]], ...] = (
    (
        "--config",
        {
            "type": _config,
            "metavar": "PATH",
            "help": "config file (default: $DREAMD_CONFIG, then the platform config dir)",
        },
    ),
    (
        "--workspace",
        {
            "type": _workspace,
            "action": "append",
            "metavar": "PATH",
            "help": "workspace directory (repeatable); overrides config and OpenClaw discovery",
        },
    ),
    ("--now", {"metavar": "ISO-8601", "help": "fix the clock (ISO-8601), also $DREAMD_NOW"}),
    ("--json", {"action": "store_true", "help": "machine-readable output"}),
    (
        "--no-daemon",
        {
            "action": "store_true",
            "help": "do the work in this process even when a daemon is running",
        },
    ),
    (
        "--log-level",
        {
            "type": str.lower,
            "choices": LOG_LEVELS,
            "help": "log level of this process (default: [log] level, $DREAMD_LOG_LEVEL, info)",
        },
    ),
)
_DEFAULTS: dict[str, Any] = {"workspace": [], "json": False, "no_daemon": False}


def _dest(flag: str) -> str:
    return flag.lstrip("-").replace("-", "_")


def add_global_options(parser: argparse.ArgumentParser, *, late: bool = False) -> None:
    """Add the global options: with their defaults, or (``late``) as ``late_*`` without any."""
    taken = parser._option_string_actions
    group = parser.add_argument_group("global options (also before the command)") if late else None
    for flag, options in _GLOBAL:
        if late and flag in taken:
            continue  # the command has its own (``--json`` on most of them)
        dest = _dest(flag)
        if group is not None:
            group.add_argument(flag, dest=f"late_{dest}", default=argparse.SUPPRESS, **options)
        else:
            parser.add_argument(flag, dest=dest, default=_DEFAULTS.get(dest), **options)


def merge_late(args: argparse.Namespace) -> argparse.Namespace:
    """Lay the global options given after the command over those given before it."""
    for flag, _ in _GLOBAL:
        dest = _dest(flag)
        late = vars(args).pop(f"late_{dest}", None)
        if late is None:
            continue
        setattr(args, dest, [*getattr(args, dest), *late] if dest == "workspace" else late)
    return args


def commands_of(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every parser in the tree under ``parser`` with its command words, ``parser`` first."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from commands_of(child, (*path, name))


def _is_leaf(parser: argparse.ArgumentParser) -> bool:
    return not any(isinstance(a, argparse._SubParsersAction) for a in parser._actions)


def _plain_example(path: tuple[str, ...], parser: argparse.ArgumentParser) -> str:
    """The command with its required arguments, for a command :data:`EXAMPLES` lacks."""
    needed = [
        action.metavar or action.dest.upper()
        for action in parser._actions
        if (action.required or not action.option_strings)
        and not isinstance(action, argparse._SubParsersAction)
        and action.nargs not in ("?", "*")
    ]
    return " ".join(["dreamd", *path, *map(str, needed)])


def finish(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the late options, ``--agent`` on memory verbs, examples and formatting (see above)."""
    for path, each in commands_of(parser):
        each.formatter_class = argparse.RawDescriptionHelpFormatter
        example = EXAMPLES.get(" ".join(path)) or _plain_example(path, each)
        each.epilog = f"example:\n  {example}"
        if not path or not _is_leaf(each):
            continue
        each.set_defaults(command_words=path)  # leftover arguments are named by their command
        add_global_options(each, late=True)
        if path[0] == "memory" and "--agent" not in each._option_string_actions:
            each.add_argument(
                "--agent",
                default=argparse.SUPPRESS,
                metavar="ID",
                help="the agent whose workspace to use, when there are several",
            )
    return parser


def semantic_for(index: Any, settings: dict[str, Any] | None, **options: Any) -> Any:
    """A context attaching semantic recall to ``index`` when ``[embeddings]`` is configured
    (:func:`dreamd.model.embeddings.semantic_recall`); without it nothing more is imported."""
    if not settings:
        from contextlib import nullcontext

        return nullcontext(None)
    from dreamd.model.embeddings import semantic_recall

    return semantic_recall(index, settings, **options)
