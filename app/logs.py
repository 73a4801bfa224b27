"""The server's own log lines (the ``uno.*`` loggers): time, level, logger and message on
stderr, from ``UNO_LOG_LEVEL`` up. INFO by default: takeovers, rebuilt rooms, unloads and
workers gone are what an operator reads a worker's log for, and they are rare.

No secret reaches a log line: a seat's ``token`` (in the WebSocket URL, which uvicorn logs as
each socket opens) and any ``key`` are blanked in uvicorn's lines and in ours."""

from __future__ import annotations

import logging
import re
from typing import Any

# A query parameter that carries a secret: token=..., key=..., player_key=...
SECRET_PARAM = re.compile(r"((?:^|[?&;\s])(?:token|key|player_key)=)[^&;\s\"']*", re.IGNORECASE)
SECRET_LOGGERS = ("uvicorn.access", "uvicorn.error")  # ours: the handler below filters


def redact(text: str) -> str:
    return SECRET_PARAM.sub(r"\1[redacted]", text)


class RedactSecrets(logging.Filter):
    """Blanks secret query parameters in a record's message and arguments, keeping their types
    (uvicorn's access formatter reads its arguments by position)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _redacted(v) for k, v in record.args.items()}
        return True


def _redacted(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class _ServerLogHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Marks the handler installed here, so that installing it again changes nothing."""


def configure_logging(level: str) -> None:
    for name in SECRET_LOGGERS:
        named = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in named.filters):
            named.addFilter(RedactSecrets())
    logger = logging.getLogger("uno")
    logger.setLevel(level.upper())
    if not any(isinstance(handler, _ServerLogHandler) for handler in logger.handlers):
        handler = _ServerLogHandler()
        handler.setFormatter(logging.Formatter(FORMAT))
        handler.addFilter(RedactSecrets())
        logger.addHandler(handler)
