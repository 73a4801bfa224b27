"""/metrics tells an operator what stalls a worker: store commits, event-loop lag, GC pauses."""

from __future__ import annotations

import asyncio
import gc
import re

import httpx

from app.rooms.metrics import METRICS, watch_gc_pauses
from tests.server_fixture import ServerProcess

from .client import make_table


def sample(metrics: str, name: str) -> int:
    found = re.search(rf"^{name} (\d+)$", metrics, re.MULTILINE)
    assert found is not None, f"{name} missing from /metrics"
    return int(found[1])


def histogram_count(metrics: str, name: str) -> int:
    return sample(metrics, f"{name}_count")


async def test_metrics_time_commits_and_the_event_loop(live_server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=live_server.http_url) as http:
        before = (await http.get("/metrics")).text
        table = await make_table(live_server, ["Ann", "Bob"], seed=3,
                                 rules={"turn_seconds": 0})
        ann = table.players[0]
        await ann.ok("start")
        await ann.ok("chat", text="hi")
        await asyncio.sleep(0.3)  # a few lag probes (every 100 ms)
        after = (await http.get("/metrics")).text
        await table.close()
    for name in ("uno_store_commit_seconds", "uno_event_loop_lag_seconds"):
        assert histogram_count(after, name) > histogram_count(before, name)
    assert histogram_count(after, "uno_command_latency_seconds") >= (
        histogram_count(before, "uno_command_latency_seconds") + 2
    )
    assert 'uno_gc_pause_seconds_bucket{le="+Inf"}' in after
    # Group commit: at least one transaction more, and never more than commits.
    transactions = (sample(after, "uno_store_transactions_total")
                    - sample(before, "uno_store_transactions_total"))
    commits = (histogram_count(after, "uno_store_commit_seconds")
               - histogram_count(before, "uno_store_commit_seconds"))
    assert 1 <= transactions <= commits


def test_young_collections_count_as_pauses() -> None:
    """A young collection started by its allocation count paused the 500-room benchmark's
    worker for up to 60 ms (app/gc_schedule.py): every collection is a pause an operator
    must see."""
    watch_gc_pauses()
    before = METRICS.gc_pauses.total
    gc.collect(0)
    assert METRICS.gc_pauses.total == before + 1
