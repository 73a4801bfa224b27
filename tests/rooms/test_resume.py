"""Resume after a dropped connection: the events missed, gap-free; older: a fresh state."""

from __future__ import annotations

from tests.server_fixture import ServerProcess

from .client import connect, make_table
from .test_commands import NO_TIMER, deal


async def test_resume_with_since_sends_exactly_the_missed_events(
    live_server: ServerProcess,
) -> None:
    hands = [["R1", "R2", "R3", "B7"], ["R4", "R6", "R8", "Y8"], ["Y1", "Y2", "R9", "G1"]]
    # O-IDLE off: with it a bot would take Cy's turn while Cy is gone (tests/rooms/test_idle.py).
    table = await make_table(live_server, ["Ann", "Bob", "Cy"], seed=9,
                             rules={**NO_TIMER, "idle_timeouts": 0}, deal=deal(hands))
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
    await back.close()
    await table.close()
