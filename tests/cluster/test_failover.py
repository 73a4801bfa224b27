"""Many workers on one Postgres and one Redis: exactly one worker runs a room (the holder of its
lease); when it is killed another worker rebuilds the room from the database and the match goes
on with every acknowledged move; a worker frozen past its lease never acts as a second owner."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from tests.rooms.client import Client, connect, make_table
from tests.rooms.scripted import play_until_round_over
from tests.rooms.test_commands import deal
from tests.server_fixture import ServerProcess

from .cluster import LEASE_SECONDS, Cluster, running_cluster

HANDS = [
    ["R1", "R2", "G5", "Y3", "B4"],
    ["R6", "G7", "B2", "R3", "G9"],
]
RULES = {"turn_seconds": 0, "target": 1, "deck": "classic"}
TABLE_PARTS = ("phase", "turn", "direction", "top", "color", "draw_pile", "discard_pile",
               "pending", "you", "host", "match", "round")
CLOSE_TRY_LATER = 1013


@pytest.fixture
async def cluster() -> AsyncIterator[Cluster]:
    async with asyncio.timeout(60), running_cluster("uno_test_cluster") as running:
        yield running


async def resume(server: ServerProcess, code: str, token: str, seat: int, since: int,
                 seconds: float = 4 * LEASE_SECONDS + 5) -> Client:
    """Connect to ``server`` with ``since``, again and again while it says "try later" (the
    room's lease has not lapsed yet); the client once its first frame has arrived."""
    async with asyncio.timeout(seconds):
        while True:
            client = await connect(server, code, token, seat, since)
            try:
                await client.wait_for(lambda f: True)
                return client
            except AssertionError:
                assert client.closed is not None and client.closed[0] == CLOSE_TRY_LATER, (
                    client.closed)
                await asyncio.sleep(0.1)


async def test_a_killed_owner_loses_no_acknowledged_move_and_the_match_finishes_elsewhere(
    cluster: Cluster,
) -> None:
    first, second, third = cluster.workers
    table = await make_table(first, ["Ann", "Bob"], seed=21, rules=RULES,
                             deal=deal(HANDS, dealer=1))
    ann, bob = table.players
    await ann.ok("start")
    await ann.ok("play", card="R1")
    await bob.ok("play", card="R6")
    assert (await cluster.lease_holder(table.code) or ("",))[0] == "w0"
    before = {c.seat: await c.state() for c in (ann, bob)}
    seen = {c.seat: c.last_seq for c in (ann, bob)}

    # While the owner lives, another worker refuses to run the room a second time.
    other = await connect(third, table.code, table.tokens[0], 0)
    assert (await other.wait_closed())[0] == CLOSE_TRY_LATER

    first.stop(kill=True)
    for client in (ann, bob):
        await client.wait_closed()
    ann = await resume(second, table.code, table.tokens[0], 0, seen[0])
    refused = await connect(third, table.code, table.tokens[1], 1, seen[1])  # w1 owns it now
    assert (await refused.wait_closed())[0] == CLOSE_TRY_LATER
    bob = await resume(second, table.code, table.tokens[1], 1, seen[1])
    assert (await cluster.lease_holder(table.code) or ("",))[0] == "w1"
    for client in (ann, bob):
        assert client.seat is not None
        after = await client.state()
        assert {k: after[k] for k in TABLE_PARTS} == {
            k: before[client.seat][k] for k in TABLE_PARTS}
    await play_until_round_over([ann, bob])
    assert (await ann.event("match_over"))["kind"] == "match_over"
    await ann.close()
    await bob.close()


async def test_a_worker_frozen_past_its_lease_never_acts_as_a_second_owner(
    cluster: Cluster,
) -> None:
    first, second, _ = cluster.workers
    table = await make_table(first, ["Ann", "Bob"], seed=22, rules=RULES,
                             deal=deal(HANDS, dealer=1))
    ann, bob = table.players
    await ann.ok("start")
    seen = {c.seat: c.last_seq for c in (ann, bob)}
    stale_owner = (await cluster.lease_holder(table.code) or ("", 0))

    cluster.freeze(0)
    # Ann's move reaches the frozen worker's socket and waits there, unread.
    await ann.send({"type": "play", "card": "R1", "id": "stale"})
    new_ann = await resume(second, table.code, table.tokens[0], 0, seen[0])
    new_bob = await resume(second, table.code, table.tokens[1], 1, seen[1])
    await new_ann.ok("play", card="R2")  # on the new owner Ann plays another card
    holder = await cluster.lease_holder(table.code)
    assert holder is not None and holder[0] == "w1" and holder[1] > stale_owner[1]

    cluster.thaw(0)
    # The woken worker finds its lease gone: the stale move is refused or its socket closed.
    async with asyncio.timeout(3 * LEASE_SECONDS + 5):
        while ann.closed is None and not any(f.get("id") == "stale" for f in ann.frames):
            await asyncio.sleep(0.05)
    answers = [f for f in ann.frames if f.get("id") == "stale"]
    assert all(f["type"] == "error" for f in answers), answers
    await asyncio.sleep(LEASE_SECONDS)
    assert (await cluster.lease_holder(table.code) or ("",))[0] == "w1"

    # The table is the new owner's alone: Ann's hand lost R2, kept R1; play goes on to the end.
    state = await new_ann.state()
    assert "R1" in state["you"]["hand"] and "R2" not in state["you"]["hand"]
    assert state["top"] == "R2"
    await play_until_round_over([new_ann, new_bob])
    assert (await new_ann.event("match_over"))["kind"] == "match_over"
    for client in (ann, bob, new_ann, new_bob):
        await client.close()
