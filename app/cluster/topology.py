"""Which master of a Redis Cluster serves which slot, as redis-py's cluster client knows it.

    topology = Topology(client)          # a redis.asyncio.cluster.RedisCluster
    await topology.start()               # reads the slot map (CLUSTER SLOTS)
    node = topology.primary(slot_of(b"uno:bus:room:{ABCD}"))   # "127.0.0.1:7001" or None
    topology.on_change.append(hook)      # after every new slot map, redis-py's own included
    await topology.refresh()             # read it again (at most one read at a time)

The map is redis-py's: its commands keep it current (MOVED, failover), and so do the bus's own
connections, which ask for a ``refresh`` when a node goes away or a slot moves (``moved``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot
from redis.event import AsyncAfterSlotsCacheRefreshEvent, AsyncEventListenerInterface
from redis.exceptions import MovedError

log = logging.getLogger("uno.bus")

# Refreshes closer together than this wait for each other: a node going away makes every
# connection to it ask at once.
MIN_REFRESH_SECONDS = 0.05


def tagged(name: str) -> str:
    """``name`` with its hash tag: ``room:ABCD`` -> ``room:{ABCD}`` (a room's channel and keys
    all hash on its code, so they share one slot), ``workers`` -> ``{workers}``."""
    kind, colon, rest = name.partition(":")
    return f"{kind}:{{{rest}}}" if colon else f"{{{kind}}}"


def slot_of(name: bytes) -> int:
    """The hash slot of a key or a sharded channel (its ``{tag}`` if it has one)."""
    return key_slot(name)


class _Changed(AsyncEventListenerInterface):
    def __init__(self, topology: Topology) -> None:
        self._topology = topology

    async def listen(self, event: object) -> None:
        self._topology.changed()


class Topology:
    def __init__(self, client: RedisCluster) -> None:
        self._client = client
        self._refreshing: asyncio.Task[None] | None = None
        self._last_refresh = 0.0
        self.on_change: list[Callable[[], None]] = []
        self.refreshes = 0
        client.nodes_manager._event_dispatcher.register_listeners(
            {AsyncAfterSlotsCacheRefreshEvent: [_Changed(self)]})

    async def start(self) -> None:
        await self._client.initialize()

    def primary(self, slot: int) -> str | None:
        """The master serving ``slot`` ("host:port"), None while nobody does."""
        nodes = self._client.nodes_manager.slots_cache.get(slot)
        return nodes[0].name if nodes else None

    def primaries(self) -> list[str]:
        return sorted({nodes[0].name for nodes in
                       self._client.nodes_manager.slots_cache.values() if nodes})

    @staticmethod
    def address(node: str) -> tuple[str, int]:
        host, _, port = node.rpartition(":")
        return host, int(port)

    def moved(self, slot: int, node: str) -> None:
        """A node answered MOVED: ``slot`` is served by ``node`` now (the rest of the map is
        read again in the background, as redis-py does)."""
        nodes = self._client.nodes_manager.slots_cache.get(slot)
        if nodes and nodes[0].name == node:
            return
        task = asyncio.get_running_loop().create_task(
            self._client.nodes_manager.move_slot(MovedError(f"{slot} {node}")))
        task.add_done_callback(_logged)

    async def refresh(self) -> None:
        """Read the slot map again; one read at a time, the callers of a read in progress
        wait for it (errors are logged: the next caller tries again)."""
        if self._refreshing is None or self._refreshing.done():
            self._refreshing = asyncio.create_task(self._refresh(), name="cluster topology")
        await asyncio.shield(self._refreshing)

    async def _refresh(self) -> None:
        wait = self._last_refresh + MIN_REFRESH_SECONDS - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        self._last_refresh = time.monotonic()
        try:
            await self._client.nodes_manager.initialize()
            self.refreshes += 1
        except Exception as exc:  # every seed away, or the nodes disagree mid-change
            log.warning("redis cluster: slot map not read (%r)", exc)

    def changed(self) -> None:
        for hook in list(self.on_change):
            try:
                hook()
            except Exception:
                log.exception("redis cluster: a topology hook failed")


def _logged(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("redis cluster: slot map not updated (%r)", task.exception())
