"""Where a worker's event loop stalls: bench/server.py's load (N rooms of 4 players, SQLite, the
compiled engine) against a server with a watchdog on its loop (bench/stall_app.py); every time
the loop is more than ``--stall-ms`` late, the loop thread's stack is sampled until it is
back. Prints each stall of the measured window (the tables' start left out) with its most
sampled stack, and the stalls grouped by the innermost frame of the app's own code.

    .venv/bin/python -m bench.stalls [--rooms 1500] [--seconds 30] [--stall-ms 5]

The heartbeat (a callback every millisecond) costs a little CPU; the latencies it prints are
those of this watched server, not figures to quote beside the bare server.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import signal
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.server import (
    free_port,
    game_command,
    game_env,
    raise_fd_limit,
    run_load,
    start_process,
    stop,
    uno_rooms,
    wait_up,
)


def culprit(stack: str) -> str:
    """The innermost frame of the app's own code in a sampled stack (innermost first)."""
    for frame in stack.split(" < "):
        if "(app/" in frame:
            return frame
    return stack.split(" < ", maxsplit=1)[0] if stack else "(no Python frame: C code)"


async def watch(args: argparse.Namespace) -> tuple[dict[str, Any], list[dict[str, Any]], float]:
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="uno-stalls-"))
    dump = folder / "stalls.jsonl"
    server = start_process(
        game_command("bench.stall_app", port),
        {**game_env(folder, args.engine), "UNO_STALL_DUMP": str(dump),
         "UNO_STALL_MS": str(args.stall_ms)})
    try:
        wait_up(f"http://127.0.0.1:{port}/healthz", server)
        rooms = await uno_rooms(f"http://127.0.0.1:{port}", args.rooms)
        load = asyncio.create_task(run_load(f"ws://127.0.0.1:{port}", rooms, args.seconds, 3.0,
                                            False, server_pid=server.pid))
        await asyncio.sleep(6)  # run_load's warm-up (5 s): the tables start
        window = time.time()
        result = await load
        os.kill(server.pid, signal.SIGUSR1)
        await asyncio.sleep(1)
    finally:
        stop(server)
    stalls = [json.loads(line) for line in dump.read_text().splitlines()] if dump.exists() else []
    return result, [s for s in stalls if s["at"] >= window], window


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=1500)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--stall-ms", type=float, default=5.0)
    parser.add_argument("--engine", choices=("compiled", "sources"), default="compiled")
    args = parser.parse_args()
    raise_fd_limit()
    result, stalls, window = asyncio.run(watch(args))
    print(f"{args.rooms} rooms: {result['actions_per_s']:.0f} actions/s, p50 "
          f"{result['p50_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms (this watched server)")
    print(f"{len(stalls)} stalls of {args.stall_ms:g} ms or more in the window, "
          f"{sum(s['ms'] for s in stalls):.0f} ms in all")
    for stall in stalls:
        stack, _samples = stall["stacks"][0] if stall["stacks"] else ("", 0)
        print(f"  +{stall['at'] - window:6.2f} s  {stall['ms']:6.1f} ms  {culprit(stack)}")
    by: collections.Counter[str] = collections.Counter()
    for stall in stalls:
        for stack, _samples in stall["stacks"][:1]:
            by[culprit(stack)] += stall["ms"]
    print("by the app's innermost frame (ms of stalls):")
    for where, ms in by.most_common():
        print(f"  {ms:7.1f} ms  {where}")


if __name__ == "__main__":
    main()
