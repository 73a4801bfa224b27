"""Where rooms run. With one worker every room runs here (``SoloPlacement``); with several
(app/cluster) a room runs on the worker holding its lease, and this worker reaches it through
a remote handle. The registry asks its placement at each step of a room's life here."""

from __future__ import annotations

from typing import Any, Protocol

from app.store.base import RoomStore

from .errors import RoomUnavailable
from .handle import RoomHandle


class RoomElsewhere(RoomUnavailable):
    """Another worker runs the room."""

    def __init__(self, code: str) -> None:
        super().__init__(f"room {code} is served by another worker")


class Placement(Protocol):
    async def claim(self, code: str) -> None:
        """Take room ``code`` to run here (RoomElsewhere: another worker runs it)."""

    async def fence(self, code: str) -> int | None:
        """Fence the store's writes to ``code`` at this worker's claim, now that it is stored:
        the generation (None: one worker, no fencing)."""

    async def release(self, code: str) -> None:
        """Give a claim up (the room was not opened after all)."""

    def remote(self, code: str) -> RoomHandle:
        """A handle on room ``code`` run by another worker (RoomUnavailable if none)."""

    async def started(self, code: str, listed: dict[str, Any] | None, created: bool) -> None:
        """Room ``code`` runs here now (``created``: a new room, else loaded or taken over);
        ``listed``: its public summary, if it is public."""

    def stopped(self, code: str, public: bool) -> None:
        """Room ``code`` stopped running here (unloaded, failed): let go of it."""

    async def listed_rooms(self, local: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Every public room, given this worker's."""

    def spectators_elsewhere(self, code: str) -> int:
        """Spectators of ``code`` on other workers."""


class SoloPlacement:
    """One worker: every room runs here, and the store is taken over without fencing."""

    def __init__(self, store: RoomStore) -> None:
        self._store = store

    async def claim(self, code: str) -> None:
        return None

    async def fence(self, code: str) -> int | None:
        await self._store.take_over(code, None)
        return None

    async def release(self, code: str) -> None:
        return None

    def remote(self, code: str) -> RoomHandle:
        raise RoomUnavailable(f"room {code} is not running here")

    async def started(self, code: str, listed: dict[str, Any] | None, created: bool) -> None:
        return None

    def stopped(self, code: str, public: bool) -> None:
        return None

    async def listed_rooms(self, local: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return local

    def spectators_elsewhere(self, code: str) -> int:
        return 0
