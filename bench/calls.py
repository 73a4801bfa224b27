"""Python calls per move, by function: the server as ``python -m app`` runs it, with a profile
hook that counts every Python function entered (each resumption of a coroutine counts again)
and every C function called from Python, under bench/server.py's load (SQLite, the compiled
engine). The counts are zeroed once the tables play and read after ``--seconds``; each is
divided by the moves answered in that window.

    .venv/bin/python -m bench.calls [--rooms 300] [--seconds 30] [--top 60]

A count, not a time: it holds on a noisy machine, where two runs of bench.server differ by
more than a change of a few per cent, and it names the Python functions a move goes through,
which bench.instructions (callgrind: the interpreter's C functions) does not. The hook slows
the server down several times, so the load is light and the store's batches smaller than at
full speed.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

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
    wait_up,
)

Counts = collections.Counter[tuple[str, str]]
ROOT = str(Path(__file__).resolve().parents[1]) + os.sep


def _where(path: str) -> str:
    """A code object's file, short: the project's relative, a package's from its name on."""
    if "site-packages" in path:
        return path.split("site-packages" + os.sep, 1)[1]
    return path.removeprefix(ROOT)


def counter(counts: Counts) -> Callable[[FrameType, str, Any], None]:
    """A ``sys.setprofile`` hook that counts into ``counts``: each Python function entered
    (a coroutine each time it resumes) by its file and name, each C function by its name."""

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            counts[(_where(frame.f_code.co_filename), frame.f_code.co_qualname)] += 1
        elif event == "c_call":
            counts[("C", getattr(arg, "__qualname__", "?"))] += 1

    return hook


def write_counts(counts: Counts, dump: Path) -> None:
    dump.write_text("\n".join(f"{n}\t{where}\t{name}"
                              for (where, name), n in counts.most_common()))


def read_counts(dump: Path) -> Counts:
    counts: Counts = collections.Counter()
    for line in dump.read_text().splitlines():
        n, where, name = line.split("\t")
        counts[(where, name)] = int(n)
    return counts


def serve(args: list[str], dump: Path) -> None:
    """The server, counting: SIGUSR1 zeroes the counts, SIGUSR2 writes them to ``dump``."""
    from uvicorn.main import main as uvicorn_main  # noqa: PLC0415 (the server's process only)

    from app.__main__ import SERVE  # noqa: PLC0415

    counts: Counts = collections.Counter()
    signal.signal(signal.SIGUSR1, lambda _signum, _frame: counts.clear())
    signal.signal(signal.SIGUSR2, lambda _signum, _frame: write_counts(counts, dump))
    sys.setprofile(counter(counts))
    uvicorn_main([*SERVE, *args])


async def measure(rooms: int, seconds: float, folder: Path) -> tuple[Counts, int]:
    port = free_port()
    dump = folder / "counts.tsv"
    server = start_process(game_command("bench.calls", port, "--serve", str(dump)),
                           game_env(folder, "compiled"))

    async def idle() -> None:
        pass

    async def start() -> None:
        server.send_signal(signal.SIGUSR1)

    async def end() -> None:
        server.send_signal(signal.SIGUSR2)
        deadline = time.monotonic() + 30
        while not dump.exists() and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        await asyncio.sleep(0.5)  # written whole by then

    try:
        wait_up(f"http://127.0.0.1:{port}/healthz", server, 120)
        tables = await uno_rooms(f"http://127.0.0.1:{port}", rooms)
        result = await run_load(f"ws://127.0.0.1:{port}", tables, seconds, 3.0, False,
                                hooks=WindowHooks(idle, start, end))
    finally:
        stop(server)
    return read_counts(dump), int(result["actions"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--top", type=int, default=60)
    parser.add_argument("--serve", type=Path, help=argparse.SUPPRESS)
    args, rest = parser.parse_known_args()
    if args.serve is not None:
        serve(rest, args.serve)
        return
    raise_fd_limit()
    counts, moves = asyncio.run(measure(args.rooms, args.seconds,
                                        Path(tempfile.mkdtemp(prefix="uno-calls-"))))
    python = sum(n for (where, _), n in counts.items() if where != "C")
    native = sum(n for (where, _), n in counts.items() if where == "C")
    print(f"{moves} moves: {python / moves:.1f} Python calls and {native / moves:.1f} C calls "
          "per move")
    for (where, name), n in counts.most_common(args.top):
        print(f"  {n / moves:7.2f}  {name} ({where})")


if __name__ == "__main__":
    main()
