"""Limits per socket, per person and per client (a client address, see ``clients``):
sliding-window rates and open sockets. Each client is counted apart, so one client at a limit
never slows another; where a token proves a person (a seat's, a spectator's), the person is
counted, so many people behind one address (a party on one Wi-Fi) each get their own share.

    socket_rate = RateLimiter(100, 20.0, extra=20)   # one socket's messages
    person_rate = KeyedRateLimiter(600, 20.0, extra=100)   # all sockets of one person (or of
    person_rate.allow(ticket.key)                          # one address, for anonymous ones)
    sockets = SocketLimits(32, 8, 512); ticket = sockets.open("203.0.113.9")
    sockets.claim(ticket, token_hash) ... sockets.close(ticket)
"""

from __future__ import annotations

import time
from array import array
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
        # Doubles in an array: 8 bytes a hit, where a list of floats took 32 (a socket's and
        # its person's limiters hold a window's hits each; one address's, up to thousands).
        self.times = array("d")
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

    def allow(self, key: str, now: float | None = None) -> bool:
        """Count one hit for ``key`` (at ``now``, monotonic); False when over the limit."""
        limiter = self._keys.get(key)  # the lookup, not ``_of``: a hit for every message
        if limiter is None:
            limiter = self._of(key)
        return limiter.allow(now)

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


class Ticket:
    """One open socket as the limits count it: under its address, or, once it showed a token,
    under that person (``person``: the token's hash)."""

    __slots__ = ("address", "person")

    def __init__(self, address: str) -> None:
        self.address = address
        self.person: str | None = None

    @property
    def key(self) -> str:
        """What its messages count under: the person, or the address."""
        return self.person or self.address


class SocketLimits:
    """Open sockets, counted per person where a token proves one, per address for the rest:
    a party of thirty behind one Wi-Fi each holds its own few, while one address opening
    anonymous sockets in bulk is held to ``anonymous``; ``per_address`` caps it all."""

    def __init__(self, anonymous: int, per_person: int, per_address: int) -> None:
        self._anonymous = SocketCounter(anonymous)
        self._people = SocketCounter(per_person)
        self._addresses = SocketCounter(per_address)

    def open(self, address: str) -> Ticket | None:
        """A new socket of ``address``, anonymous for now; None (not counted): over a limit."""
        if self._anonymous.count(address) >= self._anonymous.limit:
            return None
        if not self._addresses.open(address):
            return None
        self._anonymous.open(address)
        return Ticket(address)

    def claim(self, ticket: Ticket, person: str) -> bool:
        """The socket carries ``person``'s token: it counts as theirs from now on (the room
        closes it at once if the token proves nobody); False (still the address's) when that
        person holds ``per_person`` sockets already."""
        if not self._people.open(person):
            return False
        self._anonymous.close(ticket.address)
        ticket.person = person
        return True

    def close(self, ticket: Ticket) -> None:
        self._addresses.close(ticket.address)
        if ticket.person is None:
            self._anonymous.close(ticket.address)
        else:
            self._people.close(ticket.person)
