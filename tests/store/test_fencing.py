"""Fencing: once a newer owner took a room over (a higher lease generation), every write of the
older owner is refused inside the SQL statement that would store it, and nothing of it lands.
Runs on SQLite, Postgres and the in-memory store."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.bus import InProcessBus
from app.cluster.leases import lease_key
from app.cluster.redis_bus import RedisBus
from app.config import Settings
from app.engine.commands import Chat
from app.rooms import RoomRegistry
from app.rooms.command_table import COMMANDS
from app.rooms.errors import RoomUnavailable
from app.rooms.people import Person
from app.store.base import RoomStore
from app.store.db import create_engine, dispose_engine
from app.store.errors import Fenced, RoomExists, UnknownRoom
from app.store.memory import MemoryRoomStore
from app.store.sql import SqlRoomStore
from tests.cluster.leased import leased_registry
from tests.rooms.opening import open_room
from tests.services import redis_url

from .conftest import fresh_url
from .test_sql_room_store import record

Workers = Callable[[], RoomStore]  # each call: another worker's store on the same database


@pytest.fixture(params=["sqlite", "postgres", "memory"])
async def worker_store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Workers]:
    if request.param == "memory":
        first = MemoryRoomStore()
        yield lambda: MemoryRoomStore(shared=first)
        return
    db_url = await fresh_url(request, request.param, tmp_path)
    engines: list[AsyncEngine] = []

    def make() -> RoomStore:
        engines.append(create_engine(db_url))  # its own engine: its own process, really
        return SqlRoomStore(engines[-1])

    yield make
    for engine in engines:
        await dispose_engine(engine)


async def test_the_stale_owner_writes_nothing_once_a_newer_owner_took_the_room(
    worker_store: Workers,
) -> None:
    old, new = worker_store(), worker_store()
    await old.create_room("FENC", {"owner": "old"})
    await old.take_over("FENC", 1)
    await old.append("FENC", record(1), None)
    await old.save_snapshot("FENC", 1, {"at": 1})

    await new.take_over("FENC", 2)  # the old owner's lease lapsed: generation 2 takes over
    with pytest.raises(Fenced) as refused:
        await old.append("FENC", record(2), {"owner": "old, still"})
    assert (refused.value.generation, refused.value.current) == (1, 2)
    assert "another worker took it over" in refused.value.message
    with pytest.raises(Fenced):
        await old.save_snapshot("FENC", 2, {"at": 2})
    with pytest.raises(Fenced):
        await old.append("FENC", record(2), None, {"at": 2})  # nor a snapshot with a record
    with pytest.raises(Fenced):
        await old.park("FENC")
    with pytest.raises(Fenced):
        await old.close_room("FENC")

    loaded = await new.load_room("FENC")
    assert loaded is not None
    assert [r.seq for r in loaded.records] == []  # after the snapshot at 1: nothing of seq 2
    assert (loaded.snapshot, loaded.snapshot_seq) == ({"at": 1}, 1)
    assert loaded.meta == {"owner": "old"}
    assert "FENC" in await new.open_rooms()

    # The new owner writes on; the old one cannot take the room back with its old lease.
    await new.append("FENC", record(2), {"owner": "new"})
    with pytest.raises(Fenced):
        await old.take_over("FENC", 1)
    with pytest.raises(Fenced):
        await old.take_over("FENC", 2)  # the same generation is the new owner's alone
    await new.take_over("FENC", 2)  # ...who may claim it again (a renewed lease)
    loaded = await old.load_room("FENC")
    assert loaded is not None and loaded.meta == {"owner": "new"}
    assert [r.seq for r in loaded.records] == [2]


async def test_a_fenced_append_in_a_group_commit_fails_alone(worker_store: Workers) -> None:
    old, new = worker_store(), worker_store()
    for code in ("KEEP", "LOST"):
        await old.create_room(code, {})
        await old.take_over(code, 1)
    await new.take_over("LOST", 5)
    results = await asyncio.gather(
        old.append("KEEP", record(1), {"kept": 1}),
        old.append("LOST", record(1), {"lost": 1}),
        old.append("KEEP", record(2), None),
        return_exceptions=True,
    )
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], Fenced)
    kept, lost = await new.load_room("KEEP"), await new.load_room("LOST")
    assert kept is not None and [r.seq for r in kept.records] == [1, 2]
    assert kept.meta == {"kept": 1}
    assert lost is not None and (lost.records, lost.meta) == ([], {})


async def test_a_store_that_never_took_a_room_over_writes_unfenced(
    worker_store: Workers,
) -> None:
    # One worker, no leases (the in-process bus): nothing is fenced.
    store = worker_store()
    await store.create_room("SOLO", {})
    await store.take_over("SOLO", None)
    await store.append("SOLO", record(1), {"a": 1})
    with pytest.raises(UnknownRoom):
        await store.take_over("NONE", 3)
    loaded = await store.load_room("SOLO")
    assert loaded is not None and [r.seq for r in loaded.records] == [1]


async def test_the_sweep_sees_rooms_in_a_match_that_are_not_parked(
    worker_store: Workers,
) -> None:
    store = worker_store()
    meta: dict[str, Any] = {"phase": "in_match"}
    for code in ("PLAY", "IDLE", "LOBB", "DONE"):
        await store.create_room(code, meta if code != "LOBB" else {"phase": "lobby"})
    await store.park("IDLE")
    await store.close_room("DONE")
    assert await store.rooms_to_run() == ["PLAY"]
    await worker_store().take_over("IDLE", 1)  # loaded again: running, sweepable
    assert sorted(await store.rooms_to_run()) == ["IDLE", "PLAY"]


async def test_start_up_recovery_leaves_parked_rooms_in_the_store(worker_store: Workers) -> None:
    store = worker_store()
    for code in ("PLAY", "IDLE", "LOBB", "DONE"):
        await store.create_room(code, {"phase": "lobby" if code == "LOBB" else "in_match"})
    await store.park("IDLE")
    await store.close_room("DONE")
    assert sorted(await store.open_rooms()) == ["LOBB", "PLAY"]
    assert await store.load_room("IDLE") is not None  # still there, for whoever asks
    await worker_store().take_over("IDLE", None)  # loaded on demand: unparked
    assert sorted(await store.open_rooms()) == ["IDLE", "LOBB", "PLAY"]


async def test_a_fenced_room_stops_on_the_stale_worker_without_acknowledging(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The room actor whose write is fenced out answers the command with ``unavailable`` (no
    ack), stops and leaves the registry: this worker no longer acts as the room's owner."""
    url = await fresh_url(request, "sqlite", tmp_path)
    engines = [create_engine(url), create_engine(url)]
    old, new = SqlRoomStore(engines[0]), SqlRoomStore(engines[1])
    registry = RoomRegistry(old, InProcessBus(), Settings(database_url=url))
    try:
        code, seat, _ = await open_room(registry, "Ann")
        await old.take_over(code, 1)  # this worker's lease: generation 1
        room = await registry.get(code)
        assert room is not None
        await room.command(Person(seat), COMMANDS.from_wire({"type": "add_bot"}))

        await new.take_over(code, 2)  # another worker took the room over
        with pytest.raises(RoomUnavailable):
            await room.command(Person(seat), COMMANDS.from_wire({"type": "add_bot"}))
        async with asyncio.timeout(5):
            while code in registry.rooms:
                await asyncio.sleep(0.01)
        assert room.stopped
        stored = await new.load_room(code)
        assert stored is not None
        assert [r.command["type"] for r in stored.records] == ["add_bot"]  # one, not two
        assert len(stored.meta["seats"]) == 2
    finally:
        await registry.close()
        for engine in engines:
            await dispose_engine(engine)


async def test_on_postgres_an_append_racing_a_takeover_waits_for_it_and_is_refused(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The takeover's UPDATE of the room row holds the row while the stale owner's insert is
    on its way: the insert (share-locking the row) waits, then sees the new generation. Without
    the lock it would read the old generation and land after the new owner loaded the room."""
    url = await fresh_url(request, "postgres", tmp_path)
    engines = [create_engine(url), create_engine(url)]
    try:
        old = SqlRoomStore(engines[0])
        await old.create_room("RACE", {})
        await old.take_over("RACE", 1)
        await old.append("RACE", record(1), None)
        async with engines[1].connect() as conn:
            takeover = await conn.begin()
            await conn.execute(text("UPDATE rooms SET generation = 2 WHERE code = 'RACE'"))
            pending = asyncio.create_task(old.append("RACE", record(2), None))
            await asyncio.sleep(0.3)
            assert not pending.done()  # waiting for the takeover to commit
            await takeover.commit()
        with pytest.raises(Fenced):
            await asyncio.wait_for(pending, 5)
        loaded = await old.load_room("RACE")
        assert loaded is not None and [r.seq for r in loaded.records] == [1]
    finally:
        for engine in engines:
            await dispose_engine(engine)


def fences(store: RoomStore) -> dict[str, int]:
    """The per-room fencing entries a store keeps (SQL and memory alike)."""
    assert isinstance(store, SqlRoomStore | MemoryRoomStore)
    return dict(store._fences)


async def test_a_forgotten_room_keeps_its_pending_stale_writes_fenced(
    worker_store: Workers,
) -> None:
    old, new = worker_store(), worker_store()
    assert isinstance(old, SqlRoomStore | MemoryRoomStore)
    for code in ("GONE", "BACK"):
        await old.create_room(code, {"n": 0})
        await old.take_over(code, 1)
    await new.take_over("GONE", 2)
    # Called before the worker forgets the room (still in the store's queue, on SQLite):
    # they carry generation 1, and are refused although the entry is gone meanwhile.
    pending = [asyncio.ensure_future(old.append("GONE", record(1), {"n": 1})),
               asyncio.ensure_future(old.close_room("GONE"))]
    await asyncio.sleep(0)
    old.forget("GONE", 1)
    results = await asyncio.gather(*pending, return_exceptions=True)
    assert [type(result) for result in results] == [Fenced, Fenced]
    assert "GONE" not in fences(old)
    loaded = await new.load_room("GONE")
    assert loaded is not None and (loaded.meta, loaded.records) == ({"n": 0}, [])

    # Forgetting an older take-over leaves a newer one's entry, and its fence, alone.
    await old.take_over("BACK", 3)
    old.forget("BACK", 1)
    assert fences(old) == {"BACK": 3}
    await new.take_over("BACK", 4)
    with pytest.raises(Fenced):
        await old.append("BACK", record(1), {"n": 1})


async def test_a_worker_forgets_the_fences_of_the_rooms_it_lost(worker_store: Workers) -> None:
    """A room dropped when its lease was lost, and one stopped by a fenced write: the store
    keeps no entry for either on the worker that lost them (the stale write is refused)."""
    prefix = f"test:{uuid.uuid4().hex[:12]}:"
    stores = [worker_store(), worker_store()]
    buses = [RedisBus(redis_url(), prefix=prefix) for _ in stores]
    registries, placements = [], []
    for store, bus, name in zip(stores, buses, "ab", strict=True):
        registry, placement = leased_registry(store, bus, name,
                                              Settings(database_url="memory://"))
        registries.append(registry)
        placements.append(placement)
    owners = [placement.ownership for placement in placements]
    a, b = registries
    try:
        async with asyncio.timeout(10):
            dropped, _, _ = await open_room(a, "Ann")
            failed, seat, _ = await open_room(a, "Bea")
            assert set(fences(stores[0])) == {dropped, failed}
            stale = a.rooms[failed]
            for code in (dropped, failed):  # a's leases lapse (it froze), b takes the rooms
                await buses[0].keys.release(lease_key(code), "a")
                assert await b.get(code) is not None
            assert set(fences(stores[1])) == {dropped, failed}

            with pytest.raises(RoomUnavailable):  # a's write is fenced out: the room stops
                await stale.command(Person(seat), Chat("stale"))
            while failed in a.rooms:
                await asyncio.sleep(0.01)
            for code in await owners[0].renew_all():  # a sees its leases are gone
                await a.drop(code)  # as app.main's lease_lost does
            assert a.rooms == {}
            assert fences(stores[0]) == {}
            assert set(fences(stores[1])) == {dropped, failed}
            stored = await stores[1].load_room(failed)
            assert stored is not None and stored.records == []  # no stale chat
    finally:
        for registry in registries:
            await registry.close()
        for owner in owners:
            await owner.close()
        for bus in buses:
            await bus.close()


async def test_an_open_rooms_code_is_refused_to_another_worker_and_a_closed_ones_is_free(
    worker_store: Workers,
) -> None:
    """Every store the same way (the registry draws another code on RoomExists)."""
    one, other = worker_store(), worker_store()
    await one.create_room("CODE", {"n": 1})
    with pytest.raises(RoomExists):
        await other.create_room("CODE", {"n": 2})
    loaded = await one.load_room("CODE")
    assert loaded is not None and loaded.meta == {"n": 1}  # the refused one changed nothing
    await one.close_room("CODE")
    await other.create_room("CODE", {"n": 3})
    await other.take_over("CODE", 1)
    await other.append("CODE", record(1), None)
    loaded = await one.load_room("CODE")
    assert loaded is not None and loaded.meta == {"n": 3} and len(loaded.records) == 1
