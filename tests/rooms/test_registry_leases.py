"""The registry and room leases, workers in one process (real Redis, a shared in-memory store):
a room unloaded and asked for again at once keeps the lease it is loaded under; a room that
moved to another worker stays in the shared list."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest

from app.cluster.leases import lease_key
from app.cluster.listing import PUBLIC_LISTING
from app.cluster.redis_bus import RedisBus
from app.config import Settings
from app.engine.commands import Chat
from app.rooms.command_table import COMMANDS
from app.rooms.errors import RoomUnavailable
from app.rooms.people import Person
from app.store.base import StoredRoom
from app.store.memory import MemoryRoomStore
from tests.cluster.leased import leased_registry
from tests.rooms.opening import open_room
from tests.services import redis_url

IDLE_SECONDS = 0.5


class Worker:
    def __init__(self, name: str, store: MemoryRoomStore, prefix: str) -> None:
        self.redis = RedisBus(redis_url(), prefix=prefix)
        self.registry, self.placement = leased_registry(
            store, self.redis, name,
            Settings(database_url="memory://", idle_seconds=IDLE_SECONDS,
                     bot_delay_ms=(5000, 5000)))
        self.ownership = self.placement.ownership

    async def close(self) -> None:
        await self.registry.close()
        await self.ownership.close()
        await self.redis.close()


@pytest.fixture
async def workers() -> AsyncIterator[tuple[Worker, Worker]]:
    prefix, store = f"test:{uuid.uuid4().hex[:12]}:", MemoryRoomStore()
    pair = (Worker("a", store, prefix), Worker("b", MemoryRoomStore(shared=store), prefix))
    try:
        yield pair
    finally:
        async with asyncio.timeout(10):
            for one in pair:
                await one.close()


@pytest.fixture
def worker(workers: tuple[Worker, Worker]) -> Worker:
    return workers[0]


async def test_a_room_loaded_again_right_after_it_was_unloaded_keeps_its_new_lease(
    worker: Worker,
) -> None:
    """Unloading releases the room's lease in the background; a load that claims the lease
    again meanwhile (a client asking at once, Redis slow to answer) must not lose it to that
    release: the room would run here with no lease, and another worker could take it."""
    registry, redis = worker.registry, worker.redis
    slow_unlist = redis.keys.unlist

    async def unlist(listing: str, keys: list[str]) -> None:
        await asyncio.sleep(0.2)  # Redis (or this worker's event loop) slow to answer
        await slow_unlist(listing, keys)

    redis.keys.unlist = unlist  # type: ignore[method-assign]
    async with asyncio.timeout(10):
        code, seat, _ = await open_room(registry, "Ann")
        room = registry.rooms[code]
        await room.command(Person(seat), COMMANDS.from_wire({"type": "add_bot"}))
        await room.command(Person(seat), COMMANDS.from_wire({"type": "start"}))
        while code in registry.rooms:  # nobody connected: parked after IDLE_SECONDS
            await asyncio.sleep(0.01)
        again = await registry.get(code)  # asked for at once: loaded again, lease claimed
        assert again is not None and again is not room and registry.rooms[code] is again
        await asyncio.gather(*list(worker.placement._releasing))  # the unload's release is over
        holder = await redis.keys.lease_holder(lease_key(code))
        assert holder is not None and holder[0] == "a", holder
        assert worker.ownership.generations.get(code) == holder[1]
        await again.command(Person(seat), Chat("hi"))


async def test_a_closed_room_asked_for_while_it_is_unloaded_still_gives_its_lease_up(
    worker: Worker,
) -> None:
    registry, redis = worker.registry, worker.redis
    slow_unlist, slow_load = redis.keys.unlist, registry.store.load_room

    async def unlist(listing: str, keys: list[str]) -> None:
        await asyncio.sleep(0.2)
        await slow_unlist(listing, keys)

    async def load_room(code: str) -> StoredRoom | None:
        await asyncio.sleep(0.4)  # still looking when the unload's release goes on
        return await slow_load(code)

    redis.keys.unlist = unlist  # type: ignore[method-assign]
    registry.store.load_room = load_room  # type: ignore[method-assign]
    async with asyncio.timeout(10):
        code, _, _ = await open_room(registry, "Ann")
        while code in registry.rooms:  # nobody connected, no match: closed after a while
            await asyncio.sleep(0.01)
        assert await registry.get(code) is None  # closed: nothing to load
        await asyncio.gather(*list(worker.placement._releasing))
        assert await redis.keys.lease_holder(lease_key(code)) is None
        assert code not in worker.ownership.generations  # not renewed forever


async def test_a_room_taken_over_by_another_worker_stays_in_the_shared_list(
    workers: tuple[Worker, Worker],
) -> None:
    a, b = workers
    b.registry.settings = Settings(database_url="memory://")  # b's room is not unloaded
    async with asyncio.timeout(10):
        code, seat, _ = await open_room(a.registry, "Ann")  # public: listed at once
        stale = a.registry.rooms[code]
        await a.redis.keys.release(lease_key(code), "a")  # a's lease lapsed (it froze, say)
        assert await b.registry.get(code) is not None  # b took the room over
        await b.placement.listing.list_rooms({  # b's sweep tick lists it
            code: b.registry.summary(room) for code, room in b.registry.rooms.items()})
        with pytest.raises(RoomUnavailable):  # a's write is fenced out: its room stops
            await stale.command(Person(seat), Chat("stale"))
        while code in a.registry.rooms:
            await asyncio.sleep(0.01)
        await asyncio.gather(*list(a.placement._releasing))
        listed = await a.redis.keys.listed(PUBLIC_LISTING)
        assert code in {entry["code"] for entry in listed}  # b's entry, not unlisted by a
        assert code in {room["code"] for room in await a.registry.listed_rooms()}


async def test_two_rooms_created_at_once_with_the_same_code_each_keep_a_lease(
    worker: Worker, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two hosts create rooms on one worker at the same moment and both draw the same code:
    one gets it, the other another code, and both rooms take moves (the loser giving the code
    back must not release the winner's lease: it was the winner's 503 on its first join)."""
    codes = iter(["CXWP", "CXWP", "BDFG", "HJKL"])
    monkeypatch.setattr("app.rooms.registry.new_room_code", lambda: next(codes))
    registry = worker.registry
    async with asyncio.timeout(10):
        made = await asyncio.gather(open_room(registry, "Ann"), open_room(registry, "Bob"))
        assert sorted(code for code, _, _ in made) == ["BDFG", "CXWP"]
        for code, seat, _ in made:
            assert code in worker.ownership.generations
            holder = await worker.redis.keys.lease_holder(lease_key(code))
            assert holder is not None and holder[0] == "a"
            await registry.rooms[code].command(Person(seat), Chat("hi"))
