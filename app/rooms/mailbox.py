"""A queue with one reader, for a room's inbox: a list, and a future only while the reader
waits. An ``asyncio.Queue`` holds three deques and an event (about 3 KB) from the start, which
a worker of thousands of rooms pays for each one."""

from __future__ import annotations

import asyncio
from typing import Generic, TypeVar

T = TypeVar("T")


class Mailbox(Generic[T]):
    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[T] = []
        self._waiter: asyncio.Future[None] | None = None

    def put(self, item: T) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> T:
        """The oldest item, once there is one (cancelled: nothing is taken)."""
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.pop(0)  # short: a room answers each message before the next

    def take_all(self) -> list[T]:
        items, self._items = self._items, []
        return items
