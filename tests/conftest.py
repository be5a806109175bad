"""Shared fixtures: every test runs with its own DREAMD_HOME and a fixed, known environment."""

from __future__ import annotations

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
    config.addinivalue_line("markers", "slow: a long-running reliability test (soak, faults)")
