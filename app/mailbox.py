"""A queue with one reader (a room's inbox, a socket's frames to send): a list, and a future
only while the reader waits. An ``asyncio.Queue`` holds three deques and an event (about 3 KB)
from the start, which a worker pays for each of its thousands of rooms and sockets."""

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
        self.wake()

    def wake(self) -> None:
        """End the reader's ``wait`` even with nothing to take (it has something else to do)."""
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def __len__(self) -> int:
        return len(self._items)

    async def wait(self) -> None:
        """At once if there are items, else until one is put or ``wake`` is called."""
        if self._items:
            return
        self._waiter = asyncio.get_running_loop().create_future()
        try:
            await self._waiter
        finally:
            self._waiter = None

    async def get(self) -> T:
        """The oldest item, once there is one (cancelled: nothing is taken)."""
        while not self._items:
            await self.wait()
        return self._items.pop(0)  # short: a room answers each message before the next

    def take(self) -> T:
        return self._items.pop(0)

    def take_all(self) -> list[T]:
        items, self._items = self._items, []
        return items
