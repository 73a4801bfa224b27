"""When the garbage collector runs: short collections on a clock, not long ones by count.

A busy worker's young objects are mostly alive: every socket's pending read and write (coroutines,
futures) is made anew with each frame, and the allocation count that starts a collection does
not see them replace each other. So a count-started collection traverses every socket's (65,000
to 90,000 objects with 2,000 sockets: 30-60 ms in which every room of the worker waits), and so
would any collection of the younger generations spaced more than a second or so apart.

Collected every ``YOUNG_SECONDS`` instead, the two younger generations hold only what was made
within the last two ticks (a few thousand objects: 1-7 ms, about 3 % of a core at 2,000
sockets); what is still alive then moves to the old generation, where reference counting frees
it as before. Cycles among such objects wait for the full collection, every ``FULL_SECONDS``:
it traverses everything made since start-up (260-430 ms at 2,000 sockets on a slow VM).
"""

from __future__ import annotations

import asyncio
import gc
import time

YOUNG_SECONDS = 0.1
FULL_SECONDS = 3600.0


def settle() -> None:
    """At start-up: freeze what start-up built, which the collector never traverses again."""
    gc.collect()
    gc.freeze()


async def collect_on_schedule(young_seconds: float = YOUNG_SECONDS,
                              full_seconds: float = FULL_SECONDS) -> None:
    """For the worker's life: the two younger generations every ``young_seconds``, all three
    every ``full_seconds``; the count-started collections are off meanwhile."""
    gc.disable()
    try:
        full_due = time.monotonic() + full_seconds
        while True:
            await asyncio.sleep(young_seconds)
            if time.monotonic() >= full_due:
                gc.collect(2)
                full_due = time.monotonic() + full_seconds
            else:
                gc.collect(1)
    finally:
        gc.enable()
