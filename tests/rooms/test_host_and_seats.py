"""Host commands (start, rules, add_bot, kick, next_round), the host role passing on, and
O-DISCONNECT replacement by a bot."""

from __future__ import annotations

import asyncio

from tests.server_fixture import ServerProcess

from .client import connect, make_table
from .test_commands import NO_TIMER, deal


async def test_rules_change_in_the_lobby_and_bad_rules_are_refused_clearly(
    live_server: ServerProcess,
) -> None:
    table = await make_table(live_server, ["Ann", "Bob"], seed=1)
    ann, bob = table.players
    await ann.ok("rules", rules={"turn_seconds": 5, "uno_penalty": 4})
    changed = await bob.event("rules_changed")
    assert changed["rules"]["turn_seconds"] == 5 and changed["rules"]["uno_penalty"] == 4
    refused = await ann.cmd("rules", preset="chaos")
    assert refused["code"] == "bad_rules" and "chaos" in refused["message"]
    assert (await ann.cmd("rules", rules={"hand_size": 99}))["code"] == "bad_rules"
    assert (await ann.cmd("rules", rules={"nonsense": 1}))["code"] == "bad_rules"
    assert (await bob.cmd("rules", rules={"turn_seconds": 9}))["code"] == "forbidden"
    assert (await bob.state())["rules"]["turn_seconds"] == 5
    await ann.ok("start")
    assert (await ann.cmd("rules", rules={"turn_seconds": 9}))["code"] == "wrong_phase"
    await table.close()


async def test_a_match_needs_two_players(live_server: ServerProcess) -> None:
    table = await make_table(live_server, ["Ann"], seed=1)
    assert (await table.players[0].cmd("start"))["code"] == "not_enough_players"
    await table.close()


async def test_kick_in_the_lobby_frees_the_seat_and_closes_the_kicked_socket(
    live_server: ServerProcess,
) -> None:
    table = await make_table(live_server, ["Ann", "Bob", "Cy"], seed=1)
    ann, bob, cy = table.players
    await ann.ok("kick", seat=1)
    assert (await bob.wait_closed())[0] == 4403
    left = await cy.event("left")
    assert left["seat"] == 1 and left["reason"] == "kicked" and left["you"] == 1
    assert [s["name"] for s in left["seats"]] == ["Ann", "Cy"]
    state = await cy.state()
    assert state["you"]["seat"] == 1 and len(state["seats"]) == 2
    again = await connect(live_server, table.code, table.tokens[1])
    assert (await again.wait_closed())[0] == 4401
    assert (await ann.cmd("kick", seat=0))["code"] == "bad_target"
    assert (await ann.cmd("kick", seat=7))["code"] == "bad_target"
    await table.close()


async def test_add_bot_seats_a_bot_that_plays_through_the_same_path(
    live_server: ServerProcess,
) -> None:
    hands = [["R1", "B7", "B8"], ["R2", "R3", "G4"]]
    table = await make_table(live_server, ["Ann"], seed=2, rules=NO_TIMER,
                             deal=deal(hands, dealer=1))
    ann = table.players[0]
    await ann.ok("add_bot")
    joined = await ann.event("joined")
    assert joined["bot"] is True and joined["seat"] == 1
    await ann.ok("start")
    await ann.ok("play", card="R1")
    bot_move = await ann.event("played", seat=1)
    assert bot_move["card"] in ("R2", "R3")
    await table.close()


async def test_the_host_role_passes_on_when_the_host_leaves(live_server: ServerProcess) -> None:
    table = await make_table(live_server, ["Ann", "Bob", "Cy"], seed=1)
    ann, bob, cy = table.players
    await ann.close()
    changed = await bob.event("host_changed", timeout=3)
    assert changed == {"kind": "host_changed", "host": 1, "previous": 0}
    await bob.ok("add_bot")
    assert (await cy.state())["host"] == 1
    await table.close()


async def test_leaving_the_lobby_as_host_passes_the_role_at_once(
    live_server: ServerProcess,
) -> None:
    table = await make_table(live_server, ["Ann", "Bob"], seed=1)
    ann, bob = table.players
    await ann.send({"type": "leave"})
    left = await bob.event("left")
    assert left["host"] == 0 and left["you"] == 0 and left["reason"] == "left"
    await bob.ok("add_bot")
    await table.close()


async def test_kick_during_a_match_hands_the_seat_to_a_bot(live_server: ServerProcess) -> None:
    hands = [["R1", "B7", "B8"], ["R2", "R3", "G4"], ["Y1", "Y2", "Y3"]]
    table = await make_table(live_server, ["Ann", "Bob", "Cy"], seed=2, rules=NO_TIMER,
                             deal=deal(hands))
    ann, bob, cy = table.players
    await ann.ok("start")
    await ann.ok("kick", seat=1)
    assert (await bob.wait_closed())[0] == 4403
    replaced = await cy.event("replaced")
    assert replaced["seat"] == 1 and replaced["bot"] is True
    await ann.ok("play", card="R1")
    assert (await cy.event("played", seat=1))["card"] in ("R2", "R3")
    await table.close()


async def test_o_disconnect_a_seat_can_be_given_to_a_bot_only_after_abandon_seconds(
    live_server: ServerProcess,
) -> None:
    hands = [["R1", "B7", "B8"], ["R2", "R3", "G4"], ["Y1", "Y2", "Y3"]]
    table = await make_table(live_server, ["Ann", "Bob", "Cy"], seed=2,
                             rules={"turn_seconds": 0, "abandon_seconds": 1}, deal=deal(hands))
    ann, bob, cy = table.players
    await ann.ok("start")
    early = await ann.cmd("add_bot", seat=1)
    assert early["code"] == "too_early"
    await bob.close()
    await cy.event("presence", seat=1, connected=False)
    assert (await ann.cmd("add_bot", seat=1))["code"] == "too_early"
    await asyncio.sleep(1.05)
    await ann.ok("add_bot", seat=1)
    assert (await cy.event("replaced"))["reason"] == "abandoned"
    await table.close()


async def test_next_round_deals_again_after_a_round_ends(live_server: ServerProcess) -> None:
    hands = [["R1"], ["R2", "R3", "G4"]]
    table = await make_table(live_server, ["Ann", "Bob"], seed=2, rules=NO_TIMER,
                             deal=deal(hands))
    ann, bob = table.players
    await ann.ok("start")
    await ann.ok("play", card="R1")
    over = await bob.event("round_over")
    assert over
    assert (await bob.cmd("next_round"))["code"] == "forbidden"
    await ann.ok("next_round")
    started = await bob.event("round_started", round=2)
    assert len(started["hand"]) == 7
    assert (await ann.state())["phase"] == "playing"
    await table.close()
