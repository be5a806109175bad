"""Shared fixtures: every test runs with its own DREAMD_HOME and a fixed, known environment."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point DREAMD_HOME (and HOME) at a temporary directory so no test touches the real home."""
    home = tmp_path / "dreamd-home"
    monkeypatch.setenv("DREAMD_HOME", str(home))
    monkeypatch.setenv("HOME", str(tmp_path / "user-home"))
    for name in (
        "DREAMD_CONFIG",
        "DREAMD_NOW",
        "OPENCLAW_CONFIG_PATH",
        "OPENCLAW_STATE_DIR",
        "NOTIFY_SOCKET",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TZ", "UTC")
    return home


def pytest_configure(config: pytest.Config) -> None:
    """Register the markers the suite uses (``--strict-markers`` refuses unknown ones)."""
    config.addinivalue_line(
        "markers", "slow: a test that runs for many seconds (soak, faults, fleets, benchmarks)"
    )


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """One worker more than the cores (``-n auto``): many tests wait on a daemon, a clock or a
    subprocess rather than compute, and a third worker keeps two cores busy meanwhile."""
    return (os.cpu_count() or 1) + 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Files holding a slow test first, then files by their number of tests, most first.

    The suite's workers take whole files (``--dist loadfile``) in this order: a slow file
    started last would run alone while the other workers sit idle. Tests keep their order
    within a file, and every worker sorts the same way.
    """
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::", 1)[0], []).append(item)

    def weight(name: str) -> tuple[bool, int, str]:
        tests = files[name]
        slow = any(test.get_closest_marker("slow") for test in tests)
        return not slow, -len(tests), name

    items[:] = [item for name in sorted(files, key=weight) for item in files[name]]
