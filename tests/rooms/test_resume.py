"""Resume after a dropped connection: the events missed, gap-free; older: a fresh state. A
socket that gets a fresh state (no ``since``, or one too old) gets the story so far too: one
``recent`` frame of the kept events it may see, from the current match's start."""

from __future__ import annotations

import httpx

from tests.server_fixture import ServerProcess

from .client import Client, Frame, Table, connect, make_table
from .test_commands import NO_TIMER, deal


async def dealt_table(live_server: ServerProcess) -> Table:
    """Ann, Bob and Cy with known hands; Ann starts with R1, Bob follows with R4, Cy with R9."""
    hands = [["R1", "R2", "R3", "B7"], ["R4", "R6", "R8", "Y8"], ["Y1", "Y2", "R9", "G1"]]
    # O-IDLE off: with it a bot would take Cy's turn while Cy is gone (tests/rooms/test_idle.py).
    return await make_table(live_server, ["Ann", "Bob", "Cy"], seed=9,
                            rules={**NO_TIMER, "idle_timeouts": 0}, deal=deal(hands))


async def test_resume_with_since_sends_exactly_the_missed_events(
    live_server: ServerProcess,
) -> None:
    table = await dealt_table(live_server)
    ann, bob, cy = table.players
    await ann.ok("start")
    await ann.ok("play", card="R1")
    await cy.event("played", seat=0)
    seen = cy.last_seq
    await cy.close()
    await ann.event("presence", seat=2, connected=False)  # the server saw Cy go before Bob plays
    await bob.ok("play", card="R4")
    await bob.ok("chat", text="where did Cy go?")
    back = await connect(live_server, table.code, table.tokens[2], seat=2, since=seen)
    await back.event("presence", connected=True)
    assert back.frames[0]["type"] == "event"
    seqs = [f["seq"] for f in back.frames]
    assert seqs == list(range(seen + 1, seen + 1 + len(seqs)))
    kinds = [f["event"]["kind"] for f in back.frames]
    assert kinds == ["presence", "played", "turn", "chat", "presence"]  # gone ... back
    assert back.frames[-1]["event"] == {"kind": "presence", "seat": 2, "connected": True}
    await back.ok("play", card="R9")  # the seat carries on
    await back.close()
    await table.close()


async def test_resume_from_the_latest_seq_sends_nothing_missed_then_carries_on(
    live_server: ServerProcess,
) -> None:
    table = await make_table(live_server, ["Ann", "Bob"], seed=9)
    ann, bob = table.players
    await bob.close()
    await ann.event("presence", seat=1, connected=False)
    seen = ann.last_seq
    back = await connect(live_server, table.code, table.tokens[1], seat=1, since=seen)
    first = await back.wait_for(lambda f: True)
    assert first == {"type": "event", "seq": seen + 1,
                     "event": {"kind": "presence", "seat": 1, "connected": True},
                     "legal": []}  # O-LEGAL: a resume ends on the seat's list as it is now
    await ann.ok("chat", text="hi")
    assert (await back.event("chat"))["text"] == "hi"
    await back.close()
    await table.close()


async def test_resume_from_a_seq_the_room_never_reached_gets_a_fresh_state(
    live_server: ServerProcess,
) -> None:
    table = await make_table(live_server, ["Ann", "Bob"], seed=9)
    await table.players[1].close()
    back = await connect(live_server, table.code, table.tokens[1], seat=1, since=10_000)
    first = await back.wait_for(lambda f: True)
    assert first["type"] == "state" and first["state"]["you"]["seat"] == 1
    await back.close()
    await table.close()


async def test_resume_older_than_the_kept_events_gets_a_fresh_state(
    live_server: ServerProcess,
) -> None:
    table = await make_table(live_server, ["Ann", "Bob", "Cy", "Di"], seed=9)
    seen = table.players[3].last_seq
    await table.players[3].close()
    for client in table.players[:3]:
        for i in range(90):  # 270 events: more than the 64 a room keeps
            await client.send({"type": "chat", "text": f"line {i}"})
    for client in table.players[:3]:
        await client.event("chat", text="line 89", seat=2, timeout=10)
    back = await connect(live_server, table.code, table.tokens[3], seat=3, since=seen)
    first = await back.wait_for(lambda f: True)
    assert first["type"] == "state" and first["seq"] >= seen + 270
    recent = await back.wait_for(lambda f: True)
    assert recent["type"] == "recent"  # the newest kept events, up to the state's seq
    seqs = [f["seq"] for f in recent["events"]]
    assert len(seqs) == 64 and seqs == list(range(first["seq"] - 63, first["seq"] + 1))
    await back.close()
    await table.close()


def kinds(recent: Frame) -> list[str]:
    return [f["event"]["kind"] for f in recent["events"]]


def drawn(recent: Frame) -> Frame:
    event: Frame = next(f["event"] for f in recent["events"] if f["event"]["kind"] == "drew")
    return event


async def first_two(client: Client) -> tuple[Frame, Frame]:
    state = await client.wait_for(lambda f: True)
    recent = await client.wait_for(lambda f: True)
    assert (state["type"], recent["type"]) == ("state", "recent")
    return state, recent


async def test_a_spectator_joining_mid_round_gets_the_rounds_story_without_hidden_cards(
    live_server: ServerProcess,
) -> None:
    hands = [["R1", "R2", "B7"], ["G4", "Y6", "Y8"]]
    table = await make_table(live_server, ["Ann", "Bob"], seed=9, rules=NO_TIMER,
                             deal=deal(hands, pile=["G5", "Y2", "B1", "G6"]))
    ann, bob = table.players
    await ann.ok("chat", text="before the match")  # the lobby's story is not this match's
    await ann.ok("start")
    await ann.ok("play", card="R1")
    await bob.ok("draw")  # Bob's card is his alone
    await bob.event("drew", seat=1)  # G5 does not fit a Red 1: the turn passes
    await ann.event("turn", seat=0)
    watcher = await connect(live_server, table.code)
    state, recent = await first_two(watcher)
    assert kinds(recent)[0] == "match_started"
    assert {"played", "drew", "turn"} <= set(kinds(recent))
    assert "chat" not in kinds(recent)
    seqs = [f["seq"] for f in recent["events"]]
    assert seqs == sorted(seqs) and seqs[-1] == state["seq"]  # oldest first, up to the state
    assert all(f["type"] == "event" and "legal" not in f for f in recent["events"])
    assert drawn(recent) == {"kind": "drew", "seat": 1, "count": 1, "cards_left": 4,
                             "reason": "draw"}
    assert all("hand" not in f["event"] for f in recent["events"])  # no one's cards
    # Bob in a second tab (no since) reads his own draw; Ann, in hers, does not.
    again = await connect(live_server, table.code, table.tokens[1], seat=1)
    _, mine = await first_two(again)
    assert drawn(mine)["cards"] == ["G5"]
    other = await connect(live_server, table.code, table.tokens[0], seat=0)
    _, hers = await first_two(other)
    assert "cards" not in drawn(hers)
    for client in (watcher, again, other):
        await client.close()
    await table.close()


async def test_after_a_match_the_story_is_that_match_until_the_lobby_starts_a_new_one(
    live_server: ServerProcess,
) -> None:
    table = await make_table(live_server, ["Ann", "Bob"], seed=9,
                             rules={**NO_TIMER, "target": 1}, deal=deal([["R1"], ["G4", "Y6"]]))
    ann, _ = table.players
    await ann.ok("start")
    await ann.ok("play", card="R1")  # out: the round and, at a target of 1, the match
    await ann.event("match_over")
    podium = await connect(live_server, table.code)
    _, recent = await first_two(podium)
    assert kinds(recent)[0] == "match_started" and kinds(recent)[-1] == "match_over"
    async with httpx.AsyncClient(base_url=live_server.http_url) as http:
        joined = await http.post(f"/api/rooms/{table.code}/join", json={"name": "Cy"})
    assert joined.status_code == 200  # a join between matches: the room is a lobby again
    await ann.event("joined", name="Cy")
    lobby = await connect(live_server, table.code)
    _, recent = await first_two(lobby)
    assert kinds(recent) == ["joined"] and recent["events"][0]["event"]["name"] == "Cy"
    for client in (podium, lobby):
        await client.close()
    await table.close()


async def test_a_resume_gets_each_kept_event_exactly_as_it_went_out_live(
    live_server: ServerProcess,
) -> None:
    """The room keeps events, not their frames, and encodes them again for a resume: the
    lobby's, the deal's and the plays' frames must read as they did when they went out, though
    the seats, hands and scores they name have changed since."""
    table = await dealt_table(live_server)
    ann, bob, cy = table.players
    await ann.ok("start")
    await ann.ok("play", card="R1")
    await bob.ok("play", card="R4")
    await cy.ok("play", card="R9")
    await ann.ok("chat", text="so far so good")
    await cy.event("chat")
    live = {f["seq"]: f["event"] for f in cy.frames if f.get("type") == "event"}
    again = await connect(live_server, table.code, table.tokens[2], seat=2, since=min(live) - 1)
    await again.event("chat")
    resumed = {f["seq"]: f["event"] for f in again.frames if f.get("type") == "event"}
    assert {seq: resumed[seq] for seq in live} == live
    assert any(e["kind"] == "round_started" and e.get("hand") for e in live.values())
    await again.close()
    await table.close()
