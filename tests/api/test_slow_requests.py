"""A request has ``UNO_REQUEST_SECONDS`` to arrive whole (headers and body), counted from the
connection, or on a kept-alive connection from the request's first byte: past that the connection
is answered 408 and closed, so a stranger cannot hold connections by sending nothing, or half a
request."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Iterator

import httpx
import pytest
import websockets

from tests.server_fixture import ServerProcess
from tests.server_fixture import test_env as server_env

SECONDS = 1.0


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    process = ServerProcess(server_env(UNO_REQUEST_SECONDS=str(SECONDS)))
    process.start()
    try:
        yield process
    finally:
        process.stop()


def answer_of(server: ServerProcess, sent: bytes) -> tuple[bytes, float]:
    """What the server answers a connection that sends ``sent`` and then nothing, read until
    it closes the connection, and how long after the sending that was."""
    with socket.create_connection(("127.0.0.1", server.port)) as client:
        client.settimeout(SECONDS + 10)
        client.sendall(sent)
        began = time.monotonic()
        received = b""
        while chunk := client.recv(4096):
            received += chunk
        return received, time.monotonic() - began


@pytest.mark.parametrize("sent", [
    b"",  # connected, and nothing
    b"GET /healthz HTTP/1.1\r\nHost: uno\r\n",  # half the headers
    b"POST /api/rooms HTTP/1.1\r\nHost: uno\r\nContent-Type: application/json\r\n"
    b"Content-Length: 100\r\n\r\n{\"na",  # the headers, and half the body
], ids=["nothing", "half the headers", "half the body"])
def test_a_request_that_does_not_arrive_whole_in_time_is_answered_408_and_closed(
        server: ServerProcess, sent: bytes) -> None:
    received, took = answer_of(server, sent)
    assert received.startswith(b"HTTP/1.1 408 ")
    assert SECONDS * 0.8 < took < SECONDS + 3


HEALTH = b"GET /healthz HTTP/1.1\r\nHost: uno\r\n\r\n"


def test_a_kept_alive_connection_gets_a_new_clock_for_each_request(server: ServerProcess) -> None:
    with socket.create_connection(("127.0.0.1", server.port)) as client:
        client.settimeout(SECONDS + 10)
        for _ in range(3):  # one connection, open well past one request's time
            client.sendall(HEALTH)
            assert _response(client).startswith(b"HTTP/1.1 200 ")
            time.sleep(SECONDS * 0.7)
        client.sendall(HEALTH[:20])  # and a later request that stalls has its own clock
        began = time.monotonic()
        assert _response(client).startswith(b"HTTP/1.1 408 ")
        assert SECONDS * 0.8 < time.monotonic() - began < SECONDS + 3


def _response(client: socket.socket) -> bytes:
    """One whole response (its headers and its Content-Length of body) read from ``client``."""
    received = b""
    while b"\r\n\r\n" not in received:
        received += _more(client, received)
    head, _, body = received.partition(b"\r\n\r\n")
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:")))
    while len(body) < length:
        body += _more(client, received + body)
    return received


def _more(client: socket.socket, so_far: bytes) -> bytes:
    chunk = client.recv(4096)
    assert chunk, f"the server closed the connection after {so_far!r}"
    return chunk


async def test_a_websocket_is_not_timed_as_a_request(server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.http_url) as http:
        seat = (await http.post("/api/rooms", json={"name": "Ann"})).json()
    async with websockets.connect(server.ws_url(seat["code"], token=seat["token"])) as ws:
        await asyncio.sleep(SECONDS * 1.5)  # past a request's time: the socket stays open
        await ws.send(json.dumps({"type": "sync"}))
        kinds: list[str] = []
        while "state" not in kinds[1:]:  # the first state came with the connection
            kinds.append(json.loads(await asyncio.wait_for(ws.recv(), 5))["type"])
