"""Several workers sharing rooms through Redis (one Redis, ``RedisBus``, or a Redis Cluster,
``ClusterBus``): the only code that knows Redis, leases, forwarding, the shared room list and
the takeover sweep.

    cluster = await open_cluster(settings, store)     # UNO_REDIS_URL (or _CLUSTER) set
    registry = RoomRegistry(cluster.store, cluster.bus, settings, placement=cluster.placement)
    cluster.attach(registry, hub)                      # forwarding, lease renewal, the sweep
    ...
    await cluster.close(registry)                      # hands this worker's rooms over

A room runs on the worker that holds its lease (leases.py); the others reach it through its
owner (forwarding.py, remote_room.py) and get its events from Redis (leased_bus.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from dataclasses import dataclass, field

from app.codes import Close
from app.config import Settings
from app.rooms.controls import Moved, to_wire
from app.rooms.hub import Hub, room_topic
from app.rooms.registry import RoomRegistry
from app.store.base import RoomStore
from app.store.guarded import GuardedStore

from .calls import worker_topic
from .cluster_bus import ClusterBus
from .deaths import DeathWatch
from .drain import drain
from .forwarding import Forwarder
from .leased_bus import LeasedBus
from .leases import Ownership
from .listing import SharedListing
from .placement import ClusterPlacement
from .redis_bus import RedisBus, command_timeout_for
from .sweep import Sweep
from .transport import Transport

log = logging.getLogger("uno")


@dataclass
class Cluster:
    redis: Transport
    bus: LeasedBus
    ownership: Ownership
    store: GuardedStore  # every write checks this worker's lease first
    placement: ClusterPlacement
    sweep_seconds: float
    forwarder: Forwarder | None = None
    sweep: Sweep | None = None
    deaths: DeathWatch | None = None
    sweep_task: asyncio.Task[None] | None = None
    _tasks: list[asyncio.Task[None]] = field(default_factory=list)

    async def attach(self, registry: RoomRegistry, hub: Hub) -> None:
        """Start serving ``registry``'s rooms with the other workers: listen on this worker's
        topic, then register it (the others watch it from then on, ``deaths``)."""

        async def lease_lost(code: str) -> None:
            await registry.drop(code)
            hub.close_room(code, Close.RELOAD, "the room moved to another worker: reconnect")

        self.ownership.run(lease_lost)
        forwarder = self.forwarder = Forwarder(self.redis, self.bus, self.ownership, registry)
        placement = self.placement
        placement.forwarder = forwarder
        placement.spectators_here = hub.spectators
        placement.running_here = registry.running_here
        hub.on_moved.append(forwarder.forget_owner)
        forwarder.start()
        sweep = self.sweep = Sweep(registry, hub, self.ownership, placement.listing,
                                   self.sweep_seconds)

        async def died(worker: str) -> None:
            forwarder.worker_died(worker)
            await sweep.sweep(dead=frozenset({worker}))

        deaths = self.deaths = DeathWatch(self.redis, self.ownership.worker, died)
        forwarder.dead = placement.dead = deaths.dead
        await self.redis.ready(worker_topic(self.ownership.worker))
        await self.redis.keys.register_worker(self.ownership.worker)

        def back_from_an_outage() -> None:  # Redis may have lost the registration with its data
            deaths.resume()
            self._tasks.append(asyncio.create_task(
                self.redis.keys.register_worker(self.ownership.worker)))

        self.redis.on_reconnect.append(back_from_an_outage)
        self.sweep_task = asyncio.create_task(sweep.run(), name="takeover sweep")
        self._tasks.append(self.sweep_task)
        self._tasks.append(asyncio.create_task(deaths.run(), name="death watch"))

    async def drain(self, registry: RoomRegistry, hub: Hub) -> None:
        """Told to stop: hand every room to a live worker before the sockets close
        (app/cluster/drain.py); the sweep takes nothing meanwhile."""
        if self.sweep_task is not None:
            self.sweep_task.cancel()
        if self.forwarder is not None:
            await drain(registry, hub, self.forwarder, self.ownership, self.redis.keys,
                        self.bus)

    async def close(self, registry: RoomRegistry) -> None:
        """Stop: this worker's rooms are handed over now, not after their leases' TTL, and
        every socket of them, on any worker, reconnects (1012) and resumes where they go."""
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        with contextlib.suppress(Exception):  # the others would notice it gone in any case
            await self.redis.keys.unregister_worker(self.ownership.worker)
        if self.forwarder is not None:
            await self.forwarder.close()
        owned = list(registry.rooms)
        await registry.close()
        await self.placement.close()
        await self.ownership.close()
        for code in owned:
            try:
                await self.bus.publish(room_topic(code), to_wire(Moved()))
            except Exception as exc:  # Redis away: the sockets notice on their next command
                log.warning("room %s: hand-over not announced (%r)", code, exc)


async def open_cluster(settings: Settings, store: RoomStore) -> Cluster:
    """Connect to ``UNO_REDIS_CLUSTER`` (or ``UNO_REDIS_URL``) and hold this worker's name
    there."""
    timeout = command_timeout_for(settings.lease_seconds)
    redis: Transport
    if settings.redis_cluster:
        # A message for a master that is away waits as long as a call does (a lease).
        redis = ClusterBus(settings.redis_cluster, prefix=settings.redis_prefix,
                           command_timeout=timeout,
                           retry_seconds=max(1.0, settings.lease_seconds))
        where = "a Redis Cluster"
    else:
        assert settings.redis_url
        redis = RedisBus(settings.redis_url, prefix=settings.redis_prefix,
                         command_timeout=timeout)
        where = "Redis"
    await redis.start()
    worker = settings.worker_id or f"{socket.gethostname()}-{os.getpid()}"
    log.info("worker %s: rooms shared through %s, leases of %.1f s", worker, where,
             settings.lease_seconds)
    ownership = Ownership(redis.keys, worker, settings.lease_seconds)
    try:
        await ownership.claim_name(wait=True)
    except Exception:
        await redis.close()
        raise
    bus = LeasedBus(redis, worker)
    guarded = GuardedStore(store, ownership.check_cached)
    listing = SharedListing(redis.keys, worker, 3 * settings.sweep_seconds)
    placement = ClusterPlacement(ownership, guarded, bus, listing)
    return Cluster(redis, bus, ownership, guarded, placement, settings.sweep_seconds)


__all__ = ["Cluster", "open_cluster"]
