"""bench.calls counts what a move calls: each Python function entered, a coroutine again each
time it resumes, and each C function, and reads back what the server's process wrote."""

from __future__ import annotations

import asyncio
import collections
import math
import sys
from pathlib import Path

from bench.calls import Counts, counter, read_counts, write_counts


async def _waits_once() -> float:
    await asyncio.sleep(0)
    return math.hypot(3.0, 4.0)


def test_a_coroutine_counts_once_entered_and_once_each_time_it_resumes() -> None:
    counts: Counts = collections.Counter()
    sys.setprofile(counter(counts))
    try:
        assert asyncio.run(_waits_once()) == 5.0
    finally:
        sys.setprofile(None)
    assert counts[("tests/bench/test_calls.py", "_waits_once")] == 2
    assert counts[("C", "hypot")] == 1


def test_the_counts_read_back_as_written(tmp_path: Path) -> None:
    counts: Counts = collections.Counter({("app/rooms/hub.py", "Hub._on_message"): 7,
                                          ("C", "list.append"): 30})
    dump = tmp_path / "counts.tsv"
    write_counts(counts, dump)
    assert read_counts(dump) == counts
