"""One writer at a time for SQLite: SQLite serializes writers anyway, and a writer that finds
the database locked sleeps in growing steps (its busy handler), which turns a burst of commits
from many rooms into long tails. Queuing the writes in the process keeps each one short.

A store that already queues its writes itself (``SqlRoomStore`` on SQLite: ``serial_writes``,
one writer task with group commit) is passed through untouched: a lock here would let only one
append reach it at a time and leave nothing to batch."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from app.store.base import RoomRecord, RoomStore, StoredRoom


class SerialWrites:
    """A ``RoomStore`` that lets one write at a time through to ``inner``; reads run freely."""

    def __init__(self, inner: RoomStore) -> None:
        self.inner = inner
        self._lock: contextlib.AbstractAsyncContextManager[Any] = (
            contextlib.nullcontext() if getattr(inner, "serial_writes", False) else asyncio.Lock()
        )

    async def create_room(self, code: str, meta: dict[str, Any]) -> None:
        async with self._lock:
            await self.inner.create_room(code, meta)

    async def append(self, code: str, record: RoomRecord, meta: dict[str, Any] | None) -> None:
        async with self._lock:
            await self.inner.append(code, record, meta)

    async def save_snapshot(self, code: str, seq: int, snapshot: dict[str, Any]) -> None:
        async with self._lock:
            await self.inner.save_snapshot(code, seq, snapshot)

    async def load_room(self, code: str) -> StoredRoom | None:
        return await self.inner.load_room(code)

    async def open_rooms(self) -> list[str]:
        return await self.inner.open_rooms()

    async def close_room(self, code: str) -> None:
        async with self._lock:
            await self.inner.close_room(code)

    async def take_over(self, code: str, generation: int | None) -> None:
        async with self._lock:
            await self.inner.take_over(code, generation)

    async def park(self, code: str) -> None:
        async with self._lock:
            await self.inner.park(code)

    def forget(self, code: str, generation: int) -> None:
        self.inner.forget(code, generation)

    async def rooms_to_run(self) -> list[str]:
        return await self.inner.rooms_to_run()
