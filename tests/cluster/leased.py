"""A registry whose rooms run under Redis leases, assembled as app/cluster does it, for tests of
one piece at a time (no forwarding unless a test starts a ``Forwarder``).

    registry, placement = leased_registry(store, redis, "w1", settings)
    placement.ownership.generations   # the leases this registry holds
"""

from __future__ import annotations

from app.bus import Bus, InProcessBus
from app.cluster.leases import Ownership
from app.cluster.listing import SharedListing
from app.cluster.placement import ClusterPlacement
from app.cluster.redis_bus import RedisBus
from app.config import Settings
from app.rooms import RoomRegistry
from app.store.base import RoomStore
from app.store.guarded import GuardedStore


def leased_registry(store: RoomStore, redis: RedisBus, worker: str, settings: Settings,
                    bus: Bus | None = None, ttl: float = 30.0
                    ) -> tuple[RoomRegistry, ClusterPlacement]:
    ownership = Ownership(redis.keys, worker, ttl)
    guarded = GuardedStore(store, ownership.check_cached)
    bus = bus or InProcessBus()
    placement = ClusterPlacement(ownership, guarded, bus,
                                 SharedListing(redis.keys, worker, 3 * settings.sweep_seconds))
    registry = RoomRegistry(guarded, bus, settings, placement=placement)
    placement.running_here = registry.running_here
    return registry, placement
