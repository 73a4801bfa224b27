"""A match played at a live table is recorded: GET /api/matches/{id} shows its rounds, final
hands and winner; a league room counts the result in the league's standings."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.server_fixture import ServerProcess

from .client import make_table
from .test_commands import NO_TIMER, deal


async def test_a_finished_match_is_in_the_history_with_its_final_hands(
    live_server: ServerProcess,
) -> None:
    async with httpx.AsyncClient(base_url=live_server.http_url, timeout=5) as http:
        profile = (await http.post("/api/players", json={"name": "Ann"})).json()
        league = (await http.post("/api/leagues", json={"name": "Fri", "scoring": "winner_takes",
                                                        "target": 1})).json()["id"]
    table = await make_table(live_server, ["Ann", "Bob"], seed=31, rules=NO_TIMER,
                             deal=deal([["R1"], ["G3", "G4"]]), player_key=profile["key"],
                             league=league)  # the id as POST /api/leagues gave it
    ann, bob = table.players
    await ann.ok("start")
    match = (await ann.state())["match"]
    await ann.ok("play", card="R1")
    await bob.event("match_over")
    async with httpx.AsyncClient(base_url=live_server.http_url, timeout=5) as http:
        recorded = await http.get(f"/api/matches/{match}")
        assert recorded.status_code == 200, recorded.text
        text = recorded.text
        assert '"G3"' in text and '"G4"' in text  # Bob's final hand
        standings = (await http.get(f"/api/leagues/{league}")).json()["standings"]
    assert standings[0]["player"] == profile["id"] and standings[0]["wins"] == 1
    await table.close()
    database = Path(live_server.env["UNO_DATABASE_URL"].split("///", 1)[1])
    files = (database, database.with_name(database.name + "-wal"))
    stored = b"".join(f.read_bytes() for f in files if f.exists())
    assert profile["key"].encode() not in stored  # the browser's secret key is never stored
