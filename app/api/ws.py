"""WebSocket /ws/rooms/{code}: seat tokens, limits, and the frames of PROTOCOL.md."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from app.engine import EngineError
from app.rooms import Room, RoomError
from app.rooms.codes import token_hash
from app.rooms.items import Item
from app.rooms.metrics import METRICS

from .connection import Connection
from .deps import Services
from .limits import RateLimiter

router = APIRouter()
log = logging.getLogger("uno.ws")

CLOSE_BAD_TOKEN = 4401
CLOSE_UNKNOWN_ROOM = 4404
CLOSE_FLOOD = 4429
CLOSE_TOO_BIG = 1009
CLOSE_TRY_LATER = 1013
MAX_ID = 64


@router.websocket("/ws/rooms/{code}")
async def room_socket(
    ws: WebSocket, code: str, token: str | None = None, since: int | None = None
) -> None:
    services: Services = ws.app.state.services
    await ws.accept()  # first, so that a browser sees the close codes below
    client = ws.client.host if ws.client is not None else "unknown"
    if services.unknown_codes.blocked(client):
        await ws.close(CLOSE_UNKNOWN_ROOM, "too many unknown room codes")
        return
    try:
        room = await services.registry.get(code)
    except RoomError as exc:
        await ws.close(CLOSE_TRY_LATER, exc.message[:100])
        return
    if room is None:
        services.unknown_codes.hit(client)
        await ws.close(CLOSE_UNKNOWN_ROOM, "unknown room")
        return
    settings = services.settings
    conn = Connection(ws, token_hash(token) if token else None, settings.send_queue_limit)
    services.hub.attach(room.code, conn)
    connected = False
    try:
        try:
            await room.ask(Item("connect", viewer=conn, since=since))
        except RoomError as exc:
            close = CLOSE_BAD_TOKEN if exc.code == "bad_token" else CLOSE_TRY_LATER
            await ws.close(close, exc.message[:100])
            return
        connected = True
        METRICS.sockets += 1
        limit = settings.player_rate if conn.seat is not None else settings.spectator_rate
        limiter = RateLimiter(limit, settings.rate_window_seconds, settings.rate_abuse_extra)
        conn.writer = asyncio.create_task(conn.write_loop())
        reader = asyncio.create_task(read_loop(ws, conn, room, limiter, settings.max_frame_bytes))
        await asyncio.wait({conn.writer, reader}, return_when=asyncio.FIRST_COMPLETED)
        for task in (conn.writer, reader):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
    finally:
        services.hub.detach(room.code, conn)
        if connected:
            METRICS.sockets -= 1
            if not room.stopped:
                room.inbox.put_nowait(Item("disconnect", viewer=conn))


async def read_loop(
    ws: WebSocket, conn: Connection, room: Room, limiter: RateLimiter, max_bytes: int
) -> None:
    while conn.closing is None:
        try:
            message = await ws.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text is None:
            text = (message.get("bytes") or b"").decode("utf-8", "replace")
        if len(text) > max_bytes // 4 and len(text.encode()) > max_bytes:
            METRICS.error("too_big")
            conn.close(CLOSE_TOO_BIG, f"frames are limited to {max_bytes} bytes")
            return
        if not limiter.allow():
            if limiter.abusive:
                conn.close(CLOSE_FLOOD, "too many messages")
                return
            _error(conn, _peek_id(text), "rate_limited", "too many messages: slow down")
            continue
        await handle_text(conn, room, text)
        if conn.queued:
            await asyncio.sleep(0)  # let the writer drain replies before the next message


def _peek_id(text: str) -> Any:
    with contextlib.suppress(ValueError):
        data = json.loads(text)
        if isinstance(data, dict):
            return data.get("id")
    return None


def _error(conn: Connection, mid: Any, code: str, message: str) -> None:
    METRICS.error(code)
    conn.send({"type": "error", "id": mid, "code": code, "message": message})


async def handle_text(conn: Connection, room: Room, text: str) -> None:
    """One client message: parsed once here, answered with ack or error."""
    try:
        data = json.loads(text)
    except ValueError:
        _error(conn, None, "bad_message", "the message is not JSON")
        return
    if not isinstance(data, dict):
        _error(conn, None, "bad_message", "a message is a JSON object with a 'type'")
        return
    mid = data.pop("id", None)
    if mid is not None and (
        isinstance(mid, bool) or not isinstance(mid, str | int) or len(str(mid)) > MAX_ID
    ):
        _error(conn, None, "bad_message", f"'id' must be a string or number of <= {MAX_ID} chars")
        return
    kind = data.get("type")
    try:
        if kind == "sync":
            await room.ask(Item("sync", viewer=conn))
        elif kind == "ping":
            conn.send({"type": "pong", "id": mid})
            return
        else:
            await room.ask(Item("command", seat=conn.seat, message=data))
    except (EngineError, RoomError) as exc:
        _error(conn, mid, exc.code, exc.message)
        return
    if mid is not None:
        conn.send({"type": "ack", "id": mid})
