"""Limits per socket and per client (a client address, see ``clients``): sliding-window rates
and open sockets. Each client is counted apart, so one client at a limit never slows another.

    socket_rate = RateLimiter(100, 20.0, extra=20)   # one socket's messages
    client_rate = KeyedRateLimiter(600, 20.0, extra=100)   # all sockets of one address
    client_rate.allow("203.0.113.9"); client_rate.abusive("203.0.113.9")
    sockets = SocketCounter(32); sockets.open("203.0.113.9") ... sockets.close(...)
"""

from __future__ import annotations

import time
from bisect import bisect_right

FORGET_AFTER = 10_000  # keys kept before quiet ones are dropped


class RateLimiter:
    """At most ``limit`` hits per ``window`` seconds; ``abusive`` after ``extra`` refusals in
    one window."""

    __slots__ = ("extra", "limit", "refused", "times", "window")

    def __init__(self, limit: int, window: float, extra: int = 0) -> None:
        self.limit = limit
        self.window = window
        self.extra = extra
        self.times: list[float] = []  # a deque's first block alone is 760 bytes, per socket
        self.refused = 0

    def allow(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        times = self.times
        if times and times[0] <= now - self.window:
            del times[:bisect_right(times, now - self.window)]
        if len(times) >= self.limit:
            self.refused += 1
            return False
        if not times:
            self.refused = 0
        times.append(now)
        return True

    def full(self, now: float | None = None) -> bool:
        """Would the next hit be refused?"""
        now = time.monotonic() if now is None else now
        return sum(1 for t in self.times if t > now - self.window) >= self.limit

    def retry_after(self, now: float | None = None) -> float:
        """Seconds until a hit would be allowed again (0: now)."""
        now = time.monotonic() if now is None else now
        live = [t for t in self.times if t > now - self.window]
        if len(live) < self.limit:
            return 0.0
        return live[len(live) - self.limit] + self.window - now

    @property
    def abusive(self) -> bool:
        return self.refused > self.extra


class KeyedRateLimiter:
    """A ``RateLimiter`` per key (a client address), forgotten once quiet."""

    def __init__(self, limit: int, window: float, extra: int = 0) -> None:
        self.limit = limit
        self.window = window
        self.extra = extra
        self._keys: dict[str, RateLimiter] = {}

    def _of(self, key: str) -> RateLimiter:
        limiter = self._keys.get(key)
        if limiter is None:
            if len(self._keys) >= FORGET_AFTER:
                now = time.monotonic()
                self._keys = {k: v for k, v in self._keys.items()
                              if v.times and v.times[-1] > now - self.window}
            limiter = self._keys[key] = RateLimiter(self.limit, self.window, self.extra)
        return limiter

    def allow(self, key: str) -> bool:
        """Count one hit for ``key``; False when over the limit."""
        return self._of(key).allow()

    hit = allow

    def blocked(self, key: str) -> bool:
        limiter = self._keys.get(key)
        return limiter is not None and limiter.full()

    def abusive(self, key: str) -> bool:
        limiter = self._keys.get(key)
        return limiter is not None and limiter.abusive

    def retry_after(self, key: str) -> float:
        limiter = self._keys.get(key)
        return 0.0 if limiter is None else limiter.retry_after()


class SocketCounter:
    """Open sockets per client; at most ``limit`` at once."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: dict[str, int] = {}

    def open(self, key: str) -> bool:
        """Count a new socket of ``key``; False (not counted) when it has ``limit`` open."""
        count = self._open.get(key, 0)
        if count >= self.limit:
            return False
        self._open[key] = count + 1
        return True

    def close(self, key: str) -> None:
        count = self._open.get(key, 0) - 1
        if count > 0:
            self._open[key] = count
        else:
            self._open.pop(key, None)

    def count(self, key: str) -> int:
        return self._open.get(key, 0)
