"""Where a move's CPU goes, by stage: bench/server.py's load (N rooms of 4 players, one action per
seat every 3 s, SQLite, the compiled engine), the worker sampled by py-spy through the measured
window (all its threads, idle ones left out), each sample put in the first stage its stack
reaches from the leaf up; the worker's CPU per action split by the stages' shares.

    .venv/bin/python -m bench.stages [--rooms 500] [--seconds 30] [--engine compiled|sources]
                                     [--native | --nonblocking]

Needs py-spy (a dev dependency). Shares are of samples, so a stage's milliseconds are an
estimate; the total is the measured CPU per action.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import shutil
import sys
import tempfile
from pathlib import Path

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

# Stage, and the frames (a function's name and its file) that mark it, checked from the leaf up:
# the first that matches names the sample's stage.
STAGES: list[tuple[str, tuple[str, ...]]] = [
    ("engine (rules, views, legal moves)", ("app/engine/",)),
    ("encode frames (JSON)", ("encode_event", "event_frame", "add_legal", "with_legal",
                              "state_frame", "compact_json")),
    ("store: batching, crossing to the writer", ("app/store/",)),
    ("parse a frame (edge)", ("parse_frame", "handle_text", "validate_json")),
    ("write frames to sockets", ("write_frames", "Connection.flush", "DirectSender",
                                 "_FlushAtTurnEnd")),
    ("fan-out to connections (hub, bus)", ("app/rooms/hub.py", "app/bus/", "Connection.deliver")),
    ("room actor (commands, people, timers)", ("app/rooms/",)),
    ("garbage collector", ("collect_on_schedule",)),
    ("WebSocket protocol (reading, pings)", ("websockets/", "uvicorn/protocols",
                                            "app/api/websocket_protocol.py")),
    ("edge (ws loop, limits)", ("app/api/",)),
]
OTHER = "event loop and the rest"
# Leaves where a thread waits, which py-spy does not always see as idle (a thread pool's worker
# blocked on its queue): not CPU, so left out of the shares.
WAITS = ("_worker (concurrent/futures/thread.py:81)", "_connection_worker_thread (aiosqlite/",
         "Condition.wait (threading.py", "Event.wait (threading.py", "SqliteWriter._next_batch")


# The SQLite transactions themselves, on the event loop's thread or the writer's.
WRITER_THREAD = ("_transactions (app/store/sqlite_file.py", "SqliteWriter._each",
                 "SqliteWriter._checkpoint_loop")


def stage_of(stack: list[str]) -> str:
    if any(frame.startswith(WRITER_THREAD) for frame in stack):  # all of a transaction's work
        return "store: SQLite transactions (SQLAlchemy, the driver)"
    for frame in reversed(stack):
        for stage, marks in STAGES:
            if any(mark in frame for mark in marks):
                return stage
    return OTHER


def shares(raw: Path) -> dict[str, float]:
    counts: collections.Counter[str] = collections.Counter()
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")
        if stack and not frames[-1].startswith(WAITS):
            counts[stage_of(frames)] += int(count)
    total = sum(counts.values()) or 1
    return {stage: n / total for stage, n in counts.most_common()}


async def profile(args: argparse.Namespace) -> tuple[float, dict[str, float], float]:
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="uno-stages-"))
    server = start_process(game_command("app", port), game_env(folder, args.engine))
    raw = folder / "profile.raw"
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    try:
        wait_up(f"http://127.0.0.1:{port}/healthz", server)
        rooms = await uno_rooms(f"http://127.0.0.1:{port}", args.rooms)

        async def sample() -> None:
            await asyncio.sleep(8)  # the sockets connected and the warm-up over
            process = await asyncio.create_subprocess_exec(
                spy, "record", "--pid", str(server.pid), "--duration",
                str(int(args.seconds - 4)), "--format", "raw",
                # py-spy pauses the worker for each sample unless --nonblocking: read without a
                # pause, a coroutine's frames were mostly lost on Python 3.11 (two thirds of a
                # table start's samples ended in ``Runner.run``, against a seventh paused).
                # --native lands samples in system calls more often than their share of the time
                *(["--native"] if args.native else []),
                *(["--nonblocking"] if args.nonblocking else []), "-o", str(raw),
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.DEVNULL)
            await process.wait()

        sampler = asyncio.create_task(sample())
        result = await run_load(f"ws://127.0.0.1:{port}", rooms, args.seconds, 3.0, False,
                                server_pid=server.pid)
        await sampler
    finally:
        stop(server)
    print(f"py-spy's samples: {raw}")
    return result["server_cpu_ms_per_action"], shares(raw), result["actions_per_s"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--engine", choices=("compiled", "sources"), default="compiled")
    sampling = parser.add_mutually_exclusive_group()
    sampling.add_argument("--native", action="store_true",
                          help="py-spy's --native: C frames too (uvloop, the compiled engine)")
    sampling.add_argument("--nonblocking", action="store_true",
                          help="py-spy's --nonblocking: no pause (coroutines' frames lost)")
    parser.add_argument("--shares-of", type=Path, metavar="RAW",
                        help="only the shares of an earlier run's samples (no load)")
    args = parser.parse_args()
    if args.shares_of:
        for stage, share in shares(args.shares_of).items():
            print(f"| {stage} | {share:.1%} |")
        return
    raise_fd_limit()
    per_action, by_stage, rate = asyncio.run(profile(args))
    print(f"{args.rooms} rooms, {rate:.0f} actions/s: {per_action:.3f} ms of worker CPU per "
          f"action (py-spy sampling adds a little)")
    print("| stage | share of samples | ms per action |")
    print("| --- | --- | --- |")
    for stage, share in by_stage.items():
        print(f"| {stage} | {share:.1%} | {share * per_action:.3f} |")


if __name__ == "__main__":
    main()
