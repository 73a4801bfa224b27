"""The HTTP API in-process (memory store): rooms, JSON errors, health, metrics, OpenAPI; and the
server clock in the socket's state (a real server)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import httpx
import pytest

from app.config import Settings
from app.main import create_app
from tests.rooms.client import connect, make_table
from tests.server_fixture import ServerProcess


async def client_for(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield client


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async for client in client_for(Settings(database_url="memory://", unknown_code_rate=5)):
        yield client


@pytest.fixture
async def testing_http() -> AsyncIterator[httpx.AsyncClient]:
    async for client in client_for(Settings(database_url="memory://", testing=True)):
        yield client


def error_code(response: httpx.Response) -> str:
    body = response.json()
    assert set(body) == {"error"} and body["error"]["message"]
    assert "Traceback" not in response.text
    code: str = body["error"]["code"]
    return code


async def test_create_gives_seat_0_a_secret_token_and_makes_it_host(
    http: httpx.AsyncClient,
) -> None:
    made = await http.post("/api/rooms", json={"name": "Ann", "max_players": 3})
    assert made.status_code == 201
    body = made.json()
    assert body["seat"] == 0 and len(body["token"]) >= 24 and len(body["code"]) == 4
    summary = (await http.get(f"/api/rooms/{body['code'].lower()}")).json()
    assert summary["host"] == "Ann" and summary["phase"] == "lobby" and summary["open"]
    assert body["token"] not in str(summary)


async def test_join_takes_the_next_seat_until_the_table_is_full(http: httpx.AsyncClient) -> None:
    code = (await http.post("/api/rooms", json={"name": "Ann", "max_players": 2})).json()["code"]
    joined = await http.post(f"/api/rooms/{code}/join", json={"name": "Bob"})
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    full = await http.post(f"/api/rooms/{code}/join", json={"name": "Cy"})
    assert full.status_code == 409 and error_code(full) == "room_full"


async def test_public_rooms_are_listed_and_private_ones_are_not(
    http: httpx.AsyncClient,
) -> None:
    public = (await http.post("/api/rooms", json={"name": "Ann"})).json()["code"]
    private = (await http.post("/api/rooms", json={"name": "Bo", "public": False})).json()["code"]
    codes = {room["code"] for room in (await http.get("/api/rooms")).json()}
    assert public in codes and private not in codes


async def test_bad_requests_get_json_errors_with_fitting_statuses(
    http: httpx.AsyncClient,
) -> None:
    cases = [
        ({"name": ""}, 422, "bad_request"),
        ({"name": "x" * 33}, 422, "bad_request"),
        ({"name": "Ann", "max_players": 11}, 422, "bad_request"),
        ({"name": "Ann", "preset": "chaos"}, 400, "bad_rules"),
        ({"name": "Ann", "rules": {"hand_size": 2}}, 400, "bad_rules"),
        ({"name": "Ann", "deal": {"hands": [["R1"], ["R2"]], "discard": "R5"}}, 403,
         "forbidden"),
    ]
    for body, status, code in cases:
        response = await http.post("/api/rooms", json=body)
        assert (response.status_code, error_code(response)) == (status, code), body
    json_type = {"content-type": "application/json"}
    broken = await http.post("/api/rooms", content=b"{", headers=json_type)
    assert broken.status_code == 422 and error_code(broken) == "bad_request"
    assert error_code(await http.get("/api/nowhere")) == "not_found"


async def test_rigged_deals_are_checked_against_the_deck(testing_http: httpx.AsyncClient) -> None:
    too_many = {"hands": [["R1", "R1", "R1"], ["R2"]], "discard": "R5"}
    response = await testing_http.post("/api/rooms", json={"name": "Ann", "deal": too_many})
    assert response.status_code == 400 and error_code(response) == "bad_deal"
    assert "R1" in response.json()["error"]["message"]
    fine = {"hands": [["R1", "R1"], ["R2"]], "discard": "R5", "draw_pile": ["G2"]}
    assert (await testing_http.post("/api/rooms", json={"name": "Ann", "deal": fine,
                                                        "seed": 5})).status_code == 201


async def test_unknown_room_codes_are_404_then_rate_limited(http: httpx.AsyncClient) -> None:
    for _ in range(5):
        missing = await http.get("/api/rooms/QQQQ")
        assert missing.status_code == 404 and error_code(missing) == "unknown_room"
    limited = await http.post("/api/rooms/QQQQ/join", json={"name": "Eve"})
    assert limited.status_code == 429 and error_code(limited) == "rate_limited"


async def test_health_ready_metrics_and_openapi(http: httpx.AsyncClient) -> None:
    health = (await http.get("/healthz")).json()
    assert (health["status"], health["engine"]) == ("ok", "sources") and health["build"]
    ready = await http.get("/readyz")
    assert ready.status_code == 200 and ready.json()["database"] == "ok"
    await http.post("/api/rooms", json={"name": "Ann"})
    metrics = (await http.get("/metrics")).text
    for name in ("uno_rooms 1", "uno_sockets 0", "uno_commands_total",
                 "uno_command_latency_seconds_bucket", "uno_commands_per_second",
                 "uno_bus_connected 1", "uno_bus_reconnects_total 0"):
        assert name in metrics
    paths = (await http.get("/openapi.json")).json()["paths"]
    assert {"/api/rooms", "/api/rooms/{code}", "/api/rooms/{code}/join"} <= set(paths)


async def test_every_state_carries_the_servers_clock_next_to_the_deadline(
    live_server: ServerProcess,
) -> None:
    """``now_ms`` is the server's time when the state was made, on the clock of ``deadline_ms``:
    a client counts down ``deadline_ms - now_ms`` whatever its own clock says."""
    table = await make_table(live_server, ["Ann", "Bob"], seed=3, rules={"turn_seconds": 30})
    ann = table.players[0]
    lobby = next(f for f in ann.frames if f["type"] == "state")["state"]
    assert abs(lobby["now_ms"] - time.time() * 1000) < 2000
    assert lobby["deadline_ms"] is None

    await ann.ok("start")
    before = time.time() * 1000
    playing = await ann.state()
    after = time.time() * 1000
    assert playing["phase"] == "playing"
    assert before - 50 <= playing["now_ms"] <= after + 50  # same machine, same clock
    assert 25_000 <= playing["deadline_ms"] - playing["now_ms"] <= 30_000

    watcher = await connect(live_server, table.code)  # spectators count down too
    seen = (await watcher.wait_for(lambda f: f["type"] == "state"))["state"]
    assert abs(seen["now_ms"] - time.time() * 1000) < 2000
    assert seen["deadline_ms"] == playing["deadline_ms"]
    await watcher.close()
    await table.close()
