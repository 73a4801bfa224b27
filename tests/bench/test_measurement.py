"""The benchmarks measure the server, not the clients: a pause of the load generator itself
before the measured window must not show up as latency."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import subprocess
import sys
import time

import pytest

from bench import server as bench_server

PAUSE = 0.3  # seconds: what a full collection of 2,000 clients' state cost (100-180 ms)


async def test_the_clients_full_collection_is_not_counted_as_latency(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``clients_without_gc`` starts with a full collection, which stalls the clients' event
    loop: it ran once the window had begun, so every move in flight then was counted
    PAUSE seconds late (the p99 of a run swung by tens of milliseconds with it)."""
    collected: list[float] = []

    def slow_collect(generation: int = 2) -> int:
        collected.append(time.perf_counter())
        time.sleep(PAUSE)  # blocks the loop, as a real collection does
        return 0

    port = bench_server.free_port()
    # Each move takes 30 ms on the server: with a move every 5 ms per room, one is nearly
    # always in flight whenever the clients pause.
    server = asyncio.create_task(bench_server.bare_server(port, delay=0.03))
    try:
        await asyncio.sleep(0.2)
        monkeypatch.setattr(gc, "collect", slow_collect)
        rooms = [(f"r{i}", ["", "", "", ""]) for i in range(4)]
        result = await bench_server.run_load(f"ws://127.0.0.1:{port}", rooms, seconds=0.6,
                                             interval=0.02, bare=True)
    finally:
        server.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await server
    assert collected, "the clients' collection did not run: the test proves nothing"
    assert result["actions"] > 20
    # p99 of a few dozen moves is their slowest: none of them waited for the collection.
    assert result["p99_ms"] < PAUSE * 1000 / 2, result


def test_a_move_sent_in_the_warm_up_counts_there_even_if_answered_in_the_window() -> None:
    """At 1,500 rooms every table starts within the first 3 s, and the start-up burst's moves
    were answered seconds later, inside the window: counted there, they were its p99 (1.3-3.6
    s, where the moves sent inside the window had 14-44 ms). They go to the warm-up's figures."""
    window: list[bench_server.Move] = []
    warmup: list[bench_server.Move] = []
    room = bench_server.BenchRoom("r0", ["", "", "", ""], window, warmup)
    room.counted_from = 10.0  # the window starts

    def move(sent_at: float, answered_at: float) -> None:
        room.sent_at, room.target = sent_at, 1
        room.got.clear()
        for seat in room.seats:
            room.arrived(seat, 1, answered_at)

    move(sent_at=8.0, answered_at=12.5)  # the burst's straggler
    move(sent_at=11.0, answered_at=11.02)
    assert warmup == [(8.0, 4.5)]
    assert [(sent, round(latency, 3)) for sent, latency in window] == [(11.0, 0.02)]


def test_a_server_that_does_not_come_up_in_time_is_stopped_not_left_running() -> None:
    # bench.memory --trace's server (tracemalloc, the engine's sources) once took longer than
    # the wait: the benchmark failed and its server stayed, using a core's 3 % beside every
    # later run.
    slow = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        with pytest.raises(RuntimeError, match="did not come up"):
            bench_server.wait_up(f"http://127.0.0.1:{bench_server.free_port()}/healthz", slow,
                                 seconds=0.5)
        assert slow.poll() is not None
    finally:
        slow.kill()
        slow.wait()
