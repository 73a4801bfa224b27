"""The HTTP protocol a WebSocket was upgraded from is freed at once, by reference counting: the
collector's full pass, which would find it otherwise, runs hourly (app/gc_schedule.py)."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import uvicorn
import websockets

from app.api.http_protocol import UpgradingHttpProtocol
from app.api.websocket_protocol import DirectWebSocketProtocol
from tests.server_fixture import free_port


async def echo_app(scope: Any, receive: Any, send: Any) -> None:
    if scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.accept"})
        while (await receive())["type"] != "websocket.disconnect":
            pass


async def test_an_upgraded_connection_leaves_no_http_protocol_behind() -> None:
    port = free_port()
    config = uvicorn.Config(echo_app, port=port, lifespan="off", log_level="warning",
                            http=UpgradingHttpProtocol, ws=DirectWebSocketProtocol,
                            ws_per_message_deflate=False)
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    gc.disable()  # what is left is found by counting, not freed by a collection
    try:
        while not server.started:
            await asyncio.sleep(0.01)
        sockets = [await websockets.connect(f"ws://127.0.0.1:{port}/") for _ in range(3)]
        for socket in sockets:
            await socket.send("hello")
        left = [o for o in gc.get_objects() if type(o) is UpgradingHttpProtocol]
        assert left == []
        for socket in sockets:
            await socket.close()
    finally:
        gc.enable()
        server.should_exit = True
        await serving
