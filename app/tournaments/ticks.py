"""A tournament task's clock: its step every ``seconds``, or at once when woken (a change made
on this worker); a step that fails is logged and tried again at the next tick."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("uno.tournaments")


async def tick(step: Callable[[], Awaitable[None]], wake: asyncio.Event, seconds: float,
               what: str) -> None:
    while True:
        try:
            await step()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s failed; trying again", what)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), seconds)
        wake.clear()
