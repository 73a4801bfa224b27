"""Tables starting, alone: the worker's CPU for each match's start, and how long a start waits.
N rooms of 4 connected players (bench/server.py's, SQLite, the compiled engine), then each
room's first player sends ``start`` once, at a random moment within ``--spread`` seconds;
nobody moves after. Prints the worker's CPU per start (less what the idle worker used over as
long: pings, timers) and the starts' latency, from sending to the last of the room's four
sockets having its first event.

    .venv/bin/python -m bench.starts [--rooms 1500] [--spread 3] [--repeat 1] [--profile RAW]
                                     [--engine compiled|sources]

bench/server.py's start-up burst is these starts with the started tables' moves on top: this
is the part of it that a change of a start's path moves. ``--profile`` samples the worker with
py-spy through the starts (raw format; ``bench.stages --shares-of RAW`` splits it by stage).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

from bench.server import (
    BenchRoom,
    close_all,
    connect_tables,
    free_port,
    game_command,
    game_env,
    quantile_ms,
    raise_fd_limit,
    seat_url,
    start_process,
    stop,
    uno_rooms,
    user_and_system,
    wait_up,
)

IDLE_SECONDS = 2.0


async def start_table(table: BenchRoom, spread: float) -> None:
    await asyncio.sleep(random.random() * spread)
    table.send_move(table.seats[0], {"type": "start"})
    async with asyncio.timeout(60):
        await table.done.wait()


async def one_run(rooms: int, spread: float, profile: Path | None = None,
                  engine: str = "compiled") -> dict[str, float]:
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="uno-starts-"))
    server = start_process(game_command("app", port), game_env(folder, engine))
    try:
        wait_up(f"http://127.0.0.1:{port}/healthz", server)
        made = await uno_rooms(f"http://127.0.0.1:{port}", rooms)
        starts: list[tuple[float, float]] = []
        tables = [BenchRoom(code, tokens, starts) for code, tokens in made]
        await connect_tables(tables, functools.partial(seat_url, f"ws://127.0.0.1:{port}"))
        await asyncio.sleep(1.0)
        idle_from = sum(user_and_system(server.pid))
        await asyncio.sleep(IDLE_SECONDS)
        idle_per_second = (sum(user_and_system(server.pid)) - idle_from) / IDLE_SECONDS
        spy = None
        if profile is not None:
            py_spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
            spy = await asyncio.create_subprocess_exec(
                py_spy, "record", "--pid", str(server.pid), "--format", "raw",
                "--duration", str(max(1, round(spread))), "-o", str(profile),
                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
        began = time.perf_counter()
        cpu_before = sum(user_and_system(server.pid))
        await asyncio.gather(*(start_table(table, spread) for table in tables))
        cpu = sum(user_and_system(server.pid)) - cpu_before
        elapsed = time.perf_counter() - began
        if spy is not None:
            await spy.wait()
        close_all(tables)
    finally:
        stop(server)
    ordered = sorted(latency for _, latency in starts)
    return {"starts": len(starts), "seconds": elapsed,
            "cpu_ms_per_start": (cpu - idle_per_second * elapsed) * 1000 / max(1, len(starts)),
            "idle_ms_per_s": idle_per_second * 1000,
            "p50_ms": quantile_ms(ordered, 0.5), "p99_ms": quantile_ms(ordered, 0.99),
            "max_ms": ordered[-1] * 1000 if ordered else float("nan")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=1500)
    parser.add_argument("--spread", type=float, default=3.0,
                        help="seconds over which the tables start")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--profile", type=Path, metavar="RAW",
                        help="py-spy's samples of the worker through the starts, to this file")
    parser.add_argument("--engine", choices=("compiled", "sources"), default="compiled")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    raise_fd_limit()
    for _ in range(args.repeat):
        run = asyncio.run(one_run(args.rooms, args.spread, args.profile, args.engine))
        if args.json:
            print(json.dumps(run))
            continue
        print(f"{run['starts']:.0f} tables started in {run['seconds']:.1f} s: worker CPU "
              f"{run['cpu_ms_per_start']:.2f} ms a start (idle {run['idle_ms_per_s']:.0f} ms "
              f"a second, taken out); a start's latency p50 {run['p50_ms']:.1f} ms, "
              f"p99 {run['p99_ms']:.1f} ms, max {run['max_ms']:.1f} ms")


if __name__ == "__main__":
    main()
