"""Room ownership on Redis leases: one worker runs a room; a worker that lost the lease writes
nothing to the store (every write is fenced: by the lease as the worker last saw it, and by the
store at the lease's generation)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from app.cluster.leases import LeaseLost, Ownership, WorkerNameTaken
from app.cluster.redis_bus import RedisBus
from app.config import Settings
from app.rooms.errors import RoomError
from app.store.base import RoomRecord
from app.store.errors import Fenced
from app.store.guarded import GuardedStore
from app.store.memory import MemoryRoomStore
from tests.cluster.leased import leased_registry
from tests.rooms.opening import open_room
from tests.services import redis_url


@pytest.fixture
async def bus() -> AsyncIterator[RedisBus]:
    redis = RedisBus(redis_url(), prefix=f"test:{uuid.uuid4().hex[:12]}:")
    try:
        yield redis
    finally:
        async with asyncio.timeout(10):
            await redis.close()


def count_commands(bus: RedisBus) -> Callable[[], int]:
    """How many commands ``bus`` has sent to Redis since this call."""
    calls = 0
    send: Any = bus._redis.execute_command

    async def counted(*args: Any, **options: Any) -> Any:
        nonlocal calls
        calls += 1
        return await send(*args, **options)

    bus._redis.execute_command = counted  # type: ignore[method-assign]
    return lambda: calls


def record(seq: int) -> RoomRecord:
    return RoomRecord(seq, 0, {"type": "draw"}, 0, [])


async def test_a_room_claimed_by_one_worker_is_refused_to_another(bus: RedisBus) -> None:
    one, two = Ownership(bus.keys, "w1", 5), Ownership(bus.keys, "w2", 5)
    async with asyncio.timeout(5):
        await one.claim("ABCD")
        with pytest.raises(RoomError) as refused:
            await two.claim("ABCD")
        assert refused.value.status == 503
        await one.release("ABCD")
        await two.claim("ABCD")


async def test_a_worker_whose_lease_lapsed_and_moved_on_cannot_write_the_room(
    bus: RedisBus,
) -> None:
    stale, fresh = Ownership(bus.keys, "w1", 0.05), Ownership(bus.keys, "w2", 5)
    shared = MemoryRoomStore()
    stale_store = GuardedStore(shared, stale.check_cached)
    fresh_store = GuardedStore(shared, fresh.check_cached)
    async with asyncio.timeout(5):
        await stale.claim("ABCD")
        await stale_store.create_room("ABCD", {"code": "ABCD"})
        await stale_store.append("ABCD", record(1), None)
        await asyncio.sleep(0.15)  # frozen past its lease
        await fresh.claim("ABCD")
        await fresh_store.append("ABCD", record(2), None)
        with pytest.raises(LeaseLost):
            await stale_store.append("ABCD", record(3), None)
        with pytest.raises(LeaseLost):
            await stale.check("ABCD")
        stored = await shared.load_room("ABCD")
        assert stored is not None
        assert [r.seq for r in stored.records] == [1, 2]


async def test_the_renewer_keeps_a_lease_alive_and_reports_one_it_lost(bus: RedisBus) -> None:
    mine = Ownership(bus.keys, "w1", 1.0)
    lost: list[str] = []

    async def on_lost(code: str) -> None:
        lost.append(code)

    async with asyncio.timeout(5):
        await mine.claim("KEEP")
        await mine.claim("GONE")
        mine.run(on_lost)
        try:
            await bus.keys.release("room:GONE", "w1")  # as if it had lapsed
            await Ownership(bus.keys, "w2", 5).claim("GONE")
            await asyncio.sleep(1.5)  # past the TTL: only renewal keeps KEEP
            assert lost == ["GONE"]
            assert await bus.keys.lease_holder("room:KEEP") == ("w1", mine.generations["KEEP"])
        finally:
            await mine.close()
        assert await bus.keys.lease_holder("room:KEEP") is None  # handed over on shutdown


async def test_an_owner_whose_lease_moved_on_is_fenced_by_the_store_even_before_it_notices(
    bus: RedisBus,
) -> None:
    # The stale worker's lease looks fresh to it (renewed well within the TTL, so no Redis
    # check before writing): the store's fence at the newer generation refuses its write.
    stale, fresh = Ownership(bus.keys, "w1", 30), Ownership(bus.keys, "w2", 30)
    shared = MemoryRoomStore()
    stale_store = GuardedStore(shared, stale.check_cached)
    fresh_store = GuardedStore(MemoryRoomStore(shared=shared), fresh.check_cached)
    async with asyncio.timeout(5):
        generation = await stale.claim("ABCD")
        await stale_store.create_room("ABCD", {"code": "ABCD"})
        await stale_store.take_over("ABCD", generation)
        await stale_store.append("ABCD", record(1), None)
        await bus.keys.release("room:ABCD", "w1")  # as if it had lapsed while w1 was frozen
        await fresh_store.take_over("ABCD", await fresh.claim("ABCD"))
        with pytest.raises(Fenced):
            await stale_store.append("ABCD", record(2), None)
        await fresh_store.append("ABCD", record(2), None)
        stored = await shared.load_room("ABCD")
        assert stored is not None
        assert [(r.seq, r.command) for r in stored.records] == [
            (1, {"type": "draw"}), (2, {"type": "draw"})]


async def test_a_takeover_after_redis_lost_its_counters_moves_past_the_stores_generation(
    bus: RedisBus,
) -> None:
    # Redis restarted empty: the next lease of a room gets generation 1 again, below what the
    # store holds. The worker taking the room over moves the counter past it and claims again.
    first = MemoryRoomStore()
    old, old_place = leased_registry(first, bus, "w1", Settings(database_url="memory://"))
    try:
        async with asyncio.timeout(5):
            code, _, _ = await open_room(old, "Ann")
            for _ in range(3):  # a few takeovers: the store's generation is well above 1
                await old_place.ownership.release(code)
                await old.store.take_over(code, await old_place.ownership.claim(code))
            held = old_place.ownership.generations[code]
            assert held >= 4
            await old.close()
            await old_place.ownership.close()
            await bus.keys.release(f"room:{code}", "w1")
            await bus._redis.delete(bus.keys._key(f"room:{code}") + ":gen")  # the counter is gone

            new, new_place = leased_registry(MemoryRoomStore(shared=first), bus, "w2",
                                             Settings(database_url="memory://"))
            room = await new.get(code)
            assert room is not None and not room.stopped
            assert new_place.ownership.generations[code] == held + 1
            assert await bus.keys.lease_holder(f"room:{code}") == ("w2", held + 1)
            await new.close()
            await new_place.ownership.close()
    finally:
        await old.close()


async def test_every_lease_is_renewed_in_one_round_trip(bus: RedisBus) -> None:
    mine = Ownership(bus.keys, "w1", 1.0)
    async with asyncio.timeout(5):
        for n in range(20):
            await mine.claim(f"R{n:02d}")
        await bus.keys.release("room:R07", "w1")  # as if it had lapsed
        await Ownership(bus.keys, "w2", 5).claim("R07")
        calls = count_commands(bus)
        assert await mine.renew_all() == ["R07"]
        assert calls() == 1  # one script call for every lease (not one command per lease)
        await asyncio.sleep(0.6)
        assert await mine.renew_all() == []  # renewed: still held past the first TTL third
        assert sorted(mine.generations) == [f"R{n:02d}" for n in range(20) if n != 7]
        holders = await bus.keys.lease_holders([f"room:R{n:02d}" for n in range(20)])
        assert [h[0] if h else None for h in holders] == ["w2" if n == 7 else "w1"
                                                          for n in range(20)]
        await mine.close()


async def test_renewals_go_by_the_thousand_and_renew_only_the_leases_still_held(
    bus: RedisBus,
) -> None:
    leases = []
    async with asyncio.timeout(10):
        for n in range(1500):
            generation = await bus.keys.take_lease(f"room:M{n}", "w1", 5)
            assert generation is not None
            leases.append((f"room:M{n}", generation))
        await bus.keys.release("room:M3", "w1")
        assert await bus.keys.take_lease("room:M3", "w2", 5) is not None  # held by another now
        leases[1200] = ("room:M1200", leases[1200][1] + 1)  # a generation this worker lost
        calls = count_commands(bus)
        renewed = await bus.keys.renew_many(leases, "w1", 60)
        assert calls() == 2
        assert [n for n, ok in enumerate(renewed) if not ok] == [3, 1200]
        assert await bus._redis.pttl(bus.keys._key("room:M1499")) > 5000  # extended to 60 s
        assert await bus._redis.pttl(bus.keys._key("room:M1200")) <= 5000  # not this generation's
        assert await bus.keys.renew_many([], "w1", 60) == []


async def test_a_lease_given_up_or_lost_is_reported_to_the_release_hooks(bus: RedisBus) -> None:
    mine = Ownership(bus.keys, "w1", 1.0)
    released: list[str] = []
    mine.on_release.append(released.append)
    async with asyncio.timeout(5):
        for code in ("A1", "A2", "A3"):
            await mine.claim(code)
        await mine.release("A1")
        await bus.keys.release("room:A2", "w1")  # as if it had lapsed
        await Ownership(bus.keys, "w2", 5).claim("A2")
        assert await mine.renew_all() == ["A2"]
        await bus.keys.release("room:A3", "w1")
        await Ownership(bus.keys, "w2", 5).claim("A3")
        with pytest.raises(LeaseLost):
            await mine.check("A3")
    assert released == ["A1", "A2", "A3"]


async def test_a_second_process_with_the_same_worker_name_is_refused(bus: RedisBus) -> None:
    """Leases know a worker by name: two processes named alike would both own its rooms."""
    first, second = Ownership(bus.keys, "same", 0.5), Ownership(bus.keys, "same", 0.5)

    async def nothing_lost(code: str) -> None:
        raise AssertionError(f"no lease to lose ({code})")

    async with asyncio.timeout(5):
        await first.claim_name(wait=True)
        first.run(nothing_lost)  # renews its name with its leases
        with pytest.raises(WorkerNameTaken):
            await second.claim_name(wait=True)  # waits past the TTL: the name stays taken
        await first.close()  # a worker stopping gives its name up
        await second.claim_name()
        await second.close()


async def test_a_restarted_worker_waits_out_the_name_of_its_dead_predecessor(
    bus: RedisBus,
) -> None:
    dead, restarted = Ownership(bus.keys, "w-restart", 0.5), Ownership(bus.keys, "w-restart", 0.5)
    async with asyncio.timeout(5):
        await dead.claim_name()  # then killed: never renewed, never released
        with pytest.raises(WorkerNameTaken):
            await restarted.claim_name()  # without waiting: still held
        await restarted.claim_name(wait=True)  # expires within one TTL
        await restarted.close()
