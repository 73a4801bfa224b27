"""When the garbage collector runs: short collections on a clock, not long ones by count.

A busy worker's young objects are mostly alive: every socket's pending read and write (coroutines,
futures) is made anew with each frame, and the allocation count that starts a collection does
not see them replace each other. So a count-started collection traverses every socket's (65,000
to 90,000 objects with 2,000 sockets: 30-60 ms in which every room of the worker waits).
Collected every ``YOUNG_SECONDS`` instead, the young generation holds only what was made since
(a few thousand objects: 1-3 ms). What outlives a tick is freed by reference counting as before;
cycles among such objects wait for the full collection every ``FULL_SECONDS``.
"""

from __future__ import annotations

import asyncio
import gc
import time

YOUNG_SECONDS = 0.1
FULL_SECONDS = 600.0


def settle() -> None:
    """At start-up: freeze what start-up built, which the collector never traverses again."""
    gc.collect()
    gc.freeze()


async def collect_on_schedule(young_seconds: float = YOUNG_SECONDS,
                              full_seconds: float = FULL_SECONDS) -> None:
    """For the worker's life: the youngest generation every ``young_seconds``, everything
    every ``full_seconds``; the count-started collections are off meanwhile."""
    gc.disable()
    try:
        full_due = time.monotonic() + full_seconds
        while True:
            await asyncio.sleep(young_seconds)
            if time.monotonic() >= full_due:
                gc.collect()
                full_due = time.monotonic() + full_seconds
            else:
                gc.collect(0)
    finally:
        gc.enable()
