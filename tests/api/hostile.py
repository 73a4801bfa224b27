"""Servers and clients for the tests of hostile input and hostile clients.

Each server runs with the default limits per client, on SQLite or on Postgres, and trusts
X-Forwarded-For from 127.0.0.1 (``UNO_TRUSTED_PROXIES``), so every test plays as clients of
its own addresses (``Stranger``) and no test's limits touch another's.

    stranger = Stranger(server)                    # a fresh client address
    room = await stranger.create("Ann")            # {"code", "seat", "token"}
    socket = await stranger.connect(room["code"], token=room["token"])
"""

from __future__ import annotations

import asyncio
import itertools
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
import websockets

from tests.rooms.client import TIMEOUT, Client
from tests.server_fixture import ServerProcess, test_env
from tests.services import drop_postgres_database, fresh_postgres_database, postgres_url
from tests.store.conftest import run_in_thread

_addresses = itertools.count(1)
DEFAULTS = {  # the shipped limits (test_env raises them for the other tests)
    "UNO_ROOMS_PER_MINUTE": "10",
    "UNO_TOKENS_PER_MINUTE": "60",
    "UNO_EMPTY_ROOMS_PER_CLIENT": "5",
    "UNO_SOCKETS_PER_CLIENT": "32",
    "UNO_SOCKETS_PER_PERSON": "8",
    "UNO_SOCKETS_PER_ADDRESS": "512",
    "UNO_CLIENT_RATE": "600",
    "UNO_ADDRESS_RATE": "6000",
    "UNO_UNKNOWN_CODE_RATE": "30",
    "UNO_TRUSTED_PROXIES": "127.0.0.1",
}


def new_address() -> str:
    n = next(_addresses) + 256 * os.getpid() % 60000
    return f"10.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}"


@contextmanager
def hostile_server(store: str, log_level: str = "warning", **env: str
                   ) -> Iterator[ServerProcess]:
    """A server with the default limits on ``store`` ("sqlite" or "postgres")."""
    database = None
    settings = {**test_env(), **DEFAULTS, **env}
    if store == "postgres":
        postgres_url()  # skips (or fails) when Postgres is away
        database = f"uno_hostile_{os.getpid()}_{next(_addresses)}"
        settings["UNO_DATABASE_URL"] = run_in_thread(fresh_postgres_database(database))
    server = ServerProcess(settings, log_level=log_level)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        if database is not None:
            run_in_thread(drop_postgres_database(database))


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest) -> Iterator[ServerProcess]:
    with hostile_server(request.param) as running:
        yield running


class Stranger:
    """One client address talking to ``server`` over HTTP and WebSockets."""

    def __init__(self, server: ServerProcess, address: str | None = None) -> None:
        self.server = server
        self.address = address or new_address()
        self.headers = {"X-Forwarded-For": self.address}

    def http(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=self.server.http_url, timeout=TIMEOUT,
                                 headers=self.headers)

    async def post(self, path: str, body: Any = None, content: bytes | None = None
                   ) -> httpx.Response:
        async with self.http() as http:
            if content is not None:
                return await http.post(path, content=content,
                                       headers={"Content-Type": "application/json"})
            return await http.post(path, json=body)

    async def get(self, path: str) -> httpx.Response:
        async with self.http() as http:
            return await http.get(path)

    async def create(self, name: str = "Ann", **fields: Any) -> dict[str, Any]:
        made = await self.post("/api/rooms", {"name": name, **fields})
        assert made.status_code == 201, made.text
        room: dict[str, Any] = made.json()
        return room

    async def join(self, code: str, name: str = "Bob") -> dict[str, Any]:
        joined = await self.post(f"/api/rooms/{code}/join", {"name": name})
        assert joined.status_code == 200, joined.text
        seat: dict[str, Any] = joined.json()
        return seat

    async def connect(self, code: str, token: str | None = None, query: str | None = None
                      ) -> Client:
        url = self.server.ws_url(code, token=token)
        if query is not None:
            url = f"ws://127.0.0.1:{self.server.port}/ws/rooms/{code}?{query}"
        ws = await websockets.connect(url, open_timeout=TIMEOUT, max_size=2**22,
                                      additional_headers=self.headers)
        return Client(ws, None, token)


async def started_table(stranger: Stranger, **create: Any) -> tuple[str, Client, Client]:
    """A two-player room in a match: (code, Ann's socket, Bob's socket), each past its state."""
    room = await stranger.create("Ann", seed=3, rules={"turn_seconds": 0}, **create)
    bob = await stranger.join(room["code"])
    ann_socket = await stranger.connect(room["code"], room["token"])
    bob_socket = await stranger.connect(room["code"], bob["token"])
    for socket in (ann_socket, bob_socket):
        await socket.wait_for(lambda f: f["type"] == "state")
    await ann_socket.ok("start")
    await bob_socket.event("match_started")
    return room["code"], ann_socket, bob_socket


async def quiet(client: Client, seconds: float = 0.3) -> list[dict[str, Any]]:
    """The frames that arrive within ``seconds`` (nothing is expected)."""
    start = len(client.frames)
    await asyncio.sleep(seconds)
    return client.frames[start:]
