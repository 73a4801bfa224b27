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
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import (
    Connection,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.sql.elements import BindParameter

from .base import UNFENCED, RoomRecord, StoredRoom
from .errors import Fenced, RoomExists, StoreError, UnknownRoom
from .group_commit import GATHER_SECONDS, Append, GroupCommit
from .log_statements import UPSERT_SNAPSHOT
from .models import (
    ABANDONED,
    RUNNING,
    Match,
    Room,
    RoomLogLine,
    RoomSnapshot,
    utcnow,
)
from .queries import match_lines

T = TypeVar("T")


def open_room_id(code: str | BindParameter[str]) -> Any:
    """The id of the open room ``code`` (a value, or a parameter of a statement built once), as
    a scalar subquery (no extra round trip)."""
    return select(Room.id).where(Room.code == code, Room.closed_at.is_(None)).scalar_subquery()


class SqlRoomStore:
    """``RoomStore`` on SQL: construct with an engine from ``app.store.db.create_engine``.
    ``append`` goes through a group commit (app/store/group_commit.py), and on SQLite so do the
    store's other writes, in order."""

    def __init__(self, engine: AsyncEngine, gather_seconds: float = GATHER_SECONDS) -> None:
        self._engine = engine
        self._postgres = engine.dialect.name == "postgresql"
        self._log = GroupCommit(engine, self._cached_room_id, self._refusal, gather_seconds)
        # Open rooms' ids by code: a room's id never changes while it is open; the entry goes
        # when this store closes, parks or forgets the room, and is refreshed whenever a worker
        # loads it.
        self._room_ids: dict[str, int] = {}
        # Rooms this store took over, with the lease generation its writes to them carry. The
        # entry goes when this store closes or parks the room, or the worker stopped running it
        # (``forget``): each write captures its generation when it is called, so a write of the
        # stopped room still in the queue stays fenced.
        self._fences: dict[str, int] = {}

    @property
    def available(self) -> bool:
        return True  # what an outage looks like is OutageWatch's to say (app/store/outage.py)

    @property
    def transactions(self) -> int:
        """Transactions that stored appends so far (a group commit stores several)."""
        return self._log.batches

    @property
    def largest_batch(self) -> int:
        return self._log.largest_batch

    async def in_writer(self, work: Callable[[Connection], T], /) -> T:
        """Run ``work`` in a write transaction of its own, in turn with the room log's writes
        (``GroupCommit.in_writer``): the history's writes go this way (``HistoryStore``)."""
        return await self._log.in_writer(work)

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

        await self._log.exclusive(run)

    async def append(self, code: str, record: RoomRecord, meta: dict[str, Any] | None,
                     snapshot: dict[str, Any] | None = None) -> None:
        """Queue the record for the writer; returns once its transaction has committed."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._log.enqueue(Append(code, record, meta, done, self._room_ids.get(code),
                                 self._fences.get(code, UNFENCED), snapshot))
        await done

    async def save_snapshot(self, code: str, seq: int, snapshot: dict[str, Any]) -> None:
        stmt = UPSERT_SNAPSHOT["postgresql" if self._postgres else "sqlite"]
        generation = self._fences.get(code, UNFENCED)
        values = {"p_code": code, "p_seq": seq, "p_data": snapshot, "p_gen": generation}

        def write(conn: Connection) -> int:
            return stmt.rowcount(conn, values)

        if await self._log.in_writer(write) == 0:
            raise await self._refusal(code, generation) or UnknownRoom(f"no open room {code}")

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
        await self._log.exclusive(lambda: self._close(code, generation))
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
                .where(match_lines(Match.room_id, Match.first_seq, Match.id))
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

        await self._log.exclusive(run)

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

        await self._log.exclusive(run)
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
