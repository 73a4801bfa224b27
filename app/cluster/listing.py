"""What the workers of a cluster share through Redis each sweep tick, so that any worker can
answer for all of them: the public rooms each one runs (``PUBLIC_LISTING``), and the spectators
each one holds per room (``SPECTATOR_LISTING``, one entry per room and worker: a room's
spectators may watch through any worker, not just its owner). Entries expire after three ticks
unless refreshed, so a dead worker's drop out by themselves.

    listing = SharedListing(redis_bus.keys, worker="host-1234", ttl_seconds=9.0)
    await listing.list_rooms({"ABCD": summary})     # this worker's public rooms, refreshed
    await listing.share_spectators({"ABCD": 2})     # and its spectators per room
    listing.spectators_elsewhere("ABCD")            # the other workers' count, as last read
    await listing.listed_rooms()                    # every worker's public rooms
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from .redis_keys import RedisKeys

log = logging.getLogger("uno.rooms")

PUBLIC_LISTING = "public_rooms"
SPECTATOR_LISTING = "room_spectators"  # "CODE@worker" -> that worker's spectators of room CODE


class SharedListing:
    def __init__(self, keys: RedisKeys, worker: str, ttl_seconds: float) -> None:
        self.keys = keys
        self.worker = worker
        self.ttl = ttl_seconds
        self._counted: set[str] = set()  # this worker's entries in SPECTATOR_LISTING
        self._elsewhere: dict[str, int] = {}  # code -> spectators on other workers (last read)

    async def list_rooms(self, entries: dict[str, dict[str, Any]]) -> None:
        """Put (or refresh) these rooms' summaries in the cluster-wide listing."""
        try:
            await self.keys.list_entries(PUBLIC_LISTING, entries, self.ttl)
        except Exception as exc:  # Redis away: the entries expire, the next tick lists again
            log.warning("public rooms not listed (%r)", exc)

    async def unlist(self, code: str) -> None:
        await self.keys.unlist(PUBLIC_LISTING, [code])

    async def share_spectators(self, counts: dict[str, int]) -> None:
        """Share this worker's spectators per room, and read the other workers'."""
        entries = {
            f"{code}@{self.worker}": {"code": code, "worker": self.worker, "spectators": count}
            for code, count in counts.items()
            if count > 0
        }
        gone = [key for key in self._counted if key not in entries]
        try:
            await self.keys.list_entries(SPECTATOR_LISTING, entries, self.ttl)
            self._counted = set(entries)
            await self.keys.unlist(SPECTATOR_LISTING, gone)  # rooms whose spectators here all left
            await self._read_spectators()
        except Exception as exc:  # Redis away: the entries expire, the next tick lists again
            log.warning("spectator counts not shared (%r)", exc)

    def spectators_elsewhere(self, code: str) -> int:
        return self._elsewhere.get(code, 0)

    async def listed_rooms(self) -> list[dict[str, Any]]:
        """Every worker's public rooms, as last listed (spectator counts read afresh too)."""
        listed: list[dict[str, Any]]
        listed, _ = await asyncio.gather(self.keys.listed(PUBLIC_LISTING), self._read_spectators())
        return listed

    async def _read_spectators(self) -> None:
        """The other workers' spectators per room, as they last shared them."""
        elsewhere: dict[str, int] = {}
        for entry in await self.keys.listed(SPECTATOR_LISTING):
            code, count = entry.get("code"), entry.get("spectators")
            if entry.get("worker") != self.worker and isinstance(code, str) and isinstance(
                count, int
            ):
                elsewhere[code] = elsewhere.get(code, 0) + count
        self._elsewhere = elsewhere
