"""The bus on a Redis Cluster (app/cluster/cluster_bus.py), three masters and three replicas
started here: each room's messages travel on its own master only, in order, to every worker
listening; a reply reaches its addressee after the events before it; every script touches one
slot; a slot moved under a room, or a master killed and its replica promoted, loses no message
published after the worker is told which topics to resume, and the leases held there survive."""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest

from app.cluster.cluster_bus import ClusterBus
from app.cluster.deaths import DEAD_AFTER, DeathWatch
from app.cluster.topology import slot_of
from tests.cluster.redis_cluster import RedisClusterServers, RedisNode, private_cluster


@pytest.fixture(scope="module")
def servers() -> Iterator[RedisClusterServers]:
    with private_cluster() as running:
        yield running


@pytest.fixture
def prefix() -> str:
    return f"test:{uuid.uuid4().hex[:12]}:"


@contextlib.asynccontextmanager
async def buses(servers: RedisClusterServers, prefix: str, count: int = 2
                ) -> AsyncIterator[list[ClusterBus]]:
    made = [ClusterBus(servers.seeds, prefix=prefix, retry_seconds=15.0) for _ in range(count)]
    try:
        for bus in made:
            await bus.start()
        yield made
    finally:
        async with asyncio.timeout(10):
            for bus in made:
                await bus.close()


async def until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.01)


def room_slot(prefix: str, code: str) -> int:
    return slot_of(f"{prefix}bus:room:{{{code}}}".encode())


def rooms_on_every_master(servers: RedisClusterServers, prefix: str, each: int = 2
                          ) -> dict[str, list[str]]:
    """Room codes, ``each`` per master, by the master's node id."""
    owners = servers.slot_owners()
    found: dict[str, list[str]] = {}
    for n in range(10_000):
        code = f"R{n:04d}"
        codes = found.setdefault(owners[room_slot(prefix, code)], [])
        if len(codes) < each:
            codes.append(code)
        if len(found) == 3 and all(len(c) == each for c in found.values()):
            return found
    raise AssertionError("no room codes found on every master")


def pubsub_connections(node: RedisNode) -> int:
    return sum(1 for line in node.cli("CLIENT", "LIST", "TYPE", "pubsub").splitlines() if line)


async def test_rooms_on_every_master_carry_their_messages_in_order_to_each_worker_over_one_connection_per_master(  # noqa: E501
    servers: RedisClusterServers, prefix: str,
) -> None:
    by_master = rooms_on_every_master(servers, prefix, each=4)
    codes = [code for group in by_master.values() for code in group]
    before = {node.name: pubsub_connections(node) for node in servers.masters()}
    async with buses(servers, prefix) as (owner, other):
        got: dict[str, list[int]] = {code: [] for code in codes}
        def recorder(seqs: list[int]) -> Callable[[dict[str, Any]], None]:
            return lambda message: seqs.append(message["seq"])

        for code in codes:
            other.subscribe(f"room:{code}", recorder(got[code]))
        for code in codes:
            await other.ready(f"room:{code}")
        for seq in range(1, 51):
            for code in codes:
                owner.post(f"room:{code}", {"seq": seq})
        await owner.flush()
        await until(lambda: all(len(seqs) == 50 for seqs in got.values()))
        assert all(seqs == list(range(1, 51)) for seqs in got.values())
        # Each room's channel is subscribed on its own master only (sharded pub/sub: masters
        # added carry more rooms), and the twelve rooms take one connection per master.
        for master in servers.masters():
            counts = master.cli("PUBSUB", "SHARDNUMSUB",
                                *(f"{prefix}bus:room:{{{code}}}" for code in codes)).split()
            mine = by_master[master.node_id]
            assert {name: int(n) for name, n in zip(counts[::2], counts[1::2], strict=True)} == {
                f"{prefix}bus:room:{{{code}}}": 1 if code in mine else 0 for code in codes}
            assert pubsub_connections(master) == before[master.name] + 1


async def test_a_reply_reaches_its_addressee_after_the_events_before_it_and_nobody_else(
    servers: RedisClusterServers, prefix: str,
) -> None:
    async with buses(servers, prefix, count=3) as (owner, caller, bystander):
        arrivals: list[tuple[str, Any]] = []
        caller.subscribe("room:ABCD", lambda m: arrivals.append(("event", m["seq"])))
        caller.subscribe("worker:caller", lambda m: arrivals.append(("reply", m["reply"])))
        overheard: list[Any] = []
        bystander.subscribe("room:ABCD", overheard.append)
        bystander.subscribe("worker:bystander", overheard.append)
        for bus in (caller, bystander):
            await bus.ready("room:ABCD")
        # The caller's own topic hashes elsewhere: the reply goes on the room's channel.
        assert slot_of(f"{prefix}bus:worker:{{caller}}".encode()) != room_slot(prefix, "ABCD")
        for seq in range(1, 21):
            owner.post("room:ABCD", {"seq": seq})
            owner.post(owner.reply_topic("worker:caller", "ABCD"), {"reply": seq})
        await owner.flush()
        await until(lambda: len(arrivals) == 40)
        assert arrivals == [(kind, n) for n in range(1, 21) for kind in ("event", "reply")]
        await until(lambda: len(overheard) == 20)
        assert overheard == [{"seq": n} for n in range(1, 21)]  # the events, no reply


async def test_every_script_of_a_room_touches_one_slot_and_leases_on_every_master_renew_at_once(
    servers: RedisClusterServers, prefix: str,
) -> None:
    by_master = rooms_on_every_master(servers, prefix, each=5)
    codes = [code for group in by_master.values() for code in group]
    async with buses(servers, prefix, count=1) as (bus,):
        keys = bus.keys
        held = [(f"room:{code}", await keys.take_lease(f"room:{code}", "w1", 30.0))
                for code in codes]
        assert all(generation == 1 for _, generation in held)
        assert await keys.take_lease(held[1][0], "w2", 30.0) is None  # w1's
        renewed = await keys.renew_many(
            [(key, generation or 0) for key, generation in held] + [("room:NOPE", 1)], "w1", 30.0)
        assert renewed == [True] * len(codes) + [False]
        await keys.raise_generation(held[0][0], 41)
        await keys.release(held[0][0], "w1")
        assert await keys.take_lease(held[0][0], "w2", 30.0) == 42
        # The room's lease, its counter and its channel share the room's slot.
        master = next(iter(servers.masters()))
        for code in codes[:3]:
            slots = {int(master.cli("CLUSTER", "KEYSLOT", name)) for name in (
                f"{prefix}lease:room:{{{code}}}", f"{prefix}lease:room:{{{code}}}:gen",
                f"{prefix}bus:room:{{{code}}}")}
            assert slots == {room_slot(prefix, code)}
        # A listing spread over the masters reads back whole, and forgets what expires.
        await keys.list_entries("public_rooms", {code: {"code": code} for code in codes}, 30.0)
        await keys.list_entries("public_rooms", {"GONE": {"code": "GONE"}}, 0.05)
        await asyncio.sleep(0.1)
        assert sorted(e["code"] for e in await keys.listed("public_rooms")) == sorted(codes)
        await keys.unlist("public_rooms", codes[:2])
        assert sorted(e["code"] for e in await keys.listed("public_rooms")) == sorted(codes[2:])


async def test_a_worker_is_taken_for_dead_only_once_its_topic_is_silent_on_every_master(
    servers: RedisClusterServers, prefix: str,
) -> None:
    async with buses(servers, prefix) as (mine, theirs):
        died: list[str] = []

        async def on_death(worker: str) -> None:
            died.append(worker)

        watch = DeathWatch(mine, "me", on_death)
        stop = theirs.subscribe("worker:them", lambda m: None)
        await theirs.ready("worker:them")
        await theirs.keys.register_worker("them")
        assert await watch.poll() == []
        stop()  # its process died: the subscription went with its connection
        await theirs.settled()
        assert await watch.poll() == []  # silent, but not for DEAD_AFTER yet
        await asyncio.sleep(DEAD_AFTER)
        assert await watch.poll() == ["them"] and died == ["them"]
        theirs.subscribe("worker:them", lambda m: None)  # restarted under its name
        await theirs.ready("worker:them")
        await watch.poll()
        assert "them" not in watch.dead


class Stream:
    """A publisher sending ``{"n": 1, 2, ...}`` on one topic, five every few milliseconds (four
    posted, the fifth awaited: several are in flight when a master answers MOVED or dies), and
    a subscriber recording what arrives."""

    def __init__(self, publisher: ClusterBus, subscriber: ClusterBus, topic: str) -> None:
        self.publisher, self.subscriber, self.topic = publisher, subscriber, topic
        self.sent = 0
        self.got: list[int] = []
        self.lost_at: list[int] = []  # ``sent`` when the subscriber was told to resume
        self.failures: list[BaseException] = []
        subscriber.subscribe(topic, lambda m: self.got.append(m["n"]))
        subscriber.on_topics_lost.append(self._lost)
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    def _lost(self, topics: frozenset[str]) -> None:
        if self.topic in topics:
            self.lost_at.append(self.sent)

    async def start(self) -> None:
        await self.subscriber.ready(self.topic)
        self._task = asyncio.create_task(self._send())

    async def _send(self) -> None:
        while not self._stopping:
            try:
                for _ in range(4):
                    self.sent += 1
                    self.publisher.post(self.topic, {"n": self.sent})
                self.sent += 1
                await self.publisher.publish(self.topic, {"n": self.sent})
            except Exception as exc:  # a post raises the error that lost an earlier one
                self.failures.append(exc)
            await asyncio.sleep(0.005)

    async def stop(self) -> None:
        assert self._task is not None
        self._stopping = True
        await self._task
        await self.publisher.flush()
        await asyncio.sleep(0.2)

    def check(self, in_flight: int = 0) -> None:
        """In order, nothing lost after the resume; at most ``in_flight`` sends failed (those
        written to a master as it died: they may have reached the subscriber, so they are not
        sent again, as on one Redis)."""
        assert len(self.failures) <= in_flight, self.failures
        assert all(isinstance(failure, ConnectionError) for failure in self.failures)
        assert self.got == sorted(self.got) and len(set(self.got)) == len(self.got)  # in order
        assert len(self.lost_at) == 1, self.lost_at
        after = [n for n in range(self.lost_at[0] + 1, self.sent + 1)]
        assert [n for n in self.got if n > self.lost_at[0]] == after  # none lost since


async def test_a_slot_moved_under_a_room_mid_stream_loses_nothing_after_the_resume_and_keeps_its_lease(  # noqa: E501
    servers: RedisClusterServers, prefix: str,
) -> None:
    async with buses(servers, prefix) as (owner, other):
        code = "MOVE"
        slot = room_slot(prefix, code)
        generation = await owner.keys.take_lease(f"room:{code}", "w1", 30.0)
        stream = Stream(owner, other, f"room:{code}")
        await stream.start()
        await asyncio.sleep(0.2)
        source = servers.owner_of_slot(slot)
        target = next(node for node in servers.masters() if node is not source)
        started = time.monotonic()
        moved = await asyncio.to_thread(servers.migrate_slot, slot, target, 0.05)
        assert moved >= 2  # the lease and its counter (and any other test's key there)
        # Renewed in the middle of it all (ASK, then MOVED: redis-py follows).
        assert await owner.keys.renew_many([(f"room:{code}", generation or 0)], "w1", 30.0) == [
            True]
        await until(lambda: bool(stream.lost_at))
        took = time.monotonic() - started
        await asyncio.sleep(0.3)
        await stream.stop()
        stream.check()
        assert owner.redirects > 0  # published to the old master, sent again to the new one
        assert servers.owner_of_slot(slot) is target
        assert await other.keys.lease_holder(f"room:{code}") == ("w1", generation)
        print(f"\nslot {slot} moved with a room on it: its subscriber resumed "
              f"{took:.2f} s after the move began")


def worker_on(servers: RedisClusterServers, prefix: str, master: RedisNode) -> str:
    """A worker name whose topic's slot ``master`` serves."""
    owners = servers.slot_owners()
    return next(name for name in (f"w{n}" for n in range(10_000))
                if owners[slot_of(f"{prefix}bus:worker:{{{name}}}".encode())] == master.node_id)


async def test_a_master_killed_mid_stream_is_replaced_by_its_replica_and_nothing_is_lost_after_the_resume(  # noqa: E501
    servers: RedisClusterServers, prefix: str,
) -> None:
    async with buses(servers, prefix) as (owner, other):
        code = "FAIL"
        slot = room_slot(prefix, code)
        generation = await owner.keys.take_lease(f"room:{code}", "w1", 60.0)
        stream = Stream(owner, other, f"room:{code}")
        await stream.start()
        master = servers.owner_of_slot(slot)
        # A worker whose own topic is on that master too: alive all along, never taken for dead.
        alive = worker_on(servers, prefix, master)
        other.subscribe(f"worker:{alive}", lambda m: None)
        await other.ready(f"worker:{alive}")
        await other.keys.register_worker(alive)
        died: list[str] = []

        async def on_death(worker: str) -> None:
            died.append(worker)

        watch = DeathWatch(owner, "watcher", on_death)
        watching = asyncio.create_task(watch.run())
        await asyncio.sleep(0.3)
        await asyncio.to_thread(master.cli, "WAIT", "1", "1000")  # the lease is replicated
        killed = time.monotonic()
        replica = await asyncio.to_thread(servers.kill_master, master)
        promoted = time.monotonic() - killed
        try:
            await until(lambda: bool(stream.lost_at), 20.0)
            back = time.monotonic() - killed
            await asyncio.sleep(0.3)
            await stream.stop()
            stream.check(in_flight=2)  # a burst of five at most: its post and its publish
            assert servers.owner_of_slot(slot) is replica
            assert await other.keys.lease_holder(f"room:{code}") == ("w1", generation)
            await asyncio.sleep(DEAD_AFTER * 2)  # watched on the new master for a while too
            assert died == [] and not watch.dead
            print(f"\nmaster {master.name} killed: replica promoted after {promoted:.2f} s, "
                  f"its subscriber resumed after {back:.2f} s")
        finally:
            watching.cancel()
            await asyncio.to_thread(servers.restart, master)  # back, as the replica's replica
