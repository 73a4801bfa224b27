"""A move's CPU in the server's own code, without the sockets: the app (its lifespan, a SQLite
file, the in-process bus, the compiled engine as ``scripts/serve.sh`` serves it) in this
process, N rooms of 4 seats, each seat connected through the real room socket endpoint
(``app.api.ws.serve_socket``) over an in-memory socket in place of uvicorn's protocol and the
kernel. The players are bench/server.py's (the server's legal moves, nothing guessed), at its
pace: a move per seat every ``--interval`` seconds, after the last one reached all four seats
(so the room log's transactions are as large as under bench/server.py's load). CPU per move
is the process's (every thread) minus the time spent in the players' own code, timed around
each of their calls.

    .venv/bin/python -m bench.room_path [--rooms 1500] [--moves 30000] [--interval 3]
                                        [--profile FILE]

What it leaves out is what bench/server.py's bare reference costs (the kernel's socket work,
the WebSocket framing): this is the part of a move that is ours to make cheaper, measured
without a load generator on the other core.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

# Printed beside the CPU: the settings bench/server.py gives its server.
SETTINGS = {"UNO_MAX_ROOMS": "100000", "UNO_ROOMS_PER_MINUTE": "1000000",
            "UNO_TOKENS_PER_MINUTE": "1000000", "UNO_EMPTY_ROOMS_PER_CLIENT": "1000000",
            "UNO_SOCKETS_PER_CLIENT": "1000000", "UNO_SOCKETS_PER_ADDRESS": "1000000",
            "UNO_CLIENT_RATE": "100000000", "UNO_ADDRESS_RATE": "100000000",
            "UNO_PLAYER_RATE": "100000"}


class Clients:
    """The time spent in the players' code, left out of the server's CPU."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def timed(self, call: Any, *args: Any) -> Any:
        started = time.thread_time()
        try:
            return call(*args)
        finally:
            self.seconds += time.thread_time() - started


class MemorySocket:
    """The server's side of one socket (``websocket_protocol.DIRECT``): frames written go to
    the player at once; the player's messages wait for the endpoint's reader."""

    def __init__(self, on_frame: Any, clients: Clients) -> None:
        self._on_frame = on_frame
        self._clients = clients
        self._inbox: list[dict[str, Any]] = []
        self._arrival: asyncio.Future[None] | None = None
        self._listener: Any = None
        self.open = True

    # DirectWriter
    def write_frames(self, texts: list[str]) -> int:
        for text in texts:
            self._clients.timed(self._on_frame, text)
        return 0

    def close_now(self, code: int, reason: str) -> None:
        self.open = False
        self.put({"type": "websocket.disconnect", "code": code})

    # DirectReader
    def ready(self) -> bool:
        return bool(self._inbox)

    def arrival(self) -> asyncio.Future[None]:
        if self._arrival is None or self._arrival.done():
            self._arrival = asyncio.get_running_loop().create_future()
        return self._arrival

    def take_message(self) -> dict[str, Any]:
        return self._inbox.pop(0)

    def listen(self, listener: Any) -> None:
        self._listener = listener
        if self._inbox:
            listener()

    def end(self) -> None:
        self._listener = None
        self.open = False

    def put(self, message: dict[str, Any]) -> None:
        self._inbox.append(message)
        if self._arrival is not None and not self._arrival.done():
            self._arrival.set_result(None)
        if self._listener is not None:
            self._listener()

    # What a player's side calls (bench/server.py's ``Seat.ws``)
    def send(self, text: str) -> None:
        self.put({"type": "websocket.receive", "text": text})

    def close(self) -> None:
        self.put({"type": "websocket.disconnect", "code": 1000})


async def connect(services: Any, code: str, token: str, socket: MemorySocket) -> asyncio.Task[None]:
    from app.api import ws  # noqa: PLC0415 (after UNO_ENGINE_BUILD is set)
    from app.api.websocket_protocol import DIRECT  # noqa: PLC0415

    scope = {"type": "websocket", "path": f"/ws/rooms/{code}", "headers": [],
             "query_string": f"token={token}".encode(), "client": ("127.0.0.1", 40000),
             "server": ("127.0.0.1", 8000), "scheme": "ws", "extensions": {DIRECT: socket}}
    handshake = [{"type": "websocket.connect"}]

    async def receive() -> dict[str, Any]:
        if handshake:
            return handshake.pop()
        while not socket.ready():
            await socket.arrival()
        return socket.take_message()

    async def send(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "websocket.close":
            socket.open = False

    return asyncio.create_task(ws.serve_socket(scope, receive, send, services, code))


async def measure(rooms: int, moves: int, interval: float,
                  profile: str | None = None) -> dict[str, float]:
    import cProfile  # noqa: PLC0415

    import httpx  # noqa: PLC0415

    from app.config import get_settings  # noqa: PLC0415
    from app.main import create_app  # noqa: PLC0415
    from bench.server import BenchRoom, Move, bench_table  # noqa: PLC0415

    application = create_app(get_settings())
    clients = Clients()
    async with application.router.lifespan_context(application):
        services = application.state.services
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as http:
            made = [await bench_table(http, i) for i in range(rooms)]
        results: list[Move] = []
        tables = [BenchRoom(code, tokens, results) for code, tokens in made]
        tasks = []
        for table in tables:
            for seat in table.seats:
                socket = MemorySocket(seat.on_frame, clients)
                seat.ws = socket  # type: ignore[assignment]  # LeanSocket's send and close
                tasks.append(await connect(services, table.code, table.tokens[seat.seat],
                                           socket))
        await asyncio.sleep(0.5)
        done = 0

        async def play(table: BenchRoom, share: int, counted: bool) -> None:
            nonlocal done
            pause = interval / len(table.seats)
            if counted and pause:
                await asyncio.sleep(random.random() * interval)
            for _ in range(share):
                if pause:  # as bench/server.py's players: a move every ``pause``, +-50 %
                    await asyncio.sleep(pause * random.uniform(0.5, 1.5))
                move = clients.timed(table.next_move)
                if move is None:
                    await asyncio.sleep(0.001)
                    continue
                actor, message = move
                table.got.clear()
                table.done.clear()
                table.target = actor.last_seq + 1
                clients.timed(actor.ws.send, clients.timed(__import__("json").dumps, message))
                await table.done.wait()
                table.target = None
                if counted:
                    done += 1

        # The tables' start (a deal, a snapshot and a match row each) outside the count.
        await asyncio.gather(*(play(t, 3, False) for t in tables))
        clients.seconds = 0.0
        profiler = cProfile.Profile() if profile else None
        if profiler:
            profiler.enable()
        cpu, wall = time.process_time(), time.perf_counter()
        await asyncio.gather(*(play(t, max(1, moves // rooms), True) for t in tables))
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        if profiler and profile:
            profiler.disable()
            profiler.dump_stats(profile)
        client_seconds = clients.seconds
        for table in tables:
            for seat in table.seats:
                seat.ws.close()  # type: ignore[union-attr]
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.sleep(0.1)  # the sockets' ends (read by the protocol's calls)
    return {"moves": done, "server_us_per_move": (cpu - client_seconds) / done * 1e6,
            "players_us_per_move": client_seconds / done * 1e6, "seconds": wall}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=1500)
    parser.add_argument("--moves", type=int, default=30000)
    parser.add_argument("--interval", type=float, default=3.0,
                        help="seconds between a seat's moves (bench/server.py's); 0: at once")
    parser.add_argument("--engine", choices=("compiled", "sources"), default="compiled")
    parser.add_argument("--profile", metavar="FILE",
                        help="cProfile the measured moves into FILE (the CPU figure then "
                             "includes the profiler's own cost)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.child:  # the settings and the engine's build are read at import: a fresh process
        from bench.server import engine_env  # noqa: PLC0415

        folder = Path(tempfile.mkdtemp(prefix="uno-room-path-"))
        env = {**os.environ, **SETTINGS, **engine_env(args.engine),
               "UNO_DATABASE_URL": f"sqlite+aiosqlite:///{folder / 'bench.db'}"}
        argv = [sys.executable, "-m", "bench.room_path", *sys.argv[1:], "--child"]
        raise SystemExit(subprocess.run(argv, env=env, check=False).returncode)
    import uvloop  # noqa: PLC0415

    result = uvloop.run(measure(args.rooms, args.moves, args.interval, args.profile))
    print(f"{args.rooms} rooms, {result['moves']} moves in {result['seconds']:.1f} s "
          f"({args.engine} engine): server {result['server_us_per_move']:.1f} us of CPU "
          f"per move (the players' own code: {result['players_us_per_move']:.1f} us, left out)")


if __name__ == "__main__":
    main()
