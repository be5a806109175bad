"""The daemon's log: one level, text or JSON lines, stderr and an optional file, all redacted.

Standard-library ``logging`` with a small JSON formatter, not structlog: every dreamd module and
every library the daemon runs (aiohttp, asyncio) already logs through ``logging``, so one
formatter on the root handlers puts all of them in the same stream and the same shape;
structlog would need its ``ProcessorFormatter`` bridge to reach those records and would add a
dependency for what ``json.dumps`` does here.

Rules:

* The level is the first given of ``--log-level``, ``$DREAMD_LOG_LEVEL``, ``[log] level``, info.
* ``[log] format = "json"`` writes one JSON object a line: ``time`` (ISO-8601, UTC), ``level``,
  ``logger``, ``message``, the record's ``fields`` (``extra={"fields": {...}}``: the sweep
  summary's counts) and ``exception`` when there is one.
* ``[log] file`` (absolute once loaded: relative to the config file) gets the same lines as
  stderr; a ``WatchedFileHandler`` reopens it after logrotate moves it.
* Every line passes :func:`dreamd.redaction.redact`: no token or secret reaches a log.
"""

from __future__ import annotations

import json
import logging
import logging.handlers
import os
import sys
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dreamd.config import LogConfig
from dreamd.errors import ConfigError
from dreamd.redaction import redact

__all__ = ["JsonFormatter", "TextFormatter", "configure_logging", "log_level"]

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_MARK = "_dreamd_handler"


class TextFormatter(logging.Formatter):
    """The classic line, redacted."""

    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        """The record as one redacted text line (a traceback follows on its own lines)."""
        return redact(super().format(record))


class JsonFormatter(logging.Formatter):
    """One JSON object a line (see the module rules)."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one JSON line, every string redacted."""
        moment = datetime.fromtimestamp(record.created, UTC)
        document: dict[str, Any] = {
            "time": moment.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, Mapping):
            document.update({str(k): _redacted(v) for k, v in fields.items()})
        if record.exc_info:
            document["exception"] = redact(self.formatException(record.exc_info))
        return json.dumps(document, ensure_ascii=False, default=str)


def _redacted(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, Mapping):
        return {str(k): _redacted(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_redacted(v) for v in value]
    return value


def log_level(log: LogConfig, flag: str | None, env: Mapping[str, str]) -> int:
    """The level in force (see the module rules)."""
    named = flag or env.get("DREAMD_LOG_LEVEL", "").strip() or log.level
    level = logging.getLevelName(named.upper())
    return level if isinstance(level, int) else logging.INFO


def configure_logging(
    log: LogConfig, *, flag: str | None = None, env: Mapping[str, str] | None = None
) -> None:
    """Set the root logger's level, format and handlers (again on every reload)."""
    env = os.environ if env is None else env
    root = logging.getLogger()
    for handler in [h for h in root.handlers if getattr(h, _MARK, False)]:
        root.removeHandler(handler)
        handler.close()
    formatter: logging.Formatter = JsonFormatter() if log.format == "json" else TextFormatter()
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if log.file:
        path = Path(log.file)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handlers.append(logging.handlers.WatchedFileHandler(path, encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(
                f"log.file {path}: cannot open it for appending ({exc.strerror or exc}); "
                "choose a writable file in [log] file"
            ) from exc
    for handler in handlers:
        handler.setFormatter(formatter)
        setattr(handler, _MARK, True)
        root.addHandler(handler)
    root.setLevel(log_level(log, flag, env))
