"""The send side of one socket: ordered frames, the first frames before any later event, all
that is queued in one write where the server offers it, and a client that stops reading is
dropped after 64 queued frames."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from starlette.websockets import WebSocket

from app.api.connection import Connection
from app.api.websocket_protocol import SEND_BATCH
from app.codes import Close


class StuckSocket:
    """A socket whose peer never reads: the first send blocks forever. ``batches``: its server
    offers SEND_BATCH, and each batch it is given is kept as one write."""

    def __init__(self, blocked: bool, batches: bool = False) -> None:
        self.sent: list[str] = []
        self.writes: list[list[str]] = []
        self.closed: tuple[int, str] | None = None
        self.blocked = blocked
        self.scope: dict[str, Any] = {"extensions": {SEND_BATCH: {}} if batches else {}}

    async def send_text(self, text: str) -> None:
        if self.blocked:
            await asyncio.Event().wait()
        self.sent.append(text)
        self.writes.append([text])

    async def send(self, message: dict[str, Any]) -> None:
        assert message["type"] == "websocket.send" and SEND_BATCH in self.scope["extensions"]
        self.sent.extend(message[SEND_BATCH])
        self.writes.append(list(message[SEND_BATCH]))

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


def make(blocked: bool = False, batches: bool = False) -> tuple[Connection, StuckSocket]:
    ws = StuckSocket(blocked, batches)
    return Connection(cast(WebSocket, cast(Any, ws)), None, 64), ws


async def test_frames_before_the_first_state_are_dropped_or_kept_by_seq() -> None:
    conn, ws = make()
    conn.writer = asyncio.create_task(conn.write_loop())
    conn.deliver(4, "e4")
    conn.deliver(5, "e5")
    conn.deliver(6, "e6")
    conn.begin(["state@5"], 5)
    conn.deliver(7, "e7")
    conn.close(1000, "bye")
    async with asyncio.timeout(2):
        await conn.writer
    assert ws.sent == ["state@5", "e6", "e7"]
    assert ws.closed == (1000, "bye")


async def test_a_client_that_does_not_read_is_dropped_after_64_queued_frames() -> None:
    conn, _ws = make(blocked=True)
    conn.writer = asyncio.create_task(conn.write_loop())
    conn.begin([], 0)
    for i in range(64):
        conn.deliver(i + 1, f"e{i}")
    await asyncio.sleep(0)
    assert conn.closing is None
    conn.deliver(65, "e65")
    conn.deliver(66, "e66")
    assert conn.closing is not None and conn.closing[0] == Close.TOO_SLOW
    async with asyncio.timeout(2):
        await asyncio.gather(conn.writer, return_exceptions=True)
    assert conn.writer.cancelled()


async def test_a_moves_frames_go_out_in_one_write_where_the_server_offers_batches() -> None:
    conn, ws = make(batches=True)
    conn.writer = asyncio.create_task(conn.write_loop())
    conn.begin(["state@1"], 1)
    await asyncio.sleep(0.01)
    for seq in (2, 3, 4):  # one commit's events, delivered together by the hub
        conn.deliver(seq, f"e{seq}")
    await asyncio.sleep(0.01)
    conn.deliver(5, "e5")
    await asyncio.sleep(0.01)
    assert ws.writes == [["state@1"], ["e2", "e3", "e4"], ["e5"]]
    conn.writer.cancel()


async def test_without_batches_from_the_server_each_frame_is_its_own_send() -> None:
    conn, ws = make()
    conn.writer = asyncio.create_task(conn.write_loop())
    conn.begin([], 0)
    for seq in (1, 2, 3):
        conn.deliver(seq, f"e{seq}")
    await asyncio.sleep(0.01)
    assert ws.writes == [["e1"], ["e2"], ["e3"]]
    conn.writer.cancel()
