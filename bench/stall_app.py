"""The server as ``python -m app`` runs it, with a watchdog on its event loop: a heartbeat on
the loop every millisecond, and a thread that, while the heartbeat is more than
``UNO_STALL_MS`` late, samples the loop thread's Python stack every 0.5 ms. On SIGUSR1 it
writes each stall (when, how long, its most sampled stacks) to ``UNO_STALL_DUMP`` as JSON
lines. For bench/stalls.py only."""

from __future__ import annotations

import asyncio
import collections
import json
import os
import signal
import sys
import threading
import time
import traceback
from types import FrameType
from typing import Any

import uvicorn.server
from uvicorn.main import main

from app.__main__ import SERVE

STALL_MS = float(os.environ.get("UNO_STALL_MS", "5"))
_beat = [time.perf_counter()]
_stalls: list[dict[str, Any]] = []
_loop_thread = threading.main_thread().ident


def _heartbeat(loop: asyncio.AbstractEventLoop) -> None:
    _beat[0] = time.perf_counter()
    loop.call_later(0.001, _heartbeat, loop)


def _stack(frame: FrameType | None) -> str:
    lines = [f"{f.name} ({os.path.relpath(f.filename)}:{f.lineno})"
             for f in traceback.extract_stack(frame)[-12:]]
    return " < ".join(reversed(lines))


def _watch() -> None:
    while True:
        time.sleep(0.0005)
        late = (time.perf_counter() - _beat[0]) * 1000
        if late < STALL_MS:
            continue
        started = _beat[0]
        stacks: collections.Counter[str] = collections.Counter()
        while _beat[0] == started:
            frame = sys._current_frames().get(_loop_thread or 0)  # a sampler's way
            stacks[_stack(frame)] += 1
            time.sleep(0.0005)
        _stalls.append({"at": time.time(), "ms": round((_beat[0] - started) * 1000 - 1, 1),
                        "stacks": stacks.most_common(3)})


def _dump(_signum: int, _frame: FrameType | None) -> None:
    with open(os.environ["UNO_STALL_DUMP"], "a") as out:
        for stall in _stalls:
            out.write(json.dumps(stall) + "\n")
    _stalls.clear()


_serve = uvicorn.server.Server.serve


async def _serve_watched(self: uvicorn.server.Server, sockets: Any = None) -> None:
    _heartbeat(asyncio.get_running_loop())
    threading.Thread(target=_watch, daemon=True, name="stall-watch").start()
    await _serve(self, sockets)


if __name__ == "__main__":
    uvicorn.server.Server.serve = _serve_watched  # type: ignore[method-assign]
    signal.signal(signal.SIGUSR1, _dump)
    main([*SERVE, *sys.argv[1:]])
