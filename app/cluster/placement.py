"""Where rooms run across workers: a room runs on the worker that holds its lease
(``Ownership``). Claiming a room takes its lease; the store is then fenced at the lease's
generation before the room is read; a room that runs elsewhere is reached through a
``RemoteRoom``; a room taken over here tells every socket elsewhere to reconnect ("moved"); a
room that stops here gives its lease (and its place in the shared listing) up."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from app.bus import Bus
from app.rooms.controls import Moved, to_wire
from app.rooms.errors import RoomError
from app.rooms.handle import RoomHandle
from app.rooms.hub import room_topic
from app.rooms.placement import RoomElsewhere
from app.store.base import RoomStore
from app.store.errors import Fenced

from .forwarding import Forwarder
from .leases import Ownership, lease_key
from .listing import SharedListing
from .remote_room import RemoteRoom

log = logging.getLogger("uno.rooms")


class ClusterPlacement:
    def __init__(self, ownership: Ownership, store: RoomStore, bus: Bus,
                 listing: SharedListing) -> None:
        self.ownership = ownership
        self.store = store
        self.bus = bus
        self.listing = listing
        self.forwarder: Forwarder | None = None  # set once the registry exists
        self.spectators_here: Callable[[str], int] = lambda code: 0
        self.running_here: Callable[[str], Any] | None = None  # async: runs here again?
        self.dead: set[str] = set()  # workers taken for dead (``DeathWatch.dead``)
        self._releasing: set[asyncio.Task[None]] = set()

    async def claim(self, code: str) -> None:
        try:
            await self.ownership.claim(code)
        except RoomElsewhere:
            # A lease that outlived its dead worker is broken, so the socket asking for the
            # room is seated now, not closed "try again" to come back.
            if not self.dead or await self.ownership.live_holder(code, self.dead) is not None:
                raise
            await self.ownership.claim(code)

    async def fence(self, code: str) -> int:
        """Fence the store's writes to ``code`` at the lease just claimed, and return its
        generation (RoomError 503, the lease released, if a newer owner fenced it already)."""
        generation = self.ownership.generations[code]
        try:
            await self.store.take_over(code, generation)
            return generation
        except Fenced as exc:
            # The database knows a newer generation than Redis gave: Redis lost its counters
            # (restarted without its data). Move the counter past the database's and claim again.
            log.warning("room %s: lease generation %d is behind the store's %d; claiming again",
                        code, generation, exc.current)
            await self.ownership.release(code)
            await self.ownership.keys.raise_generation(lease_key(code), exc.current)
        generation = await self.ownership.claim(code)
        try:
            await self.store.take_over(code, generation)
        except Fenced as exc:
            await self.release(code)
            raise RoomError("unavailable", f"room {code} is served by another worker",
                            503) from exc
        return generation

    async def release(self, code: str) -> None:
        try:
            await self.ownership.release(code)
        except Exception as exc:  # the lease's TTL ends it anyway
            log.warning("room %s: lease not released (%r)", code, exc)

    def remote(self, code: str) -> RoomHandle:
        if self.forwarder is None:  # not serving yet: nothing to forward with
            raise RoomElsewhere(code)
        return RemoteRoom(self.forwarder, code)

    async def started(self, code: str, listed: dict[str, Any] | None, created: bool) -> None:
        if created:
            if listed is not None:  # listed on every worker at once, not next tick
                await self.listing.list_rooms({code: listed})
            return
        # Sockets elsewhere were seated by the previous owner: they reconnect and resume.
        await self.bus.publish(room_topic(code), to_wire(Moved()))

    def stopped(self, code: str, public: bool) -> None:
        task = asyncio.create_task(self._let_go(code, unlist=public))
        self._releasing.add(task)
        task.add_done_callback(self._releasing.discard)

    async def _let_go(self, code: str, unlist: bool) -> None:
        """Give up room ``code``'s lease (and its listing), in the background after it stopped
        here; skipped if the room was loaded here again meanwhile (this worker claiming it
        again got the same lease, which is the new room's now), and the listing left alone if
        the room stopped because another worker took it over."""
        try:
            if await self._running_again(code):
                return
            if unlist and not await self._moved(code):
                await self.listing.unlist(code)
            if await self._running_again(code):
                return
            await self.ownership.release(code)
        except Exception as exc:  # the lease's TTL ends it anyway
            log.warning("room %s: lease not released (%r)", code, exc)

    async def _running_again(self, code: str) -> bool:
        return self.running_here is not None and bool(await self.running_here(code))

    async def _moved(self, code: str) -> bool:
        """Another worker holds room ``code``'s lease (and lists the room)."""
        holder = await self.ownership.keys.lease_holder(lease_key(code))
        return holder is not None and holder[0] != self.ownership.worker

    async def listed_rooms(self, local: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """This worker's public rooms, and every other worker's as listed within the last few
        seconds. Spectators are counted on every worker: this one's now, the others' as last
        shared."""
        try:
            listed = await self.listing.listed_rooms()
        except Exception as exc:  # Redis away: this worker's rooms at least
            log.warning("public rooms of other workers not read (%r)", exc)
            return local
        here = {entry["code"] for entry in local}
        others = [entry for entry in listed if entry.get("code") not in here
                  and entry.get("code") not in self.ownership.generations]
        for entry in others:  # the owner's count is its own sockets': count every worker's
            code = str(entry.get("code"))
            entry["spectators"] = self.spectators_here(code) + self.spectators_elsewhere(code)
        return local + others

    def spectators_elsewhere(self, code: str) -> int:
        return self.listing.spectators_elsewhere(code)

    async def close(self) -> None:
        for task in list(self._releasing):
            task.cancel()
