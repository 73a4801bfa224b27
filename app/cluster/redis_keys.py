"""What workers share in Redis keys (redis-py): room leases with a generation, worker names,
and listings that expire (the public rooms, the spectators per room).

Leases: the key holds the owner and a generation drawn from a per-key counter (INCR), so every
new holder gets a higher number than all before it; writes are fenced with that number. Renewal
and release check owner and generation in one Lua script, so a worker frozen past its lease
cannot renew or drop a lease that has since passed to another worker.

On a Redis Cluster (``cluster=True``) every key of a room carries the room's hash tag
(``uno:lease:room:{ABCD}``, ``...:{ABCD}:gen``), so each script touches one slot; renewals go
as one script per slot, a pipeline per master (one master away: the others' leases are
renewed still); a listing is spread over ``LISTING_SHARDS`` pairs of keys, each pair under its
own tag, read all at once. On one Redis the keys are named as they always were.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import zlib
from collections.abc import Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, TypeVar

import redis.asyncio as redis
from redis.asyncio.cluster import RedisCluster

from app.jsonwire import compact_json

from .topology import slot_of, tagged

log = logging.getLogger("uno.bus")

# Shards of each listing on a Redis Cluster: its writes and reads spread over the masters.
LISTING_SHARDS = 8
# redis-py's cluster client fails a command at once when a master's connections are all in use
# (its single-Redis pool waits for one): on a cluster, at most this many calls here at a time
# wait their turn instead (each holds at most ``LISTING_SHARDS`` connections to one master).
CLUSTER_CALLS_AT_ONCE = 32

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _in_turn(method: Callable[Concatenate[RedisKeys, _P], Coroutine[Any, Any, _R]]
             ) -> Callable[Concatenate[RedisKeys, _P], Coroutine[Any, Any, _R]]:
    """Run ``method`` within ``CLUSTER_CALLS_AT_ONCE`` (on a cluster; never nested)."""
    async def run(self: RedisKeys, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        if self._turns is None:
            return await method(self, *args, **kwargs)
        async with self._turns:
            return await method(self, *args, **kwargs)
    run.__doc__ = method.__doc__
    return run

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


class RedisKeys:
    """``prefix`` namespaces every key (one per deployment)."""

    def __init__(self, client: redis.Redis | RedisCluster, prefix: str, *,
                 cluster: bool = False) -> None:
        self._redis = client
        self._prefix = prefix
        self._cluster = cluster
        self._shards = LISTING_SHARDS if cluster else 1
        self._turns = asyncio.Semaphore(CLUSTER_CALLS_AT_ONCE) if cluster else None
        self._take = client.register_script(_TAKE)
        self._renew = client.register_script(_RENEW)
        self._renew_many = client.register_script(_RENEW_MANY)
        self._release = client.register_script(_RELEASE)
        self._raise = client.register_script(_RAISE)
        self._listed = client.register_script(_LISTED)
        self._claim_name = client.register_script(_CLAIM_NAME)
        self._release_name = client.register_script(_RELEASE_NAME)

    # -- leases --------------------------------------------------------------------------------

    @_in_turn
    async def take_lease(self, key: str, owner: str, ttl_seconds: float) -> int | None:
        """Take (or renew, if already ``owner``'s) the lease; its generation, None if taken."""
        keys = [self._key(key), self._key(key) + ":gen"]
        result = await self._take(keys=keys, args=[owner, _ms(ttl_seconds)])
        return None if result is None else int(result)

    @_in_turn
    async def renew(self, key: str, owner: str, generation: int, ttl_seconds: float) -> bool:
        """Extend the lease only if ``owner`` still holds it at ``generation``."""
        args: list[str | int] = [owner, str(generation), _ms(ttl_seconds)]
        return bool(await self._renew(keys=[self._key(key)], args=args))

    @_in_turn
    async def renew_many(self, leases: list[tuple[str, int]], owner: str, ttl_seconds: float
                         ) -> list[bool | None]:
        """``renew`` each (key, generation) of ``owner``: one script call per thousand leases
        (on a cluster: per slot; None for a lease whose master did not answer)."""
        if self._cluster:
            return await self._renew_by_slot(leases, owner, ttl_seconds)
        renewed: list[bool | None] = []
        for start in range(0, len(leases), _RENEW_CHUNK):
            chunk = leases[start:start + _RENEW_CHUNK]
            args: list[str | int] = [owner, _ms(ttl_seconds)]
            args += [str(generation) for _, generation in chunk]
            results = await self._renew_many(keys=[self._key(key) for key, _ in chunk],
                                             args=args)
            renewed += [bool(result) for result in results]
        return renewed

    async def _renew_by_slot(self, leases: list[tuple[str, int]], owner: str,
                             ttl_seconds: float) -> list[bool | None]:
        assert isinstance(self._redis, RedisCluster)
        nodes = self._redis.nodes_manager
        by_node: dict[str, dict[int, list[int]]] = {}  # master -> slot -> indexes in leases
        for index, (key, _generation) in enumerate(leases):
            slot = slot_of(self._key(key).encode())
            node = nodes.get_node_from_slot(slot).name
            by_node.setdefault(node, {}).setdefault(slot, []).append(index)
        renewed: list[bool | None] = [None] * len(leases)

        async def on(slots: dict[int, list[int]]) -> None:
            async with self._redis.pipeline(transaction=False) as pipe:
                for indexes in slots.values():
                    pipe.eval(_RENEW_MANY, len(indexes),
                              *(self._key(leases[i][0]) for i in indexes), owner,
                              _ms(ttl_seconds), *(str(leases[i][1]) for i in indexes))
                results = await pipe.execute()
            for indexes, result in zip(slots.values(), results, strict=True):
                for index, one in zip(indexes, result, strict=True):
                    renewed[index] = bool(one)

        answers = await asyncio.gather(*(on(slots) for slots in by_node.values()),
                                       return_exceptions=True)
        for node, answer in zip(by_node, answers, strict=True):
            if isinstance(answer, BaseException):  # tried again next tick, within the TTL
                log.warning("leases on %s not renewed (%r)", node, answer)
        if all(isinstance(answer, BaseException) for answer in answers) and answers:
            raise RuntimeError("no master answered the lease renewals") from answers[0]
        return renewed

    @_in_turn
    async def release(self, key: str, owner: str) -> None:
        await self._release(keys=[self._key(key)], args=[owner])

    @_in_turn
    async def claim_name(self, name: str, instance: str, ttl_seconds: float) -> bool:
        """Hold (or keep holding) the worker name ``name`` for the process ``instance``;
        False while another process holds it."""
        keys = [f"{self._prefix}worker:{name}"]
        return bool(await self._claim_name(keys=keys, args=[instance, _ms(ttl_seconds)]))

    @_in_turn
    async def register_worker(self, name: str) -> None:
        """``name`` serves now, its topic listened to (``workers``)."""
        await self._redis.sadd(f"{self._prefix}workers", name)

    @_in_turn
    async def unregister_worker(self, name: str) -> None:
        await self._redis.srem(f"{self._prefix}workers", name)

    @_in_turn
    async def workers(self) -> list[str]:
        """The workers registered: serving, or dead and not yet noticed (DeathWatch)."""
        names = await self._redis.smembers(f"{self._prefix}workers")
        return sorted(n.decode() if isinstance(n, bytes) else str(n) for n in names)

    @_in_turn
    async def release_name(self, name: str, instance: str) -> None:
        await self._release_name(keys=[f"{self._prefix}worker:{name}"], args=[instance])

    async def lease_holder(self, key: str) -> tuple[str, int] | None:
        """(owner, generation) of the current lease, None when nobody holds it."""
        return (await self.lease_holders([key]))[0]

    @_in_turn
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

    @_in_turn
    async def raise_generation(self, key: str, at_least: int) -> None:
        """Make the next lease of ``key`` get a generation above ``at_least`` (Redis lost its
        counters, e.g. restarted without its data, and the store knows a newer one)."""
        await self._raise(keys=[self._key(key) + ":gen"], args=[at_least])

    # -- a shared listing (public rooms across workers) ------------------------------------------

    @_in_turn
    async def list_entries(self, listing: str, entries: dict[str, dict[str, Any]],
                           ttl_seconds: float) -> None:
        """Put (or refresh) ``entries`` (key -> JSON-safe dict) in ``listing`` for
        ``ttl_seconds``: an entry nobody refreshes drops out by itself (its worker died)."""
        if not entries:
            return
        expires = int((time.time() + ttl_seconds) * 1000)
        async with self._redis.pipeline(transaction=False) as pipe:
            for shard, keys in self._by_shard(list(entries)).items():
                index, data = self._listing_keys(listing, shard)
                pipe.zadd(index, dict.fromkeys(keys, expires))
                pipe.hset(data, mapping={key: compact_json(entries[key]) for key in keys})
            await pipe.execute()

    @_in_turn
    async def unlist(self, listing: str, keys: list[str]) -> None:
        if not keys:
            return
        async with self._redis.pipeline(transaction=False) as pipe:
            for shard, some in self._by_shard(keys).items():
                index, data = self._listing_keys(listing, shard)
                pipe.zrem(index, *some)
                pipe.hdel(data, *some)
            await pipe.execute()

    @_in_turn
    async def listed(self, listing: str) -> list[dict[str, Any]]:
        """Every live entry of ``listing`` (expired ones are dropped on the way). On a
        cluster, the shards on a master that does not answer are left out (logged)."""
        now = int(time.time() * 1000)
        parts = await asyncio.gather(*(
            self._listed(keys=list(self._listing_keys(listing, shard)), args=[now])
            for shard in range(self._shards)), return_exceptions=self._cluster)
        values: list[Any] = []
        for part in parts:
            if isinstance(part, BaseException):
                if len(parts) == 1 or all(isinstance(p, BaseException) for p in parts):
                    raise part
                log.warning("a shard of the %s listing not read (%r)", listing, part)
            else:
                values += part
        return [json.loads(value) for value in values]

    def _by_shard(self, keys: list[str]) -> dict[int, list[str]]:
        shards: dict[int, list[str]] = {}
        for key in keys:
            shard = zlib.crc32(key.encode()) % self._shards if self._shards > 1 else 0
            shards.setdefault(shard, []).append(key)
        return shards

    def _listing_keys(self, listing: str, shard: int = 0) -> tuple[str, str]:
        name = f"list:{{{listing}.{shard}}}" if self._cluster else f"list:{listing}"
        return f"{self._prefix}{name}", f"{self._prefix}{name}:data"

    def _key(self, key: str) -> str:
        return f"{self._prefix}lease:{tagged(key) if self._cluster else key}"


def _ms(seconds: float) -> int:
    return max(1, int(seconds * 1000))
