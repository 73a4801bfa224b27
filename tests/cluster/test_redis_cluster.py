"""Three workers on a Redis Cluster of three masters and three replicas (started here, with
Debian's redis-server), thirty rooms across it with rooms on every shard, every room's seats
spread over the three workers: a slot holding a live room is migrated during play, then a master
is killed and its replica promoted. In each case no acknowledged move is lost (every chat line
the server acknowledged is in the rooms' logs in Postgres, as bench.storm checks) and every
client is back in its seat; the test prints the time to recover and the move p99 during it."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Iterator

import pytest

from app.cluster.topology import slot_of
from tests.services import postgres_url

from .cluster import Cluster, Workers, cluster_of, running_workers
from .players import make_rooms, play_through
from .redis_cluster import RedisClusterServers, private_cluster


@pytest.fixture(scope="module")
def servers() -> Iterator[RedisClusterServers]:
    postgres_url()  # skips (or fails) before starting anything when Postgres is away
    with private_cluster() as running:
        yield running


@pytest.fixture(scope="module")
def workers(servers: RedisClusterServers) -> Iterator[Workers]:
    name = f"uno_test_rcluster_{uuid.uuid4().hex[:8]}"
    with running_workers(name, workers=3, redis_cluster=servers.seeds,
                         UNO_LEASE_SECONDS="5") as running:  # the default lease
        yield running


@pytest.fixture
async def cluster(workers: Workers) -> AsyncIterator[Cluster]:
    async with cluster_of(workers) as running:
        yield running


def room_slot(cluster: Cluster, code: str) -> int:
    return slot_of(f"{cluster.workers[0].env['UNO_REDIS_PREFIX']}bus:room:{{{code}}}".encode())



async def test_a_slot_moved_under_a_live_room_loses_no_acknowledged_move_and_every_client_is_back(
    cluster: Cluster, servers: RedisClusterServers,
) -> None:
    players = await make_rooms(cluster)
    codes = sorted({p.code for p in players})
    masters = {servers.owner_of_slot(room_slot(cluster, code)).node_id for code in codes}
    assert len(masters) == 3  # rooms on every shard
    code = codes[0]
    slot = room_slot(cluster, code)
    source = servers.owner_of_slot(slot)
    target = next(node for node in servers.masters() if node is not source)
    assert await cluster.lease_holder(code) is not None  # live: its lease is in that slot

    def migrate() -> str:
        keys = servers.migrate_slot(slot, target, pause=0.05)
        return f"slot {slot} of room {code}, {keys} keys, {source.name} -> {target.name}"

    await play_through(cluster, players, "slot migration", migrate)
    assert servers.owner_of_slot(slot) is target


async def test_a_master_killed_mid_play_is_replaced_by_its_replica_and_no_acknowledged_move_is_lost(
    cluster: Cluster, servers: RedisClusterServers,
) -> None:
    players = await make_rooms(cluster)
    codes = sorted({p.code for p in players})
    by_master: dict[str, list[str]] = {}
    for code in codes:
        by_master.setdefault(servers.owner_of_slot(room_slot(cluster, code)).node_id,
                             []).append(code)
    assert len(by_master) == 3  # rooms on every shard
    busiest = max(by_master, key=lambda node: len(by_master[node]))
    master = servers.node_by_id(busiest)

    def fail_over() -> str:
        killed = time.monotonic()
        replica = servers.kill_master(master)
        return (f"{master.name} with {len(by_master[busiest])} rooms killed, replica "
                f"{replica.name} promoted after {time.monotonic() - killed:.2f} s")

    try:
        await play_through(cluster, players, "master failover", fail_over)
    finally:
        await asyncio.to_thread(servers.restart, master)
