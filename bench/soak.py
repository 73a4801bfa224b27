"""Memory at a steady load: N rooms of 4 players (bench.server's load, one action per seat every
3 s) for ``--minutes``, the server's RSS and its SQLite WAL sampled every ``--sample`` seconds.
Prints each sample, and the growth from the end of the warm-up (``--warmup`` minutes) to the
end, in MB and per cent. With ``--trace`` the server runs under tracemalloc and the lines that
allocated what grew between the end of the warm-up and the end are printed (slower: the
figures of a traced run are not the untraced server's).

    .venv/bin/python -m bench.soak [--rooms 500] [--minutes 60] [--warmup 5] [--sample 60]
                                   [--trace] [--engine compiled|sources]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import tempfile
import time
import tracemalloc
from pathlib import Path

from bench import memory
from bench.memory import playing, serve
from bench.server import close_all, cpu_seconds, free_port, raise_fd_limit, rss_mb, stop


def wal_mb(database: Path) -> float:
    wal = Path(f"{database}-wal")
    return wal.stat().st_size / 1e6 if wal.exists() else 0.0


async def soak(args: argparse.Namespace) -> None:
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="uno-soak-"))
    dump, db_file = folder / "snapshot", folder / "uno.db"
    process = serve(port, args.trace, dump, db_file)
    url, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    total = args.minutes * 60
    samples: list[tuple[float, float, float, float]] = []  # minute, RSS MB, WAL MB, CPU s
    started = time.perf_counter()

    async def sample() -> None:
        while True:
            minute = (time.perf_counter() - started) / 60
            samples.append((minute, rss_mb(process.pid), wal_mb(db_file),
                            cpu_seconds(process.pid)))
            m, rss, wal, cpu = samples[-1]
            print(f"{m:6.1f} min  RSS {rss:7.1f} MB  WAL {wal:7.1f} MB  CPU {cpu:7.1f} s",
                  flush=True)
            if args.trace and abs(minute - args.warmup) < args.sample / 120:
                os.kill(process.pid, signal.SIGUSR1)
            await asyncio.sleep(args.sample)

    sampler = asyncio.create_task(sample())
    try:
        tables = await playing(url, ws, args.rooms, total)
        if args.trace:
            os.kill(process.pid, signal.SIGUSR1)
            await asyncio.sleep(10)
        sampler.cancel()
        samples.append(((time.perf_counter() - started) / 60, rss_mb(process.pid),
                        wal_mb(db_file), cpu_seconds(process.pid)))
        close_all(tables)
    finally:
        stop(process)
    report(samples, args.warmup)
    if args.trace:
        traced_diff(dump, args.rooms * 4, args.top)


def report(samples: list[tuple[float, float, float, float]], warmup: float) -> None:
    after = [s for s in samples if s[0] >= warmup] or samples[-1:]
    first, last = after[0], samples[-1]
    grown = last[1] - first[1]
    hours = max(last[0] - first[0], 1e-9) / 60
    print(f"RSS {first[1]:.1f} MB at {first[0]:.1f} min -> {last[1]:.1f} MB at {last[0]:.1f} min:"
          f" {grown:+.1f} MB ({100 * grown / first[1]:+.1f} %, {grown / hours:+.1f} MB/hour);"
          f" WAL at most {max(s[2] for s in samples):.1f} MB")


def traced_diff(dump: Path, sockets: int, top: int) -> None:
    snapshots = sorted(dump.parent.glob(f"{dump.name}.*"), key=lambda p: int(p.suffix[1:]))
    if len(snapshots) < 2:
        print("traced: fewer than two snapshots (a run shorter than its warm-up?)")
        return
    before = tracemalloc.Snapshot.load(str(snapshots[0]))
    after = tracemalloc.Snapshot.load(str(snapshots[-1]))
    diff = after.compare_to(before, "lineno")
    print(f"traced: {sum(d.size_diff for d in diff) / 1e6:+.2f} MB of Python allocations grew "
          f"between the snapshots ({sockets} sockets)")
    for stat in diff[:top]:
        frame = stat.traceback[0]
        print(f"  {stat.size_diff / 1024:+9.1f} KB {stat.count_diff:+8d} blocks  "
              f"{Path(frame.filename).name}:{frame.lineno}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=500)
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=5.0, help="minutes before growth counts")
    parser.add_argument("--sample", type=float, default=60.0, help="seconds between samples")
    parser.add_argument("--trace", action="store_true")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--engine", choices=("compiled", "sources"), default="compiled")
    args = parser.parse_args()
    memory.ENGINE = args.engine
    raise_fd_limit()
    asyncio.run(soak(args))


if __name__ == "__main__":
    main()
