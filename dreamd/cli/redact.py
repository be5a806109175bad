"""``dreamd redact [FILE|-] [--json]``: the text as dreamd would store it.

Reads FILE (``-`` or nothing: standard input) as UTF-8 and prints it with every secret and
personal datum masked, line for line, exactly as the recall index and the reports keep it
(:func:`dreamd.redaction.redact`). With ``--json``: ``{"text": …, "findings": [{"kind", "start",
"end"}]}``, offsets in characters into the input. A file that cannot be read or is not UTF-8 is
an error (exit 1). Reads no config and touches no workspace.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dreamd.cli.context import Context
from dreamd.errors import DreamdError

__all__ = ["register"]


def register(commands: Any, json_flag: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add the ``redact`` verb."""
    verb = commands.add_parser(
        "redact", help="print a text as dreamd would store it: secrets and personal data masked"
    )
    verb.add_argument("file", nargs="?", default="-", help="the text to read (default: stdin)")
    json_flag(verb)
    verb.set_defaults(handler=run)


def _read(name: str) -> str:
    where = "standard input" if name == "-" else name
    try:
        data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
    except FileNotFoundError as exc:
        raise DreamdError(f"{name}: no such file") from exc
    except OSError as exc:
        raise DreamdError(f"cannot read {where}: {exc.strerror or exc}") from exc
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DreamdError(
            f"{where} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})"
        ) from exc


def run(ctx: Context) -> int:
    """Print the redacted text, or the JSON document with its findings."""
    from dreamd.redaction import find_secrets, mask_findings

    text = _read(ctx.args.file)
    findings = find_secrets(text)
    if ctx.json:
        document = {
            "text": mask_findings(text, findings),
            "findings": [f.as_json() for f in findings],
        }
        ctx.emit(document, "")
    else:
        sys.stdout.write(mask_findings(text, findings))
        sys.stdout.flush()
    return 0
