"""Commands over a real socket: acks, every error code, seq, per-connection filtering."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.server_fixture import ServerProcess

from .client import Client, connect, make_table

NO_TIMER = {"turn_seconds": 0}


def deal(hands: list[list[str]], discard: str = "R5", pile: list[str] | None = None,
         dealer: int | None = None) -> dict[str, object]:
    """A rigged first round where seat 0 plays first (the dealer is the last seat)."""
    return {"dealer": len(hands) - 1 if dealer is None else dealer, "hands": hands,
            "discard": discard, "draw_pile": pile or ["G5", "Y2", "B1", "G6"]}


async def test_state_on_connect_shows_own_hand_and_only_counts_of_others(
    live_server: ServerProcess,
) -> None:
    hands = [["R1", "R2", "B7", "B7"], ["G3", "G4", "Y8", "Y8", "Y9"]]
    table = await make_table(live_server, ["Ann", "Bob"], seed=3, rules=NO_TIMER,
                             deal=deal(hands))
    ann, bob = table.players
    await ann.ok("start")
    watcher = await connect(live_server, table.code)
    state = (await watcher.wait_for(lambda f: f["type"] == "state"))["state"]
    assert state["you"] is None
    assert [s["cards"] for s in state["seats"]] == [4, 5]
    assert [s["name"] for s in state["seats"]] == ["Ann", "Bob"]
    assert state["phase"] == "playing" and state["host"] == 0 and state["match"]
    bob_state = await bob.state()
    assert sorted(bob_state["you"]["hand"]) == sorted(hands[1])
    assert bob_state["turn"] == 0 and bob_state["top"] == "R5"
    await watcher.close()
    await table.close()


async def test_refused_commands_get_precise_codes_and_change_nothing(
    live_server: ServerProcess,
) -> None:
    hands = [["R1", "R2", "B7", "B7"], ["G3", "G4", "Y8", "Y8"]]
    table = await make_table(live_server, ["Ann", "Bob"], seed=3, rules=NO_TIMER,
                             deal=deal(hands))
    ann, bob = table.players
    assert (await bob.cmd("start"))["code"] == "forbidden"  # host only
    assert (await ann.cmd("play", card="R1"))["code"] == "wrong_phase"  # lobby
    await ann.ok("start")
    before = await ann.state()
    refusals: list[tuple[Client, dict[str, Any], str]] = [
        (bob, {"type": "play", "card": "G3"}, "not_your_turn"),
        (ann, {"type": "play", "card": "G3"}, "not_in_hand"),
        (ann, {"type": "play", "card": "B7"}, "illegal_play"),
        (ann, {"type": "play", "card": "X9"}, "bad_message"),
        (ann, {"type": "fly"}, "bad_message"),
        (ann, {"type": "catch", "target": "me"}, "bad_message"),
        (ann, {"type": "catch", "target": 1}, "not_catchable"),
        (ann, {"type": "keep"}, "nothing_to_do"),
        (ann, {"type": "give", "card": "R1"}, "not_allowed_by_rules"),
        (bob, {"type": "slap"}, "not_allowed_by_rules"),
        (bob, {"type": "next_round"}, "forbidden"),
        (ann, {"type": "next_round"}, "wrong_phase"),
        (ann, {"type": "start"}, "wrong_phase"),
        (ann, {"type": "challenge"}, "nothing_to_do"),
        (ann, {"type": "chat", "text": "x" * 301}, "bad_message"),
    ]
    for client, message, code in refusals:
        answer = await client.cmd(message.pop("type"), **message)
        assert (answer["type"], answer["code"]) == ("error", code), (message, answer)
        assert answer["message"]
    after = await ann.state()
    assert after.pop("now_ms") >= before.pop("now_ms")  # only the server's clock moved on
    assert after == before
    await table.close()


async def test_accepted_play_is_acked_and_every_connection_sees_the_same_seq(
    live_server: ServerProcess,
) -> None:
    hands = [["R1", "R2", "B7", "B7"], ["G3", "G4", "Y8", "Y8"]]
    table = await make_table(live_server, ["Ann", "Bob"], seed=3, rules=NO_TIMER,
                             deal=deal(hands))
    ann, bob = table.players
    await ann.ok("start")
    watcher = await connect(live_server, table.code)
    await watcher.wait_for(lambda f: f["type"] == "state")
    await ann.ok("play", card="R1")
    seen = [await c.event("played", seat=0) for c in (ann, bob, watcher)]
    assert all(e["card"] == "R1" and e["cards_left"] == 3 for e in seen)
    seqs = {c.frames[c.cursor - 1]["seq"] for c in (ann, bob, watcher)}
    assert len(seqs) == 1
    await watcher.close()
    await table.close()


async def test_a_draw_shows_the_card_to_the_drawer_only(live_server: ServerProcess) -> None:
    hands = [["B7", "B8"], ["G3", "G4", "Y8"]]
    table = await make_table(live_server, ["Ann", "Bob"], seed=4, rules=NO_TIMER,
                             deal=deal(hands, pile=["Y6", "G5"]))
    ann, bob = table.players
    await ann.ok("start")
    await ann.ok("draw")
    mine = await ann.event("drew", seat=0)
    theirs = await bob.event("drew", seat=0)
    assert mine["cards"] == ["Y6"] and mine["count"] == 1
    assert "cards" not in theirs and theirs["count"] == 1
    await table.close()


async def test_drawing_a_playable_card_waits_for_play_or_keep(live_server: ServerProcess) -> None:
    hands = [["B7", "B8"], ["G3", "G4", "Y8"]]
    table = await make_table(live_server, ["Ann", "Bob"], seed=4, rules=NO_TIMER,
                             deal=deal(hands, pile=["R9", "G5"]))
    ann, bob = table.players
    await ann.ok("start")
    await ann.ok("draw")
    state = await ann.state()
    assert state["pending"] == {"kind": "play_drawn", "seat": 0, "card": "R9"}
    assert (await bob.state())["pending"] == {"kind": "play_drawn", "seat": 0}
    assert (await ann.cmd("play", card="B7"))["code"] == "illegal_play"
    await ann.ok("keep")
    assert (await bob.state())["turn"] == 1
    await table.close()


async def test_seq_is_gap_free_for_players_and_spectators(live_server: ServerProcess) -> None:
    hands = [["R1", "R2", "R3", "B7"], ["R4", "R6", "R8", "Y8"]]
    table = await make_table(live_server, ["Ann", "Bob"], seed=5, rules=NO_TIMER,
                             deal=deal(hands))
    ann, bob = table.players
    watcher = await connect(live_server, table.code)
    await ann.ok("start")
    for card_a, card_b in (("R1", "R4"), ("R2", "R6")):
        await ann.ok("play", card=card_a)
        await bob.ok("play", card=card_b)
    await ann.ok("chat", text="gg")
    await watcher.event("chat", text="gg")
    for client in (ann, bob, watcher):
        seqs = [f["seq"] for f in client.frames if f["type"] in ("event", "state")]
        first = seqs[0]
        assert client.frames[0]["type"] == "state"
        assert seqs[1:] == list(range(first + 1, first + len(seqs)))
    await watcher.close()
    await table.close()


async def test_two_racing_plays_exactly_one_applies(live_server: ServerProcess) -> None:
    hands = [["R1", "R2", "B7", "B7"], ["G3", "G4", "Y8", "Y8"]]
    table = await make_table(live_server, ["Ann", "Bob"], seed=6, rules=NO_TIMER,
                             deal=deal(hands))
    ann, _bob = table.players
    await ann.ok("start")
    answers = await asyncio.gather(ann.cmd("play", card="R1"), ann.cmd("play", card="R2"))
    kinds = sorted(a["type"] for a in answers)
    assert kinds == ["ack", "error"]
    error = next(a for a in answers if a["type"] == "error")
    assert error["code"] == "not_your_turn"
    assert (await ann.state())["seats"][0]["cards"] == 3
    await table.close()


async def test_a_command_sent_on_a_stale_seq_is_answered_too_late(
    live_server: ServerProcess,
) -> None:
    hands = [["R1", "R2", "B7"], ["G3", "G4", "Y8"], ["Y3", "Y4", "Y5"]]
    table = await make_table(live_server, ["Ann", "Bob", "Cy"], seed=6, rules=NO_TIMER,
                             deal=deal(hands))
    ann, _bob, cy = table.players
    await ann.ok("start")
    seen = (await cy.state())["seq"]
    await ann.ok("play", card="R1")
    answer = await cy.cmd("play", card="Y3", seq=seen)
    assert (answer["type"], answer["code"]) == ("error", "too_late")
    await table.close()


async def test_bad_json_gets_bad_message_and_the_socket_stays_open(
    live_server: ServerProcess,
) -> None:
    table = await make_table(live_server, ["Ann", "Bob"], seed=1)
    ann = table.players[0]
    await ann.ws.send("{not json")
    error = await ann.wait_for(lambda f: f["type"] == "error")
    assert error["code"] == "bad_message"
    await ann.ws.send("[1, 2]")
    assert (await ann.wait_for(lambda f: f["type"] == "error"))["code"] == "bad_message"
    assert (await ann.state())["phase"] == "lobby"
    await table.close()


async def test_spectators_may_only_watch_chat_among_themselves_and_react(
    live_server: ServerProcess,
) -> None:
    table = await make_table(live_server, ["Ann", "Bob"], seed=1, rules=NO_TIMER)
    await table.players[0].ok("start")
    watcher = await connect(live_server, table.code)
    commands: list[tuple[str, dict[str, Any]]] = [("draw", {}), ("start", {}), ("uno", {}),
                                                  ("leave", {})]
    for kind, fields in commands:
        answer = await watcher.cmd(kind, **fields)
        assert answer["code"] == "forbidden"
    await watcher.ok("chat", text="hi")  # to the other spectators (tests/rooms/test_audience.py)
    await watcher.ok("react", emoji="👀")
    await watcher.close()
    await table.close()


async def test_bad_token_closes_4401_and_unknown_room_4404(live_server: ServerProcess) -> None:
    table = await make_table(live_server, ["Ann", "Bob"], seed=1)
    intruder = await connect(live_server, table.code, token="guess")
    assert (await intruder.wait_closed())[0] == 4401
    lost = await connect(live_server, "QQQQ", token=table.tokens[0])
    assert (await lost.wait_closed())[0] == 4404
    await table.close()


async def test_chat_reaches_everyone_in_the_lobby_and_at_the_table(
    live_server: ServerProcess,
) -> None:
    table = await make_table(live_server, ["Ann", "Bob"], seed=1, rules=NO_TIMER)
    ann, bob = table.players
    await bob.ok("chat", text="  hello   there ")
    assert (await ann.event("chat", seat=1))["text"] == "hello   there"
    await ann.ok("start")
    await ann.ok("chat", text="good luck")
    assert (await bob.event("chat", seat=0))["text"] == "good luck"
    await table.close()


async def test_h_jumpin_race_the_first_play_applies_the_other_is_too_late(
    live_server: ServerProcess,
) -> None:
    hands = [["R7", "R1", "B2"], ["R2", "G7", "B4"], ["Y3", "G4", "Y4"], ["Y5", "R7", "Y6"]]
    table = await make_table(live_server, ["Ann", "Bob", "Cy", "Di"], seed=6,
                             rules={"turn_seconds": 0, "jump_in": True}, deal=deal(hands))
    ann, bob, _cy, di = table.players
    await ann.ok("start")
    await ann.ok("play", card="R7")
    await di.event("played", seat=0)
    seen = di.last_seq
    # Bob plays on his turn while Di jumps in with the twin R7, both on the same seq.
    answers = await asyncio.gather(bob.cmd("play", card="R2", seq=seen),
                                   di.cmd("play", card="R7", seq=seen))
    assert sorted(a["type"] for a in answers) == ["ack", "error"]
    assert next(a for a in answers if a["type"] == "error")["code"] == "too_late"
    state = await ann.state()
    assert (state["top"], state["turn"]) in (("R2", 2), ("R7", 0))
    await table.close()
