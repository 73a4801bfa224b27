"""The benchmarks' lean WebSocket client against a real ``websockets`` server: every frame in
order (short, 16-bit and 64-bit lengths), pings answered so the server keeps the socket, a
refused handshake raised, and a close."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
import websockets

from bench.server import free_port
from bench.wsclient import ConnectionClosedError, connect


@asynccontextmanager
async def echo_server(**options: Any) -> AsyncIterator[int]:
    """Answers ``n``: n frames of sizes 5, 300 and 70,000 in turn; echoes anything else."""

    async def handler(ws: Any) -> None:
        if ws.request.path != "/ok":
            await ws.close(4404, "no")
            return
        async for text in ws:
            if text.isdigit():
                for i in range(int(text)):
                    await ws.send(str(i) * (5, 300, 70_000)[i % 3])
            else:
                await ws.send(text)

    port = free_port()
    async with websockets.serve(handler, "127.0.0.1", port, compression=None,
                                max_size=2**20, **options):
        yield port


async def received(texts: list[str], count: int) -> None:
    async with asyncio.timeout(5):
        while len(texts) < count:
            await asyncio.sleep(0.01)


async def test_frames_of_every_length_arrive_whole_and_in_order() -> None:
    texts: list[str] = []
    async with echo_server() as port:
        ws = await connect(f"ws://127.0.0.1:{port}/ok", texts.append)
        ws.send("6")
        ws.send("héllo")
        await received(texts, 7)
        ws.close()
    assert texts == [str(i) * (5, 300, 70_000)[i % 3] for i in range(6)] + ["héllo"]


async def test_pings_are_answered_so_the_server_keeps_the_socket() -> None:
    texts: list[str] = []
    async with echo_server(ping_interval=0.05, ping_timeout=0.1) as port:
        ws = await connect(f"ws://127.0.0.1:{port}/ok", texts.append)
        await asyncio.sleep(0.5)  # several pings: unanswered, the server would have closed
        ws.send("still here")
        await received(texts, 1)
        assert ws.open
        ws.close()
    assert texts == ["still here"]


async def test_a_socket_the_server_closes_refuses_to_send() -> None:
    async with echo_server() as port:
        ws = await connect(f"ws://127.0.0.1:{port}/other", lambda _text: None)
        async with asyncio.timeout(5):
            while ws.open:
                await asyncio.sleep(0.01)
        with pytest.raises(ConnectionClosedError):
            ws.send("hello?")


async def test_a_refused_handshake_is_raised() -> None:
    port = free_port()

    async def not_websocket(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(not_websocket, "127.0.0.1", port)
    async with server:
        with pytest.raises(ConnectionRefusedError, match="403"):
            await connect(f"ws://127.0.0.1:{port}/ok", lambda _text: None, timeout=5)
