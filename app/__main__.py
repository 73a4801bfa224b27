"""``python -m app [uvicorn options]``: uvicorn serving ``app.main:app`` as every launcher does.

Incoming WebSocket messages are limited to ``UNO_MAX_FRAME_BYTES`` (the protocol enforces it
from each frame's header, so nothing larger is buffered). uvicorn's own reading of
X-Forwarded-For is off: the app reads it only from ``UNO_TRUSTED_PROXIES`` (app/api/clients.py).

Frames are a few hundred bytes: compressing them (permessage-deflate) cost a fifth of a worker's
CPU per move in bench/server.py, and a zlib state per socket. The WebSocket protocol writes the
frames a socket is handed at once, each turn of the event loop's in one system call
(app/api/websocket_protocol.py). Options given here come after these, so they win.
"""

from __future__ import annotations

import sys

from uvicorn.main import main

from app.config import get_settings

SERVE = ["app.main:app", "--ws", "app.api.websocket_protocol:DirectWebSocketProtocol",
         "--ws-per-message-deflate", "false", "--no-proxy-headers",
         "--ws-max-size", str(get_settings().max_frame_bytes)]

if __name__ == "__main__":
    main([*SERVE, *sys.argv[1:]])
