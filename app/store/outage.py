"""A database that goes away (a Postgres restart, a failover, an upgrade): ``OutageWatch`` wraps
a ``RoomStore`` and turns every failure that comes from the database being unreachable into
``StoreUnavailable``. From the first such failure it says the store is away (``available``
False), so the rooms refuse commands before they change anything, and probes the database
every ``PROBE_SECONDS``; once a probe gets through it is available again and tells whoever
listens (``on_back``: the registry, whose rooms carry on by themselves).

    store = OutageWatch(SqlRoomStore(engine), probe=lambda: ping(engine))
    store.on_back.append(registry.store_back)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

from .base import RoomRecord, RoomStore, StoredRoom
from .errors import StoreUnavailable

log = logging.getLogger("uno.store")
T = TypeVar("T")
PROBE_SECONDS = 0.5
# What a database that is not there raises, besides SQLAlchemy's own classes for it.
_DRIVER_OUTAGES = frozenset({"CannotConnectNowError", "AdminShutdownError",
                             "ConnectionDoesNotExistError", "ConnectionFailureError",
                             "InterfaceError", "TooManyConnectionsError"})


def is_outage(exc: BaseException) -> bool:
    """Did ``exc`` come from the database being unreachable (not from what was asked)?"""
    if isinstance(exc, StoreUnavailable | OperationalError | InterfaceError | OSError
                  | ConnectionError | TimeoutError):
        return True
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return True
    cause = exc.__cause__ or exc.__context__
    if type(exc).__name__ in _DRIVER_OUTAGES:
        return True
    return cause is not None and cause is not exc and is_outage(cause)


class OutageWatch:
    def __init__(self, inner: RoomStore, probe: Callable[[], Awaitable[None]]) -> None:
        self.inner = inner
        self._probe = probe
        self.away_since: float | None = None  # monotonic time of the first failure
        self.on_back: list[Callable[[], None]] = []
        self._probing: asyncio.Task[None] | None = None

    @property
    def available(self) -> bool:
        return self.away_since is None

    async def _guard(self, work: Awaitable[T]) -> T:
        try:
            return await work
        except Exception as exc:
            self._unavailable_if_outage(exc)
            raise

    def _unavailable_if_outage(self, exc: Exception) -> None:
        """An outage raises StoreUnavailable (the store is away from now on); any other
        error is the caller's to raise as it is."""
        if is_outage(exc):
            self._away(exc)
            raise StoreUnavailable() from exc

    def _away(self, exc: BaseException) -> None:
        if self.away_since is None:
            self.away_since = time.monotonic()
            log.warning("the database is away (%s): rooms wait for it", type(exc).__name__)
        if self._probing is None or self._probing.done():
            self._probing = asyncio.get_running_loop().create_task(self._until_back(),
                                                                   name="database probe")

    async def _until_back(self) -> None:
        while True:
            await asyncio.sleep(PROBE_SECONDS)
            try:
                await self._probe()
            except Exception as exc:
                if not is_outage(exc):
                    log.exception("the database probe failed")
                continue
            away = time.monotonic() - (self.away_since or time.monotonic())
            self.away_since = None
            log.warning("the database is back after %.1f s", away)
            for listener in list(self.on_back):
                listener()
            return

    async def close(self) -> None:
        if self._probing is not None:
            self._probing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._probing

    # -- RoomStore ------------------------------------------------------------------------------

    async def create_room(self, code: str, meta: dict[str, Any]) -> None:
        await self._guard(self.inner.create_room(code, meta))

    async def append(self, code: str, record: RoomRecord, meta: dict[str, Any] | None,
                     snapshot: dict[str, Any] | None = None) -> None:
        try:  # ``_guard``'s, written out: one coroutine less for every move
            await self.inner.append(code, record, meta, snapshot)
        except Exception as exc:
            self._unavailable_if_outage(exc)
            raise

    async def save_snapshot(self, code: str, seq: int, snapshot: dict[str, Any]) -> None:
        await self._guard(self.inner.save_snapshot(code, seq, snapshot))

    async def load_room(self, code: str) -> StoredRoom | None:
        return await self._guard(self.inner.load_room(code))

    async def open_rooms(self) -> list[str]:
        return await self._guard(self.inner.open_rooms())

    async def close_room(self, code: str) -> None:
        await self._guard(self.inner.close_room(code))

    async def take_over(self, code: str, generation: int | None) -> None:
        await self._guard(self.inner.take_over(code, generation))

    async def park(self, code: str) -> None:
        await self._guard(self.inner.park(code))

    def forget(self, code: str, generation: int) -> None:
        self.inner.forget(code, generation)

    @property
    def transactions(self) -> int:
        return self.inner.transactions

    async def rooms_to_run(self) -> list[str]:
        return await self._guard(self.inner.rooms_to_run())
