"""The Redis bus (redis.asyncio): topics on pub/sub, leases as Redis keys with a generation.

    bus = RedisBus("redis://127.0.0.1:6379/0")
    await bus.start()                       # starts the supervised listener
    stop = bus.subscribe("room:ABCD", handler)
    await bus.publish("room:ABCD", {"seq": 1})
    generation = await bus.take_lease("room:ABCD", "worker-1", 5.0)   # None: someone else's
    ...
    await bus.close()

One listener task owns the subscribed connection (``RespStream``: every message that arrived in
one read is handed out at once). It is supervised: on a connection error, or when Redis does
not answer a PING on a quiet connection, it drops the connection, waits (exponential backoff
with jitter), opens a new one and subscribes every topic again. Its state (``connected``,
``reconnects``) feeds /readyz (``ping``) and /metrics.

Publishing: every message of this bus goes out through one ``Publisher`` on its own connection,
in the order given, what is given during one turn of the event loop in one write. ``publish``
waits until Redis has its message (and so every message given before it); ``post`` does not
wait (a room's events: the room goes on with its next command while they travel), and a failure
to send is logged and raised by the next ``post``.

Leases: the key holds the owner and a generation drawn from a per-key counter (INCR), so every
new holder gets a higher number than all before it; writes are fenced with that number. Renewal
and release check owner and generation in one Lua script, so a worker frozen past its lease
cannot renew or drop a lease that has since passed to another worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import uuid
from collections.abc import Callable
from typing import Any

import redis.asyncio as redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.bus import Handler, Unsubscribe
from app.jsonwire import compact_json

from .publisher import Publisher
from .redis_keys import RedisKeys
from .resp import RespStream, command

log = logging.getLogger("uno.bus")

# Connection trouble worth a reconnect (anything else from the listener is a bug: logged too).
_CONNECTION_ERRORS = (RedisConnectionError, RedisTimeoutError, OSError)

TRIES = 4  # a command to Redis and its retries
POOL_CONNECTIONS = 64  # redis-py connections per worker (leases, scripts, listings)


def command_timeout_for(lease_seconds: float) -> float:
    """A try's timeout such that a command Redis does not answer is given up within a lease,
    retries and their backoff included (at most a second: Redis answers in well under that)."""
    return min(1.0, lease_seconds / (TRIES + 1))


class RedisBus:
    """``Bus`` on Redis; ``prefix`` namespaces every channel and key (one per deployment)."""

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "uno:",
        backoff_min: float = 0.1,
        backoff_max: float = 5.0,
        ping_seconds: float = 5.0,
        command_timeout: float = 1.0,
    ) -> None:
        # Pooled connections die with a Redis restart: retry a command on a fresh one (the
        # default retry does not cover a connection found dead on first use). A Redis that
        # froze (no error, no answer) must not hold a lease check, and the move behind it, for
        # good: each try gives up after ``command_timeout`` (every command here is idempotent).
        self._url = url
        # A burst of commands (a storm of sockets reconnecting at once) waits for a pooled
        # connection, within a try's timeout, instead of failing past the pool's size.
        pool = redis.BlockingConnectionPool.from_url(
            url,
            max_connections=POOL_CONNECTIONS,
            timeout=command_timeout,
            socket_connect_timeout=2.0,
            socket_timeout=command_timeout,
            health_check_interval=10,
            retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), TRIES - 1),
            retry_on_error=[RedisConnectionError, RedisTimeoutError, OSError],
        )
        self._redis: redis.Redis = redis.Redis(connection_pool=pool)
        self._redis.auto_close_connection_pool = True
        self._prefix = prefix
        self._backoff = (backoff_min, backoff_max)
        self._ping_seconds = ping_seconds  # a connection quiet this long is asked for a PONG
        self._subscribers: dict[str, list[Handler]] = {}
        self._subscribed: RespStream | None = None  # the listener's connection
        self._publisher = Publisher(url)
        self._listener: asyncio.Task[None] | None = None
        self._probes: dict[str, asyncio.Future[None]] = {}
        self.keys = RedisKeys(self._redis, prefix)  # leases, worker names, listings
        self.connected = False  # the listener holds a live connection, every topic subscribed
        self._unconfirmed = 0  # (un)subscriptions sent that Redis has not confirmed yet
        self._confirmed = asyncio.Event()
        self.reconnects = 0  # times the listener came back after losing Redis
        # Messages this bus's own origin published come back from Redis: those that start with
        # this (see ``drop_own``) are dropped before any decoding.
        self._own: bytes | None = None
        # Called once the listener is subscribed again after losing Redis (messages published
        # in between are lost to this worker).
        self.on_reconnect: list[Callable[[], None]] = []
        # One Redis loses every subscription at once (``on_reconnect``), never some of them.
        self.on_topics_lost: list[Callable[[frozenset[str]], None]] = []

    # -- lifecycle ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the listener; returns once it is subscribed (or after 5 s of trying)."""
        if self._listener is None:
            self._listener = asyncio.create_task(self._listen(), name="redis bus listener")
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(5):
                while not self.connected:
                    await asyncio.sleep(0.01)

    async def close(self) -> None:
        with contextlib.suppress(Exception):  # what is still queued goes out first
            async with asyncio.timeout(2):
                await self.flush()
        await self._publisher.close()
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
            self._listener = None
        self._subscribers.clear()
        await self._redis.aclose()

    async def ping(self) -> bool:
        """Ready: Redis answers and the listener is subscribed."""
        try:
            return bool(await self._redis.ping()) and self.connected
        except RedisError:
            return False

    # -- publish / subscribe ------------------------------------------------------------------

    async def publish(self, topic: str, message: dict[str, Any]) -> None:
        """Publish ``message``; returns once Redis has it, after every message given before."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._publisher.give(command("PUBLISH", self._channel(topic), compact_json(message)),
                             done)
        await done

    async def listening(self, topics: list[str]) -> list[bool | None]:
        """Whether any connection is subscribed to each topic. A worker killed with -9 drops
        its Redis connection, so its own topic goes quiet at once: no heartbeat needed."""
        counts = await self._redis.pubsub_numsub(*(self._channel(t) for t in topics))
        return [int(count) > 0 for _channel, count in counts]

    def reply_topic(self, topic: str, code: str) -> str:
        """On one Redis every message travels in order on one connection: ``topic`` itself."""
        return topic

    def post(self, topic: str, message: dict[str, Any]) -> None:
        """Publish ``message`` after every message given before, without waiting for Redis.
        Raises the error that made an earlier post fail, if any (once)."""
        self.post_json(topic, compact_json(message))

    def post_json(self, topic: str, payload: str) -> None:
        """``post`` for a message already encoded (a JSON object)."""
        error = self._publisher.take_error()
        if error is not None:
            raise error
        self._publisher.give(command("PUBLISH", self._channel(topic), payload), None)

    async def flush(self) -> None:
        """Wait until every message given so far has been sent (or failed)."""
        await self._publisher.flush()

    @property
    def sends(self) -> int:
        """Writes of messages to Redis so far (tests, benchmarks)."""
        return self._publisher.writes

    def drop_own(self, origin: str) -> None:
        """Drop, unread, every message received whose JSON starts with ``{"from": origin,``:
        what this worker published itself (``LeasedBus`` puts that tag first), which its own
        subscribers already had. The JSON encoding of the tag is the one ``json.dumps`` gives
        (no spaces after the separators), as ``envelope`` writes it."""
        self._own = envelope_head(origin).encode()

    def subscribe(self, topic: str, handler: Handler) -> Unsubscribe:
        handlers = self._subscribers.setdefault(topic, [])
        handlers.append(handler)
        if len(handlers) == 1:
            self._send("subscribe", topic)

        def unsubscribe() -> None:
            current = self._subscribers.get(topic)
            if current and handler in current:
                current.remove(handler)
                if not current:
                    del self._subscribers[topic]
                    self._send("unsubscribe", topic)

        return unsubscribe

    async def settled(self) -> None:
        """Wait until Redis has confirmed every subscribe/unsubscribe asked for so far (or the
        connection went: the listener subscribes everything again once it is back)."""
        while self._unconfirmed and self._subscribed is not None:
            self._confirmed.clear()
            await self._confirmed.wait()

    async def ready(self, topic: str, timeout: float = 5.0) -> None:
        """Return once this worker's listener receives ``topic``: a message published on it
        from now on reaches the subscribers here (TimeoutError if Redis is away)."""
        await self.settled()
        token = uuid.uuid4().hex
        arrived = asyncio.get_running_loop().create_future()
        self._probes[token] = arrived
        try:
            async with asyncio.timeout(timeout):
                while not arrived.done():
                    await self.publish(topic, {"_probe": token})  # through the sender, in order
                    await asyncio.wait({arrived}, timeout=0.5)
        finally:
            self._probes.pop(token, None)

    # -- the supervised listener ------------------------------------------------------------------

    def _channel(self, topic: str) -> str:
        return f"{self._prefix}bus:{topic}"

    def _send(self, action: str, topic: str) -> None:
        """Tell Redis about a (un)subscription now if connected; a reconnect subscribes anyway."""
        stream = self._subscribed
        if stream is not None:
            self._subscription(stream, "SUBSCRIBE" if action == "subscribe" else "UNSUBSCRIBE",
                               [self._channel(topic)])

    def _subscription(self, stream: RespStream, verb: str, channels: list[str]) -> None:
        self._unconfirmed += len(channels)  # Redis confirms each channel on its own
        stream.send([command(verb, *channels)])

    async def _listen(self) -> None:
        failures = 0
        while True:
            delay = self._backoff[0]
            try:
                await self._serve(failures)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                failures += 1
                delay = min(self._backoff[1], self._backoff[0] * 2 ** min(failures - 1, 10))
                delay *= random.uniform(0.5, 1.0)  # jitter: workers do not retry in step
                if isinstance(exc, _CONNECTION_ERRORS):
                    log.warning("redis bus: lost Redis (%r); retrying in %.2f s", exc, delay)
                else:
                    log.exception("redis bus: listener failed; retrying in %.2f s", delay)
            finally:
                self.connected = False
                stream, self._subscribed = self._subscribed, None
                self._unconfirmed = 0
                self._confirmed.set()
                if stream is not None:
                    stream.close()
            await asyncio.sleep(delay)

    async def _serve(self, failures: int) -> None:
        """Subscribe every topic, then hand out messages until the connection fails."""
        stream = await RespStream.open(self._url)
        # The "_alive" channel keeps the connection subscribed even with no rooms here.
        channels = [self._channel(t) for t in self._subscribers]
        self._subscribed = stream
        self._subscription(stream, "SUBSCRIBE", [self._channel("_alive"), *channels])
        while True:
            for reply in await self._arrived(stream):
                self._on_reply(reply)
            if not self.connected and not self._unconfirmed:
                # Every topic is subscribed: what is published from now on arrives here.
                self.connected = True
                if failures:
                    self._reconnected(len(channels))

    async def _arrived(self, stream: RespStream) -> list[Any]:
        """What arrived next; a PING when quiet for a while, and an error if that is not
        answered either (a connection lost without a word, e.g. a network split)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self._ping_seconds):
                return await stream.arrived()
        stream.send([command("PING")])
        try:
            async with asyncio.timeout(self._ping_seconds):
                return await stream.arrived()
        except TimeoutError:
            raise RedisConnectionError("Redis did not answer a PING") from None

    def _reconnected(self, topics: int) -> None:
        self.reconnects += 1
        log.warning("redis bus: reconnected; %d topics resubscribed", topics)
        # Whatever was published meanwhile never reached this worker's subscribers.
        for hook in list(self.on_reconnect):
            try:
                hook()
            except Exception:
                log.exception("redis bus: a reconnect hook failed")

    def _on_reply(self, reply: Any) -> None:
        kind = reply[0]
        if kind == b"message":
            self._dispatch(reply[1], reply[2])
        elif kind in (b"subscribe", b"unsubscribe"):
            self._unconfirmed = max(0, self._unconfirmed - 1)
            if not self._unconfirmed:
                self._confirmed.set()

    def _dispatch(self, channel_bytes: bytes, payload: bytes) -> None:
        own = self._own
        if own is not None and payload.startswith(own):
            return
        channel = channel_bytes.decode()
        topic = channel.removeprefix(self._channel(""))
        try:
            data = json.loads(payload)
        except ValueError:
            log.warning("redis bus: a message on %s is not JSON", channel)
            return
        if isinstance(data, dict) and "_probe" in data:  # see ``ready``; not for subscribers
            probe = self._probes.get(data["_probe"])
            if probe is not None and not probe.done():
                probe.set_result(None)
            return
        for handler in list(self._subscribers.get(topic, ())):
            try:
                handler(data)
            except Exception:  # one broken subscriber must not stop the others
                log.exception("bus subscriber failed on %s", topic)


def envelope_head(origin: str) -> str:
    """How a message from ``origin`` starts on the wire (see ``envelope``)."""
    return '{"from":' + json.dumps(origin) + ',"m":'


def envelope(origin: str, message: dict[str, Any]) -> str:
    """``{"from": origin, "m": message}`` as JSON, the tag first (``RedisBus.drop_own``)."""
    return envelope_head(origin) + compact_json(message) + "}"

