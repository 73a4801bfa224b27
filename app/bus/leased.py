"""The bus of a worker in a Redis cluster: every message goes to this worker's subscribers at
once (in order, as with one worker) and to the other workers through Redis pub/sub; leases and
readiness come from Redis.

A room's owner publishes its events here: its own sockets get them synchronously, and every
other worker holding sockets for the room gets them from its Redis listener, in the same order.
Messages come back to their sender through Redis too: tagged with the worker at the front, they
are dropped unread (``RedisBus.drop_own``).
"""

from __future__ import annotations

from typing import Any

from .base import Handler, Unsubscribe
from .memory import InProcessBus
from .redis_bus import RedisBus, envelope


class LeasedBus(InProcessBus):
    def __init__(self, redis: RedisBus, worker: str) -> None:
        super().__init__()
        self.redis = redis
        self.worker = worker
        redis.drop_own(worker)

    async def publish(self, topic: str, message: dict[str, Any]) -> None:
        await super().publish(topic, message)
        # A room closing here (unloaded, failed, lease lost) closes this worker's sockets only:
        # the room goes on elsewhere, whose owner says "moved" to everyone when it takes over.
        if message.get("control") != "closed":
            # Not waited for: in order with everything this worker publishes (the answers to
            # forwarded calls included), in one round trip with whatever else is queued.
            self.redis.post_json(topic, envelope(self.worker, message))

    def subscribe(self, topic: str, handler: Handler) -> Unsubscribe:
        local = super().subscribe(topic, handler)

        def from_others(envelope: dict[str, Any]) -> None:
            if envelope.get("from") != self.worker:
                handler(envelope["m"])

        remote = self.redis.subscribe(topic, from_others)

        def unsubscribe() -> None:
            local()
            remote()

        return unsubscribe

    async def acquire(self, key: str, owner: str, ttl_seconds: float) -> bool:
        return await self.redis.acquire(key, owner, ttl_seconds)

    async def release(self, key: str, owner: str) -> None:
        await self.redis.release(key, owner)

    async def ping(self) -> bool:
        return await self.redis.ping()

    async def close(self) -> None:
        await super().close()
        await self.redis.close()
