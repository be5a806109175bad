"""The per-turn commands' cached view of the configuration: used while it holds, never stale."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from dreamd import paths
from dreamd.cli.main import main
from dreamd.errors import WorkspaceError
from dreamd.host.resolved import CACHE_FILE, Place, Resolved, resolve
from dreamd.host.runtime import Runtime, load_runtime
from dreamd.store.pending import PENDING_FILE
from tests.builders import write

NOW = "2026-11-29T10:00:00Z"


class Counting:
    """``load_runtime`` for the given arguments, counting how often it was needed."""

    def __init__(self, config: Path | None, workspaces: list[Path]) -> None:
        self.config, self.workspaces, self.calls = config, workspaces, 0

    def __call__(self) -> Runtime:
        self.calls += 1
        return load_runtime(self.config, self.workspaces)


def _config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "dreamd.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _resolve(config: Path | None, workspaces: list[Path]) -> tuple[Resolved, int]:
    full = Counting(config, workspaces)
    return resolve(config, workspaces, full), full.calls


def test_the_answer_is_resolved_once_then_read_back(tmp_path: Path) -> None:
    """A second process with the same files reads the cache; the config is not parsed again."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    config = _config(tmp_path, '[dreaming]\ntimezone = "Europe/Berlin"\n')
    first, calls = _resolve(config, [root])
    assert calls == 1
    assert first == Resolved((Place(root.resolve(), ("main",)),), True, "Europe/Berlin")
    again, calls = _resolve(config, [root])
    assert (again, calls) == (first, 0)
    cache = paths.state_dir() / CACHE_FILE
    assert cache.stat().st_mode & 0o777 == 0o600


def test_a_changed_config_file_is_resolved_again(tmp_path: Path) -> None:
    """Editing the config (even to the same size) is seen by the next turn."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    config = _config(tmp_path, '[dreaming]\ntimezone = "Europe/Berlin"\n')
    _resolve(config, [root])
    config.write_text('[dreaming]\ntimezone = "Europe/Madrid"\n', encoding="utf-8")
    os.utime(config, ns=(1, 1))  # an old time stamp: the size and inode still tell
    changed, calls = _resolve(config, [root])
    assert (changed.timezone, calls) == ("Europe/Madrid", 1)


def test_a_config_file_created_later_is_seen(tmp_path: Path) -> None:
    """The default config's absence is part of the key: creating it resolves again."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    assert _resolve(None, [root])[0].config_enabled is True
    write(paths.config_dir(), "config.toml", "[dreaming]\nenabled = false\n")
    resolved, calls = _resolve(None, [root])
    assert (resolved.config_enabled, calls) == (False, 1)


def test_a_workspace_folder_gone_is_an_error_not_a_stale_answer(tmp_path: Path) -> None:
    """The cached folder no longer exists: the full resolution says so, as without a cache."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    _resolve(None, [root])
    (root / "memory").rmdir()
    root.rmdir()
    with pytest.raises(WorkspaceError, match="does not exist"):
        _resolve(None, [root])


def test_other_environment_other_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """DREAMD_CONFIG naming another file is part of the key."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    _resolve(None, [root])
    other = _config(tmp_path, '[dreaming]\ntimezone = "Asia/Tokyo"\n')
    monkeypatch.setenv("DREAMD_CONFIG", str(other))
    resolved, calls = _resolve(None, [root])
    assert (resolved.timezone, calls) == ("Asia/Tokyo", 1)


@pytest.mark.parametrize(
    "garbage", [b"", b"not json", b"[]", b'{"key": 1}', b'{"places": "x"}', b"\xff\xfe"]
)
def test_an_unreadable_cache_is_resolved_again(tmp_path: Path, garbage: bytes) -> None:
    """Whatever the cache file holds, a bad one costs one full resolution, never an error."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    cache = paths.state_dir() / CACHE_FILE
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_bytes(garbage)
    resolved, calls = _resolve(None, [root])
    assert (resolved.places, calls) == ((Place(root.resolve(), ("main",)),), 1)
    assert json.loads(cache.read_bytes())["places"] == [
        {"root": str(root.resolve()), "agents": ["main"]}
    ]


def _workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    write(root, "memory/2026-11-28.md", "# 2026-11-28\n\n- The billing service runs on db-02.\n")
    return root


def _search(root: Path, config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--json", "--config", str(config), "--workspace", str(root), "--now", NOW]
    assert main([*argv, "memory", "search", "billing"]) == 0, capsys.readouterr().err
    capsys.readouterr()


def test_turning_dreaming_off_in_the_config_stops_recording_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A search after the config turned dreaming off records nothing, though the on answer was
    cached by the search before."""
    root = _workspace(tmp_path)
    config = _config(tmp_path, "[dreaming]\nenabled = true\n")
    _search(root, config, capsys)
    assert (root / PENDING_FILE).exists()
    (root / PENDING_FILE).unlink()
    config.write_text("[dreaming]\nenabled = false\n", encoding="utf-8")
    _search(root, config, capsys)
    assert not (root / PENDING_FILE).exists()


def test_the_hosts_override_wins_over_a_cached_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``dreamd dreaming off`` is read on every turn, not cached."""
    root = _workspace(tmp_path)
    config = _config(tmp_path, "[dreaming]\nenabled = true\n")
    _search(root, config, capsys)
    (root / PENDING_FILE).unlink()
    assert main(["--config", str(config), "--workspace", str(root), "dreaming", "off"]) == 0
    _search(root, config, capsys)
    assert not (root / PENDING_FILE).exists()
    assert main(["--config", str(config), "--workspace", str(root), "dreaming", "on"]) == 0
    _search(root, config, capsys)
    assert (root / PENDING_FILE).exists()


def test_the_cache_holds_no_memory_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Only folders, agents, the on/off setting, the zone's name and the embeddings settings
    are kept."""
    root = _workspace(tmp_path)
    _search(root, _config(tmp_path, ""), capsys)
    cache = (paths.state_dir() / CACHE_FILE).read_text(encoding="utf-8")
    assert "billing" not in cache
    assert set(json.loads(cache)) == {
        "key",
        "extra",
        "places",
        "configEnabled",
        "timezone",
        "embeddings",
    }
    assert json.loads(cache)["embeddings"] is None
