"""A league room plays by the league's scoring and target: no host command changes them, and the
match counts in the league as the league's rules say (issue 18, finding 8)."""

from __future__ import annotations

from tests.api.hostile import Stranger, server
from tests.api.test_secrets import ONE_CARD_MATCH
from tests.server_fixture import ServerProcess

__all__ = ["server"]


async def test_a_league_rooms_host_cannot_change_the_leagues_rules_and_the_match_counts(
    server: ServerProcess,
) -> None:
    stranger = Stranger(server)
    ann_key = (await stranger.post("/api/players", {"name": "Ann"})).json()["key"]
    bob_key = (await stranger.post("/api/players", {"name": "Bob"})).json()["key"]
    made = await stranger.post("/api/leagues", {"name": "Tuesdays", "scoring": "lowest_wins",
                                                  "target": 10})
    league = made.json()["id"]
    room = await stranger.create("Ann", league=league, player_key=ann_key, deal=ONE_CARD_MATCH,
                                 rules={"turn_seconds": 0, "target": 1000,
                                        "scoring": "winner_takes"})
    joined = await stranger.post(f"/api/rooms/{room['code']}/join",
                                 {"name": "Bob", "player_key": bob_key})
    bob = joined.json()
    ann = await stranger.connect(room["code"], room["token"])
    bob_socket = await stranger.connect(room["code"], bob["token"])
    state = (await ann.wait_for(lambda f: f["type"] == "state"))["state"]
    assert (state["rules"]["scoring"], state["rules"]["target"]) == ("lowest_wins", 10)

    for rules in ({"target": 1}, {"scoring": "winner_takes"}, {"scoring": "lazy", "target": 1}):
        refused = await ann.cmd("rules", rules=rules)
        assert (refused["type"], refused["code"]) == ("error", "forbidden"), rules
    await ann.ok("rules", preset="house", rules={"jump_in": False})
    changed = await ann.event("rules_changed")
    assert (changed["rules"]["scoring"], changed["rules"]["target"]) == ("lowest_wins", 10)
    assert changed["preset"] == "house" and changed["rules"]["stacking"] == "progressive"
    await ann.ok("rules", rules={"target": 10})  # the league's own value is no change

    await ann.ok("start")
    await ann.ok("play", card="R5")  # Ann goes out; Bob holds 19 points: over 10, he loses
    over = await ann.event("match_over")
    assert (over["winners"], over["losers"]) == ([0], [1])
    table = (await stranger.get(f"/api/leagues/{league}")).json()
    rows = {row["name"]: row for row in table["standings"]}
    assert (rows["Ann"]["matches"], rows["Ann"]["losses"]) == (1, 0)
    assert (rows["Bob"]["matches"], rows["Bob"]["losses"]) == (1, 1)
    assert [row["name"] for row in table["standings"]] == ["Ann", "Bob"]
    for client in (ann, bob_socket):
        await client.close()
