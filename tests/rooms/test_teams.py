"""H-TEAMS through the room, the history and a league: partners sit opposite, win (or lose)
together, and the league counts the team's result for each partner."""

from __future__ import annotations

import httpx

from tests.rooms.client import Table, connect
from tests.rooms.test_commands import deal
from tests.server_fixture import ServerProcess

HANDS = [["R5"], ["B9", "G3", "Y7"], ["G1", "G2"], ["Y1", "B2"]]


async def test_h_teams_partners_win_together_in_the_history_and_in_the_league(
    live_server: ServerProcess,
) -> None:
    names = ["Ann", "Bob", "Cid", "Dee"]
    async with httpx.AsyncClient(base_url=live_server.http_url) as http:
        keys = [(await http.post("/api/players", json={"name": n})).json()["key"] for n in names]
        league = (await http.post("/api/leagues", json={
            "name": "Pairs", "scoring": "winner_takes", "target": 1})).json()["id"]
        made = await http.post("/api/rooms", json={
            "name": "Ann", "preset": "teams", "rules": {"turn_seconds": 0}, "league": league,
            "player_key": keys[0], "deal": deal(HANDS, discard="R1")})
        room = made.json()
        assert (await http.get(f"/api/rooms/{room['code']}")).json()["max_players"] == 4
    players = Table(live_server, room["code"])
    players.tokens.append(room["token"])
    async with httpx.AsyncClient(base_url=live_server.http_url) as http:
        for name, key in zip(names[1:], keys[1:], strict=True):
            joined = await http.post(f"/api/rooms/{room['code']}/join",
                                     json={"name": name, "player_key": key})
            players.tokens.append(joined.json()["token"])
    for seat, token in enumerate(players.tokens):
        client = await connect(live_server, room["code"], token, seat)
        await client.wait_for(lambda f: f["type"] == "state")
        players.players.append(client)
    ann = players.players[0]
    await ann.ok("start")
    state = await ann.state()
    assert [seat["team"] for seat in state["seats"]] == [0, 1, 0, 1]  # partners opposite
    await ann.ok("play", card="R5")  # Ann goes out: her team wins the round and the match
    over = await ann.event("match_over")
    assert over["winners"] == [0, 2] and over["places"] == [1, 2, 1, 2]
    assert over["teams"] == [[0, 2], [1, 3]] and over["team_scores"][0] > 0
    async with httpx.AsyncClient(base_url=live_server.http_url) as http:
        match = (await http.get(f"/api/matches/{over.get('match') or state['match']}")).json()
        assert match["teams"] == [[0, 2], [1, 3]] and match["winner_names"] == ["Ann", "Cid"]
        assert match["team_scores"] == over["team_scores"]
        table = (await http.get(f"/api/leagues/{league}")).json()
    rows = {row["name"]: row for row in table["standings"]}
    for partner in ("Ann", "Cid"):
        assert (rows[partner]["wins"], rows[partner]["rounds_won"]) == (1, 1), rows[partner]
    for partner in ("Bob", "Dee"):
        assert (rows[partner]["wins"], rows[partner]["losses"]) == (0, 1), rows[partner]
    await players.close()
