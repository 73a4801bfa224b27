"""Tournaments on three workers sharing Postgres and Redis: people join and connect through any
worker, the tournament's owner (one worker, by lease) seats its tables and reads their results;
``kill -9`` of the owner between rounds and during a round loses nothing: the next worker takes
the tournament over, its tables play on, and the standings are what the tables' matches say."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from tests.server_fixture import ServerProcess
from tests.tournaments.test_over_the_wire import (
    as_rows,
    check_knockout_of_9,
    check_swiss_of_13,
    standings_from_the_tables,
)
from tests.tournaments.wire import FAST, Tournament, socket, with_people

from .cluster import Cluster, Workers, cluster_of, running_workers


@pytest.fixture(scope="module")
def workers() -> Iterator[Workers]:
    database = f"uno_test_tournaments_{uuid.uuid4().hex[:8]}"
    with running_workers(database, 3, None, None, **FAST) as running:
        yield running


@pytest.fixture
async def cluster(workers: Workers) -> AsyncIterator[Cluster]:
    async with cluster_of(workers) as running:
        yield running


async def test_a_swiss_of_13_across_three_workers_ends_with_its_tables_standings(
    cluster: Cluster,
) -> None:
    await check_swiss_of_13(cluster.workers)


async def test_a_knockout_of_9_across_three_workers_reaches_its_final(cluster: Cluster) -> None:
    await check_knockout_of_9(cluster.workers)


async def owner_of(cluster: Cluster, code: str) -> int:
    async with asyncio.timeout(10):
        while (holder := await cluster.lease_holder(code)) is None:
            await asyncio.sleep(0.05)
    return int(holder[0].removeprefix("w"))


async def kill_owner(cluster: Cluster, tournament: Tournament) -> ServerProcess:
    """``kill -9`` the tournament's owner, as a crash would; the host and the participants
    whose sockets went through it reconnect through another worker, as their browsers
    would. The killed worker."""
    dead = cluster.workers[await owner_of(cluster, tournament.code)]
    dead.stop(kill=True)
    alive = [w for w in cluster.workers if w is not dead]
    tournament.servers = alive
    tournament.host = await socket(alive[0], tournament.code, tournament.host_token)
    await asyncio.sleep(0.5)  # the sockets through the dead worker have seen it go
    for entrant in tournament.entrants:
        if entrant.socket is None or entrant.socket.closed is not None:
            entrant.socket = await socket(alive[0], tournament.code, entrant.token)
    dead_name = f"w{cluster.workers.index(dead)}"
    async with asyncio.timeout(15):  # another worker holds it within a lease
        while (holder := await cluster.lease_holder(tournament.code)) is None or (
                holder[0] == dead_name):
            await asyncio.sleep(0.1)
    return dead


async def finish(tournament: Tournament, rounds: list[list[dict[str, Any]]]) -> None:
    while True:
        state = await tournament.phase("between", "over")
        rounds.append(state["tables"])
        if state["phase"] == "over":
            return
        await tournament.send("next_round")
        await tournament.seated()


async def test_killing_the_owner_between_rounds_and_during_one_loses_nothing(
    cluster: Cluster,
) -> None:
    tournament = await with_people(cluster.workers, 10, rounds=3, table_size=4)
    await tournament.send("start")
    rounds = [(await tournament.phase("between"))["tables"]]
    dead = await kill_owner(cluster, tournament)  # between rounds 1 and 2
    await asyncio.to_thread(dead.start)  # back, as a restarted process would be
    await tournament.phase("between")
    await tournament.send("next_round")
    playing = await tournament.seated()
    await kill_owner(cluster, tournament)  # during round 2, its tables playing
    rounds_seen = await tournament.view()
    assert rounds_seen["round"] == 2 and playing["round"] == 2
    await finish(tournament, rounds)
    assert len(rounds) == 3
    everyone = sorted(e.participant for e in tournament.entrants)
    for tables in rounds:
        assert sorted(w for t in tables for w in t["participants"]) == everyone
    view = await tournament.view()
    assert view["phase"] == "over"
    assert as_rows(view) == await standings_from_the_tables(tournament, rounds)
