"""The database engine and migrations, for SQLite (aiosqlite) and Postgres (asyncpg).

    await migrate(settings.database_url)             # in the app's lifespan, before serving
    engine = create_engine(settings.database_url)   # one per process
    await dispose_engine(engine)                     # on shutdown

    engine = create_engine("sqlite+aiosqlite://")    # in memory (tests, "memory" mode):
    await migrate_engine(engine)                     # migrate through the engine you keep

SQLite runs in WAL mode with ``synchronous=NORMAL`` (durable against a crash of the process,
not against power loss: see ``sqlite_file.sqlite_on_connect``), a busy timeout and foreign keys
on, and every transaction starts with ``BEGIN IMMEDIATE``: a transaction that reads and then writes
would otherwise fail with "database is locked" when another connection wrote in between, busy
timeout or not.

``migrate`` may be called by several workers starting at once: one of them upgrades while the
others wait on a lock (a Postgres advisory lock; an exclusive lock on a file next to the SQLite
database), then find nothing left to do. ``alembic upgrade head`` takes the same lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import orjson
from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, event, func, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import AsyncAdaptedQueuePool

from app.jsonwire import compact_json

from .sqlite_file import (
    SqliteWriter,
    no_autocheckpoint,
    sqlite_on_begin,
    sqlite_on_connect,
)

T = TypeVar("T")
MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"
# pg_advisory_xact_lock key: a constant the app uses for nothing else ("UNOMIG" in ASCII).
MIGRATION_LOCK_KEY = 0x554E4F4D4947


def normalize_url(url: str) -> str:
    """Accept plain ``sqlite://`` and ``postgresql://`` URLs and pick the async drivers."""
    parsed = make_url(url)
    if parsed.drivername in ("sqlite", "sqlite+pysqlite"):
        parsed = parsed.set(drivername="sqlite+aiosqlite")
    elif parsed.drivername in ("postgresql", "postgres", "postgresql+psycopg2"):
        parsed = parsed.set(drivername="postgresql+asyncpg")
    return parsed.render_as_string(hide_password=False)


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def create_engine(url: str, **kwargs: Any) -> AsyncEngine:
    """An async engine for ``url`` (UNO_DATABASE_URL), with the SQLite settings applied."""
    url = normalize_url(url)
    # The room log's JSON columns through orjson, as the wire's frames (a tenth of json.dumps).
    kwargs.setdefault("json_serializer", compact_json)
    kwargs.setdefault("json_deserializer", orjson.loads)
    if not is_sqlite(url):
        # No pool_pre_ping: it costs a round trip on every checkout, i.e. on every move;
        # SqlRoomStore.append retries once on a connection that died instead.
        return create_async_engine(url, **kwargs)
    # One connection, handed to one transaction at a time: in memory, the database lives as
    # long as that connection; in a file, SQLite takes one writer at a time anyway (and every
    # transaction here writes: BEGIN IMMEDIATE), and a second connection would wait for the
    # lock in SQLite's busy handler, which sleeps in growing steps, up to 100 ms: the long
    # tail of move latency under load. The pool's queue makes transactions wait their turn
    # without sleeping.
    kwargs.setdefault("pool_size", 1)
    kwargs.setdefault("max_overflow", 0)
    kwargs.setdefault("poolclass", AsyncAdaptedQueuePool)
    # Every use of a connection ends its own transaction (a Connection rolls back what it
    # began when closed), so the pool's rollback on return would only cost one more crossing
    # to aiosqlite's thread, and a turn of the event loop to come back, per checkout: the
    # group commit holds the connection once per batch, and waited for that turn each time.
    kwargs.setdefault("pool_reset_on_return", None)
    engine = create_async_engine(url, **kwargs)
    event.listen(engine.sync_engine, "connect", sqlite_on_connect)
    event.listen(engine.sync_engine, "begin", sqlite_on_begin)
    if _sqlite_lock_path(url) is not None:
        _WRITERS[engine] = SqliteWriter(url)
        event.listen(engine.sync_engine, "connect", no_autocheckpoint)
    return engine


_WRITERS: weakref.WeakKeyDictionary[AsyncEngine, SqliteWriter] = weakref.WeakKeyDictionary()
# What must give its connection back before an engine is disposed of (the group commit's).
_BEFORE_DISPOSE: weakref.WeakKeyDictionary[
    AsyncEngine, list[Callable[[], Awaitable[None]]]] = weakref.WeakKeyDictionary()


def before_dispose(engine: AsyncEngine, release: Callable[[], Awaitable[None]]) -> None:
    """``release`` runs when ``dispose_engine`` is called for ``engine``, before it disposes."""
    _BEFORE_DISPOSE.setdefault(engine, []).append(release)


async def in_transaction(engine: AsyncEngine, work: Callable[[Connection], T]) -> T:
    """Run ``work`` (a function of a synchronous connection) in a transaction of its own."""
    async with engine.begin() as conn:
        return await conn.run_sync(work)


def sqlite_writer(engine: AsyncEngine) -> SqliteWriter | None:
    """The writer of an engine on a SQLite file (None on Postgres and in memory)."""
    return _WRITERS.get(engine)


async def ping(engine: AsyncEngine) -> None:
    """Raise unless the database answers now (the outage probe, app/store/outage.py)."""
    async with engine.connect() as conn:
        await conn.execute(text("SELECT 1"))


async def dispose_engine(engine: AsyncEngine) -> None:
    """Close the engine's connections, and its SQLite writer's."""
    for release in _BEFORE_DISPOSE.pop(engine, []):
        await release()
    writer = _WRITERS.pop(engine, None)
    if writer is not None:
        await asyncio.to_thread(writer.close)
    await engine.dispose()


def _sqlite_lock_path(url: str) -> Path | None:
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None  # an in-memory database lives in one process: nothing to race with
    return Path(f"{os.path.abspath(database)}.migrate-lock")


@contextlib.asynccontextmanager
async def _file_lock(path: Path) -> AsyncIterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        # flock blocks: wait for it in a thread so the event loop stays free.
        await asyncio.to_thread(fcntl.flock, fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


@contextlib.asynccontextmanager
async def migration_connection(engine: AsyncEngine) -> AsyncIterator[AsyncConnection]:
    """A connection in a transaction that holds the migration lock until it commits."""
    url = engine.url.render_as_string(hide_password=False)
    lock_path = _sqlite_lock_path(url) if is_sqlite(url) else None
    async with contextlib.AsyncExitStack() as stack:
        if lock_path is not None:
            await stack.enter_async_context(_file_lock(lock_path))
        conn = await stack.enter_async_context(engine.begin())
        if not is_sqlite(url):
            # Released by the commit; DDL is transactional on Postgres, so a waiting worker
            # sees either no change or the whole upgrade.
            await conn.execute(select(func.pg_advisory_xact_lock(MIGRATION_LOCK_KEY)))
        yield conn


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", normalize_url(url).replace("%", "%%"))
    return config


async def _run(engine: AsyncEngine, action: str, revision: str) -> None:
    config = alembic_config(engine.url.render_as_string(hide_password=False))
    async with migration_connection(engine) as conn:

        def run(sync_conn: Connection) -> None:
            config.attributes["connection"] = sync_conn  # env.py uses it as it is
            getattr(command, action)(config, revision)

        await conn.run_sync(run)


async def migrate_engine(engine: AsyncEngine, revision: str = "head") -> None:
    """Upgrade through an engine the caller keeps: the way to migrate an in-memory SQLite
    database (``sqlite+aiosqlite://``), which lives only as long as its engine."""
    await _run(engine, "upgrade", revision)


async def migrate(url: str, revision: str = "head") -> None:
    """``alembic upgrade head``, safe when several workers start at once."""
    engine = create_engine(url)
    try:
        await _run(engine, "upgrade", revision)
    finally:
        await dispose_engine(engine)


async def downgrade(url: str, revision: str = "base") -> None:
    engine = create_engine(url)
    try:
        await _run(engine, "downgrade", revision)
    finally:
        await dispose_engine(engine)
