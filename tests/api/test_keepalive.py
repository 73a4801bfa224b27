"""The keepalive pings of every socket, from one timer per loop: each ping sent once, about
when it is due (a tick late at most), a removed one never, and a ping that fails does not keep
the others from going out."""

from __future__ import annotations

import asyncio

from app.api.keepalive import PingWheel

TICK = 0.02


class Socket:
    def __init__(self, pinged: list[str], name: str, fails: bool = False) -> None:
        self.pinged, self.name, self.fails = pinged, name, fails

    def send_keepalive_ping(self) -> None:
        if self.fails:
            raise RuntimeError("the transport is gone")
        self.pinged.append(self.name)


async def test_each_ping_goes_out_once_when_due_and_a_removed_one_never() -> None:
    wheel = PingWheel(asyncio.get_running_loop(), TICK)
    pinged: list[str] = []
    wheel.add(Socket(pinged, "late"), 0.2)
    wheel.add(Socket(pinged, "soon"), 0.05)
    gone = Socket(pinged, "gone")
    wheel.remove(gone, wheel.add(gone, 0.05))
    await asyncio.sleep(0.05 + 2 * TICK)
    assert pinged == ["soon"]
    await asyncio.sleep(0.15)
    assert pinged == ["soon", "late"]
    assert len(wheel) == 0


async def test_a_failing_ping_does_not_hold_back_the_others() -> None:
    wheel = PingWheel(asyncio.get_running_loop(), TICK)
    pinged: list[str] = []
    for name in ("a", "b"):
        wheel.add(Socket(pinged, "x", fails=True), 0.01)
        wheel.add(Socket(pinged, name), 0.01)
    await asyncio.sleep(0.01 + 3 * TICK)
    assert sorted(pinged) == ["a", "b"]


async def test_a_ping_sent_may_schedule_the_next_one() -> None:
    wheel = PingWheel(asyncio.get_running_loop(), TICK)
    pinged: list[str] = []

    class Again(Socket):
        def send_keepalive_ping(self) -> None:
            super().send_keepalive_ping()
            if len(self.pinged) < 3:
                wheel.add(self, 0.01)

    wheel.add(Again(pinged, "again"), 0.01)
    wheel.add(Socket(pinged, "other"), 0.1)
    await asyncio.sleep(0.3)
    assert pinged.count("again") == 3 and pinged.count("other") == 1
