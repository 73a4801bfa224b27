"""The room log's statements, built once and run by the driver itself (``driver_sql``): a
record's line, the room's meta, and the engine's snapshot. ``group_commit`` runs them in
batches; ``sql`` runs the snapshot alone too."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import BigInteger, Integer, and_, bindparam, insert, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from .driver_sql import DriverStatement
from .models import RUNNING, JsonType, Match, Room, RoomLogLine, RoomSnapshot

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
INSERT_LINE = DriverStatement(insert(RoomLogLine).values(room_id=_OPEN_ROOM, match_id=_MATCH_AT),
                               ("seq", "seat", "command", "now_ms", "events"))
SET_META = DriverStatement(
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


UPSERT_SNAPSHOT = {"postgresql": DriverStatement(_snapshot_upsert(pg_insert)),
                   "sqlite": DriverStatement(_snapshot_upsert(sqlite_insert))}
