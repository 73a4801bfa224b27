"""A test WebSocket client: records every frame it receives, waits with timeouts only."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import Callable
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

from tests.server_fixture import ServerProcess

Frame = dict[str, Any]
TIMEOUT = 5.0
_ids = itertools.count(1)


class Client:
    def __init__(self, ws: ClientConnection, seat: int | None, token: str | None) -> None:
        self.ws = ws
        self.seat = seat
        self.token = token
        self.frames: list[Frame] = []  # every frame ever received, in order
        self.cursor = 0  # frames before this index were consumed by a wait
        self.closed: tuple[int | None, str] | None = None
        self._arrived = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                self.frames.append(json.loads(raw))
                self._arrived.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = (self.ws.close_code, self.ws.close_reason or "")
            self._arrived.set()

    @property
    def last_seq(self) -> int:
        seqs = [f["seq"] for f in self.frames if "seq" in f]
        return max(seqs) if seqs else 0

    async def wait_for(self, pred: Callable[[Frame], bool], timeout: float = TIMEOUT) -> Frame:
        """The next frame (after the cursor) that matches; the cursor moves past it."""
        async with asyncio.timeout(timeout):
            while True:
                for i in range(self.cursor, len(self.frames)):
                    if pred(self.frames[i]):
                        self.cursor = i + 1
                        return self.frames[i]
                if self.closed is not None:
                    raise AssertionError(f"socket closed {self.closed} while waiting")
                self._arrived.clear()
                await self._arrived.wait()

    async def event(self, kind: str, timeout: float = TIMEOUT, **match: Any) -> Frame:
        def pred(f: Frame) -> bool:
            ev = f.get("event", {})
            return (f["type"] == "event" and ev.get("kind") == kind
                    and all(ev.get(k) == v for k, v in match.items()))
        frame = await self.wait_for(pred, timeout)
        event: Frame = frame["event"]
        return event

    async def send(self, message: Frame) -> None:
        await self.ws.send(json.dumps(message))

    async def cmd(self, kind: str, timeout: float = TIMEOUT, **fields: Any) -> Frame:
        """Send a command with a fresh id; return its ack or error frame."""
        mid = f"c{next(_ids)}"
        await self.send({"type": kind, "id": mid, **fields})
        start = len(self.frames)
        async with asyncio.timeout(timeout):
            while True:
                for f in self.frames[start:]:
                    if f.get("id") == mid and f["type"] in ("ack", "error"):
                        return f
                if self.closed is not None:
                    raise AssertionError(f"socket closed {self.closed} before the answer")
                self._arrived.clear()
                await self._arrived.wait()

    async def ok(self, kind: str, **fields: Any) -> None:
        answer = await self.cmd(kind, **fields)
        assert answer["type"] == "ack", answer

    async def state(self) -> Frame:
        """A fresh state (sync)."""
        n = len(self.frames)
        await self.send({"type": "sync"})
        async with asyncio.timeout(TIMEOUT):
            while True:
                for f in self.frames[n:]:
                    if f["type"] == "state":
                        state: Frame = f["state"]
                        return state
                self._arrived.clear()
                await self._arrived.wait()

    async def wait_closed(self, timeout: float = TIMEOUT) -> tuple[int | None, str]:
        async with asyncio.timeout(timeout):
            await self._reader
        assert self.closed is not None
        return self.closed

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()
        with contextlib.suppress(Exception):
            async with asyncio.timeout(TIMEOUT):
                await self._reader


async def connect(server: ServerProcess, code: str, token: str | None = None,
                  seat: int | None = None, since: int | None = None) -> Client:
    ws = await websockets.connect(server.ws_url(code, token=token, since=since),
                                  open_timeout=TIMEOUT, max_size=2**22)
    return Client(ws, seat, token)


class Table:
    """A room with its players connected: ``players[seat]``, plus ``code`` and ``tokens``."""

    def __init__(self, server: ServerProcess, code: str) -> None:
        self.server = server
        self.code = code
        self.tokens: list[str] = []
        self.players: list[Client] = []

    async def close(self) -> None:
        for client in self.players:
            await client.close()


async def make_table(server: ServerProcess, names: list[str], connect_all: bool = True,
                     **create: Any) -> Table:
    """Create a room as ``names[0]``, join the others, connect everyone (each gets a state)."""
    async with httpx.AsyncClient(base_url=server.http_url, timeout=TIMEOUT) as http:
        made = await http.post("/api/rooms", json={"name": names[0], **create})
        assert made.status_code == 201, made.text
        table = Table(server, made.json()["code"])
        table.tokens.append(made.json()["token"])
        for name in names[1:]:
            joined = await http.post(f"/api/rooms/{table.code}/join", json={"name": name})
            assert joined.status_code == 200, joined.text
            table.tokens.append(joined.json()["token"])
    if connect_all:
        for seat, token in enumerate(table.tokens):
            client = await connect(server, table.code, token, seat)
            await client.wait_for(lambda f: f["type"] == "state")
            table.players.append(client)
    return table
