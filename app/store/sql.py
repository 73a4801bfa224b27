"""``SqlRoomStore``: the room log on SQLite or Postgres, so a room survives a worker's death.

    from app.store.db import create_engine, migrate
    from app.store.sql import SqlRoomStore

    await migrate(settings.database_url)            # once, in the lifespan, before serving
    engine = create_engine(settings.database_url)   # one per process
    store = SqlRoomStore(engine)                    # implements app.store.base.RoomStore
    ...
    await engine.dispose()                          # on shutdown

``append`` returns only once the record is committed. Each command's record goes into
``room_log``; the line is tagged with the room's running match (see ``HistoryStore``), which makes
it part of that match's event log. ``close_room`` removes what only recovery needed: the snapshot
and the log lines outside any match. Room codes may be reused once a room is closed.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    and_,
    delete,
    func,
    insert,
    literal,
    or_,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .base import RoomRecord, StoredRoom
from .errors import DuplicateRecord, RoomExists, UnknownRoom
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


def open_room_id(code: str) -> Any:
    """The id of the open room ``code``, as a scalar subquery (no extra round trip)."""
    return select(Room.id).where(Room.code == code, Room.closed_at.is_(None)).scalar_subquery()


def _match_at(code: str, seq: int) -> Any:
    """The match of room ``code`` that a record at ``seq`` belongs to, or NULL."""
    running_or_within: ColumnElement[bool] = or_(
        Match.last_seq >= seq, and_(Match.last_seq.is_(None), Match.status == RUNNING)
    )
    return (
        select(Match.id)
        .join(Room, Room.id == Match.room_id)
        .where(Room.code == code, Room.closed_at.is_(None), Match.first_seq <= seq)
        .where(running_or_within)
        .order_by(Match.id.desc())
        .limit(1)
        .scalar_subquery()
    )


class SqlRoomStore:
    """``RoomStore`` on SQL: construct with an engine from ``app.store.db.create_engine``."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._postgres = engine.dialect.name == "postgresql"
        # Postgres: a single INSERT commits by itself, so no BEGIN round trip on the hot path.
        # (SQLite keeps its BEGIN IMMEDIATE: no round trip there anyway.)
        self._autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")

    async def create_room(self, code: str, meta: dict[str, Any]) -> None:
        try:
            async with self._engine.begin() as conn:
                await conn.execute(insert(Room).values(code=code, meta=meta, created_at=utcnow()))
        except IntegrityError as exc:
            raise RoomExists(f"room {code} is already open") from exc

    async def append(self, code: str, record: RoomRecord, meta: dict[str, Any] | None) -> None:
        line = insert(RoomLogLine).values(
            room_id=open_room_id(code),
            seq=record.seq,
            seat=record.seat,
            command=record.command,
            now_ms=record.now_ms,
            events=record.events,
            match_id=_match_at(code, record.seq),
        )
        retried = False
        while True:
            try:
                await self._write(code, line, meta)
                return
            except IntegrityError as exc:
                # A NULL room id (no such open room) or a seq stored twice: tell which.
                if await self._room_id(code) is None:
                    raise UnknownRoom(f"no open room {code}") from exc
                if retried:
                    return  # the first try committed before its connection died
                raise DuplicateRecord(f"room {code} already has seq {record.seq}") from exc
            except DBAPIError as exc:
                # The pool holds connections without pinging them (a ping is a round trip on
                # every move); one that died with a database restart is retried once.
                if retried or not exc.connection_invalidated:
                    raise
                retried = True

    async def _write(self, code: str, line: Any, meta: dict[str, Any] | None) -> None:
        if meta is None and self._postgres:
            async with self._autocommit.connect() as conn:
                await conn.execute(line)
            return
        async with self._engine.begin() as conn:
            await conn.execute(line)
            if meta is not None:
                await conn.execute(_set_meta(code, meta))

    async def save_snapshot(self, code: str, seq: int, snapshot: dict[str, Any]) -> None:
        maker = pg_insert if self._postgres else sqlite_insert
        source = select(Room.id, literal(seq, BigInteger), literal(snapshot, JsonType)).where(
            Room.code == code, Room.closed_at.is_(None)
        )
        stmt = maker(RoomSnapshot).from_select(["room_id", "seq", "data"], source)
        stmt = stmt.on_conflict_do_update(
            index_elements=[RoomSnapshot.room_id],
            set_={"seq": stmt.excluded.seq, "data": stmt.excluded.data},
        )
        async with self._engine.begin() as conn:
            result = await conn.execute(stmt)
        if result.rowcount == 0:
            raise UnknownRoom(f"no open room {code}")

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
                select(Room.code).where(Room.closed_at.is_(None)).order_by(Room.id)
            )
            return list(rows.scalars())

    async def close_room(self, code: str) -> None:
        """Retention: the snapshot and the log lines outside any match go; a match still
        running is recorded as abandoned; the room's history and match event logs stay."""
        async with self._engine.begin() as conn:
            room_id = await _locked_room_id(conn, code)
            if room_id is None:
                return  # closing twice is harmless
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

    async def _room_id(self, code: str) -> int | None:
        async with self._engine.begin() as conn:
            return await _locked_room_id(conn, code)


async def _locked_room_id(conn: AsyncConnection, code: str) -> int | None:
    query = select(Room.id).where(Room.code == code, Room.closed_at.is_(None))
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()  # SQLite: BEGIN IMMEDIATE already serializes writers
    return (await conn.execute(query)).scalar_one_or_none()


def _set_meta(code: str, meta: dict[str, Any]) -> Any:
    return update(Room).where(Room.code == code, Room.closed_at.is_(None)).values(meta=meta)
