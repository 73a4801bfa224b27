"""What one move costs, measured on several workers against a three-shard Redis Cluster on this
machine, and what 10,000, 100,000 and 1,000,000 players would need, extrapolated from it.

    .venv/bin/python -m bench.capacity [--workers 2] [--rooms 300] [--seconds 30] [--json]

bench/server.py's load (4 players a room, one action per seat every 3 s), each room's seats
spread over every worker (so most events cross Redis), on Postgres (``--database``, made afresh)
and a private Redis Cluster of three masters and three replicas (tests/cluster/redis_cluster.py).
Measured over the window, per acknowledged action: the workers' CPU, the Redis masters' commands,
bytes in and out and CPU, and Postgres's transactions, rows written and WAL bytes (WAL is the
whole Postgres server's: other databases' writes meanwhile count too). Extrapolated: the number
of workers, Redis masters and the Postgres write rate for a number of players, planning each
process at ``--utilisation`` of one core. The figures for one machine are measured; every line
of the plan is arithmetic on them, and says so.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import uuid
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bench.cluster import rooms_on, spread_load
from bench.server import ONE_ADDRESS_LIMITS, engine_env, raise_fd_limit, stop
from bench.workers import POSTGRES, Worker, fresh_database
from tests.cluster.redis_cluster import RedisClusterServers, RedisNode, private_cluster

PLAYERS = (10_000, 100_000, 1_000_000)
MOVE_EVERY_S = 3.0
SOCKETS_PER_WORKER = 6_000  # README "One worker at 6,000 sockets": what one worker was measured at


def redis_figures(node: RedisNode) -> dict[str, float]:
    """A master's counters: commands, bytes in and out, CPU seconds."""
    figures = {"commands": 0.0}
    for line in node.cli("INFO", "commandstats").splitlines():
        if line.startswith("cmdstat_"):
            calls = line.split(":", 1)[1].split(",")[0]
            figures["commands"] += float(calls.split("=")[1])
    wanted = ("total_net_input_bytes", "total_net_output_bytes", "used_cpu_sys", "used_cpu_user")
    for section in ("stats", "cpu"):
        for line in node.cli("INFO", section).splitlines():
            key, _, value = line.partition(":")
            if key in wanted:
                figures[key] = float(value)
    figures["cpu_s"] = figures.pop("used_cpu_sys", 0.0) + figures.pop("used_cpu_user", 0.0)
    return figures


async def postgres_figures(url: str) -> dict[str, float]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            row = (await conn.execute(text(
                "SELECT xact_commit, tup_inserted + tup_updated + tup_deleted,"
                " pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')"
                " FROM pg_stat_database WHERE datname = current_database()"))).one()
            return {"commits": float(row[0]), "rows": float(row[1]), "wal_bytes": float(row[2])}
    finally:
        await engine.dispose()


class Readings:
    """The counters read as the window starts and as it ends."""

    def __init__(self, cluster: RedisClusterServers, database: str) -> None:
        self.cluster, self.database = cluster, database
        self.redis: list[list[dict[str, float]]] = []
        self.postgres: list[dict[str, float]] = []

    async def read(self) -> None:
        if self.postgres:
            await asyncio.sleep(1.5)  # Postgres reports its counters at most once a second
        masters = self.cluster.masters()
        self.redis.append(await asyncio.to_thread(lambda: [redis_figures(m) for m in masters]))
        self.postgres.append(await postgres_figures(self.database))

    def per_action(self, actions: int) -> dict[str, float]:
        (redis_before, redis_after), (pg_before, pg_after) = self.redis, self.postgres
        out: dict[str, float] = {}
        for key in ("commands", "total_net_input_bytes", "total_net_output_bytes", "cpu_s"):
            total = sum(a[key] - b[key] for a, b in zip(redis_after, redis_before, strict=True))
            out[f"redis_{key}"] = total / actions
        for key in ("commits", "rows", "wal_bytes"):
            out[f"postgres_{key}"] = (pg_after[key] - pg_before[key]) / actions
        return out


async def measure(args: argparse.Namespace, cluster: RedisClusterServers) -> dict[str, Any]:
    await fresh_database(args.database)
    env = {"UNO_DATABASE_URL": args.database, "UNO_REDIS_CLUSTER": cluster.seeds,
           "UNO_REDIS_PREFIX": f"capacity:{uuid.uuid4().hex[:8]}:", **ONE_ADDRESS_LIMITS,
           **engine_env(args.engine)}
    workers = [Worker(env)]
    try:
        workers += [Worker(env) for _ in range(args.workers - 1)]  # after the first migrated
        rooms = await rooms_on(workers, args.rooms)
        readings = Readings(cluster, args.database)
        result = await spread_load(workers, rooms, args.seconds, 3.0, measure=readings.read)
    finally:
        for worker in workers:
            stop(worker.process)
    actions = result["actions"]
    return {"workers": args.workers, "rooms": args.rooms, "sockets": args.rooms * 4,
            "actions": actions, "actions_per_s": actions / args.seconds, "p99_ms": result["p99_ms"],
            "worker_cpu_ms": result["worker_cpu_ms_per_action"],
            **readings.per_action(actions)}


def plan(measured: dict[str, Any], utilisation: float) -> list[dict[str, Any]]:
    """For each number of players, what the measured cost per action adds up to."""
    rows = []
    for players in PLAYERS:
        moves = players / MOVE_EVERY_S
        by_cpu = moves * measured["worker_cpu_ms"] / 1000 / utilisation
        redis_cores = moves * measured["redis_cpu_s"] / utilisation
        bytes_per_s = moves * (measured["redis_total_net_input_bytes"]
                               + measured["redis_total_net_output_bytes"])
        rows.append({
            "players": players, "moves_per_s": moves,
            "workers": max(math.ceil(by_cpu), math.ceil(players / SOCKETS_PER_WORKER)),
            "workers_by_cpu": by_cpu,
            "redis_masters": max(1, math.ceil(redis_cores)),
            "redis_mb_per_s": bytes_per_s / 1e6,
            "postgres_commits_per_s": moves * measured["postgres_commits"],
            "postgres_rows_per_s": moves * measured["postgres_rows"],
            "postgres_wal_mb_per_s": moves * measured["postgres_wal_bytes"] / 1e6,
        })
    return rows


def show(measured: dict[str, Any], rows: list[dict[str, Any]], utilisation: float) -> None:
    m = measured
    print(f"measured: {m['workers']} workers, {m['sockets']} sockets ({m['rooms']} rooms), a "
          f"three-master Redis Cluster, Postgres; {m['actions']} actions "
          f"({m['actions_per_s']:.0f}/s), p99 {m['p99_ms']:.1f} ms")
    print("per action (measured):")
    print(f"  worker CPU            {m['worker_cpu_ms']:.3f} ms (all workers)")
    print(f"  Redis commands        {m['redis_commands']:.2f} (all masters)")
    print(f"  Redis bytes in / out  {m['redis_total_net_input_bytes']:.0f} / "
          f"{m['redis_total_net_output_bytes']:.0f}")
    print(f"  Redis CPU             {m['redis_cpu_s'] * 1000:.3f} ms")
    print(f"  Postgres              {m['postgres_commits']:.3f} transactions, "
          f"{m['postgres_rows']:.2f} rows, {m['postgres_wal_bytes']:.0f} WAL bytes")
    print(f"plan (extrapolated: one move every {MOVE_EVERY_S:g} s a player, each process at "
          f"{utilisation:.0%} of a core, at most {SOCKETS_PER_WORKER} sockets a worker):")
    print("| players | moves/s | workers | Redis masters | Redis MB/s | Postgres commits/s | "
          "rows/s | WAL MB/s |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(f"| {r['players']:,} | {r['moves_per_s']:,.0f} | {r['workers']:,} | "
              f"{r['redis_masters']:,} | {r['redis_mb_per_s']:,.1f} | "
              f"{r['postgres_commits_per_s']:,.0f} | {r['postgres_rows_per_s']:,.0f} | "
              f"{r['postgres_wal_mb_per_s']:,.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rooms", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--database", default=POSTGRES)
    parser.add_argument("--utilisation", type=float, default=0.6)
    parser.add_argument("--engine", choices=("compiled", "sources"), default="compiled")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    raise_fd_limit()
    with private_cluster() as cluster:
        measured = asyncio.run(measure(args, cluster))
    rows = plan(measured, args.utilisation)
    if args.json:
        print(json.dumps({"measured": measured, "plan": rows}))
    else:
        show(measured, rows, args.utilisation)


if __name__ == "__main__":
    main()
