"""uvicorn's httptools protocol, which lets go of itself once a WebSocket took its connection
over, and gives each request ``UNO_REQUEST_SECONDS`` to arrive whole.

Its parser refers back to it, a cycle uvicorn breaks only in ``connection_lost``, and after an
upgrade that goes to the WebSocket's protocol: each socket's HTTP protocol (about 5 KB with its
parser, dict and scope) then waited as garbage for a full collection, hourly here
(``app.gc_schedule``).

uvicorn waits for a request's headers and body for ever: a client that connects and sends
nothing, or half a request, held a connection (and a stopping worker) as long as it liked, and
a stranger could hold thousands. Here a request's clock starts with the connection, or with the
request after a kept-alive one; if the request is not whole when it runs out, the connection
is answered 408 and closed. Waiting for the answer is not counted (a join may wait for the
host's approval). ``python -m app`` serves with it."""

from __future__ import annotations

import asyncio
from typing import cast

from httptools import HttpRequestParser
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.config import get_settings

_TIMED_OUT = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
              b"content-length: 36\r\nconnection: close\r\n\r\n"
              b"the request did not arrive in time\r\n")


class UpgradingHttpProtocol(HttpToolsProtocol):
    _request_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_request_clock()  # the first request: nothing sent yet counts too

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._request_timer is None:  # a request after a kept-alive one
            self._start_request_clock()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._stop_request_clock()

    def handle_websocket_upgrade(self) -> None:
        self._stop_request_clock()  # and no reference to this protocol left behind
        super().handle_websocket_upgrade()
        self.parser = cast(HttpRequestParser, None)  # as connection_lost does: the cycle ends

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_request_clock()
        super().connection_lost(exc)

    def _start_request_clock(self) -> None:
        self._request_timer = self.loop.call_later(get_settings().request_seconds,
                                                   self._request_timed_out)

    def _stop_request_clock(self) -> None:
        if self._request_timer is not None:
            self._request_timer.cancel()
            self._request_timer = None

    def _request_timed_out(self) -> None:
        self._request_timer = None
        if self.transport.is_closing():
            return
        cycle = self.cycle  # the request's, or (its headers not whole yet) the one before it
        if cycle is None or not cycle.response_started or cycle.response_complete:
            self.transport.write(_TIMED_OUT)  # not in the middle of another answer's bytes
        self.transport.close()
