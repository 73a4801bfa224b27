"""Rooms nobody asks for still move: a room with only bots at its table carries on on another
worker after its owner is killed, with no client connected anywhere (the takeover sweep); and
the public room list is the cluster's, whichever worker is asked, spectators on every worker
counted."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from sqlalchemy import text

from app.store.db import create_engine, dispose_engine
from tests.rooms.client import TIMEOUT, connect
from tests.server_fixture import ServerProcess

from .cluster import Cluster, Workers, cluster_of, running_workers

SWEEP_SECONDS = 0.5


@pytest.fixture(scope="module")
def workers() -> Iterator[Workers]:
    with running_workers(
        f"uno_test_sweep_{uuid.uuid4().hex[:8]}",
        workers=2,
        UNO_SWEEP_SECONDS=str(SWEEP_SECONDS),
        UNO_BOT_DELAY_MS="[150,300]",  # a round of bots lasts well beyond the failover
    ) as running:
        yield running


@pytest.fixture
async def cluster(workers: Workers) -> AsyncIterator[Cluster]:
    async with cluster_of(workers) as running:
        yield running


async def stored_room(cluster: Cluster, code: str) -> tuple[int, int]:
    """(the last stored seq, the fencing generation) of the open room ``code``."""
    engine = create_engine(cluster.database_url)
    try:
        async with engine.connect() as conn:
            row = (await conn.execute(text(
                "SELECT coalesce(max(l.seq), 0), r.generation FROM rooms r"
                " LEFT JOIN room_log l ON l.room_id = r.id"
                " WHERE r.code = :code AND r.closed_at IS NULL GROUP BY r.generation"),
                {"code": code})).one()
            return int(row[0]), int(row[1])
    finally:
        await dispose_engine(engine)


async def test_a_room_of_bots_goes_on_elsewhere_after_its_owner_dies_with_nobody_connected(
    cluster: Cluster,
) -> None:
    owner = cluster.workers[0]
    async with httpx.AsyncClient(timeout=TIMEOUT) as http:
        made = await http.post(f"{owner.http_url}/api/rooms", json={
            "name": "Ann", "seed": 5, "rules": {"turn_seconds": 0, "target": 500}})
        assert made.status_code == 201, made.text
    code, token = made.json()["code"], made.json()["token"]
    ann = await connect(owner, code, token, 0)
    await ann.wait_for(lambda f: f["type"] == "state")
    await ann.ok("add_bot")
    await ann.ok("add_bot")
    await ann.ok("start")
    await ann.send({"type": "leave"})  # a bot takes Ann's seat: only bots are left
    await ann.wait_closed()
    holder = await cluster.lease_holder(code)
    assert holder is not None and holder[0] == "w0"
    await asyncio.sleep(0.5)

    owner.stop(kill=True)  # kill -9: nobody hands the room over, and no client asks for it
    killed_at, generation = await stored_room(cluster, code)
    started = time.monotonic()
    async with asyncio.timeout(20):
        while True:
            holder = await cluster.lease_holder(code)
            if holder is not None and holder[0] == "w1":
                break
            await asyncio.sleep(0.1)
    taken_after = time.monotonic() - started
    await asyncio.sleep(2.0)  # the bots play on at the new owner
    seq, new_generation = await stored_room(cluster, code)
    assert seq > killed_at + 3, (killed_at, seq)
    assert new_generation == holder[1] > generation  # the new owner fenced the room
    assert taken_after < 10, taken_after


async def test_a_public_room_made_on_one_worker_is_listed_by_every_worker(
    cluster: Cluster,
) -> None:
    one, two = cluster.workers
    async with httpx.AsyncClient(timeout=TIMEOUT) as http:
        made = await http.post(f"{one.http_url}/api/rooms", json={"name": "Ann"})
        hidden = await http.post(f"{one.http_url}/api/rooms",
                                 json={"name": "Bob", "public": False})
        assert made.status_code == hidden.status_code == 201
        code = made.json()["code"]
        for server in (two, one):
            listed = await http.get(f"{server.http_url}/api/rooms")
            assert listed.status_code == 200
            rooms = {room["code"]: room for room in listed.json()}
            assert code in rooms, (server.http_url, listed.json())
            assert hidden.json()["code"] not in rooms
            assert rooms[code]["host"] == "Ann" and rooms[code]["open"] is True

        # A change on the owner reaches the other worker's list within a sweep tick or so.
        joined = await http.post(f"{two.http_url}/api/rooms/{code}/join", json={"name": "Cid"})
        assert joined.status_code == 200, joined.text
        async with asyncio.timeout(5 * SWEEP_SECONDS + 5):
            while True:
                listed = await http.get(f"{two.http_url}/api/rooms")
                rooms = {room["code"]: room for room in listed.json()}
                if rooms[code]["players"] == 2:
                    break
                await asyncio.sleep(0.1)


async def listed_spectators(http: httpx.AsyncClient, server: ServerProcess, code: str) -> int:
    listed = await http.get(f"{server.http_url}/api/rooms")
    assert listed.status_code == 200, listed.text
    rooms = {room["code"]: room for room in listed.json()}
    return int(rooms[code]["spectators"])


async def test_the_room_list_counts_spectators_on_every_worker(cluster: Cluster) -> None:
    owner, other = cluster.workers
    async with httpx.AsyncClient(timeout=TIMEOUT) as http:
        made = await http.post(f"{owner.http_url}/api/rooms", json={"name": "Ann"})
        assert made.status_code == 201, made.text
        code = made.json()["code"]

        async def counted(expected: int) -> None:
            """Both workers list ``expected`` spectators within a few sweep ticks."""
            seen: list[int] = []
            deadline = time.monotonic() + 6 * SWEEP_SECONDS + 3
            while time.monotonic() < deadline:
                seen = [await listed_spectators(http, server, code) for server in (owner, other)]
                if seen == [expected, expected]:
                    return
                await asyncio.sleep(0.1)
            raise AssertionError(f"spectators listed by (owner, other): {seen}, not {expected}")

        elsewhere = await connect(other, code)  # a spectator on the worker that forwards
        await elsewhere.wait_for(lambda f: f["type"] == "state")
        assert (await cluster.lease_holder(code) or ("",))[0] == "w0"
        await counted(1)
        here = await connect(owner, code)
        await here.wait_for(lambda f: f["type"] == "state")
        await counted(2)
        detail = await http.get(f"{other.http_url}/api/rooms/{code}")
        assert detail.status_code == 200 and detail.json()["spectators"] == 2, detail.text
        await elsewhere.close()
        await counted(1)
        await here.close()
        await counted(0)
