"""O-IDLE: a seat nobody plays does not stall the table. After ``idle_timeouts`` turns in a row
ran out, or at once when the turn comes to a player who is not connected, a bot plays the seat
(``away``) in view of everyone, until the player sends any command or ``back``."""

from __future__ import annotations

from tests.server_fixture import ServerProcess

from .client import connect, make_table
from .test_commands import deal

HANDS = [["R1", "R2", "R3", "B7", "G9"], ["R4", "R6", "R8", "Y8", "G1"]]


async def test_o_idle_a_seat_whose_turn_ran_out_twice_in_a_row_is_played_by_a_bot(
    live_server: ServerProcess,
) -> None:
    table = await make_table(live_server, ["Ann"], seed=4, rules={"turn_seconds": 1})
    ann = table.players[0]
    await ann.ok("add_bot")
    await ann.ok("start")
    away = await ann.event("away", seat=0, timeout=12)  # two of Ann's turns ran out
    assert away["away"] is True
    timed = [f["event"] for f in ann.frames
             if f["type"] == "event" and f["event"]["kind"] == "timed_out"
             and f["event"]["seat"] == 0]
    assert len(timed) >= 2
    assert (await ann.state())["seats"][0]["away"] is True
    await ann.event("played", seat=0, timeout=8)  # the bot plays Ann's seat (or draws)
    await ann.ok("back")
    assert (await ann.event("away", seat=0, away=False))["away"] is False
    state = await ann.state()
    assert state["seats"][0]["away"] is False
    await table.close()


async def test_o_idle_a_disconnected_players_turn_is_played_at_once_until_any_command(
    live_server: ServerProcess,
) -> None:
    table = await make_table(live_server, ["Ann", "Bob"], seed=9, rules={"turn_seconds": 0},
                             deal=deal(HANDS))
    ann, bob = table.players
    await ann.ok("start")
    await bob.close()
    await ann.event("presence", seat=1, connected=False)
    await ann.ok("play", card="R1")  # Bob's turn, and Bob is gone: a bot plays it ...
    assert not [f for f in ann.frames if f.get("event", {}).get("kind") == "away"]
    # ... once the reconnect grace is over (a reload or a network blip is not gone)
    assert (await ann.event("away", seat=1, timeout=8))["away"] is True
    bots_move = await ann.wait_for(lambda f: f["type"] == "event" and f["event"].get("seat") == 1
                                   and f["event"]["kind"] in ("played", "drew"))
    assert bots_move["event"]["kind"] in ("played", "drew")
    back = await connect(live_server, table.code, table.tokens[1], seat=1)
    state = await back.state()
    assert state["seats"][1]["away"] is True  # still away: reconnecting is not a command
    await back.ok("chat", text="sorry, I'm back")
    assert (await ann.event("away", seat=1, away=False))["away"] is False
    assert (await ann.event("chat", seat=1))["text"] == "sorry, I'm back"
    await back.close()
    await ann.close()


async def test_o_idle_off_a_gone_players_turn_waits_for_them(
    live_server: ServerProcess,
) -> None:
    table = await make_table(live_server, ["Ann", "Bob"], seed=9,
                             rules={"turn_seconds": 0, "idle_timeouts": 0}, deal=deal(HANDS))
    ann, bob = table.players
    await ann.ok("start")
    await bob.close()
    await ann.event("presence", seat=1, connected=False)
    await ann.ok("play", card="R1")
    await ann.ok("chat", text="waiting for Bob")
    await ann.event("chat")
    assert not [f for f in ann.frames if f["type"] == "event"
                and f["event"]["kind"] in ("away", "drew") and f["event"].get("seat") == 1]
    assert (await ann.state())["turn"] == 1
    refused = await ann.cmd("back")
    assert (refused["type"], refused["code"]) == ("error", "nothing_to_do")
    await ann.close()
