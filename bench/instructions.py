"""Instructions per move, this server beside the bare ``websockets`` server: each runs under
valgrind's callgrind (instructions counted, not seconds: the same whatever else the machine is
doing), under bench/server.py's load of a few rooms; the counters are zeroed once the tables
play and read after ``--seconds``; the figure is the instructions of the server's process (every
thread) in that window over the moves answered in it. What each costs per second with no moves
(timers, the collector's ticks, pings) is measured the same way on an idle table and taken out,
so the figure is what a move adds, at any load.

    .venv/bin/python -m bench.instructions [--rooms 20] [--seconds 30] [--top 25]

Needs valgrind (Debian's package). Under callgrind a server runs 30-50 times slower, so the
load is light (20 rooms: 27 moves a second); ``--top`` lists the functions (C and the
interpreter's) that take most of a move, from ``callgrind_annotate``.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from bench.server import (
    WindowHooks,
    free_port,
    game_command,
    game_env,
    raise_fd_limit,
    run_load,
    start_process,
    stop,
    uno_rooms,
)

IDLE_SECONDS = 10.0


def under_callgrind(command: list[str], out: Path) -> list[str]:
    # Names spelled out in every dump (not defined once, in the first): each dump reads alone.
    return ["valgrind", "--tool=callgrind", "--compress-strings=no",
            f"--callgrind-out-file={out}.%p", *command]


def control(pid: int, flag: str) -> None:
    """``callgrind_control``: -z (zero the counters), -d (dump them, and zero them)."""
    subprocess.run(["callgrind_control", flag, str(pid)], check=True, capture_output=True)


def wait_up(url: str, process: subprocess.Popen[bytes], seconds: float = 600) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        try:
            httpx.get(url, timeout=5)
            return
        except httpx.HTTPError:
            time.sleep(1)
    raise RuntimeError(f"{url} did not come up")


def dumped(out: Path, pid: int) -> list[Path]:
    """The dumps callgrind wrote for ``pid``, oldest first (one per ``-d``)."""
    return sorted(out.parent.glob(f"{out.name}.{pid}.*"),
                  key=lambda p: int(p.name.rsplit(".", 1)[1]))


def totals(dump: Path) -> int:
    for line in dump.read_text(errors="replace").splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise RuntimeError(f"no totals in {dump}")


def by_function(dump: Path) -> collections.Counter[str]:
    """Instructions by function (exclusive: a call's cost is its callee's), read from the dump:
    ``fn=`` names the function of the cost lines that follow, and the line after ``calls=`` is
    a call's inclusive cost, left out."""
    counts: collections.Counter[str] = collections.Counter()
    library = function = "?"
    skip_next = False
    for line in dump.read_text(errors="replace").splitlines():
        if line.startswith("ob="):
            library = line[3:].rsplit("/", 1)[-1]
        elif line.startswith("fn="):
            function = f"{line[3:]} ({library})"
        elif line.startswith("calls="):
            skip_next = True
        elif line[:1].isdigit() or line[:1] in "+-*":
            if skip_next:
                skip_next = False
                continue
            parts = line.split()
            if len(parts) == 2:
                counts[function] += int(parts[1])
    return counts


async def measure(args: argparse.Namespace, bare: bool, folder: Path) -> dict[str, Any]:
    port = free_port()
    out = folder / ("bare" if bare else "uno")
    if bare:
        command = [sys.executable, "-m", "bench.server", "--bare-server", str(port)]
        env: dict[str, str] = {}
    else:
        command = game_command("app", port)
        env = game_env(folder, args.engine)
    server = start_process(under_callgrind(command, out), env)
    marks: dict[str, float] = {}

    async def idle() -> None:
        """The tables connected and nobody moving: what the server costs a second anyway."""
        control(server.pid, "-z")
        await asyncio.sleep(IDLE_SECONDS)
        control(server.pid, "-d")

    async def start() -> None:
        control(server.pid, "-z")
        marks["started"] = time.perf_counter()

    async def end() -> None:
        control(server.pid, "-d")
        marks["window"] = time.perf_counter() - marks["started"]

    try:
        if bare:
            await asyncio.sleep(20)  # it has no health page: its start-up, under valgrind
            rooms = [(f"r{i}", ["", "", "", ""]) for i in range(args.rooms)]
        else:
            wait_up(f"http://127.0.0.1:{port}/healthz", server)
            rooms = await uno_rooms(f"http://127.0.0.1:{port}", args.rooms)
        result = await run_load(f"ws://127.0.0.1:{port}", rooms, args.seconds, 3.0, bare,
                                hooks=WindowHooks(idle, start, end))
    finally:
        stop(server)
    idle_dump, window = dumped(out, server.pid)[-2:]
    idle_per_second = totals(idle_dump) / IDLE_SECONDS
    moves = result["actions"]
    per_move = (totals(window) - idle_per_second * marks["window"]) / moves
    return {"moves": moves, "per_move": per_move, "idle_per_second": idle_per_second,
            "window": window, "seconds": marks["window"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--engine", choices=("compiled", "sources"), default="compiled")
    parser.add_argument("--top", type=int, default=0, help="functions to list for this server")
    parser.add_argument("--skip-bare", action="store_true")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("needs valgrind (apt-get install valgrind)")
    raise_fd_limit()
    folder = Path(tempfile.mkdtemp(prefix="uno-instructions-"))
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    uno = asyncio.run(measure(args, False, folder))
    print(f"this server: {uno['moves']} moves in {uno['seconds']:.1f} s, "
          f"{uno['per_move'] / 1000:,.0f} K instructions per move "
          f"(idle: {uno['idle_per_second'] / 1e6:,.1f} M a second, taken out)")
    if not args.skip_bare:
        bare = asyncio.run(measure(args, True, folder))
        print(f"bare websockets: {bare['moves']} moves in {bare['seconds']:.1f} s, "
              f"{bare['per_move'] / 1000:,.0f} K instructions per move "
              f"(idle: {bare['idle_per_second'] / 1e6:,.1f} M a second, taken out)")
        print(f"ratio: x{uno['per_move'] / bare['per_move']:.2f}")
    if args.top:
        counts = by_function(uno["window"])
        whole = sum(counts.values()) or 1
        print(f"this server's window, by function (of {whole / uno['moves'] / 1000:,.0f} K "
              "per move, idle included):")
        for name, count in counts.most_common(args.top):
            print(f"  {count / uno['moves'] / 1000:8,.1f} K  {count / whole:5.1%}  {name}")
    print(f"dumps: {folder}")


if __name__ == "__main__":
    main()
