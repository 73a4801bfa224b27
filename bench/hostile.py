"""What two hostile clients cost a worker in memory, with the limits and without them.

    .venv/bin/python -m bench.hostile [--json]

- frames: 16 sockets each send one 15 MiB frame at once;
- sockets: one address opens 500 spectator sockets to one room.

Each attack runs against a fresh server (SQLite, in-process bus) with the shipped limits, and
then against one with the limits lifted (16 MiB frames, as uvicorn allows by default, and no
cap on sockets per address): the reference. Prints the server's RSS before, at its peak
(sampled every 10 ms) and 2 s after each attack, and what the attacker got.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from bench.server import free_port, rss_mb, start_process, stop, wait_up

FRAME = 15 * 2**20
LIFTED = {"UNO_MAX_FRAME_BYTES": str(16 * 2**20), "UNO_SOCKETS_PER_CLIENT": "100000",
          "UNO_SPECTATORS_PER_ROOM": "100000"}


class Peak:
    """The highest RSS of ``pid`` while running."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = rss_mb(pid)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, rss_mb(self.pid))
            time.sleep(0.01)

    def __enter__(self) -> Peak:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()


async def big_frames(url: str, code: str) -> str:
    async def one() -> str:
        try:
            async with websockets.connect(f"{url}/ws/rooms/{code}", max_size=None,
                                          open_timeout=30, close_timeout=5) as ws:
                await ws.send("x" * FRAME)
                await asyncio.wait_for(ws.recv(), 30)
                return "answered"
        except websockets.ConnectionClosed as closed:
            return f"closed {closed.rcvd.code if closed.rcvd else None}"
        except (OSError, TimeoutError) as exc:
            return type(exc).__name__

    results = await asyncio.gather(*(one() for _ in range(16)))
    return ", ".join(f"{results.count(r)} {r}" for r in sorted(set(results)))


async def many_sockets(url: str, code: str) -> str:
    sockets: list[Any] = []
    refused = 0
    started = time.perf_counter()
    for _ in range(500):
        ws = await websockets.connect(f"{url}/ws/rooms/{code}", open_timeout=30)
        try:
            await asyncio.wait_for(ws.recv(), 10)
            sockets.append(ws)
        except websockets.ConnectionClosed:
            refused += 1
    seconds = time.perf_counter() - started
    for ws in sockets:
        with contextlib.suppress(Exception):
            await ws.close()
    return f"{len(sockets)} held, {refused} refused (4503) in {seconds:.1f} s"


async def attack(kind: str, env: dict[str, str]) -> dict[str, Any]:
    port = free_port()
    db = Path(tempfile.mkdtemp(prefix="uno-hostile-")) / "uno.db"
    max_size = env.get("UNO_MAX_FRAME_BYTES", "4096")
    server = start_process(
        [sys.executable, "-m", "app", "--port", str(port), "--log-level", "warning",
         "--ws-max-size", max_size],
        {"UNO_DATABASE_URL": f"sqlite+aiosqlite:///{db}", **env})
    url = f"http://127.0.0.1:{port}"
    try:
        wait_up(url, server)
        async with httpx.AsyncClient(base_url=url) as http:
            code = (await http.post("/api/rooms", json={"name": "Ann"})).json()["code"]
        await asyncio.sleep(1)
        before = rss_mb(server.pid)
        ws_url = url.replace("http", "ws", 1)
        with Peak(server.pid) as peak:
            got = await (big_frames if kind == "frames" else many_sockets)(ws_url, code)
            await asyncio.sleep(2)
        after = rss_mb(server.pid)
        return {"attack": kind, "limits": "lifted" if env else "shipped", "result": got,
                "rss_before_mb": round(before), "rss_peak_mb": round(peak.peak),
                "rss_after_mb": round(after)}
    finally:
        stop(server)


async def run() -> list[dict[str, Any]]:
    rows = []
    for kind in ("frames", "sockets"):
        for env in ({}, LIFTED):
            rows.append(await attack(kind, env))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = asyncio.run(run())
    if args.json:
        print(json.dumps(rows))
        return
    print("| attack | limits | attacker got | RSS before | peak | 2 s after |")
    print("| --- | --- | --- | --- | --- | --- |")
    for row in rows:
        print(f"| {row['attack']} | {row['limits']} | {row['result']} | "
              f"{row['rss_before_mb']} MB | {row['rss_peak_mb']} MB | {row['rss_after_mb']} MB |")


if __name__ == "__main__":
    main()
