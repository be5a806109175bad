"""``dreamd sweep`` without a daemon: up to the job budget of workspaces at once, streamed."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from dreamd.engine.hits import Hit
from dreamd.recall.record import record_search
from tests.fake_model import chat_reply, serve
from tests.processes import scaled

MODEL_SECONDS = 1.5
ENTRY = "*Tonight*\n\nThe billing notes came back again, quieter this time."


def _workspace(root: Path, index: int) -> None:
    """A workspace with one fact asked about on three days: a sweep promotes it."""
    (root / "memory").mkdir(parents=True)
    day = (datetime.now(UTC) - timedelta(days=4)).date().isoformat()
    fact = f"- Service {index} runs on Postgres 16 on host db-0{index}."
    (root / "memory" / f"{day}.md").write_text(f"# {day}\n\n{fact}\n", encoding="utf-8")
    for offset, query in enumerate(("which host", "postgres version", "db role")):
        when = datetime.now(UTC) - timedelta(days=3 - offset, hours=1)
        hit = Hit(f"memory/{day}.md", 3, 3, fact, 0.9)
        record_search(root, f"{query} {index}", [hit], now=when, zone=UTC)


@pytest.mark.slow
def test_a_sweep_here_overlaps_up_to_the_budget(tmp_path: Path, isolated_home: Path) -> None:
    """Six workspaces against a slow model: three model calls in flight at once (the budget),
    and each outcome is printed as its workspace finishes."""
    lines = ["[dreaming]", 'timezone = "UTC"', "[agents]", 'system_agent = "a0"']
    for index in range(6):
        _workspace(tmp_path / f"ws{index}", index)
        lines += ["[[agents.list]]", f'id = "a{index}"', f'workspace = "ws{index}"']
    with serve([(200, chat_reply(ENTRY))], delay=MODEL_SECONDS) as model:
        lines += ["[model]", f'endpoint = "{model.url}"', 'name = "slow"', "max_retries = 0"]
        config = tmp_path / "config.toml"
        config.write_text("\n".join(lines) + "\n", encoding="utf-8")
        env = {**os.environ, "DREAMD_HOME": str(isolated_home), "NO_PROXY": "127.0.0.1"}
        argv = [sys.executable, "-m", "dreamd", "--config", str(config), "sweep"]
        started = time.monotonic()
        arrivals = []
        with subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, text=True) as process:
            assert process.stdout is not None
            for line in process.stdout:
                if line.startswith(str(tmp_path)):
                    arrivals.append(time.monotonic() - started)
            assert process.wait(timeout=scaled(120)) == 0
        print(f"six workspaces swept in {time.monotonic() - started:.1f} s")
    assert (len(arrivals), model.most_in_flight) == (6, 3)
    assert arrivals[0] < arrivals[-1] - MODEL_SECONDS  # streamed, not printed at the end
