"""O-LEGAL over real sockets: each seat's state carries what it may send now, every frame after
which that list changed carries the new one, spectators never get one, and H-NOHINTS lists no
plays."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import Event
from app.rooms.hub import add_legal, encode_event, frame_for
from tests.rooms.client import connect, make_table
from tests.rooms.test_commands import deal
from tests.server_fixture import ServerProcess

HANDS = [["R1", "R2", "B7", "W"], ["G3", "G4", "Y8", "R9", "Y9"]]


def plays(legal: list[dict[str, Any]]) -> set[str]:
    return {move["card"] for move in legal if move["type"] == "play"}


async def test_each_seat_is_told_its_legal_moves_and_every_change_of_them(
    live_server: ServerProcess,
) -> None:
    table = await make_table(live_server, ["Ann", "Bob"], seed=3, rules={"turn_seconds": 0},
                             deal=deal(HANDS, discard="R5"))
    ann, bob = table.players
    watcher = await connect(live_server, table.code)
    await watcher.wait_for(lambda f: f["type"] == "state")
    assert (await ann.state())["you"]["legal"] == []  # nothing to do in the lobby
    await ann.ok("start")
    state = await ann.state()
    assert plays(state["you"]["legal"]) == {"R1", "R2", "W"}  # T-MATCH, told by the server
    assert {"type": "draw"} in state["you"]["legal"]
    assert {m["type"] for m in (await bob.state())["you"]["legal"]} <= {"play"}  # not his turn
    await ann.ok("play", card="R2")
    told = await bob.wait_for(lambda f: f.get("type") == "event" and "legal" in f)
    assert plays(told["legal"]) == {"R9"} and {"type": "draw"} in told["legal"]
    # The same frame (the command's last event) tells Ann she has nothing left to do.
    cleared = await ann.wait_for(lambda f: f.get("seq") == told["seq"])
    assert cleared["legal"] == []
    assert not any("legal" in f for f in watcher.frames)
    await watcher.close()
    await table.close()


async def test_h_nohints_the_server_lists_no_plays(live_server: ServerProcess) -> None:
    table = await make_table(live_server, ["Ann", "Bob"], seed=3,
                             rules={"turn_seconds": 0, "no_hints": True},
                             deal=deal(HANDS, discard="R5"))
    ann = table.players[0]
    await ann.ok("start")
    legal = (await ann.state())["you"]["legal"]
    assert plays(legal) == set() and {"type": "draw"} in legal
    await ann.ok("play", card="R2")  # still playable: only the hints are gone
    await table.close()


async def test_o_window_the_end_of_a_grace_reaches_every_player_with_the_catch_listed(
    live_server: ServerProcess,
) -> None:
    """Nobody acts while the grace runs: the room's timer still tells the table the catch is
    open, on a frame of its own, so a client that offers only listed moves shows Catch."""
    table = await make_table(live_server, ["Ann", "Bob"], seed=3,
                             rules={"turn_seconds": 0, "uno_grace_ms": 600},
                             deal=deal([["R1", "B7"], HANDS[1]], discard="R5"))
    ann, bob = table.players
    await ann.ok("start")
    await ann.ok("play", card="R1")  # one card left, no call
    told = await bob.wait_for(lambda f: f.get("type") == "event" and "legal" in f)
    assert {"type": "catch", "target": 0} not in told["legal"]  # the grace runs
    opened = await bob.wait_for(
        lambda f: f.get("type") == "event" and f["event"]["kind"] == "catch_open", timeout=5)
    assert opened["event"]["seat"] == 0
    assert {"type": "catch", "target": 0} in opened["legal"]
    await bob.ok("catch", target=0)
    assert (await bob.state())["seats"][0]["cards"] == 3
    await table.close()


async def test_a_resumed_seat_gets_its_legal_moves_as_they_are_now_on_the_last_frame(
    live_server: ServerProcess,
) -> None:
    table = await make_table(live_server, ["Ann", "Bob"], seed=3, rules={"turn_seconds": 0},
                             deal=deal(HANDS, discard="R5"))
    ann, bob = table.players
    await ann.ok("start")
    await bob.state()
    seen = bob.last_seq
    await bob.close()
    await ann.event("presence", seat=1, connected=False)
    await ann.ok("play", card="R2")  # now Bob's turn: his list changed while he was away
    back = await connect(live_server, table.code, table.tokens[1], seat=1, since=seen)
    await back.event("presence", connected=True)
    carrying = [f for f in back.frames if "legal" in f]
    assert carrying, back.frames
    assert plays(carrying[-1]["legal"]) == {"R9"} and {"type": "draw"} in carrying[-1]["legal"]
    await back.close()
    await table.close()


@settings(max_examples=200, deadline=None)
@given(private=st.dictionaries(st.integers(0, 5), st.sampled_from([{}, {"cards": ["R1"]}]),
                               max_size=4),
       legal=st.dictionaries(st.integers(0, 5), st.lists(st.sampled_from(
           [{"type": "draw"}, {"type": "play", "card": "G4"}, {"type": "pass"}]), max_size=3),
           min_size=1, max_size=4))
def test_legal_moves_added_to_encoded_frames_match_frames_encoded_with_them(
    private: dict[int, dict[str, Any]], legal: dict[int, list[dict[str, Any]]],
) -> None:
    """The room encodes a command's last event once, for its history, then adds each seat's new
    legal moves to the frames it has: every socket gets what encoding with the moves gave."""
    event = Event("drew", {"seat": 1, "count": 1}, private or None)
    added = add_legal(encode_event(7, event), legal)
    direct = encode_event(7, event, legal)
    assert added[1] == direct[1]
    for seat in range(6):
        assert json.loads(frame_for(added, seat)) == json.loads(frame_for(direct, seat))
        assert frame_for(added, seat) == frame_for(direct, seat)
