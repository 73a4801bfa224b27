"""The group commit of the room log (``SqlRoomStore.append``): every append waits in one queue;
a writer task stores everything queued meanwhile in one transaction (one executemany) and
resolves each caller's await only once that transaction has committed. An error reaches every
caller of its batch (a batch refused by a constraint is retried record by record, so each caller
gets its own answer: a duplicate in one room does not fail the others).

On SQLite there is one writer, and the store's other writes (rooms, snapshots, closing) go
through it too, in queue order (``exclusive``). Postgres takes up to ``POSTGRES_WRITERS`` batches
at once, but starts another writer only for a batch that takes longer than
``SECOND_WRITER_SECONDS``: what arrived meanwhile then goes out on another connection. Order
within a room holds either way: a room awaits its append before it appends again.

On a SQLite file a batch is written on the event loop's thread, at once: only what arrived in
the same turn of the loop shares it (1.55 commands a transaction at 1,500 rooms), and each
transaction has a fixed cost as large as two appends (BEGIN, COMMIT and their system calls, the
writer's task). So while other rooms' appends come fast (``busy``: ``BUSY_APPENDS`` of them
within ``BUSY_SECONDS``), a batch waits ``gather_seconds`` for more before it is written (2 ms:
5.4 commands a transaction at 1,500 rooms against 1 ms's 3.5, 10 % less CPU per move, 1 ms more
latency; 3 ms saved little more and added another millisecond; README, issue 31). Slower, the
gathering collects too little to pay for its wait and its timer (500 rooms: 2.2 commands a
transaction against 1.45 written at once, no less CPU, p50 3.3 ms against 1.0), so a worker
that is less busy, or a room's own appends one after another, are written at once. On
Postgres the round trip gathers by itself: what arrives while a batch is in flight goes in the
next.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from .base import UNFENCED, RoomRecord
from .db import before_dispose, in_transaction, sqlite_writer
from .errors import DuplicateRecord, StoreError, UnknownRoom
from .held_connection import HeldConnection
from .log_statements import INSERT_LINE, SET_META, UPSERT_SNAPSHOT
from .sqlite_file import DriverWork

T = TypeVar("T")
POSTGRES_WRITERS = 3  # batches in flight at once (the pool holds 5 connections, and overflow)
# How long a Postgres batch may take before what arrived meanwhile goes out on another writer.
# Below it, the busy writer takes what arrived in its next batch: fewer, larger transactions
# (at 500 rooms, three writers at once made 1.4-1.7 commands per transaction; the extra Postgres
# backends and round trips cost two workers 5-7 % more CPU per move and their p99 doubled).
# Above it, a slow batch (a room row locked by a takeover) holds up the other rooms no longer.
SECOND_WRITER_SECONDS = 0.05
# SQLite: how long a batch waits for more appends while the worker is busy (``GroupCommit``;
# UNO_COMMIT_GATHER_MS), and what busy is: the last BUSY_APPENDS appends (this one included)
# came within BUSY_SECONDS, the one before this from another room. About 1,300 appends a
# second or more: 1,500 rooms make 2,000, 500 rooms 650.
GATHER_SECONDS = 0.002
BUSY_APPENDS = 4
BUSY_SECONDS = 0.003


@dataclass(slots=True)
class Append:
    code: str
    record: RoomRecord
    meta: dict[str, Any] | None
    done: asyncio.Future[None]
    room_id: int | None = None
    generation: int = UNFENCED  # the writer's fencing generation for this room
    # The engine's snapshot at the record's seq, stored in the record's own transaction.
    snapshot: dict[str, Any] | None = None


@dataclass(slots=True)
class Job:
    """Another write, run alone by the writer (SQLite: one writer at a time, no busy waits)."""

    run: Callable[[], Awaitable[Any]]
    done: asyncio.Future[Any]


@dataclass(slots=True)
class Rider:
    """A write of one statement or a few (a match's row) that goes with the appends' batch to
    the SQLite writer, in a transaction of its own (``GroupCommit.in_writer``)."""

    work: Callable[[Connection], Any]
    done: asyncio.Future[Any]


class GroupCommit:
    """The writers of one ``SqlRoomStore``. ``room_id_of`` finds an open room's id;
    ``refusal`` says why a write of a generation found no room row (None: it did not)."""

    def __init__(self, engine: AsyncEngine,
                 room_id_of: Callable[[str], Awaitable[int | None]],
                 refusal: Callable[[str, int], Awaitable[StoreError | None]],
                 gather_seconds: float = GATHER_SECONDS) -> None:
        self._engine = engine
        self._postgres = engine.dialect.name == "postgresql"
        # Postgres: a single INSERT commits by itself, so no BEGIN round trip on the hot path.
        # (SQLite keeps its BEGIN IMMEDIATE: no round trip there anyway.)
        self._autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")
        # A SQLite file: the hot appends commit through its writer, not aiosqlite.
        self._sqlite_writer = sqlite_writer(engine)
        self._held = HeldConnection(engine)
        if self._sqlite_writer is not None:
            before_dispose(engine, self._held.release)
        self._room_id_of = room_id_of
        self._refusal = refusal
        self._queue: list[Append | Job | Rider] = []
        # Live writer tasks, each with whether it holds work (a new one has yet to take any).
        self._writers: dict[asyncio.Task[None], bool] = {}
        self._max_writers = POSTGRES_WRITERS if self._postgres else 1
        self._spill: asyncio.TimerHandle | None = None  # the check for another writer
        # SQLite: a busy worker's next writer starts when this fires (on this loop).
        self._gather = max(gather_seconds, 0.0) if self._sqlite_writer is not None else 0.0
        self._gathering: tuple[asyncio.AbstractEventLoop, asyncio.TimerHandle] | None = None
        self._last_code = ""  # the room of the last append
        # The loop times of the last BUSY_APPENDS appends, oldest first.
        self._recent: collections.deque[float] = collections.deque(
            [float("-inf")] * BUSY_APPENDS, maxlen=BUSY_APPENDS)
        self.batches = 0  # transactions the writer committed for appends (tests, benchmarks)
        self.largest_batch = 0

    def enqueue(self, item: Append) -> None:
        """Queue ``item``: ``item.done`` is settled once its transaction has committed."""
        self._enqueue(item)

    async def exclusive(self, run: Callable[[], Awaitable[T]]) -> T:
        """SQLite: run a write through the writer; Postgres: run it now (writers do not block)."""
        if self._postgres:
            return await run()
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._enqueue(Job(run, done))
        return await done

    async def in_writer(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` in a transaction of its own, through the writer. On a SQLite file it goes
        to the SQLite writer with the next batch of appends (before them): run through
        aiosqlite it took four crossings, each waiting for a turn of a busy event loop, and
        every append queued behind it waited too (snapshots held the room log up for seconds
        at 1,500 rooms)."""
        if self._sqlite_writer is None:
            return await self.exclusive(lambda: in_transaction(self._engine, work))
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._enqueue(Rider(work, done))
        return await done

    def _enqueue(self, item: Append | Job | Rider) -> None:
        self._queue.append(item)
        loop = item.done.get_loop()
        self._forget_finished_writers(loop)
        busy = self._gather > 0 and isinstance(item, Append) and self._busy(item.code, loop)
        # A writer yet to take work will take this too; so will a busy one, in its next
        # batch, unless its batch takes long: then one more starts, up to the limit.
        if not self._writers:
            if self._gathering is not None and self._gathering[0] is loop:
                return  # the writer starts when the gathering ends
            if busy:
                self._gathering = (loop, loop.call_later(self._gather, self._gathered))
            else:
                self._start_writer()
        elif (all(self._writers.values()) and len(self._writers) < self._max_writers
              and self._spill is None):
            self._spill = loop.call_later(SECOND_WRITER_SECONDS, self._spill_over)

    def _busy(self, code: str, loop: asyncio.AbstractEventLoop) -> bool:
        """Whether appends come fast enough for a gathering to pay: the last ``BUSY_APPENDS``,
        this one included, within ``BUSY_SECONDS``, and the one before this another room's."""
        recent = self._recent
        now = loop.time()
        recent.append(now)  # the oldest drops out
        other_room = code != self._last_code
        self._last_code = code
        return other_room and now - recent[0] < BUSY_SECONDS

    def _gathered(self) -> None:
        self._gathering = None
        if self._queue and not self._writers:
            self._start_writer()

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
        if self._writers:
            self._writers = {task: busy for task, busy in self._writers.items()
                             if not task.done() and task.get_loop() is loop}

    def _start_writer(self) -> None:
        task = asyncio.create_task(self._drain(), name="SqlRoomStore writer")
        self._writers[task] = False

    async def _drain(self) -> None:
        """Write whatever is queued, oldest first: runs of appends as one transaction each."""
        me = asyncio.current_task()
        assert me is not None
        run: list[Append] = []
        riders: list[Rider] = []
        try:
            while self._queue:
                self._writers[me] = True
                run, riders = [], []
                while self._queue and isinstance(self._queue[0], Append | Rider):
                    item = self._queue.pop(0)
                    if isinstance(item, Rider):
                        riders.append(item)
                    elif isinstance(item, Append):
                        run.append(item)
                if run or riders:
                    await self._store_batch(run, riders)
                    continue
                job = self._queue.pop(0)
                assert isinstance(job, Job)
                await self._held.release()  # the job's own transaction needs the connection
                try:
                    result = await job.run()
                except Exception as exc:
                    _settle(job.done, exc=exc)
                else:
                    _settle(job.done, result=result)
        except BaseException as exc:  # cancelled with the loop: nobody may wait forever
            for item in [*self._queue, *run, *riders]:  # settled ones stay as they are
                _settle(item.done, exc=RuntimeError("the store's writer stopped"))
            self._queue.clear()
            if not isinstance(exc, Exception):
                raise
        finally:
            self._writers.pop(me, None)
            self._held.release_when_idle()

    async def _store_batch(self, batch: list[Append], riders: list[Rider]) -> None:
        """The appends in one transaction; the riders (SQLite) in the same crossing, before
        them, each in a transaction of its own and settled on its own."""
        try:
            for item in batch:
                if item.room_id is None:
                    await self._held.release()  # the lookup reads through the connection
                    item.room_id = await self._room_id_of(item.code)
            ready = [item for item in batch if item.room_id is not None]
            for item in batch:
                if item.room_id is None:
                    _settle(item.done, exc=UnknownRoom(f"no open room {item.code}"))
            if not ready:
                if riders:
                    await self._execute([], riders)
                return
            try:
                await self._write_batch(ready, riders)
            except IntegrityError:
                if len(ready) == 1:
                    raise
                # Someone's record is refused: store the others, and tell each its answer.
                for item in ready:
                    await self._store_one(item)
                return
        except Exception as exc:
            waiting: list[Append | Rider] = [*batch, *riders]
            for waiter in waiting:  # settled ones stay as they are
                _settle(waiter.done, exc=exc)
            return
        for item in ready:
            _settle(item.done)

    async def _store_one(self, item: Append) -> None:
        try:
            await self._write_batch([item])
        except Exception as exc:
            _settle(item.done, exc=exc)
        else:
            _settle(item.done)

    async def _write_batch(self, batch: list[Append], riders: Sequence[Rider] = (),
                           retried: bool = False) -> None:
        """One transaction; retried once on a pooled connection that died (no pre-ping: it
        would cost a round trip per batch), with the riders not answered yet. Constraint errors
        become the store's errors."""
        try:
            await self._execute(batch, riders)
        except IntegrityError as exc:
            if len(batch) > 1:
                raise
            item = batch[0]
            # A closed room or a newer owner (NULL room id), or a seq stored twice: tell which.
            await self._held.release()  # the refusal reads through the connection
            refusal = await self._refusal(item.code, item.generation)
            if refusal is not None:
                raise refusal from exc
            if retried:
                return  # the first try committed before its connection died
            raise DuplicateRecord(f"room {item.code} already has seq {item.record.seq}") from exc
        except DBAPIError as exc:
            if retried or not exc.connection_invalidated:
                raise
            unanswered = [rider for rider in riders if not rider.done.done()]
            await self._write_batch(batch, unanswered, retried=True)

    async def _execute(self, batch: list[Append], riders: Sequence[Rider]) -> None:
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
        snapshots = [
            {"p_code": item.code, "p_seq": item.record.seq, "p_data": item.snapshot,
             "p_gen": item.generation}
            for item in batch
            if item.snapshot is not None
        ]
        if self._sqlite_writer is not None:

            def write(conn: Connection) -> None:
                INSERT_LINE.executemany(conn, lines)
                if metas:
                    SET_META.executemany(conn, metas)
                if snapshots:
                    UPSERT_SNAPSHOT["sqlite"].executemany(conn, snapshots)

            works = [rider.work for rider in riders] + ([DriverWork(write)] if lines else [])
            await self._held.hold()  # no other transaction of this process meanwhile
            outcomes = await self._sqlite_writer.run_each(works)
            for rider, (result, error) in zip(riders, outcomes, strict=False):
                _settle(rider.done, result, error)
            if lines and outcomes[-1][1] is not None:
                raise outcomes[-1][1]
            if not lines:
                return
        elif self._postgres and not metas and not snapshots:
            # One round trip: asyncpg sends the whole executemany before a single Sync, so
            # Postgres runs it as one implicit transaction (all lines or none), no BEGIN/COMMIT.
            async with self._autocommit.connect() as conn:
                await conn.execute(INSERT_LINE.statement, lines)
        else:
            async with self._engine.begin() as conn:
                await conn.execute(INSERT_LINE.statement, lines)
                if metas:
                    await conn.execute(SET_META.statement, metas)
                if snapshots:
                    await conn.execute(UPSERT_SNAPSHOT[self._engine.dialect.name].statement,
                                       snapshots)
        self.batches += 1
        self.largest_batch = max(self.largest_batch, len(lines))


def _settle(
    done: asyncio.Future[Any], result: Any = None, exc: BaseException | None = None
) -> None:
    if done.done():
        return  # its caller was cancelled: the record is stored (or not) all the same
    if exc is not None:
        done.set_exception(exc)
    else:
        done.set_result(result)
