"""uvicorn's WebSocket protocol, with frames written without waiting, a frame limit checked
before a frame is read, a close that never waits for a client that does not read, and less
held per socket.

- ``DIRECT`` (an ASGI extension whose value is the protocol itself, a ``DirectSocket``; not a
  dict around it, 184 bytes a socket): the endpoint hands
  the protocol its frames and they are written at once, all of one turn of the event loop in a
  single write (``write_frames``), with no task or queue per socket on the endpoint's side. The
  protocol answers with the bytes the transport still holds for a client that reads slowly, so
  the endpoint drops a client that stopped reading. ``close_now`` writes the close frame.
- Incoming messages are limited to ``UNO_MAX_FRAME_BYTES`` by the frame parser, from the frame's
  header: a client announcing a 15 MiB frame is closed (1009) before its payload is buffered.
- A close is written at once, behind whatever is queued, even while the client does not read
  (uvicorn would wait until it did), and the connection is cut (``abort``: its buffers and
  descriptor freed) ``CLOSE_WAIT`` seconds later unless the client answered the close.
- uvicorn gives each socket an ``asyncio.Queue`` and an ``asyncio.Event`` (four deques, 3 KB);
  here they are a ``Mailbox`` and a ``Flag``, and the handshake's request is not kept (nor is
  websockets' parser that read it, ``forget_the_request``). Every attribute is in a slot, and
  the keepalive pings come from one timer per loop (``keepalive``), not a handle per socket.
- A socket is pinged only once its client has been silent for a whole ping interval: a frame
  from it shows it alive as well as a pong would (a playing client sends a move every few
  seconds), and a worker's pings were a write and a read of every socket every 20 s, sent in
  bursts that held every room up (README, issue 31). The first ping comes a random part of an
  interval early, so that sockets that connected together (a reconnect storm, a deploy) are
  not pinged together ever after. A client that stops answering is closed as before, one
  interval and the ping's timeout after it was last heard from.
- The endpoint takes each message from the protocol itself (``DirectReader``:
  ``arrival`` and ``take_message``), not through ASGI's ``receive``: its four coroutines a
  message, each waiting seconds for the client's next one, were the largest part of what the
  collector traversed. Or, once it ``listen``s, the protocol calls it whenever a message
  waits: the app's task may then end with the socket open (a task, its coroutine and the
  future it waits on, about 1 KB a socket), and the socket is closed when the endpoint says it
  is done with it (``end``), as the task's end would close it. uvicorn stops reading after
  every message until the app takes it (two calls into the event loop a message); here
  reading stops only once ``READ_AHEAD`` messages wait, which bounds what a socket buffers all
  the same.
- A client's text frames are read here while each arrives whole (``frames.whole_text_frame``,
  an eighth of websockets' parser's cost); the first bytes that are not (a control frame, a
  fragment, a frame split between reads, anything wrong) go to websockets' parser, at a
  frame's boundary, and it reads the socket from then on.
- A text frame is written as its header and the text (``frames.add_text_frames``): websockets'
  ``send_text`` cost six times more. With an extension negotiated, websockets writes them.

``python -m app`` serves with it; under any other server the extension is absent and
``app.api.sending`` sends frame by frame from a task.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol, cast

from uvicorn.config import Config
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.exceptions import InvalidState
from websockets.frames import Frame
from websockets.http11 import Request, Response
from websockets.protocol import Protocol as SansIOProtocol
from websockets.protocol import State
from websockets.server import ServerProtocol

from app.config import get_settings
from app.mailbox import Flag, Mailbox

from .frames import add_text_frames, whole_text_frame
from .keepalive import pings

DIRECT = "uno.direct"
CLOSE_WAIT = 2.0  # seconds a closed socket's client has to answer before it is cut off
CLOSED = -1  # what write_frames answers once the socket is closing: nothing was written
READ_AHEAD = 8  # messages waiting for the app before the socket stops reading
_LOCAL: dict[tuple[str, int | None], tuple[str, int | None]] = {}  # the addresses served


class DirectWriter(Protocol):
    def write_frames(self, texts: list[str]) -> int:
        """Each text as its own frame, in one write; the bytes still unsent, or ``CLOSED``."""

    def close_now(self, code: int, reason: str) -> None:
        """The close frame, behind what was written; never waits for the client."""


class DirectReader(Protocol):
    def ready(self) -> bool:
        """Whether a message waits."""

    def arrival(self) -> asyncio.Future[None]:
        """Done once a message waits (or the socket ends)."""

    def take_message(self) -> dict[str, Any]:
        """The oldest ASGI ``websocket.receive`` or ``websocket.disconnect`` message."""

    def listen(self, listener: Callable[[], None]) -> None:
        """From now on ``listener`` is called whenever a message is put (at once if one
        waits): the app's task may end, the socket stays open until ``end``."""

    def end(self) -> None:
        """The endpoint that ``listen``ed is done with the socket: it is closed (behind what
        was written), as the app's task's end would close it."""


class _Inbox(Mailbox[dict[str, Any]]):
    """A socket's received messages; each put calls the endpoint that listens, if one does."""

    __slots__ = ("listener",)

    def __init__(self) -> None:
        super().__init__()
        self.listener: Callable[[], None] | None = None

    def put(self, item: dict[str, Any]) -> None:
        super().put(item)
        if self.listener is not None:
            self.listener()

    put_nowait = put


class DirectSocket(DirectWriter, DirectReader, Protocol):
    """What ``DIRECT`` gives the endpoint: the socket to write to and read from."""


class DirectWebSocketProtocol(WebSocketsSansIOProtocol):
    # Every attribute uvicorn's protocol and this one set, in fixed slots: uvicorn's 38 were a
    # dict of 1.6 KB a socket (past 30 names CPython stops sharing an instance dict's keys).
    # A name not listed (a later uvicorn's) still goes to the instance's dict.
    __slots__ = (
        "app", "app_state", "asgi_version", "client", "close_sent", "close_timeout", "close_timer",
        "config", "conn", "connections", "curr_msg_data_type", "default_headers", "disconnected",
        "frames", "handed_over", "handshake_complete", "handshake_initiated", "heard_at", "inbox",
        "initial_response", "last_ping_rtt", "logger", "loop", "pending_ping_payload",
        "ping_interval", "ping_sent_at", "ping_slot", "ping_timeout", "ping_timer", "pong_timer",
        "queue", "read_paused", "request", "response", "root_path", "scheme", "scope", "server",
        "tasks", "transport", "whole_frames", "writable",
    )

    def __init__(self, config: Config, server_state: ServerState, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        limit = get_settings().max_frame_bytes
        if self.conn.max_message_size is None or self.conn.max_message_size > limit:
            self.conn.max_message_size = limit
        # Duck-typed for uvicorn's put_nowait / get / empty and set / clear / wait.
        self.inbox = _Inbox()
        self.queue = cast(Any, self.inbox)
        self.handed_over = False  # the endpoint ``listen``s: the app's task is not the socket's
        self.writable = cast(Any, Flag(is_set=True))
        self.ping_slot: int | None = None  # the tick of the next keepalive ping (``keepalive``)
        self.heard_at = 0.0  # the loop's time when the client last sent something
        self.whole_frames = False  # frames read here, websockets' parser at a boundary

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.heard_at = self.loop.time()
        if self.server is not None:  # the listening address: one tuple for all its sockets
            self.server = _LOCAL.setdefault(self.server, self.server)

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        self.request = cast(Request, None)  # its headers are in the scope already
        if self.handshake_initiated and not self.close_sent:
            self.scope["extensions"][DIRECT] = cast(Any, self)  # ours: no dict around it
            self.whole_frames = forget_the_request(self.conn)

    def run_asgi(self) -> Coroutine[Any, Any, None]:
        """The app's own coroutine, which uvicorn's task then runs: what uvicorn's ``run_asgi``
        did once the app returned is done in ``on_task_complete``, not in a coroutine of its
        own around the app's, alive as long as the socket (224 bytes a socket)."""
        try:
            running = self.app(self.scope, self.receive, self.send)
        except BaseException as exc:  # raised before any await: in the task, as uvicorn's
            running = _raise(exc)
        return running if asyncio.iscoroutine(running) else _wait(running)

    def on_task_complete(self, task: asyncio.Task[None]) -> None:
        # The app returned: as uvicorn's ``run_asgi`` would, then closes the transport (which
        # writes what is queued first).
        super().on_task_complete(task)
        error = None if task.cancelled() else task.exception()
        if self.handed_over and error is None and not task.cancelled():
            return  # the endpoint listens: it closes the socket (``end``) when it is done
        if task.cancelled() or (error is not None and not isinstance(error, ClientDisconnected)):
            self.logger.error("Exception in ASGI application\n",
                              exc_info=error or asyncio.CancelledError())
            self.send_500_response()
        elif error is None:
            if not self.handshake_complete:
                self.logger.error("ASGI callable returned without completing handshake.")
                self.send_500_response()
            elif task.result() is not None:
                self.logger.error("ASGI callable should return None, but returned '%s'.",
                                  task.result())
        self._close_transport()

    def _close_transport(self) -> None:
        if self.close_timer is None:
            self.transport.close()
        if self.close_timer is None and self.transport.get_write_buffer_size():
            self.close_timer = self.loop.call_later(CLOSE_WAIT, self._cut_off)

    def data_received(self, data: bytes) -> None:
        self.heard_at = self.loop.time()  # alive: no ping needed for another interval
        if self.whole_frames:
            data = self._read_whole_frames(data)
            if not data:
                return
        conn = self.conn
        conn.receive_data(data)
        if conn.parser_exc is not None:
            # uvicorn dropped the messages read before the frame that broke the protocol;
            # they reach the app first, as they do when they come in reads of their own.
            if self.handshake_initiated:
                self.handle_events()
            self.handle_parser_exception()
        elif conn.handshake_exc is not None and not self.handshake_initiated:
            self.handle_handshake_exception()
        else:
            self.handle_events()

    def _read_whole_frames(self, data: bytes) -> bytes:
        """Hand over the whole text frames ``data`` begins with; what is left (none, or the
        first bytes this does not read) goes to websockets' parser, which reads on."""
        conn = self.conn
        start = 0
        while start < len(data):
            frame = None
            if not self.close_sent and conn.state is State.OPEN and not conn.extensions:
                frame = whole_text_frame(data, start, conn.max_message_size)
            if frame is None:
                self.whole_frames = False  # websockets' parser from here on
                return data[start:]
            text, start = frame
            self.curr_msg_data_type = "text"
            self._deliver(text)
        return b""

    # The keepalive pings, from the loop's one wheel rather than a timer handle per socket, and
    # only to a client silent for a whole interval.
    def start_keepalive(self) -> None:
        if self.ping_interval:  # the first ping a random part of an interval early
            self.heard_at -= random.uniform(0.0, self.ping_interval / 2)
        super().start_keepalive()

    def schedule_ping(self) -> None:
        assert self.ping_interval is not None
        delay = max(0.0, self.heard_at + self.ping_interval - self.loop.time())
        self.ping_slot = pings(self.loop).add(self, delay)

    def send_keepalive_ping(self) -> None:
        self.ping_slot = None
        assert self.ping_interval is not None
        if self.loop.time() < self.heard_at + self.ping_interval:
            self.schedule_ping()  # heard from since this ping was set: not due yet
            return
        super().send_keepalive_ping()

    def stop_keepalive(self) -> None:
        if self.ping_slot is not None:
            pings(self.loop).remove(self, self.ping_slot)
            self.ping_slot = None
        super().stop_keepalive()

    def send_500_response(self) -> None:
        if not self.conn.eof_sent:  # not a socket the server's own shutdown closed (a drain)
            super().send_500_response()

    async def send(self, message: Any) -> None:
        if self.conn.eof_sent or self.transport.is_closing():
            return  # the server's own shutdown closed it first (a drain): nothing goes out
        if message["type"] == "websocket.close" and self.handshake_complete:
            self.close_now(message.get("code", 1000), message.get("reason") or "")
            return
        await super().send(message)
        if message["type"] == "websocket.accept":
            self.response = cast(Response, None)  # sent: its headers are not needed again

    def ready(self) -> bool:
        return not self.inbox.empty()

    def arrival(self) -> asyncio.Future[None]:
        return self.inbox.arrival()

    def take_message(self) -> dict[str, Any]:
        message = self.inbox.take()
        if self.read_paused and len(self.inbox) < READ_AHEAD:
            self.read_paused = False
            self.transport.resume_reading()
        return message

    def listen(self, listener: Callable[[], None]) -> None:
        self.handed_over = True
        self.inbox.listener = listener
        if not self.inbox.empty():
            listener()

    def end(self) -> None:
        self.inbox.listener = None
        self._close_transport()

    async def receive(self) -> Any:
        """ASGI's receive (the handshake, and any app that reads through it)."""
        while self.inbox.empty():
            await self.arrival()
        return self.take_message()

    def handle_text(self, event: Frame) -> None:
        if not event.fin:
            super().handle_text(event)  # a fragmented message: uvicorn joins its frames
            return
        self.curr_msg_data_type = "text"
        self._deliver(bytes(event.data))

    def send_receive_event_to_app(self) -> None:
        frames, self.frames = self.frames, []
        self._deliver(frames[0] if len(frames) == 1 else b"".join(frames))

    def _deliver(self, data: bytes) -> None:
        if self.close_sent:
            return  # past the close: reading goes on until the client's close arrives
        if self.curr_msg_data_type == "text":
            try:
                message: dict[str, Any] = {"type": "websocket.receive", "text": data.decode()}
            except UnicodeDecodeError:
                if self.conn.state is State.OPEN:  # else a later frame failed it already
                    self.conn.send_close(1007)
                    self.handle_parser_exception()
                return
        else:
            message = {"type": "websocket.receive", "bytes": data}
        self.inbox.put(message)
        if not self.read_paused and len(self.inbox) >= READ_AHEAD:
            self.read_paused = True
            self.transport.pause_reading()

    def write_frames(self, texts: list[str]) -> int:
        if self.close_sent or self.disconnected or self.transport.is_closing():
            return CLOSED
        conn = self.conn
        if conn.state is not State.OPEN:  # the client closed first
            return CLOSED
        if conn.extensions:
            try:
                for text in texts:
                    conn.send_text(text.encode())
            except InvalidState:
                return CLOSED
            out = conn.data_to_send()
        else:  # behind anything websockets queued (a pong)
            out = conn.data_to_send() if conn.writes else []
            add_text_frames(out, texts)
        self.transport.write(b"".join(out))
        return self.transport.get_write_buffer_size()

    def close_now(self, code: int, reason: str) -> None:
        # Written now even if the client stopped reading (uvicorn waits for it to drain),
        # and cut off if the client does not answer: a dropped reader frees its buffers.
        if self.close_sent or self.disconnected or self.transport.is_closing():
            return
        self.queue.put_nowait({"type": "websocket.disconnect", "code": code, "reason": reason})
        self.conn.send_close(code, reason)
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        if self.read_paused:
            self.read_paused = False
            self.transport.resume_reading()
        self._cut_off_later()

    def _cut_off_later(self) -> None:
        if self.close_timer is not None:
            self.close_timer.cancel()
        if not self.transport.is_closing() or self.transport.get_write_buffer_size():
            self.close_timer = self.loop.call_later(CLOSE_WAIT, self._cut_off)

    def _cut_off(self) -> None:
        self.close_timer = None
        self.transport.abort()


async def _raise(exc: BaseException) -> None:
    raise exc


async def _wait(running: Awaitable[None]) -> None:
    await running


def forget_the_request(conn: ServerProtocol) -> bool:
    """websockets' server parser is a generator that read the handshake's request into a
    local and then parses frames for the socket's life, keeping the request and its headers
    (1.5 KB) alive: once nothing past the request is buffered it is waiting for a frame's
    first byte, and a fresh frame parser takes its place; whether it did."""
    if not conn.reader.buffer and conn.parser_exc is None:
        conn.parser = SansIOProtocol.parse(conn)
        next(conn.parser)
        return True
    return False
