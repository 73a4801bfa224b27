"""uvicorn's WebSocket protocol, with one write for a batch of frames.

A move gives each socket two or three event frames at once, and each frame was a system call of
its own (the most expensive single thing a worker did under load). This protocol advertises the
ASGI extension ``SEND_BATCH``: a ``websocket.send`` message carrying ``{SEND_BATCH: [text, ...]}``
sends each text as its own frame, unchanged on the wire, in a single write to the socket.
``python -m app`` serves with it; under any other server the extension is absent and
``app.api.connection`` sends frame by frame.
"""

from __future__ import annotations

import asyncio
from typing import Any, cast

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

SEND_BATCH = "uno.send_batch"


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
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        held = HeldWrites(cast(asyncio.Transport, transport))
        super().connection_made(cast(asyncio.Transport, held))

    async def run_asgi(self) -> None:
        self.scope["extensions"][SEND_BATCH] = {}
        await super().run_asgi()

    async def send(self, message: Any) -> None:
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
