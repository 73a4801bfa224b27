"""The server's WebSocket protocol: frames handed to it are written at once, one write for a
batch, each frame reaching the client unchanged and in order; a close goes out at once even to
a client that does not read, and the connection is cut if the client never answers."""

from __future__ import annotations

import asyncio
import gc
import itertools
import logging
import weakref
from typing import Any, cast

from hypothesis import given, settings
from hypothesis import strategies as st
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.frames import Close, Frame, Opcode
from websockets.http11 import Request, Response
from websockets.uri import parse_uri

from app.api import keepalive, websocket_protocol
from app.api.frames import add_text_frames
from app.api.websocket_protocol import (
    CLOSED,
    DIRECT,
    READ_AHEAD,
    DirectReader,
    DirectSocket,
    DirectWebSocketProtocol,
)


class Wire:
    """The server's end of a socket: every write, as written."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closing = False
        self.aborted = False
        self.buffered = 0  # what the kernel has not taken: a client that does not read
        self.reading = True

    def write(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def abort(self) -> None:
        self.aborted = self.closing = True

    def get_write_buffer_size(self) -> int:
        return self.buffered

    def pause_reading(self) -> None:
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 50000), "sockname": ("127.0.0.1", 8000)}.get(
            name, default)


async def serve(app: Any, after: bytes = b"",
                protocol: type[DirectWebSocketProtocol] = DirectWebSocketProtocol,
                **settings: Any) -> tuple[Wire, ClientProtocol, DirectWebSocketProtocol]:
    """``app`` behind the protocol, a client's handshake done (``after``: bytes the client
    sent in the same packet; ``settings``: uvicorn's)."""
    config = Config(app=app, ws=protocol, ws_per_message_deflate=False, lifespan="off",
                    **settings)
    config.load()
    server = protocol(config, ServerState(), {})
    wire = Wire()
    server.connection_made(wire)  # type: ignore[arg-type]
    client = ClientProtocol(parse_uri("ws://127.0.0.1:8000/ws"))
    client.send_request(client.connect())
    server.data_received(b"".join(client.data_to_send()) + after)
    return wire, client, server


def frames_of(client: ClientProtocol, data: bytes) -> list[Frame]:
    client.receive_data(data)
    frames = []
    for event in client.events_received():
        if isinstance(event, Frame):
            frames.append(event)
        else:
            assert isinstance(event, Response) and event.status_code == 101
    return frames


def texts(frames: list[Frame]) -> list[str]:
    assert all(f.opcode is Opcode.TEXT for f in frames)
    return [bytes(f.data).decode() for f in frames]


async def accepted(app_body: Any,
                   protocol: type[DirectWebSocketProtocol] = DirectWebSocketProtocol,
                   **settings: Any) -> tuple[Wire, ClientProtocol, DirectWebSocketProtocol, Any]:
    """A server whose app accepted and handed its writer to ``app_body``."""
    ready: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        ready.set_result(scope["extensions"][DIRECT])
        await app_body(receive)

    wire, client, server = await serve(app, protocol=protocol, **settings)
    async with asyncio.timeout(2):
        writer = await ready
    assert frames_of(client, wire.writes.pop(0)) == []  # the handshake
    return wire, client, server, writer


async def forever(receive: Any) -> None:
    await asyncio.Event().wait()


async def test_frames_handed_over_are_one_write_of_separate_frames_in_order() -> None:
    wire, client, server, writer = await accepted(forever)
    assert writer.write_frames(['{"seq":2}', '{"seq":3}', "é"]) == 0  # nothing left unread
    assert writer.write_frames(['{"seq":4}']) == 0
    batch, single = wire.writes
    assert texts(frames_of(client, batch)) == ['{"seq":2}', '{"seq":3}', "é"]
    assert texts(frames_of(client, single)) == ['{"seq":4}']
    wire.buffered = 70_000  # the client stopped reading: the endpoint is told
    assert writer.write_frames(["x"]) == 70_000
    server.connection_lost(None)


async def test_frames_to_a_client_gone_are_not_written() -> None:
    wire, _client, server, writer = await accepted(forever)
    wire.closing = True
    assert writer.write_frames(["a", "b"]) == CLOSED
    assert wire.writes == []
    server.connection_lost(None)


async def test_a_close_goes_out_at_once_to_a_client_that_does_not_read_and_is_cut_off(
    monkeypatch: Any,
) -> None:
    monkeypatch.setattr(websocket_protocol, "CLOSE_WAIT", 0.05)
    received: list[Any] = []

    async def until_disconnect(receive: Any) -> None:
        received.append(await receive())

    wire, client, server, writer = await accepted(until_disconnect)
    server.pause_writing()  # the client's buffers are full
    wire.buffered = 200_000
    writer.close_now(4408, "too slow")
    (close,) = frames_of(client, wire.writes[-1])
    assert close.opcode is Opcode.CLOSE and close.data[:2] == (4408).to_bytes(2, "big")
    await asyncio.sleep(0.01)
    assert received == [{"type": "websocket.disconnect", "code": 4408, "reason": "too slow"}]
    assert writer.write_frames(["late"]) == CLOSED
    await asyncio.sleep(0.1)
    assert wire.aborted  # never answered: its buffers and descriptor are freed
    server.connection_lost(None)


async def test_a_shutdown_while_the_app_waits_sends_the_close_frame() -> None:
    wire, client, server, _writer = await accepted(forever)
    server.shutdown()  # SIGTERM: the close frame goes out, then the socket closes
    assert wire.closing
    (close,) = frames_of(client, b"".join(wire.writes))
    assert close.opcode is Opcode.CLOSE and close.data[:2] == (1012).to_bytes(2, "big")
    server.connection_lost(None)


async def test_messages_reach_the_app_in_order() -> None:
    got: list[str] = []

    async def reader(receive: Any) -> None:
        for _ in range(3):
            got.append((await receive())["text"])

    _wire, client, server, _writer = await accepted(reader)
    for text in ("a", "b", "c"):
        client.send_text(text.encode())
    server.data_received(b"".join(client.data_to_send()))
    await asyncio.sleep(0.01)
    assert got == ["a", "b", "c"]
    server.connection_lost(None)


@given(st.lists(st.one_of(st.integers(0, 140), st.sampled_from([65534, 65535, 65536, 70000])),
                min_size=1, max_size=3))
def test_text_frames_are_the_frames_websockets_would_send(sizes: list[int]) -> None:
    texts = ["é" * (size // 2) + "x" * (size % 2) for size in sizes]
    out: list[bytes] = []
    add_text_frames(out, texts)
    assert b"".join(out) == b"".join(Frame(Opcode.TEXT, text.encode()).serialize(
        mask=False, extensions=[]) for text in texts)


async def test_frames_after_the_client_closed_are_not_written() -> None:
    wire, client, server, writer = await accepted(forever)
    client.send_close(1000)
    server.data_received(b"".join(client.data_to_send()))
    written = len(wire.writes)
    assert writer.write_frames(["late"]) == CLOSED
    assert len(wire.writes) == written  # only the close's answer went out
    server.connection_lost(None)


async def test_the_socket_reads_ahead_a_few_messages_then_stops_until_the_app_takes_them(
) -> None:
    taken: list[str] = []
    go = asyncio.Event()

    async def reader(receive: Any) -> None:
        await go.wait()
        for _ in range(READ_AHEAD + 4):
            taken.append((await receive())["text"])

    wire, client, server, _writer = await accepted(reader)
    sent = [f"m{n}" for n in range(READ_AHEAD + 4)]
    for n, text in enumerate(sent):
        client.send_text(text.encode())
        server.data_received(b"".join(client.data_to_send()))
        # One message waiting is no reason to stop reading; READ_AHEAD of them are.
        assert wire.reading is (n + 1 < READ_AHEAD)
    go.set()
    await asyncio.sleep(0.01)
    assert taken == sent and wire.reading
    server.connection_lost(None)


async def test_the_reader_hands_messages_over_in_order_and_then_the_disconnect() -> None:
    got: list[Any] = []

    async def app_body(receive: Any) -> None:
        await asyncio.Event().wait()

    _wire, client, server, _writer = await accepted(app_body)
    reader = cast(DirectReader, server.scope["extensions"][DIRECT])
    assert not reader.ready()
    arrival = reader.arrival()
    client.send_text(b"a")
    client.send_binary(b"b")
    server.data_received(b"".join(client.data_to_send()))
    await asyncio.wait_for(arrival, 1)
    while reader.ready():
        got.append(reader.take_message())
    server.connection_lost(None)
    await asyncio.wait_for(reader.arrival(), 1)
    got.append(reader.take_message())
    assert got == [{"type": "websocket.receive", "text": "a"},
                   {"type": "websocket.receive", "bytes": b"b"},
                   {"type": "websocket.disconnect", "code": 1005}]


async def test_an_app_that_returns_with_frames_unread_is_cut_off(monkeypatch: Any) -> None:
    monkeypatch.setattr(websocket_protocol, "CLOSE_WAIT", 0.05)

    async def returns(receive: Any) -> None:
        return None

    wire, _client, server, _writer = await accepted(returns)
    wire.buffered = 200_000  # the client does not read what the app sent
    await asyncio.sleep(0.01)
    assert wire.closing and not wire.aborted
    await asyncio.sleep(0.1)
    assert wire.aborted
    server.connection_lost(None)


REQUESTS: list[weakref.ref[Request]] = []  # what Watched was handed


class Watched(DirectWebSocketProtocol):
    """The protocol, with a weak reference to each handshake request it was handed."""

    def handle_connect(self, event: Request) -> None:
        REQUESTS.append(weakref.ref(event))
        super().handle_connect(event)


async def test_a_socket_keeps_nothing_of_its_handshake_but_reads_on() -> None:
    got: list[str] = []

    async def reader(receive: Any) -> None:
        got.append((await receive())["text"])

    REQUESTS.clear()
    _wire, client, server, _writer = await accepted(reader, Watched)
    gc.collect()
    assert [ref() for ref in REQUESTS] == [None]  # the request and its headers
    assert vars(server) == {}  # every attribute in a slot: no dict per socket
    client.send_text(b"after")
    server.data_received(b"".join(client.data_to_send()))
    await asyncio.sleep(0.01)
    assert got == ["after"]
    server.connection_lost(None)


async def test_a_frame_sent_along_with_the_handshake_is_read() -> None:
    got: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        got.append((await receive())["text"])

    early = Frame(Opcode.TEXT, b"early").serialize(mask=True, extensions=[])
    _wire, _client, server = await serve(app, early)
    await asyncio.sleep(0.01)
    assert got == ["early"]
    server.connection_lost(None)


async def test_keepalive_pings_go_out_and_a_client_that_never_answers_is_closed(
    monkeypatch: Any,
) -> None:
    monkeypatch.setattr(keepalive, "_WHEEL", type(keepalive._WHEEL)())
    monkeypatch.setattr(keepalive, "TICK", 0.01)
    wire, client, server, _writer = await accepted(forever, ws_ping_interval=0.05,
                                                   ws_ping_timeout=0.2)
    await asyncio.sleep(0.08)
    (ping,) = frames_of(client, b"".join(wire.writes))
    assert ping.opcode is Opcode.PING
    client.send_pong(ping.data)  # answered: the next one follows
    server.data_received(b"".join(client.data_to_send()))
    await asyncio.sleep(0.06)
    assert [f.opcode for f in frames_of(client, b"".join(wire.writes[1:]))] == [Opcode.PING]
    assert not wire.closing
    await asyncio.sleep(0.3)  # not answered: closed
    assert wire.closing
    server.connection_lost(None)
    assert len(keepalive.pings(asyncio.get_running_loop())) == 0


async def test_an_app_that_fails_or_returns_early_gets_uvicorns_answers() -> None:
    # The app's coroutine is the protocol's task itself (``run_asgi``): what uvicorn's own
    # run_asgi did once the app ended is done when its task completes.
    logged: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: logged.append(record.getMessage())  # type: ignore[method-assign]
    logging.getLogger("uvicorn.error").addHandler(handler)

    async def fails(scope: Any, receive: Any, send: Any) -> None:
        raise RuntimeError("broken")

    async def returns(scope: Any, receive: Any, send: Any) -> None:
        return None

    def fails_at_once(scope: Any, receive: Any, send: Any) -> Any:
        raise RuntimeError("broken at once")

    async def fails_later(receive: Any) -> None:
        await receive()
        raise RuntimeError("broken later")

    try:
        for app in (fails, returns, fails_at_once):
            wire, _client, server = await serve(app, interface="asgi3", log_config=None)
            await asyncio.sleep(0.01)
            assert wire.closing
            assert b"".join(wire.writes).startswith(b"HTTP/1.1 500")
            server.connection_lost(None)
        assert logged.count("Exception in ASGI application\n") == 2
        assert "ASGI callable returned without completing handshake." in logged
        wire, client, server, _writer = await accepted(fails_later, log_config=None)
        client.send_text(b"x")
        server.data_received(b"".join(client.data_to_send()))
        await asyncio.sleep(0.01)
        assert wire.closing and logged.count("Exception in ASGI application\n") == 3
        server.connection_lost(None)
    finally:
        logging.getLogger("uvicorn.error").removeHandler(handler)


async def test_a_socket_holds_no_coroutine_of_the_protocol_around_the_apps() -> None:
    _wire, _client, server, _writer = await accepted(forever, proxy_headers=False)
    (task,) = server.tasks
    assert task.get_coro().__qualname__ == "accepted.<locals>.app"  # type: ignore[union-attr]
    server.connection_lost(None)


async def test_an_app_that_listens_may_end_its_task_and_the_socket_stays_open() -> None:
    # The room endpoint listens and returns (app.api.open_socket): the socket stays open with
    # no task of its own, and every message and the disconnect reach the listener in order.
    got: list[Any] = []
    listening: list[DirectSocket] = []

    async def app_body(receive: Any) -> None:
        reader = listening[0]

        def arrived() -> None:
            while reader.ready():
                got.append(reader.take_message())

        reader.listen(arrived)

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        listening.append(scope["extensions"][DIRECT])
        await app_body(receive)

    early = Frame(Opcode.TEXT, b"early").serialize(mask=True, extensions=[])
    wire, client, server = await serve(app, early)
    await asyncio.sleep(0.01)
    assert not server.tasks and not wire.closing  # the app's task ended; the socket is open
    assert got == [{"type": "websocket.receive", "text": "early"}]  # waiting when it listened
    assert frames_of(client, wire.writes.pop(0)) == []  # the handshake
    client.send_text(b"a")
    client.send_text(b"b")
    server.data_received(b"".join(client.data_to_send()))
    assert listening[0].write_frames(["to the client"]) == 0  # it still writes
    assert texts(frames_of(client, wire.writes[-1]))[-1] == "to the client"
    client.send_close(1000)
    server.data_received(b"".join(client.data_to_send()))
    assert got[1:] == [{"type": "websocket.receive", "text": "a"},
                       {"type": "websocket.receive", "text": "b"},
                       {"type": "websocket.disconnect", "code": 1000, "reason": ""}]
    listening[0].end()  # done with it: nothing more is called
    server.connection_lost(None)
    assert len(got) == 4


async def test_a_listening_app_ends_the_socket_with_frames_unread_and_it_is_cut_off(
    monkeypatch: Any,
) -> None:
    monkeypatch.setattr(websocket_protocol, "CLOSE_WAIT", 0.05)
    readers: list[DirectReader] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        reader = scope["extensions"][DIRECT]
        reader.listen(lambda: None)
        readers.append(reader)

    wire, _client, server = await serve(app)
    await asyncio.sleep(0.05)
    assert not server.tasks and not wire.closing  # the task ended, the socket did not
    wire.buffered = 200_000  # the client does not read what was sent
    readers[0].end()
    assert wire.closing and not wire.aborted
    await asyncio.sleep(0.1)
    assert wire.aborted
    server.connection_lost(None)


async def test_a_client_that_talks_is_not_pinged_until_it_falls_silent(monkeypatch: Any) -> None:
    # A frame from the client shows it alive as a pong would: a playing client is not pinged
    # (a write and a read a socket, every interval, for nothing); a silent one is, one interval
    # after it last spoke, and is closed if it does not answer.
    monkeypatch.setattr(keepalive, "_WHEEL", type(keepalive._WHEEL)())
    monkeypatch.setattr(keepalive, "TICK", 0.01)
    wire, client, server, _writer = await accepted(forever, ws_ping_interval=0.1,
                                                   ws_ping_timeout=0.1)
    for _ in range(12):  # talking for 0.36 s, more than three intervals
        client.send_text(b"move")
        server.data_received(b"".join(client.data_to_send()))
        await asyncio.sleep(0.03)
    assert [f.opcode for f in frames_of(client, b"".join(wire.writes))] == []
    wire.writes.clear()
    await asyncio.sleep(0.15)  # silent for an interval (and a tick): pinged
    assert [f.opcode for f in frames_of(client, b"".join(wire.writes))] == [Opcode.PING]
    await asyncio.sleep(0.15)  # the ping not answered: closed
    assert wire.closing
    server.connection_lost(None)


async def test_sockets_that_connect_together_are_not_pinged_together(monkeypatch: Any) -> None:
    monkeypatch.setattr(keepalive, "_WHEEL", type(keepalive._WHEEL)())
    monkeypatch.setattr(keepalive, "TICK", 0.01)
    pinged_at: list[float] = []
    loop = asyncio.get_running_loop()

    class Timed(DirectWebSocketProtocol):
        def send_keepalive_ping(self) -> None:
            before = self.pending_ping_payload
            super().send_keepalive_ping()
            if self.pending_ping_payload is not before:
                pinged_at.append(loop.time())

    opened = [await accepted(forever, Timed, ws_ping_interval=0.2, ws_ping_timeout=1.0)
              for _ in range(40)]
    started = loop.time()
    await asyncio.sleep(0.25)
    assert len(pinged_at) == 40  # each once, within the interval
    ticks = {round((at - started) / 0.01) for at in pinged_at}
    assert len(ticks) >= 6  # spread over half an interval (ten ticks), not all in one
    for _wire, _client, server, _writer in opened:
        server.connection_lost(None)


class ParserOnly(DirectWebSocketProtocol):
    """Every frame read by websockets' parser, as before the protocol read whole frames."""

    __slots__ = ()

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        self.whole_frames = False


def _masked(frame: Frame) -> bytes:
    return frame.serialize(mask=True, extensions=[])


def _not_utf8(data: bytes) -> bool:
    try:
        data.decode()
    except UnicodeDecodeError:
        return True
    return False


# What a client may send: messages (texts, binary, a fragmented text), pings and pongs, then
# perhaps a frame that ends the socket: a close, or one that breaks the protocol (a text that is
# not UTF-8, one past the 4096-byte limit or with a 64-bit length, a stray continuation, an
# unmasked frame, a reserved bit set).
_MESSAGE_BYTES = st.one_of(
    st.text(max_size=200).map(lambda t: _masked(Frame(Opcode.TEXT, t.encode()))),
    st.integers(4090, 4096).map(lambda n: _masked(Frame(Opcode.TEXT, b"x" * n))),
    st.binary(max_size=30).map(lambda b: _masked(Frame(Opcode.BINARY, b))),
    st.binary(max_size=20).map(lambda b: _masked(Frame(Opcode.PING, b))),
    st.binary(max_size=20).map(lambda b: _masked(Frame(Opcode.PONG, b))),
    st.just(_masked(Frame(Opcode.TEXT, b'{"a":', fin=False))
            + _masked(Frame(Opcode.CONT, b"1}"))),
)
_LAST_BYTES = st.one_of(
    st.just(b""),
    st.just(_masked(Frame(Opcode.CLOSE, Close(1000, "bye").serialize()))),
    st.binary(min_size=1, max_size=8).filter(_not_utf8).map(
        lambda b: _masked(Frame(Opcode.TEXT, b))),
    st.integers(4097, 4100).map(lambda n: _masked(Frame(Opcode.TEXT, b"x" * n))),
    st.just(_masked(Frame(Opcode.TEXT, b"y" * 70_000))),
    st.just(_masked(Frame(Opcode.CONT, b"stray"))),
    st.just(Frame(Opcode.TEXT, b"unmasked").serialize(mask=False, extensions=[])),
    st.just(bytes([0x81 | 0x40]) + _masked(Frame(Opcode.TEXT, b"rsv"))[1:]),
)


async def _what_the_app_gets(protocol: type[DirectWebSocketProtocol], reads: list[bytes]
                             ) -> tuple[list[dict[str, Any]], bytes, bool]:
    wire, _client, server, _writer = await accepted(forever, protocol)
    for data in reads:
        server.data_received(data)
    messages = []
    while server.ready():
        messages.append(server.take_message())
    server.connection_lost(None)
    return messages, b"".join(wire.writes), wire.closing


@settings(max_examples=300, deadline=None)
@given(st.lists(_MESSAGE_BYTES, max_size=8), _LAST_BYTES,
       st.lists(st.integers(1, 5000), max_size=6))
def test_frames_read_whole_are_read_as_websockets_parser_reads_them(
        sent: list[bytes], last: bytes, cuts: list[int]) -> None:
    # The protocol reads whole text frames itself: the app gets the same messages, and the
    # client the same pongs and close, as when websockets' parser reads every frame, however
    # the bytes are split between reads.
    data = b"".join(sent) + last
    bounds = sorted({0, len(data), *(cut for cut in cuts if cut < len(data))})
    reads = [data[a:b] for a, b in itertools.pairwise(bounds)]
    fast = asyncio.run(_what_the_app_gets(DirectWebSocketProtocol, reads))
    slow = asyncio.run(_what_the_app_gets(ParserOnly, reads))
    assert fast == slow


async def test_a_clients_text_frames_are_read_without_websockets_parser() -> None:
    # A move's frame arrives whole: it is read here, and websockets' parser is not resumed.
    wire, client, server, _writer = await accepted(forever)
    parsed: list[bytes] = []
    receive_data = server.conn.receive_data

    def parse(data: bytes | bytearray) -> None:
        parsed.append(bytes(data))
        receive_data(data)

    server.conn.receive_data = parse  # type: ignore[method-assign]
    client.send_text(b'{"type":"play"}')
    client.send_text("é".encode() * 100)
    server.data_received(b"".join(client.data_to_send()))
    assert server.whole_frames and parsed == []
    assert [server.take_message()["text"] for _ in range(2)] == ['{"type":"play"}', "é" * 100]
    client.send_ping(b"?")  # a control frame: websockets' parser reads on from here
    server.data_received(b"".join(client.data_to_send()))
    assert not server.whole_frames and frames_of(client, wire.writes[-1])[0].opcode is Opcode.PONG
    client.send_text(b"after")
    server.data_received(b"".join(client.data_to_send()))
    assert server.take_message()["text"] == "after" and len(parsed) == 2
    server.connection_lost(None)


async def test_a_message_read_along_with_a_frame_that_breaks_the_protocol_reaches_the_app() -> None:
    # uvicorn dropped every message of a read in which a later frame broke the protocol: the
    # same messages reached the app or not depending on how the network split the bytes.
    for protocol in (DirectWebSocketProtocol, ParserOnly):
        wire, _client, server, _writer = await accepted(forever, protocol)
        server.data_received(_masked(Frame(Opcode.TEXT, b"kept"))
                             + _masked(Frame(Opcode.TEXT, b"x" * 5000)))
        assert server.take_message() == {"type": "websocket.receive", "text": "kept"}
        assert server.take_message()["code"] == 1009 and wire.closing
        server.connection_lost(None)
