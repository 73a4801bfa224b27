"""Whole games between scripted players and bots, recorded frame by frame: no frame ever
carries a card its receiver may not see (O-HIDDEN), and the bots play (O-BOTS)."""

from __future__ import annotations

from typing import Any

from tests.server_fixture import ServerProcess

from .client import Client, Frame, connect, make_table
from .scripted import play_until_round_over
from .test_commands import NO_TIMER, deal

# Both copies of each marker are dealt to one scripted seat, which never plays them.
MARKERS = {0: frozenset({"B7"}), 1: frozenset({"Y8"})}
HANDS = [
    ["B7", "B7", "R1", "G2", "Y3", "R4", "G5"],
    ["Y8", "Y8", "R6", "G7", "B2", "R3", "G9"],
    ["R7", "G3", "Y4", "B4", "R8", "Y5", "G6"],
    ["B5", "Y6", "G8", "R2", "B9", "Y1", "G1"],
]


def strings_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


def round_is_over(frame: Frame) -> bool:
    if frame["type"] == "event":
        return bool(frame["event"]["kind"] == "round_over")
    return frame["type"] == "state" and frame["state"]["phase"] in ("round_over", "match_over")


def leaked(client: Client, markers: dict[int, frozenset[str]]) -> list[tuple[int, str]]:
    """(seat, card) for every hidden card of another seat found in this client's frames,
    up to the end of the round (when every hand is shown to all)."""
    found: list[tuple[int, str]] = []
    for frame in client.frames:
        if round_is_over(frame):
            break
        seen = strings_in(frame)
        for seat, cards in markers.items():
            if seat != client.seat:
                found.extend((seat, card) for card in cards & seen)
    return found


async def test_o_hidden_a_game_with_bots_leaks_no_card_to_any_socket(
    live_server: ServerProcess,
) -> None:
    table = await make_table(
        live_server, ["Ann", "Bob"], seed=11, rules={"turn_seconds": 0, "deck": "classic",
                                                     "target": 1},
        deal=deal(HANDS, dealer=3),
    )
    ann, bob = table.players
    await ann.ok("add_bot")
    await ann.ok("add_bot")
    watcher = await connect(live_server, table.code)
    await ann.ok("start")
    await play_until_round_over([ann, bob], avoid=MARKERS)
    for client in (ann, bob, watcher):
        over = await client.event("match_over", timeout=5)
        assert over
    assert (await watcher.state())["phase"] == "match_over"
    played_by_bots = [
        f["event"] for f in watcher.frames
        if f["type"] == "event" and f["event"]["kind"] == "played" and f["event"]["seat"] >= 2
    ]
    assert played_by_bots, "the bots never played"
    # Positive control: each marker does reach its own holder.
    assert "B7" in strings_in(ann.frames) and "Y8" in strings_in(bob.frames)
    for client in (ann, bob, watcher):
        assert leaked(client, MARKERS) == []
    await watcher.close()
    await table.close()


async def test_o_hidden_a_challenge_shows_the_offenders_hand_to_the_challenger_only(
    live_server: ServerProcess,
) -> None:
    hands = [["W+4", "R1", "R2", "B7"], ["G3", "G4", "Y8"], ["Y3", "Y4", "B5"]]
    table = await make_table(live_server, ["Ann", "Bob", "Cy"], seed=12, rules=NO_TIMER,
                             deal=deal(hands))
    ann, bob, cy = table.players
    watcher = await connect(live_server, table.code)
    await ann.ok("start")
    await ann.ok("play", card="W+4", color="G")
    await bob.ok("challenge")
    revealed = await bob.event("challenged")
    assert revealed["guilty"] is True and sorted(revealed["hand"]) == ["B7", "R1", "R2"]
    for other in (ann, cy, watcher):
        assert "hand" not in await other.event("challenged")
    penalty = await cy.event("drew", seat=0, reason="challenge")
    assert penalty["count"] == 4 and "cards" not in penalty
    for client in (bob, cy, watcher):
        assert leaked(client, {0: frozenset({"B7"})}) == ([] if client is not bob else
                                                          [(0, "B7")])
    await watcher.close()
    await table.close()


async def test_o_bots_catch_a_player_who_forgot_uno(live_server: ServerProcess) -> None:
    hands = [["R1", "R2"], ["G3", "G4", "Y8", "Y9"]]
    table = await make_table(live_server, ["Ann"], seed=13, rules=NO_TIMER,
                             deal=deal(hands, dealer=1, pile=["G1", "G2", "G6"]))
    ann = table.players[0]
    await ann.ok("add_bot")
    await ann.ok("start")
    await ann.ok("play", card="R1")  # one card left and no UNO called
    assert await ann.event("caught") == {"kind": "caught", "seat": 0, "by": 1}
    assert (await ann.event("drew", seat=0, reason="uno_penalty"))["cards"] == ["G1", "G2"]
    await table.close()


async def test_o_bots_challenge_a_wild_draw_four_when_the_odds_favour_it(
    live_server: ServerProcess,
) -> None:
    hands = [["W+4", "R1", "R2", "R3", "R4", "R6", "R7", "R8"], ["G3", "G4", "Y8", "Y9"]]
    table = await make_table(live_server, ["Ann"], seed=14, rules=NO_TIMER,
                             deal=deal(hands, dealer=1))
    ann = table.players[0]
    await ann.ok("add_bot")
    await ann.ok("start")
    await ann.ok("play", card="W+4", color="G")
    verdict = await ann.event("challenged", timeout=5)
    assert verdict["seat"] == 1 and verdict["guilty"] is True and "hand" not in verdict
    await table.close()
