"""A tournament of ``--people`` (default 200: 50 tables of 4) on one worker (SQLite) and on two
(Postgres and Redis): the time from the host's ``start`` to every participant told their table
(every table open, its match dealt), the pairing itself (pure, in this process: round one and a
Swiss round after it), and the moves of the round's tables, played by bench clients as
bench.server's are: p50/p99 and server CPU per move. Beside it, in the same run, bench.server's
figures for the same number of plain rooms on one worker.

    .venv/bin/python -m bench.tournament [--people 200] [--seconds 20] [--json]

Needs Postgres (``--database``, created afresh) and Redis (``--redis``) for the two-worker run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

from app.tournaments.progress import Course, Settings
from bench.server import (
    ONE_ADDRESS_LIMITS,
    RULES,
    BenchRoom,
    Move,
    close_all,
    connect_seat,
    cpu_seconds,
    drive_tables,
    quantile_ms,
    raise_fd_limit,
    stop,
    uno_rooms,
)
from bench.workers import POSTGRES, REDIS, Worker, fresh_database
from bench.wsclient import LeanSocket, connect

TABLE = 4


class Participant:
    """One person's tournament socket: when it was told its table."""

    def __init__(self, participant: str, token: str) -> None:
        self.participant = participant
        self.token = token
        self.seated_at: float | None = None
        self.room: str | None = None
        self.ws: LeanSocket | None = None

    def on_text(self, raw: str) -> None:
        frame = json.loads(raw)
        if frame.get("type") != "state" or self.seated_at is not None:
            return
        table = frame["state"]["you"]["table"]
        if table is not None:
            self.seated_at = time.perf_counter()
            self.room = table["room"]


def pairing_ms(people: int, repeat: int = 5) -> dict[str, float]:
    """The pure pairing of ``people``: round one (a shuffle), then a Swiss round by standings
    with as few repeat tablemates as neighbour swaps find (results drawn at random)."""
    first, later = [], []
    rng = random.Random(7)
    for _ in range(repeat):
        course = Course(Settings(table_size=TABLE, rounds=3), seed=uuid.uuid4().hex)
        for i in range(people):
            course.join(f"p{i}", f"P{i}")
        started = time.perf_counter()
        tables = course.start_round()
        first.append(time.perf_counter() - started)
        for table in tables:
            places = list(range(1, len(table.seats) + 1))
            rng.shuffle(places)
            course.finish_table(table.number, places, [rng.randrange(200) for _ in places])
        started = time.perf_counter()
        course.start_round()
        later.append(time.perf_counter() - started)
    return {"round_one_ms": statistics.median(first) * 1000,
            "swiss_round_ms": statistics.median(later) * 1000}


async def tournament_run(workers: list[Worker], people: int, seconds: float, interval: float
                         ) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(timeout=30, limits=limits) as http:
        made = (await http.post(f"{workers[0].http}/api/tournaments", json={
            "name": "Bench", "rules": RULES, "table_size": TABLE, "rounds": 2})).json()
        code = made["code"]

        async def join(i: int) -> Participant:
            worker = workers[i % len(workers)]
            answer = (await http.post(f"{worker.http}/api/tournaments/{code}/join",
                                      json={"name": f"P{i}"})).json()
            return Participant(answer["participant"], answer["token"])

        everyone: list[Participant] = []
        for start in range(0, people, 50):
            everyone += await asyncio.gather(*(join(i) for i in range(start, min(people,
                                                                                  start + 50))))
    for i, person in enumerate(everyone):
        worker = workers[i % len(workers)]
        person.ws = await connect(f"{worker.ws}/ws/tournaments/{code}?token={person.token}",
                                  person.on_text)
    host_states: list[dict[str, Any]] = []

    def on_host(raw: str) -> None:
        frame = json.loads(raw)
        if frame.get("type") == "state":
            host_states.append(frame["state"])

    host = await connect(f"{workers[-1].ws}/ws/tournaments/{code}?token={made['token']}",
                         on_host)
    await asyncio.sleep(2 + people / 200)  # every participant marked present
    started = time.perf_counter()
    host.send('{"type": "start"}')
    while any(p.seated_at is None for p in everyone):
        if time.perf_counter() - started > 120:
            raise RuntimeError("the round's tables were not all open within 120 s")
        await asyncio.sleep(0.01)
    seated_s = max(p.seated_at or 0 for p in everyone) - started
    first_s = min(p.seated_at or 0 for p in everyone) - started
    tokens = {p.participant: p.token for p in everyone}
    tables_now = next(s for s in reversed(host_states) if all(t["room"] for t in s["tables"]))
    results: list[Move] = []
    tables = [BenchRoom(t["room"], [tokens[w] for w in t["participants"]], results)
              for t in tables_now["tables"]]
    for index, table in enumerate(tables):
        for seat in table.seats:
            worker = workers[(index + seat.seat) % len(workers)]
            await connect_seat(seat, f"{worker.ws}/ws/rooms/{table.code}?"
                               f"token={table.tokens[seat.seat]}")
    cpu_start = 0.0
    window = 0.0

    async def window_starts() -> None:
        nonlocal cpu_start, window
        cpu_start = sum(cpu_seconds(w.process.pid) for w in workers)
        window = time.perf_counter()

    await drive_tables(tables, seconds, interval, window_starts)
    elapsed = time.perf_counter() - window
    cpu = sum(cpu_seconds(w.process.pid) for w in workers) - cpu_start
    close_all(tables)
    for person in everyone:
        if person.ws is not None:
            person.ws.close()
    host.close()
    ordered = sorted(latency for _, latency in results)
    return {"people": people, "tables": len(tables), "seated_s": seated_s,
            "first_table_s": first_s, "moves_per_s": len(results) / elapsed,
            "p50_ms": quantile_ms(ordered, 0.5), "p99_ms": quantile_ms(ordered, 0.99),
            "cpu_ms_per_move": cpu * 1000 / max(1, len(results))}


async def plain_rooms(worker: Worker, rooms: int, seconds: float, interval: float
                      ) -> dict[str, Any]:
    """bench.server's load: ``rooms`` plain rooms of 4 on ``worker``."""
    from bench.server import run_load  # noqa: PLC0415

    made = await uno_rooms(worker.http, rooms)
    found = await run_load(worker.ws, made, seconds, interval, False,
                           server_pid=worker.process.pid)
    return {"rooms": rooms, "moves_per_s": found["actions_per_s"], "p50_ms": found["p50_ms"],
            "p99_ms": found["p99_ms"], "cpu_ms_per_move": found["server_cpu_ms_per_action"]}


def one_worker_env() -> dict[str, str]:
    db = Path(tempfile.mkdtemp(prefix="uno-bench-")) / "bench.db"
    return {"UNO_DATABASE_URL": f"sqlite+aiosqlite:///{db}", **ONE_ADDRESS_LIMITS}


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {"pairing": pairing_ms(args.people)}
    worker = Worker(one_worker_env())
    try:
        out["one_worker"] = await tournament_run([worker], args.people, args.seconds,
                                                 args.interval)
    finally:
        stop(worker.process)
    worker = Worker(one_worker_env())
    try:
        out["plain_rooms"] = await plain_rooms(worker, args.people // TABLE, args.seconds,
                                               args.interval)
    finally:
        stop(worker.process)
    if not args.skip_two:
        await fresh_database(args.database)
        env = {"UNO_DATABASE_URL": args.database, "UNO_REDIS_URL": args.redis,
               "UNO_REDIS_PREFIX": f"bench:{uuid.uuid4().hex[:8]}:", **ONE_ADDRESS_LIMITS}
        workers = [Worker(env)]
        try:
            workers.append(Worker(env))  # after the first: it migrated the database
            out["two_workers"] = await tournament_run(workers, args.people, args.seconds,
                                                      args.interval)
        finally:
            for each in workers:
                stop(each.process)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--people", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--interval", type=float, default=3.0, help="seconds per seat action")
    parser.add_argument("--database", default=POSTGRES)
    parser.add_argument("--redis", default=REDIS)
    parser.add_argument("--skip-two", action="store_true", help="one worker only")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    raise_fd_limit()
    out = asyncio.run(bench(args))
    if args.json:
        sys.stdout.write(json.dumps(out) + "\n")
        return
    pairing = out["pairing"]
    lines = [f"a tournament of {args.people} people at tables of {TABLE}, one action per seat "
             f"every {args.interval:g} s",
             f"pairing (pure, median of 5): round one {pairing['round_one_ms']:.1f} ms, a Swiss "
             f"round by standings {pairing['swiss_round_ms']:.1f} ms"]
    for name in ("one_worker", "two_workers"):
        run = out.get(name)
        if run is None:
            continue
        lines.append(
            f"{name.replace('_', ' ')}: start to every table seated {run['seated_s'] * 1000:.0f}"
            f" ms (first {run['first_table_s'] * 1000:.0f} ms) for {run['tables']} tables; "
            f"moves {run['moves_per_s']:.0f}/s, p50 {run['p50_ms']:.1f} ms, p99 "
            f"{run['p99_ms']:.1f} ms, server CPU {run['cpu_ms_per_move']:.2f} ms/move")
    plain = out["plain_rooms"]
    lines.append(f"bench.server, {plain['rooms']} plain rooms, one worker, same run: moves "
                 f"{plain['moves_per_s']:.0f}/s, p50 {plain['p50_ms']:.1f} ms, p99 "
                 f"{plain['p99_ms']:.1f} ms, server CPU {plain['cpu_ms_per_move']:.2f} ms/move")
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
