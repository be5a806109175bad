"""The macOS LaunchAgent plist for dreamd, rendered from ``dreamd/service/templates/launchd.plist``.

Pure. The template is itself a plist: it is parsed with :mod:`plistlib`, its ``@NAME@`` strings
are filled and the result is written with :func:`plistlib.dumps`, never pasted as XML. Every
rendered plist passes :func:`check_launch_agent`, the key and type check ``plutil -lint`` would
make on a Mac: launchd ignores a misspelt key, so a typo would otherwise go unnoticed.
"""

from __future__ import annotations

import plistlib
import posixpath
from collections.abc import Mapping, Sequence
from typing import Any

from dreamd.errors import DreamdError
from dreamd.service.systemd import PLACEHOLDER, read_template

__all__ = ["LABEL", "check_launch_agent", "render_launch_agent"]

LABEL = "org.dreamd.dreamd"
_BASE_PATH = ("/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin")


def _substitute(value: Any, values: Mapping[str, str]) -> Any:
    if isinstance(value, dict):
        return {key: _substitute(item, values) for key, item in value.items()}
    if isinstance(value, list):
        return [_substitute(item, values) for item in value]
    if isinstance(value, str):
        return PLACEHOLDER.sub(lambda found: values.get(found.group(), found.group()), value)
    return value


def render_launch_agent(
    argv: Sequence[str],
    *,
    home: str,
    log_dir: str,
    environment: Mapping[str, str] | None = None,
    label: str = LABEL,
) -> bytes:
    """The LaunchAgent running ``argv``, logging to ``<log_dir>/dreamd.log``.

    ``PATH`` is the program's own directory before the system's (launchd gives agents a
    minimal one); ``environment`` adds variables.
    """
    text = read_template("launchd.plist")
    search = ":".join(dict.fromkeys((posixpath.dirname(argv[0]) if argv else "", *_BASE_PATH)))
    values = {"@LABEL@": label, "@HOME@": home, "@LOG_DIR@": log_dir, "@PATH@": search}
    unknown = set(PLACEHOLDER.findall(text)) - {*values, "@PROGRAM_ARGUMENTS@"}
    if unknown:
        raise DreamdError(f"template placeholder {min(unknown)} has no value (a dreamd bug)")
    document = _substitute(plistlib.loads(text.encode("utf-8")), values)
    document["ProgramArguments"] = list(argv)
    document["EnvironmentVariables"].update(sorted((environment or {}).items()))
    problems = check_launch_agent(document)
    if problems:
        raise DreamdError("the LaunchAgent would be invalid: " + "; ".join(problems))
    return plistlib.dumps(document, sort_keys=False)


# launchd.plist(5): the keys a LaunchAgent may carry, with their plist types.
_KEYS: dict[str, tuple[type, ...]] = {
    "Label": (str,),
    "Disabled": (bool,),
    "UserName": (str,),
    "GroupName": (str,),
    "Program": (str,),
    "ProgramArguments": (list,),
    "EnableGlobbing": (bool,),
    "RunAtLoad": (bool,),
    "KeepAlive": (bool, dict),
    "ThrottleInterval": (int,),
    "ExitTimeOut": (int,),
    "StartInterval": (int,),
    "ProcessType": (str,),
    "WorkingDirectory": (str,),
    "RootDirectory": (str,),
    "StandardInPath": (str,),
    "StandardOutPath": (str,),
    "StandardErrorPath": (str,),
    "EnvironmentVariables": (dict,),
    "Umask": (int,),
    "Nice": (int,),
    "LowPriorityIO": (bool,),
    "LimitLoadToSessionType": (str, list),
    "AbandonProcessGroup": (bool,),
}
_TYPE_NAMES = {str: "string", bool: "boolean", int: "integer", list: "array", dict: "dictionary"}
_KEEP_ALIVE = ("SuccessfulExit", "Crashed", "NetworkState")
_PROCESS_TYPES = ("Adaptive", "Background", "Interactive", "Standard")
_PATHS = ("WorkingDirectory", "StandardInPath", "StandardOutPath", "StandardErrorPath")


def _is(value: object, wanted: tuple[type, ...]) -> bool:
    if isinstance(value, bool) and bool not in wanted:
        return False  # True is an int to Python, not to launchd
    return isinstance(value, wanted)


def _check_values(document: dict[str, Any]) -> list[str]:
    problems = []
    argv = document.get("ProgramArguments")
    if not isinstance(argv, list) or not argv or not all(isinstance(a, str) for a in argv):
        problems.append("ProgramArguments must be a non-empty list of strings")
    elif not posixpath.isabs(argv[0]):
        problems.append(f"ProgramArguments[0] must be an absolute path, got {argv[0]!r}")
    keep_alive = document.get("KeepAlive")
    for key, value in (keep_alive if isinstance(keep_alive, dict) else {}).items():
        if key not in _KEEP_ALIVE:
            problems.append(f"unknown key KeepAlive.{key}")
        elif not _is(value, (bool,)):
            problems.append(f"KeepAlive.{key}: expected boolean")
    if document.get("ProcessType", "Standard") not in _PROCESS_TYPES:
        problems.append(f"ProcessType must be one of {', '.join(_PROCESS_TYPES)}")
    for key in _PATHS:
        value = document.get(key)
        if isinstance(value, str) and not posixpath.isabs(value):
            problems.append(f"{key} must be an absolute path (launchd expands no ~), got {value!r}")
    environment = document.get("EnvironmentVariables", {})
    if not all(isinstance(v, str) for v in getattr(environment, "values", list)()):
        problems.append("EnvironmentVariables values must be strings")
    return problems


def check_launch_agent(document: object) -> list[str]:
    """What is wrong with a parsed LaunchAgent plist; empty when nothing is."""
    if not isinstance(document, dict):
        return ["the plist is not a dictionary"]
    problems = [f"unknown key {key}" for key in document if key not in _KEYS]
    for key, wanted in _KEYS.items():
        if key in document and not _is(document[key], wanted):
            names = " or ".join(_TYPE_NAMES[kind] for kind in wanted)
            got = _TYPE_NAMES.get(type(document[key]), type(document[key]).__name__)
            problems.append(f"{key}: expected {names}, got {got}")
    if not document.get("Label"):
        problems.append("Label is missing")
    return problems + _check_values(document)
