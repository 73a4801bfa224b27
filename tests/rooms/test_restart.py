"""The server process killed mid-game (SQLite store): every room comes back exactly, clients
resume with ``since`` and the game is played to its end; rooms parked for idleness stay in the
store until someone asks for them."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator

import httpx
import pytest

from tests.server_fixture import ServerProcess, running_server

from .client import connect, make_table
from .scripted import play_until_round_over
from .test_commands import deal

HANDS = [
    ["R1", "R2", "G5", "Y3", "B4"],
    ["R6", "G7", "B2", "R3", "G9"],
    ["R7", "G3", "Y4", "B4", "R8"],
]
TABLE_PARTS = ("phase", "turn", "direction", "top", "color", "draw_pile", "discard_pile",
               "pending", "you", "host", "match", "rules", "round")


@pytest.fixture
def own_server() -> Iterator[ServerProcess]:
    with running_server(UNO_SNAPSHOT_EVERY="3") as server:
        yield server


async def test_a_killed_server_brings_the_game_back_exactly_and_it_plays_to_the_end(
    own_server: ServerProcess,
) -> None:
    table = await make_table(own_server, ["Ann", "Bob"], seed=21,
                             rules={"turn_seconds": 0, "target": 1, "deck": "classic"},
                             deal=deal(HANDS, dealer=2))
    ann, bob = table.players
    await ann.ok("add_bot")
    await ann.ok("start")
    await ann.ok("play", card="R1")
    await bob.ok("play", card="R6")
    await ann.event("played", seat=2)  # the bot's move; then it is Ann's turn again
    before = {c.seat: await c.state() for c in (ann, bob)}
    assert before[0]["turn"] == 0
    seen = {c.seat: c.last_seq for c in (ann, bob)}

    own_server.restart()
    for client in (ann, bob):
        await client.wait_closed()

    ann = await connect(own_server, table.code, table.tokens[0], seat=0, since=seen[0])
    bob = await connect(own_server, table.code, table.tokens[1], seat=1, since=seen[1])
    first = await ann.wait_for(lambda f: True)
    assert first["type"] == "event" and first["seq"] == seen[0] + 1  # resumed, not restarted
    for client in (ann, bob):
        assert client.seat is not None
        after = await client.state()
        assert {k: after[k] for k in TABLE_PARTS} == {k: before[client.seat][k]
                                                      for k in TABLE_PARTS}
        assert [s["cards"] for s in after["seats"]] == [
            s["cards"] for s in before[client.seat]["seats"]]
    await play_until_round_over([ann, bob])
    assert (await ann.event("match_over", timeout=5))["kind"] == "match_over"
    await ann.close()
    await bob.close()


async def loaded_rooms(server: ServerProcess) -> tuple[int, set[str]]:
    """(rooms in the worker's memory, codes of the public ones it lists)."""
    async with httpx.AsyncClient(base_url=server.http_url, timeout=5) as http:
        metrics = (await http.get("/metrics")).text
        listed = (await http.get("/api/rooms")).json()
    found = re.search(r"^uno_rooms (\d+)$", metrics, re.MULTILINE)
    assert found is not None, "uno_rooms missing from /metrics"
    return int(found.group(1)), {room["code"] for room in listed}


async def test_a_restart_brings_back_rooms_in_play_but_not_parked_ones() -> None:
    with running_server(UNO_IDLE_SECONDS="2.5") as server:
        rules = {"turn_seconds": 0, "target": 1, "deck": "classic"}
        # O-IDLE off: with it a bot would play Ann's seat to the end while she is gone.
        idle = await make_table(server, ["Ann"], seed=3, rules={**rules, "idle_timeouts": 0})
        ann = idle.players[0]
        await ann.ok("add_bot")
        await ann.ok("start")
        await ann.close()  # nobody left: the room is parked after UNO_IDLE_SECONDS
        busy = await make_table(server, ["Bob"], seed=4, rules=rules)
        bob = busy.players[0]
        await bob.ok("add_bot")
        await bob.ok("start")
        async with asyncio.timeout(10):
            while (await loaded_rooms(server))[0] != 1:
                await asyncio.sleep(0.1)
        assert (await loaded_rooms(server))[1] == {busy.code}

        server.restart()
        await bob.wait_closed()
        # Recovery loaded the room in play (its player was connected), not the parked one.
        assert await loaded_rooms(server) == (1, {busy.code})

        # The parked room loads on request, exactly where it was left.
        async with httpx.AsyncClient(base_url=server.http_url, timeout=5) as http:
            looked = await http.get(f"/api/rooms/{idle.code}")
        assert looked.status_code == 200, looked.text
        assert looked.json()["phase"] not in ("lobby", "match_over")
        ann = await connect(server, idle.code, idle.tokens[0], seat=0)
        state = await ann.state()
        assert state["you"]["seat"] == 0 and state["phase"] == looked.json()["phase"]
        assert idle.code in (await loaded_rooms(server))[1]
        bob = await connect(server, busy.code, busy.tokens[0], seat=0)
        assert (await bob.state())["you"]["seat"] == 0
        await ann.close()
        await bob.close()


async def test_o_idle_a_player_who_does_not_come_back_after_a_crash_is_played_away_after_the_grace(
) -> None:
    # Found by a tournament whose owner was killed: its tables, which nobody watched, waited a
    # whole turn's clock (30 s) for seats nobody would reconnect, where O-IDLE says the
    # reconnect grace. Nobody connects here either: the room is looked at over HTTP only.
    with running_server(UNO_AWAY_GRACE_SECONDS="0.3") as server:
        table = await make_table(server, ["Ann", "Bob"], seed=21,
                                 rules={"turn_seconds": 30, "deck": "classic"},
                                 deal=deal(HANDS[:2], dealer=1))
        ann, _ = table.players
        await ann.ok("start")
        waited = (await ann.state())["turn"]
        server.restart()
        async with httpx.AsyncClient(base_url=server.http_url) as http, asyncio.timeout(5):
            while True:
                summary = (await http.get(f"/api/rooms/{table.code}")).json()
                if summary["seats"][waited]["away"]:
                    break
                await asyncio.sleep(0.1)
