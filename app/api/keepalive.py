"""Every socket's keepalive ping from one timer per event loop. uvicorn gives each socket a
timer handle for its next ping (the handle, its callback and its context: 500 bytes a socket in
``bench.memory --trace``); here a socket waits in the set of the tick its ping is due in, and
one timer sends the pings of each tick, a tick (a second) late at most. Sockets that connected
together are due together (2,000 a tick at 6,000 sockets: a 20-30 ms stall for every room of
the worker), so a tick's pings go out ``PER_TURN`` at a time, other callbacks in between.

    wheel = pings(loop); slot = wheel.add(protocol, 20.0)   # protocol.send_keepalive_ping()
    wheel.remove(protocol, slot)                              # in 20 to 21 seconds, or never
"""

from __future__ import annotations

import asyncio
import logging
import math
import threading
from typing import Protocol

log = logging.getLogger("uno.ws")
TICK = 1.0  # seconds: how late a ping may be


class Pinger(Protocol):
    def send_keepalive_ping(self) -> None: ...


class PingWheel:
    __slots__ = ("_armed", "_due", "_loop", "_sending", "_tick", "_timer")
    PER_TURN = 64  # pings sent in one callback: about 1 ms of the event loop

    def __init__(self, loop: asyncio.AbstractEventLoop, tick: float | None = None) -> None:
        self._loop = loop
        self._tick = TICK if tick is None else tick
        self._due: dict[int, set[Pinger]] = {}  # tick number -> the sockets to ping then
        self._timer: asyncio.TimerHandle | None = None
        self._armed: int | None = None  # the tick the timer is set for
        self._sending: dict[Pinger, None] = {}  # due now: sent PER_TURN at a time

    def add(self, pinger: Pinger, delay: float) -> int:
        """Ping ``pinger`` once, ``delay`` seconds from now or a tick later; the slot that
        ``remove`` takes."""
        slot = math.ceil((self._loop.time() + delay) / self._tick)
        self._due.setdefault(slot, set()).add(pinger)
        if self._armed is None or slot < self._armed:
            self._arm(slot)
        return slot

    def remove(self, pinger: Pinger, slot: int) -> None:
        self._sending.pop(pinger, None)
        due = self._due.get(slot)
        if due is not None:
            due.discard(pinger)
            if not due:
                del self._due[slot]

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        return self._loop

    def __len__(self) -> int:
        return sum(len(due) for due in self._due.values()) + len(self._sending)

    def _arm(self, slot: int) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._armed = slot
        self._timer = self._loop.call_at(slot * self._tick, self._run)

    def _run(self) -> None:
        self._timer = self._armed = None
        now = self._loop.time()
        was_sending = bool(self._sending)
        for slot in sorted(slot for slot in self._due if slot * self._tick <= now):
            self._sending.update(dict.fromkeys(self._due.pop(slot)))
        if self._sending and not was_sending:
            self._send_some()
        if self._due:  # a ping sent may have set the timer already, for a later tick
            first = min(self._due)
            if self._armed is None or first < self._armed:
                self._arm(first)

    def _send_some(self) -> None:
        sending = self._sending
        for _ in range(min(self.PER_TURN, len(sending))):
            pinger, _ = sending.popitem()  # the last first: O(1), where the first is not
            try:
                pinger.send_keepalive_ping()
            except Exception:  # one socket's failure is no reason to skip the others'
                log.exception("a keepalive ping failed")
        if sending:
            self._loop.call_soon(self._send_some)


class _WheelOfThread(threading.local):
    """One wheel per thread, as each thread runs its own loop (tests serve a worker on one)."""

    def __init__(self) -> None:
        self.wheel: PingWheel | None = None


_WHEEL = _WheelOfThread()


def pings(loop: asyncio.AbstractEventLoop) -> PingWheel:
    """The wheel of ``loop``, the running thread's."""
    wheel = _WHEEL.wheel
    if wheel is None or wheel.loop is not loop:
        wheel = _WHEEL.wheel = PingWheel(loop)
    return wheel
