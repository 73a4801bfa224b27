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


async def test_a_tick_of_many_pings_leaves_the_loop_to_others_between_batches() -> None:
    """Sockets that connected together are due together: 6,000 of them made one callback of
    2,000 pings a tick, a 20-30 ms stall for every room of the worker (bench.server at 1,500
    rooms). The pings of a tick go out a batch at a time, other callbacks in between."""
    loop = asyncio.get_running_loop()
    wheel = PingWheel(loop, TICK)
    pinged: list[str] = []
    sockets = [Socket(pinged, f"s{n}") for n in range(1000)]
    slots = [wheel.add(socket, 0.01) for socket in sockets]
    seen_at: list[int] = []
    removed: list[str] = []

    def other_work() -> None:  # a room's message, a socket's read: due while the pings go out
        seen_at.append(len(pinged))
        if len(pinged) < len(sockets) and len(seen_at) < 100:
            loop.call_soon(other_work)

    def first_batch_out() -> None:
        if pinged:
            other_work()
            n = next(n for n, socket in enumerate(sockets) if socket.name not in pinged)
            wheel.remove(sockets[n], slots[n])  # closed while its tick's pings go out
            removed.append(sockets[n].name)
        else:
            loop.call_soon(first_batch_out)

    loop.call_soon(first_batch_out)
    await asyncio.sleep(0.01 + 3 * TICK)
    # Each once, the removed one never.
    assert sorted(pinged) == sorted(s.name for s in sockets if s.name not in removed)
    assert seen_at[0] <= PingWheel.PER_TURN  # the first batch alone, then other work
    assert len([n for n in seen_at if 0 < n < 999]) >= 999 // PingWheel.PER_TURN - 1
    assert len(wheel) == 0
