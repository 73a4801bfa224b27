"""People apart from seats (PROTOCOL.md "People, not only seats"): a spectator who takes a token
of their own keeps one identity (an id, a name) across reconnects and a restart of the server,
is told who they are in ``state.you``, chats under their name to the other spectators only,
counts among the watchers, and may do no more than any spectator."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.rooms import RoomError, spectators
from app.rooms.meta import RoomMeta, SeatInfo
from app.rooms.state import RoomState
from tests.server_fixture import ServerProcess, running_server

from .client import TIMEOUT, connect, make_table


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    with running_server(UNO_TOKENS_PER_MINUTE="8") as running:
        yield running


async def watch(server: ServerProcess, code: str, **body: Any) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.http_url, timeout=TIMEOUT) as http:
        return await http.post(f"/api/rooms/{code}/watch", json=body)


async def test_a_named_spectator_keeps_its_id_and_name_across_reconnects_and_a_restart(
    server: ServerProcess,
) -> None:
    table = await make_table(server, ["Ann", "Bob"], rules={"turn_seconds": 0})
    granted = await watch(server, table.code, name="Zoe")
    assert granted.status_code == 200, granted.text
    body = granted.json()
    assert body["code"] == table.code and isinstance(body["spectator"], int)
    assert body["token"] not in server.full_log()
    for _ in range(2):
        zoe = await connect(server, table.code, body["token"])
        you = (await zoe.state())["you"]
        assert you == {"spectator": body["spectator"], "name": "Zoe", "queued": None}
        await zoe.close()
    await table.close()
    server.restart()
    zoe = await connect(server, table.code, body["token"])
    assert (await zoe.state())["you"]["spectator"] == body["spectator"]
    await zoe.close()


async def test_a_named_spectator_chats_under_its_name_to_spectators_only(
    server: ServerProcess,
) -> None:
    table = await make_table(server, ["Ann", "Bob"], rules={"turn_seconds": 0})
    ann, _bob = table.players
    await ann.ok("start")
    token = (await watch(server, table.code, name="Zoe")).json()["token"]
    zoe = await connect(server, table.code, token)
    stranger = await connect(server, table.code)
    await zoe.state()
    await stranger.state()
    await zoe.ok("chat", text="go Ann!")
    heard = await stranger.wait_for(lambda f: f["type"] == "spectator_chat")
    assert (heard["name"], heard["text"]) == ("Zoe", "go Ann!")
    await stranger.ok("chat", text="me too")
    anonymous = await zoe.wait_for(lambda f: f["type"] == "spectator_chat"
                                   and f["text"] == "me too")
    assert anonymous["name"] is None and isinstance(anonymous["spectator"], int)
    assert not [f for f in ann.frames if f["type"] == "spectator_chat"]
    refused = await zoe.cmd("draw")
    assert (refused["type"], refused["code"]) == ("error", "forbidden")
    assert (await ann.state())["spectators"] == 2
    for client in (zoe, stranger):
        await client.close()
    await table.close()


async def test_a_spectator_without_a_name_is_still_one_person_and_a_bad_token_is_refused(
    server: ServerProcess,
) -> None:
    table = await make_table(server, ["Ann"], rules={"turn_seconds": 0})
    body = (await watch(server, table.code)).json()
    quiet = await connect(server, table.code, body["token"])
    assert (await quiet.state())["you"] == {"spectator": body["spectator"], "name": None,
                                            "queued": None}
    await quiet.close()
    forged = await connect(server, table.code, "A" * 32)
    assert (await forged.wait_closed())[0] == 4401
    await table.close()


async def test_one_client_asking_for_many_tokens_is_slowed_down(server: ServerProcess) -> None:
    table = await make_table(server, ["Ann"], rules={"turn_seconds": 0})
    answers = [await watch(server, table.code, name=f"Fan {n}") for n in range(12)]
    statuses = [answer.status_code for answer in answers]
    assert 429 in statuses and statuses.index(429) <= 8
    limited = answers[statuses.index(429)]
    assert limited.json()["error"]["code"] == "rate_limited"
    assert int(limited.headers["Retry-After"]) >= 1
    await table.close()


def test_named_spectators_are_kept_within_a_bound_the_idle_making_room_first() -> None:
    state = RoomState(RoomMeta("BCDF", {}, seats=[SeatInfo("Ann", "a")]))
    first = spectators.watch(state, "Uma", "h1", None, None, limit=2)
    assert first.state is not None
    second = spectators.watch(first.state, "Vic", "h2", None, None, limit=2)
    assert second.state is not None
    third = spectators.watch(second.state, "Wes", "h3", None, None, limit=2,
                             present=frozenset({"h2"}))
    assert third.state is not None
    assert [s.name for s in third.state.meta.audience.spectators] == ["Vic", "Wes"]
    assert [s.name for s in second.state.meta.audience.spectators] == ["Uma", "Vic"]
    with pytest.raises(RoomError) as crowded:
        spectators.watch(third.state, "Xan", "h4", None, None, limit=2,
                         present=frozenset({"h2", "h3"}))
    assert (crowded.value.code, crowded.value.status) == ("room_crowded", 409)
