"""``SqlRoomStore``: the room log on SQLite or Postgres, so a room survives a worker's death.

    from app.store.db import create_engine, migrate
    from app.store.sql import SqlRoomStore

    await migrate(settings.database_url)            # once, in the lifespan, before serving
    engine = create_engine(settings.database_url)   # one per process
    store = SqlRoomStore(engine)                    # implements app.store.base.RoomStore
    ...
    await dispose_engine(engine)                    # on shutdown (app.store.db)

``append`` returns only once the record is committed. Writes are fenced (see app/store/base.py):
once this store has taken a room over at a lease generation, each of its writes to the room
goes in only if the room row's ``generation`` is still <= that one, checked in the writing
statement itself (on Postgres under a share lock of the room row, so a takeover's UPDATE waits
for an insert in flight and the new owner's load sees it); a refused write raises ``Fenced``.

Each command's record goes into ``room_log``; the line is tagged with the room's running match
(see ``HistoryStore``), which makes it part of that match's event log. ``close_room`` removes what
only recovery needed: the snapshot and the log lines outside any match. Room codes may be reused
once a room is closed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import (
    BigInteger,
    Connection,
    Integer,
    and_,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .base import RoomRecord, StoredRoom
from .db import sqlite_writer
from .errors import DuplicateRecord, Fenced, RoomExists, StoreError, UnknownRoom
from .models import (
    ABANDONED,
    RUNNING,
    JsonType,
    Match,
    Room,
    RoomLogLine,
    RoomSnapshot,
    utcnow,
)

T = TypeVar("T")
POSTGRES_WRITERS = 3  # batches in flight at once (the pool holds 5 connections, and overflow)
# How long a Postgres batch may take before what arrived meanwhile goes out on another writer.
# Below it, the busy writer takes what arrived in its next batch: fewer, larger transactions
# (at 500 rooms, three writers at once made 1.4-1.7 commands per transaction; the extra Postgres
# backends and round trips cost two workers 5-7 % more CPU per move and their p99 doubled).
# Above it, a slow batch (a room row locked by a takeover) holds up the other rooms no longer.
SECOND_WRITER_SECONDS = 0.05
UNFENCED = 2**62  # the generation of a store that never took the room over: writes go in


def open_room_id(code: str) -> Any:
    """The id of the open room ``code``, as a scalar subquery (no extra round trip)."""
    return select(Room.id).where(Room.code == code, Room.closed_at.is_(None)).scalar_subquery()


# The hot INSERT of ``append``, run as one executemany per batch. No joins: the room id comes
# from the store's memory, and the subqueries are index lookups. The room must still be open and
# at a generation <= the writer's (``room_id`` NULL otherwise: an IntegrityError), which also
# covers a room that another worker closed or took over after this one cached its id. On
# Postgres the room row is share-locked until the commit: a takeover (UPDATE of the row) waits
# for the insert, or the insert waits for the takeover and then sees the new generation.
# The match is the newest of the room that a record at ``seq`` belongs to (the same rule as
# ``HistoryStore``'s tagging), so a match that starts or ends between two appends is seen by the
# next one, whichever worker recorded it.
_ROOM = bindparam("p_room", type_=Integer)
_SEQ = bindparam("p_seq", type_=BigInteger)
_GEN = bindparam("p_gen", type_=BigInteger)
_OPEN_ROOM = (
    select(Room.id)
    .where(Room.id == _ROOM, Room.closed_at.is_(None), Room.generation <= _GEN)
    .with_for_update(read=True)  # FOR SHARE on Postgres; SQLite: BEGIN IMMEDIATE serializes
    .scalar_subquery()
)
_MATCH_AT = (
    select(Match.id)
    .where(Match.room_id == _ROOM, Match.first_seq <= _SEQ)
    .where(or_(Match.last_seq >= _SEQ, and_(Match.last_seq.is_(None), Match.status == RUNNING)))
    .order_by(Match.id.desc())
    .limit(1)
    .scalar_subquery()
)
_INSERT_LINE = insert(RoomLogLine).values(room_id=_OPEN_ROOM, match_id=_MATCH_AT)
_SET_META = (
    update(Room)
    .where(
        Room.id == bindparam("p_room", type_=Integer),
        Room.closed_at.is_(None),
        Room.generation <= bindparam("p_gen", type_=BigInteger),
    )
    .values(meta=bindparam("p_meta", type_=JsonType))
)


def _snapshot_upsert(maker: Callable[[type[RoomSnapshot]], Any]) -> Any:
    """A room's snapshot, replacing the one before, written only while the room is open and
    ``p_gen`` is not behind its owner's generation. Built once: an upsert's ``excluded`` alias
    copies the table's columns, which each snapshot paid for (and left to the collector)."""
    source = select(
        Room.id, bindparam("p_seq", type_=BigInteger), bindparam("p_data", type_=JsonType)
    ).where(
        Room.code == bindparam("p_code"),
        Room.closed_at.is_(None),
        Room.generation <= bindparam("p_gen", type_=BigInteger),
    )
    stmt = maker(RoomSnapshot).from_select(["room_id", "seq", "data"], source)
    return stmt.on_conflict_do_update(
        index_elements=[RoomSnapshot.room_id],
        set_={"seq": stmt.excluded.seq, "data": stmt.excluded.data},
    )


_UPSERT_SNAPSHOT = {"postgresql": _snapshot_upsert(pg_insert),
                    "sqlite": _snapshot_upsert(sqlite_insert)}


@dataclass(slots=True)
class _Append:
    code: str
    record: RoomRecord
    meta: dict[str, Any] | None
    done: asyncio.Future[None]
    room_id: int | None = None
    generation: int = UNFENCED  # the writer's fencing generation for this room


@dataclass(slots=True)
class _Job:
    """Another write, run alone by the writer (SQLite: one writer at a time, no busy waits)."""

    run: Callable[[], Awaitable[Any]]
    done: asyncio.Future[Any]


class SqlRoomStore:
    """``RoomStore`` on SQL: construct with an engine from ``app.store.db.create_engine``.

    Group commit: ``append`` queues its record for a writer task, which stores everything
    queued meanwhile in a single transaction (one executemany) and resolves each caller's await
    only once that transaction has committed; an error reaches every caller of its batch (a
    batch refused by a constraint is retried record by record, so each caller gets its own
    answer: a duplicate in one room does not fail the others). On SQLite there is one writer,
    and the other writes of this store (rooms, snapshots, closing) go through it, in queue
    order. Postgres takes up to ``POSTGRES_WRITERS`` batches at once, but starts another writer
    only for a batch that takes longer than ``SECOND_WRITER_SECONDS``: what arrived meanwhile
    then goes out on another connection. Order within a room holds either way: a room awaits
    its append before it appends again.
    """

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._postgres = engine.dialect.name == "postgresql"
        # Postgres: a single INSERT commits by itself, so no BEGIN round trip on the hot path.
        # (SQLite keeps its BEGIN IMMEDIATE: no round trip there anyway.)
        self._autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")
        # SQLite: every write of this store goes through the one writer task, in order (so a
        # wrapper need not serialize them: app.rooms.serial_store.SerialWrites checks this).
        self.serial_writes = not self._postgres
        # A SQLite file: the hot appends commit in one crossing to the writer's thread.
        self._sqlite_writer = sqlite_writer(engine)
        # Open rooms' ids by code: a room's id never changes while it is open; the entry goes
        # when this store closes, parks or forgets the room, and is refreshed whenever a worker
        # loads it.
        self._room_ids: dict[str, int] = {}
        # Rooms this store took over, with the lease generation its writes to them carry. The
        # entry goes when this store closes or parks the room, or the worker stopped running it
        # (``forget``): each write captures its generation when it is called, so a write of the
        # stopped room still in the queue stays fenced.
        self._fences: dict[str, int] = {}
        self._queue: list[_Append | _Job] = []
        # Live writer tasks, each with whether it holds work (a new one has yet to take any).
        self._writers: dict[asyncio.Task[None], bool] = {}
        self._max_writers = 1 if self.serial_writes else POSTGRES_WRITERS
        self._spill: asyncio.TimerHandle | None = None  # the check for another writer
        self.batches = 0  # transactions the writer committed for appends (tests, benchmarks)
        self.largest_batch = 0

    # -- the writer ---------------------------------------------------------------------------

    def _enqueue(self, item: _Append | _Job) -> None:
        self._queue.append(item)
        loop = item.done.get_loop()
        self._forget_finished_writers(loop)
        # A writer yet to take work will take this too; so will a busy one, in its next
        # batch, unless its batch takes long: then one more starts, up to the limit.
        if not self._writers:
            self._start_writer()
        elif (all(self._writers.values()) and len(self._writers) < self._max_writers
              and self._spill is None):
            self._spill = loop.call_later(SECOND_WRITER_SECONDS, self._spill_over)

    def _spill_over(self) -> None:
        self._spill = None
        loop = asyncio.get_running_loop()
        self._forget_finished_writers(loop)
        if self._queue and all(self._writers.values()):
            if len(self._writers) < self._max_writers:
                self._start_writer()
            if len(self._writers) < self._max_writers:  # the new one may be held up too
                self._spill = loop.call_later(SECOND_WRITER_SECONDS, self._spill_over)

    def _forget_finished_writers(self, loop: asyncio.AbstractEventLoop) -> None:
        """Keep the writers still running on ``loop`` (a test's earlier loop may have ended)."""
        self._writers = {task: busy for task, busy in self._writers.items()
                         if not task.done() and task.get_loop() is loop}

    def _start_writer(self) -> None:
        task = asyncio.create_task(self._drain(), name="SqlRoomStore writer")
        self._writers[task] = False

    async def _drain(self) -> None:
        """Write whatever is queued, oldest first: runs of appends as one transaction each."""
        me = asyncio.current_task()
        assert me is not None
        try:
            while self._queue:
                self._writers[me] = True
                run: list[_Append] = []
                while self._queue and isinstance(self._queue[0], _Append):
                    item = self._queue.pop(0)
                    assert isinstance(item, _Append)
                    run.append(item)
                if run:
                    await self._store_batch(run)
                    continue
                job = self._queue.pop(0)
                assert isinstance(job, _Job)
                try:
                    result = await job.run()
                except Exception as exc:
                    _settle(job.done, exc=exc)
                else:
                    _settle(job.done, result=result)
        except BaseException as exc:  # cancelled with the loop: nobody may wait forever
            for item in self._queue:
                _settle(item.done, exc=RuntimeError("the store's writer stopped"))
            self._queue.clear()
            if not isinstance(exc, Exception):
                raise
        finally:
            self._writers.pop(me, None)

    async def _exclusive(self, run: Callable[[], Awaitable[T]]) -> T:
        """SQLite: run a write through the writer; Postgres: run it now (writers do not block)."""
        if not self.serial_writes:
            return await run()
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._enqueue(_Job(run, done))
        return await done

    async def _store_batch(self, batch: list[_Append]) -> None:
        try:
            for item in batch:
                if item.room_id is None:
                    item.room_id = await self._cached_room_id(item.code)
            ready = [item for item in batch if item.room_id is not None]
            for item in batch:
                if item.room_id is None:
                    _settle(item.done, exc=UnknownRoom(f"no open room {item.code}"))
            if not ready:
                return
            try:
                await self._write_batch(ready)
            except IntegrityError:
                if len(ready) == 1:
                    raise
                # Someone's record is refused: store the others, and tell each its answer.
                for item in ready:
                    await self._store_one(item)
                return
        except Exception as exc:
            for item in batch:
                _settle(item.done, exc=exc)
            return
        for item in ready:
            _settle(item.done)

    async def _store_one(self, item: _Append) -> None:
        try:
            await self._write_batch([item])
        except Exception as exc:
            _settle(item.done, exc=exc)
        else:
            _settle(item.done)

    async def _write_batch(self, batch: list[_Append], retried: bool = False) -> None:
        """One transaction; retried once on a pooled connection that died (no pre-ping: it
        would cost a round trip per batch). Constraint errors become the store's errors."""
        try:
            await self._execute(batch)
        except IntegrityError as exc:
            if len(batch) > 1:
                raise
            item = batch[0]
            # A closed room or a newer owner (NULL room id), or a seq stored twice: tell which.
            refusal = await self._refusal(item.code, item.generation)
            if refusal is not None:
                raise refusal from exc
            if retried:
                return  # the first try committed before its connection died
            raise DuplicateRecord(f"room {item.code} already has seq {item.record.seq}") from exc
        except DBAPIError as exc:
            if retried or not exc.connection_invalidated:
                raise
            await self._write_batch(batch, retried=True)

    async def _execute(self, batch: list[_Append]) -> None:
        lines = [
            {
                "p_room": item.room_id,
                "p_seq": item.record.seq,
                "p_gen": item.generation,
                "seq": item.record.seq,
                "seat": item.record.seat,
                "command": item.record.command,
                "now_ms": item.record.now_ms,
                "events": item.record.events,
            }
            for item in batch
        ]
        metas = [
            {"p_room": item.room_id, "p_meta": item.meta, "p_gen": item.generation}
            for item in batch
            if item.meta is not None
        ]
        if self._sqlite_writer is not None:
            async with self._engine.connect():  # no other transaction of this process meanwhile

                def write(conn: Connection) -> None:
                    conn.execute(_INSERT_LINE, lines)
                    if metas:
                        conn.execute(_SET_META, metas)

                await self._sqlite_writer.run(write)
        elif self._postgres and not metas:
            # One round trip: asyncpg sends the whole executemany before a single Sync, so
            # Postgres runs it as one implicit transaction (all lines or none), no BEGIN/COMMIT.
            async with self._autocommit.connect() as conn:
                await conn.execute(_INSERT_LINE, lines)
        else:
            async with self._engine.begin() as conn:
                await conn.execute(_INSERT_LINE, lines)
                if metas:
                    await conn.execute(_SET_META, metas)
        self.batches += 1
        self.largest_batch = max(self.largest_batch, len(lines))

    async def _cached_room_id(self, code: str) -> int | None:
        room_id = self._room_ids.get(code)
        if room_id is None:
            room_id = await self._room_id(code)
            if room_id is not None:
                self._room_ids[code] = room_id
        return room_id

    # -- the RoomStore protocol ---------------------------------------------------------------

    async def create_room(self, code: str, meta: dict[str, Any]) -> None:
        async def run() -> None:
            try:
                async with self._engine.begin() as conn:
                    result = await conn.execute(
                        insert(Room)
                        .values(code=code, meta=meta, created_at=utcnow())
                        .returning(Room.id)
                    )
                    room_id = result.scalar_one()
            except IntegrityError as exc:
                raise RoomExists(f"room {code} is already open") from exc
            self._room_ids[code] = room_id

        await self._exclusive(run)

    async def append(self, code: str, record: RoomRecord, meta: dict[str, Any] | None) -> None:
        """Queue the record for the writer; returns once its transaction has committed."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._enqueue(
            _Append(code, record, meta, done, self._room_ids.get(code),
                    self._fences.get(code, UNFENCED))
        )
        await done

    async def save_snapshot(self, code: str, seq: int, snapshot: dict[str, Any]) -> None:
        stmt = _UPSERT_SNAPSHOT["postgresql" if self._postgres else "sqlite"]
        generation = self._fences.get(code, UNFENCED)
        values = {"p_code": code, "p_seq": seq, "p_data": snapshot, "p_gen": generation}

        async def run() -> None:
            async with self._engine.begin() as conn:
                result = await conn.execute(stmt, values)
            if result.rowcount == 0:
                raise await self._refusal(code, generation) or UnknownRoom(f"no open room {code}")

        await self._exclusive(run)

    async def load_room(self, code: str) -> StoredRoom | None:
        async with self._engine.begin() as conn:
            row = (
                await conn.execute(
                    select(Room.id, Room.meta, RoomSnapshot.data, RoomSnapshot.seq)
                    .outerjoin(RoomSnapshot, RoomSnapshot.room_id == Room.id)
                    .where(Room.code == code, Room.closed_at.is_(None))
                )
            ).one_or_none()
            if row is None:
                return None
            room_id, meta, snapshot, snapshot_seq = row
            self._room_ids[code] = room_id  # a worker taking the room over refreshes it
            snapshot_seq = snapshot_seq or 0
            lines = await conn.execute(
                select(
                    RoomLogLine.seq,
                    RoomLogLine.seat,
                    RoomLogLine.command,
                    RoomLogLine.now_ms,
                    RoomLogLine.events,
                )
                .where(RoomLogLine.room_id == room_id, RoomLogLine.seq > snapshot_seq)
                .order_by(RoomLogLine.seq)
            )
            records = [RoomRecord(*line) for line in lines]
        return StoredRoom(code, meta, snapshot, snapshot_seq, records)

    async def open_rooms(self) -> list[str]:
        async with self._engine.begin() as conn:
            rows = await conn.execute(
                select(Room.code)
                .where(Room.closed_at.is_(None), Room.parked.is_(False))
                .order_by(Room.id)
            )
            return list(rows.scalars())

    async def close_room(self, code: str) -> None:
        """Retention: the snapshot and the log lines outside any match go; a match still
        running is recorded as abandoned; the room's history and match event logs stay."""
        self._room_ids.pop(code, None)
        generation = self._fences.get(code, UNFENCED)  # now: the writer may run it later
        await self._exclusive(lambda: self._close(code, generation))
        self._room_ids.pop(code, None)
        self._fences.pop(code, None)

    async def _close(self, code: str, generation: int) -> None:
        async with self._engine.begin() as conn:
            locked = await _locked_room(conn, code)
            if locked is None:
                return  # closing twice is harmless
            room_id, current = locked
            if current > generation:
                raise Fenced(code, generation, current)
            await conn.execute(delete(RoomSnapshot).where(RoomSnapshot.room_id == room_id))
            await conn.execute(
                delete(RoomLogLine).where(
                    RoomLogLine.room_id == room_id, RoomLogLine.match_id.is_(None)
                )
            )
            last_logged = (
                select(func.max(RoomLogLine.seq))
                .where(RoomLogLine.match_id == Match.id)
                .scalar_subquery()
            )
            await conn.execute(
                update(Match)
                .where(Match.room_id == room_id, Match.status == RUNNING)
                .values(
                    status=ABANDONED,
                    ended_at=utcnow(),
                    last_seq=func.coalesce(last_logged, Match.first_seq),
                )
            )
            await conn.execute(update(Room).where(Room.id == room_id).values(closed_at=utcnow()))

    async def take_over(self, code: str, generation: int | None) -> None:
        """Unpark the room and raise its generation to ``generation`` (a newer lease): from
        then on every write of an older generation is refused. Taking it again at the same
        generation is fine for this store only (its lease was renewed, not lost)."""

        async def run() -> None:
            async with self._engine.begin() as conn:
                query = update(Room).where(Room.code == code, Room.closed_at.is_(None))
                if generation is None:
                    query = query.where(Room.parked.is_(True)).values(parked=False)
                    await conn.execute(query)
                    return
                mine = generation if self._fences.get(code) == generation else -1
                query = query.where(
                    or_(Room.generation < generation, Room.generation == mine)
                ).values(generation=generation, parked=False)
                room_id = (await conn.execute(query.returning(Room.id))).scalar_one_or_none()
            if room_id is None:
                current = await self._generation(code)
                if current is None:
                    raise UnknownRoom(f"no open room {code}")
                raise Fenced(code, generation, current)
            self._room_ids[code] = room_id
            self._fences[code] = generation

        await self._exclusive(run)

    async def park(self, code: str) -> None:
        generation = self._fences.get(code, UNFENCED)

        async def run() -> None:
            async with self._engine.begin() as conn:
                result = await conn.execute(
                    update(Room)
                    .where(
                        Room.code == code,
                        Room.closed_at.is_(None),
                        Room.generation <= generation,
                    )
                    .values(parked=True)
                )
            if result.rowcount == 0:
                raise await self._refusal(code, generation) or UnknownRoom(f"no open room {code}")

        await self._exclusive(run)
        self._fences.pop(code, None)
        self._room_ids.pop(code, None)

    def forget(self, code: str, generation: int) -> None:
        """This worker stopped running room ``code``, taken over at ``generation`` (its lease
        was lost, or the room failed), and will write to it no more: drop what this store
        kept for it. An entry of a later take-over (a newer generation) stays.

        Only once the room's writes have all been called: a queued write carries its
        generation already, and a write called after this would go in unfenced."""
        if self._fences.get(code) == generation:
            del self._fences[code]
            self._room_ids.pop(code, None)

    async def rooms_to_run(self) -> list[str]:
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(Room.code)
                .where(
                    Room.closed_at.is_(None),
                    Room.parked.is_(False),
                    Room.meta["phase"].as_string() != "lobby",
                )
                .order_by(Room.id)
            )
            return list(rows.scalars())

    async def _refusal(self, code: str, generation: int) -> StoreError | None:
        """Why a write of ``generation`` to ``code`` found no room row: the room is closed
        (``UnknownRoom``), or a newer owner took it over (``Fenced``); None: neither."""
        current = await self._generation(code)
        if current is None:
            self._room_ids.pop(code, None)
            return UnknownRoom(f"no open room {code}")
        if current > generation:
            return Fenced(code, generation, current)
        return None

    async def _generation(self, code: str) -> int | None:
        async with self._engine.connect() as conn:
            query = select(Room.generation).where(Room.code == code, Room.closed_at.is_(None))
            current: int | None = (await conn.execute(query)).scalar_one_or_none()
            return current

    async def _room_id(self, code: str) -> int | None:
        async with self._engine.begin() as conn:
            locked = await _locked_room(conn, code)
            return None if locked is None else locked[0]


async def _locked_room(conn: AsyncConnection, code: str) -> tuple[int, int] | None:
    """The open room's (id, generation), its row locked until the transaction ends."""
    query = select(Room.id, Room.generation).where(Room.code == code, Room.closed_at.is_(None))
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()  # SQLite: BEGIN IMMEDIATE already serializes writers
    row = (await conn.execute(query)).one_or_none()
    return None if row is None else (row[0], row[1])


def _settle(
    done: asyncio.Future[Any], result: Any = None, exc: BaseException | None = None
) -> None:
    if done.done():
        return  # its caller was cancelled: the record is stored (or not) all the same
    if exc is not None:
        done.set_exception(exc)
    else:
        done.set_result(result)
