"""systemd units for dreamd, rendered from the templates in ``dreamd/service/templates``.

Pure: values in, text out; the templates are package data read with :mod:`importlib.resources`,
so they ship in the wheel. Rules:

* Every path written is absolute; nothing relies on the service manager expanding ``~``.
* A word written into a unit is quoted for systemd, ``%`` escaped everywhere and ``$`` on
  command lines, so a path with spaces or specifier characters means itself.
* A template placeholder is ``@NAME@``; one alone on its line may expand to several lines or
  none. Rendering fails if any placeholder is left (:func:`fill_template`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping, Sequence
from importlib import resources

from dreamd.errors import DreamdError

__all__ = [
    "HOME_ROOTS",
    "MARKER",
    "PLACEHOLDER",
    "UNIT_NAME",
    "fill_template",
    "protect_home",
    "read_template",
    "render_system_unit",
    "render_user_unit",
    "systemd_command",
    "systemd_word",
]

UNIT_NAME = "dreamd.service"
MARKER = "# dreamd: "  # the first line of every unit dreamd writes
HOME_ROOTS = ("/home", "/root", "/run/user")  # what ProtectHome= hides
PLACEHOLDER = re.compile(r"@[A-Z_]+@")
_PLAIN = re.compile(r"[A-Za-z0-9_@%+=:,./-]+")


def read_template(name: str) -> str:
    """The text of ``dreamd/service/templates/<name>`` (package data)."""
    return resources.files("dreamd.service").joinpath("templates", name).read_text(encoding="utf-8")


def systemd_word(text: str, *, command: bool = False) -> str:
    """``text`` as one word of a unit setting (``command``: an Exec line, where ``$`` expands)."""
    if not text or any(ch in text for ch in "\n\r\0"):
        raise DreamdError(f"{text!r} cannot be written into a systemd unit")
    escaped = text.replace("%", "%%")
    if command:
        escaped = escaped.replace("$", "$$")
    if _PLAIN.fullmatch(text):
        return escaped
    return '"' + escaped.replace("\\", "\\\\").replace('"', '\\"') + '"'


def systemd_command(argv: Sequence[str]) -> str:
    """An ``ExecStart=`` value that runs exactly ``argv``."""
    if not argv or not posixpath.isabs(argv[0]):
        raise DreamdError(f"a service command needs an absolute program path, got {argv!r}")
    return " ".join(systemd_word(arg, command=True) for arg in argv)


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def protect_home(paths: Sequence[str]) -> str:
    """``ProtectHome=``: ``yes`` unless the service must reach one of ``paths`` in a home."""
    needed = any(_under(posixpath.normpath(p), root) for p in paths for root in HOME_ROOTS)
    return "read-only" if needed else "yes"


def fill_template(
    template: str, values: Mapping[str, str], blocks: Mapping[str, Sequence[str]]
) -> str:
    """``template`` with its ``@NAME@`` placeholders filled: a line holding only a ``blocks``
    name becomes that block's lines, any other placeholder its ``values`` entry."""
    unknown = set(PLACEHOLDER.findall(template)) - set(values) - set(blocks)
    if unknown:
        raise DreamdError(f"template placeholder {min(unknown)} has no value (a dreamd bug)")
    lines: list[str] = []
    for line in template.splitlines():
        if line.strip() in blocks:
            lines.extend(blocks[line.strip()])
        else:
            lines.append(PLACEHOLDER.sub(lambda found: values[found.group()], line))
    return "\n".join(lines) + "\n"


def render_system_unit(
    exec_start: str, *, writable: Sequence[str] = (), readable: Sequence[str] = ()
) -> str:
    """The system unit: ``writable`` paths (workspaces) become ``ReadWritePaths=``.

    ``readable`` names the other paths the service must reach (its program, config, session
    transcripts); with those and the writable ones outside home directories, homes are hidden.
    """
    for path in (*writable, *readable):
        if not posixpath.isabs(path):
            raise DreamdError(f"service paths must be absolute, got {path!r}")
    unique = sorted(dict.fromkeys(posixpath.normpath(p) for p in writable))
    # "-": a workspace removed later must not keep the service from starting.
    lines = [f"ReadWritePaths={systemd_word('-' + path)}" for path in unique]
    return fill_template(
        read_template("dreamd.service"),
        {"@EXEC_START@": exec_start, "@PROTECT_HOME@": protect_home([*unique, *readable])},
        {"@READ_WRITE_PATHS@": lines},
    )


def render_user_unit(exec_start: str, *, environment: Mapping[str, str] | None = None) -> str:
    """The user unit; ``environment`` becomes ``Environment=`` lines (sorted)."""
    lines = [
        f"Environment={systemd_word(f'{name}={value}')}"
        for name, value in sorted((environment or {}).items())
    ]
    return fill_template(
        read_template("dreamd-user.service"),
        {"@EXEC_START@": exec_start},
        {"@ENVIRONMENT@": lines},
    )
