"""bench.starts measures tables starting against the real server: every table's start is
answered on all four of its sockets, and the worker's CPU is divided among the starts."""

from __future__ import annotations

import math

from bench.starts import one_run


async def test_every_table_starts_and_its_start_is_timed_to_the_last_socket() -> None:
    run = await one_run(rooms=3, spread=0.2, engine="sources")
    assert run["starts"] == 3  # each room's start reached all four of its sockets
    assert 0.0 < run["p50_ms"] <= run["p99_ms"] <= run["max_ms"] < 60_000
    assert math.isfinite(run["cpu_ms_per_start"])
    assert run["idle_ms_per_s"] >= 0.0
