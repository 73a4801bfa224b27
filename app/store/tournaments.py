"""Tournaments' rows. A course record is changed by compare-and-set on its ``revision`` (a
command on any worker, the owner's round work), and the owner's writes are fenced by its lease
generation as a room's are: a worker that lost the tournament cannot overwrite what its
successor wrote. ``tournament_presence`` says who has a socket open, on any worker (TR-ABSENT).

    store = TournamentStore(engine, sql.in_writer)
    await store.create(code, name, public=True, league_id=None, host_token_hash=h, rules=r,
                       record=course_to_json(course))
    row = await store.load(code)
    ok = await store.save(code, record, row.revision)          # False: changed meanwhile
    ok = await store.save(code, record, row.revision, generation=7)  # the owner's write
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any, TypeVar

from sqlalchemy import Connection, delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from .db import in_transaction
from .models import Tournament, TournamentPresence, utcnow

T = TypeVar("T")
Write = Callable[[Callable[[Connection], T]], Awaitable[T]]


@dataclass(frozen=True, slots=True)
class TournamentRow:
    code: str
    name: str
    public: bool
    league_id: int | None
    host_token_hash: str
    rules: dict[str, Any]
    record: dict[str, Any]
    generation: int
    revision: int
    finished: bool


def create_tournament(conn: Connection, code: str, name: str, *, public: bool,
                      league_id: int | None, host_token_hash: str, rules: dict[str, Any],
                      record: dict[str, Any]) -> None:
    conn.execute(insert(Tournament).values(
        code=code, name=name, public=public, league_id=league_id,
        host_token_hash=host_token_hash, rules=rules, record=record, created_at=utcnow()))


def load_tournament(conn: Connection, code: str) -> TournamentRow | None:
    row = conn.execute(select(
        Tournament.code, Tournament.name, Tournament.public, Tournament.league_id,
        Tournament.host_token_hash, Tournament.rules, Tournament.record,
        Tournament.generation, Tournament.revision, Tournament.finished_at,
    ).where(Tournament.code == code)).one_or_none()
    if row is None:
        return None
    return TournamentRow(
        code=row.code, name=row.name, public=bool(row.public), league_id=row.league_id,
        host_token_hash=row.host_token_hash, rules=row.rules, record=row.record,
        generation=int(row.generation), revision=int(row.revision),
        finished=row.finished_at is not None)


def save_record(conn: Connection, code: str, record: dict[str, Any], revision: int, *,
                generation: int | None = None, finished: bool = False) -> bool:
    """Write the course if nobody wrote it since ``revision`` (and, for the owner's writes, no
    later owner took it over); False otherwise: read it again and redo the change."""
    values: dict[str, Any] = {"record": record, "revision": revision + 1}
    where = [Tournament.code == code, Tournament.revision == revision]
    if generation is not None:
        where.append(Tournament.generation <= generation)
    if finished:
        values["finished_at"] = utcnow()
    return bool(conn.execute(update(Tournament).where(*where).values(**values)).rowcount)


def take_over(conn: Connection, code: str, generation: int) -> bool:
    """Fence the tournament's owner writes at ``generation`` (a new owner's lease)."""
    return bool(conn.execute(update(Tournament).where(
        Tournament.code == code, Tournament.generation <= generation
    ).values(generation=generation)).rowcount)


def unfinished(conn: Connection) -> list[str]:
    rows = conn.execute(select(Tournament.code).where(Tournament.finished_at.is_(None)))
    return [str(code) for (code,) in rows]


def public_tournaments(conn: Connection, limit: int = 50) -> list[TournamentRow]:
    """The public tournaments not over, newest first."""
    codes = conn.execute(select(Tournament.code).where(
        Tournament.public.is_(True), Tournament.finished_at.is_(None)
    ).order_by(Tournament.id.desc()).limit(limit)).scalars().all()
    return [row for code in codes if (row := load_tournament(conn, code)) is not None]


def mark_seen(conn: Connection, code: str, participants: Iterable[str], when: datetime
              ) -> None:
    ids = sorted(set(participants))
    if not ids:
        return
    conn.execute(delete(TournamentPresence).where(
        TournamentPresence.tournament == code, TournamentPresence.participant.in_(ids)))
    conn.execute(insert(TournamentPresence), [
        {"tournament": code, "participant": who, "seen_at": when} for who in ids])


def seen_since(conn: Connection, code: str, since: datetime) -> set[str]:
    rows = conn.execute(select(TournamentPresence.participant).where(
        TournamentPresence.tournament == code, TournamentPresence.seen_at >= since))
    return {str(who) for (who,) in rows}


class TournamentStore:
    """The functions above as short transactions: writes through ``write`` (on a SQLite file,
    the room log's writer thread), reads on ``engine``."""

    def __init__(self, engine: AsyncEngine, write: Write[Any] | None = None) -> None:
        self._engine = engine
        self._write: Write[Any] = write or partial(in_transaction, engine)

    async def _read(self, work: Callable[[Connection], T]) -> T:
        async with self._engine.connect() as conn:
            return await conn.run_sync(work)

    async def create(self, code: str, name: str, *, public: bool, league_id: int | None,
                     host_token_hash: str, rules: dict[str, Any], record: dict[str, Any]
                     ) -> None:
        await self._write(partial(create_tournament, code=code, name=name, public=public,
                                  league_id=league_id, host_token_hash=host_token_hash,
                                  rules=rules, record=record))

    async def load(self, code: str) -> TournamentRow | None:
        return await self._read(partial(load_tournament, code=code))

    async def save(self, code: str, record: dict[str, Any], revision: int, *,
                   generation: int | None = None, finished: bool = False) -> bool:
        saved: bool = await self._write(partial(
            save_record, code=code, record=record, revision=revision, generation=generation,
            finished=finished))
        return saved

    async def take_over(self, code: str, generation: int) -> bool:
        taken: bool = await self._write(partial(take_over, code=code, generation=generation))
        return taken

    async def unfinished(self) -> list[str]:
        return await self._read(unfinished)

    async def public(self, limit: int = 50) -> list[TournamentRow]:
        return await self._read(partial(public_tournaments, limit=limit))

    async def mark_seen(self, code: str, participants: Iterable[str]) -> None:
        await self._write(partial(mark_seen, code=code, participants=list(participants),
                                  when=utcnow()))

    async def present(self, code: str, within_seconds: float) -> set[str]:
        since = utcnow() - timedelta(seconds=within_seconds)
        return await self._read(partial(seen_since, code=code, since=since))
