"""A room socket once it is open: its messages read, held to the limits and answered.

Under ``python -m app`` the socket is read by the protocol's calls (``DirectReader.listen``):
once it is open the endpoint's coroutine returns and its task ends, so a socket waiting for
its client's next message holds no task, coroutine or future (about 1 KB a socket; README,
issue 31), only this object. A message is read in the turn of the event loop after it arrives,
as the task would have read it; a command to a room run here goes straight into the room's
inbox (``command_then``), and only a ``sync``, or a command to a room another worker runs,
takes a task while it is answered. Under any other server the endpoint's coroutine reads
(``read``), with the same limits and answers. Either way one message is answered before the
next is read, and ``finish`` runs once, when the socket is over."""

from __future__ import annotations

import asyncio
import logging
import time
from functools import partial
from typing import Any

from starlette.websockets import WebSocket

from app.codes import Close, Err
from app.engine import EngineError
from app.rooms import RoomError, RoomHandle
from app.rooms.errors import RoomUnavailable
from app.rooms.handle import LocalRoomHandle
from app.rooms.hub import person_of
from app.rooms.messages import SeatCommand
from app.rooms.metrics import METRICS

from .connection import Connection
from .deps import Services
from .limits import RateLimiter, Ticket
from .messages import BadFrame, Parsed, parse_frame
from .socket_reading import next_text, text_of
from .websocket_protocol import DirectReader

log = logging.getLogger("uno.ws")

_ANSWERING: set[asyncio.Task[None]] = set()  # held while they run (the loop keeps weak refs)


class OpenSocket:
    """One open room socket: its connection, its room and its message limiter."""

    __slots__ = ("_busy", "_due", "_ended", "_local", "_reader", "conn", "limiter", "room",
                 "services", "ticket")

    def __init__(self, services: Services, ticket: Ticket, room: RoomHandle,
                 conn: Connection) -> None:
        settings = services.settings
        limit = settings.player_rate if conn.seat is not None else settings.spectator_rate
        self.limiter = RateLimiter(limit, settings.rate_window_seconds, settings.rate_abuse_extra)
        self.services = services
        self.ticket = ticket
        self.room = room
        self.conn = conn
        # A room run here takes a command with no task in between.
        self._local = room if isinstance(room, LocalRoomHandle) else None
        self._reader: DirectReader | None = None
        self._busy = False  # a message is being answered: the next waits
        self._due = False  # a read is scheduled
        self._ended = False
        METRICS.sockets += 1

    # -- the limits --------------------------------------------------------------------------

    def admit(self, text: str) -> bool:
        """Whether ``text`` is within the frame size and the rates of this socket, its person
        and its address; if not it was answered (an error frame) or the socket closed."""
        services, conn = self.services, self.conn
        max_bytes = services.settings.max_frame_bytes
        # The protocol refuses larger frames unread (python -m app); for other servers:
        if len(text) > max_bytes // 4 and len(text.encode()) > max_bytes:
            METRICS.error("too_big")
            conn.close(Close.TOO_BIG, f"frames are limited to {max_bytes} bytes")
            return False
        limits = services.limits
        key, address = self.ticket.key, self.ticket.address
        now = time.monotonic()
        if (self.limiter.allow(now) and limits.messages.allow(key, now)
                and limits.address_messages.allow(address, now)):
            return True
        if (self.limiter.abusive or limits.messages.abusive(key)
                or limits.address_messages.abusive(address)):
            conn.close(Close.FLOOD, "too many messages")
        else:
            _error(conn, _id_of(text), Err.RATE_LIMITED, "too many messages: slow down")
        return False

    # -- reading by the protocol's calls (python -m app) -------------------------------------

    def listen(self, reader: DirectReader) -> None:
        """Read by ``reader``'s calls from now on; the endpoint's coroutine may return."""
        self._reader = reader
        reader.listen(self._arrived)

    def _arrived(self) -> None:
        if not self._due and not self._busy and not self._ended:
            self._due = True
            asyncio.get_running_loop().call_soon(self._read)

    def _read(self) -> None:
        self._due = False
        try:
            self._read_waiting()
        except Exception:
            log.exception("room %s: a socket's message failed", self.room.code)
            self._fail()

    def _read_waiting(self) -> None:
        conn, reader = self.conn, self._reader
        assert reader is not None
        while not self._busy and not self._ended:
            if conn.closing is not None:
                self.finish()
                return
            if not reader.ready():
                return
            text = text_of(reader.take_message())
            if text is None:
                self.finish()
            elif self.admit(text):
                parsed = first_answer(conn, text)
                if parsed is not None:
                    self._answer(parsed)

    def _answer(self, parsed: Parsed) -> None:
        conn, mid = self.conn, parsed.id
        self._busy = True
        if parsed.command is not None and self._local is not None:
            applied = None if mid is None else partial(_ack, conn, mid)
            self._local.command_then(
                SeatCommand(person_of(conn), parsed.command, parsed.seq, applied),
                partial(self._answered, mid))
            return
        task = asyncio.ensure_future(answer(conn, self.room, parsed))
        _ANSWERING.add(task)
        task.add_done_callback(self._answered_by_task)

    def _answered(self, mid: str | int | None, done: asyncio.Future[Any]) -> None:
        error = RoomUnavailable() if done.cancelled() else done.exception()
        if isinstance(error, EngineError | RoomError):
            _error(self.conn, mid, error.code, error.message)
        elif error is not None:
            log.error("room %s: a command failed", self.room.code, exc_info=error)
            self._fail()
            return
        self._next()

    def _answered_by_task(self, task: asyncio.Task[None]) -> None:
        _ANSWERING.discard(task)
        error = None if task.cancelled() else task.exception()
        if error is not None or task.cancelled():
            log.error("room %s: a socket's message failed", self.room.code, exc_info=error)
            self._fail()
            return
        self._next()

    def _next(self) -> None:
        self._busy = False
        if self.conn.pending:  # the replies go out before the next message is read
            self._arrived()
        else:
            self._read()

    def _fail(self) -> None:
        """A bug or a failure nobody answered for: the client reconnects and resumes."""
        self._busy = False
        self.conn.close(Close.TRY_LATER, "the room cannot be reached now: try again")
        self.finish()

    # -- reading by the endpoint's coroutine (any other server) ------------------------------

    async def read(self, ws: WebSocket) -> None:
        """Read until the client goes or the socket is closed; ``finish`` at the end."""
        conn = self.conn
        try:
            while conn.closing is None:
                text = await next_text(ws)
                if text is None:
                    return
                if not self.admit(text):
                    continue
                parsed = first_answer(conn, text)
                if parsed is not None:
                    await answer(conn, self.room, parsed)
                if conn.pending:
                    await asyncio.sleep(0)  # the replies go out before the next message is read
        finally:
            self.finish()

    # -- the end -----------------------------------------------------------------------------

    def finish(self) -> None:
        """The socket is over (its client went, or it was closed): it leaves its room, its
        ticket is given back and, read by the protocol's calls, it is closed. Once."""
        if self._ended:
            return
        self._ended = True
        METRICS.sockets -= 1
        services, room, conn = self.services, self.room, self.conn
        try:
            leave(services, room, conn)
            if not room.stopped:
                room.disconnect(conn)
        finally:
            services.limits.sockets.close(self.ticket)
            if self._reader is not None:
                self._reader.end()


def leave(services: Services, room: RoomHandle, conn: Connection) -> None:
    conn.stop()
    services.hub.detach(room.code, conn)


def first_answer(conn: Connection, text: str) -> Parsed | None:
    """``text`` parsed by its model; None when it is answered already (a bad frame, a ping)."""
    try:
        parsed = parse_frame(text)
    except BadFrame as exc:
        _error(conn, exc.id, Err.BAD_MESSAGE, exc.message)
        return None
    if parsed.type == "ping":
        conn.send({"type": "pong", "id": parsed.id})
        return None
    return parsed


async def answer(conn: Connection, room: RoomHandle, parsed: Parsed) -> None:
    """A command or a ``sync``, answered with its ack or an error frame."""
    mid = parsed.id
    try:
        if parsed.command is None:  # sync: events wait until the fresh state is queued
            conn.hold()
            try:
                await room.sync(conn)
            finally:
                if not conn.ready:
                    conn.release()
        else:  # the ack goes with the command's events (an ack follows its events)
            await room.command(person_of(conn), parsed.command, parsed.seq,
                               None if mid is None else partial(_ack, conn, mid))
            return
    except (EngineError, RoomError) as exc:
        _error(conn, mid, exc.code, exc.message)
        return
    if mid is not None:
        _ack(conn, mid)


async def handle_text(conn: Connection, room: RoomHandle, text: str) -> None:
    """One client message: parsed once, by its model, then answered with ack or error."""
    parsed = first_answer(conn, text)
    if parsed is not None:
        await answer(conn, room, parsed)


def _id_of(text: str) -> str | int | float | None:
    try:
        return parse_frame(text).id
    except BadFrame as exc:
        return exc.id


def _error(conn: Connection, mid: str | int | float | None, code: str, message: str) -> None:
    METRICS.error(code)
    conn.send({"type": "error", "id": mid, "code": code, "message": message})


def _ack(conn: Connection, mid: str | int | float) -> None:
    conn.send({"type": "ack", "id": mid})
