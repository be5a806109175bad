"""What a per-turn ``memory search`` / ``memory recall`` process imports once its cache holds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.builders import write

AT = "2026-11-29T10:00:00Z"
# The config's parser and validation (msgspec, TOML, cron), the state files' structs and their
# writer, dataclasses (and inspect), typing (annotations are never evaluated; value classes are
# dreamd.value's), logging: none of them is needed to answer and record.
HEAVY = (
    "msgspec",
    "dataclasses",
    "typing",
    "inspect",
    "tomllib",
    "cronsim",
    "logging",
    "dreamd.config",
    "dreamd.engine.state",
    "dreamd.store.writer",
    "dreamd.workspace.discovery",
    "dreamd.host.runtime",
    "dreamd.model",
    "dreamd.mcp",
    "mcp",
    "sqlite_vec",
    "sqlean",
)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """A workspace with two notes, a Retain section and an indexed bank page."""
    root = tmp_path / "ws"
    write(
        root,
        "memory/2026-11-27.md",
        "# 2026-11-27\n\n- The billing service runs on Postgres 16 on db-02.\n\n"
        "## Retain\n- W @Peter: Peter owns the billing service.\n"
        "- O(c=0.8) @Peter: Peter prefers short release notes.\n",
    )
    write(
        root, "memory/2026-11-28.md", "# 2026-11-28\n\n- Ana moved the wiki backups to the NAS.\n"
    )
    return root


def _probe(ws: Path, verb: list[str]) -> tuple[list[str], dict[str, object]]:
    """Run ``dreamd memory VERB`` in a fresh process; the heavy modules it imported, its answer."""
    argv = ["--workspace", str(ws), "--now", AT, "memory", *verb, "--json"]
    probe = (
        "import io, json, sys, contextlib; from dreamd.cli.main import main; out = io.StringIO()\n"
        f"with contextlib.redirect_stdout(out): code = main({argv!r})\n"
        f"heavy = {HEAVY!r}\n"
        "print(json.dumps({'code': code, 'out': out.getvalue(), "
        "'heavy': sorted(m for m in sys.modules if m.startswith(heavy))}))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["code"] == 0, done.stderr
    return report["heavy"], json.loads(report["out"])


@pytest.mark.parametrize(
    "verb",
    [
        ["search", "billing service", "--k", "2"],  # two hits fill k: no graph is asked
        ["recall", "tell me about Peter"],
        ["recall", "what does Peter prefer?"],
        ["recall", "what happened around Nov 27"],
        ["search", "billing service"],  # fewer hits than k: the graph is asked too
        ["search", "where are the wiki backups now?"],  # "now": the fact model reads the hits
        ["recall", "who owns billing now?"],
    ],
)
def test_a_repeated_turn_imports_no_config_parser_state_structs_dataclasses_or_typing(
    ws: Path, verb: list[str]
) -> None:
    """The first turn resolves the configuration and caches the answer; the next imports none
    of the heavy modules, and answers the same."""
    _, first = _probe(ws, verb)
    heavy, again = _probe(ws, verb)
    assert heavy == []
    assert again == first
    assert first.get("hits") or first.get("results")
