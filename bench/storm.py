"""A reconnect storm: a worker holding every socket of N rooms (4 per room: 2,000 at 500 rooms),
and running those rooms, stops: SIGTERM (it hands its rooms over), then, in a run of its own,
kill -9. Every client reconnects to the other worker and resumes with ``since``, as the browser
client does. Prints how long each client took to be back in its seat (its ``sync`` answered by
the room, wherever the room now runs), and checks that no acknowledged move was lost: every
chat line the server acknowledged, before or after the stop, is in the rooms' logs in Postgres.

    .venv/bin/python -m bench.storm [--rooms 500] [--stops term,kill] [--engine compiled|sources]
                                    [--json]
    .venv/bin/python -m bench.cluster --storm [the same options]
    .venv/bin/python -m bench.storm --roll [--rooms 75] [--pause 5]

``--roll``: a rolling deploy instead. Three workers, every room's seats spread over all three;
each worker in turn is stopped with SIGTERM (it drains) and started again, ``--pause`` seconds
apart, the last one as a build whose room-log format is newer (``UNO_RECORD_FORMAT``). Each
client reconnects to a live worker as a browser behind a load balancer does. Prints the sockets
back in their seats, the longest a socket was out, the move p99 during the roll, the longest gap
any table saw between two acknowledged moves, and the acknowledged moves lost.

Two Redis-backed workers on Postgres, default settings (a 5 s lease), the compiled engine.
Each client sends a chat line every 2-4 s (each with its own id and text) until the end.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import statistics
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.store.records import RECORD_FORMAT
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
        self.sent_at: dict[str, float] = {}
        self.answered: list[tuple[float, float]] = []  # (when acknowledged, seconds it took)
        self.out_for: list[float] = []  # --roll: seconds each lost connection was out
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
                now = time.perf_counter()
                self.answered.append((now, now - self.sent_at.pop(mid, now)))
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
        self.sent_at[mid] = time.perf_counter()
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


async def keep_seated(client: StormClient, live: list[Worker], until: float) -> None:
    """--roll: whenever the connection goes, back to a live worker with ``since`` until the
    room answers a ``sync`` (a browser behind a load balancer)."""
    while time.perf_counter() < until:
        if client.ws is not None:
            await asyncio.sleep(0.05)
            continue
        lost = client.lost_at or time.perf_counter()
        while time.perf_counter() < until:
            client.ws = None
            try:
                await client.open(random.choice(live).ws, since=True)
                client.synced = asyncio.get_running_loop().create_future()
                assert client.ws is not None
                client.ws.send('{"type": "sync", "id": "back"}')
                async with asyncio.timeout(5):
                    await client.synced
            except (OSError, TimeoutError, ConnectionClosedError, AssertionError):
                await asyncio.sleep(0.1)
                continue
            if client.ws is not None:
                client.out_for.append(time.perf_counter() - lost)
                client.lost_at = None
                break


def longest_gap(clients: list[StormClient], start: float, end: float) -> float:
    """The longest a room went without an acknowledged move between ``start`` and ``end``."""
    by_room: dict[str, list[float]] = {}
    for client in clients:
        by_room.setdefault(client.code, []).extend(t for t, _ in client.answered)
    longest = 0.0
    for times in by_room.values():
        marks = [start, *sorted(t for t in times if start <= t <= end), end]
        longest = max(longest, *(b - a for a, b in itertools.pairwise(marks)))
    return longest


async def roll(args: argparse.Namespace) -> dict[str, Any]:
    await fresh_database(args.database)
    env = {"UNO_DATABASE_URL": args.database, "UNO_REDIS_URL": args.redis,
           "UNO_REDIS_PREFIX": f"roll:{uuid.uuid4().hex[:8]}:", "UNO_TESTING": "1",
           **ONE_ADDRESS_LIMITS, **engine_env(args.engine)}
    workers = [Worker(dict(env)) for _ in range(3)]
    live = list(workers)
    try:
        rooms = []
        for index, worker in enumerate(workers):  # each worker owns a third of the rooms
            share = args.rooms // 3 + (index < args.rooms % 3)
            rooms += await uno_rooms(worker.http, share)
        clients = [StormClient(code, token, seat)
                   for code, tokens in rooms for seat, token in enumerate(tokens)]
        for start in range(0, len(clients), 200):
            await asyncio.gather(*(c.open(workers[i % 3].ws, since=False)
                                   for i, c in enumerate(clients[start:start + 200], start)))
        until = time.perf_counter() + args.warmup + 3 * (args.pause + 10) + 15
        talking = asyncio.create_task(talk(clients, until))
        seated = [asyncio.create_task(keep_seated(c, live, until)) for c in clients]
        await asyncio.sleep(args.warmup)
        began = time.perf_counter()
        steps = []
        for index, worker in enumerate(workers):
            live.remove(worker)
            stopped = time.perf_counter()
            worker.process.terminate()
            while await asyncio.to_thread(readyz, worker.http) == 200:
                await asyncio.sleep(0.005)
            said = time.perf_counter() - stopped
            await asyncio.to_thread(worker.process.wait, 60)
            gone = time.perf_counter() - stopped
            if index == len(workers) - 1:  # the newest build writes a newer format
                worker.env = {**worker.env, "UNO_RECORD_FORMAT": str(RECORD_FORMAT + 1)}
            await asyncio.to_thread(worker.start)
            live.append(worker)
            steps.append(f"w{index}: /readyz 503 after {said * 1000:.0f} ms, "
                         f"gone after {gone:.2f} s")
            await asyncio.sleep(args.pause)
        ended = time.perf_counter()
        await talking
        for task in seated:
            task.cancel()
        await asyncio.sleep(1)  # the last acknowledged lines are stored before their ack
        stored = await stored_chats(args.database)
    finally:
        for worker in workers:
            if worker.process.poll() is None:
                stop(worker.process)
    during = sorted(took for c in clients for t, took in c.answered if began <= t <= ended)
    acked = {line for c in clients for line in c.acked}
    outs = [o for c in clients for o in c.out_for]
    return {
        "roll": "; ".join(steps),
        "sockets": len(clients),
        "closed": sum(1 for c in clients if c.out_for),
        "still_out": sum(1 for c in clients if c.ws is None),
        "longest_out_s": round(max(outs), 2) if outs else 0.0,
        "move_p99_ms": round(quantile_ms(during, 0.99)) if during else None,
        "moves_during": len(during),
        "longest_table_gap_s": round(longest_gap(clients, began, ended), 2),
        "acknowledged": len(acked),
        "acknowledged_lost": len(acked - stored),
    }


def readyz(base: str) -> int:
    try:
        with urllib.request.urlopen(f"{base}/readyz", timeout=1) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as refused:
        return refused.code
    except OSError:
        return 0  # not listening any more


async def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    if args.roll:
        return [await roll(args)]
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
    parser.add_argument("--roll", action="store_true", help="a rolling deploy of three workers")
    parser.add_argument("--pause", type=float, default=5.0,
                        help="--roll: seconds between one worker back and the next stopped")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.roll and args.rooms == 500:
        args.rooms = 75  # 300 sockets (4 a room), as the rolling deploy
    if args.logs:
        Worker.logs = Path(args.logs)
        Worker.logs.mkdir(parents=True, exist_ok=True)
    results = asyncio.run(run(args))
    if args.json:
        print(json.dumps(results))
        return
    for r in results:
        if "roll" in r:
            print(f"rolling deploy ({r['roll']}): {r['closed']} of {r['sockets']} sockets closed, "
                  f"{r['still_out']} still out; the longest out {r['longest_out_s']} s; move p99 "
                  f"meanwhile {r['move_p99_ms']} ms over {r['moves_during']} moves; the longest "
                  f"gap a table saw {r['longest_table_gap_s']} s; {r['acknowledged']} moves "
                  f"acknowledged, {r['acknowledged_lost']} lost")
            continue
        print(f"{r['stop']}: {r['sockets']} sockets, {r['back']} back in their seats "
              f"({r['back_within_10_s']} within {BACK_WITHIN:.0f} s): p50 {r['back_p50_s']} s, "
              f"p95 {r['back_p95_s']} s, max {r['back_max_s']} s; {r['acknowledged']} moves "
              f"acknowledged, {r['acknowledged_lost']} lost")


if __name__ == "__main__":
    main()
