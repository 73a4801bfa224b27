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
import time
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
from .resp import RespStream, command

log = logging.getLogger("uno.bus")

# Connection trouble worth a reconnect (anything else from the listener is a bug: logged too).
_CONNECTION_ERRORS = (RedisConnectionError, RedisTimeoutError, OSError)

# KEYS: lease, generation counter. ARGV: owner, ttl ms. Returns the generation or nil.
_TAKE = """
local owner = redis.call('HGET', KEYS[1], 'owner')
if owner == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return tonumber(redis.call('HGET', KEYS[1], 'gen'))
end
if owner then return false end
local gen = redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], 604800000)  -- a week: counters of long-gone rooms go away
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'gen', gen)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return gen
"""

# KEYS: lease. ARGV: owner, generation, ttl ms. Returns 1 if renewed.
_RENEW = """
if redis.call('HGET', KEYS[1], 'owner') == ARGV[1]
   and redis.call('HGET', KEYS[1], 'gen') == ARGV[2] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
return 0
"""

# KEYS: leases. ARGV: owner, ttl ms, then one generation per key. Returns 1/0 per key (renewed).
_RENEW_MANY = """
local out = {}
for i, key in ipairs(KEYS) do
  local held = redis.call('HMGET', key, 'owner', 'gen')
  if held[1] == ARGV[1] and held[2] == ARGV[i + 2] then
    out[i] = redis.call('PEXPIRE', key, ARGV[2])
  else
    out[i] = 0
  end
end
return out
"""

# Leases renewed per script call: one call is one Redis round trip and one command to build
# (a pipeline of one EVALSHA per lease cost ~8 ms of this worker's CPU at 500 rooms, each tick),
# and Redis is held up no longer than a few hundred microseconds by any one of them.
_RENEW_CHUNK = 1000

# KEYS: generation counter. ARGV: a generation. The counter is raised to it if below (never
# lowered): the next lease taken gets a higher generation.
_RAISE = """
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if current < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', 604800000)
end
return 1
"""

# KEYS: listing index (zset: code -> expiry ms), listing data (hash: code -> JSON). ARGV: now ms.
# Drops the expired entries; returns the live ones' data.
_LISTED = """
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
for i = 1, #expired, 500 do
  redis.call('HDEL', KEYS[2], unpack(expired, i, math.min(i + 499, #expired)))
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local live = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf')
local out = {}
for i = 1, #live, 500 do
  local part = redis.call('HMGET', KEYS[2], unpack(live, i, math.min(i + 499, #live)))
  for _, value in ipairs(part) do
    if value then out[#out + 1] = value end
  end
end
return out
"""

# KEYS: worker name. ARGV: this process's instance token, ttl ms. Returns 1 if the name is (now)
# this process's, 0 if another live process holds it.
_CLAIM_NAME = """
local held = redis.call('GET', KEYS[1])
if held and held ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""

# KEYS: worker name. ARGV: instance token. Drops the name only if this process holds it.
_RELEASE_NAME = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS: lease. ARGV: owner. Returns 1 if released.
_RELEASE = """
if redis.call('HGET', KEYS[1], 'owner') == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


_TRIES = 4  # a command to Redis and its retries


def command_timeout_for(lease_seconds: float) -> float:
    """A try's timeout such that a command Redis does not answer is given up within a lease,
    retries and their backoff included (at most a second: Redis answers in well under that)."""
    return min(1.0, lease_seconds / (_TRIES + 1))


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
        self._redis: redis.Redis = redis.Redis.from_url(
            url,
            socket_connect_timeout=2.0,
            socket_timeout=command_timeout,
            health_check_interval=10,
            retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), _TRIES - 1),
            retry_on_error=[RedisConnectionError, RedisTimeoutError, OSError],
        )
        self._prefix = prefix
        self._backoff = (backoff_min, backoff_max)
        self._ping_seconds = ping_seconds  # a connection quiet this long is asked for a PONG
        self._subscribers: dict[str, list[Handler]] = {}
        self._subscribed: RespStream | None = None  # the listener's connection
        self._publisher = Publisher(url)
        self._listener: asyncio.Task[None] | None = None
        self._probes: dict[str, asyncio.Future[None]] = {}
        self._take = self._redis.register_script(_TAKE)
        self._renew = self._redis.register_script(_RENEW)
        self._renew_many = self._redis.register_script(_RENEW_MANY)
        self._release = self._redis.register_script(_RELEASE)
        self._raise = self._redis.register_script(_RAISE)
        self._listed = self._redis.register_script(_LISTED)
        self._claim_name = self._redis.register_script(_CLAIM_NAME)
        self._release_name = self._redis.register_script(_RELEASE_NAME)
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

    async def listening(self, topics: list[str]) -> list[bool]:
        """Whether any connection is subscribed to each topic. A worker killed with -9 drops
        its Redis connection, so its own topic goes quiet at once: no heartbeat needed."""
        counts = await self._redis.pubsub_numsub(*(self._channel(t) for t in topics))
        return [int(count) > 0 for _channel, count in counts]

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

    # -- leases --------------------------------------------------------------------------------

    async def take_lease(self, key: str, owner: str, ttl_seconds: float) -> int | None:
        """Take (or renew, if already ``owner``'s) the lease; its generation, None if taken."""
        keys = [self._key(key), self._key(key) + ":gen"]
        result = await self._take(keys=keys, args=[owner, _ms(ttl_seconds)])
        return None if result is None else int(result)

    async def renew(self, key: str, owner: str, generation: int, ttl_seconds: float) -> bool:
        """Extend the lease only if ``owner`` still holds it at ``generation``."""
        args: list[str | int] = [owner, str(generation), _ms(ttl_seconds)]
        return bool(await self._renew(keys=[self._key(key)], args=args))

    async def renew_many(self, leases: list[tuple[str, int]], owner: str, ttl_seconds: float
                         ) -> list[bool]:
        """``renew`` each (key, generation) of ``owner``: one script call per thousand leases."""
        renewed: list[bool] = []
        for start in range(0, len(leases), _RENEW_CHUNK):
            chunk = leases[start:start + _RENEW_CHUNK]
            args: list[str | int] = [owner, _ms(ttl_seconds)]
            args += [str(generation) for _, generation in chunk]
            results = await self._renew_many(keys=[self._key(key) for key, _ in chunk],
                                             args=args)
            renewed += [bool(result) for result in results]
        return renewed

    async def release(self, key: str, owner: str) -> None:
        await self._release(keys=[self._key(key)], args=[owner])

    async def claim_name(self, name: str, instance: str, ttl_seconds: float) -> bool:
        """Hold (or keep holding) the worker name ``name`` for the process ``instance``;
        False while another process holds it."""
        keys = [f"{self._prefix}worker:{name}"]
        return bool(await self._claim_name(keys=keys, args=[instance, _ms(ttl_seconds)]))

    async def release_name(self, name: str, instance: str) -> None:
        await self._release_name(keys=[f"{self._prefix}worker:{name}"], args=[instance])

    async def lease_holder(self, key: str) -> tuple[str, int] | None:
        """(owner, generation) of the current lease, None when nobody holds it."""
        return (await self.lease_holders([key]))[0]

    async def lease_holders(self, keys: list[str]) -> list[tuple[str, int] | None]:
        """``lease_holder`` of each key, in one round trip."""
        if not keys:
            return []
        async with self._redis.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.hmget(self._key(key), ["owner", "gen"])
            rows = await pipe.execute()
        holders: list[tuple[str, int] | None] = []
        for owner, generation in rows:
            if owner is None or generation is None:
                holders.append(None)
            else:
                name = owner.decode() if isinstance(owner, bytes) else str(owner)
                holders.append((name, int(generation)))
        return holders

    async def raise_generation(self, key: str, at_least: int) -> None:
        """Make the next lease of ``key`` get a generation above ``at_least`` (Redis lost its
        counters, e.g. restarted without its data, and the store knows a newer one)."""
        await self._raise(keys=[self._key(key) + ":gen"], args=[at_least])

    # -- a shared listing (public rooms across workers) ------------------------------------------

    async def list_entries(self, listing: str, entries: dict[str, dict[str, Any]],
                           ttl_seconds: float) -> None:
        """Put (or refresh) ``entries`` (key -> JSON-safe dict) in ``listing`` for
        ``ttl_seconds``: an entry nobody refreshes drops out by itself (its worker died)."""
        if not entries:
            return
        expires = int((time.time() + ttl_seconds) * 1000)
        index, data = self._listing_keys(listing)
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.zadd(index, dict.fromkeys(entries, expires))
            pipe.hset(data, mapping={
                key: compact_json(value) for key, value in entries.items()})
            await pipe.execute()

    async def unlist(self, listing: str, keys: list[str]) -> None:
        if not keys:
            return
        index, data = self._listing_keys(listing)
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.zrem(index, *keys)
            pipe.hdel(data, *keys)
            await pipe.execute()

    async def listed(self, listing: str) -> list[dict[str, Any]]:
        """Every live entry of ``listing`` (expired ones are dropped on the way)."""
        values = await self._listed(keys=list(self._listing_keys(listing)),
                                    args=[int(time.time() * 1000)])
        return [json.loads(value) for value in values]

    def _listing_keys(self, listing: str) -> tuple[str, str]:
        return f"{self._prefix}list:{listing}", f"{self._prefix}list:{listing}:data"

    # -- the supervised listener ------------------------------------------------------------------

    def _channel(self, topic: str) -> str:
        return f"{self._prefix}bus:{topic}"

    def _key(self, key: str) -> str:
        return f"{self._prefix}lease:{key}"

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


def _ms(seconds: float) -> int:
    return max(1, int(seconds * 1000))
