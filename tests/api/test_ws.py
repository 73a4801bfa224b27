"""The room socket's endpoint, apart from a server: what it keeps of the handshake."""

from __future__ import annotations

import sys
from typing import Any

from starlette.websockets import WebSocket

from app.api.websocket_protocol import DIRECT
from app.api.ws import forget_the_handshake, room_code


async def test_a_socket_keeps_of_its_handshake_only_what_it_still_uses() -> None:
    direct = object()  # the protocol
    scope: dict[str, Any] = {
        "type": "websocket", "asgi": {"version": "3.0", "spec_version": "2.4"},
        "http_version": "1.1", "scheme": "ws", "server": ("127.0.0.1", 8000),
        "client": ("203.0.113.9", 50000), "root_path": "", "path": "/ws/rooms/ABCD",
        "raw_path": b"/ws/rooms/ABCD", "query_string": b"token=secret",
        "headers": [(b"host", b"example.org")], "subprotocols": [], "state": {"a": 1},
        "extensions": {"websocket.http.response": {}, DIRECT: direct},
        "fastapi_astack": object(),  # the routing's own, read as a tournament socket ends
    }

    async def never(*_: Any) -> Any:
        raise AssertionError("not called")

    ws = WebSocket(scope, never, never)
    forget_the_handshake(ws)
    assert "headers" not in ws.scope and "query_string" not in ws.scope  # the token
    assert set(ws.scope) == {"type", "client", "extensions", "fastapi_astack"}
    assert ws.scope["extensions"] == {DIRECT: direct}  # what the socket reads and writes by
    assert ws.client is not None and ws.client.host == "203.0.113.9"
    assert ws.scope is scope  # the server's own, made smaller
    assert sys.getsizeof(scope) <= sys.getsizeof({k: v for k, v in scope.items()})


def test_a_room_socket_path_gives_its_code_and_no_other_path_does() -> None:
    assert room_code("/ws/rooms/ABCD") == "ABCD"
    assert room_code("/ws/rooms/ABCD/x") is None
    assert room_code("/ws/tournaments/ABCD") is None
