"""Every store test runs on SQLite and on Postgres (``db_url`` is parametrized over both).

SQLite: a fresh migrated file per test. Postgres: one database per test session, migrated once,
emptied before each test (TRUNCATE is much faster than a new database).
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncIterator, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.store.db import create_engine, dispose_engine, migrate, sqlite_writer
from app.store.history import HistoryStore
from app.store.models import Base
from app.store.sql import SqlRoomStore
from app.store.sqlite_file import SqliteWriter
from tests.services import drop_postgres_database, fresh_postgres_database, postgres_url
from tests.store.scripted import Recorder

BACKENDS = ["sqlite", "postgres"]
T = TypeVar("T")


def run_in_thread(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine on its own loop: session fixtures are set up from inside a test's loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


@pytest.fixture(scope="session")
def migrated_postgres() -> Iterator[str]:
    postgres_url()  # skips (or fails) here, in the test's thread, when Postgres is away
    name = f"uno_store_test_{os.getpid()}"

    async def setup() -> str:
        url = await fresh_postgres_database(name)
        await migrate(url)
        return url

    url = run_in_thread(setup())
    yield url
    run_in_thread(drop_postgres_database(name))


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite file that each test copies (quicker than migrating each time)."""
    path = tmp_path_factory.mktemp("template") / "uno.db"
    run_in_thread(migrate(f"sqlite+aiosqlite:///{path}"))
    return path


@pytest.fixture(params=BACKENDS)
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return await fresh_url(request, str(request.param), tmp_path)


async def fresh_url(request: pytest.FixtureRequest, backend: str, tmp_path: Path) -> str:
    """A migrated, empty database of ``backend`` ("sqlite" or "postgres") for this test."""
    if backend == "sqlite":
        template: Path = request.getfixturevalue("migrated_sqlite")
        shutil.copyfile(template, tmp_path / "uno.db")
        return f"sqlite+aiosqlite:///{tmp_path / 'uno.db'}"
    url = str(request.getfixturevalue("migrated_postgres"))
    engine = create_engine(url)
    tables = ", ".join(table.name for table in Base.metadata.sorted_tables)
    async with engine.begin() as conn:
        await conn.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
    await dispose_engine(engine)
    return url


@pytest.fixture
async def engine(db_url: str) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(db_url)
    yield engine
    await dispose_engine(engine)


@pytest.fixture
async def sqlite_file(
    migrated_sqlite: Path, tmp_path: Path
) -> AsyncIterator[tuple[AsyncEngine, SqliteWriter]]:
    """The engine of a migrated SQLite file, and its writer's thread (tests of that thread)."""
    shutil.copyfile(migrated_sqlite, tmp_path / "file.db")
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'file.db'}")
    writer = sqlite_writer(engine)
    assert writer is not None
    yield engine, writer
    await dispose_engine(engine)


@pytest.fixture
def rooms(engine: AsyncEngine) -> SqlRoomStore:
    return SqlRoomStore(engine)


@pytest.fixture
def history(engine: AsyncEngine, rooms: SqlRoomStore) -> HistoryStore:
    return HistoryStore(engine, rooms.in_writer)  # as the app wires them (app/main.py)


@pytest.fixture
def recorder(rooms: SqlRoomStore, history: HistoryStore) -> Recorder:
    return Recorder(rooms, history)
