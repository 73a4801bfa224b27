"""Process-wide counters for /metrics: commands, their latency, errors by code, and what stalls
a worker (store commits, event-loop lag, garbage-collector pauses)."""

from __future__ import annotations

import asyncio
import bisect
import gc
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.015, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


@dataclass(slots=True)
class Histogram:
    """A Prometheus histogram over ``LATENCY_BUCKETS`` (seconds)."""

    counts: list[int] = field(default_factory=lambda: [0] * (len(LATENCY_BUCKETS) + 1))
    total: int = 0
    sum: float = 0.0
    max: float = 0.0

    def observe(self, seconds: float) -> None:
        self.total += 1
        self.sum += seconds
        self.max = max(self.max, seconds)
        self.counts[bisect.bisect_left(LATENCY_BUCKETS, seconds)] += 1

    def render(self, name: str, help_text: str) -> list[str]:
        lines = [f"# HELP {name} {help_text}", f"# TYPE {name} histogram"]
        running = 0
        for bound, count in zip(LATENCY_BUCKETS, self.counts, strict=False):
            running += count
            lines.append(f'{name}_bucket{{le="{bound}"}} {running}')
        lines.append(f'{name}_bucket{{le="+Inf"}} {self.total}')
        lines.append(f"{name}_sum {self.sum:.6f}")
        lines.append(f"{name}_count {self.total}")
        return lines


@dataclass(slots=True)
class Metrics:
    commands: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    latency: Histogram = field(default_factory=Histogram)  # arrival -> last event published
    commits: Histogram = field(default_factory=Histogram)  # a command's record being stored
    loop_lag: Histogram = field(default_factory=Histogram)  # how late the event loop wakes up
    gc_pauses: Histogram = field(default_factory=Histogram)  # garbage collections
    sockets: int = 0
    _recent: deque[float] = field(default_factory=deque)  # monotonic times, last 10 s

    def command_done(self, seconds: float) -> None:
        """One accepted command, ``seconds`` from arrival to its last event published."""
        self.commands += 1
        self.latency.observe(seconds)
        now = time.monotonic()
        self._recent.append(now)
        while self._recent and self._recent[0] < now - 10:
            self._recent.popleft()

    def error(self, code: str) -> None:
        self.errors[code] += 1

    def commands_per_second(self) -> float:
        now = time.monotonic()
        while self._recent and self._recent[0] < now - 10:
            self._recent.popleft()
        return len(self._recent) / 10


METRICS = Metrics()

LAG_PROBE_SECONDS = 0.1


async def watch_loop_lag(metrics: Metrics = METRICS) -> None:
    """Sleep in short steps and record how late each wake-up is: a blocked event loop delays
    every room of the worker at once."""
    loop = asyncio.get_running_loop()
    while True:
        expected = loop.time() + LAG_PROBE_SECONDS
        await asyncio.sleep(LAG_PROBE_SECONDS)
        metrics.loop_lag.observe(max(0.0, loop.time() - expected))


_gc_started = 0.0


def _time_collection(phase: str, _info: dict[str, Any]) -> None:
    global _gc_started  # one collector per process
    # Every generation: a young collection started by its allocation count took up to 60 ms
    # under load (see app/gc_schedule.py); the scheduled ones should stay short.
    if phase == "start":
        _gc_started = time.perf_counter()
    else:
        METRICS.gc_pauses.observe(time.perf_counter() - _gc_started)


def watch_gc_pauses() -> None:
    """Time every garbage collection, once per process."""
    if _time_collection not in gc.callbacks:
        gc.callbacks.append(_time_collection)
