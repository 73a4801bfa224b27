"""One WebSocket as the room layer sees it: a seat (or none), the frames of each turn of the
event loop sent together (one write where the server allows it, see ``sending``), and the rule
that a client which stops reading is dropped: once more than ``UNO_SEND_BUFFER_BYTES`` wait
unread, it is closed 4408 (the close frame goes out behind what is queued and the connection is
cut soon after, see ``websocket_protocol``).

Frames of events go out in seq order, and a ``state`` never after an event it does not include:
until ``begin`` (on connect, and again while a ``sync`` is answered: ``hold``) events wait. On
connect those the first frames cover are dropped (a resume's events include them); for a
``sync`` they go out first, then the state: the socket sees every event once, in order, and the
state after the events it covers."""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

from starlette.websockets import WebSocket

from app.codes import Close
from app.jsonwire import compact_json

from .sending import Sender, sender_for
from .websocket_protocol import CLOSED

log = logging.getLogger("uno.ws")
GONE = (1001, "the socket is closed")  # closing, with no close frame of ours to send


class Connection:
    __slots__ = ("_early", "_pending", "_sender", "_syncing", "buffer_limit", "closing", "ready",
                 "request", "seat", "spectator", "token_hash", "watcher", "ws")

    def __init__(self, ws: WebSocket, token_hash: str | None, buffer_limit: int,
                 sender: Sender | None = None) -> None:
        self.ws = ws
        self.token_hash = token_hash
        self.seat: int | None = None
        self.spectator: int | None = None
        self.watcher: int | None = None
        self.request: int | None = None
        self.buffer_limit = buffer_limit
        self.ready = False  # False until ``begin``: frames wait in ``_early``
        self._syncing = False  # the frames ``begin`` brings are a ``sync``'s state
        # Lists only while they hold frames (two empty lists are 112 bytes, per socket):
        self._early: list[tuple[int, str]] | None = None
        self._sender = sender or sender_for(ws)
        self._pending: list[str] | None = None  # this turn of the loop's frames, sent at its end
        self.closing: tuple[int, str] | None = None

    # -- the Viewer protocol (called by the hub and the room, never awaited) ----------------

    def deliver(self, seq: int, frames: list[str]) -> None:
        if not self.ready:
            if self._early is None:
                self._early = []
            self._early.extend(enumerate(frames, seq))
        else:
            self._push(frames)

    def begin(self, frames: list[str], seq: int) -> None:
        early, self._early = self._early or [], None
        if self._syncing:  # the events the state covers, as this socket would have had them
            self._push([frame for early_seq, frame in early if early_seq <= seq])
            self._syncing = False
        self._push(list(frames))
        if not self.ready:
            self._push([frame for early_seq, frame in early if early_seq > seq])
            self.ready = True

    def notice(self, frame: str) -> None:
        self._push([frame])

    def close(self, code: int, reason: str) -> None:
        """The close frame, behind the frames already given; never waits for the client."""
        if self.closing is None:
            self.closing = (code, reason)
            self.flush()
            self._sender.close(code, reason)

    # -- used by the endpoint --------------------------------------------------------------

    def hold(self) -> None:
        """Hold event frames back until the next ``begin`` (a ``sync`` is being answered)."""
        self.ready = False
        self._syncing = True

    def release(self) -> None:
        """Stop holding: the ``sync`` failed, so the held frames go out as they are."""
        self._syncing = False
        self.begin([], -1)

    @property
    def pending(self) -> int:
        return len(self._pending or ())

    def send(self, message: dict[str, Any]) -> None:
        self._push([compact_json(message)])

    def stop(self) -> None:
        """The socket is over (the endpoint returns)."""
        self.closing = self.closing or GONE
        self._pending = None
        self._sender.stop()

    def _push(self, frames: list[str]) -> None:
        """Queue ``frames`` (the list is this connection's to keep) for the end of the turn."""
        if self.closing is not None or not frames:
            return
        pending = self._pending
        if pending is None:  # the first of this turn: send them all at its end
            self._pending = frames
            _AT_TURN_END.add(self)
        else:
            pending.extend(frames)

    def flush(self) -> None:
        frames = self._pending
        if not frames:
            return
        self._pending = None
        unread = self._sender.send(frames)
        if unread > self.buffer_limit and self.closing is None:
            # The client does not read: drop it rather than hold frames for it forever.
            log.info("dropping a socket with %d bytes unread", unread)
            self.close(Close.TOO_SLOW, "too slow: frames are not being read")
        elif unread == CLOSED:
            self.closing = self.closing or GONE


class _FlushAtTurnEnd(threading.local):
    """The connections given frames during one turn of the event loop, each flushed at its end
    by one callback for them all (not one each: a move reaches every socket of its room).
    One per thread, as each thread runs its own loop (tests serve a worker on a thread)."""

    def __init__(self) -> None:
        self._due: list[Connection] = []
        self._loop: asyncio.AbstractEventLoop | None = None

    def add(self, connection: Connection) -> None:
        due = self._due
        due.append(connection)
        if len(due) == 1 or self._loop is None or self._loop.is_closed():
            self._due = [connection]  # what a closed loop left (tests) is gone with it
            self._loop = asyncio.get_running_loop()
            self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        due, self._due = self._due, []
        for connection in due:
            connection.flush()


_AT_TURN_END = _FlushAtTurnEnd()
