"""The code passes its linters and strict type checks (part of the one test command)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


def test_ruff_lint_is_clean() -> None:
    """`ruff check` reports nothing."""
    result = _run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    """`ruff format --check` would change nothing."""
    result = _run("ruff", "format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_is_clean() -> None:
    """`mypy --strict` (configured in pyproject.toml) finds no errors."""
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr
