"""Quick match ("Play now", POST /api/quick): a seat in the fullest public room with the official
rules waiting for players, or a new room when none has one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.rooms.client import TIMEOUT, connect
from tests.server_fixture import ServerProcess, running_server


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    with running_server() as running:  # its own: no other test's rooms on the list
        yield running


async def post(server: ServerProcess, path: str, body: dict[str, Any]) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.http_url, timeout=TIMEOUT) as http:
        answer = await http.post(path, json=body)
    assert answer.status_code in (200, 201, 202), answer.text
    found: dict[str, Any] = answer.json()
    return found


async def room_of(server: ServerProcess, names: list[str], **create: Any) -> dict[str, Any]:
    made = await post(server, "/api/rooms", {"name": names[0], **create})
    for name in names[1:]:
        await post(server, f"/api/rooms/{made['code']}/join", {"name": name})
    return made


async def test_play_now_seats_a_person_in_the_fullest_official_room_waiting_for_players(
    server: ServerProcess,
) -> None:
    small = await room_of(server, ["Ann"])
    fuller = await room_of(server, ["Bob", "Cid"])
    await room_of(server, ["Dan", "Eve", "Fay"], preset="house")  # not the official rules
    await room_of(server, ["Gus", "Hal", "Ida"], rules={"jump_in": True})  # a toggle changed
    await room_of(server, ["Jo", "Kim", "Lu"], public=False)
    await room_of(server, ["Mo", "Ned", "Oz"], approval=True)
    playing = await room_of(server, ["Pat", "Quin", "Ray"], rules={"turn_seconds": 0})
    host = await connect(server, playing["code"], playing["token"], 0)
    await host.ok("start")

    zoe = await post(server, "/api/quick", {"name": "Zoe"})
    assert (zoe["code"], zoe["seat"]) == (fuller["code"], 2)
    yan = await post(server, "/api/quick", {"name": "Yan"})
    assert (yan["code"], yan["seat"]) == (fuller["code"], 3)
    table = await connect(server, zoe["code"], zoe["token"], 2)
    state = await table.state()
    assert [s["name"] for s in state["seats"]] == ["Bob", "Cid", "Zoe", "Yan"]
    assert small["code"] != zoe["code"]
    await table.close()
    await host.close()


async def test_play_now_opens_a_room_with_the_person_as_host_when_none_waits() -> None:
    with running_server() as fresh:
        await room_of(fresh, ["Dan"], preset="house")
        sol = await post(fresh, "/api/quick", {"name": "Sol"})
        assert sol["seat"] == 0
        async with httpx.AsyncClient(base_url=fresh.http_url, timeout=TIMEOUT) as http:
            summary = (await http.get(f"/api/rooms/{sol['code']}")).json()
        assert (summary["public"], summary["preset"], summary["phase"], summary["host"]) == (
            True, "official", "lobby", "Sol")
        tim = await post(fresh, "/api/quick", {"name": "Tim"})
        assert (tim["code"], tim["seat"]) == (sol["code"], 1)  # the next one joins it
