"""``python -m app [uvicorn options]``: uvicorn serving ``app.main:app`` as every launcher does.

Incoming WebSocket messages are limited to ``UNO_MAX_FRAME_BYTES`` (the protocol enforces it
from each frame's header, so nothing larger is buffered). uvicorn's own reading of
X-Forwarded-For is off: the app reads it only from ``UNO_TRUSTED_PROXIES`` (app/api/clients.py).

Frames are a few hundred bytes: compressing them (permessage-deflate) cost a fifth of a worker's
CPU per move in bench/server.py, and a zlib state per socket. The WebSocket protocol writes the
frames a socket is handed at once, each turn of the event loop's in one system call
(app/api/websocket_protocol.py); the HTTP protocol a socket was upgraded from is freed at once
(app/api/http_protocol.py). Options given here come after these, so they win.

On SIGTERM the worker drains before uvicorn's shutdown closes its sockets (app/draining.py):
``/readyz`` answers 503 at once, and its rooms are handed to live workers first. The drain, and
then the requests still in flight, each get ``UNO_STOP_SECONDS`` at most: a room not handed
over by then is taken over on demand, as after a crash (nothing it accepted is lost: every
move is stored before it is published), and a request still being sent is cut off.
"""

from __future__ import annotations

import importlib
import signal
import socket
import sys
from types import FrameType

from uvicorn.main import main
from uvicorn.server import Server

from app.config import get_settings
from app.draining import DRAIN


class DrainingServer(Server):
    """uvicorn's server, which drains the app before it closes the sockets."""

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if sig == signal.SIGTERM:
            DRAIN.begin()
        super().handle_exit(sig, frame)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        if DRAIN.draining:
            await DRAIN.run(within=get_settings().stop_seconds)
        await super().shutdown(sockets)

SERVE = ["app.main:app", "--http", "app.api.http_protocol:UpgradingHttpProtocol",
         "--ws", "app.api.websocket_protocol:DirectWebSocketProtocol",
         "--ws-per-message-deflate", "false", "--no-proxy-headers",
         "--ws-max-size", str(get_settings().max_frame_bytes),
         "--timeout-graceful-shutdown", str(get_settings().stop_seconds)]

if __name__ == "__main__":
    # The server the CLI starts (``uvicorn.main`` the module: the package's name is its command).
    setattr(importlib.import_module("uvicorn.main"), "Server", DrainingServer)  # noqa: B010
    main([*SERVE, *sys.argv[1:]])
