"""The benchmarks run: ``python bench/run.py --quick`` (small sizes) as a smoke test, so a
benchmark that no longer imports or runs fails here, not unseen. No figure is judged."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ROWS = (
    "year: cold sweep",
    "index rebuild (notes seen before)",
    "fleet 10: no-op sweep",
    "daemon: status p99 during sweep",
    "1 month: index build (cold)",
    "1 month: index rebuild (notes seen before)",
    "1 month: reflect (cold, every note)",
    "1 month: search after a new note",
    "1 month: search p50",
    "1 month: recall p50",
    "store of 2000 rows: first sweep",
    "daemon, 10 workspaces: no-op round",
    "daemon, 10 workspaces: RSS growth, round 2 to 4",
    "fleet slot: 10 workspaces, 1 daemon",
    "fleet slot: 10 workspaces, 2 daemons",
    "fleet slot: 10 workspaces, 3 daemons",
    "fleet: coordination per workspace",
    "fleet status: 200 workspaces",
)


@pytest.mark.slow
def test_the_quick_benchmark_runs_and_prints_every_row(tmp_path: Path) -> None:
    """``bench/run.py --quick`` exits 0, prints every section's rows, and a new note is found."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "run.py"), "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=1800,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    names = [line.split(" | ")[0].lstrip("| ") for line in done.stdout.splitlines()]
    assert [row for row in ROWS if row not in names] == []
    assert "| 1 month: search after a new note | " in done.stdout
    assert "found |" in done.stdout.split("1 month: search after a new note")[1].split("\n")[0]


def test_the_readme_table_is_written_between_its_markers(tmp_path: Path) -> None:
    """``--readme`` replaces only what stands between the markers, and names the commit."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from run import END, START, write_readme
    finally:
        sys.path.remove(str(ROOT / "bench"))
    readme = tmp_path / "README.md"
    readme.write_text(f"# Title\n\nBefore.\n\n{START}\nold table\n{END}\n\nAfter.\n")
    write_readme(readme, "| figure | value |\n| --- | --- |\n| x | 1 |")
    head, block = readme.read_text().split(START)
    table, tail = block.split(END)
    assert (head, tail) == ("# Title\n\nBefore.\n\n", "\n\nAfter.\n")
    assert table.startswith("\nMeasured ") and "at commit " in table
    assert table.endswith("\n\n| figure | value |\n| --- | --- |\n| x | 1 |\n")


def test_the_performance_page_holds_the_markers_the_bench_writes_between() -> None:
    """docs/performance.md has one bench block, under a line naming a commit: --write finds it."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from run import END, START, block
    finally:
        sys.path.remove(str(ROOT / "bench"))
    text = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    assert (text.count(START), text.count(END)) == (1, 1)
    inside = text.split(START)[1].split(END)[0]
    assert inside.startswith("\nMeasured ") and " at commit " in inside.splitlines()[1]
    assert block("| x |", "Measured then.") == f"{START}\nMeasured then.\n\n| x |\n{END}"
