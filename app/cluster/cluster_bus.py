"""The bus and the shared keys on a Redis Cluster (``UNO_REDIS_CLUSTER``): ``RedisBus``'s sibling
(``Transport``), on sharded pub/sub.

    bus = ClusterBus("127.0.0.1:7001,127.0.0.1:7002", prefix="uno:")
    await bus.start()                        # reads the slot map from the first seed that answers
    stop = bus.subscribe("room:ABCD", handler)
    await bus.publish("room:ABCD", {"seq": 1})
    ...
    await bus.close()

Channels and keys carry their name as a hash tag: a room's channel ``uno:bus:room:{ABCD}`` and
its lease ``uno:lease:room:{ABCD}`` hash on ``ABCD``, so they share a slot (and a master), and
every script touches one slot. Events go by SPUBLISH to the master serving the channel's slot,
and reach only the connections subscribed there (SSUBSCRIBE): each master carries its own
rooms' events, so masters added are capacity added. A worker holds one subscribed connection
and one publishing connection per master (``ShardedListener``, ``ShardedPublisher``, on
``resp.py``), not one per room; keys, scripts and the slot map are redis-py's cluster client's,
which follows MOVED, ASK and failovers itself.

Replies to calls go on the room's channel (``reply_topic``), addressed to the caller's topic:
``{"to": "worker:w1", "m": ...}``. On one master and one connection with the room's events,
they arrive after the events published before them, as on one Redis; other workers listening to
the room drop them unread.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid
from collections.abc import Callable
from typing import Any

from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.bus import Handler, Unsubscribe
from app.jsonwire import compact_json
from app.rooms.hub import room_topic

from .redis_bus import TRIES, envelope_head
from .redis_keys import CLUSTER_CALLS_AT_ONCE, LISTING_SHARDS, RedisKeys
from .resp import command
from .shard_listener import ShardedListener
from .shard_publisher import ShardedPublisher
from .topology import Topology, slot_of, tagged

log = logging.getLogger("uno.bus")

REPLY = ">"  # in a reply topic: "room:ABCD>worker:w1"
# A topic whose master changed, or could not be asked, this recently may have no subscriber
# only because it is subscribing again (a listener's backoff is at most a second): not counted.
CHANGE_GRACE = 6.0
RECEIVER_SECONDS = 1.0  # how long an awaited message waits for its subscriber to come back


def seed_nodes(seeds: str) -> list[tuple[str, int]]:
    """``host:port[,host:port...]`` as (host, port) pairs; ValueError when malformed."""
    nodes = []
    for seed in seeds.split(","):
        host, colon, port = seed.strip().rpartition(":")
        if not colon or not host or not port.isdigit():
            raise ValueError(f"UNO_REDIS_CLUSTER: {seed!r} is not host:port")
        nodes.append((host, int(port)))
    return nodes


def _url(node: str) -> str:
    return f"redis://{node}/0"


class ClusterBus:
    def __init__(self, seeds: str, *, prefix: str = "uno:", command_timeout: float = 1.0,
                 retry_seconds: float = 5.0, ping_seconds: float = 5.0) -> None:
        if "{" in prefix or "}" in prefix:
            raise ValueError("UNO_REDIS_PREFIX must not hold { or }: they make hash tags")
        self._client = RedisCluster(
            startup_nodes=[ClusterNode(host, port) for host, port in seed_nodes(seeds)],
            require_full_coverage=False,  # a shard being failed over: the others go on
            socket_connect_timeout=2.0,
            socket_timeout=command_timeout,
            # Never exhausted (redis-py fails a command then): the keys' calls take turns.
            max_connections=CLUSTER_CALLS_AT_ONCE * LISTING_SHARDS + 8,
            retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), TRIES - 1),
            retry_on_error=[RedisConnectionError, RedisTimeoutError, OSError],
        )
        self._prefix = prefix
        self.topology = Topology(self._client)
        self._publisher = ShardedPublisher(self.topology, _url, retry_seconds)
        self._listener = ShardedListener(self.topology, _url, self._dispatch, self._lost,
                                         ping_seconds=ping_seconds)
        self.keys = RedisKeys(self._client, prefix, cluster=True)
        self._subscribers: dict[str, list[Handler]] = {}
        self._topics: dict[bytes, str] = {}  # channel -> topic, of the channels subscribed
        self._probes: dict[str, asyncio.Future[None]] = {}
        self._own: bytes | None = None
        self._owners: dict[bytes, tuple[str | None, float]] = {}  # channel -> master, since
        self._trouble: dict[str, float] = {}  # master -> when it last failed to answer
        self.on_reconnect: list[Callable[[], None]] = []  # a cluster is never lost at once
        self.on_topics_lost: list[Callable[[frozenset[str]], None]] = []
        self._resumed = 0  # topics subscribed again in this turn of the loop (one log line)

    # -- lifecycle ------------------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._listener.connected

    @property
    def reconnects(self) -> int:
        return self._listener.reconnects

    @property
    def redirects(self) -> int:
        return self._publisher.redirects

    async def start(self) -> None:
        await self.topology.start()

    async def close(self) -> None:
        with contextlib.suppress(Exception):  # what is still queued goes out first
            async with asyncio.timeout(2):
                await self.flush()
        await self._publisher.close()
        await self._listener.close()
        self._subscribers.clear()
        await self._client.aclose()

    async def ping(self) -> bool:
        """Ready: a master answers. One shard being failed over leaves every worker ready:
        the others' rooms go on, and no other worker would serve that shard's better."""
        try:
            return bool(await self._client.ping(target_nodes=RedisCluster.RANDOM))
        except (RedisError, OSError):
            return False

    # -- publish ----------------------------------------------------------------------------------

    def _channel(self, topic: str) -> bytes:
        return f"{self._prefix}bus:{tagged(topic)}".encode()

    def _give(self, topic: str, payload: str, done: asyncio.Future[Any] | None) -> None:
        via, _, to = topic.partition(REPLY)
        if to:
            payload = '{"to":' + json.dumps(to) + ',"m":' + payload + "}"
        channel = self._channel(via)
        self._publisher.give(slot_of(channel), command(b"SPUBLISH", channel, payload), done)

    async def publish(self, topic: str, message: dict[str, Any]) -> None:
        """As on one Redis; and a message awaited is meant for someone (a call for a room's
        owner, its reply, a probe): sent again for up to ``RECEIVER_SECONDS`` while nobody
        receives it, its subscriber moving to a new master (a failover, a slot move)."""
        payload = compact_json(message)
        deadline = time.monotonic() + RECEIVER_SECONDS
        while True:
            done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            self._give(topic, payload, done)
            if await done or time.monotonic() >= deadline:
                return
            await asyncio.sleep(0.05)

    def post(self, topic: str, message: dict[str, Any]) -> None:
        self.post_json(topic, compact_json(message))

    def post_json(self, topic: str, payload: str) -> None:
        error = self._publisher.take_error()
        if error is not None:
            raise error
        self._give(topic, payload, None)

    async def flush(self) -> None:
        await self._publisher.flush()

    @property
    def sends(self) -> int:
        return self._publisher.writes

    def reply_topic(self, topic: str, code: str) -> str:
        return f"{room_topic(code)}{REPLY}{topic}"

    # -- subscribe --------------------------------------------------------------------------------

    def drop_own(self, origin: str) -> None:
        self._own = envelope_head(origin).encode()

    def subscribe(self, topic: str, handler: Handler) -> Unsubscribe:
        handlers = self._subscribers.setdefault(topic, [])
        handlers.append(handler)
        if len(handlers) == 1:
            channel = self._channel(topic)
            self._topics[channel] = topic
            self._listener.want(channel)

        def unsubscribe() -> None:
            current = self._subscribers.get(topic)
            if current and handler in current:
                current.remove(handler)
                if not current:
                    del self._subscribers[topic]
                    channel = self._channel(topic)
                    self._topics.pop(channel, None)
                    self._listener.drop(channel)

        return unsubscribe

    async def settled(self) -> None:
        await self._listener.settled()

    async def ready(self, topic: str, timeout: float = 5.0) -> None:
        await self.settled()
        token = uuid.uuid4().hex
        arrived = asyncio.get_running_loop().create_future()
        self._probes[token] = arrived
        try:
            async with asyncio.timeout(timeout):
                while not arrived.done():
                    await self.publish(topic, {"_probe": token})
                    await asyncio.wait({arrived}, timeout=0.5)
        finally:
            self._probes.pop(token, None)

    def _dispatch(self, channel: bytes, payload: bytes) -> None:
        own = self._own
        if own is not None and payload.startswith(own):
            return
        if payload.startswith(b'{"to":'):  # a reply on a room's channel: for its addressee
            split = payload.find(b',"m":')
            topic = json.loads(payload[6:split])
            body = payload[split + 5:-1]
        else:
            found = self._topics.get(channel)
            if found is None:
                return  # unsubscribed meanwhile
            topic, body = found, payload
        handlers = self._subscribers.get(topic)
        if not handlers:
            return
        try:
            data = json.loads(body)
        except ValueError:
            log.warning("redis bus: a message on %s is not JSON", channel.decode())
            return
        if isinstance(data, dict) and "_probe" in data:  # see ``ready``; not for subscribers
            probe = self._probes.get(data["_probe"])
            if probe is not None and not probe.done():
                probe.set_result(None)
            return
        for handler in list(handlers):
            try:
                handler(data)
            except Exception:  # one broken subscriber must not stop the others
                log.exception("bus subscriber failed on %s", topic)

    def _lost(self, channels: list[bytes]) -> None:
        topics = frozenset(self._topics[c] for c in channels if c in self._topics)
        if not topics:
            return
        if not self._resumed:  # one line for all the topics back in this turn of the loop
            asyncio.get_running_loop().call_soon(self._log_resumed)
        self._resumed += len(topics)
        for hook in list(self.on_topics_lost):
            try:
                hook(topics)
            except Exception:
                log.exception("redis bus: a lost-topics hook failed")

    def _log_resumed(self) -> None:
        log.warning("redis cluster: %d topics subscribed again after their master changed",
                    self._resumed)
        self._resumed = 0

    # -- who listens ----------------------------------------------------------------------------

    async def listening(self, topics: list[str]) -> list[bool | None]:
        """Whether a connection is subscribed to each topic, counted on every master (a
        channel's subscriber may sit on its slot's old master mid-move). None for a topic
        whose master changed, or could not be asked, within ``CHANGE_GRACE``."""
        channels = [self._channel(t) for t in topics]
        masters = self.topology.primaries()
        counts = await asyncio.gather(*(self._numsub(node, channels) for node in masters))
        now = time.monotonic()
        totals = [0] * len(channels)
        for node, answer in zip(masters, counts, strict=True):
            if answer is None:
                self._trouble[node] = now
                continue
            for index, (_channel, count) in enumerate(answer):
                totals[index] += int(count)
        listening: list[bool | None] = []
        for channel, total in zip(channels, totals, strict=True):
            master = self.topology.primary(slot_of(channel))
            seen = self._owners.get(channel)
            if seen is None or seen[0] != master:
                self._owners[channel] = (master, now if seen is not None else -CHANGE_GRACE)
            changed = self._owners[channel][1]
            unsure = master is None or now - max(changed, self._trouble.get(master, -1e9)) < (
                CHANGE_GRACE)
            listening.append(True if total else (None if unsure else False))
        return listening

    async def _numsub(self, node: str, channels: list[bytes]) -> list[tuple[bytes, int]] | None:
        target = self._client.get_node(node_name=node)
        if target is None:
            return None
        try:
            answer = await self._client.execute_command("PUBSUB SHARDNUMSUB", *channels,
                                                        target_nodes=target)
        except (RedisError, OSError):
            return None
        return list(answer)
