"""A room socket once open (``app.api.open_socket``): under ``python -m app``'s protocol the
endpoint's coroutine returns and the socket is read by the protocol's calls, with no task kept
for it, and it plays on exactly as before: its commands answered, bad frames refused, its
rate kept; when it closes its person is seen to go and its place under the socket limits is
given back. In-process: the app and its lifespan, the protocol replaced by a socket in memory."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from app.api import ws
from app.api.websocket_protocol import DIRECT
from app.config import Settings
from app.main import create_app
from bench.room_path import Clients
from bench.room_path import MemorySocket as BenchSocket


class MemorySocket(BenchSocket):
    """The protocol's side of one socket (``DIRECT``), as bench/room_path.py drives the
    endpoint: the client's frames put by the test, the server's recorded."""

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []
        self.closed: tuple[int, str] | None = None
        self.ended = False
        super().__init__(lambda text: self.frames.append(json.loads(text)), Clients())

    def close_now(self, code: int, reason: str) -> None:
        self.closed = (code, reason)
        super().close_now(code, reason)

    def end(self) -> None:
        super().end()
        self.ended = True

    def say(self, message: dict[str, Any]) -> None:
        self.send(json.dumps(message))

    async def frame(self, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        for _ in range(200):
            for frame in self.frames:
                if test(frame):
                    return frame
            await asyncio.sleep(0.01)
        raise AssertionError(f"no such frame in {self.frames}")


@pytest.fixture
async def app_and_http() -> AsyncIterator[tuple[Any, httpx.AsyncClient]]:
    app = create_app(Settings(database_url="memory://", sockets_per_address=2))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            yield app, http


async def open_socket(app: Any, code: str, token: str) -> tuple[MemorySocket, asyncio.Task[None]]:
    socket = MemorySocket()
    scope = {"type": "websocket", "path": f"/ws/rooms/{code}", "headers": [],
             "query_string": f"token={token}".encode(), "client": ("203.0.113.9", 40000),
             "server": ("127.0.0.1", 8000), "scheme": "ws", "extensions": {DIRECT: socket}}
    handshake = [{"type": "websocket.connect"}]

    async def receive() -> dict[str, Any]:
        if handshake:
            return handshake.pop()
        raise AssertionError("a room socket reads through the protocol, not receive")

    async def send(message: Any) -> None:
        if message["type"] == "websocket.close":
            socket.closed = (message.get("code", 1000), message.get("reason", ""))

    services = app.state.services
    return socket, asyncio.create_task(ws.serve_socket(scope, receive, send, services, code))


async def test_an_open_socket_keeps_no_task_and_plays_on_until_it_goes(
    app_and_http: tuple[Any, httpx.AsyncClient],
) -> None:
    app, http = app_and_http
    made = (await http.post("/api/rooms", json={"name": "Ann"})).json()
    code = made["code"]
    bob = (await http.post(f"/api/rooms/{code}/join", json={"name": "Bob"})).json()
    tasks_before = len(asyncio.all_tasks())
    ann, ann_task = await open_socket(app, code, made["token"])
    bob_socket, bob_task = await open_socket(app, code, bob["token"])
    await asyncio.wait_for(asyncio.gather(ann_task, bob_task), 2)  # the endpoints returned
    await ann.frame(lambda f: f["type"] == "state")
    assert len(asyncio.all_tasks()) == tasks_before  # nothing runs per open socket
    assert ann.closed is None and not ann.ended

    ann.say({"type": "ping", "id": "p"})
    ann.say({"type": "nonsense", "id": "n"})
    ann.say({"type": "start", "id": 1})
    await ann.frame(lambda f: f.get("id") == 1 and f["type"] == "ack")
    replies = [f for f in ann.frames if f.get("id") in ("p", "n", 1)]
    assert [(f["type"], f.get("code")) for f in replies] == [
        ("pong", None), ("error", "bad_message"), ("ack", None)]  # in the order sent
    await bob_socket.frame(lambda f: f.get("event", {}).get("kind") == "round_started")
    bob_socket.say({"type": "start", "id": 2})  # not the host: refused, nothing changes
    refused = await bob_socket.frame(lambda f: f.get("id") == 2)
    assert refused["type"] == "error" and refused["code"] == "forbidden"

    bob_socket.close()
    presence = (await ann.frame(lambda f: f.get("event", {}).get("kind") == "presence"
                                         and f["seq"] > 7))["event"]
    assert presence["seat"] == 1 and presence["connected"] is False
    assert bob_socket.ended  # the protocol is told: it closes the connection
    assert len(asyncio.all_tasks()) == tasks_before

    # Two sockets an address (the fixture's limit): Bob's place was given back.
    again, again_task = await open_socket(app, code, bob["token"])
    await asyncio.wait_for(again_task, 2)
    await again.frame(lambda f: f["type"] == "state")
    assert again.closed is None
    third, third_task = await open_socket(app, code, made["token"])
    await asyncio.wait_for(third_task, 2)
    assert third.closed is not None and third.closed[0] == 4503  # too many sockets


async def test_a_socket_past_its_rate_is_answered_then_closed(
    app_and_http: tuple[Any, httpx.AsyncClient],
) -> None:
    app, http = app_and_http
    made = (await http.post("/api/rooms", json={"name": "Ann"})).json()
    ann, task = await open_socket(app, made["code"], made["token"])
    await asyncio.wait_for(task, 2)
    await ann.frame(lambda f: f["type"] == "state")
    settings = app.state.services.settings
    for i in range(settings.player_rate + settings.rate_abuse_extra + 5):
        ann.say({"type": "ping", "id": i})
    await ann.frame(lambda f: f.get("code") == "rate_limited")
    for _ in range(200):
        if ann.ended:
            break
        await asyncio.sleep(0.01)
    assert ann.closed is not None and ann.closed[0] == 4429 and ann.ended


async def test_under_another_server_the_endpoint_reads_the_socket_itself(
    app_and_http: tuple[Any, httpx.AsyncClient],
) -> None:
    # No DIRECT extension (an ASGI server other than python -m app's): the endpoint's
    # coroutine stays, reading through ASGI's receive, with the same answers.
    app, http = app_and_http
    made = (await http.post("/api/rooms", json={"name": "Ann"})).json()
    incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    incoming.put_nowait({"type": "websocket.connect"})
    sent: list[dict[str, Any]] = []

    async def send(message: Any) -> None:
        if message["type"] == "websocket.send":
            sent.append(json.loads(message["text"]))

    async def replied(test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        for _ in range(200):
            found = [frame for frame in sent if test(frame)]
            if found:
                return found[0]
            await asyncio.sleep(0.01)
        raise AssertionError(f"no such frame in {sent}")

    scope = {"type": "websocket", "path": f"/ws/rooms/{made['code']}", "headers": [],
             "query_string": f"token={made['token']}".encode(),
             "client": ("203.0.113.9", 40000), "server": ("127.0.0.1", 8000), "scheme": "ws",
             "extensions": {}}
    task = asyncio.create_task(ws.serve_socket(scope, incoming.get, send,
                                               app.state.services, made["code"]))
    await replied(lambda f: f["type"] == "state")
    incoming.put_nowait({"type": "websocket.receive",
                         "text": json.dumps({"type": "ping", "id": "p"})})
    incoming.put_nowait({"type": "websocket.receive",
                         "text": json.dumps({"type": "start", "id": 1})})
    assert (await replied(lambda f: f.get("id") == "p"))["type"] == "pong"
    refused = await replied(lambda f: f.get("id") == 1)  # one player: nothing starts
    assert refused["type"] == "error" and refused["code"] == "not_enough_players"
    assert not task.done()
    incoming.put_nowait({"type": "websocket.disconnect", "code": 1000})
    await asyncio.wait_for(task, 2)  # the client went: the endpoint returns
