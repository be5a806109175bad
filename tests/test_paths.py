"""Host locations: DREAMD_HOME, systemd's directories, and no runtime dir in /tmp."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from dreamd import paths


def test_dreamd_home_holds_everything(isolated_home: Path) -> None:
    """With DREAMD_HOME set, every location is a folder inside it."""
    assert [
        paths.config_dir(),
        paths.state_dir(),
        paths.data_dir(),
        paths.runtime_dir(),
        paths.log_dir(),
    ] == [isolated_home / name for name in ("config", "state", "data", "run", "log")]
    assert paths.default_config_path() == isolated_home / "config" / "config.toml"


def test_systemd_directories_win(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Under systemd, $STATE_DIRECTORY and $RUNTIME_DIRECTORY are used (first of a list)."""
    monkeypatch.delenv("DREAMD_HOME")
    monkeypatch.setenv("STATE_DIRECTORY", f"{tmp_path}/state:{tmp_path}/other")
    monkeypatch.setenv("RUNTIME_DIRECTORY", f"{tmp_path}/run")
    assert (paths.state_dir(), paths.runtime_dir()) == (tmp_path / "state", tmp_path / "run")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the XDG fallback is Linux's")
def test_no_runtime_dir_in_tmp(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without XDG_RUNTIME_DIR the runtime dir is under the state dir, not /tmp."""
    for name in ("DREAMD_HOME", "XDG_RUNTIME_DIR", "RUNTIME_DIRECTORY", "STATE_DIRECTORY"):
        monkeypatch.delenv(name, raising=False)
    assert paths.runtime_dir() == paths.state_dir() / "run"
