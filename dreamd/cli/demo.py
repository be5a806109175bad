"""``dreamd demo``: build a sample workspace, dream it for three weeks, show what was promoted."""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dreamd.cli.context import Context
from dreamd.errors import DreamdError

__all__ = ["register"]


def register(commands: Any, json_flag: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add the ``demo`` verb."""
    demo = commands.add_parser("demo", help="dream a sample workspace and show what was promoted")
    demo.add_argument(
        "--dir", type=Path, help="where to build it (new or empty; default: a temp dir)"
    )
    json_flag(demo)
    demo.set_defaults(handler=run)


def _target(chosen: Path | None) -> Path:
    if chosen is None:
        return Path(tempfile.mkdtemp(prefix="dreamd-demo-"))
    if chosen.exists() and (not chosen.is_dir() or any(chosen.iterdir())):
        raise DreamdError(f"{chosen} exists and is not an empty directory; pick a new --dir")
    chosen.mkdir(parents=True, exist_ok=True)
    return chosen


def _bank_lines(root: Path, bank: Any) -> list[str]:
    """The memory bank the nights grew, and where to look."""
    lines = ["", f"Memory bank ({len(bank['pages'])} pages in {root / 'bank'}):"]
    for opinion in bank["opinions"]:
        start, now = opinion["start"], opinion["confidence"]
        move = "rose" if now > start else "fell" if now < start else "held"
        lines.append(
            f"  {move} {start:.2f} -> {now:.2f}: {opinion['statement']} "
            f"({len(opinion['supporting'])} for, {len(opinion['contradicting'])} against)"
        )
    lines += [
        f"  cat {root / 'bank' / 'opinions.md'}",
        f"  cat {root / 'bank' / 'entities' / 'Dana.md'}",
        f'  dreamd --workspace {root} memory recall "what does Dana prefer?"',
    ]
    return lines


def run(ctx: Context) -> int:
    """Run the demo with the built-in defaults (no config, no model, no network)."""
    from dreamd.config import DreamingConfig
    from dreamd.runs.demo import DAYS, run_demo  # the engine loads when the demo runs

    root = _target(ctx.args.dir)
    result = run_demo(root, end=ctx.now, dreaming=DreamingConfig())
    lines = [
        f"dreamd demo: a sample workspace in {root}",
        f"Simulated {DAYS} days: {DAYS} daily notes, {result.searches} searches, "
        f"{result.sweeps} nightly sweeps.",
        "",
        "Promoted into MEMORY.md:",
    ]
    for item in result.promoted:
        lines.append(f"  + {item['snippet']}")
        lines.append(
            f"    from {item['source']}, promoted {item['promotedAt'][:10]}: {item['recalls']} "
            f"recalls by {item['userQueries']} distinct questions on {item['days']} days"
        )
        if item["alsoIn"]:
            lines.append(f"    also stated in {', '.join(item['alsoIn'])} (written once)")
    if not result.promoted:
        lines.append("  (nothing)")
    lines += ["", "Kept out, and why:"]
    for item in result.kept_out:
        lines.append(f"  - {item['snippet']}")
        lines.append(
            f"    {item['what']}: stopped by '{item['rejection']}' ({item['recalls']} recalls, "
            f"{item['userQueries']} user questions, origin {item['origin']})"
        )
    lines += [
        "",
        f"The last sweep took {result.last_sweep.duration_ms:.0f} ms. Look around:",
        f"  cat {root / 'MEMORY.md'}",
        f"  cat {root / 'DREAMS.md'}",
        f"  dreamd --workspace {root} memory promote-explain billing",
    ]
    lines += _bank_lines(root, result.bank)
    ctx.emit(result.as_json(), "\n".join(lines))
    return 0
