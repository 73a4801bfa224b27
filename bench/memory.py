"""Where a worker's memory goes as sockets are added: its RSS at 2,000 and at 6,000 sockets
(500 and 1,500 rooms of 4 players, playing), and, with ``--trace``, which lines allocated what
each added socket costs (tracemalloc, in a server of its own: tracing slows it down). With
``--idle`` only spectators' sockets are added to 50 rooms: the cost of a socket without a room.

    .venv/bin/python -m bench.memory [--rooms 500,1500] [--seconds 20] [--trace] [--idle]
                                     [--engine compiled|sources]

The load is bench/server.py's (one action per seat every 3 s), SQLite, the in-process bus, the
engine as scripts/serve.sh serves it (compiled) unless ``--engine sources``.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import signal
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from bench.server import (
    ONE_ADDRESS_LIMITS,
    BenchRoom,
    Move,
    close_all,
    connect_tables,
    drive_tables,
    engine_env,
    free_port,
    rss_mb,
    seat_url,
    start_process,
    stop,
    uno_rooms,
    wait_up,
)
from bench.wsclient import LeanSocket, connect


async def playing(url: str, ws: str, count: int, seconds: float) -> list[BenchRoom]:
    """``count`` rooms created, connected and played for ``seconds``; left connected."""
    results: list[Move] = []
    rooms = await uno_rooms(url, count)
    tables = [BenchRoom(code, tokens, results) for code, tokens in rooms]
    await connect_tables(tables, functools.partial(seat_url, ws))

    async def nothing() -> None:
        return None

    await drive_tables(tables, seconds, 3.0, nothing)
    return tables


async def watching(url: str, ws: str, sockets: int) -> list[LeanSocket]:
    """``sockets`` spectators' sockets over 50 rooms, each sent its state; left open."""
    codes = [code for code, _tokens in await uno_rooms(url, 50)]
    opened: list[LeanSocket] = []
    for start in range(0, sockets, 100):
        batch = range(start, min(start + 100, sockets))
        opened += await asyncio.gather(*(
            connect(f"{ws}/ws/rooms/{codes[i % len(codes)]}", lambda _text: None)
            for i in batch))
    await asyncio.sleep(2)
    return opened


async def rss_per_idle_socket(counts: list[int]) -> None:
    """One server: its RSS with the first count of spectators' sockets, then the last."""
    port = free_port()
    process = serve(port, False, Path("/dev/null"))
    url, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    try:
        first = await watching(url, ws, counts[0])
        low = rss_mb(process.pid)
        second = await watching(url, ws, counts[-1] - counts[0])
        high = rss_mb(process.pid)
        for sock in first + second:
            sock.close()
    finally:
        stop(process)
    added = counts[-1] - counts[0]
    print(f"{counts[0]} idle sockets: server RSS {low:.0f} MB; {counts[-1]}: {high:.0f} MB")
    print(f"{(high - low) * 1024 / added:.1f} KB more RSS per added idle socket")


ENGINE = "compiled"  # --engine


def serve(port: int, traced: bool, dump: Path, db: Path | None = None) -> Any:
    db = db or Path(tempfile.mkdtemp(prefix="uno-memory-")) / "uno.db"
    module = "bench.traced_app" if traced else "app"
    process = start_process([sys.executable, "-m", module, "--port", str(port), "--log-level",
                             "warning"],
                            {"UNO_DATABASE_URL": f"sqlite+aiosqlite:///{db}",
                             "UNO_TRACE_DUMP": str(dump), **ONE_ADDRESS_LIMITS,
                             **engine_env(ENGINE)})
    wait_up(f"http://127.0.0.1:{port}/healthz", process)
    return process


async def rss_per_socket(counts: list[int], seconds: float) -> None:
    """One server per count of rooms: its RSS after ``seconds`` of play."""
    figures = []
    for count in counts:
        port = free_port()
        process = serve(port, False, Path("/dev/null"))
        try:
            tables = await playing(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}", count,
                                   seconds)
            figures.append((count * 4, rss_mb(process.pid)))
            close_all(tables)
        finally:
            stop(process)
    for sockets, rss in figures:
        print(f"{sockets} sockets: server RSS {rss:.0f} MB")
    (low, low_rss), (high, high_rss) = figures[0], figures[-1]
    per = (high_rss - low_rss) * 1024 / (high - low)
    print(f"{per:.1f} KB more RSS per added socket ({low}->{high} sockets)")


async def traced(counts: list[int], seconds: float, top: int) -> None:
    """One traced server: a snapshot at the first count of rooms, another after the rest
    joined; the lines that allocated the difference, per added socket."""
    port = free_port()
    dump = Path(tempfile.mkdtemp(prefix="uno-trace-")) / "snapshot"
    process = serve(port, True, dump)
    url, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    try:
        first = await playing(url, ws, counts[0], seconds)
        os.kill(process.pid, signal.SIGUSR1)
        await asyncio.sleep(5)
        second = await playing(url, ws, counts[-1] - counts[0], seconds)
        os.kill(process.pid, signal.SIGUSR1)
        await asyncio.sleep(8)
        close_all(first + second)
    finally:
        stop(process)
    before = tracemalloc.Snapshot.load(f"{dump}.1")
    after = tracemalloc.Snapshot.load(f"{dump}.2")
    added = (counts[-1] - counts[0]) * 4
    diff = after.compare_to(before, "lineno")
    total = sum(d.size_diff for d in diff)
    print(f"traced: {total / added / 1024:.1f} KB per added socket in Python's allocations "
          f"({added} sockets added)")
    for stat in diff[:top]:
        frame = stat.traceback[0]
        where = f"{Path(frame.filename).name}:{frame.lineno}"
        print(f"  {stat.size_diff / added:8.0f} B/socket  {stat.count_diff / added:6.1f} "
              f"blocks  {where}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", default="500,1500")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--trace", action="store_true")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--idle", action="store_true",
                        help="spectators' sockets only (--rooms then counts sockets)")
    parser.add_argument("--engine", choices=("compiled", "sources"), default="compiled")
    args = parser.parse_args()
    global ENGINE  # one setting for every server this run starts
    ENGINE = args.engine
    counts = [int(c) for c in args.rooms.split(",")]
    started = time.perf_counter()
    if args.idle:
        asyncio.run(rss_per_idle_socket(counts))
    elif args.trace:
        asyncio.run(traced(counts, args.seconds, args.top))
    else:
        asyncio.run(rss_per_socket(counts, args.seconds))
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
