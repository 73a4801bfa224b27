"""The server's own log lines (the ``uno.*`` loggers): time, level, logger and message on
stderr, from ``UNO_LOG_LEVEL`` up. INFO by default: takeovers, rebuilt rooms, unloads and
workers gone are what an operator reads a worker's log for, and they are rare."""

from __future__ import annotations

import logging

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class _ServerLogHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Marks the handler installed here, so that installing it again changes nothing."""


def configure_logging(level: str) -> None:
    logger = logging.getLogger("uno")
    logger.setLevel(level.upper())
    if not any(isinstance(handler, _ServerLogHandler) for handler in logger.handlers):
        handler = _ServerLogHandler()
        handler.setFormatter(logging.Formatter(FORMAT))
        logger.addHandler(handler)
