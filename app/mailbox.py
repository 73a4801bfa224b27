"""A queue with one reader (a room's inbox, a socket's received messages and frames to send)
and a flag to wait on: a list, and a future only while someone waits. An ``asyncio.Queue``
holds three deques and an event (about 3 KB) from the start, an ``asyncio.Event`` a deque
(760 bytes), which a worker pays for each of its thousands of rooms and sockets."""

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
        waiter = self._waiter  # ``wake``'s, written out: a put for every message
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    put_nowait = put  # asyncio.Queue's names, for uvicorn's protocol

    def empty(self) -> bool:
        return not self._items

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

    def arrival(self) -> asyncio.Future[None]:
        """What ``wait`` awaits, as a bare future (no coroutine): done once an item is put or
        ``wake`` is called. For a reader that awaits it once per item (a socket's messages)."""
        waiter = self._waiter
        if waiter is None or waiter.done():
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            if self._items:
                waiter.set_result(None)
        return waiter

    def take(self) -> T:
        self._waiter = None  # an ``arrival`` that is done, or nobody's
        return self._items.pop(0)

    def take_all(self) -> list[T]:
        items, self._items = self._items, []
        return items


class Inbox(Mailbox[T]):
    """A room's inbox: its reader waits for the next item or the room's deadline (a turn's
    clock), whichever comes first."""

    __slots__ = ("_timer",)

    def __init__(self) -> None:
        super().__init__()
        self._timer: asyncio.TimerHandle | None = None  # pending: rings at ``when()``

    async def get_within(self, delay: float | None) -> T | None:
        """The oldest item; None once ``delay`` seconds pass without one (None: no limit).
        A timer that wakes the reader, not ``asyncio.timeout``: a room waits this way for each
        of its messages, and a Timeout context cost a handle, a task lookup and a reschedule
        each."""
        if self._items:
            return self._items.pop(0)
        loop = asyncio.get_running_loop()
        deadline = None if delay is None else loop.time() + delay
        while not self._items:  # ``get``'s wait, written out: a room's every message
            if deadline is not None:
                if loop.time() >= deadline:
                    return None
                self._ring_by(loop, deadline)
            waiter = self._waiter = loop.create_future()
            try:
                await waiter
            finally:
                self._waiter = None
        return self._items.pop(0)

    def _ring_by(self, loop: asyncio.AbstractEventLoop, deadline: float) -> None:
        """A wake at ``deadline`` or before. A pending timer that rings no later stays: a room's
        next deadline is mostly later than its last (the next turn's clock), and its early ring
        only makes the wait look again. So a room sets a timer about once per turn's time that
        passes, not once per message (each cost uvloop a timer made, then cancelled)."""
        timer = self._timer
        if timer is not None:
            if timer.when() <= deadline:
                return
            timer.cancel()
        self._timer = loop.call_at(deadline, self._ring)

    def _ring(self) -> None:
        self._timer = None
        self.wake()

    def close(self) -> None:
        """The reader is gone: its timer need not ring (nor keep this inbox until then)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class Flag:
    """``asyncio.Event``'s set / clear / is_set / wait, holding a list only while waited on."""

    __slots__ = ("_set", "_waiters")

    def __init__(self, is_set: bool = False) -> None:
        self._set = is_set
        self._waiters: list[asyncio.Future[None]] | None = None

    def is_set(self) -> bool:
        return self._set

    def set(self) -> None:
        self._set = True
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self._set = False

    async def wait(self) -> None:
        if self._set:
            return
        waiter = asyncio.get_running_loop().create_future()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(waiter)
        try:
            await waiter
        finally:
            if self._waiters is not None and waiter in self._waiters:
                self._waiters.remove(waiter)
