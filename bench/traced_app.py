"""The server as ``python -m app`` runs it, under tracemalloc, writing a snapshot of its memory
to ``UNO_TRACE_DUMP`` (a path; each snapshot numbered) on SIGUSR1. For bench/memory.py only."""

from __future__ import annotations

import itertools
import os
import signal
import sys
import tracemalloc
from types import FrameType

from uvicorn.main import main

from app.__main__ import SERVE

_dumps = itertools.count(1)


def dump(_signum: int, _frame: FrameType | None) -> None:
    path = f"{os.environ['UNO_TRACE_DUMP']}.{next(_dumps)}"
    tracemalloc.take_snapshot().dump(path)


if __name__ == "__main__":
    tracemalloc.start(8)
    signal.signal(signal.SIGUSR1, dump)
    main([*SERVE, *sys.argv[1:]])
