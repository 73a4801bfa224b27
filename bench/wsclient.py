"""The benchmarks' WebSocket client: thousands of sockets in one process, each an asyncio
protocol that hands every text frame to a callback as it is read.

The load generator shares the machine with the server it measures, and every latency it reports
includes its own turn to run: ``websockets``' client spent a task, futures and a parser
generator on each frame. RFC 6455 as far as these benchmarks need: unfragmented text frames,
pings answered, a close. Client frames carry a mask, as the server requires; an all-zero one
(masking protects browsers from proxies, not a load generator on loopback).

    ws = await connect("ws://127.0.0.1:8000/ws/rooms/ABCD?token=...", on_text)
    ws.send('{"type": "draw"}')
    ws.close()
"""

from __future__ import annotations

import asyncio
import base64
import os
from collections.abc import Callable
from typing import cast
from urllib.parse import urlsplit

TEXT, CLOSE, PING, PONG = 0x1, 0x8, 0x9, 0xA
ZERO_MASK = b"\0\0\0\0"


class ConnectionClosedError(ConnectionError):
    """The socket is closed: nothing more can be sent."""


def client_frame(opcode: int, payload: bytes) -> bytes:
    length = len(payload)
    if length < 126:
        header = bytes((0x80 | opcode, 0x80 | length))
    elif length < 1 << 16:
        header = bytes((0x80 | opcode, 0x80 | 126)) + length.to_bytes(2, "big")
    else:
        header = bytes((0x80 | opcode, 0x80 | 127)) + length.to_bytes(8, "big")
    return header + ZERO_MASK + payload


class LeanSocket(asyncio.Protocol):
    def __init__(self, request: bytes, on_text: Callable[[str], None],
                 on_close: Callable[[], None] | None = None) -> None:
        self.request = request  # the opening handshake
        self.on_text = on_text
        self.on_close = on_close  # told once the connection is gone (after the handshake)
        self.open = False
        self.handshake: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._transport: asyncio.Transport | None = None
        self._buffer = bytearray()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        self._transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        buffer = self._buffer
        buffer += data
        if not self.open and not self._read_handshake():
            return
        while len(buffer) >= 2:
            opcode, length, start = buffer[0] & 0x0F, buffer[1] & 0x7F, 2
            if length == 126:
                if len(buffer) < 4:
                    return
                length, start = int.from_bytes(buffer[2:4], "big"), 4
            elif length == 127:
                if len(buffer) < 10:
                    return
                length, start = int.from_bytes(buffer[2:10], "big"), 10
            if len(buffer) < start + length:
                return
            payload = bytes(buffer[start:start + length])
            del buffer[:start + length]
            self._on_frame(opcode, payload)

    def _read_handshake(self) -> bool:
        end = self._buffer.find(b"\r\n\r\n")
        if end < 0:
            return False
        status = bytes(self._buffer[:end]).split(b"\r\n", 1)[0]
        del self._buffer[:end + 4]
        if b" 101 " not in status:
            self._fail(ConnectionRefusedError(status.decode("latin-1")))
            return False
        self.open = True
        self.handshake.set_result(None)
        return True

    def _on_frame(self, opcode: int, payload: bytes) -> None:
        if opcode == TEXT:
            self.on_text(payload.decode())
        elif opcode == PING:
            self._write(client_frame(PONG, payload))
        elif opcode == CLOSE:
            self.close()

    def send(self, text: str) -> None:
        if not self.open:
            raise ConnectionClosedError("the socket is closed")
        self._write(client_frame(TEXT, text.encode()))

    def close(self) -> None:
        if self.open:
            self.open = False
            self._write(client_frame(CLOSE, (1000).to_bytes(2, "big")))
        if self._transport is not None:
            self._transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.open = False
        self._fail(exc or ConnectionResetError("closed before the handshake"))
        handshake = self.handshake
        if (self.on_close is not None and handshake.done() and not handshake.cancelled()
                and handshake.exception() is None):
            self.on_close()

    def _write(self, data: bytes) -> None:
        if self._transport is not None and not self._transport.is_closing():
            self._transport.write(data)

    def _fail(self, exc: BaseException) -> None:
        if not self.handshake.done():
            self.handshake.set_exception(exc)
        if self._transport is not None:
            self._transport.close()


async def connect(url: str, on_text: Callable[[str], None], timeout: float = 60,
                  on_close: Callable[[], None] | None = None) -> LeanSocket:
    """Open a WebSocket to ``url`` (``ws://host:port/path?query``); ``on_text`` gets each text
    frame the server sends, in order; ``on_close`` is told when the connection is gone."""
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    key = base64.b64encode(os.urandom(16)).decode()
    request = (f"GET {target} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
               "Sec-WebSocket-Version: 13\r\n\r\n").encode()
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(timeout):
        _, socket = await loop.create_connection(
            lambda: LeanSocket(request, on_text, on_close), host, port)
        await socket.handshake
    return socket
