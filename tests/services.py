"""Postgres and Redis for tests: where they are, and what to do when they are not there.

    url = postgres_url()          # skips the test (or fails it, see below) when unreachable
    url = await fresh_postgres_database("uno_test_x")   # a new empty database on that server
    url = redis_url()

Where: ``UNO_TEST_POSTGRES_URL`` (default ``postgresql+asyncpg://postgres@127.0.0.1:5432/test``)
and ``UNO_TEST_REDIS_URL`` (default ``redis://127.0.0.1:6379/15``). A test that needs a service
that is unreachable is skipped with the reason, unless ``UNO_REQUIRE_SERVICES=1`` (CI), which
makes it fail instead.
"""

from __future__ import annotations

import os
import socket

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

DEFAULT_POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS = "redis://127.0.0.1:6379/15"
_reachable: dict[tuple[str, int], bool] = {}


def services_required() -> bool:
    return os.environ.get("UNO_REQUIRE_SERVICES", "") not in ("", "0")


def unavailable(reason: str) -> None:
    if services_required():
        pytest.fail(f"{reason} (UNO_REQUIRE_SERVICES=1 demands it)", pytrace=False)
    pytest.skip(f"{reason}; set UNO_REQUIRE_SERVICES=1 to fail instead")


def _can_connect(host: str, port: int) -> bool:
    key = (host, port)
    if key not in _reachable:
        try:
            with socket.create_connection(key, timeout=1.0):
                _reachable[key] = True
        except OSError:
            _reachable[key] = False
    return _reachable[key]


def postgres_url() -> str:
    """The test Postgres URL (asyncpg driver); skips or fails when the server is unreachable."""
    url = os.environ.get("UNO_TEST_POSTGRES_URL", DEFAULT_POSTGRES)
    parsed = make_url(url)
    host, port = parsed.host or "127.0.0.1", parsed.port or 5432
    if not _can_connect(host, port):
        unavailable(f"Postgres is not reachable at {host}:{port} (UNO_TEST_POSTGRES_URL)")
    return parsed.set(drivername="postgresql+asyncpg").render_as_string(hide_password=False)


def redis_url() -> str:
    """The test Redis URL; skips or fails when the server is unreachable."""
    url = os.environ.get("UNO_TEST_REDIS_URL", DEFAULT_REDIS)
    parsed = make_url(url)
    host, port = parsed.host or "127.0.0.1", parsed.port or 6379
    if not _can_connect(host, port):
        unavailable(f"Redis is not reachable at {host}:{port} (UNO_TEST_REDIS_URL)")
    return url


async def _admin(*statements: str) -> None:
    """Run statements on the server's maintenance database, outside a transaction."""
    base = make_url(postgres_url())
    engine = create_async_engine(base, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            for statement in statements:
                await conn.execute(text(statement))
    finally:
        await engine.dispose()


async def fresh_postgres_database(name: str) -> str:
    """Drop and create database ``name`` on the test server; its asyncpg URL."""
    await _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', f'CREATE DATABASE "{name}"')
    return make_url(postgres_url()).set(database=name).render_as_string(hide_password=False)


async def drop_postgres_database(name: str) -> None:
    await _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
