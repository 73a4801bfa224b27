"""uvicorn's httptools protocol, which lets go of itself once a WebSocket took its connection
over. Its parser refers back to it, a cycle uvicorn breaks only in ``connection_lost``, and after
an upgrade that goes to the WebSocket's protocol: each socket's HTTP protocol (about 5 KB with
its parser, dict and scope) then waited as garbage for a full collection, hourly here
(``app.gc_schedule``). ``python -m app`` serves with it."""

from __future__ import annotations

from typing import cast

from httptools import HttpRequestParser
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class UpgradingHttpProtocol(HttpToolsProtocol):
    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        self.parser = cast(HttpRequestParser, None)  # as connection_lost does: the cycle ends
