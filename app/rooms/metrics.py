"""Process-wide counters for /metrics: commands, their latency, errors by code."""

from __future__ import annotations

import bisect
import time
from collections import Counter, deque
from dataclasses import dataclass, field

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.015, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


@dataclass(slots=True)
class Metrics:
    commands: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    latency_counts: list[int] = field(default_factory=lambda: [0] * (len(LATENCY_BUCKETS) + 1))
    latency_sum: float = 0.0
    sockets: int = 0
    _recent: deque[float] = field(default_factory=deque)  # monotonic times, last 10 s

    def command_done(self, seconds: float) -> None:
        """One accepted command, ``seconds`` from arrival to its last event published."""
        self.commands += 1
        self.latency_sum += seconds
        self.latency_counts[bisect.bisect_left(LATENCY_BUCKETS, seconds)] += 1
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
