"""A ``RoomStore`` whose writes go ahead only past a guard: with several workers, the check that
this worker still holds the room's lease (app/cluster/leases.py ``check_cached``), before the
store's own fence in SQL. Reads pass straight through."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from .base import RoomRecord, RoomStore, StoredRoom

Guard = Callable[[str], Awaitable[None]]  # raises when this worker may not write room ``code``


class GuardedStore:
    def __init__(self, inner: RoomStore, guard: Guard) -> None:
        self.inner = inner
        self._guard = guard

    async def create_room(self, code: str, meta: dict[str, Any]) -> None:
        await self._guard(code)
        await self.inner.create_room(code, meta)

    async def append(self, code: str, record: RoomRecord, meta: dict[str, Any] | None,
                     snapshot: dict[str, Any] | None = None) -> None:
        await self._guard(code)
        await self.inner.append(code, record, meta, snapshot)

    async def save_snapshot(self, code: str, seq: int, snapshot: dict[str, Any]) -> None:
        await self._guard(code)
        await self.inner.save_snapshot(code, seq, snapshot)

    async def park(self, code: str) -> None:
        await self._guard(code)
        await self.inner.park(code)

    async def close_room(self, code: str) -> None:
        await self._guard(code)
        await self.inner.close_room(code)

    async def take_over(self, code: str, generation: int | None) -> None:
        await self.inner.take_over(code, generation)

    def forget(self, code: str, generation: int) -> None:
        self.inner.forget(code, generation)

    @property
    def available(self) -> bool:
        return self.inner.available

    @property
    def transactions(self) -> int:
        return self.inner.transactions

    async def load_room(self, code: str) -> StoredRoom | None:
        return await self.inner.load_room(code)

    async def open_rooms(self) -> list[str]:
        return await self.inner.open_rooms()

    async def rooms_to_run(self) -> list[str]:
        return await self.inner.rooms_to_run()
