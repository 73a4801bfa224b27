"""The database engine and migrations, for SQLite (aiosqlite) and Postgres (asyncpg).

    await migrate(settings.database_url)             # in the app's lifespan, before serving
    engine = create_engine(settings.database_url)   # one per process
    await dispose_engine(engine)                     # on shutdown

    engine = create_engine("sqlite+aiosqlite://")    # in memory (tests, "memory" mode):
    await migrate_engine(engine)                     # migrate through the engine you keep

SQLite runs in WAL mode with ``synchronous=NORMAL`` (durable against a crash of the process,
not against power loss: see ``_sqlite_on_connect``), a busy timeout and foreign keys on, and
every transaction starts with ``BEGIN IMMEDIATE``: a transaction that reads and then writes
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
import queue
import sqlite3
import threading
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import orjson
import sqlalchemy
from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, event, func, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import AsyncAdaptedQueuePool

from app.jsonwire import compact_json

T = TypeVar("T")
SQLITE_BUSY_TIMEOUT_MS = 10_000
# How often a SQLite file's WAL is checkpointed, in the background: a commit never does it.
CHECKPOINT_SECONDS = 1.0
# Past this size the writer's thread checkpoints the WAL to its end, so that it starts again.
WAL_RESTART_BYTES = 16 * 1024 * 1024
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
    event.listen(engine.sync_engine, "connect", _sqlite_on_connect)
    event.listen(engine.sync_engine, "begin", _sqlite_on_begin)
    if _sqlite_lock_path(url) is not None:
        _WRITERS[engine] = SqliteWriter(url)
        event.listen(engine.sync_engine, "connect", _no_autocheckpoint)
    return engine


class SqliteWriter:
    """Runs a whole write transaction on a SQLite file in one crossing to a thread.

    aiosqlite crosses to its thread and back for every step of a transaction (nine crossings
    for one append of ``SqlRoomStore``), and each crossing back waits for a turn of the event
    loop, which is long when thousands of sockets are busy. The writer runs ``work`` with a
    synchronous connection of its own on a thread of its own, once per transaction.

    The thread keeps its one connection open (the pool holds one, checked out for good), and
    the room log's statements go to the driver's cursor as they are (``driver_sql.py``).

    The caller holds the async engine's connection meanwhile (``async with engine.connect()``),
    so the two connections never write at the same time.

    No connection checkpoints the WAL as it commits (``wal_autocheckpoint=0``): SQLite's
    automatic checkpoint runs inside the commit that crosses 1,000 pages, with its fsyncs, and
    every room's append waiting in the group commit waited for it. A thread of its own runs a
    PASSIVE checkpoint every ``CHECKPOINT_SECONDS`` instead, on a connection of its own, which
    never holds up a writer.
    """

    def __init__(self, url: str) -> None:
        self.engine = sqlalchemy.create_engine(
            make_url(url).set(drivername="sqlite+pysqlite"), pool_size=1, max_overflow=0,
            json_serializer=compact_json, json_deserializer=orjson.loads,
        )
        event.listen(self.engine, "connect", _sqlite_on_connect)
        event.listen(self.engine, "connect", _no_autocheckpoint)
        event.listen(self.engine, "begin", _sqlite_on_begin)
        self.database = str(make_url(url).database)
        self._stop = threading.Event()
        self.checkpoints = 0  # background checkpoints done (tests)
        self.restarts = 0  # WAL restarts done by the writer's thread (tests)
        self._conn: Connection | None = None  # opened and used on the writer's thread only
        self._checkpointer = threading.Thread(target=self._checkpoint_loop,
                                              name="sqlite-checkpoints", daemon=True)
        self._checkpointer.start()
        # Batches for the writer's thread, each answered on its loop. A thread of its own, not
        # a ThreadPoolExecutor: the pool's locks, its Future and the chaining of that Future to
        # the loop's cost more of the event loop's time than the crossing itself.
        self._batches: queue.SimpleQueue[_Batch | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name="sqlite-writer", daemon=True)
        self._thread.start()

    def _checkpoint_loop(self) -> None:
        connection = sqlite3.connect(self.database, check_same_thread=False)
        try:
            connection.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
            while not self._stop.wait(CHECKPOINT_SECONDS):
                with contextlib.suppress(sqlite3.Error):  # busy, or the file went: next time
                    connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.checkpoints += 1
        finally:
            connection.close()

    async def run_each(self, works: list[Callable[[Connection], Any]]
                       ) -> list[tuple[Any, Exception | None]]:
        """Run each of ``works`` in a transaction of its own, in order, in one crossing to the
        thread: each one's result, or the error that rolled it back."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[list[tuple[Any, Exception | None]]] = loop.create_future()
        self._batches.put(_Batch(works, loop, done))
        return await done

    def _serve(self) -> None:
        """The writer's thread: each batch in turn, until ``close``."""
        try:
            while (batch := self._next_batch()) is not None:
                try:
                    outcome: Any = self._each(batch.works)
                except Exception as exc:  # not a work's error (those are outcomes): the thread's
                    outcome = exc
                with contextlib.suppress(RuntimeError):  # that loop has closed: nobody waits
                    batch.loop.call_soon_threadsafe(_answer, batch.done, outcome)
        finally:
            self._dispose()

    def _next_batch(self) -> _Batch | None:
        return self._batches.get()  # the thread's one wait (bench/stages.py leaves it out)

    def _each(self, works: list[Callable[[Connection], Any]]
              ) -> list[tuple[Any, Exception | None]]:
        outcomes: list[tuple[Any, Exception | None]] = []
        for work in works:
            try:
                outcomes.append((self._transaction(work), None))
            except Exception as exc:
                outcomes.append((None, exc))
        self._restart_a_long_wal()
        return outcomes

    def _restart_a_long_wal(self) -> None:
        """A WAL starts again from its beginning only once a checkpoint has copied all of it,
        which a PASSIVE checkpoint never does while commits keep coming: the WAL (and the index
        SQLite maps in memory beside it) would grow by every byte ever written. Between two
        transactions, with no other writer, this thread copies it to its end itself."""
        try:
            size = os.stat(self.database + "-wal").st_size
        except OSError:
            return
        if size <= WAL_RESTART_BYTES:
            return
        # The driver's connection: SQLAlchemy's would BEGIN, and no checkpoint runs in a
        # transaction (none is open between two of this thread's transactions).
        raw = self._connection().connection.driver_connection
        assert raw is not None
        with contextlib.suppress(sqlite3.Error):  # busy: the next batch tries again
            busy, _, _ = raw.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
            self.restarts += not busy

    def _transaction(self, work: Callable[[Connection], T]) -> T:
        conn = self._connection()
        with conn.begin():
            return work(conn)

    def _connection(self) -> Connection:
        """The thread's one connection, kept open: checking it out of the pool and back for
        each transaction cost a fifth of a one-append transaction (pool events, its reset)."""
        if self._conn is None or self._conn.invalidated or self._conn.closed:
            if self._conn is not None:
                self._conn.close()
            self._conn = self.engine.connect()
        return self._conn

    def _dispose(self) -> None:
        if self._conn is not None:
            self._conn.close()
        self.engine.dispose()

    def close(self) -> None:
        self._stop.set()
        self._checkpointer.join()
        self._batches.put(None)  # the thread disposes of its connection, which it opened
        self._thread.join()


@dataclass(slots=True)
class _Batch:
    works: list[Callable[[Connection], Any]]
    loop: asyncio.AbstractEventLoop
    done: asyncio.Future[list[tuple[Any, Exception | None]]]


def _answer(done: asyncio.Future[Any], outcome: Any) -> None:
    if done.done():
        return  # its caller was cancelled
    if isinstance(outcome, Exception):
        done.set_exception(outcome)
    else:
        done.set_result(outcome)


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


def _sqlite_on_connect(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # the driver must not BEGIN on its own: we do
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    # WAL + synchronous=NORMAL: a commit is written to the WAL (in the OS page cache) but not
    # fsynced; the WAL is fsynced at checkpoints. That survives the process dying at any point
    # (kill -9, a crash: the OS still holds the writes), which is what the restart test checks,
    # and turns a commit from an fsync (milliseconds) into a write (microseconds). The price:
    # a power loss or kernel crash may lose the last commits (the database stays consistent).
    # Deployments that must survive power loss run on Postgres.
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _no_autocheckpoint(dbapi_connection: Any, _record: Any) -> None:
    """The WAL is checkpointed by SqliteWriter's own thread, never inside a commit."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA wal_autocheckpoint=0")
    # When the WAL starts again, the file is cut back to this size instead of keeping its peak.
    cursor.execute(f"PRAGMA journal_size_limit={WAL_RESTART_BYTES}")
    cursor.close()


def _sqlite_on_begin(connection: Connection) -> None:
    driver = connection.connection.driver_connection
    if isinstance(driver, sqlite3.Connection):  # the writer's thread: no SQLAlchemy execute
        driver.execute("BEGIN IMMEDIATE")     # (a third of a one-line transaction's cost)
    else:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


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
