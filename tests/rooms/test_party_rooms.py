"""A room for a party, as a host and its guests notice it over real sockets: the queue to the
next match (O-QUEUE), rooms by approval (O-APPROVAL) and bans that hold (O-BAN), with the
hostile cases (a spectator queueing a thousand times, a banned person back under a new name, a
flood of join requests, a waiting person admitting itself)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.server_fixture import ServerProcess

from .client import TIMEOUT, Client, connect, make_table

RULES = {"turn_seconds": 0, "target": 1, "deck": "classic"}
ANN_GOES_OUT = {"dealer": 1, "hands": [["R1"], ["G2", "G3"]], "discard": "R5",
                "draw_pile": ["B3", "B4"]}


async def post(server: ServerProcess, path: str, body: dict[str, Any]) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.http_url, timeout=TIMEOUT) as http:
        return await http.post(path, json=body)


async def fan(server: ServerProcess, code: str, name: str, **body: Any) -> tuple[Client, str]:
    """A named spectator, connected."""
    granted = await post(server, f"/api/rooms/{code}/watch", {"name": name, **body})
    assert granted.status_code == 200, granted.text
    token = granted.json()["token"]
    client = await connect(server, code, token)
    await client.state()
    return client, token


async def test_o_queue_spectators_take_the_free_seats_in_order_when_the_match_ends(
    live_server: ServerProcess,
) -> None:
    table = await make_table(live_server, ["Ann", "Bob"], rules=RULES, deal=ANN_GOES_OUT,
                             max_players=3)
    ann, bob = table.players
    await ann.ok("start")
    zoe, _ = await fan(live_server, table.code, "Zoe")
    yan, _ = await fan(live_server, table.code, "Yan")
    gone, _ = await fan(live_server, table.code, "Xia")
    for client in (zoe, yan, gone):
        await client.ok("queue")
    queue = (await ann.event("queue"))["queue"]
    assert [entry["name"] for entry in queue][:1] == ["Zoe"]
    await ann.ok("queue_order", order=[e["spectator"] for e in
                                       (await ann.state())["queue"]][::-1])  # Xia, Yan, Zoe
    assert [e["name"] for e in (await ann.state())["queue"]] == ["Xia", "Yan", "Zoe"]
    assert (await yan.state())["you"]["queued"] == 1
    await gone.close()  # not here when the seat comes: skipped, stays queued
    await ann.ok("play", card="R1")  # Ann goes out: the match is over, one seat is free
    seated = await yan.event("seated")
    assert seated["name"] == "Yan" and seated["seat"] == 2
    state = await yan.state()
    assert state["you"]["seat"] == 2 and [s["name"] for s in state["seats"]] == [
        "Ann", "Bob", "Yan"]
    assert [e["name"] for e in state["queue"]] == ["Xia", "Zoe"]
    await yan.ok("chat", text="my seat now")  # the socket is the seat's
    assert (await bob.event("chat", seat=2))["text"] == "my seat now"
    for client in (zoe, yan):
        await client.close()
    await table.close()


async def test_o_queue_a_spectator_queueing_a_thousand_times_holds_one_place(
    live_server: ServerProcess,
) -> None:
    table = await make_table(live_server, ["Ann", "Bob"], rules=RULES, max_players=2)
    ann = table.players[0]
    zoe, _ = await fan(live_server, table.code, "Zoe")
    anonymous = await connect(live_server, table.code)
    await anonymous.state()
    await zoe.ok("queue")
    answers = []
    for _ in range(40):  # well past what the socket's rate limit lets through after
        answers.append((await zoe.cmd("queue"))["code"])
    assert set(answers) <= {"nothing_to_do", "rate_limited"}
    assert len((await ann.state())["queue"]) == 1
    refused = await anonymous.cmd("queue")
    assert (refused["type"], refused["code"]) == ("error", "forbidden")  # no name, no queue
    not_host = await table.players[1].cmd("unqueue", spectator=(await zoe.state())["you"][
        "spectator"])
    assert not_host["code"] == "forbidden"
    for client in (zoe, anonymous):
        await client.close()
    await table.close()


async def make_approval_room(server: ServerProcess, **extra: Any) -> tuple[str, Client]:
    made = await post(server, "/api/rooms", {"name": "Ann", "rules": RULES, "approval": True,
                                             **extra})
    assert made.status_code == 201, made.text
    code = made.json()["code"]
    host = await connect(server, code, made.json()["token"], 0)
    await host.state()
    return code, host


async def test_o_approval_the_host_admits_one_and_denies_another(
    live_server: ServerProcess,
) -> None:
    code, ann = await make_approval_room(live_server)
    asked = await post(live_server, f"/api/rooms/{code}/join", {"name": "Bob"})
    assert asked.status_code == 202, asked.text
    bob_request = asked.json()["request"]
    bob = await connect(live_server, code, asked.json()["token"])
    waiting = await bob.state()
    assert waiting["you"] == {"waiting": True, "request": bob_request, "name": "Bob"}
    assert "seats" not in waiting and "hand" not in str(waiting)  # nothing of the table
    seen = await ann.event("join_request")
    assert (seen["request"], seen["name"]) == (bob_request, "Bob")
    assert (await ann.state())["requests"] == [{"request": bob_request, "name": "Bob",
                                                "watch": False}]
    refused = await bob.cmd("admit", request=bob_request)  # a waiting person admits itself
    assert (refused["type"], refused["code"]) == ("error", "forbidden")
    await ann.ok("chat", text="not for Bob's eyes yet")
    await ann.ok("admit", request=bob_request)
    admitted = await bob.event("admitted")
    assert admitted["seat"] == 1
    table = await bob.state()
    assert table["you"]["seat"] == 1 and [s["name"] for s in table["seats"]] == ["Ann", "Bob"]
    assert not [f for f in bob.frames if f.get("event", {}).get("kind") == "chat"]
    cid = await post(live_server, f"/api/rooms/{code}/join", {"name": "Cid"})
    cid_socket = await connect(live_server, code, cid.json()["token"])
    await cid_socket.state()
    await ann.ok("deny", request=cid.json()["request"])
    assert (await cid_socket.wait_closed())[0] == 4403
    stale = await ann.cmd("admit", request=cid.json()["request"])
    assert stale["code"] == "bad_target"
    for client in (ann, bob):
        await client.close()


async def test_o_approval_a_flood_of_join_requests_never_buries_the_host(
    live_server: ServerProcess,
) -> None:
    code, ann = await make_approval_room(live_server)
    answers = [await post(live_server, f"/api/rooms/{code}/join", {"name": f"Spam {n}"})
               for n in range(30)]
    assert [a.status_code for a in answers[:20]] == [202] * 20
    assert {a.status_code for a in answers[20:]} == {429}
    assert len((await ann.state())["requests"]) == 20
    await ann.close()


async def test_o_approval_watch_spectators_ask_too_and_anonymous_ones_are_turned_away(
    live_server: ServerProcess,
) -> None:
    code, ann = await make_approval_room(live_server, approval_watch=True)
    anonymous = await connect(live_server, code)
    assert (await anonymous.wait_closed())[0] == 4403
    asked = await post(live_server, f"/api/rooms/{code}/watch", {"name": "Zoe"})
    assert asked.status_code == 202
    zoe = await connect(live_server, code, asked.json()["token"])
    await zoe.state()
    await ann.ok("admit", request=asked.json()["request"])
    await zoe.event("admitted")
    assert (await zoe.state())["you"]["name"] == "Zoe"
    for client in (ann, zoe):
        await client.close()


async def test_o_ban_a_banned_player_cannot_come_back_under_a_new_name_from_that_browser(
    live_server: ServerProcess,
) -> None:
    made = await post(live_server, "/api/rooms", {"name": "Ann", "rules": RULES})
    code = made.json()["code"]
    ann = await connect(live_server, code, made.json()["token"], 0)
    await ann.state()
    joined = await post(live_server, f"/api/rooms/{code}/join",
                        {"name": "Troll", "device": "browser-of-troll"})
    troll = await connect(live_server, code, joined.json()["token"], 1)
    await troll.state()
    await ann.ok("ban", seat=1)
    assert (await troll.wait_closed())[0] == 4403
    again = await connect(live_server, code, joined.json()["token"])  # the old token
    assert (await again.wait_closed())[0] == 4403
    for path in ("join", "watch"):
        back = await post(live_server, f"/api/rooms/{code}/{path}",
                          {"name": "Nice Person", "device": "browser-of-troll"})
        assert back.status_code == 403 and back.json()["error"]["code"] == "banned", path
    other = await post(live_server, f"/api/rooms/{code}/join",
                       {"name": "Bea", "device": "another-browser"})
    assert other.status_code == 200  # the ban is the person's, not the name's or the Wi-Fi's
    zoe, _ = await fan(live_server, code, "Zoe", device="zoes-browser")
    await ann.ok("ban", spectator=(await zoe.state())["you"]["spectator"])
    assert (await zoe.wait_closed())[0] == 4403
    refused = await post(live_server, f"/api/rooms/{code}/watch",
                         {"name": "Zed", "device": "zoes-browser"})
    assert refused.status_code == 403
    assert (await ann.cmd("ban", seat=0))["code"] == "bad_target"  # not oneself
    await ann.close()
