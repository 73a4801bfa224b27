"""How a socket's frames leave: ``DirectSender`` hands them to ``python -m app``'s protocol,
which writes them at once (``websocket_protocol.DIRECT``); ``QueuedSender``, under any other
ASGI server, queues them for a task that sends them one by one. Either says how many bytes the
client has left unread, so that ``Connection`` drops a client that stopped reading."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Protocol

from starlette.websockets import WebSocket

from app.mailbox import Mailbox

from .websocket_protocol import CLOSE_WAIT, CLOSED, DIRECT, DirectWriter


class Sender(Protocol):
    def send(self, frames: list[str]) -> int:
        """Send (or queue) the frames, in order; the bytes not yet taken by the client, or
        ``CLOSED`` once the socket is closing (nothing was sent)."""

    def close(self, code: int, reason: str) -> None:
        """The close frame, behind the frames sent; never waits for the client."""

    def stop(self) -> None:
        """The socket is over: free what is held."""


def sender_for(ws: WebSocket) -> Sender:
    direct = ws.scope.get("extensions", {}).get(DIRECT)
    if direct is not None:
        return DirectSender(direct)
    return QueuedSender(ws)


class DirectSender:
    __slots__ = ("_writer", "send")

    def __init__(self, writer: DirectWriter) -> None:
        self._writer = writer
        self.send = writer.write_frames  # the writer's own: no call between, for every flush

    def close(self, code: int, reason: str) -> None:
        self._writer.close_now(code, reason)

    def stop(self) -> None:
        pass


class QueuedSender:
    """Frame by frame from a task, as ASGI allows. A client that stopped reading holds that task
    in ``send_text``: a close waits ``CLOSE_WAIT`` seconds at most for what is queued."""

    def __init__(self, ws: WebSocket) -> None:
        self._ws = ws
        self._queue: Mailbox[str] = Mailbox()
        self._unsent = 0
        self._closed = False
        self._task = asyncio.create_task(self._run())
        self._closing: asyncio.Task[None] | None = None

    def send(self, frames: list[str]) -> int:
        if self._closed:
            return CLOSED
        for frame in frames:
            self._queue.put(frame)
            self._unsent += len(frame)
        return self._unsent

    async def _run(self) -> None:
        queue = self._queue
        while True:
            await queue.wait()
            while queue:
                frame = queue.take()
                await self._ws.send_text(frame)
                self._unsent -= len(frame)

    def close(self, code: int, reason: str) -> None:
        if self._closed:
            return
        self._closed = True
        self._closing = asyncio.create_task(self._close(code, reason))

    async def _close(self, code: int, reason: str) -> None:
        loop = asyncio.get_running_loop()
        give_up = loop.time() + CLOSE_WAIT
        while self._unsent and not self._task.done() and loop.time() < give_up:
            await asyncio.sleep(0.05)  # a rare path (another server): polling keeps it short
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task
        with contextlib.suppress(Exception):  # the client closed first
            await self._ws.close(code, reason)

    def stop(self) -> None:
        self._task.cancel()
