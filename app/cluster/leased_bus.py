"""The bus of a worker in a Redis cluster: every message goes to this worker's subscribers at
once (in order, as with one worker) and to the other workers through Redis pub/sub; leases and
readiness come from Redis.

A room's owner publishes its events here: its own sockets get them synchronously, and every
other worker holding sockets for the room gets them from its Redis listener, in the same order.
Messages come back to their sender through Redis too: tagged with the worker at the front, they
are dropped unread (``RedisBus.drop_own``).

Once ``track_interest`` is on (the ``Forwarder`` turns it on), a room's events go to Redis only
while another worker has asked this one about the room (``want``): a worker's sockets reach a
room run elsewhere only through a forwarded connect, sent once its listener receives the room
topic, and marked here before the room handles it, so every event after the connect's answer
goes out. Control messages (moved, reseat, revoke) always go out. ``forget`` (the room's lease
given up or lost) drops the marks: running the room here again starts with a "moved" that makes
every socket elsewhere connect again.
"""

from __future__ import annotations

import logging
from typing import Any

from app.bus import BusStatus, Handler, InProcessBus, Unsubscribe
from app.rooms.controls import is_closed, is_events

from .redis_bus import envelope
from .transport import Transport

log = logging.getLogger("uno.bus")


class LeasedBus:
    def __init__(self, redis: Transport, worker: str) -> None:
        self._local = InProcessBus()  # this worker's subscribers
        self.redis = redis
        self.worker = worker
        redis.drop_own(worker)
        self._tracking = False
        self._wanted: dict[str, set[str]] = {}  # topic -> other workers that asked about it
        self.kept_local = 0  # events not sent to Redis: no other worker wanted them

    def track_interest(self) -> None:
        """From now on, send a topic's events to Redis only while some worker ``want``s it."""
        self._tracking = True

    def want(self, topic: str, worker: str) -> None:
        """``worker`` holds (or may hold) sockets for ``topic``: send its events to Redis."""
        wanted = self._wanted.get(topic)
        if wanted is None:
            self._wanted[topic] = {worker}
        else:
            wanted.add(worker)

    def forget(self, topic: str) -> None:
        self._wanted.pop(topic, None)

    def local_topics(self) -> list[str]:
        """The topics this worker's own subscribers listen to."""
        return self._local.topics()

    def tell_local(self, topic: str, message: dict[str, Any]) -> None:
        """Hand ``message`` to this worker's subscribers of ``topic`` only (now, in order)."""
        self._local.deliver(topic, message)

    def wanted(self, topic: str) -> bool:
        return not self._tracking or topic in self._wanted

    async def publish(self, topic: str, message: dict[str, Any]) -> None:
        self._local.deliver(topic, message)
        if is_events(message):
            if self._tracking and topic not in self._wanted:
                self.kept_local += 1
                return
        elif is_closed(message):
            # A room closing here (unloaded, failed, lease lost) closes this worker's sockets
            # only: the room goes on elsewhere, whose owner says "moved" to everyone when it
            # takes over.
            return
        # Not waited for: in order with everything this worker publishes (the answers to
        # forwarded calls included), in one round trip with whatever else is queued.
        self.redis.post_json(topic, envelope(self.worker, message))

    def subscribe(self, topic: str, handler: Handler) -> Unsubscribe:
        local = self._local.subscribe(topic, handler)

        def from_others(envelope: dict[str, Any]) -> None:
            if envelope.get("from") != self.worker:
                handler(envelope["m"])

        remote = self.redis.subscribe(topic, from_others)

        def unsubscribe() -> None:
            local()
            remote()

        return unsubscribe

    def status(self) -> BusStatus:
        return BusStatus(self.redis.connected, self.redis.reconnects)

    async def ping(self) -> bool:
        return await self.redis.ping()

    async def close(self) -> None:
        await self._local.close()
        await self.redis.close()
