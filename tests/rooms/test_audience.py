"""The audience and the party over real sockets: spectators chat among themselves and never reach
a player, reactions reach everyone, everyone sees how many watch, the host's rematch keeps the
seats, and the room's join link comes as a QR code."""

from __future__ import annotations

import asyncio
import xml.etree.ElementTree as ET

import httpx

from tests.rooms.client import Client, connect, make_table
from tests.rooms.test_commands import deal
from tests.server_fixture import ServerProcess

ONE_CARD = {"turn_seconds": 0, "target": 1}


async def quiet_for(client: Client, kind: str, seconds: float = 0.5) -> list[dict[str, object]]:
    """Frames of ``kind`` that reach ``client`` within ``seconds`` (none are expected)."""
    await asyncio.sleep(seconds)
    return [f for f in client.frames if f.get("type") == kind
            or f.get("event", {}).get("kind") == kind]


async def test_spectators_chat_among_themselves_and_never_reach_a_player(
    live_server: ServerProcess,
) -> None:
    table = await make_table(live_server, ["Ann", "Bob"], seed=2, rules={"turn_seconds": 0})
    ann, bob = table.players
    await ann.ok("start")
    one = await connect(live_server, table.code)
    two = await connect(live_server, table.code)
    for watcher in (one, two):
        await watcher.wait_for(lambda f: f["type"] == "state")
    await one.ok("chat", text="Ann should play the wild")
    heard = await two.wait_for(lambda f: f["type"] == "spectator_chat")
    assert heard["text"] == "Ann should play the wild" and isinstance(heard["spectator"], int)
    assert (await one.wait_for(lambda f: f["type"] == "spectator_chat"))["text"]
    for player in (ann, bob):
        assert await quiet_for(player, "spectator_chat") == []
        assert not any("Ann should play" in str(f) for f in player.frames)
    await ann.ok("chat", text="hello everyone")  # a player's line reaches the stands too
    assert (await one.event("chat"))["text"] == "hello everyone"
    for client in (one, two):
        await client.close()
    await table.close()


async def test_a_reaction_from_a_player_or_a_spectator_reaches_every_socket(
    live_server: ServerProcess,
) -> None:
    table = await make_table(live_server, ["Ann", "Bob"], seed=2, rules={"turn_seconds": 0})
    ann, bob = table.players
    watcher = await connect(live_server, table.code)
    await watcher.wait_for(lambda f: f["type"] == "state")
    await ann.ok("react", emoji="🔥")
    await watcher.ok("react", emoji="👏")
    for client in (ann, bob, watcher):
        assert (await client.event("reaction"))["emoji"] == "🔥"
        assert (await client.event("reaction", seat=None))["emoji"] == "👏"
    refused = await bob.cmd("react", emoji="🍕")
    assert (refused["type"], refused["code"]) == ("error", "bad_message")
    await watcher.close()
    await table.close()


async def test_everyone_sees_how_many_watch(live_server: ServerProcess) -> None:
    table = await make_table(live_server, ["Ann", "Bob"], seed=2, rules={"turn_seconds": 0})
    ann = table.players[0]
    assert (await ann.state())["spectators"] == 0
    watchers = [await connect(live_server, table.code) for _ in range(3)]
    for watcher in watchers:
        await watcher.wait_for(lambda f: f["type"] == "state")
    counted = await ann.wait_for(lambda f: f.get("event", {}).get("kind") == "spectators"
                                 and f["event"]["spectators"] == 3)
    assert counted["seq"] > 0
    assert (await ann.state())["spectators"] == 3
    await watchers[0].close()
    await ann.event("spectators", spectators=2)
    async with httpx.AsyncClient(base_url=live_server.http_url) as http:
        summary = (await http.get(f"/api/rooms/{table.code}")).json()
    assert summary["spectators"] == 2
    for watcher in watchers[1:]:
        await watcher.close()
    await table.close()


async def test_the_hosts_rematch_keeps_the_seats_and_frees_those_whose_players_left(
    live_server: ServerProcess,
) -> None:
    hands = [["R5"], ["B9", "G3", "Y7"], ["G1", "G2"]]
    table = await make_table(live_server, ["Ann", "Bob", "Cid"], seed=2, rules=ONE_CARD,
                             deal=deal(hands, discard="R1"))
    ann, bob, cid = table.players
    early = await ann.cmd("rematch")
    assert (early["type"], early["code"]) == ("error", "wrong_phase")
    await ann.ok("start")
    await ann.ok("kick", seat=1)  # Bob is removed mid-match: a bot holds his seat
    await ann.ok("play", card="R5")  # Ann goes out: the match (target 1) is over
    await cid.event("match_over")
    refused = await cid.cmd("rematch")
    assert (refused["type"], refused["code"]) == ("error", "forbidden")
    await ann.ok("rematch")
    freed = await cid.event("seats_freed")
    assert freed["freed"] == [1] and [s["name"] for s in freed["seats"]] == ["Ann", "Cid"]
    assert freed["you"] == 1  # Cid moved down to seat 1
    started = await cid.event("match_started")
    assert started["players"] == 2 and [s["name"] for s in started["seats"]] == ["Ann", "Cid"]
    state = await cid.state()
    assert state["phase"] == "playing" and state["you"]["seat"] == 1
    assert state["rules"]["target"] == 1
    await bob.close()
    await table.close()


async def test_the_join_link_comes_as_a_qr_code_svg(live_server: ServerProcess) -> None:
    table = await make_table(live_server, ["Ann"], connect_all=False)
    async with httpx.AsyncClient(base_url=live_server.http_url) as http:
        qr = await http.get(f"/api/rooms/{table.code}/qr.svg")
        assert qr.status_code == 200 and qr.headers["content-type"] == "image/svg+xml"
        svg = ET.fromstring(qr.content)
        assert svg.tag.endswith("svg") and f"Join room {table.code}" in qr.text
        missing = await http.get("/api/rooms/ZZZZ/qr.svg")
        assert missing.status_code == 404
