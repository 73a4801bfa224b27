"""A worker's log lines carry their time, level and logger (an operator lines two workers' logs
up by time), once each, from UNO_LOG_LEVEL up."""

from __future__ import annotations

import re
import subprocess
import sys

EMIT = """
import logging
from app.config import Settings
from app.main import create_app
settings = Settings(database_url="memory://", log_level=sys.argv[1])
create_app(settings)
create_app(settings)  # tests and reloads build the app again: still one line per record
logging.getLogger("uno.rooms").info("takeover sweep: room ABCD had no owner")
logging.getLogger("uno.bus").warning("redis bus: lost Redis")
"""


def logged(level: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", "import sys\n" + EMIT, level],
                          capture_output=True, text=True, timeout=60, check=True)
    return done.stderr.splitlines()


def test_log_lines_carry_time_level_and_logger_once_each() -> None:
    lines = logged("info")
    stamp = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}"
    assert len(lines) == 2, lines
    assert re.fullmatch(stamp + r" INFO uno\.rooms: takeover sweep: room ABCD had no owner",
                        lines[0])
    assert re.fullmatch(stamp + r" WARNING uno\.bus: redis bus: lost Redis", lines[1])


def test_a_higher_log_level_leaves_the_info_lines_out() -> None:
    lines = logged("WARNING")
    assert len(lines) == 1 and lines[0].endswith("WARNING uno.bus: redis bus: lost Redis")
