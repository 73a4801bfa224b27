"""Many workers on one Postgres and one Redis: players spread over every worker play one table
(commands reach the room's owner, events reach every socket); when the owner is killed another
worker rebuilds the room from the database and the match goes on with every acknowledged move;
a worker frozen past its lease never acts as a second owner."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from tests.rooms.client import TIMEOUT, Client, connect, make_table
from tests.rooms.scripted import play_until_round_over
from tests.rooms.test_commands import deal
from tests.server_fixture import ServerProcess

from .cluster import LEASE_SECONDS, Cluster, Workers, cluster_of, running_workers

HANDS = [
    ["R1", "R2", "G5", "Y3", "B4"],
    ["R6", "G7", "B2", "R3", "G9"],
    ["R7", "G3", "Y4", "B4", "R8"],
]
# O-IDLE off: while the sockets reconnect after their worker stopped, a seat with none for
# longer than the away grace (a loaded machine) would be played by a bot, and the five-card
# round could end before its players are back; here the point is the moves kept across workers.
RULES = {"turn_seconds": 0, "target": 1, "deck": "classic", "idle_timeouts": 0}
TABLE_PARTS = ("phase", "turn", "direction", "top", "color", "draw_pile", "discard_pile",
               "pending", "you", "host", "match", "round")
CLOSE_TRY_LATER = 1013
CLOSE_RELOAD = 1012


@pytest.fixture(scope="module")
def workers() -> Iterator[Workers]:
    # A database of its own: two test runs on one machine must not share it.
    with running_workers(f"uno_test_cluster_{uuid.uuid4().hex[:8]}") as running:
        yield running


@pytest.fixture
async def cluster(workers: Workers) -> AsyncIterator[Cluster]:
    async with cluster_of(workers) as running:  # each step of it has its own time limit
        yield running


async def spread_table(cluster: Cluster) -> tuple[str, list[str], list[Client]]:
    """A room made on worker 0 with seat ``i`` joined and connected through worker ``i``."""
    workers = cluster.workers
    async with httpx.AsyncClient(timeout=TIMEOUT) as http:
        made = await http.post(f"{workers[0].http_url}/api/rooms", json={
            "name": "Ann", "seed": 31, "rules": RULES, "deal": deal(HANDS, dealer=2)})
        assert made.status_code == 201, made.text
        code, tokens = made.json()["code"], [made.json()["token"]]
        for index, name in ((1, "Bob"), (2, "Cid")):
            joined = await http.post(f"{workers[index].http_url}/api/rooms/{code}/join",
                                     json={"name": name})
            assert joined.status_code == 200, joined.text
            tokens.append(joined.json()["token"])
    players = []
    for seat, token in enumerate(tokens):
        client = await connect(workers[seat], code, token, seat)
        await client.wait_for(lambda f: f["type"] == "state")
        players.append(client)
    return code, tokens, players


async def resume(server: ServerProcess, code: str, token: str, seat: int, since: int,
                 seconds: float = 25.0) -> Client:
    """Connect to ``server`` with ``since``, again while it says "try later" or "reconnect"
    (the room is between owners); the client once its first frame has arrived."""
    async with asyncio.timeout(seconds):
        while True:
            client = await connect(server, code, token, seat, since)
            try:
                await client.wait_for(lambda f: True, 2 * TIMEOUT)
                return client
            except AssertionError:
                assert client.closed is not None and client.closed[0] in (
                    CLOSE_TRY_LATER, CLOSE_RELOAD), client.closed
                await asyncio.sleep(0.1)


async def test_players_on_three_workers_play_a_full_match_and_see_only_their_own_hands(
    cluster: Cluster,
) -> None:
    code, _, players = await spread_table(cluster)
    ann, bob, cid = players
    await ann.ok("start")
    await ann.ok("play", card="R1")
    await bob.ok("play", card="R6")  # through worker 1, to the owner on worker 0
    played = await cid.event("played", seat=1)  # worker 2 gets the owner's events
    assert played["card"] == "R6"
    for client in players:
        state = await client.state()
        assert state["you"]["seat"] == client.seat
        assert all(seat["hand"] is None for seat in state["seats"])  # others: counts only
    assert (await cluster.lease_holder(code) or ("",))[0] == "w0"
    await play_until_round_over(players)
    for client in players:
        assert (await client.event("match_over"))["kind"] == "match_over"
        await client.close()


async def test_every_worker_summarises_a_room_as_its_owner_does_lobby_match_and_after(
    cluster: Cluster,
) -> None:
    """GET /api/rooms/{code} on a worker that does not run the room: the owner's phase and
    whether it is open to join, not the stored meta's "in_match" (issue 27)."""
    code, _, players = await spread_table(cluster)
    ann = players[0]

    async def summaries() -> list[dict[str, Any]]:
        async with httpx.AsyncClient(timeout=TIMEOUT) as http:
            return [(await http.get(f"{worker.http_url}/api/rooms/{code}")).json()
                    for worker in cluster.workers]

    assert [(s["phase"], s["open"], s["players"]) for s in await summaries()] == [
        ("lobby", True, 3)] * 3
    await ann.ok("start")
    assert [(s["phase"], s["open"]) for s in await summaries()] == [("playing", False)] * 3
    await play_until_round_over(players)
    for client in players:
        await client.event("match_over")
    assert [(s["phase"], s["open"]) for s in await summaries()] == [("match_over", True)] * 3
    for client in players:
        await client.close()


async def test_players_on_a_killed_socket_worker_show_as_gone_at_the_owner(
    cluster: Cluster,
) -> None:
    """The dead worker cannot forward its sockets' disconnects: the owner notices it is gone."""
    code, _tokens, players = await spread_table(cluster)
    ann, bob, cid = players
    assert (await cluster.lease_holder(code) or ("",))[0] == "w0"
    await ann.ok("start")
    cluster.workers[1].stop(kill=True)  # Bob's socket's worker, not the owner
    await bob.wait_closed()
    await ann.event("presence", seat=1, connected=False, timeout=3 * LEASE_SECONDS + 5)
    seats = (await ann.state())["seats"]
    assert [s["connected"] for s in seats] == [True, False, True]  # Cid's worker is alive
    await ann.close()
    await cid.close()


async def test_a_killed_owner_loses_no_acknowledged_move_and_the_match_finishes_elsewhere(
    cluster: Cluster,
) -> None:
    code, tokens, players = await spread_table(cluster)
    ann, bob, cid = players
    await ann.ok("start")
    await ann.ok("play", card="R1")
    await bob.ok("play", card="R6")
    await cid.ok("play", card="R7")
    before = {c.seat: await c.state() for c in players}
    seen = {c.seat: c.last_seq for c in players}

    cluster.workers[0].stop(kill=True)  # the owner, and Ann's socket with it
    await ann.wait_closed()
    ann = await resume(cluster.workers[1], code, tokens[0], 0, seen[0])
    # Taking the room over tells every other socket to resume from the new owner.
    for old in (bob, cid):
        assert (await old.wait_closed(3 * TIMEOUT))[0] == CLOSE_RELOAD
    bob = await resume(cluster.workers[1], code, tokens[1], 1, seen[1])
    cid = await resume(cluster.workers[2], code, tokens[2], 2, seen[2])
    # w1 (asked first) or w2 (its takeover sweep may come first): not the dead w0.
    assert (await cluster.lease_holder(code) or ("",))[0] in ("w1", "w2")
    players = [ann, bob, cid]
    for client in players:
        assert client.seat is not None
        after = await client.state()
        assert {k: after[k] for k in TABLE_PARTS} == {
            k: before[client.seat][k] for k in TABLE_PARTS}
    await play_until_round_over(players)
    assert (await cid.event("match_over"))["kind"] == "match_over"
    for client in players:
        await client.close()


async def test_a_worker_frozen_past_its_lease_never_acts_as_a_second_owner(
    cluster: Cluster,
) -> None:
    first, second, _ = cluster.workers
    table = await make_table(first, ["Ann", "Bob"], seed=22, rules=RULES,
                             deal=deal(HANDS[:2], dealer=1))
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
    # w1 (asked first) or w2 (its takeover sweep may come first): not the frozen w0.
    assert holder is not None and holder[0] in ("w1", "w2") and holder[1] > stale_owner[1]
    new_owner = holder[0]

    cluster.thaw(0)
    # The woken worker finds its lease gone: the stale move is refused or its socket closed.
    async with asyncio.timeout(3 * LEASE_SECONDS + 5):
        while ann.closed is None and not any(f.get("id") == "stale" for f in ann.frames):
            await asyncio.sleep(0.05)
    answers = [f for f in ann.frames if f.get("id") == "stale"]
    assert all(f["type"] == "error" for f in answers), answers
    await asyncio.sleep(LEASE_SECONDS)
    assert (await cluster.lease_holder(table.code) or ("",))[0] == new_owner

    # The table is the new owner's alone: Ann's hand lost R2, kept R1; play goes on to the end.
    state = await new_ann.state()
    assert "R1" in state["you"]["hand"] and "R2" not in state["you"]["hand"]
    assert state["top"] == "R2"
    await play_until_round_over([new_ann, new_bob])
    assert (await new_ann.event("match_over"))["kind"] == "match_over"
    for client in (ann, bob, new_ann, new_bob):
        await client.close()


async def test_a_worker_shut_down_gracefully_hands_its_rooms_over_and_play_goes_on(
    cluster: Cluster,
) -> None:
    code, tokens, players = await spread_table(cluster)
    ann, bob, cid = players
    await ann.ok("start")
    await ann.ok("play", card="R1")
    seen = {c.seat: c.last_seq for c in players}

    await asyncio.to_thread(cluster.workers[0].stop)  # SIGTERM to the owner
    # Every socket of the room, on any worker, is told to reconnect (1012) and resumes.
    for old in players:
        assert (await old.wait_closed(3 * TIMEOUT))[0] == CLOSE_RELOAD
    ann = await resume(cluster.workers[2], code, tokens[0], 0, seen[0])
    bob = await resume(cluster.workers[1], code, tokens[1], 1, seen[1])
    cid = await resume(cluster.workers[2], code, tokens[2], 2, seen[2])
    holder = await cluster.lease_holder(code)
    assert holder is not None and holder[0] in ("w1", "w2")
    await bob.ok("play", card="R6")
    await play_until_round_over([ann, bob, cid])
    assert (await bob.event("match_over"))["kind"] == "match_over"
    for client in (ann, bob, cid):
        await client.close()


def sent_seqs(envelopes: list[dict[str, Any]]) -> list[int]:
    """The seqs of the events in these room-topic messages (one message per commit)."""
    return [event[0] for envelope in envelopes for event in envelope["m"].get("events", ())]


async def test_a_room_played_on_its_owner_alone_keeps_its_events_off_redis_until_a_socket_elsewhere_connects_which_then_misses_none(  # noqa: E501
    cluster: Cluster,
) -> None:
    owner, other, third = cluster.workers
    table = await make_table(owner, ["Ann", "Bob", "Cid"], seed=31, rules=RULES,
                             deal=deal(HANDS, dealer=2))
    code = table.code
    ann, bob, cid = table.players
    on_redis: list[dict[str, Any]] = []  # what the owner sends to other workers, as they see it
    await cluster.redis.start()
    cluster.redis.subscribe(f"room:{code}", on_redis.append)
    await cluster.redis.ready(f"room:{code}")
    await ann.ok("start")
    await ann.ok("play", card="R1")
    await bob.ok("play", card="R6")
    assert not sent_seqs(on_redis)  # no other worker wants them yet

    # A spectator on worker 1 (a state first), another on worker 2 (the events since seq 2).
    late = await connect(other, code)
    first = (await late.wait_for(lambda f: f["type"] == "state"))["seq"]
    resumed = await connect(third, code, since=2)
    await resumed.wait_for(lambda f: f.get("seq") == 3)
    await play_until_round_over(table.players)
    last = cid.last_seq
    async with asyncio.timeout(TIMEOUT):
        while late.last_seq < last or resumed.last_seq < last:
            await asyncio.sleep(0.02)
    told = {f["seq"]: f["event"]["kind"] for f in cid.frames if f["type"] == "event"}
    for client, after in ((late, first), (resumed, 2)):
        seen = [(f["seq"], f["event"]["kind"]) for f in client.frames if f["type"] == "event"]
        assert [seq for seq, _ in seen] == list(range(after + 1, last + 1))  # none missed
        assert [(seq, told[seq]) for seq, _ in seen if seq in told] == [
            (seq, kind) for seq, kind in seen if seq in told]  # the same events as Cid's
    async with asyncio.timeout(TIMEOUT):
        while not sent_seqs(on_redis) or sent_seqs(on_redis)[-1] < last:
            await asyncio.sleep(0.02)
    # From the first call from elsewhere on:
    assert sent_seqs(on_redis) == list(range(first + 1, last + 1))
    for client in (ann, bob, cid, late, resumed):
        await client.close()


async def test_a_worker_started_under_a_running_workers_name_refuses_to_start(
    cluster: Cluster, workers: Workers
) -> None:
    """Leases know a worker by its UNO_WORKER_ID: a twin would pass every lease check of the
    other's rooms (two owners), so it stops at start-up and says why."""
    twin = ServerProcess(dict(workers.processes[0].env))
    with pytest.raises(RuntimeError, match=r"worker name 'w0' \(UNO_WORKER_ID\) is in use"):
        await asyncio.to_thread(twin.start)
    assert cluster.workers[0].process is not None
    assert cluster.workers[0].process.poll() is None  # the running one is untouched
