"""What two hostile clients cost a worker in memory, with the limits and without them.

    .venv/bin/python -m bench.hostile [--json]

- frames: 16 sockets each send one 15 MiB frame at once;
- sockets: one address opens 500 spectator sockets to one room;
- tokens: one address takes spectator tokens as fast as it may, then opens 9 sockets on each;
- party (not an attack: what the limits must let through): thirty people behind one address
  in three rooms, two sockets each, 25 messages from every socket.

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
          "UNO_SOCKETS_PER_PERSON": "100000", "UNO_SOCKETS_PER_ADDRESS": "100000",
          "UNO_TOKENS_PER_MINUTE": "100000", "UNO_SPECTATORS_PER_ROOM": "100000"}


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


async def held(url: str, code: str, token: str | None = None) -> Any | None:
    """A socket that got its first frame, or None: refused."""
    query = f"?token={token}" if token else ""
    ws = await websockets.connect(f"{url}/ws/rooms/{code}{query}", open_timeout=30)
    try:
        await asyncio.wait_for(ws.recv(), 10)
        return ws
    except websockets.ConnectionClosed:
        return None


async def minted_tokens(url: str, code: str) -> str:
    http_url = url.replace("ws", "http", 1)
    tokens = []
    async with httpx.AsyncClient(base_url=http_url) as http:
        for n in range(200):
            answer = await http.post(f"/api/rooms/{code}/watch", json={"name": f"Fan {n}"})
            if answer.status_code != 200:
                break
            tokens.append(answer.json()["token"])
    sockets = [await held(url, code, token) for token in tokens for _ in range(9)]
    kept = [ws for ws in sockets if ws is not None]
    for ws in kept:
        with contextlib.suppress(Exception):
            await ws.close()
    return (f"{len(tokens)} tokens (then 429), {len(kept)} sockets held, "
            f"{len(sockets) - len(kept)} refused (4503)")


async def party(url: str, _code: str) -> str:
    http_url = url.replace("ws", "http", 1)
    seats: list[tuple[str, str]] = []
    async with httpx.AsyncClient(base_url=http_url) as http:
        for table in range(3):
            made = (await http.post("/api/rooms", json={"name": f"Host {table}"})).json()
            seats.append((made["code"], made["token"]))
            for n in range(9):
                joined = await http.post(f"/api/rooms/{made['code']}/join",
                                         json={"name": f"Guest {n}"})
                seats.append((made["code"], joined.json()["token"]))
    sockets = [await held(url, code, token) for code, token in seats for _ in range(2)]
    live = [ws for ws in sockets if ws is not None]

    async def answers(ws: Any) -> int:
        """Pongs for the socket's 25 pings (read as they come: every socket at once)."""
        got = 0
        with contextlib.suppress(Exception):
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
                got += frame.get("type") == "pong"
                if frame.get("id") == 24:
                    break
        return got

    reading = [asyncio.create_task(answers(ws)) for ws in live]
    for ws in live:
        for n in range(25):
            await ws.send(json.dumps({"type": "ping", "id": n}))
    answered = sum(await asyncio.gather(*reading))
    for ws in live:
        with contextlib.suppress(Exception):
            await ws.close()
    return (f"{len(live)} of {len(sockets)} sockets held, {answered} of {25 * len(live)} "
            "messages answered")


ATTACKS = {"frames": big_frames, "sockets": many_sockets, "tokens": minted_tokens,
           "party": party}


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
            got = await ATTACKS[kind](ws_url, code)
            await asyncio.sleep(2)
        after = rss_mb(server.pid)
        return {"attack": kind, "limits": "lifted" if env else "shipped", "result": got,
                "rss_before_mb": round(before), "rss_peak_mb": round(peak.peak),
                "rss_after_mb": round(after)}
    finally:
        stop(server)


async def run() -> list[dict[str, Any]]:
    rows = []
    for kind in ATTACKS:
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
