"""Migrations: up, down and up again on an empty database; workers starting at once."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection, Inspector, inspect, text

from app.store.db import create_engine, dispose_engine, downgrade, migrate
from app.store.models import Base
from tests.services import drop_postgres_database, fresh_postgres_database

ROOT = Path(__file__).resolve().parents[2]
HEAD = "0005"


@pytest.fixture(params=["sqlite", "postgres"])
async def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}"
        return
    name = f"uno_migrate_test_{os.getpid()}"
    yield await fresh_postgres_database(name)
    await drop_postgres_database(name)


async def tables_and_version(url: str) -> tuple[set[str], list[str]]:
    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            tables = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
            version: list[str] = []
            if "alembic_version" in tables:
                rows = await conn.execute(text("SELECT version_num FROM alembic_version"))
                version = list(rows.scalars())
            return tables - {"alembic_version"}, version
    finally:
        await dispose_engine(engine)


async def test_upgrade_downgrade_upgrade_on_an_empty_database(empty_url: str) -> None:
    all_tables = set(Base.metadata.tables)
    await migrate(empty_url)
    assert await tables_and_version(empty_url) == (all_tables, [HEAD])
    await downgrade(empty_url, "base")
    assert await tables_and_version(empty_url) == (set(), [])
    await migrate(empty_url)
    assert await tables_and_version(empty_url) == (all_tables, [HEAD])


async def inspected(url: str, read: Callable[[Inspector], set[str]]) -> set[str]:
    """What ``read`` finds in the database's schema."""
    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(lambda c: read(inspect(c)))
    finally:
        await dispose_engine(engine)


async def room_columns(url: str) -> set[str]:
    return await inspected(url, lambda i: {col["name"] for col in i.get_columns("rooms")})


async def log_indexes(url: str) -> set[str]:
    return await inspected(url, lambda i: {str(ix["name"]) for ix in i.get_indexes("room_log")})


async def test_0002_adds_the_fencing_generation_and_goes_back_keeping_every_room(
    empty_url: str,
) -> None:
    """0001 -> 0002 on a database with rooms in play, down again and up again: the rooms,
    their logs and snapshots stay (SQLite must not copy ``rooms``: that would drop the log)."""
    await migrate(empty_url, "0001")
    engine = create_engine(empty_url)
    try:
        async with engine.begin() as conn:
            await conn.execute(text(
                "INSERT INTO rooms (id, code, meta, created_at)"
                " VALUES (1, 'ABCD', '{}', CURRENT_TIMESTAMP)"))
            await conn.execute(text(
                "INSERT INTO room_log (room_id, seq, seat, command, now_ms, events)"
                " VALUES (1, 1, 0, '{}', 5, '[]')"))
            await conn.execute(text(
                "INSERT INTO room_snapshots (room_id, seq, data) VALUES (1, 1, '{}')"))
        assert {"generation", "parked"} & await room_columns(empty_url) == set()

        await migrate(empty_url)
        assert {"generation", "parked"} <= await room_columns(empty_url)
        async with engine.connect() as conn:
            row = (await conn.execute(text("SELECT generation, parked FROM rooms"))).one()
            assert (row[0], bool(row[1])) == (0, False)  # existing rooms: unfenced, running

        await downgrade(empty_url, "0001")
        assert {"generation", "parked"} & await room_columns(empty_url) == set()
        await migrate(empty_url)
        async with engine.connect() as conn:
            for table in ("rooms", "room_log", "room_snapshots"):
                count = (await conn.execute(text(f"SELECT count(*) FROM {table}"))).scalar()
                assert count == 1, table
    finally:
        await dispose_engine(engine)


async def test_0003_adds_tournaments_and_goes_back_keeping_the_leagues(empty_url: str) -> None:
    await migrate(empty_url, "0002")
    engine = create_engine(empty_url)
    try:
        async with engine.begin() as conn:
            await conn.execute(text(
                "INSERT INTO leagues (id, name, scoring, target, created_at)"
                " VALUES (1, 'Office', 'winner_takes', 500, CURRENT_TIMESTAMP)"))
        assert "tournaments" not in (await tables_and_version(empty_url))[0]
        await migrate(empty_url, "0003")
        async with engine.begin() as conn:
            await conn.execute(text(
                "INSERT INTO tournaments (code, name, league_id, host_token_hash, rules, record,"
                " created_at) VALUES ('QWERT', 'Party', 1, 'h', '{}', '{}', CURRENT_TIMESTAMP)"))
            row = (await conn.execute(text("SELECT generation, public FROM tournaments"))).one()
            assert (row[0], bool(row[1])) == (0, False)
        await downgrade(empty_url, "0002")
        tables, version = await tables_and_version(empty_url)
        assert "tournaments" not in tables and version == ["0002"]
        async with engine.connect() as conn:
            assert (await conn.execute(text("SELECT count(*) FROM leagues"))).scalar() == 1
    finally:
        await dispose_engine(engine)


async def test_0004_adds_revisions_and_presence_keeping_every_tournament(empty_url: str
                                                                          ) -> None:
    await migrate(empty_url, "0003")
    engine = create_engine(empty_url)
    try:
        async with engine.begin() as conn:
            await conn.execute(text(
                "INSERT INTO tournaments (code, name, host_token_hash, rules, record,"
                " created_at) VALUES ('QWERT', 'Party', 'h', '{}', '{}', CURRENT_TIMESTAMP)"))
        await migrate(empty_url)
        async with engine.connect() as conn:
            row = (await conn.execute(text("SELECT code, revision FROM tournaments"))).one()
            assert tuple(row) == ("QWERT", 0)
        await downgrade(empty_url, "0003")
        tables, version = await tables_and_version(empty_url)
        assert "tournament_presence" not in tables and version == ["0003"]
        async with engine.connect() as conn:
            assert (await conn.execute(text("SELECT count(*) FROM tournaments"))).scalar() == 1
    finally:
        await dispose_engine(engine)


async def test_0005_drops_the_log_index_on_matches_keeping_every_line(empty_url: str) -> None:
    await migrate(empty_url, "0004")
    assert "ix_room_log_match_id" in await log_indexes(empty_url)
    engine = create_engine(empty_url)
    try:
        async with engine.begin() as conn:
            await conn.execute(text(
                "INSERT INTO rooms (id, code, meta, created_at, generation)"
                " VALUES (7, 'ABCDE', '{}', CURRENT_TIMESTAMP, 0)"))
            await conn.execute(text(
                "INSERT INTO matches (id, room_id, seed, rules, seats, first_seq, status,"
                " started_at) VALUES (3, 7, 1, '{}', 4, 2, 'running', CURRENT_TIMESTAMP)"))
            for seq in (1, 2, 3):
                await conn.execute(text(
                    "INSERT INTO room_log (room_id, seq, seat, command, now_ms, events, match_id)"
                    f" VALUES (7, {seq}, 0, '{{}}', 0, '[]', {'NULL' if seq == 1 else 3})"))
        await migrate(empty_url)
        assert "ix_room_log_match_id" not in await log_indexes(empty_url)
        async with engine.connect() as conn:
            rows = await conn.execute(text("SELECT seq, match_id FROM room_log ORDER BY seq"))
            assert [tuple(row) for row in rows] == [(1, None), (2, 3), (3, 3)]
        await downgrade(empty_url, "0004")
        assert "ix_room_log_match_id" in await log_indexes(empty_url)
    finally:
        await dispose_engine(engine)


async def test_migrations_create_exactly_the_models(empty_url: str) -> None:
    await migrate(empty_url)

    def diff(conn: Connection) -> list[object]:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        return list(compare_metadata(context, Base.metadata))

    engine = create_engine(empty_url)
    try:
        async with engine.connect() as conn:
            assert await conn.run_sync(diff) == []
    finally:
        await dispose_engine(engine)


async def test_workers_starting_at_once_migrate_once(empty_url: str) -> None:
    # Worker processes run the lifespan's migrate() at the same moment (they start together,
    # so they race for real: without the lock this fails on Postgres).
    script = (
        "import asyncio, sys\nfrom app.store.db import migrate\nasyncio.run(migrate(sys.argv[1]))"
    )
    workers = [
        await asyncio.create_subprocess_exec(
            sys.executable, "-c", script, empty_url, cwd=ROOT, stderr=asyncio.subprocess.PIPE
        )
        for _ in range(3)
    ]
    errors = [(await worker.communicate())[1].decode() for worker in workers]
    assert [worker.returncode for worker in workers] == [0, 0, 0], errors
    assert await tables_and_version(empty_url) == (set(Base.metadata.tables), [HEAD])


async def test_the_alembic_command_line_round_trips(empty_url: str) -> None:
    # `alembic upgrade head`, `downgrade base`, `upgrade head`, through alembic's own entry
    # point (env.py's command-line path), in one process to keep the test quick.
    script = (
        "from alembic.config import main\n"
        "for args in (['upgrade', 'head'], ['downgrade', 'base'], ['upgrade', 'head']):\n"
        "    main(['-c', 'alembic.ini', *args])"
    )
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        script,
        cwd=ROOT,
        env={**os.environ, "UNO_DATABASE_URL": empty_url},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await proc.communicate()
    assert proc.returncode == 0, err.decode()
    assert "Running downgrade 0003 -> 0002" in err.decode()
    assert "Running downgrade 0002 -> 0001" in err.decode()
    assert "Running downgrade 0001" in err.decode()
    assert await tables_and_version(empty_url) == (set(Base.metadata.tables), [HEAD])
