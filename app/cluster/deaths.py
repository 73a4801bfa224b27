"""Noticing a dead worker at once, not a lease later. A worker's process holds a Redis
connection subscribed to its own topic (``worker:NAME``) for as long as it runs; when the
process dies (kill -9, a crash) the kernel closes that connection and Redis drops the
subscription within milliseconds. Every worker polls the subscriptions of the others
(``PUBSUB NUMSUB``, one round trip every ``POLL_SECONDS``); a worker not listening for
``DEAD_AFTER`` seconds is dead: its calls in flight fail at once, its sockets' seats are marked
gone, and its rooms are taken over (their leases broken, their stores fenced anew).

A frozen worker (SIGSTOP) keeps its connection, so it is never taken for dead: its rooms move
only when its leases lapse, as before. After a Redis outage every worker's listener reconnects
after its own backoff: for ``OUTAGE_GRACE`` seconds after this worker's listener is back
(``resume``) nobody is taken for dead, and workers register again as they come back. A worker
taken for dead that was not (its listener reconnecting for longer than ``DEAD_AFTER``) loses
its rooms, never the game: the store's fence refuses its writes, and its sockets reconnect.

On a Redis Cluster a worker's topic is a sharded channel, counted on every master (``PUBSUB
SHARDNUMSUB``); a topic whose master changed or could not be asked a moment ago is neither alive
nor silent (``listening`` says None) while its subscriber moves to the new master. Each worker
registers itself again every ``REGISTER_SECONDS`` while its listener is subscribed: a failover
may lose the registration.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from .calls import worker_topic
from .transport import Transport

log = logging.getLogger("uno.rooms")

POLL_SECONDS = 0.1
DEAD_AFTER = 0.5
FORGET_AFTER = 10.0  # a dead worker stays registered this long: every other worker notices it
OUTAGE_GRACE = 6.0  # the listeners' longest backoff (5 s) and some
REGISTER_SECONDS = 2.0


class DeathWatch:
    def __init__(self, redis: Transport, worker: str,
                 on_death: Callable[[str], Awaitable[None]]) -> None:
        self.redis = redis
        self.worker = worker
        self.on_death = on_death
        self.dead: set[str] = set()  # workers taken for dead (until they listen again)
        self._silent: dict[str, float] = {}  # worker -> since when it has not been listening
        self._quiet_until = 0.0  # no worker is taken for dead before this (monotonic)

    def resume(self) -> None:
        """This worker's listener is back after losing Redis: so will the others' be, each
        after its own backoff."""
        self._silent.clear()
        self._quiet_until = time.monotonic() + OUTAGE_GRACE

    async def run(self) -> None:
        registered = time.monotonic()
        while True:
            await asyncio.sleep(POLL_SECONDS)
            try:
                # Only while listening: registered and silent is how the others tell a death.
                if time.monotonic() - registered >= REGISTER_SECONDS and self.redis.connected:
                    registered = time.monotonic()
                    await self.redis.keys.register_worker(self.worker)
                await self.poll()
            except Exception as exc:  # Redis away: the leases' TTL is the fallback
                log.warning("watching the other workers failed (%r)", exc)
                self._silent.clear()  # silence while Redis was away proves nothing

    async def poll(self) -> list[str]:
        """One look at every other registered worker; the ones found dead now."""
        others = [w for w in await self.redis.keys.workers() if w != self.worker]
        if not others:
            return []
        listening = await self.redis.listening([worker_topic(w) for w in others])
        now = time.monotonic()
        if now < self._quiet_until:
            return []
        died = []
        for worker, up in zip(others, listening, strict=True):
            if up is None:  # cannot tell now (its topic is moving to another master)
                self._silent.pop(worker, None)
                continue
            if up:
                self._silent.pop(worker, None)
                self.dead.discard(worker)  # back (restarted under its name)
                continue
            since = self._silent.setdefault(worker, now)
            if now - since >= DEAD_AFTER and worker not in self.dead:
                self.dead.add(worker)
                died.append(worker)
            elif now - since >= FORGET_AFTER:
                await self.redis.keys.unregister_worker(worker)
                self._silent.pop(worker, None)
        for worker in died:
            log.warning("worker %s is gone (not listening for %.1f s): taking its rooms over",
                        worker, DEAD_AFTER)
            await self.on_death(worker)
        return died
