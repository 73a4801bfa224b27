"""A socket's next message, read through the protocol itself under ``python -m app``
(``websocket_protocol.DIRECT``: a future while the socket waits, not ASGI's chain of
coroutines) or through ASGI's ``receive`` under any other server."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from starlette.websockets import WebSocket, WebSocketDisconnect

from .websocket_protocol import DIRECT, DirectReader, DirectSocket


async def next_text(ws: WebSocket) -> str | None:
    """The client's next message as text; None once the socket is gone."""
    reader = direct_reader(ws)
    message: Mapping[str, Any]
    if reader is not None:
        while not reader.ready():
            await reader.arrival()
        message = reader.take_message()
    else:
        try:
            message = await ws.receive()
        except (WebSocketDisconnect, RuntimeError):
            return None
    return text_of(message)


def direct_reader(ws: WebSocket) -> DirectReader | None:
    """The protocol's own reader (``websocket_protocol.DIRECT``), under ``python -m app``."""
    direct = (ws.scope.get("extensions") or {}).get(DIRECT)
    return None if direct is None else cast(DirectSocket, direct)


def text_of(message: Mapping[str, Any]) -> str | None:
    """An ASGI message's text; None for the disconnect."""
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    return text if text is not None else (message.get("bytes") or b"").decode("utf-8", "replace")
