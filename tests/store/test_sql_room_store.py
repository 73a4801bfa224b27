"""SqlRoomStore keeps every accepted command durably, on SQLite and Postgres."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.store.base import RoomRecord, RoomStore
from app.store.db import create_engine, migrate_engine
from app.store.errors import DuplicateRecord, RoomExists, UnknownRoom
from app.store.sql import SqlRoomStore


def record(seq: int, seat: int | None = 0, **command: Any) -> RoomRecord:
    return RoomRecord(
        seq=seq,
        seat=seat,
        command=command or {"type": "draw"},
        now_ms=1000 * seq,
        events=[{"kind": "drew", "public": {"seat": seat, "count": 1}, "private": {}, "seq": seq}],
    )


async def test_appended_records_survive_a_new_process(engine: AsyncEngine, db_url: str) -> None:
    store: RoomStore = SqlRoomStore(engine)
    await store.create_room("ABCD", {"host": 0, "seats": ["ann"]})
    await store.append("ABCD", record(1), None)
    await store.append("ABCD", record(2, seat=None, type="timeout"), {"host": 0, "seats": ["a"]})
    await store.append("ABCD", record(3, seat=1, type="play", card="R7"), None)

    # Another engine stands for another worker taking the room over.
    other = create_engine(db_url)
    try:
        loaded = await SqlRoomStore(other).load_room("ABCD")
    finally:
        await other.dispose()
    assert loaded is not None
    assert loaded.meta == {"host": 0, "seats": ["a"]}
    assert loaded.snapshot is None and loaded.snapshot_seq == 0
    assert loaded.records == [
        record(1),
        record(2, seat=None, type="timeout"),
        record(3, seat=1, type="play", card="R7"),
    ]


async def test_a_snapshot_leaves_only_later_records_to_replay(engine: AsyncEngine) -> None:
    store = SqlRoomStore(engine)
    await store.create_room("SNAP", {})
    for seq in range(1, 6):
        await store.append("SNAP", record(seq), None)
    await store.save_snapshot("SNAP", 3, {"version": 3, "hands": [[1, 2], [3]]})
    loaded = await store.load_room("SNAP")
    assert loaded is not None
    assert loaded.snapshot == {"version": 3, "hands": [[1, 2], [3]]}
    assert loaded.snapshot_seq == 3
    assert [r.seq for r in loaded.records] == [4, 5]

    await store.save_snapshot("SNAP", 5, {"version": 5})
    loaded = await store.load_room("SNAP")
    assert loaded is not None
    assert (loaded.snapshot, loaded.snapshot_seq, loaded.records) == ({"version": 5}, 5, [])


async def test_closed_rooms_leave_recovery_and_free_their_code(engine: AsyncEngine) -> None:
    store = SqlRoomStore(engine)
    await store.create_room("AAAA", {"n": 1})
    await store.create_room("BBBB", {"n": 2})
    await store.append("AAAA", record(1), None)
    await store.save_snapshot("AAAA", 1, {"version": 1})
    assert await store.open_rooms() == ["AAAA", "BBBB"]

    await store.close_room("AAAA")
    await store.close_room("AAAA")  # twice is harmless
    assert await store.open_rooms() == ["BBBB"]
    assert await store.load_room("AAAA") is None

    await store.create_room("AAAA", {"n": 3})  # the code is free again, with a clean log
    loaded = await store.load_room("AAAA")
    assert loaded is not None
    assert (loaded.meta, loaded.snapshot, loaded.records) == ({"n": 3}, None, [])


async def test_mistakes_are_refused_with_a_clear_error(engine: AsyncEngine) -> None:
    store = SqlRoomStore(engine)
    await store.create_room("ROOM", {})
    with pytest.raises(RoomExists):
        await store.create_room("ROOM", {})
    with pytest.raises(UnknownRoom):
        await store.append("NONE", record(1), None)
    with pytest.raises(UnknownRoom):
        await store.append("NONE", record(1), {"meta": 1})
    with pytest.raises(UnknownRoom):
        await store.save_snapshot("NONE", 1, {})
    await store.append("ROOM", record(1), None)
    with pytest.raises(DuplicateRecord):
        await store.append("ROOM", record(1), None)
    loaded = await store.load_room("ROOM")
    assert loaded is not None and loaded.records == [record(1)]


async def test_many_rooms_appending_at_once_lose_nothing(engine: AsyncEngine) -> None:
    store = SqlRoomStore(engine)
    codes = [f"R{i:03d}" for i in range(8)]
    for code in codes:
        await store.create_room(code, {})

    async def play(code: str) -> None:
        for seq in range(1, 16):
            await store.append(code, record(seq), {"last": seq} if seq % 5 == 0 else None)

    await asyncio.gather(*(play(code) for code in codes))
    for code in codes:
        loaded = await store.load_room(code)
        assert loaded is not None
        assert [r.seq for r in loaded.records] == list(range(1, 16))
        assert loaded.meta == {"last": 15}


async def test_an_append_survives_the_database_dropping_its_connections(
    engine: AsyncEngine, db_url: str
) -> None:
    store = SqlRoomStore(engine)
    await store.create_room("DROP", {})
    await store.append("DROP", record(1), None)
    if engine.dialect.name == "postgresql":  # what a Postgres restart does to pooled connections
        other = create_engine(db_url)
        async with other.begin() as conn:
            await conn.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            )
        await other.dispose()
    await store.append("DROP", record(2), None)
    await store.append("DROP", record(3), {"after": "restart"})
    loaded = await store.load_room("DROP")
    assert loaded is not None and [r.seq for r in loaded.records] == [1, 2, 3]


async def test_an_in_memory_database_serves_many_rooms_at_once() -> None:
    engine = create_engine("sqlite+aiosqlite://")
    try:
        await migrate_engine(engine)
        store = SqlRoomStore(engine)
        codes = [f"M{i}" for i in range(5)]
        for code in codes:
            await store.create_room(code, {})

        async def play(code: str) -> None:
            for seq in range(1, 11):
                await store.append(code, record(seq), {"at": seq} if seq % 3 == 0 else None)

        await asyncio.gather(*(play(code) for code in codes))
        loaded = [await store.load_room(code) for code in codes]
        assert [[r.seq for r in room.records] for room in loaded if room] == [
            list(range(1, 11))
        ] * 5
    finally:
        await engine.dispose()
