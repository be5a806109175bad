"""Crash consistency under I/O faults: a full disk and a read-only workspace.

Both faults are real kernel errors, made in a private mount namespace (``unshare -rm``): the
workspace is either a small tmpfs filled to the last byte (``ENOSPC``) or a read-only bind mount
of itself (``EROFS``). The sweep must fail with a message that names the cause, leave every file
with its old content or its new content (never partial, no temp files), keep the human text of
MEMORY.md, and the next sweep with the fault gone must complete, promoting each fact once.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import scaled
from tests.test_crash import FACTS, HUMAN, SWEEP_AT, _files, _workspace

UNSHARE = shutil.which("unshare") or "unshare"


def _namespaces_work() -> bool:
    if shutil.which(UNSHARE) is None:
        return False
    probe = subprocess.run([UNSHARE, "-rm", "true"], capture_output=True, timeout=10, check=False)
    return probe.returncode == 0


pytestmark = pytest.mark.skipif(
    not _namespaces_work(), reason="needs `unshare -rm` (user and mount namespaces)"
)

FULL_DISK = """
set -u
mount -t tmpfs -o size=256k tmpfs "$WS"
cp -a "$1"/. "$WS"/
dd if=/dev/zero of="$WS/filler" bs=1k 2>/dev/null
shift
"$@"; code=$?
rm -f "$WS/filler"
cp -a "$WS"/. "$OUT"/
exit $code
"""
READ_ONLY = """
set -u
mount --bind "$WS" "$WS"
mount -o remount,bind,ro "$WS"
exec "$@"
"""


def _sweep_argv(root: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "dreamd",
        "--no-daemon",
        "--workspace",
        str(root),
        "--now",
        SWEEP_AT,
        "sweep",
    ]


def _env(home: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "DREAMD_HOME": str(home), "TZ": "UTC", **extra}


@pytest.fixture(scope="module")
def reference(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, dict[str, str], dict[str, str]]:
    """A pristine workspace, and its files before and after a complete sweep."""
    base = tmp_path_factory.mktemp("faults")
    pristine = base / "pristine"
    _workspace(pristine)
    done = base / "done"
    shutil.copytree(pristine, done)
    result = subprocess.run(
        _sweep_argv(done),
        env=_env(base / "home"),
        capture_output=True,
        text=True,
        timeout=scaled(60),
    )
    assert result.returncode == 0, result.stderr
    return pristine, _files(pristine), _files(done)


def _recover(root: Path, home: Path, before: dict[str, str], after: dict[str, str]) -> None:
    """Old-or-new files and intact human text now; a clean sweep next, each fact once."""
    for rel, digest in _files(root).items():
        assert digest in (before.get(rel), after.get(rel)), f"{rel} is neither old nor new"
    assert not list(root.rglob("*.tmp"))
    assert (root / "MEMORY.md").read_text(encoding="utf-8").startswith(HUMAN)
    result = subprocess.run(
        _sweep_argv(root), env=_env(home), capture_output=True, text=True, timeout=scaled(60)
    )
    assert result.returncode == 0, result.stderr
    memory = (root / "MEMORY.md").read_text(encoding="utf-8")
    assert memory.startswith(HUMAN)
    for fact in FACTS:
        assert memory.count(fact[2:]) == 1, fact
    assert memory.count("<!-- dreamd-memory-promotion:") == len(FACTS)


def test_read_only_workspace(
    reference: tuple[Path, dict[str, str], dict[str, str]], tmp_path: Path
) -> None:
    """On a read-only mount the sweep fails, says so, and changes nothing."""
    pristine, before, after = reference
    root = tmp_path / "ws"
    shutil.copytree(pristine, root)
    home = tmp_path / "home"
    result = subprocess.run(
        [UNSHARE, "-rm", "sh", "-c", READ_ONLY, "sh", *_sweep_argv(root)],
        env=_env(home, WS=str(root)),
        capture_output=True,
        text=True,
        timeout=scaled(60),
        check=False,
    )
    assert result.returncode != 0, result.stdout
    assert "Read-only file system" in result.stdout + result.stderr, result.stderr
    assert _files(root) == before
    _recover(root, home, before, after)


def test_full_disk(reference: tuple[Path, dict[str, str], dict[str, str]], tmp_path: Path) -> None:
    """On a full file system the sweep fails, says so, and leaves every file whole."""
    pristine, before, after = reference
    mount, root = tmp_path / "disk", tmp_path / "ws"
    mount.mkdir()
    root.mkdir()
    home = tmp_path / "home"
    full = subprocess.run(
        [UNSHARE, "-rm", "sh", "-c", FULL_DISK, "sh", str(pristine), *_sweep_argv(mount)],
        env=_env(home, WS=str(mount), OUT=str(root)),
        capture_output=True,
        text=True,
        timeout=scaled(60),
        check=False,
    )
    assert full.returncode != 0, full.stdout
    assert "No space left on device" in full.stdout + full.stderr, full.stderr
    assert (root / "MEMORY.md").exists()
    # the sweep ran at the mount point; the files were copied out to `root` afterwards
    _recover(root, home, before, after)
