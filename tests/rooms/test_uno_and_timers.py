"""U-CALL / U-CATCH over the wire, the catch window (O-WINDOW), and the turn timer (O-TIMER)."""

from __future__ import annotations

import asyncio

from tests.server_fixture import ServerProcess

from .client import make_table
from .test_commands import NO_TIMER, deal

THREE = [["R1", "R2", "B7"], ["G3", "G4", "Y8"], ["Y3", "Y4", "B5"]]


async def test_u_catch_a_player_who_did_not_call_uno_draws_two(
    live_server: ServerProcess,
) -> None:
    table = await make_table(live_server, ["Ann", "Bob", "Cy"], seed=7, rules=NO_TIMER,
                             deal=deal(THREE, pile=["G9", "Y7", "B2", "B3"]))
    ann, bob, cy = table.players
    await ann.ok("start")
    await ann.ok("play", card="R1")
    assert (await cy.state())["catchable"] == []
    # Ann holds two; Bob plays, Cy plays, Ann plays her second-to-last card without calling.
    await bob.ok("draw")
    await cy.ok("draw")
    state = await ann.state()
    assert state["turn"] == 0
    await ann.ok("play", card="R2")
    assert (await cy.state())["catchable"] == [0]
    await cy.ok("catch", target=0)
    caught = await bob.event("caught")
    assert caught == {"kind": "caught", "seat": 0, "by": 2}
    assert (await ann.event("drew", seat=0, reason="uno_penalty"))["count"] == 2
    assert "cards" not in await bob.event("drew", seat=0, reason="uno_penalty")
    # A second catch of the same slip is refused.
    assert (await bob.cmd("catch", target=0))["code"] == "not_catchable"
    await table.close()


async def test_o_window_closes_when_the_next_player_acts(live_server: ServerProcess) -> None:
    hands = [["R1", "R2"], ["G3", "G4", "Y8"], ["Y3", "Y4", "B5"]]
    table = await make_table(live_server, ["Ann", "Bob", "Cy"], seed=7, rules=NO_TIMER,
                             deal=deal(hands, pile=["G9", "Y7", "B2"]))
    ann, bob, cy = table.players
    await ann.ok("start")
    await ann.ok("play", card="R1")  # one card left, no UNO called
    await bob.ok("draw")  # the next player acts: the window closes
    answer = await cy.cmd("catch", target=0)
    assert (answer["type"], answer["code"]) == ("error", "not_catchable")
    await table.close()


async def test_u_call_with_the_play_makes_a_catch_fail(live_server: ServerProcess) -> None:
    hands = [["R1", "R2"], ["G3", "G4", "Y8"], ["Y3", "Y4", "B5"]]
    table = await make_table(live_server, ["Ann", "Bob", "Cy"], seed=7, rules=NO_TIMER,
                             deal=deal(hands))
    ann, _bob, cy = table.players
    await ann.ok("start")
    await ann.ok("play", card="R1", uno=True)
    assert await cy.event("uno_called") == {"kind": "uno_called", "seat": 0}
    assert (await cy.cmd("catch", target=0))["code"] == "not_catchable"
    await table.close()


async def test_u_call_after_the_play_but_before_a_catch_is_safe(
    live_server: ServerProcess,
) -> None:
    hands = [["R1", "R2"], ["G3", "G4", "Y8"], ["Y3", "Y4", "B5"]]
    table = await make_table(live_server, ["Ann", "Bob", "Cy"], seed=7, rules=NO_TIMER,
                             deal=deal(hands))
    ann, bob, cy = table.players
    await ann.ok("start")
    await ann.ok("play", card="R1")
    # The catch and the call race: whichever the room receives first wins, never both.
    answers = await asyncio.gather(ann.cmd("uno"), cy.cmd("catch", target=0))
    assert sorted(a["type"] for a in answers) == ["ack", "error"]
    assert (await bob.state())["catchable"] == []
    await table.close()


async def test_o_timer_acts_for_a_player_whose_turn_runs_out(live_server: ServerProcess) -> None:
    hands = [["B7", "B8"], ["G3", "G4", "Y8"]]
    table = await make_table(live_server, ["Ann", "Bob"], seed=8, rules={"turn_seconds": 1},
                             deal=deal(hands, pile=["Y6", "G5"]))
    ann, bob = table.players
    await ann.ok("start")
    timed_out = await bob.event("timed_out", timeout=4)
    assert timed_out == {"kind": "timed_out", "seat": 0, "waited": "turn"}
    assert (await ann.event("drew", seat=0, reason="timeout"))["cards"] == ["Y6"]
    assert (await bob.state())["turn"] == 1
    await table.close()
