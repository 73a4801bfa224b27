"""SqlRoomStore keeps every accepted command durably, on SQLite and Postgres."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import sqlite3
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.store import group_commit, held_connection
from app.store.base import RoomRecord, RoomStore
from app.store.db import create_engine, dispose_engine, migrate_engine
from app.store.errors import DuplicateRecord, RoomExists, UnknownRoom
from app.store.group_commit import Append, GroupCommit
from app.store.sql import SqlRoomStore
from app.store.sqlite_file import CHECKPOINT_SECONDS, SqliteWriter
from tests.store.conftest import fresh_url


def record(seq: int, seat: int | None = 0, **command: Any) -> RoomRecord:
    return RoomRecord(
        seq=seq,
        seat=seat,
        command=command or {"type": "draw"},
        now_ms=1000 * seq,
        events=[{"kind": "drew", "public": {"seat": seat, "count": 1}, "private": {}, "seq": seq}],
    )


def big_record(seq: int) -> RoomRecord:
    """A chat line of about 3 KB: a WAL page or more each, so that tests fill the WAL fast."""
    return RoomRecord(seq, 0, {"type": "chat"}, 0,
                      [{"kind": "chat", "public": {"text": "x" * 3000}, "private": {}, "seq": seq}])


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


async def test_a_snapshot_given_with_its_record_goes_in_the_records_transaction(
    engine: AsyncEngine,
) -> None:
    store = SqlRoomStore(engine)
    for code in ("RIDE", "PEER"):
        await store.create_room(code, {})
        await store.append(code, record(1), None)
    before = store.transactions
    await store.append("RIDE", record(2), {"phase": "playing"}, {"version": 2})
    assert store.transactions == before + 1  # the record, its meta and the snapshot: one
    loaded = await store.load_room("RIDE")
    assert loaded is not None
    assert (loaded.meta, loaded.snapshot, loaded.snapshot_seq, loaded.records) == (
        {"phase": "playing"}, {"version": 2}, 2, [])

    # A refused record leaves the snapshot as it was, in a batch or alone; the others go in.
    results = await asyncio.gather(
        store.append("RIDE", record(2), None, {"version": 99}),
        store.append("PEER", record(2), None, {"version": 20}),
        return_exceptions=True,
    )
    assert isinstance(results[0], DuplicateRecord) and results[1] is None
    ride, peer = await store.load_room("RIDE"), await store.load_room("PEER")
    assert ride is not None and (ride.snapshot, ride.snapshot_seq) == ({"version": 2}, 2)
    assert peer is not None and (peer.snapshot, peer.snapshot_seq, peer.records) == (
        {"version": 20}, 2, [])
    with pytest.raises(UnknownRoom):
        await store.append("NONE", record(1), None, {"version": 1})


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


async def test_concurrent_appends_share_a_commit_and_are_durable_on_return(
    engine: AsyncEngine, db_url: str
) -> None:
    """Group commit: appends from many rooms at once go out in few transactions, and each
    record is readable through another engine (another worker) as soon as its await returns."""
    store = SqlRoomStore(engine)
    codes = [f"G{i:03d}" for i in range(20)]
    for code in codes:
        await store.create_room(code, {})
    other = create_engine(db_url)
    reader = SqlRoomStore(other)
    try:

        async def play(code: str) -> None:
            for seq in range(1, 5):
                await store.append(code, record(seq), {"at": seq} if seq == 2 else None)
                loaded = await reader.load_room(code)
                assert loaded is not None
                assert [r.seq for r in loaded.records] == list(range(1, seq + 1))
                assert loaded.meta == ({} if seq < 2 else {"at": 2})

        await asyncio.gather(*(play(code) for code in codes))
        assert store.largest_batch > 1
        assert store.transactions < len(codes) * 4
    finally:
        await other.dispose()

    fresh = create_engine(db_url)  # and a process started afterwards reads them all back
    try:
        for code in codes:
            loaded = await SqlRoomStore(fresh).load_room(code)
            assert loaded is not None
            assert loaded.records == [record(seq) for seq in range(1, 5)]
            assert loaded.meta == {"at": 2}
    finally:
        await fresh.dispose()


async def test_a_refused_record_fails_only_its_own_append(engine: AsyncEngine) -> None:
    store = SqlRoomStore(engine)
    for code in ("OKAY", "DUPE"):
        await store.create_room(code, {})
    await store.append("DUPE", record(1), None)
    await store.close_room("DUPE")
    await store.create_room("GONE", {})
    await store.close_room("GONE")
    await store.create_room("DUPE", {})
    await store.append("DUPE", record(1), None)

    results = await asyncio.gather(
        store.append("OKAY", record(1), {"ok": True}),
        store.append("DUPE", record(1), None),
        store.append("GONE", record(1), None),
        store.append("OKAY", record(2), None),
        return_exceptions=True,
    )
    assert results[0] is None and results[3] is None
    assert isinstance(results[1], DuplicateRecord)
    assert isinstance(results[2], UnknownRoom)
    loaded = await store.load_room("OKAY")
    assert loaded is not None and [r.seq for r in loaded.records] == [1, 2]
    assert loaded.meta == {"ok": True}


async def test_a_refused_record_in_a_batch_of_plain_appends_fails_only_its_own(
    engine: AsyncEngine, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without room changes a batch is one statement on Postgres: all lines or none, then
    retried record by record, so the others are neither lost nor reported as duplicates."""
    store = SqlRoomStore(engine)
    for code in ("ONE", "TWO", "DUPE"):
        await store.create_room(code, {})
    await store.append("DUPE", record(1), None)
    batch_sizes: list[int] = []
    execute = GroupCommit._execute

    async def executed(self: GroupCommit, batch: list[Append], riders: Any) -> None:
        batch_sizes.append(len(batch))
        await execute(self, batch, riders)

    monkeypatch.setattr(GroupCommit, "_execute", executed)
    results = await asyncio.gather(
        store.append("ONE", record(1), None),
        store.append("DUPE", record(1), None),
        store.append("TWO", record(1), None),
        return_exceptions=True,
    )
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], DuplicateRecord)
    assert batch_sizes[0] == 3  # they were tried together first
    for code in ("ONE", "TWO", "DUPE"):
        loaded = await store.load_room(code)
        assert loaded is not None and loaded.records == [record(1)]


async def test_on_postgres_appends_that_arrive_during_a_batch_go_together_in_the_next(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Under load a batch is nearly always in flight: what arrives meanwhile waits for it and
    goes out as one transaction, instead of one more writer (and Postgres backend) per
    arrival, which cost two workers 5-7 % more CPU per move and doubled their p99."""
    url = await fresh_url(request, "postgres", tmp_path)
    engine = create_engine(url)
    store = SqlRoomStore(engine)
    try:
        for code in ("SLOW", "B", "C"):
            await store.create_room(code, {})
        before = store.transactions
        async with engine.connect() as locker:
            await locker.execute(text("SELECT 1 FROM rooms WHERE code = 'SLOW' FOR UPDATE"))
            slow = asyncio.create_task(store.append("SLOW", record(1), None))
            await asyncio.sleep(0.01)  # its batch is in flight, waiting for the row
            later = [asyncio.create_task(store.append("B", record(1), None))]
            await asyncio.sleep(0.005)
            later.append(asyncio.create_task(store.append("C", record(1), None)))
            await asyncio.sleep(0.01)
            await locker.rollback()  # the slow batch ends within SECOND_WRITER_SECONDS
        async with asyncio.timeout(5):
            await asyncio.gather(slow, *later)
        assert store.transactions - before == 2  # SLOW, then B and C together
        assert store.largest_batch == 2
    finally:
        await dispose_engine(engine)


async def test_on_postgres_a_stuck_room_does_not_hold_up_the_others(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Postgres writes several batches at once once one takes long: a room whose row is
    locked (say, by a takeover in progress) delays its own move only, not every table of the
    worker."""
    url = await fresh_url(request, "postgres", tmp_path)
    engine = create_engine(url)
    store = SqlRoomStore(engine)
    try:
        for code in ("STUCK", "FREE"):
            await store.create_room(code, {})
        async with engine.connect() as locker:
            await locker.execute(text("SELECT 1 FROM rooms WHERE code = 'STUCK' FOR UPDATE"))
            stuck = asyncio.create_task(store.append("STUCK", record(1), None))
            await asyncio.sleep(0.2)  # its batch is waiting for the lock
            async with asyncio.timeout(5):
                await store.append("FREE", record(1), None)
            assert not stuck.done()
            await locker.rollback()
        async with asyncio.timeout(5):
            await stuck
        for code in ("STUCK", "FREE"):
            loaded = await store.load_room(code)
            assert loaded is not None and loaded.records == [record(1)]
    finally:
        await dispose_engine(engine)


async def test_a_sqlite_commit_never_checkpoints_the_wal_the_writers_thread_does(
    sqlite_file: tuple[AsyncEngine, SqliteWriter],
) -> None:
    """SQLite's automatic checkpoint ran inside the commit that crossed 1,000 WAL pages, and
    every append waiting in that group commit waited for its fsyncs: a stall for every room.
    Commits leave the WAL to a background PASSIVE checkpoint, which keeps it from growing."""
    engine, writer = sqlite_file
    with writer.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
    async with engine.connect() as conn:
        assert (await conn.exec_driver_sql("PRAGMA wal_autocheckpoint")).scalar() == 0
    store = SqlRoomStore(engine)
    await store.create_room("WALS", {})
    for seq in range(1, 1500):  # about 5 MB of WAL: past 1,000 pages
        await store.append("WALS", big_record(seq), None)
    checkpoints = writer.checkpoints
    await asyncio.sleep(CHECKPOINT_SECONDS * 2.5)
    assert writer.checkpoints > checkpoints  # the background thread keeps at it
    stored = await store.load_room("WALS")
    assert stored is not None and len(stored.records) == 1499


async def test_the_loop_never_waits_for_a_lock_another_connection_holds_on_the_file(
    sqlite_file: tuple[AsyncEngine, SqliteWriter],
) -> None:
    """The room log's transactions run on the event loop's thread, which must never wait in
    SQLite's busy handler: while another connection (another process) holds the file's write
    lock, the append goes to the writer's thread and waits there, and the loop goes on."""
    engine, writer = sqlite_file
    store = SqlRoomStore(engine)
    await store.create_room("LOCK", {})
    await store.append("LOCK", record(1), None)
    assert writer.on_thread == 0  # nobody else writes: all on the loop
    other = sqlite3.connect(writer.database, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        waiting = asyncio.create_task(store.append("LOCK", record(2), {"after": "lock"}))
        ticks = 0
        started = time.perf_counter()
        while time.perf_counter() - started < 0.3:
            await asyncio.sleep(0.01)
            ticks += 1
        assert ticks >= 15, f"the event loop stalled: {ticks} ticks of 10 ms in 0.3 s"
        assert not waiting.done()  # it waits for the lock, on the writer's thread
        other.execute("COMMIT")
        await asyncio.wait_for(waiting, timeout=5)
    finally:
        other.close()
    assert writer.on_thread == 1
    await store.append("LOCK", record(3), None)  # and the next one is on the loop again
    assert writer.on_thread == 1
    loaded = await store.load_room("LOCK")
    assert loaded is not None and [r.seq for r in loaded.records] == [1, 2, 3]
    assert loaded.meta == {"after": "lock"}


async def test_a_snapshot_queued_with_appends_is_answered_when_their_connection_drops(
    sqlite_file: tuple[AsyncEngine, SqliteWriter], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a SQLite file a snapshot rides to the writer's thread with the next appends. When
    that crossing fails on a dropped connection the appends are retried; the snapshot must not
    be left waiting for good (its room would stop): it is retried with them or told it failed."""
    engine, writer = sqlite_file
    store = SqlRoomStore(engine)
    await store.create_room("SNAP", {})
    await store.create_room("MOVE", {})
    await store.append("SNAP", record(1), None)
    crossing = writer.run_each
    failures = [DBAPIError("INSERT", {}, Exception("connection lost"),
                           connection_invalidated=True)]

    async def drops_once(works: list[Any]) -> list[tuple[Any, Exception | None]]:
        if failures:
            raise failures.pop()
        return await crossing(works)

    monkeypatch.setattr(writer, "run_each", drops_once)
    results = await asyncio.wait_for(asyncio.gather(
        store.save_snapshot("SNAP", 1, {"deck": []}),
        store.append("MOVE", record(1), None),
        return_exceptions=True,
    ), timeout=5)
    assert results[1] is None  # the append went in on the retry
    loaded = await store.load_room("MOVE")
    assert loaded is not None and loaded.records == [record(1)]
    if results[0] is None:  # the snapshot went in with it, or was told it did not
        snapped = await store.load_room("SNAP")
        assert snapped is not None and snapped.snapshot == {"deck": []}
    else:
        assert isinstance(results[0], Exception)


async def test_the_wal_of_a_sqlite_file_stays_small_under_commits_that_never_pause(
    sqlite_file: tuple[AsyncEngine, SqliteWriter], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A WAL starts again from its beginning only once a checkpoint has copied every frame of
    it, and under commits that never pause a PASSIVE checkpoint never catches up: the WAL grew
    by every byte ever written (1.1 GB in four minutes of a steady bench.soak), and the index
    SQLite maps beside it grew the worker's memory with it. Past ``WAL_RESTART_BYTES`` the
    checkpoints' thread starts it again."""
    monkeypatch.setattr("app.store.sqlite_file.WAL_RESTART_BYTES", 512 * 1024)
    engine, writer = sqlite_file
    store = SqlRoomStore(engine)
    wal = Path(writer.database + "-wal")
    largest = 0

    async def keep_appending(code: str) -> None:
        nonlocal largest
        await store.create_room(code, {})
        for seq in range(1, 250):  # for 2.5 s at least: a room's moves come at a human pace
            await store.append(code, big_record(seq), None)
            largest = max(largest, wal.stat().st_size)
            await asyncio.sleep(0.01)

    await asyncio.gather(*(keep_appending(f"W{n:03}") for n in range(16)))  # ~12 MB written
    # Bounded by the size that starts it again and what comes in while the thread gets to it.
    assert largest < 4 * 1024 * 1024, f"the WAL grew to {largest / 1e6:.1f} MB"
    assert writer.restarts > 0
    stored = await store.load_room("W007")
    assert stored is not None and len(stored.records) == 249


async def test_no_append_waits_for_the_wals_restart(
    sqlite_file: tuple[AsyncEngine, SqliteWriter], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A restart copies and syncs what the WAL holds: the writer's thread did it after the
    batch that found the WAL long, and that batch's rooms, and every room queued behind them,
    waited for it (8-46 ms at 1,500 rooms, every 0.7 s). The checkpoints' thread does it now,
    beside the appends: held in its restart, appends still go in."""
    monkeypatch.setattr("app.store.sqlite_file.WAL_RESTART_BYTES", 256 * 1024)
    engine, writer = sqlite_file
    store = SqlRoomStore(engine)
    restarting, release = threading.Event(), threading.Event()
    restart = SqliteWriter._restart

    def held_restart(connection: sqlite3.Connection) -> bool:
        restarting.set()
        release.wait(10)
        return restart(connection)

    monkeypatch.setattr(writer, "_restart", held_restart)
    await store.create_room("REST", {})
    seq = 0
    give_up = time.monotonic() + 10
    try:
        while not restarting.is_set():  # past 256 KB of WAL
            seq += 1
            await store.append("REST", big_record(seq), None)
            assert time.monotonic() < give_up, "the WAL was never restarted"
        for _ in range(20):  # the restart is held up: appends go on meanwhile
            seq += 1
            await asyncio.wait_for(store.append("REST", record(seq), None), timeout=2)
    finally:
        release.set()
    for _ in range(50):
        if writer.restarts:
            break
        await asyncio.sleep(0.05)
    assert writer.restarts > 0
    stored = await store.load_room("REST")
    assert stored is not None and len(stored.records) == seq


async def test_a_long_reader_holds_appends_up_no_longer_than_a_restarts_short_wait(
    sqlite_file: tuple[AsyncEngine, SqliteWriter], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A restart waits for readers while it holds every writer of the file up. Waiting with
    the 10 s busy timeout, one long read (a replay, another process) would stop every room
    for 10 s: it gives up after ``RESTART_WAIT_MS`` and tries again a second later, and once
    the reader is gone the WAL starts again."""
    monkeypatch.setattr("app.store.sqlite_file.WAL_RESTART_BYTES", 256 * 1024)
    engine, writer = sqlite_file
    store = SqlRoomStore(engine)
    await store.create_room("READ", {})
    await store.append("READ", big_record(1), None)
    reader = sqlite3.connect(writer.database, isolation_level=None)
    seq, slowest = 1, 0.0
    try:
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM room_log").fetchone()  # a snapshot held
        until = time.monotonic() + 2.5  # two restarts tried, at least
        while time.monotonic() < until:
            seq += 1
            started = time.monotonic()
            await store.append("READ", big_record(seq), None)
            slowest = max(slowest, time.monotonic() - started)
            await asyncio.sleep(0.005)
        assert writer.restarts == 0  # the reader was in the way each time
    finally:
        reader.execute("COMMIT")
        reader.close()
    assert slowest < 1.0, f"an append waited {slowest * 1000:.0f} ms for the restart"
    for _ in range(60):  # the reader gone, the WAL starts again
        if writer.restarts:
            break
        await store.append("READ", big_record(seq := seq + 1), None)
        await asyncio.sleep(0.05)
    assert writer.restarts > 0


async def test_a_quiet_workers_append_leaves_the_async_engines_connection_alone(
    sqlite_file: tuple[AsyncEngine, SqliteWriter],
) -> None:
    """With no transaction of the async engine running, an append's batch runs on the loop
    without checking that engine's one connection out: a quiet worker's batches come one by
    one, and each checkout and its return (an aiosqlite crossing) cost a seventh of a move."""
    engine, writer = sqlite_file
    store = SqlRoomStore(engine)
    await store.create_room("CALM", {})
    checkouts = 0

    def counted(*_: Any) -> None:
        nonlocal checkouts
        checkouts += 1

    event.listen(engine.sync_engine, "checkout", counted)
    try:
        for seq in range(1, 6):
            await store.append("CALM", record(seq), None)
            await asyncio.sleep(held_connection.HOLD_SECONDS * 1.5)  # a quiet worker's pace
    finally:
        event.remove(engine.sync_engine, "checkout", counted)
    assert checkouts == 0
    assert writer.on_thread == 0
    stored = await store.load_room("CALM")
    assert stored is not None and [r.seq for r in stored.records] == [1, 2, 3, 4, 5]


async def test_a_busy_workers_appends_from_several_turns_share_one_sqlite_transaction(
    sqlite_file: tuple[AsyncEngine, SqliteWriter], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While other rooms' appends keep coming, a batch waits ``gather_seconds`` for more: the
    appends of rooms that arrive a turn or a millisecond apart go out in one transaction (on the
    loop each was written at once, 1.55 moves a transaction at 1,500 rooms), and each is stored
    when its await returns."""
    engine, _writer = sqlite_file
    # Long, so that a loaded test machine's turns still fall inside them:
    gather = 0.2
    monkeypatch.setattr(group_commit, "BUSY_SECONDS", 1.0)
    monkeypatch.setattr(group_commit, "BUSY_APPENDS", 2)  # another room's append: busy
    store = SqlRoomStore(engine, gather_seconds=gather)
    codes = ["BUSY1", "BUSY2", "BUSY3", "BUSY4"]
    for code in codes:
        await store.create_room(code, {})
    await store.append(codes[0], record(1), None)  # the connection opened, the file read
    await asyncio.sleep(0.05)
    before = store.transactions
    started = time.perf_counter()
    await store.append(codes[0], record(2), None)  # no other room's append lately: at once
    assert time.perf_counter() - started < gather / 2
    assert store.transactions == before + 1
    started = time.perf_counter()
    appends = []
    for code in codes[1:]:  # each a turn or more after the last
        appends.append(asyncio.create_task(store.append(code, record(1), None)))
        await asyncio.sleep(0.001)
    await asyncio.gather(*appends)
    assert time.perf_counter() - started >= gather * 0.9  # they waited for the gathering
    assert store.transactions == before + 2 and store.largest_batch == 3
    reader = create_engine(engine.url.render_as_string(hide_password=False))  # another process
    try:
        for code in codes:
            stored = await SqlRoomStore(reader).load_room(code)
            assert stored is not None
            assert stored.records == [record(1), record(2)][:2 if code == codes[0] else 1]
    finally:
        await dispose_engine(reader)


async def test_a_worker_whose_appends_come_slowly_writes_each_at_once(
    sqlite_file: tuple[AsyncEngine, SqliteWriter], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Other rooms' appends that come too seldom for a gathering to collect several (four
    within ``BUSY_SECONDS``) are each written at once, with no wait: at 500 rooms a gathering
    made 2.2 moves a transaction for 2 ms more latency and no CPU saved. Once they come fast,
    a batch waits for more."""
    engine, _writer = sqlite_file
    gather = 0.5
    monkeypatch.setattr(group_commit, "BUSY_SECONDS", 0.3)  # long: a loaded machine's turns
    monkeypatch.setattr(group_commit, "BUSY_APPENDS", 4)
    store = SqlRoomStore(engine, gather_seconds=gather)
    slow, fast = ["SLOW1", "SLOW2", "SLOW3", "SLOW4", "SLOW5"], ["FAST1", "FAST2", "FAST3",
                                                                 "FAST4", "FAST5", "FAST6"]
    for code in slow + fast:
        await store.create_room(code, {})
    await asyncio.sleep(0.35)
    before = store.transactions
    for code in slow:  # another room each time, but four span more than BUSY_SECONDS
        started = time.perf_counter()
        await store.append(code, record(1), None)
        assert time.perf_counter() - started < gather / 2
        await asyncio.sleep(0.12)
    assert store.transactions == before + len(slow)
    assert store.largest_batch == 1
    started = time.perf_counter()
    appends = []
    for code in fast:  # a millisecond apart: busy from the fourth on
        appends.append(asyncio.create_task(store.append(code, record(1), None)))
        await asyncio.sleep(0.001)
    await asyncio.gather(*appends)
    assert time.perf_counter() - started >= gather * 0.9  # the last ones waited to be gathered
    assert store.largest_batch >= 2
    for code in slow + fast:
        stored = await store.load_room(code)
        assert stored is not None and stored.records == [record(1)]


async def test_a_rooms_own_appends_one_after_another_never_wait_for_a_gathering(
    sqlite_file: tuple[AsyncEngine, SqliteWriter],
) -> None:
    """A room appends again only once its last append is stored: its own appends are no sign
    that others will come, so bots playing a table alone are written one by one, at once."""
    engine, _writer = sqlite_file
    store = SqlRoomStore(engine, gather_seconds=0.5)
    await store.create_room("ALONE", {})
    before = store.transactions
    started = time.perf_counter()
    for seq in range(1, 11):
        await store.append("ALONE", record(seq), None)
    assert time.perf_counter() - started < 0.5  # not one of them waited half a second
    assert store.transactions == before + 10


async def test_an_append_waits_for_a_transaction_of_the_async_engine_then_commits_on_the_loop(
    sqlite_file: tuple[AsyncEngine, SqliteWriter],
) -> None:
    """Every transaction of the async engine takes SQLite's lock (BEGIN IMMEDIATE): an append
    made while one runs waits its turn for that engine's connection, then commits on the
    loop's thread, never sleeping in SQLite's busy handler on the writer's thread."""
    engine, writer = sqlite_file
    store = SqlRoomStore(engine)
    await store.create_room("TURN", {})
    async with engine.begin() as conn:
        await conn.execute(text("SELECT 1"))  # the lock is this transaction's now
        waiting = asyncio.create_task(store.append("TURN", record(1), None))
        await asyncio.sleep(0.1)
        assert not waiting.done()  # it waits for the transaction, not beside it
    await asyncio.wait_for(waiting, timeout=5)
    assert writer.on_thread == 0
    stored = await store.load_room("TURN")
    assert stored is not None and [r.seq for r in stored.records] == [1]


@contextlib.asynccontextmanager
async def rooms_appending(store: SqlRoomStore, prefix: str, pause: float = 0.0
                          ) -> AsyncIterator[list[str]]:
    """Eight new rooms, each appending one record after another (``pause`` apart) until the
    block ends; their codes."""
    codes = [f"{prefix}{n:03}" for n in range(8)]
    for code in codes:
        await store.create_room(code, {})
    stop = asyncio.Event()

    async def keep_appending(code: str) -> None:
        seq = 0
        while not stop.is_set():
            seq += 1
            await store.append(code, record(seq), None)
            if pause:
                await asyncio.sleep(pause)

    appenders = [asyncio.create_task(keep_appending(code)) for code in codes]
    try:
        yield codes
    finally:
        stop.set()
        await asyncio.gather(*appenders)


async def test_a_read_waits_for_no_more_than_a_short_hold_while_appends_keep_coming(
    sqlite_file: tuple[AsyncEngine, SqliteWriter],
) -> None:
    """The SQLite writer keeps the async engine's one connection across batches (checking it
    out for each cost a third of a quiet worker's transaction), but hands it back after
    ``HOLD_SECONDS``, and when it has nothing to write: a read never waits long for it."""
    engine, _writer = sqlite_file
    store = SqlRoomStore(engine)
    waits = []
    async with rooms_appending(store, "H") as codes:
        await asyncio.sleep(0.2)
        for _ in range(5):
            started = time.perf_counter()
            async with engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
            waits.append(time.perf_counter() - started)
            await asyncio.sleep(0.05)
    assert max(waits) < 0.5, [f"{w * 1000:.0f} ms" for w in waits]
    await asyncio.sleep(held_connection.HOLD_SECONDS * 3)  # idle: the connection is back
    async with asyncio.timeout(held_connection.HOLD_SECONDS * 2):
        async with engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
    for code in codes:
        stored = await store.load_room(code)
        assert stored is not None and stored.records



async def test_a_busy_writer_stops_checking_the_connection_out_once_nobody_else_uses_it(
    sqlite_file: tuple[AsyncEngine, SqliteWriter],
) -> None:
    """The writer holds the async engine's connection only while another transaction of that
    engine may run: once a read is over and nobody else asks for the connection, the batches go
    on without it. (Held once, it was handed back and checked out again every ``HOLD_SECONDS``
    for as long as appends kept coming: an aiosqlite crossing each time, 50 a second.)"""
    engine, writer = sqlite_file
    store = SqlRoomStore(engine)
    checkouts = 0

    def counted(*_: Any) -> None:
        nonlocal checkouts
        checkouts += 1

    async with rooms_appending(store, "B", pause=0.002) as codes:
        await asyncio.sleep(0.1)
        async with engine.connect() as conn:  # a read while appends come: the writer holds
            await conn.execute(text("SELECT 1"))
            await asyncio.sleep(0.01)
        await asyncio.sleep(held_connection.HOLD_SECONDS * 2)  # its hold has run out
        event.listen(engine.sync_engine, "checkout", counted)
        try:
            await asyncio.sleep(held_connection.HOLD_SECONDS * 15)
        finally:
            event.remove(engine.sync_engine, "checkout", counted)
    assert checkouts == 0, f"{checkouts} checkouts with nobody else using the engine"
    assert writer.on_thread == 0
    for code in codes:
        stored = await store.load_room(code)
        assert stored is not None and [r.seq for r in stored.records] == list(
            range(1, len(stored.records) + 1))


async def test_a_sqlite_files_writer_thread_ends_with_its_engine_and_a_given_up_append_is_whole(
    migrated_sqlite: Path, tmp_path: Path,
) -> None:
    """The writer's thread answers each crossing on the loop that asked: an append whose caller
    gave up is stored whole or not at all, the next is answered, and disposing of the engine
    ends the thread."""
    before = set(threading.enumerate())
    shutil.copyfile(migrated_sqlite, tmp_path / "own.db")
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'own.db'}")
    writers = [t for t in set(threading.enumerate()) - before if t.name == "sqlite-writer"]
    assert len(writers) == 1
    store = SqlRoomStore(engine)
    await store.create_room("GONE", {})
    given_up = asyncio.create_task(store.append("GONE", record(1), None))
    await asyncio.sleep(0)
    given_up.cancel()
    await asyncio.gather(given_up, return_exceptions=True)
    await store.append("GONE", record(2), None)
    loaded = await store.load_room("GONE")
    assert loaded is not None and loaded.records in ([record(1), record(2)], [record(2)])
    await dispose_engine(engine)
    writers[0].join(timeout=5)
    assert not writers[0].is_alive()
