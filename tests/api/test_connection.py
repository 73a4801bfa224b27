"""The send side of one socket: ordered frames, the first frames before any later event, each
turn of the event loop's frames handed over together (one write where the server allows it),
and a client that stops reading dropped once too much waits unread."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from starlette.websockets import WebSocket

from app.api.connection import Connection
from app.api.websocket_protocol import CLOSED
from app.codes import Close


class Writer:
    """The server's side as the DIRECT extension offers it: each call is one write."""

    def __init__(self) -> None:
        self.writes: list[list[str]] = []
        self.closed: tuple[int, str] | None = None
        self.unread = 0  # bytes the client has not taken

    def write_frames(self, texts: list[str]) -> int:
        if self.closed is not None:
            return CLOSED
        self.writes.append(list(texts))
        return self.unread

    def close_now(self, code: int, reason: str) -> None:
        self.closed = (code, reason)

    @property
    def sent(self) -> list[str]:
        return [text for write in self.writes for text in write]


def direct(limit: int = 1000) -> tuple[Connection, Writer]:
    writer = Writer()
    socket: dict[str, Any] = {"scope": {"extensions": {"uno.direct": writer}}}
    ws = cast(WebSocket, type("Socket", (), socket)())
    return Connection(ws, None, limit), writer


async def test_frames_before_the_first_state_are_dropped_or_kept_by_seq() -> None:
    conn, writer = direct()
    conn.deliver(4, ["e4"])
    conn.deliver(5, ["e5"])
    conn.deliver(6, ["e6"])
    conn.begin(["state@5"], 5)
    conn.deliver(7, ["e7"])
    conn.close(1000, "bye")
    assert writer.sent == ["state@5", "e6", "e7"]  # the close waits for nothing
    assert writer.closed == (1000, "bye")


async def test_a_commits_frames_before_the_first_state_are_kept_from_the_seq_it_covers() -> None:
    conn, writer = direct()
    conn.deliver(4, ["e4", "e5", "e6"])  # one commit's three events, seqs 4 to 6
    conn.begin(["state@5"], 5)
    await asyncio.sleep(0)
    assert writer.sent == ["state@5", "e6"]


async def test_one_turn_of_the_event_loop_is_one_write() -> None:
    conn, writer = direct()
    conn.begin(["state@1"], 1)
    await asyncio.sleep(0)
    conn.deliver(2, ["e2", "e3"])  # one commit's events, delivered together by the hub
    conn.deliver(4, ["e4"])  # and another's, in the same turn
    await asyncio.sleep(0)
    conn.deliver(5, ["e5"])
    await asyncio.sleep(0)
    assert writer.writes == [["state@1"], ["e2", "e3", "e4"], ["e5"]]


async def test_a_client_that_does_not_read_is_dropped_once_too_much_waits_unread() -> None:
    conn, writer = direct(limit=1000)
    conn.begin([], 0)
    writer.unread = 1000
    conn.deliver(1, ["e1"])
    await asyncio.sleep(0)
    assert conn.closing is None
    writer.unread = 1001
    conn.deliver(2, ["e2"])
    await asyncio.sleep(0)
    assert writer.closed is not None and writer.closed[0] == Close.TOO_SLOW
    conn.deliver(3, ["e3"])  # nothing more for it
    await asyncio.sleep(0)
    assert writer.sent == ["e1", "e2"]


class SlowSocket:
    """Another ASGI server's socket, frame by frame; ``blocked``: the client does not read."""

    def __init__(self, blocked: bool) -> None:
        self.scope: dict[str, Any] = {"extensions": {}}
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None
        self.blocked = blocked

    async def send_text(self, text: str) -> None:
        if self.blocked:
            await asyncio.Event().wait()
        self.sent.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


async def test_under_another_server_frames_go_one_by_one_then_the_close() -> None:
    socket = SlowSocket(blocked=False)
    conn = Connection(cast(WebSocket, socket), None, 1000)
    conn.begin(["state@1", "e2"], 2)
    conn.close(1000, "bye")
    async with asyncio.timeout(2):
        while socket.closed is None:
            await asyncio.sleep(0.01)
    assert socket.sent == ["state@1", "e2"] and socket.closed == (1000, "bye")
    conn.stop()


async def test_under_another_server_a_client_that_does_not_read_is_still_closed(
    monkeypatch: Any,
) -> None:
    monkeypatch.setattr("app.api.sending.CLOSE_WAIT", 0.1)
    socket = SlowSocket(blocked=True)
    conn = Connection(cast(WebSocket, socket), None, 10)
    conn.begin([], 0)
    for seq in range(1, 5):
        conn.deliver(seq, [f"event {seq}"])
        await asyncio.sleep(0)
    assert conn.closing is not None and conn.closing[0] == Close.TOO_SLOW
    async with asyncio.timeout(2):
        while socket.closed is None:
            await asyncio.sleep(0.01)
    assert socket.closed[0] == Close.TOO_SLOW
    conn.stop()
