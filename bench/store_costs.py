"""What the SQLite store costs per transaction: CPU (both threads, and the event loop's share) of
the room log's appends one at a time and 14 at a time (a quiet worker's batches and a busy
one's), each to the next of ``--rooms`` rooms in turn, of a match's start (its row, seats and
log tagging) and of a game's snapshot through the same writer, as ``python -m app`` runs them
(a SQLite file, uvloop).

    .venv/bin/python -m bench.store_costs [--appends 4000] [--matches 1000] [--rooms 14]

With ``--rooms 1500`` the appends go to as many rooms as bench.server's load: each batch's
lines land on other pages of the log's index, as they do there.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import tempfile
import time
from pathlib import Path
from typing import Any

import uvloop

from app.engine import Game, preset
from app.store.base import RoomRecord
from app.store.db import create_engine, dispose_engine, migrate
from app.store.history import HistoryStore, MatchPlayer
from app.store.sql import SqlRoomStore

EVENT = {"kind": "played", "public": {"seat": 1, "card": "R7", "hand_count": 5, "next": 2},
         "private": {}, "seq": 0}
RULES = {"scoring": "winner_takes", "target": 500, "stacking": False, "jump_in": True}


async def measure(appends: int, matches: int, rooms: int) -> list[str]:
    url = f"sqlite+aiosqlite:///{Path(tempfile.mkdtemp(prefix='uno-costs-')) / 'bench.db'}"
    await migrate(url)
    engine = create_engine(url)
    store = SqlRoomStore(engine, gather_seconds=0)  # each batch as it is, written at once
    history = HistoryStore(engine, store.in_writer)
    codes = [f"C{n:04}" for n in range(max(rooms, 14))]
    seqs = dict.fromkeys(codes, 0)
    for code in codes:
        await store.create_room(code, {})
    turns = itertools.cycle(codes)  # each append to the next room

    async def append(code: str) -> None:
        seqs[code] += 1
        seq = seqs[code]
        await store.append(code, RoomRecord(seq, 1, {"type": "play", "card": "R7"}, seq,
                                            [{**EVENT, "seq": seq}]), None)

    async def start_match() -> None:
        code = codes[0]
        seqs[code] += 1
        await history.start_match(code, seed=7, rules=RULES, first_seq=seqs[code],
                                  seats=[MatchPlayer(f"Seat {n}") for n in range(4)])

    snapshot = Game.start(4, preset("official"), seed=7)[0].snapshot()

    async def save_snapshot() -> None:
        await store.save_snapshot(codes[1], seqs[codes[1]], snapshot)

    lines = []
    for name, runs, step in (("append, one at a time", appends, lambda: append(next(turns))),
                             ("appends, 14 at a time", appends // 14,
                              lambda: asyncio.gather(*(append(next(turns)) for _ in range(14)))),
                             ("a match's start", matches, start_match),
                             ("a snapshot (four players' game)", matches, save_snapshot)):
        await step()  # warm: statements compiled, connection open
        cpu, main = time.process_time(), time.thread_time()
        for _ in range(runs):
            await step()
        cpu, main = time.process_time() - cpu, time.thread_time() - main
        lines.append(f"{name}: {cpu / runs * 1000:.3f} ms of CPU per transaction "
                     f"(the event loop's thread {main / runs * 1000:.3f} ms)")
    await dispose_engine(engine)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--appends", type=int, default=4000)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--rooms", type=int, default=14, help="rooms the appends take turns in")
    args: Any = parser.parse_args()
    for line in uvloop.run(measure(args.appends, args.matches, args.rooms)):
        print(line)


if __name__ == "__main__":
    main()
