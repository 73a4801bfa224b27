"""Sliding-window rate limits: per socket, and per client for unknown room codes."""

from __future__ import annotations

import time
from collections import deque


class RateLimiter:
    """At most ``limit`` messages per ``window`` seconds; ``abusive`` after ``extra`` refusals
    in one window."""

    def __init__(self, limit: int, window: float, extra: int) -> None:
        self.limit = limit
        self.window = window
        self.extra = extra
        self._times: deque[float] = deque()
        self.refused = 0

    def allow(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        times = self._times
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) >= self.limit:
            self.refused += 1
            return False
        if not times:
            self.refused = 0
        times.append(now)
        return True

    @property
    def abusive(self) -> bool:
        return self.refused > self.extra


class KeyedRateLimiter:
    """One small window per key (a client address), forgotten once quiet."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._hits: dict[str, deque[float]] = {}

    def hit(self, key: str) -> bool:
        """Count one hit for ``key``; False when over the limit."""
        now = time.monotonic()
        if len(self._hits) > 10000:
            self._hits = {k: v for k, v in self._hits.items() if v and v[-1] > now - self.window}
        times = self._hits.setdefault(key, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) >= self.limit:
            return False
        times.append(now)
        return True

    def blocked(self, key: str) -> bool:
        now = time.monotonic()
        times = self._hits.get(key)
        if not times:
            return False
        return sum(1 for t in times if t > now - self.window) >= self.limit
