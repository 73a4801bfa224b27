"""Hostile clients are bounded, each on its own: frames, sockets, rooms and messages per client,
and a client that stops reading is cut off (issue 18, findings 2-5). One client at a limit never
affects another client."""

from __future__ import annotations

import asyncio
import json
import socket
import struct
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.client import ClientProtocol
from websockets.frames import Close as CloseFrame
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from tests.api.hostile import Stranger, hostile_server, server, started_table
from tests.server_fixture import ServerProcess

__all__ = ["server"]


class RawSocket:
    """A WebSocket client on a plain TCP socket: it writes what a test tells it to, byte for
    byte, and reads only when asked (``read_buffer``: its receive buffer, small = a slow
    reader)."""

    def __init__(self, server: ServerProcess, path: str, address: str,
                 read_buffer: int | None = None) -> None:
        self.sock = socket.socket()
        if read_buffer is not None:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, read_buffer)
        self.sock.connect(("127.0.0.1", server.port))
        self.protocol = ClientProtocol(parse_uri(f"ws://127.0.0.1:{server.port}{path}"))
        request = self.protocol.connect()
        request.headers["X-Forwarded-For"] = address
        self.protocol.send_request(request)
        self.sock.sendall(b"".join(self.protocol.data_to_send()))
        while not any(isinstance(e, Response) for e in self._events(timeout=5)):
            pass

    def _events(self, timeout: float) -> list[object]:
        self.sock.settimeout(timeout)
        data = self.sock.recv(65536)
        if not data:
            self.protocol.receive_eof()
        else:
            self.protocol.receive_data(data)
        return list(self.protocol.events_received())

    def send_texts(self, texts: list[str]) -> None:
        for text in texts:
            self.protocol.send_text(text.encode())
        self.sock.sendall(b"".join(self.protocol.data_to_send()))

    def announce_frame(self, length: int, first: bytes) -> None:
        """A masked text frame's header announcing ``length`` bytes, then only ``first``."""
        header = bytes([0x81, 0x80 | 127]) + struct.pack("!Q", length) + b"\x00" * 4
        self.sock.sendall(header + first)

    def close_code(self, timeout: float = 5.0) -> int | None:
        """Read until the server's close frame; its code (None: the connection just ended)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                events = self._events(timeout=deadline - time.monotonic())
            except (TimeoutError, ConnectionError):
                return None
            for event in events:
                if isinstance(event, Frame) and event.opcode is Opcode.CLOSE:
                    return CloseFrame.parse(event.data).code
            if self.protocol.state.name == "CLOSED":
                return None
        return None

    def close(self) -> None:
        self.sock.close()


def answers_to(mid: int) -> Callable[[dict[str, Any]], bool]:
    return lambda frame: frame.get("id") == mid


def established(port: int) -> int:
    """TCP connections the server (local port ``port``) holds open."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        path = Path(table)
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            if local_port == port and fields[3] == "01":  # 01: ESTABLISHED
                count += 1
    return count


async def test_a_frame_over_the_limit_is_refused_from_its_header_before_it_is_read(
    server: ServerProcess,
) -> None:
    stranger = Stranger(server)
    room = await stranger.create("Ann")
    raw = await asyncio.to_thread(RawSocket, server, f"/ws/rooms/{room['code']}",
                                  stranger.address)
    # 15 MiB announced, 1 KiB sent: the close comes without the other 15 MiB ever arriving.
    await asyncio.to_thread(raw.announce_frame, 15 * 2**20, b"x" * 1024)
    assert await asyncio.to_thread(raw.close_code) == 1009
    raw.close()
    other = await Stranger(server).connect(room["code"])
    assert (await other.wait_for(lambda f: f["type"] == "state"))["state"]["code"] == room["code"]
    await other.close()


async def test_one_address_gets_32_sockets_then_4503_and_another_address_still_connects(
    server: ServerProcess,
) -> None:
    greedy = Stranger(server)
    room = await greedy.create("Ann")
    sockets = [await greedy.connect(room["code"]) for _ in range(32)]
    for client in sockets:
        await client.wait_for(lambda f: f["type"] == "state")
    extra = await greedy.connect(room["code"])
    assert (await extra.wait_closed())[0] == 4503
    other = await Stranger(server).connect(room["code"])
    await other.wait_for(lambda f: f["type"] == "state")
    await sockets[0].close()
    await asyncio.sleep(0.2)
    again = await greedy.connect(room["code"])  # one closed: one may open
    await again.wait_for(lambda f: f["type"] == "state")
    for client in [*sockets[1:], other, again]:
        await client.close()


async def test_a_party_of_thirty_behind_one_address_each_plays_with_their_own_share(
    server: ServerProcess,
) -> None:
    """Thirty people on one Wi-Fi: 60 sockets and 1,500 messages from one address, past the
    limits of an address (32 anonymous sockets, 600 messages), all served: each person is
    counted by their own token. The address's anonymous sockets are still held to 32."""
    party = Stranger(server)
    sockets = []
    for table in range(3):
        room = await party.create(f"Host {table}")
        tokens = [room["token"]] + [(await party.join(room["code"], f"Guest {table}.{n}"))
                                    ["token"] for n in range(9)]
        for token in tokens:
            for _ in range(2):  # a phone and a laptop
                sockets.append(await party.connect(room["code"], token))
    for client in sockets:
        await client.wait_for(lambda f: f["type"] == "state")
    for n in range(25):
        for client in sockets:
            await client.ws.send(json.dumps({"type": "ping", "id": n}))
    for client in sockets:
        await client.wait_for(answers_to(24))
        assert not [f for f in client.frames if f["type"] == "error"]
        assert client.closed is None
    anonymous = [await party.connect(room["code"]) for _ in range(33)]
    assert (await anonymous[-1].wait_closed())[0] == 4503
    for client in anonymous[:-1]:
        await client.wait_for(lambda f: f["type"] == "state")
    for client in [*sockets, *anonymous]:
        await client.close()


async def test_one_person_holds_so_many_sockets_and_a_forged_token_counts_as_the_address(
    server: ServerProcess,
) -> None:
    one = Stranger(server)
    room = await one.create("Ann")
    mine = [await one.connect(room["code"], room["token"]) for _ in range(8)]
    for client in mine:
        await client.wait_for(lambda f: f["type"] == "state")
    ninth = await one.connect(room["code"], room["token"])
    assert (await ninth.wait_closed())[0] == 4503
    forger = Stranger(server)
    held = [await forger.connect(room["code"]) for _ in range(32)]
    for client in held:
        await client.wait_for(lambda f: f["type"] == "state")
    forged = await forger.connect(room["code"], "F" * 32)  # counted as the address's: full
    assert (await forged.wait_closed())[0] == 4503
    for client in [*mine, *held]:
        await client.close()


async def test_a_room_takes_so_many_spectators_then_4509_and_players_still_connect() -> None:
    with hostile_server("sqlite", UNO_SPECTATORS_PER_ROOM="3") as running:
        host = Stranger(running)
        room = await host.create("Ann")
        watchers = [await Stranger(running).connect(room["code"]) for _ in range(3)]
        for client in watchers:
            await client.wait_for(lambda f: f["type"] == "state")
        crowded = await Stranger(running).connect(room["code"])
        assert (await crowded.wait_closed())[0] == 4509
        ann = await host.connect(room["code"], room["token"])  # a player is never refused
        await ann.wait_for(lambda f: f["type"] == "state")
        for client in [*watchers, ann]:
            await client.close()


async def test_a_fresh_socket_after_4429_does_not_start_afresh_and_others_are_unaffected(
) -> None:
    with hostile_server("sqlite", UNO_CLIENT_RATE="150") as running:
        flooder = Stranger(running)
        room = await flooder.create("Ann")
        first = await flooder.connect(room["code"], room["token"])
        await first.wait_for(lambda f: f["type"] == "state")
        for _ in range(130):  # 100 allowed on this socket, then refused, then closed
            await first.ws.send('{"type": "ping"}')
        assert (await first.wait_closed())[0] == 4429
        second = await flooder.connect(room["code"], room["token"])
        await second.wait_for(lambda f: f["type"] == "state")
        for n in range(60):
            await second.ws.send(json.dumps({"type": "ping", "id": n}))
        answers = [await second.wait_for(answers_to(n)) for n in range(60)]
        # The client had 50 messages left in its window, not a new socket's 100.
        assert [a["type"] for a in answers] == ["pong"] * 50 + ["error"] * 10
        assert answers[-1]["code"] == "rate_limited"
        bystander = Stranger(running)
        watcher = await bystander.connect(room["code"])
        await watcher.wait_for(lambda f: f["type"] == "state")
        await watcher.send({"type": "ping", "id": "me"})
        assert (await watcher.wait_for(lambda f: f.get("id") == "me"))["type"] == "pong"
        await second.close()
        await watcher.close()


async def test_room_creation_is_limited_per_address_and_minute_with_retry_after() -> None:
    with hostile_server("sqlite", UNO_EMPTY_ROOMS_PER_CLIENT="100") as running:
        busy = Stranger(running)
        for _ in range(10):
            await busy.create("Ann")
        refused = await busy.post("/api/rooms", {"name": "Ann"})
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "rate_limited"
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        await Stranger(running).create("Bob")  # another address is not slowed down


async def test_open_rooms_nobody_joined_are_limited_per_address(server: ServerProcess) -> None:
    hoarder = Stranger(server)
    rooms = [await hoarder.create("Ann") for _ in range(5)]
    refused = await hoarder.post("/api/rooms", {"name": "Ann"})
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "too_many_rooms"
    await Stranger(server).join(rooms[0]["code"], "Bob")  # one of them is in use now
    await hoarder.create("Ann")


async def test_the_public_room_list_comes_a_page_at_a_time(server: ServerProcess) -> None:
    for _ in range(3):
        await Stranger(server).create("Ann")
    async with httpx.AsyncClient(base_url=server.http_url) as http:
        first = await http.get("/api/rooms?limit=2")
        assert first.status_code == 200 and len(first.json()) == 2
        total = int(first.headers["X-Total-Count"])
        assert total >= 3
        seen = [room["code"] for room in first.json()]
        link = first.headers["Link"]
        while link:
            url = link.split(">")[0].lstrip("<")
            page = await http.get(url)
            seen += [room["code"] for room in page.json()]
            link = page.headers.get("Link", "")
        assert len(seen) == len(set(seen)) == total
        everything = await http.get("/api/rooms")
        assert len(everything.json()) == min(total, 50)
        assert (await http.get("/api/rooms?limit=1000")).status_code == 422


async def test_a_client_that_stops_reading_is_closed_4408_and_its_connection_freed() -> None:
    with hostile_server("sqlite", log_level="info", UNO_SPECTATOR_RATE="100000",
                        UNO_CLIENT_RATE="100000") as running:
        stranger = Stranger(running)
        code, ann, bob = await started_table(stranger)
        before = established(running.port)
        slow = await asyncio.to_thread(RawSocket, running, f"/ws/rooms/{code}",
                                       stranger.address, 4096)
        assert established(running.port) == before + 1
        # It asks for state after state and never reads one: the server's queue fills up.
        for _ in range(100):
            try:
                await asyncio.to_thread(slow.send_texts, ['{"type": "sync"}'] * 50)
            except OSError:  # cut off already
                break
            if "dropping a socket" in running.full_log():
                break
        deadline = time.monotonic() + 10
        while established(running.port) > before and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert "dropping a socket with" in running.full_log()
        assert established(running.port) == before, "the dropped socket is still open"
        metrics = httpx.get(f"{running.http_url}/metrics").text
        assert "uno_sockets 2" in metrics
        await ann.ok("chat", text="the others play on")
        slow.close()
        await ann.close()
        await bob.close()
