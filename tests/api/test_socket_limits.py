"""Limits at the socket edge: 4 KiB frames, rate limits, bad input keeps the socket open."""

from __future__ import annotations

import json

from tests.rooms.client import connect, make_table
from tests.server_fixture import ServerProcess


async def test_a_frame_over_4_kib_closes_the_socket_1009(live_server: ServerProcess) -> None:
    table = await make_table(live_server, ["Ann", "Bob"], seed=1)
    ann, bob = table.players
    await ann.ok("chat", text="x" * 300)  # within limits
    await ann.send({"type": "chat", "text": "y" * 4100})
    assert (await ann.wait_closed())[0] == 1009
    await bob.ok("chat", text="still here")
    await table.close()


async def test_players_get_rate_limited_past_100_messages_then_closed_4429(
    live_server: ServerProcess,
) -> None:
    table = await make_table(live_server, ["Ann", "Bob"], seed=1)
    ann = table.players[0]
    for _ in range(100):
        await ann.ws.send(json.dumps({"type": "ping"}))
    await ann.ws.send(json.dumps({"type": "ping", "id": "one-too-many"}))
    limited = await ann.wait_for(lambda f: f.get("id") == "one-too-many")
    assert (limited["type"], limited["code"]) == ("error", "rate_limited")
    pongs = [f for f in ann.frames if f["type"] == "pong"]
    assert len(pongs) == 100
    for _ in range(30):
        await ann.ws.send(json.dumps({"type": "ping"}))
    assert (await ann.wait_closed())[0] == 4429
    await table.close()


async def test_spectators_get_rate_limited_past_50_messages(live_server: ServerProcess) -> None:
    table = await make_table(live_server, ["Ann", "Bob"], seed=1)
    watcher = await connect(live_server, table.code)
    for _ in range(50):
        await watcher.ws.send(json.dumps({"type": "ping"}))
    await watcher.ws.send(json.dumps({"type": "ping", "id": "x"}))
    limited = await watcher.wait_for(lambda f: f.get("id") == "x")
    assert limited["code"] == "rate_limited"
    await watcher.close()
    await table.close()


async def test_a_bad_id_is_refused_and_the_socket_stays_open(live_server: ServerProcess) -> None:
    table = await make_table(live_server, ["Ann", "Bob"], seed=1)
    ann = table.players[0]
    await ann.send({"type": "chat", "text": "hi", "id": "z" * 65})
    assert (await ann.wait_for(lambda f: f["type"] == "error"))["code"] == "bad_message"
    await ann.send({"type": "chat", "text": "hi", "id": {"nested": 1}})
    assert (await ann.wait_for(lambda f: f["type"] == "error"))["code"] == "bad_message"
    await ann.ok("chat", text="fine")
    await table.close()
