"""The bus of a worker in a Redis cluster: room events stay in this worker, leases and
readiness come from Redis.

A room's engine runs on the holder of its lease (app/rooms/ownership.py), and for now a room's
sockets are served by that same worker (a socket that lands elsewhere is told to try again), so
events never need to leave the worker: in-process delivery keeps their order and timing exactly
as with one worker. Forwarding commands and events between workers over ``RedisBus`` pub/sub is
the next step (issue 6).
"""

from __future__ import annotations

from .memory import InProcessBus
from .redis_bus import RedisBus


class LeasedBus(InProcessBus):
    def __init__(self, redis: RedisBus) -> None:
        super().__init__()
        self.redis = redis

    async def acquire(self, key: str, owner: str, ttl_seconds: float) -> bool:
        return await self.redis.acquire(key, owner, ttl_seconds)

    async def release(self, key: str, owner: str) -> None:
        await self.redis.release(key, owner)

    async def ping(self) -> bool:
        return await self.redis.ping()

    async def close(self) -> None:
        await super().close()
        await self.redis.close()
