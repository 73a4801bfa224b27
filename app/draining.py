"""A worker told to stop (SIGTERM): it says so at once (``/readyz`` answers 503, so a load
balancer sends nobody new), then hands its work over (the steps the app registered: with many
workers, every room it runs goes to a live worker, loaded there before its sockets move), and
only then do uvicorn's own shutdown and the app's lifespan run (app/__main__.py)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

log = logging.getLogger("uno")
Step = Callable[[], Awaitable[None]]


class Drain:
    def __init__(self) -> None:
        self.draining = False
        self._steps: list[Step] = []

    def begin(self) -> None:
        """From the signal handler: say so at once."""
        if not self.draining:
            self.draining = True
            log.info("told to stop: draining (/readyz answers 503)")

    def on_drain(self, step: Step) -> Callable[[], None]:
        """Run ``step`` when draining; the returned callable takes it back (a lifespan that
        ended)."""
        self._steps.append(step)
        return lambda: self._steps.remove(step) if step in self._steps else None

    async def run(self, within: float) -> None:
        """Run the steps, for ``within`` seconds at most: a deploy waits for nothing longer,
        and what is not handed over by then is taken over on demand (leases lapse)."""
        self.begin()
        started = time.monotonic()
        try:
            async with asyncio.timeout(within):
                for step in list(self._steps):
                    try:
                        await step()
                    except Exception:  # what is not handed over is taken over: leases lapse
                        log.exception("a drain step failed")
        except TimeoutError:
            log.error("the drain took over %.0f s: the rest is taken over on demand", within)
        log.info("drained in %.2f s", time.monotonic() - started)


DRAIN = Drain()
