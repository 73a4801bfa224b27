"""The history endpoints of PROTOCOL.md over HTTP, on a tiny app built around the router."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from app.api.history import router
from app.store.history import HistoryStore, MatchPlayer
from tests.store.scripted import Recorder, ScriptedMatch


@pytest.fixture
async def client(history: HistoryStore) -> AsyncIterator[httpx.AsyncClient]:
    app = FastAPI()
    app.state.history = history
    app.include_router(router)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        yield http


async def test_players_leagues_and_matches_over_http(
    client: httpx.AsyncClient, recorder: Recorder
) -> None:
    created = await client.post("/api/players", json={"name": "Ann"})
    assert created.status_code == 201
    ann = created.json()
    assert set(ann) == {"id", "name", "key"}
    league = await client.post("/api/leagues", json={"name": "Fri", "scoring": "winner_takes"})
    assert league.status_code == 201
    league_id = league.json()["id"]

    await recorder.open_room("HTTP")
    match_id = await recorder.play(
        "HTTP",
        [MatchPlayer("Ann", ann["id"]), MatchPlayer("Bot", bot=True)],
        ScriptedMatch("winner_takes", 500, [(0, [0, 500])]),
        league_id,
    )

    match = (await client.get(f"/api/matches/{match_id}")).json()
    assert (match["winner_names"], match["totals"]) == (["Ann"], [500, 0])
    assert match["rounds"][0]["hand_points"] == [0, 500]
    events = (await client.get(f"/api/matches/{match_id}/events")).json()
    assert [line["command"]["type"] for line in events["log"]] == ["start", "play", "timeout"]
    player = (await client.get(f"/api/players/{ann['id']}")).json()
    assert (player["name"], player["wins"]) == ("Ann", 1)
    assert "key" not in player
    recent = (await client.get(f"/api/players/{ann['id']}/matches?limit=5")).json()
    assert [m["id"] for m in recent["matches"]] == [match_id]
    table = (await client.get(f"/api/leagues/{league_id}")).json()
    assert (table["name"], table["scoring"], table["target"]) == ("Fri", "winner_takes", 500)
    assert [(r["name"], r["wins"], r["points"]) for r in table["standings"]] == [("Ann", 1, 500)]


async def test_the_league_list_shows_every_league_newest_first_a_page_at_a_time(
    client: httpx.AsyncClient, recorder: Recorder
) -> None:
    empty = await client.get("/api/leagues")
    assert empty.status_code == 200
    assert empty.json() == {"leagues": [], "next": None}

    ids = []
    for name, scoring in [("Mon", "winner_takes"), ("Tue", "lowest_wins"), ("Wed", "winner_takes")]:
        created = await client.post("/api/leagues", json={"name": name, "scoring": scoring})
        ids.append(created.json()["id"])
    ann = (await client.post("/api/players", json={"name": "Ann"})).json()
    bea = (await client.post("/api/players", json={"name": "Bea"})).json()
    await recorder.open_room("LIST")
    for _ in range(2):
        await recorder.play(
            "LIST",
            [MatchPlayer("Ann", ann["id"]), MatchPlayer("Bea", bea["id"])],
            ScriptedMatch("lowest_wins", 200, [(0, [0, 250])]),
            ids[1],
        )

    listed = (await client.get("/api/leagues")).json()
    assert listed["next"] is None
    rows = listed["leagues"]
    assert [r["name"] for r in rows] == ["Wed", "Tue", "Mon"]  # newest first
    tue = rows[1]
    assert (tue["id"], tue["scoring"], tue["target"]) == (ids[1], "lowest_wins", 200)
    assert (tue["matches"], tue["players"]) == (2, 2)
    assert (rows[0]["matches"], rows[0]["players"], rows[0]["target"]) == (0, 0, 500)
    assert all(r["created_at"] for r in rows)

    first = (await client.get("/api/leagues?limit=2")).json()
    assert [r["name"] for r in first["leagues"]] == ["Wed", "Tue"]
    assert first["next"] == ids[1]
    second = (await client.get(f"/api/leagues?limit=2&before={first['next']}")).json()
    assert [r["name"] for r in second["leagues"]] == ["Mon"]
    assert second["next"] is None

    for query in ("limit=0", "limit=101", "limit=x", "before=abc"):
        refused = await client.get(f"/api/leagues?{query}")
        assert refused.status_code == 400, query
        assert refused.json()["error"]["code"] == "bad_request"


MISTAKES = [
    ("get", "/api/matches/999", None, 404, "not_found"),
    ("get", "/api/matches/abc", None, 404, "not_found"),
    ("get", "/api/matches/999/events", None, 404, "not_found"),
    ("get", "/api/players/7", None, 404, "not_found"),
    ("get", "/api/players/7/matches", None, 404, "not_found"),
    ("get", "/api/leagues/3", None, 404, "not_found"),
    ("post", "/api/players", {"name": ""}, 400, "bad_request"),
    ("post", "/api/players", {"name": 5}, 400, "bad_request"),
    ("post", "/api/players", [1], 400, "bad_request"),
    ("post", "/api/leagues", {"name": "x", "scoring": "lazy"}, 400, "bad_request"),
    (
        "post",
        "/api/leagues",
        {"name": "x", "scoring": "lowest_wins", "target": "a"},
        400,
        "bad_request",
    ),
]


async def test_mistakes_get_json_errors(client: httpx.AsyncClient) -> None:
    for method, path, body, status, code in MISTAKES:
        response = await client.request(method, path, json=body)
        assert response.status_code == status, (method, path, body)
        error = response.json()["error"]
        assert error["code"] == code and error["message"], (method, path, body)


async def test_a_body_that_is_not_json_is_refused(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/players", content=b"{nope")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_request"


async def test_without_a_database_the_endpoints_say_so() -> None:
    app = FastAPI()
    app.include_router(router)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        response = await http.get("/api/leagues/1")
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "unavailable"
