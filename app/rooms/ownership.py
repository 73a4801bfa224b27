"""Room ownership across workers: a worker runs a room only while it holds the room's lease.

    ownership = Ownership(redis_bus, worker="host-1234", ttl_seconds=5.0)
    generation = await ownership.claim("ABCD")    # RoomError 503 if another worker owns it
    await ownership.check("ABCD")                 # LeaseLost if the lease moved on
    ownership.run(on_lost)                        # renews every held lease; on_lost(code)

A lease has a short TTL and is renewed every third of it, so a worker that dies (kill -9) loses
its rooms within one TTL and the next worker asked for a room takes the lease and rebuilds the
room from the store. Every store write is fenced (``FencedStore``): it goes ahead only if this
worker still holds the lease at the generation it claimed, so a worker frozen past its lease
(SIGSTOP) finds on waking that it lost the room and writes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from app.bus.redis_bus import RedisBus
from app.store.base import RoomRecord, RoomStore, StoredRoom

from .errors import RoomError

log = logging.getLogger("uno.rooms")


class LeaseLost(Exception):
    """This worker no longer owns the room: it must not write or publish for it."""


def lease_key(code: str) -> str:
    return f"room:{code}"


class Ownership:
    def __init__(self, bus: RedisBus, worker: str, ttl_seconds: float) -> None:
        self.bus = bus
        self.worker = worker
        self.ttl = ttl_seconds
        self.generations: dict[str, int] = {}  # rooms this worker owns -> lease generation
        self._renewer: asyncio.Task[None] | None = None

    async def claim(self, code: str) -> int:
        generation = await self.bus.take_lease(lease_key(code), self.worker, self.ttl)
        if generation is None:
            raise RoomError("unavailable", f"room {code} is served by another worker", 503)
        previous = self.generations.get(code)
        if previous is not None and previous != generation:
            log.warning("room %s: lease lapsed and was taken again (generation %d -> %d)",
                        code, previous, generation)
        self.generations[code] = generation
        return generation

    async def check(self, code: str) -> None:
        """Raise LeaseLost unless this worker still holds the lease it claimed (and renew it)."""
        generation = self.generations.get(code)
        if generation is None or not await self.bus.renew(
            lease_key(code), self.worker, generation, self.ttl
        ):
            self.generations.pop(code, None)
            raise LeaseLost(f"room {code}: this worker no longer holds the lease")

    async def release(self, code: str) -> None:
        if self.generations.pop(code, None) is not None:
            await self.bus.release(lease_key(code), self.worker)

    def run(self, on_lost: Callable[[str], Awaitable[None]]) -> None:
        """Renew every held lease each third of the TTL; a lease that cannot be renewed is lost."""
        if self._renewer is None:
            self._renewer = asyncio.create_task(self._renew_loop(on_lost), name="lease renewer")

    async def close(self) -> None:
        if self._renewer is not None:
            self._renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewer
            self._renewer = None
        for code in list(self.generations):
            with contextlib.suppress(Exception):  # best effort: the TTL ends it anyway
                await self.release(code)

    async def _renew_loop(self, on_lost: Callable[[str], Awaitable[None]]) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            for code in list(self.generations):
                try:
                    await self.check(code)
                except LeaseLost:
                    log.warning("room %s: lease lost; this worker stops running it", code)
                    await on_lost(code)
                except Exception as exc:  # Redis unreachable: keep trying until the TTL ends
                    log.warning("room %s: lease not renewed (%r)", code, exc)


class FencedStore:
    """A ``RoomStore`` whose writes go ahead only while this worker owns the room."""

    def __init__(self, store: RoomStore, ownership: Ownership) -> None:
        self.inner = store
        self.ownership = ownership

    async def create_room(self, code: str, meta: dict[str, Any]) -> None:
        await self.ownership.check(code)
        await self.inner.create_room(code, meta)

    async def append(self, code: str, record: RoomRecord, meta: dict[str, Any] | None) -> None:
        await self.ownership.check(code)
        await self.inner.append(code, record, meta)

    async def save_snapshot(self, code: str, seq: int, snapshot: dict[str, Any]) -> None:
        await self.ownership.check(code)
        await self.inner.save_snapshot(code, seq, snapshot)

    async def load_room(self, code: str) -> StoredRoom | None:
        return await self.inner.load_room(code)

    async def open_rooms(self) -> list[str]:
        return await self.inner.open_rooms()

    async def close_room(self, code: str) -> None:
        await self.ownership.check(code)
        await self.inner.close_room(code)
