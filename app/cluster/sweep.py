"""The takeover sweep: every ``sweep_seconds`` (jittered) each worker shares its public rooms
and its spectators per room (``SharedListing``), then takes over every room in a match whose
lease nobody holds (its owner died with no client left to ask for it: bots playing, a turn timer
running), rebuilt from the store as on failover."""

from __future__ import annotations

import asyncio
import logging
import random

from app.rooms.errors import RoomError
from app.rooms.hub import Hub
from app.rooms.registry import RoomRegistry
from app.store.errors import StoreError

from .leases import Ownership, lease_key
from .listing import SharedListing

log = logging.getLogger("uno.rooms")
# Rooms rebuilt at once after a death: each waits on Redis and the store (a lease, a fence, a
# load), so one at a time took a dead worker's 500 rooms 10 s and more; a few at a time keep
# within the store's pool.
TAKEOVERS_AT_ONCE = 8


class Sweep:
    def __init__(self, registry: RoomRegistry, hub: Hub, ownership: Ownership,
                 listing: SharedListing, seconds: float) -> None:
        self.registry = registry
        self.hub = hub
        self.ownership = ownership
        self.listing = listing
        self.seconds = seconds

    async def run(self) -> None:
        while True:
            # Jittered: the workers' sweeps do not line up.
            await asyncio.sleep(self.seconds * random.uniform(0.75, 1.25))
            registry = self.registry
            await self.listing.list_rooms({
                code: registry.summary(room) for code, room in list(registry.rooms.items())
                if room.state.meta.public and not room.stopped})
            await self.listing.share_spectators(self.hub.spectator_counts())
            try:
                await self.sweep()
            except Exception as exc:  # the store or Redis away: try again next time
                log.warning("takeover sweep failed (%r)", exc)

    async def sweep(self, dead: frozenset[str] = frozenset()) -> int:
        """Take over every room in a match (not parked) whose lease nobody holds, or a worker
        in ``dead`` holds (its lease broken first): lease first, then the room rebuilt from
        its snapshot and the records since, as on failover. The number of rooms taken."""
        registry = self.registry
        codes = [code for code in await registry.store.rooms_to_run()
                 if registry.local(code) is None and not registry.loading(code)]
        if not codes:
            return 0
        holders = await self.ownership.keys.lease_holders([lease_key(code) for code in codes])
        at_once = asyncio.Semaphore(TAKEOVERS_AT_ONCE)

        async def take(code: str, holder: tuple[str, int] | None) -> bool:
            async with at_once:
                if holder is not None and holder[0] in dead:
                    await self.ownership.keys.release(lease_key(code), holder[0])
                elif holder is not None:
                    return False
                try:
                    await registry.get(code, known=True)
                except (RoomError, StoreError) as exc:
                    log.info("takeover sweep: room %s not taken (%r)", code, exc)
                    return False
                if registry.local(code) is None:
                    return False
                log.warning("takeover sweep: room %s had no owner; running it here", code)
                return True

        taken = await asyncio.gather(*(take(code, holder)
                                       for code, holder in zip(codes, holders, strict=True)))
        return sum(taken)
