"""``dreamd completion bash|zsh|fish``: the shell's completion script, printed.

argcomplete writes the script and answers it: the shell runs ``dreamd`` with ``_ARGCOMPLETE``
set, :func:`dreamd.cli.main.main` hands that request to argcomplete over the real parser, so
every verb and option completes and none is listed twice. One library for all three shells
(shtab writes no fish script). argcomplete is imported only here and when a shell asks.

Install: ``dreamd completion bash > ~/.local/share/bash-completion/completions/dreamd``,
``dreamd completion zsh > "${fpath[1]}/_dreamd"``, or
``dreamd completion fish > ~/.config/fish/completions/dreamd.fish``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from dreamd.cli.context import Context

__all__ = ["SHELLS", "completion_script", "register"]

SHELLS = ("bash", "zsh", "fish")


def register(commands: Any, json_flag: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add ``completion SHELL``."""
    verb = commands.add_parser("completion", help="print the shell completion script")
    verb.add_argument("shell", choices=SHELLS, help="the shell: bash, zsh or fish")
    verb.set_defaults(handler=run_completion)


def completion_script(shell: str) -> str:
    """The completion script of ``dreamd`` for ``shell``."""
    from argcomplete.shell_integration import shellcode

    return shellcode(["dreamd"], shell=shell)


def run_completion(ctx: Context) -> int:
    """Print the script (with ``--json``: ``{"shell", "script"}``)."""
    script = completion_script(ctx.args.shell)
    ctx.emit({"shell": ctx.args.shell, "script": script}, script.rstrip("\n"))
    return 0
