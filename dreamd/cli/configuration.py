"""``dreamd config show`` (every effective setting and where it came from) and ``config check``.

``show --json`` prints ``{"files": [paths in force], "values": {"<dotted.key>": {"value",
"source"}}, "openclawUnused": {"<OpenClaw key>": "why"}}`` with ``source`` one of ``default``,
``config``, ``openclaw`` (with ``from``: OpenClaw's key), ``override``, ``env``
(:mod:`dreamd.host.sources`); what OpenClaw sets that dreamd does not take is listed with the
reason. ``check FILE`` checks one file as the daemon would (parsing, workspaces and the
daemon's own checks of the files it names) and names the problems (exit 1), changing nothing.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dreamd.cli.context import Context

__all__ = ["register"]


def register(commands: Any, json_flag: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add ``config show`` and ``config check``."""
    config = commands.add_parser("config", help="show the effective config, or check a file")
    verbs = config.add_subparsers(dest="verb", metavar="VERB", required=True)
    show = verbs.add_parser("show", help="every setting with its value and where it came from")
    json_flag(show)
    show.set_defaults(handler=run_show)
    check = verbs.add_parser("check", help="parse a config file as the daemon would")
    check.add_argument(
        "file", type=lambda raw: Path(raw).expanduser().absolute(), help="the config file"
    )
    json_flag(check)
    check.set_defaults(handler=run_check)


def _shown(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def run_show(ctx: Context) -> int:
    """Print the effective config with the source of every value."""
    from dreamd.host.sources import config_sources
    from dreamd.host.state import load_host_state

    runtime = ctx.runtime
    overrides: dict[str, object] = {}
    override = load_host_state().get("enabledOverride")
    if isinstance(override, bool):
        overrides["dreaming.enabled"] = override
    if ctx.args.log_level:
        overrides["log.level"] = ctx.args.log_level
    imported = runtime.openclaw.dreaming if runtime.openclaw else None
    values = config_sources(runtime.config, imported=imported, overrides=overrides, env=os.environ)
    files = [str(p) for p in (runtime.config_path, runtime.openclaw and runtime.openclaw.path) if p]
    unused = openclaw_unused(runtime.config, imported) if imported is not None else {}
    width = max(len(key) for key in values)
    lines = [f"# files in force: {', '.join(files) or 'none (defaults)'}"]
    lines += [
        f"{key:<{width}} = {_shown(item['value'])}  # {item['source']}"
        + (f" ({item['from']})" if item.get("from") else "")
        for key, item in values.items()
    ]
    lines += [f"# set in OpenClaw, not used: {key}: {why}" for key, why in unused.items()]
    ctx.emit({"files": files, "values": values, "openclawUnused": unused}, "\n".join(lines))
    return 0


def openclaw_unused(config: Any, imported: Any) -> dict[str, str]:
    """OpenClaw's settings dreamd did not take, by OpenClaw's key, with the reason."""
    from dreamd.config import MODEL_OWN, openclaw_keys

    taken = openclaw_keys(config, imported)
    unused = dict(imported.unused)
    for key in sorted(set(imported.values) - taken):
        where = imported.origins.get(key, key)
        if key in config.explicit:
            unused[where] = f"the dreamd config sets {key}"
        elif key == "dreaming.enabled":
            unused[where] = (
                "it is OpenClaw's own switch; dreamd follows it with openclaw.follow_enabled = true"
            )
        elif config.explicit & MODEL_OWN:
            unused[where] = "the dreamd config's [model] names the model"
    return unused


def run_check(ctx: Context) -> int:
    """Check ``FILE`` as ``dreamd run`` would: parse it, merge OpenClaw's values, find the
    workspaces, then the daemon's own checks (:mod:`dreamd.daemon.preflight`: tokens files,
    adapter tokens, log file, the fleet's Redis URL). An error names the file and the setting."""
    from dreamd.daemon.preflight import preflight
    from dreamd.host.runtime import load_runtime

    runtime = load_runtime(ctx.args.file, ctx.args.workspace)
    preflight(runtime)
    config, path = runtime.config, runtime.config_path
    spaces = [str(ws.root) for ws in runtime.discovery.workspaces]
    document = {
        "ok": True,
        "file": str(path),
        "keys": sorted(config.explicit),
        "workspaces": spaces,
        "openclaw": str(runtime.openclaw.path) if runtime.openclaw else None,
    }
    text = (
        f"{path}: ok ({len(config.explicit)} setting(s)); the daemon would dream "
        f"{len(spaces)} workspace(s): {', '.join(spaces)}"
    )
    ctx.emit(document, text)
    return 0
