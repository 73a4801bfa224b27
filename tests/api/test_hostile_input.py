"""Hostile input changes nothing: each refusal is a documented error and the room, the store and
the worker stay up, on SQLite and on Postgres (issue 18, findings 1, 6, 9, 10, 11)."""

from __future__ import annotations

import json

from tests.api.hostile import Stranger, quiet, server, started_table
from tests.server_fixture import ServerProcess

__all__ = ["server"]


async def test_a_nul_in_chat_is_stripped_and_the_room_plays_on(server: ServerProcess) -> None:
    stranger = Stranger(server)
    _code, ann, bob = await started_table(stranger)
    answer = await ann.cmd("chat", text="a\u0000b\u202e\n!")
    assert answer["type"] == "ack", answer
    said = await bob.event("chat")
    assert said["text"] == "ab !"
    again = await ann.cmd("chat", text="\u0000\u0001")
    assert (again["type"], again["code"]) == ("error", "bad_message")
    await ann.ok("chat", text="still here")  # the room was never reloaded: no 1012
    assert (await bob.event("chat"))["text"] == "still here"
    assert ann.closed is None and bob.closed is None
    await ann.close()
    await bob.close()


async def test_a_lone_surrogate_in_chat_is_refused_and_the_socket_stays(
    server: ServerProcess,
) -> None:
    stranger = Stranger(server)
    _code, ann, bob = await started_table(stranger)
    await ann.ws.send('{"type": "chat", "text": "\\ud800", "id": "s"}')
    refused = await ann.wait_for(lambda f: f.get("id") == "s")
    assert (refused["type"], refused["code"]) == ("error", "bad_message")
    assert not [f for f in await quiet(bob) if f.get("event", {}).get("kind") == "chat"]
    await ann.ok("chat", text="fine")
    await ann.close()
    await bob.close()


async def test_names_with_a_nul_or_a_lone_surrogate_are_refused_clearly(
    server: ServerProcess,
) -> None:
    stranger = Stranger(server)
    for path, body in (
        ("/api/players", '{"name": "a\\u0000b"}'),
        ("/api/players", '{"name": "\\ud800"}'),
        ("/api/leagues", '{"name": "\\udfff", "scoring": "winner_takes"}'),
        ("/api/leagues", '{"name": "x\\u0000", "scoring": "lowest_wins"}'),
        ("/api/rooms", '{"name": "Ann\\u0000"}'),
        ("/api/rooms", '{"name": "Ann", "rules": {"custom_cards": [{"effect": "play_again", '
                       '"label": "a\\u0000"}]}}'),
    ):
        answer = await stranger.post(path, content=body.encode())
        assert answer.status_code in (400, 422), (path, body, answer.text)
        error = answer.json()["error"]
        assert error["code"] in ("bad_request", "bad_rules") and error["message"]
    assert (await stranger.post("/api/players", {"name": "Ann"})).status_code == 201
    assert "Traceback" not in server.full_log()


async def test_a_frame_nested_1200_deep_gets_an_error_and_the_socket_stays(
    server: ServerProcess,
) -> None:
    stranger = Stranger(server)
    _code, ann, bob = await started_table(stranger)
    await ann.ws.send("[" * 1200 + "]" * 1200)
    refused = await ann.wait_for(lambda f: f["type"] == "error")
    assert refused["code"] == "bad_message"
    await ann.ws.send(json.dumps({"type": "chat", "text": "x", "id": "n"}) [:-1] + ', "z": '
                      + "[" * 1200 + "]" * 1200 + "}")
    nested = await ann.wait_for(lambda f: f.get("type") == "error")
    assert nested["code"] == "bad_message"
    await ann.ok("chat", text="after")
    assert ann.closed is None
    await ann.close()
    await bob.close()


async def test_ids_that_are_digits_only_to_isdigit_are_not_found_not_a_crash(
    server: ServerProcess,
) -> None:
    stranger = Stranger(server)
    for path in ("/api/matches/²", "/api/players/²", "/api/leagues/²", "/api/matches/٣",
                 "/api/leagues/" + "9" * 40, "/api/matches/" + "1" * 20):
        answer = await stranger.get(path)
        assert answer.status_code == 404, (path, answer.text)
        assert answer.json()["error"]["code"] == "not_found"
    for path in ("/api/leagues?limit=²", "/api/leagues?before=²", "/api/rooms?limit=²",
                 "/api/players/1/matches?limit=²"):
        answer = await stranger.get(path)
        assert answer.status_code in (400, 404, 422), (path, answer.text)
    for league in ("²", "9" * 40, -1, 1.5, True):
        made = await stranger.post("/api/rooms", {"name": "Ann", "league": league})
        assert made.status_code in (400, 404, 422), (league, made.text)
    assert "Traceback" not in server.full_log()


async def test_a_refused_id_comes_back_as_sent_so_the_client_can_match_its_refusal(
    server: ServerProcess,
) -> None:
    stranger = Stranger(server)
    _code, ann, bob = await started_table(stranger)
    before = await ann.state()
    for mid in ("", 2**53 + 1, -(2**60), 1.5, "x" * 65):
        await ann.ws.send(json.dumps({"type": "chat", "text": "not sent", "id": mid}))
        refused = await ann.wait_for(lambda f: f["type"] == "error")
        assert refused["code"] == "bad_message" and refused["id"] == mid, (mid, refused)
        assert "'id' must be" in refused["message"], refused
    for unreadable in (True, [1], {"n": 1}):
        await ann.ws.send(json.dumps({"type": "uno", "id": unreadable}))
        refused = await ann.wait_for(lambda f: f["type"] == "error")
        assert refused["id"] is None, (unreadable, refused)
    after = await ann.state()
    assert after["seq"] == before["seq"]  # nothing was applied
    assert not [f for f in await quiet(bob) if f.get("event", {}).get("kind") == "chat"]
    await ann.close()
    await bob.close()


async def test_host_commands_with_wrong_types_are_refused_and_change_nothing(
    server: ServerProcess,
) -> None:
    stranger = Stranger(server)
    room = await stranger.create("Ann")
    ann = await stranger.connect(room["code"], room["token"])
    before = await ann.state()
    for fields in ({"type": "rules", "rules": []}, {"type": "rules", "rules": ""},
                   {"type": "rules", "rules": False}, {"type": "rules", "preset": 7},
                   {"type": "add_bot", "seat": "x"}, {"type": "add_bot", "seat": True},
                   {"type": "kick", "seat": 1.0}, {"type": "kick"}):
        kind = fields.pop("type")
        answer = await ann.cmd(str(kind), **fields)
        assert (answer["type"], answer["code"]) == ("error", "bad_message"), (kind, answer)
    after = await ann.state()
    assert after["seq"] == before["seq"] and len(after["seats"]) == 1
    assert after["rules"] == before["rules"]
    await ann.close()


async def test_a_malformed_since_or_token_is_closed_4400_after_accepting(
    server: ServerProcess,
) -> None:
    stranger = Stranger(server)
    room = await stranger.create("Ann")
    for query in ("since=abc", "since=1e3", "since=NaN", "since=", "since=-1", "since=²",
                  "token=", "token=a%00b", f"token={room['token']}&since=1.5"):
        client = await stranger.connect(room["code"], query=query)  # accepted: no 403
        assert (await client.wait_closed())[0] == 4400, query
    fine = await stranger.connect(room["code"], query=f"token={room['token']}&since=0")
    assert (await fine.wait_for(lambda f: f["type"] in ("state", "event")))
    await fine.close()


async def test_a_since_beyond_the_rooms_seq_gets_a_fresh_state_however_many_digits(
    server: ServerProcess,
) -> None:
    stranger = Stranger(server)
    room = await stranger.create("Ann")
    for since in ("99999", "9" * 16, "1" + "0" * 16, "9" * 300):
        client = await stranger.connect(room["code"],
                                        query=f"token={room['token']}&since={since}")
        first = await client.wait_for(lambda f: f["type"] in ("state", "event"))
        assert first["type"] == "state" and first["state"]["you"]["seat"] == 0, since
        await client.close()
