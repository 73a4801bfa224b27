"""Rooms across workers: bench/server.py's load against one worker, then against two
Redis-backed workers with every room's sockets spread evenly over both (half of them reach the
room's owner through Redis); then the failover time from kill -9 of a room's owner to the next
command applied by the surviving worker, over ``--kills`` kills.

    .venv/bin/python -m bench.cluster [--rooms 200] [--seconds 20] [--kills 20] [--repeat 1]
                                      [--json]

Each layout also prints each socket's latency by what crossed Redis on its way (nothing; the
event; the command; both), so a slower owner and the hops themselves show apart.

Needs Postgres and Redis (``--database`` names a Postgres server database to create afresh,
``--redis`` a Redis URL). Targets (issue 6): p99 through Redis at most 10 ms above one worker;
failover p95 <= 5 s (with ``--lease`` seconds, default 2).

The ``two-cluster`` layouts run the two workers on a Redis Cluster instead (three masters and
three replicas of Debian's redis-server, started here on free ports, tests/cluster/
redis_cluster.py): ``two-cluster`` with the bus's own sharded connections, ``two-cluster-redis-py``
with redis-py's cluster pipelines and ``ClusterPubSub`` (bench/library_app.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import websockets

from bench.server import (
    ONE_ADDRESS_LIMITS,
    THINK_JITTER,
    BenchRoom,
    Move,
    Seat,
    close_all,
    connect_tables,
    cpu_seconds,
    drive_tables,
    inside_lines,
    quantile_ms,
    raise_fd_limit,
    scrape,
    seat_url,
    stop,
    tail_bursts,
    tail_line,
    uno_rooms,
    window_figures,
)
from bench.workers import POSTGRES, REDIS, Worker, fresh_database

OwnedRoom = tuple[str, list[str], int]  # code, seat tokens, index of the worker that owns it


async def spread_load(workers: list[Worker], rooms: list[OwnedRoom],
                      seconds: float, interval: float, announce: bool = False,
                      timeline: Path | None = None, jitter: float = THINK_JITTER,
                      measure: Callable[[], Awaitable[None]] | None = None
                      ) -> dict[str, Any]:
    """bench/server.py's load, seat ``i`` of every room connected to worker ``i % n``;
    ``timeline``: a file for every measured move (wall-clock send time, latency in ms);
    ``measure``: called as the measured window starts and again as it ends."""
    results: list[Move] = []
    deliveries: list[list[tuple[int, list[float]]]] = [[] for _ in workers]  # per owner
    tables = []
    for code, tokens, owner in rooms:
        tables.append(BenchRoom(code, tokens, results))
        tables[-1].deliveries = deliveries[owner]

    def url(seat: Seat) -> str:
        return seat_url(workers[seat.seat % len(workers)].ws, seat)

    await connect_tables(tables, url)
    await asyncio.sleep(1)
    cpu_at_start: list[float] = []
    before: list[dict[str, float]] = []

    async def window_starts() -> None:
        if announce:  # e.g. for a profiler to attach to the workers for the measured window
            print(f"measuring {seconds:g} s: worker pids "
                  f"{' '.join(str(w.process.pid) for w in workers)}", file=sys.stderr,
                  flush=True)
        cpu_at_start.extend(cpu_seconds(w.process.pid) for w in workers)
        before.extend([await scrape(w.http) for w in workers])
        if measure is not None:
            await measure()

    await drive_tables(tables, seconds, interval, window_starts, jitter)
    if measure is not None:
        await measure()
    cpu = [cpu_seconds(w.process.pid) - c for w, c in zip(workers, cpu_at_start, strict=True)]
    inside = window_figures(before, [await scrape(w.http) for w in workers])
    close_all(tables)
    if timeline is not None:  # to line the stalls up with what else the machine did then
        wall = time.time() - time.perf_counter()
        timeline.write_text("".join(f"{wall + sent:.4f} {latency * 1000:.2f}\n"
                                    for sent, latency in results))
    ordered = sorted(latency for _, latency in results)
    paths = latency_by_path(deliveries)
    # The workers' CPU per action: steadier than a tail latency on a shared machine.
    return {"actions": len(ordered), "p50_ms": quantile_ms(ordered, 0.5),
            "p99_ms": quantile_ms(ordered, 0.99),
            "worker_cpu_ms_per_action": sum(cpu) * 1000 / max(1, len(ordered)),
            "worker_cpu_s": sum(cpu), "paths": paths, "inside": inside,
            "tail": tail_bursts(results)}


# What crosses Redis on the way from a move to one socket (seat i on worker i % workers), by
# (the actor's socket is on the room's owner, the receiving socket is on the owner).
PATHS = {
    (True, True): "no Redis (actor and socket on the owner)",
    (True, False): "event through Redis",
    (False, True): "command through Redis",
    (False, False): "command and event through Redis",
}


def latency_by_path(deliveries: list[list[tuple[int, list[float]]]]
                    ) -> dict[str, dict[str, float]]:
    """Each socket's latency (not only the last one's) by what crossed Redis to reach it, from
    the (actor, latency per seat) of every move in the rooms each worker owns: where the extra
    time of two workers goes (a slower owner, or the hops)."""
    by_path: dict[str, list[float]] = {label: [] for label in PATHS.values()}
    workers = len(deliveries)
    for owner, moves in enumerate(deliveries):
        for actor, arrivals in moves:
            for seat, latency in enumerate(arrivals):
                key = (actor % workers == owner, seat % workers == owner)
                by_path[PATHS[key]].append(latency)
    figures = {}
    for label, latencies in by_path.items():
        latencies.sort()
        if latencies:
            figures[label] = {"p50_ms": quantile_ms(latencies, 0.5),
                              "p99_ms": quantile_ms(latencies, 0.99)}
    return figures


async def rooms_on(workers: list[Worker], count: int) -> list[OwnedRoom]:
    """``count`` rooms, owned by the workers in turn (each room by the worker it was made on)."""
    rooms: list[OwnedRoom] = []
    for index, worker in enumerate(workers):
        share = count // len(workers) + (1 if index < count % len(workers) else 0)
        rooms += [(code, tokens, index) for code, tokens in await uno_rooms(worker.http, share)]
    return rooms


async def applied_after_kill(owner: Worker, other: Worker) -> float:
    """Seconds from kill -9 of a room's owner to a command applied on the other worker."""
    async with httpx.AsyncClient(base_url=owner.http, timeout=10) as http:
        made = (await http.post("/api/rooms", json={"name": "a", "public": False})).json()
    url = f"{other.ws}/ws/rooms/{made['code']}?token={made['token']}"
    owner.kill()
    killed = time.perf_counter()
    async with asyncio.timeout(60):
        while True:
            with contextlib.suppress(websockets.ConnectionClosed, OSError):
                async with websockets.connect(url, open_timeout=10) as ws:
                    while True:
                        mid = uuid.uuid4().hex[:8]
                        await ws.send(json.dumps({"type": "chat", "text": "hi", "id": mid}))
                        answer = await _answer(ws, mid)
                        if answer == "ack":
                            return time.perf_counter() - killed
                        await asyncio.sleep(0.05)
            await asyncio.sleep(0.05)


async def _answer(ws: Any, mid: str) -> str:
    async for raw in ws:
        frame = json.loads(raw)
        if frame.get("id") == mid and frame["type"] in ("ack", "error"):
            return str(frame["type"])
    return "closed"


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {"rooms": args.rooms, "clients_per_room": 4,
                           "client_uvloop": args.uvloop, "repeat": args.repeat}
    layouts = args.layouts.split(",")
    runs: dict[str, list[dict[str, Any]]] = {layout: [] for layout in layouts}
    # On a shared machine a tail latency swings from run to run: with --repeat the layouts
    # take turns, each run on fresh processes and a fresh database, and the medians count.
    with contextlib.ExitStack() as stack:
        if any("cluster" in layout for layout in layouts):
            from tests.cluster.redis_cluster import private_cluster  # noqa: PLC0415

            args.cluster_seeds = stack.enter_context(private_cluster()).seeds
        await take_turns(args, layouts, runs)
    summarize(out, runs)
    return out


async def take_turns(args: argparse.Namespace, layouts: list[str],
                     runs: dict[str, list[dict[str, Any]]]) -> None:
    for turn in range(args.repeat):
        for layout in layouts:
            last = turn == args.repeat - 1
            kills = args.kills if last and layout.startswith("two") else 0
            runs[layout].append(await run_layout(args, layout, kills, turn))


def summarize(out: dict[str, Any], runs: dict[str, list[dict[str, Any]]]) -> None:
    for layout, key in LAYOUT_KEYS.items():
        if layout in runs:
            out[key] = summary(runs[layout])
    if "one" in runs and "two" in runs:
        extra = [two["p99_ms"] - one["p99_ms"]
                 for one, two in zip(runs["one"], runs["two"], strict=True)]
        out["extra_p99_ms"] = statistics.median(extra)
        out["extra_p99_runs_ms"] = extra
    for library, ours in LIBRARY_LAYOUTS.items():
        if ours in runs and library in runs:  # the hand-written bus code against redis-py's
            more = [lib["worker_cpu_ms_per_action"] / own["worker_cpu_ms_per_action"] - 1
                    for own, lib in zip(runs[ours], runs[library], strict=True)]
            out[f"{library}_extra_cpu"] = {"median": statistics.median(more), "runs": more}
    if "two" in runs and "failover_s" in runs["two"][-1]:
        out["failover_s"] = runs["two"][-1]["failover_s"]


LAYOUT_KEYS = {"one": "one_worker", "redis": "one_redis_worker", "two": "two_workers",
               "redis-py": "one_redispy_worker", "two-redis-py": "two_redispy_workers",
               "two-cluster": "two_cluster_workers",
               "two-cluster-redis-py": "two_cluster_redispy_workers"}
# Layouts with the bus on redis-py's own API (bench/library_app.py), and the layout each copies.
LIBRARY_LAYOUTS = {"redis-py": "redis", "two-redis-py": "two",
                   "two-cluster-redis-py": "two-cluster"}


def summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    """One run's figures as they are; several runs' medians, with every run's p99."""
    if len(results) == 1:
        return {k: v for k, v in results[0].items() if k != "failover_s"}
    figures = ("p50_ms", "p99_ms", "worker_cpu_ms_per_action")
    merged: dict[str, Any] = {k: statistics.median(r[k] for r in results) for k in figures}
    merged["tail"] = {k: statistics.median(r["tail"][k] for r in results)
                      for k in results[0]["tail"]}
    merged["actions"] = sum(r["actions"] for r in results)
    merged["paths"] = {label: {key: statistics.median(r["paths"][label][key] for r in results
                                                      if label in r["paths"])
                               for key in ("p50_ms", "p99_ms")}
                       for label in {label for r in results for label in r["paths"]}}
    merged["inside"] = {label: {key: statistics.median(r["inside"][label][key] for r in results)
                                for key in figures}
                        for label, figures in results[0]["inside"].items()}
    merged["p99_runs_ms"] = [r["p99_ms"] for r in results]
    merged["actions_runs"] = [r["actions"] for r in results]
    return merged


async def run_layout(args: argparse.Namespace, layout: str, kills: int, turn: int
                     ) -> dict[str, Any]:
    """One measured run of ``layout`` on fresh workers and a fresh database (then ``kills``
    failovers, for "two")."""
    base = {"UNO_DATABASE_URL": args.database, **ONE_ADDRESS_LIMITS}
    module = "app"
    if layout in LIBRARY_LAYOUTS:
        layout = LIBRARY_LAYOUTS[layout]
        base["UNO_BENCH_REDIS"] = "redis-py"
        module = "bench.library_app"
    if layout != "one":  # "redis" (one worker on the Redis bus), "two", "two-cluster"
        shared = ({"UNO_REDIS_CLUSTER": args.cluster_seeds} if layout == "two-cluster"
                  else {"UNO_REDIS_URL": args.redis})
        base = {**base, **shared, "UNO_REDIS_PREFIX": f"bench:{uuid.uuid4().hex[:8]}:",
                "UNO_LEASE_SECONDS": str(args.lease)}
    await fresh_database(args.database)
    workers = [Worker(base, module)]
    try:
        if layout in ("two", "two-cluster"):
            workers.append(Worker(base, module))  # after the first: it migrated the database
        rooms = await rooms_on(workers, args.rooms)
        timeline = None if args.timeline is None else args.timeline / f"{layout}-{turn}.txt"
        result = await spread_load(workers, rooms, args.seconds, args.interval, args.announce,
                                   timeline, args.think_jitter)
        times = []
        for kill in range(kills):
            owner, other = workers[kill % 2], workers[(kill + 1) % 2]
            times.append(await applied_after_kill(owner, other))
            await asyncio.to_thread(owner.start)
        if times:
            ordered = sorted(times)
            result["failover_s"] = {"kills": len(ordered),
                                    "p50": quantile_ms(ordered, 0.5) / 1000,
                                    "p95": quantile_ms(ordered, 0.95) / 1000,
                                    "max": ordered[-1],
                                    "times": [round(t, 3) for t in ordered]}
        return result
    finally:
        for worker in workers:
            stop(worker.process)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--interval", type=float, default=3.0, help="seconds per seat action")
    parser.add_argument("--think-jitter", type=float, default=THINK_JITTER,
                        help="each wait between moves within +- this fraction of its mean "
                        "(0: the same wait every time)")
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs of each layout, taking turns; medians are reported")
    parser.add_argument("--lease", type=float, default=5.0,
                        help="UNO_LEASE_SECONDS (5: the default)")
    parser.add_argument("--database", default=POSTGRES)
    parser.add_argument("--redis", default=REDIS)
    parser.add_argument("--layouts", default="one,two",
                        help="comma-separated: one (one worker, in-process bus), redis (one "
                        "worker on the Redis bus), two (two Redis-backed workers, then kills); "
                        "redis-py and two-redis-py: the Redis layouts with the bus on redis-py's "
                        "own connection, pipelines and PubSub instead of app/cluster/resp.py; "
                        "two-cluster and two-cluster-redis-py: two workers on a Redis Cluster "
                        "started here, the bus's own sharded connections or redis-py's")
    parser.add_argument("--storm", action="store_true",
                        help="the reconnect storm instead (bench/storm.py; its options follow)")
    parser.add_argument("--no-uvloop", dest="uvloop", action="store_false",
                        help="run the clients on the default asyncio loop (slower: with 2,000 "
                        "sockets the clients' own loop lag then shows up in the figures)")
    parser.add_argument("--json", action="store_true", help="one JSON line")
    parser.add_argument("--logs", type=Path, help="a folder for the workers' output")
    parser.add_argument("--announce", action="store_true",
                        help="say on stderr when each measured window starts, with the pids")
    parser.add_argument("--timeline", type=Path,
                        help="a folder for every measured move of each run (<layout>-<turn>.txt:"
                        " wall-clock send time, latency in ms)")
    args = parser.parse_args()
    raise_fd_limit()
    if args.timeline is not None:
        args.timeline.mkdir(parents=True, exist_ok=True)
    if args.logs is not None:
        args.logs.mkdir(parents=True, exist_ok=True)
        Worker.logs = args.logs
    if args.uvloop:  # as bench/server.py: the clients must not be the bottleneck
        import uvloop  # noqa: PLC0415

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    out = asyncio.run(bench(args))
    if args.json:
        sys.stdout.write(json.dumps(out) + "\n")
        return
    runs = f", medians of {args.repeat} runs each, taking turns" if args.repeat > 1 else ""
    lines = [f"{args.rooms} rooms x 4 clients, one action per seat every {args.interval:g} s"
             f" (waits +-{args.think_jitter:.0%})"
             f"{'' if args.uvloop else ' (clients on the default asyncio loop)'}{runs}"]
    for key, label, cpu in (
        ("one_worker", "one worker (in-process bus)", "worker CPU"),
        ("one_redis_worker", "one worker (Redis bus)     ", "worker CPU"),
        ("two_workers", "two workers (Redis bus)    ", "workers' CPU"),
        ("one_redispy_worker", "one worker (bus on redis-py)", "worker CPU"),
        ("two_redispy_workers", "two workers (bus on redis-py)", "workers' CPU"),
        ("two_cluster_workers", "two workers (Redis Cluster)", "workers' CPU"),
        ("two_cluster_redispy_workers", "two workers (Redis Cluster, bus on redis-py)",
         "workers' CPU"),
    ):
        if key in out:
            layout = out[key]
            each = layout.get("p99_runs_ms")
            lines.append(f"{label}: p50 {layout['p50_ms']:.1f} ms, p99 {layout['p99_ms']:.1f} ms, "
                         f"{cpu} {layout['worker_cpu_ms_per_action']:.2f} ms/action"
                         + (f" (p99 per run: {', '.join(f'{v:.1f}' for v in each)})"
                            if each else ""))
            lines.append(f"    {tail_line(layout['tail'])}")
            for path, figures in layout["paths"].items():
                lines.append(f"    each socket, {path}: p50 {figures['p50_ms']:.1f} ms, "
                             f"p99 {figures['p99_ms']:.1f} ms")
            lines += [line.replace("the server", "the workers")
                      for line in inside_lines(layout["inside"])]
    if "extra_p99_ms" in out:
        each = out["extra_p99_runs_ms"]
        lines.append(f"extra p99 through Redis (two workers, sockets spread evenly, against one"
                     f"{', paired runs' if len(each) > 1 else ''}): {out['extra_p99_ms']:+.1f} ms"
                     + (f" (per run: {', '.join(f'{v:+.1f}' for v in each)})"
                        if len(each) > 1 else "") + ", target <= 10")
    if "failover_s" in out:
        fail = out["failover_s"]
        lines.append(f"failover (kill -9 to next applied command, lease {args.lease:g} s, "
                     f"{fail['kills']} kills): p50 {fail['p50']:.2f} s, p95 {fail['p95']:.2f} s, "
                     f"max {fail['max']:.2f} s (target p95 <= 2)")
    for library, label in (("redis-py", "one worker"), ("two-redis-py", "two workers"),
                           ("two-cluster-redis-py", "two workers on a Redis Cluster")):
        if f"{library}_extra_cpu" in out:
            more = out[f"{library}_extra_cpu"]
            lines.append(f"the bus on redis-py against app/cluster/resp.py + publisher.py, {label}:"
                         f" {more['median']:+.1%} CPU per action (per run: "
                         f"{', '.join(f'{v:+.1%}' for v in more['runs'])})")
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
