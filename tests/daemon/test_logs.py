"""The daemon's log lines: JSON that parses, levels in their order, secrets never written."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from dreamd.config import LogConfig
from dreamd.daemon.logs import configure_logging, log_level
from dreamd.errors import ConfigError

SECRET = "ghp_" + "A" * 36


@pytest.fixture
def restore_logging() -> object:
    """Leave the root logger as it was."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield root
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
            handler.close()
    root.setLevel(level)


def test_json_lines_parse_and_are_redacted(tmp_path: Path, restore_logging: object) -> None:
    """Each line is one JSON object with time, level, logger, message and the event's fields;
    a token in a message or a field is masked."""
    file = tmp_path / "logs" / "dreamd.log"
    configure_logging(LogConfig(format="json", file=str(file)), env={})
    log = logging.getLogger("dreamd.test")
    log.info(
        "token %s seen", SECRET, extra={"fields": {"event": "sweep", "promoted": 2, "k": SECRET}}
    )
    log.debug("not at info")
    lines = [json.loads(line) for line in file.read_text().splitlines()]
    assert len(lines) == 1
    line = lines[0]
    assert (line["level"], line["logger"], line["event"], line["promoted"]) == (
        "info",
        "dreamd.test",
        "sweep",
        2,
    )
    assert line["time"].endswith("Z")
    assert SECRET not in file.read_text()


def test_the_level_comes_from_flag_env_config() -> None:
    """--log-level beats $DREAMD_LOG_LEVEL, which beats [log] level; info by default."""
    config = LogConfig(level="warning")
    assert log_level(config, "debug", {"DREAMD_LOG_LEVEL": "error"}) == logging.DEBUG
    assert log_level(config, None, {"DREAMD_LOG_LEVEL": "error"}) == logging.ERROR
    assert log_level(config, None, {}) == logging.WARNING
    assert log_level(LogConfig(), None, {}) == logging.INFO


def test_an_unwritable_log_file_is_a_config_error(tmp_path: Path, restore_logging: object) -> None:
    """A log file that cannot be opened names [log] file and how to fix it."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(ConfigError, match=r"log.file .*: cannot open it for appending"):
        configure_logging(LogConfig(file=str(blocker / "dreamd.log")), env={})
