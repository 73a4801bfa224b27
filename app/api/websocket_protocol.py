"""uvicorn's WebSocket protocol, with one write for a batch of frames, a frame limit checked
before a frame is read, and a close that never waits for a client that does not read.

- A move gives each socket two or three event frames at once, and each frame was a system call
  of its own (the most expensive single thing a worker did under load). This protocol advertises
  the ASGI extension ``SEND_BATCH``: a ``websocket.send`` message carrying
  ``{SEND_BATCH: [text, ...]}`` sends each text as its own frame, unchanged on the wire, in a
  single write to the socket.
- Incoming messages are limited to ``UNO_MAX_FRAME_BYTES`` by the frame parser, from the frame's
  header: a client announcing a 15 MiB frame is closed (1009) before its payload is buffered.
- ``websocket.close`` is written at once, behind whatever is queued, even while the client does
  not read (uvicorn would wait until it did), and the connection is cut (``abort``: its buffers
  and descriptor freed) ``CLOSE_WAIT`` seconds later unless the client answered the close.

``python -m app`` serves with it; under any other server the extension is absent and
``app.api.connection`` sends frame by frame.
"""

from __future__ import annotations

import asyncio
from typing import Any, cast

from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState

from app.config import get_settings

SEND_BATCH = "uno.send_batch"
CLOSE_WAIT = 2.0  # seconds a closed socket's client has to answer before it is cut off


class HeldWrites:
    """A transport whose writes can be held and then written together."""

    def __init__(self, transport: asyncio.Transport) -> None:
        self._transport = transport
        self._held: list[bytes] | None = None

    def write(self, data: bytes) -> None:
        if self._held is None:
            self._transport.write(data)
        else:
            self._held.append(data)

    def hold(self) -> None:
        self._held = []

    def release(self) -> None:
        held, self._held = self._held, None
        if held and not self._transport.is_closing():
            self._transport.write(b"".join(held))

    def close(self) -> None:  # e.g. a shutdown while a batch waits to be writable
        self.release()
        self._transport.close()

    def __getattr__(self, name: str) -> Any:  # everything else is the transport's own
        return getattr(self._transport, name)


class BatchingWebSocketProtocol(WebSocketsSansIOProtocol):
    def __init__(self, config: Config, server_state: ServerState, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        limit = get_settings().max_frame_bytes
        if self.conn.max_message_size is None or self.conn.max_message_size > limit:
            self.conn.max_message_size = limit

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        held = HeldWrites(cast(asyncio.Transport, transport))
        super().connection_made(cast(asyncio.Transport, held))

    async def run_asgi(self) -> None:
        self.scope["extensions"][SEND_BATCH] = {}
        await super().run_asgi()
        if self.close_timer is None and self.transport.get_write_buffer_size():
            self.close_timer = self.loop.call_later(CLOSE_WAIT, self._cut_off)

    async def send(self, message: Any) -> None:
        if message["type"] == "websocket.close" and self.handshake_complete:
            # Written now even if the client stopped reading (uvicorn waits for it to drain),
            # and cut off if the client does not answer: a dropped reader frees its buffers.
            self.writable.set()
            await super().send(message)
            self._cut_off_later()
            return
        texts = message.get(SEND_BATCH) if message["type"] == "websocket.send" else None
        if texts is None:
            await super().send(message)
            return
        held = cast(HeldWrites, self.transport)
        held.hold()
        try:
            for text in texts:
                await super().send({"type": "websocket.send", "text": text})
        finally:
            held.release()

    def _cut_off_later(self) -> None:
        if self.close_timer is not None:
            self.close_timer.cancel()
        if not self.transport.is_closing() or self.transport.get_write_buffer_size():
            self.close_timer = self.loop.call_later(CLOSE_WAIT, self._cut_off)

    def _cut_off(self) -> None:
        self.close_timer = None
        self.transport.abort()
