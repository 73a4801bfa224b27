"""Redis restarted mid-game (a private server, empty when it comes back): every worker's
listener reconnects and resubscribes, /readyz says so, clients resume and the match goes on."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

from tests.rooms.client import TIMEOUT, Client, connect
from tests.rooms.scripted import play_until_round_over
from tests.rooms.test_commands import deal
from tests.server_fixture import ServerProcess
from tests.services import postgres_url

from .cluster import LEASE_SECONDS, Cluster, Workers, cluster_of, running_workers
from .redis_server import RedisServer, private_redis

HANDS = [["R1", "R2", "G5", "Y3", "B4"], ["R6", "G7", "B2", "R3", "G9"]]
# O-IDLE off: Bob's socket looks gone to the owner while Redis is away, and a bot would
# take his turn (tests/rooms/test_idle.py); here the point is the move kept across the restart.
RULES = {"turn_seconds": 0, "target": 1, "deck": "classic", "idle_timeouts": 0}
# Between owners a socket is told to try later (1013) or to reconnect (1012); while Redis is
# away a connect may also fail outright (1011).
RETRY_CODES = (1011, 1012, 1013)


@pytest.fixture(scope="module")
def redis_server() -> Iterator[RedisServer]:
    postgres_url()  # skips (or fails) before starting anything when Postgres is away
    with private_redis() as server:
        yield server


@pytest.fixture(scope="module")
def workers(redis_server: RedisServer) -> Iterator[Workers]:
    name = f"uno_test_cluster_{uuid.uuid4().hex[:8]}"
    with running_workers(name, workers=2, redis=redis_server.url) as running:
        yield running


@pytest.fixture
async def cluster(workers: Workers) -> AsyncIterator[Cluster]:
    async with cluster_of(workers) as running:  # each step of it has its own time limit
        yield running


async def ready(server: ServerProcess) -> bool:
    async with httpx.AsyncClient(timeout=TIMEOUT) as http:
        return (await http.get(f"{server.http_url}/readyz")).status_code == 200


async def resume(server: ServerProcess, code: str, token: str, seat: int, since: int) -> Client:
    async with asyncio.timeout(30):
        while True:
            client = await connect(server, code, token, seat, since)
            try:
                await client.wait_for(lambda f: True, 2 * TIMEOUT)
                return client
            except AssertionError:
                assert client.closed is not None and client.closed[0] in RETRY_CODES, (
                    client.closed)
                await asyncio.sleep(0.2)


async def test_after_a_redis_restart_mid_game_the_workers_reconnect_and_play_resumes(
    cluster: Cluster, redis_server: RedisServer,
) -> None:
    first, second = cluster.workers
    async with httpx.AsyncClient(timeout=TIMEOUT) as http:
        made = await http.post(f"{first.http_url}/api/rooms", json={
            "name": "Ann", "seed": 41, "rules": RULES, "deal": deal(HANDS, dealer=1)})
        code, tokens = made.json()["code"], [made.json()["token"]]
        joined = await http.post(f"{second.http_url}/api/rooms/{code}/join", json={"name": "Bob"})
        tokens.append(joined.json()["token"])
    ann = await connect(first, code, tokens[0], 0)
    bob = await connect(second, code, tokens[1], 1)
    for client in (ann, bob):
        await client.wait_for(lambda f: f["type"] == "state")
    await ann.ok("start")
    await ann.ok("play", card="R1")
    await bob.event("played", seat=0)
    seen = {c.seat: c.last_seq for c in (ann, bob)}

    redis_server.stop()
    async with asyncio.timeout(10):
        while await ready(first) or await ready(second):
            await asyncio.sleep(0.1)
    redis_server.start()
    async with asyncio.timeout(20):
        while not (await ready(first) and await ready(second)):
            await asyncio.sleep(0.1)
    async with httpx.AsyncClient(timeout=TIMEOUT) as http:
        metrics = (await http.get(f"{first.http_url}/metrics")).text
    assert "uno_bus_connected 1" in metrics and "uno_bus_reconnects_total 0" not in metrics
    await asyncio.sleep(2 * LEASE_SECONDS)  # the old owner notices its lease is gone

    for client in (ann, bob):
        await client.close()
    ann = await resume(first, code, tokens[0], 0, seen[0])
    bob = await resume(second, code, tokens[1], 1, seen[1])
    state = await bob.state()
    assert state["top"] == "R1" and state["turn"] == 1  # Ann's acknowledged move is kept
    await bob.ok("play", card="R6")
    await play_until_round_over([ann, bob])
    assert (await ann.event("match_over"))["kind"] == "match_over"
    for client in (ann, bob):
        await client.close()
