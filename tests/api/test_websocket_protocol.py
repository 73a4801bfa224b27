"""The server's WebSocket protocol: a batch of frames is one write to the socket, and each frame
of it reaches the client unchanged, as its own frame, in order."""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from app.api.websocket_protocol import SEND_BATCH, BatchingWebSocketProtocol


class Wire:
    """The server's end of a socket: every write, as written."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closing = False

    def write(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 50000), "sockname": ("127.0.0.1", 8000)}.get(
            name, default)


async def serve(app: Any) -> tuple[Wire, ClientProtocol, BatchingWebSocketProtocol]:
    """``app`` behind the protocol, a client's handshake done."""
    config = Config(app=app, ws=BatchingWebSocketProtocol, ws_per_message_deflate=False,
                    lifespan="off")
    config.load()
    server = BatchingWebSocketProtocol(config, ServerState(), {})
    wire = Wire()
    server.connection_made(wire)  # type: ignore[arg-type]
    client = ClientProtocol(parse_uri("ws://127.0.0.1:8000/ws"))
    client.send_request(client.connect())
    server.data_received(b"".join(client.data_to_send()))
    return wire, client, server


def frames_of(client: ClientProtocol, data: bytes) -> list[str]:
    client.receive_data(data)
    texts = []
    for event in client.events_received():
        if isinstance(event, Frame):
            assert event.opcode is Opcode.TEXT
            texts.append(bytes(event.data).decode())
        else:
            assert isinstance(event, Response) and event.status_code == 101
    return texts


async def test_a_batch_is_one_write_of_separate_frames_in_order() -> None:
    sent = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert SEND_BATCH in scope["extensions"]
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", SEND_BATCH: ['{"seq":2}', '{"seq":3}', "é"]})
        await send({"type": "websocket.send", "text": '{"seq":4}'})
        sent.set()
        await asyncio.Event().wait()

    wire, client, server = await serve(app)
    async with asyncio.timeout(2):
        await sent.wait()
    handshake, batch, single = wire.writes
    assert frames_of(client, handshake) == []
    assert frames_of(client, batch) == ['{"seq":2}', '{"seq":3}', "é"]
    assert frames_of(client, single) == ['{"seq":4}']
    server.connection_lost(None)


async def test_a_batch_to_a_client_gone_writes_nothing() -> None:
    tried = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        wire.closing = True
        try:
            await send({"type": "websocket.send", SEND_BATCH: ["a", "b"]})
        finally:
            tried.set()

    wire, _client, server = await serve(app)
    async with asyncio.timeout(2):
        await tried.wait()
    assert len(wire.writes) == 1  # the handshake only
    server.connection_lost(None)


async def test_a_shutdown_while_a_batch_waits_still_sends_the_close_frame() -> None:
    waiting = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        server.pause_writing()  # the client reads slowly: the batch waits
        waiting.set()
        await send({"type": "websocket.send", SEND_BATCH: ["a", "b"]})

    wire, client, server = await serve(app)
    async with asyncio.timeout(2):
        await waiting.wait()
    await asyncio.sleep(0)
    server.shutdown()  # SIGTERM: the close frame goes out, then the socket closes
    assert wire.closing
    client.receive_data(b"".join(wire.writes))
    frames = [e for e in client.events_received() if isinstance(e, Frame)]
    assert [f.opcode for f in frames] == [Opcode.CLOSE]
    assert frames[0].data[:2] == (1012).to_bytes(2, "big")
    server.connection_lost(None)
