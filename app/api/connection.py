"""One WebSocket as the room layer sees it: a seat (or none), a bounded send queue drained by a
writer task (all that is queued in one write, where the server can: SEND_BATCH), and the rule
that a client which stops reading is dropped (4408: the close frame goes out behind what is
queued and the connection is cut soon after, see ``websocket_protocol``).

Frames of events go out in seq order, and a ``state`` never after an event it does not include:
until ``begin`` (on connect, and again while a ``sync`` is answered: ``hold``) events wait, and
those the first frames already cover are dropped."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from starlette.websockets import WebSocket

from app.codes import Close
from app.jsonwire import compact_json
from app.mailbox import Mailbox

from .websocket_protocol import SEND_BATCH

log = logging.getLogger("uno.ws")


class Connection:
    def __init__(self, ws: WebSocket, token_hash: str | None, queue_limit: int) -> None:
        self.ws = ws
        self.token_hash = token_hash
        self.seat: int | None = None
        self.watcher: int | None = None
        self.queue_limit = queue_limit
        self.ready = False  # False until ``begin``: frames wait in ``_early``
        self._early: list[tuple[int, str]] = []
        self._queue: Mailbox[str] = Mailbox()
        self.closing: tuple[int, str] | None = None
        self.close_sent = False
        self.writer: asyncio.Task[None] | None = None

    # -- the Viewer protocol (called by the hub and the room, never awaited) ----------------

    def deliver(self, seq: int, frame: str) -> None:
        if not self.ready:
            self._early.append((seq, frame))
        else:
            self._push(frame)

    def begin(self, frames: list[str], seq: int) -> None:
        for frame in frames:
            self._push(frame)
        if not self.ready:
            for early_seq, frame in self._early:
                if early_seq > seq:
                    self._push(frame)
            self._early.clear()
            self.ready = True

    def notice(self, frame: str) -> None:
        self._push(frame)

    def close(self, code: int, reason: str) -> None:
        if self.closing is None:
            self.closing = (code, reason)
            self._queue.wake()

    # -- used by the endpoint --------------------------------------------------------------

    def hold(self) -> None:
        """Hold event frames back until the next ``begin`` (a ``sync`` is being answered)."""
        self.ready = False

    def release(self) -> None:
        """Stop holding: the ``sync`` failed, so the held frames go out as they are."""
        self.begin([], -1)

    @property
    def queued(self) -> int:
        return len(self._queue)

    def send(self, message: dict[str, Any]) -> None:
        self._push(compact_json(message))

    def _push(self, frame: str) -> None:
        if self.closing is not None:
            return
        if len(self._queue) >= self.queue_limit:
            # The client does not read: drop it rather than hold frames for it forever.
            log.info("dropping a socket with %d frames unsent", len(self._queue))
            self.closing = (Close.TOO_SLOW, "too slow: frames are not being read")
            self._queue.take_all()
            if self.writer is not None:
                self.writer.cancel()
            return
        self._queue.put(frame)

    async def write_loop(self) -> None:
        """Send queued frames in order; on ``close`` send what is queued, the close frame, stop."""
        queue = self._queue
        batches = SEND_BATCH in self.ws.scope.get("extensions", {})
        while True:
            await queue.wait()
            while queue:
                if batches and len(queue) > 1:
                    frames = queue.take_all()
                    await self.ws.send({"type": "websocket.send", SEND_BATCH: frames})
                else:
                    await self.ws.send_text(queue.take())
            if self.closing is not None:
                await self.send_close()
                return

    async def send_close(self) -> None:
        """The close frame of ``closing``, once (the protocol never waits for the client)."""
        if self.closing is None or self.close_sent:
            return
        self.close_sent = True
        code, reason = self.closing
        with contextlib.suppress(RuntimeError):  # the client closed first
            await self.ws.close(code, reason)
