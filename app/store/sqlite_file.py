"""A SQLite file's connections: their settings (WAL, ``synchronous=NORMAL``, the busy timeout,
foreign keys, ``BEGIN IMMEDIATE``, no checkpoint inside a commit) and the writer that runs the
store's write transactions (``SqliteWriter``): on the event loop's own thread while nobody else
holds the file's lock, on a thread of its own when someone does. ``db.create_engine`` makes one
per SQLite file engine.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
import sqlalchemy
from sqlalchemy import Connection, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from app.jsonwire import compact_json

from .driver_sql import sqlalchemy_error

SQLITE_BUSY_TIMEOUT_MS = 10_000
# How often a SQLite file's WAL is checkpointed, in the background: a commit never does it.
CHECKPOINT_SECONDS = 1.0
# How often the checkpoints' thread looks at the WAL's size (an ``os.stat``, off the loop).
WAL_CHECK_SECONDS = 0.1
# Past this size the checkpoints' thread starts the WAL again (``_restart``).
WAL_RESTART_BYTES = 64 * 1024 * 1024
# The longest a restart holds the file's writers up waiting for readers; then it gives up
# and tries again ``CHECKPOINT_SECONDS`` later.
RESTART_WAIT_MS = 100


class SqliteWriter:
    """Runs whole write transactions on a SQLite file, a batch at a time, without aiosqlite.

    aiosqlite crosses to its thread and back for every step of a transaction (nine crossings
    for one append of ``SqlRoomStore``), and each crossing back waits for a turn of the event
    loop, which is long when thousands of sockets are busy. A batch of the room log is a few
    hundred microseconds of SQLite on a file in the page cache (``synchronous=NORMAL``: no
    fsync in a commit), so the writer runs it on the event loop's own thread, with a
    synchronous connection of its own: a crossing to a thread cost more than that in waiting
    (the thread's wake-up, the GIL handed to and fro with each statement, the answer waiting
    for a turn of the loop: at 1,500 rooms a commit's mean was 5-9 ms on the thread, 3-4 on
    the loop). That connection never waits for SQLite's lock (``busy_timeout=0``): when
    another connection holds it (another process, a second engine on the file, the WAL's
    restart) the loop must not block, so that transaction and the rest of its batch go to the
    writer's thread, whose connection waits in SQLite's busy handler.

    Both connections stay open (the pool holds two, checked out for good), and the room log's
    statements go to the driver's cursor as they are (``driver_sql.py``).

    The caller holds the async engine's connection meanwhile (``async with engine.connect()``),
    so the two connections never write at the same time.

    No connection checkpoints the WAL as it commits (``wal_autocheckpoint=0``): SQLite's
    automatic checkpoint runs inside the commit that crosses 1,000 pages, with its fsyncs, and
    every room's append waiting in the group commit waited for it. A thread of its own runs a
    PASSIVE checkpoint every ``CHECKPOINT_SECONDS`` instead, on a connection of its own, which
    never holds up a writer, and starts the WAL again once it is past ``WAL_RESTART_BYTES``.
    """

    def __init__(self, url: str) -> None:
        self.engine = sqlalchemy.create_engine(
            make_url(url).set(drivername="sqlite+pysqlite"), pool_size=2, max_overflow=0,
            json_serializer=compact_json, json_deserializer=orjson.loads,
            # The loop's connection is opened on the loop's thread and closed from ``close``.
            connect_args={"check_same_thread": False},
        )
        event.listen(self.engine, "connect", sqlite_on_connect)
        event.listen(self.engine, "connect", no_autocheckpoint)
        event.listen(self.engine, "begin", sqlite_on_begin)
        self.database = str(make_url(url).database)
        self._stop = threading.Event()
        self.checkpoints = 0  # background checkpoints done (tests)
        self.restarts = 0  # WAL restarts done by the checkpoints' thread (tests)
        self._conn: Connection | None = None  # opened and used on the writer's thread only
        self._loop_conn: Connection | None = None  # used on the event loop's thread only
        self.on_thread = 0  # transactions the thread ran, the file being busy (tests)
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
        """A PASSIVE checkpoint every ``CHECKPOINT_SECONDS``, and a restart of the WAL as soon
        as it is long (looked at every ``WAL_CHECK_SECONDS``); a restart that found readers in
        the way is tried again a checkpoint later."""
        connection = sqlite3.connect(self.database, check_same_thread=False)
        try:
            # Only a restart waits in the busy handler (a PASSIVE checkpoint never does), and it
            # holds the file's writers up meanwhile: never long.
            connection.execute(f"PRAGMA busy_timeout={RESTART_WAIT_MS}")
            next_checkpoint = 0.0
            while not self._stop.wait(WAL_CHECK_SECONDS):
                long = self._wal_is_long()
                if not long and time.monotonic() < next_checkpoint:
                    continue
                next_checkpoint = time.monotonic() + CHECKPOINT_SECONDS
                with contextlib.suppress(sqlite3.Error):  # the file went: next time
                    connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.checkpoints += 1
                    if long and self._restart(connection):
                        self.restarts += 1
        finally:
            connection.close()

    @staticmethod
    def _restart(connection: sqlite3.Connection) -> bool:
        """Start the WAL again from its beginning; whether it did. SQLite does so only once a
        checkpoint has copied every frame of it, which a PASSIVE one never does while commits
        keep coming: the WAL (and the index SQLite maps in memory beside it) grew by every byte
        ever written. A RESTART checkpoint holds the file's writers up while it copies and
        syncs what is left and waits for readers: a second PASSIVE one first copies what came
        in during the first (writers going on), so the restart has only the last few frames to
        copy (0.1-3 ms, where a restart alone held every room's append for 8-46 ms)."""
        connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        busy, _, _ = connection.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
        return not busy

    async def run_each(self, works: list[Callable[[Connection], Any]]
                       ) -> list[tuple[Any, Exception | None]]:
        """Run each of ``works`` in a transaction of its own, in order: each one's result, or
        the error that rolled it back. On the loop's thread; from the first that finds the
        file locked by another connection on, on the writer's thread (one crossing)."""
        outcomes, left = _transactions(works, self._on_loop_connection, hand_on_when_busy=True)
        if not left:
            return outcomes
        self.on_thread += len(left)
        loop = asyncio.get_running_loop()
        done: asyncio.Future[list[tuple[Any, Exception | None]]] = loop.create_future()
        self._batches.put(_Batch(left, loop, done))
        return outcomes + await done

    def _on_loop_connection(self) -> Connection:
        conn = self._loop_conn
        if conn is None or conn.invalidated or conn.closed:
            if conn is not None:
                conn.close()
            conn = self._loop_conn = self.engine.connect()
            _set_busy_timeout(conn, 0)  # never wait here: the thread waits
        return conn

    def _wal_is_long(self) -> bool:
        try:
            return os.stat(self.database + "-wal").st_size > WAL_RESTART_BYTES
        except OSError:
            return False

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
        outcomes, _ = _transactions(works, self._connection, hand_on_when_busy=False)
        return outcomes

    def _connection(self) -> Connection:
        """The thread's one connection, kept open: checking it out of the pool and back for
        each transaction cost a fifth of a one-append transaction (pool events, its reset)."""
        if self._conn is None or self._conn.invalidated or self._conn.closed:
            if self._conn is not None:
                self._conn.close()
            self._conn = self.engine.connect()
            _set_busy_timeout(self._conn, SQLITE_BUSY_TIMEOUT_MS)  # the pool's may have been 0
        return self._conn

    def _dispose(self) -> None:
        if self._conn is not None:
            self._conn.close()
        self.engine.dispose()

    def close(self) -> None:
        if self._loop_conn is not None:
            self._loop_conn.close()
            self._loop_conn = None
        self._stop.set()
        self._checkpointer.join()
        self._batches.put(None)  # the thread disposes of its connection, which it opened
        self._thread.join()


def _transactions(works: list[Callable[[Connection], Any]], connection: Callable[[], Connection],
                  hand_on_when_busy: bool
                  ) -> tuple[list[tuple[Any, Exception | None]], list[Callable[[Connection], Any]]]:
    """Each of ``works`` in a transaction of its own on ``connection()``: each one's result, or
    the error that rolled it back. With ``hand_on_when_busy``, stops at the first whose BEGIN
    found the file locked by another connection: that one and those after it, not run."""
    outcomes: list[tuple[Any, Exception | None]] = []
    for index, work in enumerate(works):
        conn = connection()
        if isinstance(work, DriverWork):
            try:
                outcomes.append(_driver_transaction(work, conn))
            except sqlite3.OperationalError as exc:  # BEGIN found the file locked
                if hand_on_when_busy and _is_busy(exc):
                    return outcomes, works[index:]
                outcomes.append((None, OperationalError("BEGIN IMMEDIATE", None, exc)))
            continue
        try:
            transaction = conn.begin()
        except (OperationalError, sqlite3.OperationalError) as exc:
            # Raised by the BEGIN listener, past SQLAlchemy's bookkeeping of a BEGIN: that
            # connection is put away, and ``connection()`` checks one out afresh.
            conn.close()
            if hand_on_when_busy and _is_busy(exc):
                return outcomes, works[index:]
            outcomes.append((None, OperationalError("BEGIN IMMEDIATE", None, exc)
                             if isinstance(exc, sqlite3.Error) else exc))
            continue
        try:
            with transaction:
                outcomes.append((work(conn), None))
        except Exception as exc:
            outcomes.append((None, exc))
    return outcomes, []


@dataclass(frozen=True, slots=True)
class DriverWork:
    """A transaction's work that runs only statements handed to the driver itself
    (``driver_sql.DriverStatement``): its BEGIN and COMMIT go to the driver too. SQLAlchemy's
    own begin and commit (a transaction object, events, the pool's bookkeeping) cost a third of
    a one-line append's CPU; SQLAlchemy never learns of the transaction, so nothing else may
    run through the connection while ``work`` runs, which the writer's one caller ensures."""

    work: Callable[[Connection], Any]

    def __call__(self, conn: Connection) -> Any:
        return self.work(conn)


def _driver_transaction(work: DriverWork, conn: Connection) -> tuple[Any, Exception | None]:
    """``work`` between the driver's own BEGIN IMMEDIATE and COMMIT (ROLLBACK on an error):
    its result, or its error; a BEGIN that fails raises (the caller tells a busy file)."""
    driver = conn.connection.driver_connection
    assert isinstance(driver, sqlite3.Connection)
    driver.execute("BEGIN IMMEDIATE")
    try:
        result = work(conn)
        try:
            driver.commit()
        except sqlite3.Error as exc:
            raise sqlalchemy_error("COMMIT", exc) from exc
    except Exception as exc:
        with contextlib.suppress(sqlite3.Error):  # a failed COMMIT may have rolled back already
            driver.rollback()
        return None, exc
    return result, None


def _set_busy_timeout(conn: Connection, milliseconds: int) -> None:
    driver = conn.connection.driver_connection
    assert driver is not None
    driver.execute(f"PRAGMA busy_timeout={milliseconds}")


def _is_busy(exc: OperationalError | sqlite3.OperationalError) -> bool:
    """SQLite's lock is held by another connection (SQLITE_BUSY, or SQLITE_LOCKED)."""
    code = getattr(exc.orig if isinstance(exc, OperationalError) else exc,
                   "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


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


def sqlite_on_connect(dbapi_connection: Any, _record: Any) -> None:
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


def no_autocheckpoint(dbapi_connection: Any, _record: Any) -> None:
    """The WAL is checkpointed by SqliteWriter's own thread, never inside a commit."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA wal_autocheckpoint=0")
    # When the WAL starts again, the file is cut back to this size instead of keeping its peak.
    cursor.execute(f"PRAGMA journal_size_limit={WAL_RESTART_BYTES}")
    cursor.close()


def sqlite_on_begin(connection: Connection) -> None:
    driver = connection.connection.driver_connection
    if isinstance(driver, sqlite3.Connection):  # the writer's thread: no SQLAlchemy execute
        driver.execute("BEGIN IMMEDIATE")     # (a third of a one-line transaction's cost)
    else:
        connection.exec_driver_sql("BEGIN IMMEDIATE")
