"""A reconnect storm: a worker holding every socket of N rooms (4 per room: 2,000 at 500 rooms),
and running those rooms, stops: SIGTERM (it hands its rooms over), then, in a run of its own,
kill -9. Every client reconnects to the other worker and resumes with ``since``, as the browser
client does. Prints how long each client took to be back in its seat (its ``sync`` answered by
the room, wherever the room now runs), and checks that no acknowledged move was lost: every
chat line the server acknowledged, before or after the stop, is in the rooms' logs in Postgres.

    .venv/bin/python -m bench.storm [--rooms 500] [--stops term,kill] [--engine compiled|sources]
                                    [--json]
    .venv/bin/python -m bench.cluster --storm [the same options]

Two Redis-backed workers on Postgres, default settings (a 5 s lease), the compiled engine.
Each client sends a chat line every 2-4 s (each with its own id and text) until the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time
import uuid
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bench.server import ONE_ADDRESS_LIMITS, engine_env, quantile_ms, stop, uno_rooms
from bench.workers import POSTGRES, REDIS, Worker, fresh_database
from bench.wsclient import ConnectionClosedError, LeanSocket, connect

BACK_WITHIN = 10.0  # seconds: the target


class StormClient:
    """One seat's socket: sends chat lines, counts what was acknowledged, and reconnects to
    ``fallback`` with ``since`` when its connection goes."""

    def __init__(self, code: str, token: str, seat: int) -> None:
        self.code, self.token, self.seat = code, token, seat
        self.ws: LeanSocket | None = None
        self.last_seq = 0
        self.sent: dict[str, str] = {}  # id -> chat text
        self.acked: set[str] = set()  # texts the server acknowledged
        self.synced: asyncio.Future[None] | None = None
        self.lost_at: float | None = None  # when the connection went
        self.back_after: float | None = None  # seconds from the stop to back in the seat
        self._n = 0

    def on_text(self, raw: str) -> None:
        frame = json.loads(raw)
        seq = frame.get("seq")
        if isinstance(seq, int):
            self.last_seq = max(self.last_seq, seq)
        if frame.get("type") == "ack":
            mid = frame.get("id", "")
            if mid in self.sent:
                self.acked.add(self.sent[mid])
            elif mid == "back" and self.synced is not None and not self.synced.done():
                self.synced.set_result(None)

    def on_close(self) -> None:
        self.ws = None
        if self.lost_at is None:
            self.lost_at = time.perf_counter()
        if self.synced is not None and not self.synced.done():  # closed (1013): try again
            self.synced.set_exception(ConnectionClosedError("closed before the sync's answer"))

    async def open(self, base: str, since: bool) -> None:
        query = f"token={self.token}" + (f"&since={self.last_seq}" if since else "")
        self.ws = await connect(f"{base}/ws/rooms/{self.code}?{query}", self.on_text,
                                timeout=10, on_close=self.on_close)

    def chat(self) -> None:
        if self.ws is None:
            return
        self._n += 1
        mid = f"m{self._n}"
        line = f"{self.code}.{self.seat}.{self._n}"
        self.sent[mid] = line
        try:
            self.ws.send(json.dumps({"type": "chat", "text": line, "id": mid}))
        except ConnectionClosedError:
            self.ws = None

    async def come_back(self, base: str, stopped_at: float, until: float) -> None:
        """Once the connection to the stopped worker is gone, reconnect to ``base`` (with
        ``since``) until the room answers a ``sync``, as a browser would."""
        while self.ws is not None and time.perf_counter() < until:
            await asyncio.sleep(0.01)  # the stopping worker closes it (or dies with it)
        while time.perf_counter() < until:
            if self.ws is None:
                try:
                    await self.open(base, since=True)
                except (OSError, TimeoutError):
                    await asyncio.sleep(0.1)
                    continue
            self.synced = asyncio.get_running_loop().create_future()
            try:
                assert self.ws is not None
                self.ws.send('{"type": "sync", "id": "back"}')
                async with asyncio.timeout(5):
                    await self.synced
            except (ConnectionClosedError, TimeoutError, AssertionError):
                await asyncio.sleep(0.1)
                continue
            if self.ws is not None:
                self.back_after = time.perf_counter() - stopped_at
                return


async def talk(clients: list[StormClient], until: float) -> None:
    async def one(client: StormClient) -> None:
        await asyncio.sleep(random.uniform(0, 3))
        while time.perf_counter() < until:
            client.chat()
            await asyncio.sleep(random.uniform(2, 4))

    await asyncio.gather(*(one(client) for client in clients))


async def stored_chats(database: str) -> set[str]:
    engine = create_async_engine(database)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(text(
                "SELECT command->>'text' FROM room_log WHERE command->>'type' = 'chat'"))
            return {row[0] for row in rows}
    finally:
        await engine.dispose()


async def storm(args: argparse.Namespace, how: str) -> dict[str, Any]:
    await fresh_database(args.database)
    env = {"UNO_DATABASE_URL": args.database, "UNO_REDIS_URL": args.redis,
           "UNO_REDIS_PREFIX": f"storm:{uuid.uuid4().hex[:8]}:", **ONE_ADDRESS_LIMITS,
           **engine_env(args.engine)}
    held, other = Worker(env), None
    try:
        other = Worker(env)
        rooms = await uno_rooms(held.http, args.rooms)  # run by ``held``
        clients = [StormClient(code, token, seat)
                   for code, tokens in rooms for seat, token in enumerate(tokens)]
        for start in range(0, len(clients), 200):
            await asyncio.gather(*(c.open(held.ws, since=False)
                                   for c in clients[start:start + 200]))
        end = time.perf_counter() + args.warmup + BACK_WITHIN * 3
        talking = asyncio.create_task(talk(clients, end))
        await asyncio.sleep(args.warmup)
        stopped_at = time.perf_counter()
        if how == "kill":
            held.process.kill()
        else:
            held.process.terminate()
        until = stopped_at + BACK_WITHIN * 3
        await asyncio.gather(*(client.come_back(other.ws, stopped_at, until)
                               for client in clients))
        await talking
        await asyncio.sleep(1)  # the last acknowledged lines are stored before their ack
        stored = await stored_chats(args.database)
    finally:
        for worker in (held, other):
            if worker is not None and worker.process.poll() is None:
                stop(worker.process)
    back = sorted(c.back_after for c in clients if c.back_after is not None)
    acked = {line for c in clients for line in c.acked}
    lost = acked - stored
    return {
        "stop": "SIGTERM" if how == "term" else "kill -9",
        "sockets": len(clients),
        "back": len(back),
        "back_within_10_s": sum(1 for b in back if b <= BACK_WITHIN),
        "back_p50_s": round(statistics.median(back), 2) if back else None,
        "back_p95_s": round(quantile_ms(back, 0.95) / 1000, 2) if back else None,
        "back_max_s": round(back[-1], 2) if back else None,
        "acknowledged": len(acked),
        "acknowledged_lost": len(lost),
    }


async def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    return [await storm(args, how) for how in args.stops.split(",")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=500)
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before the stop")
    parser.add_argument("--stops", default="term,kill", help="term (SIGTERM), kill (kill -9)")
    parser.add_argument("--database", default=POSTGRES)
    parser.add_argument("--redis", default=REDIS)
    parser.add_argument("--logs", help="a folder for each worker's output")
    parser.add_argument("--engine", choices=("compiled", "sources"), default="compiled",
                        help="the rules engine as scripts/serve.sh and the image serve it "
                        "(compiled), or its Python sources")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.logs:
        Worker.logs = Path(args.logs)
        Worker.logs.mkdir(parents=True, exist_ok=True)
    results = asyncio.run(run(args))
    if args.json:
        print(json.dumps(results))
        return
    for r in results:
        print(f"{r['stop']}: {r['sockets']} sockets, {r['back']} back in their seats "
              f"({r['back_within_10_s']} within {BACK_WITHIN:.0f} s): p50 {r['back_p50_s']} s, "
              f"p95 {r['back_p95_s']} s, max {r['back_max_s']} s; {r['acknowledged']} moves "
              f"acknowledged, {r['acknowledged_lost']} lost")


if __name__ == "__main__":
    main()
