"""Draining a worker told to stop (SIGTERM, app/draining.py) with other workers live: every
room it runs is handed to one of them, in turn, a few at a time. For each room: it takes
nothing more in and finishes what it took in (every record of it stored), its lease is given
up, a live worker takes the lease and loads the room (``TakeOverCall``, answered once it runs
there, which tells the room's sockets elsewhere to reconnect), and only then are its sockets
here closed 1012: they reconnect at once and find it. A room no live worker takes is left to
be taken over on demand, as after a crash. Then the other sockets here are closed 1012."""

from __future__ import annotations

import asyncio
import logging
import time

from app.codes import Close
from app.rooms.controls import Moved, to_wire
from app.rooms.errors import RoomError
from app.rooms.hub import Hub, room_topic
from app.rooms.registry import RoomRegistry

from .forwarding import Forwarder
from .leased_bus import LeasedBus
from .leases import Ownership
from .redis_keys import RedisKeys

log = logging.getLogger("uno")
AT_ONCE = 8  # rooms handed over at the same time
MOVED = "the room moved to another worker: reconnect"


async def drain(registry: RoomRegistry, hub: Hub, forwarder: Forwarder, ownership: Ownership,
                keys: RedisKeys, bus: LeasedBus) -> None:
    started = time.monotonic()
    registry.draining = True
    me = ownership.worker
    await keys.unregister_worker(me)  # no other draining worker picks this one
    targets = [w for w in await keys.workers() if w != me and w not in forwarder.dead]
    codes = list(registry.rooms)
    gate = asyncio.Semaphore(AT_ONCE)
    handed = 0

    async def hand_over(index: int, code: str) -> None:
        nonlocal handed
        async with gate:
            room = registry.local(code)
            if room is None:
                return
            await room.drain()
            await registry.drop(code)
            await ownership.release(code)
            for turn in range(len(targets)):  # spread: each room tries a different one first
                target = targets[(index + turn) % len(targets)]
                try:
                    await forwarder.hand_over(target, code)
                    handed += 1
                    break
                except RoomError as exc:  # draining too, or of an older build
                    log.info("room %s: %s did not take it (%s)", code, target, exc.message)
            else:
                await bus.publish(room_topic(code), to_wire(Moved()))  # taken on demand
            hub.close_room(code, Close.RELOAD, MOVED)

    await asyncio.gather(*(hand_over(n, code) for n, code in enumerate(codes)))
    hub.close_all(Close.RELOAD, "this worker is restarting: reconnect")
    log.info("drain: %d of %d rooms handed over to %d workers in %.2f s", handed, len(codes),
             len(targets), time.monotonic() - started)
